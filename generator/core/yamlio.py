"""Safe YAML reading that keeps line numbers, so every error can name `file:line`."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from generator.core.errors import InputError, Problem
from generator.core.lfs import lfs_pointer_text
from generator.core.limits import MAX_YAML_BYTES, MAX_YAML_DEPTH, MAX_YAML_ITEMS, check_file_size


class YDict(dict):
    """A mapping from YAML that remembers its own line and the line of each key."""

    line: int = 0
    key_lines: dict

    def line_of(self, key, default: int | None = None) -> int:
        """Line of `key` in the file, else of the mapping itself."""
        return self.key_lines.get(key, default if default is not None else self.line)


class YList(list):
    """A sequence from YAML that remembers its own line and the line of each item."""

    line: int = 0
    item_lines: list

    def line_of(self, index: int) -> int:
        """Line of item `index` in the file."""
        return self.item_lines[index] if 0 <= index < len(self.item_lines) else self.line


class _LineLoader(yaml.SafeLoader):
    """SafeLoader (no Python tags are ever constructed) that records line numbers: the pure-Python reference,
    used where libyaml is missing and to word the message of a broken file exactly as it always was. It
    refuses nesting deeper than MAX_YAML_DEPTH (PyYAML composes recursively: a few hundred levels would end in
    a RecursionError)."""

    def __init__(self, stream) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent, index):
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise yaml.composer.ComposerError(
                    None, None, f"the data is nested more than {MAX_DEPTH} levels deep; expected at most "
                    f"{MAX_DEPTH} levels of mappings and lists", self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> YDict:
    loader.flatten_mapping(node)
    result = YDict()
    result.line = node.start_mark.line + 1
    result.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, (str, int, float, bool)) and key is not None:
            raise yaml.constructor.ConstructorError(
                None, None, "a mapping key must be a plain value", key_node.start_mark
            )
        if key in result.key_lines:
            raise yaml.constructor.ConstructorError(
                None, None, f"key '{key}' appears twice in this mapping", key_node.start_mark
            )
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = key_node.start_mark.line + 1
    return result


def _construct_sequence(loader: _LineLoader, node: yaml.SequenceNode) -> YList:
    result = YList(loader.construct_object(child, deep=True) for child in node.value)
    result.line = node.start_mark.line + 1
    result.item_lines = [child.start_mark.line + 1 for child in node.value]
    return result


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)

_STR = yaml.resolver.BaseResolver.DEFAULT_SCALAR_TAG
_MAP = yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG
_SEQ = yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG
_MERGE = "tag:yaml.org,2002:merge"
# levels of mappings and lists (generator.core.limits; libyaml itself stops at 1,000)
MAX_DEPTH = MAX_YAML_DEPTH
_PLAIN_CACHE_SIZE = 4096


# libyaml's loader when PyYAML was built with it: a base chosen at run time, which mypy cannot check
class _FastLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """libyaml's parser and composer (nodes keep their line marks) with SafeLoader's resolver and
    constructors.

    `resolve` gives the tags SafeLoader's gives, with the candidate patterns per first character worked out
    once and the tags of short plain values remembered (keys and small values repeat on every card)."""

    _candidates: dict = {}

    def __init__(self, stream) -> None:
        super().__init__(stream)
        self._plain: dict[str, str] = {}

    def resolve(self, kind, value, implicit):
        if kind is yaml.ScalarNode and implicit[0]:
            known = self._plain.get(value)
            if known is not None:
                return known
            tag = _STR
            for candidate, pattern in self._patterns(value[:1]):
                if pattern.match(value):
                    tag = candidate
                    break
            if len(value) <= 32:
                if len(self._plain) >= _PLAIN_CACHE_SIZE:
                    self._plain.clear()
                self._plain[value] = tag
            return tag
        return super().resolve(kind, value, implicit)

    @classmethod
    def _patterns(cls, first: str) -> tuple:
        found = cls._candidates.get(first)
        if found is None:
            resolvers = cls.yaml_implicit_resolvers
            found = cls._candidates[first] = tuple(resolvers.get(first, []) + resolvers.get(None, []))
        return found


def _check_items(root: yaml.Node) -> None:
    """Refuse a document that expands to more than MAX_YAML_ITEMS values or MAX_YAML_DEPTH levels once its
    aliases are copied (the template view and the models copy them): ten short lines of aliases, each naming
    the one before ten times, stand for 10^10 values. Also refuses a value that contains itself."""
    counted: dict[int, tuple[int, int]] = {}  # node -> (values, levels) below and including it
    started: set[int] = set()

    def fail(node: yaml.Node, message: str):
        raise yaml.composer.ComposerError(None, None, message, node.start_mark)

    def count(node: yaml.Node, level: int) -> tuple[int, int]:
        key = id(node)
        if key in counted:
            items, height = counted[key]
        else:
            if key in started:
                fail(node, "this value contains itself through an alias; expected plain data without cycles")
            if level > MAX_YAML_DEPTH:
                fail(node, f"the data is nested more than {MAX_YAML_DEPTH} levels deep; expected at most "
                           f"{MAX_YAML_DEPTH} levels of mappings and lists")
            started.add(key)
            children = (
                node.value
                if isinstance(node, yaml.SequenceNode)
                else [n for pair in node.value for n in pair]
                if isinstance(node, yaml.MappingNode)
                else []
            )
            items, height = 1, 1
            for child in children:
                child_items, child_height = count(child, level + 1)
                items += child_items
                height = max(height, child_height + 1)
                if items > MAX_YAML_ITEMS:
                    fail(
                        node,
                        f"this value expands to more than {MAX_YAML_ITEMS:,} values (each alias *name "
                        f"repeats what it names); expected at most {MAX_YAML_ITEMS:,} values in one file",
                    )
            counted[key] = items, height
        if level + height - 1 > MAX_YAML_DEPTH:
            fail(node, f"the data is nested more than {MAX_YAML_DEPTH} levels deep; expected at most "
                       f"{MAX_YAML_DEPTH} levels of mappings and lists")
        return items, height

    count(root, 1)


def _build(loader, node, depth: int, memo: dict):
    """The value of a composed node: YDict/YList with line marks, scalars as SafeLoader constructs them."""
    tag = node.tag
    if node.__class__ is yaml.ScalarNode:
        if tag == _STR:
            return node.value
        return loader.construct_object(node)  # int, float, bool, null, timestamps; unknown tags fail there
    found = memo.get(id(node))
    if found is not None:  # an alias: the same value again, as PyYAML gives it
        return found
    if depth > MAX_DEPTH:
        raise yaml.composer.ComposerError(
            None, None, f"the data is nested more than {MAX_DEPTH} levels deep; expected at most {MAX_DEPTH} "
            "levels of mappings and lists", node.start_mark)
    if tag == _MAP and node.__class__ is yaml.MappingNode:
        if any(key.tag == _MERGE for key, _ in node.value):
            loader.flatten_mapping(node)
        result = memo[id(node)] = YDict()
        result.line = node.start_mark.line + 1
        lines = result.key_lines = {}
        for key_node, value_node in node.value:
            if key_node.__class__ is not yaml.ScalarNode:
                key = []
            else:
                key = key_node.value if key_node.tag == _STR else loader.construct_object(key_node)
            if not isinstance(key, (str, int, float, bool)) and key is not None:
                raise yaml.constructor.ConstructorError(None, None, "a mapping key must be a plain value",
                                                        key_node.start_mark)
            if key in lines:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key '{key}' appears twice in this mapping", key_node.start_mark
                )
            result[key] = _build(loader, value_node, depth + 1, memo)
            lines[key] = key_node.start_mark.line + 1
        return result
    if tag == _SEQ and node.__class__ is yaml.SequenceNode:
        items = memo[id(node)] = YList()
        items.line = node.start_mark.line + 1
        items.extend([_build(loader, child, depth + 1, memo) for child in node.value])
        items.item_lines = [child.start_mark.line + 1 for child in node.value]
        return items
    return loader.construct_object(node, deep=True)  # !!set, !!omap, a custom tag (refused there)


class _SyntaxProblem(Exception):
    """libyaml refused the text; the reference parser words why."""


class _NeedsNodes(Exception):
    """The document uses aliases, merge keys or explicit collection tags: it is built from composed nodes."""


def _scalar(loader, event, tag: str):
    """A scalar event's value, constructed as SafeLoader constructs it (unknown tags fail there)."""
    node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)
    constructor = loader.yaml_constructors.get(tag)
    return constructor(loader, node) if constructor is not None else loader.construct_object(node)


