"""PDF objects read from the PDFs pnp's own ReportLab writes, and written out again, for the booklets.

A booklet places the reading PDF's pages; reading them back needs no general PDF library: ReportLab's files
have an xref table and plain objects. Objects are written in the PDF syntax the booklets have always had
(pypdf's layout: one dictionary entry per line, arrays as `[ a b ]`, reals to 8 significant digits, strings
with every character but letters, digits and spaces escaped), so a booklet's bytes stay what they were.
"""

from __future__ import annotations

import base64
import codecs
import re
import zlib
from dataclasses import dataclass
from math import log10


class Unsupported(ValueError):
    """PDF syntax these booklets never meet in ReportLab's output."""


class Name(str):
    """A PDF name, without its slash."""


@dataclass(frozen=True)
class Ref:
    """An indirect reference `number 0 R`."""

    number: int


class Text(bytes):
    """A PDF string's bytes."""


@dataclass
class Stream:
    """A stream: its dictionary (without /Length) and its data as stored (still encoded)."""

    entries: dict
    data: bytes


class Null:
    """The null object."""


NULL = Null()

# --- reading
# ---------------------------------------------------------------------------------------------------

_SPACE = b" \t\r\n\f\x00"
_DELIMITERS = b"()<>[]{}/%"
_TOKEN = re.compile(rb"[^ \t\r\n\f\x00()<>\[\]{}/%]+")
_NUMBER = re.compile(rb"[+-]?(\d+\.?\d*|\.\d+)")
_REF = re.compile(rb"(\d+)\s+(\d+)\s+R(?=[\s()<>\[\]{}/%]|$)")
_ESCAPES = {ord("n"): b"\n", ord("r"): b"\r", ord("t"): b"\t", ord("b"): b"\b", ord("f"): b"\f",
            ord("("): b"(", ord(")"): b")", ord("\\"): b"\\"}


def _skip(data: bytes, at: int) -> int:
    """The position of the next token: whitespace and comments skipped."""
    size = len(data)
    while at < size:
        byte = data[at]
        if byte in _SPACE:
            at += 1
        elif byte == 0x25:  # % comment to the end of the line
            while at < size and data[at] not in b"\r\n":
                at += 1
        else:
            break
    return at


def _string(data: bytes, at: int) -> tuple[Text, int]:
    """A literal string starting after its `(`."""
    out = bytearray()
    depth = 1
    while True:
        byte = data[at]
        if byte == 0x5C:  # backslash
            following = data[at + 1]
            if following in _ESCAPES:
                out += _ESCAPES[following]
                at += 2
            elif 0x30 <= following <= 0x37:
                digits = re.match(rb"[0-7]{1,3}", data[at + 1:at + 4]).group()
                out.append(int(digits, 8) & 0xFF)
                at += 1 + len(digits)
            elif following in b"\r\n":  # a line continuation
                at += 3 if data[at + 1:at + 3] == b"\r\n" else 2
            else:
                out.append(following)
                at += 2
            continue
        if byte == 0x28:
            depth += 1
        elif byte == 0x29:
            depth -= 1
            if depth == 0:
                return Text(out), at + 1
        out.append(byte)
        at += 1


def parse(data: bytes, at: int) -> tuple[object, int]:
    """The object at `at` (after whitespace) and the position after it."""
    at = _skip(data, at)
    byte = data[at:at + 1]
    if byte == b"/":
        return _read_name(data, at + 1)
    if data.startswith(b"<<", at):
        return _read_dictionary(data, at + 2)
    if byte == b"[":
        return _read_array(data, at + 1)
    if byte == b"(":
        return _string(data, at + 1)
    if byte == b"<":
        return _read_hex_string(data, at + 1)
    ref = _REF.match(data, at)
    if ref:
        return Ref(int(ref.group(1))), ref.end()
    return _read_word(data, at)


def _read_name(data: bytes, at: int) -> tuple[Name, int]:
    """The name whose characters start at `at` (after its /), #xx escapes decoded."""
    end = _TOKEN.match(data, at)
    raw = end.group() if end else b""
    text = re.sub(rb"#([0-9A-Fa-f]{2})", lambda m: bytes([int(m.group(1), 16)]), raw).decode("utf-8")
    return Name(text), at + len(raw)


def _read_dictionary(data: bytes, at: int) -> tuple[dict, int]:
    """The dictionary whose entries start at `at` (after its <<)."""
    entries: dict = {}
    while True:
        at = _skip(data, at)
        if data.startswith(b">>", at):
            return entries, at + 2
        key, at = parse(data, at)
        if not isinstance(key, Name):
            raise Unsupported(f"a dictionary key {key!r}")
        entries[key], at = parse(data, at)


def _read_array(data: bytes, at: int) -> tuple[list, int]:
    """The array whose items start at `at` (after its [)."""
    items = []
    while True:
        at = _skip(data, at)
        if data.startswith(b"]", at):
            return items, at + 1
        item, at = parse(data, at)
        items.append(item)