def _from_events(loader):
    """The document built straight from libyaml's events, with no node tree in between (a deck of 10,000 cards
    would hold a few hundred thousand nodes and marks at once); None for an empty document."""
    get, scalar_event = loader.get_event, yaml.ScalarEvent
    get()  # stream start
    if loader.check_event(yaml.StreamEndEvent):
        return None
    get()  # document start
    stack: list = []  # [container, pending key or None, key line], innermost last
    root = None
    # No alias here, so nothing expands: every value is written out in the file, whose size is bounded
    # (MAX_YAML_BYTES); MAX_YAML_ITEMS bounds what aliases make of a file (_check_items, on the composed
    # nodes).
    while True:
        event = get()
        cls = event.__class__
        if cls is scalar_event:
            tag = event.tag
            if tag is None or tag == "!":
                tag = loader.resolve(yaml.ScalarNode, event.value, event.implicit)
            if tag == _MERGE:
                raise _NeedsNodes
            value = event.value if tag == _STR else _scalar(loader, event, tag)
            line = event.start_mark.line + 1
        elif cls is yaml.MappingStartEvent or cls is yaml.SequenceStartEvent:
            if event.tag not in (None, "!", _MAP if cls is yaml.MappingStartEvent else _SEQ):
                raise _NeedsNodes
            if len(stack) >= MAX_DEPTH:
                raise yaml.composer.ComposerError(
                    None, None, f"the data is nested more than {MAX_DEPTH} levels deep; expected at most "
                    f"{MAX_DEPTH} levels of mappings and lists", event.start_mark)
            value = YDict() if cls is yaml.MappingStartEvent else YList()
            value.line = event.start_mark.line + 1
            if cls is yaml.MappingStartEvent:
                value.key_lines = {}
            else:
                value.item_lines = []
            _place(stack, value, value.line, event.start_mark)
            stack.append([value, _NO_KEY, 0])
            continue
        elif cls is yaml.MappingEndEvent or cls is yaml.SequenceEndEvent:
            root = stack.pop()[0]
            if not stack:
                break
            continue
        else:  # an alias (document end cannot come before the root closes)
            raise _NeedsNodes
        if not stack:  # a document that is one scalar
            root = value
            break
        _place(stack, value, line, event.start_mark)
    get()  # document end
    if not loader.check_event(yaml.StreamEndEvent):
        raise _SyntaxProblem  # a second document: the reference parser says so
    return root