def _read_hex_string(data: bytes, at: int) -> tuple[Text, int]:
    """The <hex> string whose digits start at `at` (an odd last digit is followed by 0)."""
    end = data.index(b">", at)
    digits = re.sub(rb"\s", b"", data[at:end])
    return Text(bytes.fromhex((digits + b"0" * (len(digits) % 2)).decode("ascii"))), end + 1


def _read_word(data: bytes, at: int) -> tuple[object, int]:
    """A number, true, false or null at `at`."""
    word = _TOKEN.match(data, at)
    if word is None:
        raise Unsupported(f"PDF syntax {data[at:at + 20]!r}")
    token = word.group()
    if _NUMBER.fullmatch(token):
        return (float(token) if b"." in token else int(token)), word.end()
    if token in (b"true", b"false"):
        return token == b"true", word.end()
    if token == b"null":
        return NULL, word.end()
    raise Unsupported(f"PDF keyword {token!r}")


class SourcePdf:
    """The objects of a PDF written by ReportLab (found through its xref table), read when asked for."""

    def __init__(self, data: bytes):
        self.data = data
        start = int(data[data.rindex(b"startxref") + 9:].split()[0])
        if not data.startswith(b"xref", start):
            raise Unsupported("a cross-reference stream")
        lines = data[start:data.index(b"trailer", start)].split(b"\n")
        first, count = (int(v) for v in lines[1].split())
        self.offsets = {first + i: int(line[:10]) for i, line in enumerate(lines[2:2 + count])
                        if line[17:18] == b"n"}
        self.trailer = parse(data, data.index(b"trailer", start) + 7)[0]
        if first != 0 or count != self.trailer.get("Size"):  # ReportLab writes one table of every object
            raise Unsupported("a cross-reference table in sections")
        self._objects: dict[int, object] = {}

    def get(self, number: int) -> object:
        """Object `number`, parsed once."""
        found = self._objects.get(number)
        if found is None:
            at = self.offsets[number]
            at = self.data.index(b"obj", at) + 3
            value, at = parse(self.data, at)
            at = _skip(self.data, at)
            if self.data.startswith(b"stream", at):
                at += 6
                at += 2 if self.data.startswith(b"\r\n", at) else 1
                entries = dict(value)
                length = entries.pop("Length")
                length = self.get(length.number) if isinstance(length, Ref) else length
                value = Stream(entries, self.data[at:at + length])
            found = self._objects[number] = value
        return found

    def resolve(self, value: object) -> object:
        """The object a reference points at (anything else as it is)."""
        return self.get(value.number) if isinstance(value, Ref) else value

    def pages(self) -> list[dict]:
        """The page dictionaries in order."""
        found: list[dict] = []

        def walk(node: dict) -> None:
            for kid in node.get("Kids", []):
                kid = self.resolve(kid)
                if kid.get("Type") == "Pages":
                    walk(kid)
                else:
                    found.append(kid)

        walk(self.resolve(self.resolve(self.trailer["Root"])["Pages"]))
        return found

    def title(self) -> str | None:
        """The document's /Title (PDFDocEncoding, or UTF-16 after a byte-order mark), as a PDF reader decodes
        it."""
        info = self.resolve(self.trailer.get("Info"))
        raw = info.get("Title") if isinstance(info, dict) else None
        return decode_text(raw) if isinstance(raw, bytes) else None


def stream_data(stream: Stream) -> bytes:
    """A stream's data with its filters (ASCII85 and Flate, which ReportLab uses) undone."""
    filters = stream.entries.get("Filter", [])
    data = stream.data
    for name in filters if isinstance(filters, list) else [filters]:
        if name == "ASCII85Decode":
            data = base64.a85decode(data.strip(), adobe=True)
        elif name == "FlateDecode":
            data = zlib.decompress(data)
        else:
            raise Unsupported(f"stream filter {name}")
    return data


# --- text encodings
# --------------------------------------------------------------------------------------------

# PDFDocEncoding (PDF 32000-1 annex D): Latin-1 but for these bytes; 0x00, 0x16, 0x7F, 0x9F and 0xAD are
# undefined.
_DOC_SPECIAL = dict(
    zip(range(0x18, 0x20), "\u02d8\u02c7\u02c6\u02d9\u02dd\u02db\u02da\u02dc", strict=True)
) | dict(
    zip(
        range(0x80, 0xA1),
        "\u2022\u2020\u2021\u2026\u2014\u2013\u0192\u2044\u2039\u203a\u2212\u2030\u201e\u201c"
        "\u201d\u2018\u2019\u201a\u2122\ufb01\ufb02\u0141\u0152\u0160\u0178\u017d\u0131\u0142"
        "\u0153\u0161\u017e\x00\u20ac",
        strict=True,
    )
)
DOC_UNDEFINED = frozenset({0x00, 0x16, 0x7F, 0x9F, 0xAD})
_DOC_DECODE = {byte: _DOC_SPECIAL.get(byte, chr(byte)) for byte in range(256) if byte not in DOC_UNDEFINED}
_DOC_ENCODE = {char: byte for byte, char in _DOC_DECODE.items()}