_NO_KEY = object()


def _place(stack: list, value, line: int, mark) -> None:
    """Put a built value into the innermost open collection (as a key, a key's value or a list item)."""
    if not stack:
        return
    top = stack[-1]
    container = top[0]
    if container.__class__ is YList:
        container.append(value)
        container.item_lines.append(line)
    elif top[1] is _NO_KEY:
        if not isinstance(value, (str, int, float, bool)) and value is not None:
            raise yaml.constructor.ConstructorError(None, None, "a mapping key must be a plain value", mark)
        if value in container.key_lines:
            raise yaml.constructor.ConstructorError(
                None, None, f"key '{value}' appears twice in this mapping", mark
            )
        top[1], top[2] = value, line
    else:
        container[top[1]] = value
        container.key_lines[top[1]] = top[2]
        top[1] = _NO_KEY


def _load_fast(text: str):
    loader = _FastLoader(text)
    try:
        try:
            return _from_events(loader)
        except _NeedsNodes:
            pass
        # libyaml's own words go to the reference; ours (depth, keys, tags) stay
        except yaml.YAMLError as exc:
            if isinstance(exc, (yaml.constructor.ConstructorError, yaml.composer.ComposerError)):
                raise
            raise _SyntaxProblem from None
        loader.dispose()
        loader = _FastLoader(text)
        try:
            node = loader.get_single_node()
        except yaml.YAMLError:
            raise _SyntaxProblem from None
        if node is None:
            return None
        _check_items(node)  # before anything is copied
        return _build(loader, node, 1, {})
    finally:
        loader.dispose()


def _describe_yaml_error(exc: yaml.YAMLError) -> tuple[int, str]:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line = mark.line + 1 if mark is not None else 0
    problem = getattr(exc, "problem", None) or str(exc)
    if "levels deep" in problem or "expands to more than" in problem or "contains itself" in problem:
        return line, problem
    if "tag:yaml.org,2002:python" in problem or "!!python" in problem:
        return line, "Python tags are not allowed; expected plain YAML data (safe loading only)"
    if "could not determine a constructor" in problem:
        return line, f"{problem.strip()}; expected plain YAML data (custom tags are not allowed)"
    if "\\t" in problem or re.search(r"\btabs?\b", problem):
        return line, f"{problem.strip()}; expected spaces for indentation, not tabs"
    if "appears twice" in problem:
        return line, f"{problem}; expected each key once"
    context = getattr(exc, "context", None)
    opened = getattr(exc, "context_mark", None)
    if opened is not None and context and problem_mark_after(exc):
        # A quote or bracket never closed is found only at the end of the file (or a later line): report it
        # where
        # it opens, which is where the designer has to look.
        start = opened.line + 1
        if "quoted scalar" in context and "end of stream" in problem:
            return start, (
                "a quoted value starts here and its closing quote never comes (the rest of the file "
                "became part of it); expected a matching closing quote"
            )
        for kind, closing, what in (("flow sequence", "]", "list"), ("flow mapping", "}", "mapping")):
            if kind in context:
                return start, (
                    f"the {what} opened here with '{'[' if closing == ']' else '{'}' is not closed before "
                    f"line {line}; expected a ',' between items and a closing "
                    f"'{closing}'"
                )
    text = f"{context}, {problem}" if context else problem
    return line, f"broken YAML: {text.strip()}; expected valid YAML (check indentation and quotes)"


def problem_mark_after(exc: yaml.YAMLError) -> bool:
    """True when the parser noticed the problem on a later line than the construct it was reading began."""
    found, opened = getattr(exc, "problem_mark", None), getattr(exc, "context_mark", None)
    return found is not None and opened is not None and found.line > opened.line


def read_text(path: Path, shown: str, limit: int = MAX_YAML_BYTES) -> str:
    """Read a UTF-8 text file of at most `limit` bytes; a missing, unreadable, too large or non-UTF-8 file is
    a located problem."""
    try:
        check_file_size(path, limit, shown)
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError(Problem(shown, 0, "file not found")) from None
    except IsADirectoryError:
        raise InputError(Problem(shown, 0, "is a folder; expected a file")) from None
    except OSError as exc:
        raise InputError(
            Problem(shown, 0, f"cannot be read ({exc.strerror or exc}); expected a readable file")
        ) from None
    pointer = lfs_pointer_text(data[:1025], Path(shown).name)
    if pointer:
        raise InputError(Problem(shown, 1, pointer))
    return decode_utf8(data, shown)