def decode_text(raw: bytes) -> str:
    """A text string's characters: UTF-16 after a byte-order mark, else PDFDocEncoding."""
    if raw[:2] in (codecs.BOM_UTF16_BE, codecs.BOM_UTF16_LE):
        return raw.decode("utf-16")
    return "".join(_DOC_DECODE[byte] for byte in raw)


def encode_text(text: str) -> bytes:
    """A text's bytes in a PDF string: PDFDocEncoding when it has every character, else UTF-16BE with its
    mark."""
    try:
        return bytes(_DOC_ENCODE[char] for char in text)
    except KeyError:
        return codecs.BOM_UTF16_BE + text.encode("utf-16be")


# --- writing
# ---------------------------------------------------------------------------------------------------

_NAME_ESCAPES = {byte: f"#{byte:02X}".encode() for byte in list(b"#()<>[]{}/%") + list(range(33))}


def real(value: float) -> bytes:
    """A real number to 8 significant digits, trailing zeros dropped (`0.0` for zero)."""
    if value == 0:
        return b"0.0"
    digits = 8 - int(log10(abs(value)))
    return f"{value:.{max(1, digits)}f}".rstrip("0").rstrip(".").encode("ascii")


def name(text: str) -> bytes:
    """A name with the characters a name cannot hold as #xx."""
    found = _NAMES.get(text)
    if found is None:
        found = _NAMES[text] = _name(text)
    return found


_NAMES: dict[str, bytes] = {}  # the same few names over and over (/Type, /Font, ...)


def _name(text: str) -> bytes:
    out = bytearray(b"/")
    for char in text:
        for byte in char.encode("utf-8"):
            out += _NAME_ESCAPES.get(byte, bytes([byte])) if char <= "~" else f"#{byte:02X}".encode()
    return bytes(out)


def string(raw: bytes) -> bytes:
    """A string's bytes: letters, digits and spaces as they are, every other byte escaped in octal."""
    out = bytearray(b"(")
    for byte in raw:
        if 0x30 <= byte <= 0x39 or 0x41 <= byte <= 0x5A or 0x61 <= byte <= 0x7A or byte == 0x20:
            out.append(byte)
        else:
            out += b"\\%03o" % byte
    return bytes(out + b")")


def serialize(value: object, numbers: dict[int, int] | None = None) -> bytes:
    """An object in the booklets' PDF syntax; references are renumbered through `numbers` (source ->
    written)."""
    if isinstance(value, Name):
        return name(value)
    if isinstance(value, bool):
        return b"true" if value else b"false"
    if isinstance(value, int):
        return str(value).encode("ascii")
    if isinstance(value, float):
        return real(value)
    if isinstance(value, Ref):
        return b"%d 0 R" % (numbers[value.number] if numbers is not None else value.number)
    if isinstance(value, Text):
        # a string read from a PDF keeps its bytes; one with a byte PDFDocEncoding lacks (and no byte-order
        # mark)
        # is binary, written in hex
        if value[:2] not in (codecs.BOM_UTF16_BE, codecs.BOM_UTF16_LE) and any(
            b in DOC_UNDEFINED for b in value
        ):
            return b"<" + value.hex().encode("ascii") + b">"
        return string(value)
    if isinstance(value, str):
        return string(encode_text(value))
    if isinstance(value, list):
        return b"[" + b"".join(b" " + serialize(item, numbers) for item in value) + b" ]"
    if isinstance(value, dict):
        return b"<<\n" + b"".join(name(key) + b" " + serialize(item, numbers) + b"\n"
                                  for key, item in value.items()) + b">>"
    if isinstance(value, Stream):
        entries = dict(value.entries) | {Name("Length"): len(value.data)}
        return serialize(entries, numbers) + b"\nstream\n" + value.data + b"\nendstream"
    if value is NULL:
        return b"null"
    raise Unsupported(f"cannot write {type(value).__name__}")


def content_operations(data: bytes) -> list[tuple[list, bytes]]:
    """A content stream's (operands, operator) in order (no inline images: ReportLab draws none here)."""
    operations, operands = [], []
    at = _skip(data, 0)
    while at < len(data):
        byte = data[at:at + 1]
        word = _TOKEN.match(data, at) if byte not in (b"/", b"(", b"<", b"[") else None
        if (
            word is not None
            and not _NUMBER.fullmatch(word.group())
            and word.group() not in (b"true", b"false", b"null")
        ):
            if word.group() == b"BI":
                raise Unsupported("an inline image")
            operations.append((operands, word.group()))
            operands = []
            at = word.end()
        else:
            value, at = parse(data, at)
            operands.append(value)
        at = _skip(data, at)
    return operations


def content_bytes(operations: list[tuple[list, bytes]]) -> bytes:
    """Operations written one a line: each operand and a space, then the operator."""
    return b"".join(b"".join(serialize(v) + b" " for v in operands) + operator + b"\n"
                    for operands, operator in operations)