def decode_utf8(data: bytes, shown: str) -> str:
    """Bytes of a text file as text; invalid UTF-8 is a problem naming the line (not a byte offset)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(
            Problem(
                shown, line, f"byte 0x{data[exc.start]:02x} is not valid UTF-8; expected a UTF-8 text file"
            )
        ) from None


def load_yaml(path: Path, shown: str | None = None, *, expect_mapping: bool = True):
    """Parse a YAML file safely, returning YDict/YList values; errors are InputError with file:line."""
    shown = shown or str(path)
    text = read_text(path, shown)
    return parse_yaml(text, shown, expect_mapping=expect_mapping)


def parse_yaml(text: str, shown: str, *, expect_mapping: bool = True):
    """Parse YAML text (see load_yaml)."""
    try:
        try:
            data = _load_fast(text)
        # the reference parser words the problem as it always did (libyaml's words differ)
        except _SyntaxProblem:
            data = yaml.load(text, Loader=_LineLoader)  # noqa: S506 - _LineLoader derives from SafeLoader
    except yaml.reader.ReaderError as exc:  # a control character: name its line, not its offset
        line = text[: exc.position].count("\n") + 1
        raise InputError(
            Problem(
                shown,
                line,
                f"character U+{exc.character:04X} is not allowed in YAML; expected "
                "printable text (a stray control character?)",
            )
        ) from None
    except yaml.YAMLError as exc:
        line, message = _describe_yaml_error(exc)
        unclosed = message.startswith("broken YAML") or "' is not closed before line" in message
        slip = _flow_comment_colour(text, line) if unclosed else None
        if slip is not None:
            line, key, colour = slip
            message = (
                f"broken YAML: a `#` starts a comment in YAML, so `{key}: {colour}` cuts this line short "
                f"(the rest of it is not read and its `{{` is never closed); expected the colour in quotes: "
                f"{key}: \"{colour}\""
            )
        raise InputError(Problem(shown, line, message)) from None
    except RecursionError:  # the reference parser on a deeply nested file libyaml refused
        raise InputError(
            Problem(
                shown,
                0,
                f"the data is nested too deeply; expected at most {MAX_DEPTH} levels of mappings and lists",
            )
        ) from None
    if data is None:
        raise InputError(Problem(shown, 1, "the file is empty; expected a YAML mapping of keys and values"))
    if expect_mapping and not isinstance(data, dict):
        found = "a list" if isinstance(data, list) else repr(data)
        raise InputError(
            Problem(
                shown, getattr(data, "line", 1) or 1, f"expected a mapping of keys and values, found {found}"
            )
        )
    return data


_COMMENT_COLOUR = re.compile(r"^\s*(?:-\s+)?([A-Za-z_][\w-]*):[ \t]+(#[0-9a-fA-F]{3,8})\b")


_FLOW_COMMENT_COLOUR = re.compile(r"[{,]\s*([A-Za-z_][\w-]*):[ \t]+(#[0-9a-fA-F]{3,8})\b")
_FLOW_LOOKBACK = 20  # lines above a syntax error searched for the colour that broke it


def _flow_comment_colour(text: str, error_line: int) -> tuple[int, str, str] | None:
    """(line, key, colour) of an unquoted `key: #rrggbb` inside a `{...}` mapping near a syntax error (from
    the line reported, the mapping's opening line, down, then up): the comment it starts swallows the closing
    `}`, and YAML notices only later."""
    lines = text.splitlines()
    at = min(max(error_line, 1), len(lines)) if lines else 0
    below = range(at, min(len(lines), at + _FLOW_LOOKBACK) + 1)
    above = range(at - 1, max(0, at - _FLOW_LOOKBACK), -1)
    for number in [*below, *above]:
        if not 1 <= number <= len(lines) or lines[number - 1].lstrip().startswith("#"):
            continue  # a comment line of its own
        match = _FLOW_COMMENT_COLOUR.search(lines[number - 1])
        if match:
            return number, match.group(1), match.group(2)
    return None


def colours_read_as_comments(text: str) -> list[tuple[int, str, str]]:
    """(line, key, colour) for every `key: #rrggbb` written without quotes: YAML starts a comment at ` #`, so
    the key is left empty (a box without its fill) and nothing else says so."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = _COMMENT_COLOUR.match(line)
        if match:
            found.append((number, match.group(1), match.group(2)))
    return found


def comment_colour_message(key: str, colour: str) -> str:
    """The warning for a colour YAML read as a comment."""
    return (
        f"`{key}: {colour}` is read as a comment (YAML starts one at ' #'), so {key} is empty; expected the "
        f"colour in quotes: {key}: \"{colour}\""
    )
