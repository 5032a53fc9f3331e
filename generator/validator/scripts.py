"""Scripted games (`cards/<game>/scripts/*.yaml`, format in docs/engine-api.md): replay and check them.

Chance events are answered lazily, just before a step needs the game to be at a player's decision or looks at
it: from the step itself (`chance:`), from the fixed outcomes of the script's `chance:` list (in order, per
label), else from `random.Random(seed)`. An event whose label is given by an upcoming `chance` step (before
the next act/reject/play_to_end) is left pending so that step can answer it.
"""

from __future__ import annotations

import random
from collections import defaultdict, deque
from pathlib import Path

from generator.core.errors import InputError, known_list
from generator.core.yamlio import load_yaml
from generator.engines.base import (
    CHANCE,
    TERMINAL,
    ChanceRequest,
    Engine,
    IllegalAction,
    sample_chance,
)
from generator.engines.registry import engine_for
from generator.validator.harness import check_state
from generator.validator.script_values import StepFailed, build_outcome, lookup, plain, same, show_value

TOP_KEYS = ("name", "players", "options", "seed", "chance", "steps")
STEP_KINDS = ("chance", "act", "reject", "expect", "play_to_end")
MAX_CHANCE_IN_A_ROW = 10_000


def script_files(game) -> list[Path]:
    """The scripts of a game (or of a game folder), sorted by file name."""
    folder = Path(getattr(game, "dir", game)) / "scripts"
    return sorted(list(folder.glob("*.yaml")) + list(folder.glob("*.yml"))) if folder.is_dir() else []


class ScriptRun:
    """One script being replayed against an engine."""

    def __init__(self, data: dict, shown: str, game, engine: Engine):
        self.data, self.shown, self.game, self.engine = data, shown, game, engine
        self.failures: list[str] = []
        self.queue: dict[str, deque] = defaultdict(deque)
        self.labels_seen: list[str] = []

    # -- reading the script
    # ------------------------------------------------------------------------------------------
    def problem(self, line: int, message: str) -> None:
        self.failures.append(f"{self.shown}:{line}: {message}")

    def read_header(self) -> bool:
        data = self.data
        for key in data:
            if key not in TOP_KEYS:
                self.problem(
                    data.line_of(key), f"unknown key '{key}'; expected one of: {', '.join(TOP_KEYS)}"
                )
        self.players = data.get("players", self.engine.player_counts[0])
        if not isinstance(self.players, int) or isinstance(self.players, bool):
            self.problem(
                data.line_of("players"),
                f"players must be a number; expected one of {list(self.engine.player_counts)}",
            )
        self.seed = data.get("seed", 0)
        if not isinstance(self.seed, int) or isinstance(self.seed, bool):
            self.problem(data.line_of("seed"), f"seed must be a whole number, got {show_value(self.seed)}")
        self.options = data.get("options") or {}
        if not isinstance(self.options, dict):
            self.problem(data.line_of("options"), "options must be a mapping of rule option -> value")
            self.options = {}
        for name in self.options:
            if name not in self.engine.options:
                self.problem(
                    self.options.line_of(name)
                    if hasattr(self.options, "line_of")
                    else data.line_of("options"),
                    f"unknown rule option '{name}'; known: {known_list(self.engine.options) or '(none)'}",
                )
        for i, entry in enumerate(data.get("chance") or []):
            line = data["chance"].line_of(i)
            if not isinstance(entry, dict) or "label" not in entry or ("top" in entry) == ("values" in entry):
                self.problem(line, "a chance entry needs a label and either top: [...] or values: [...]")
                continue
            extra = set(entry) - {"label", "top", "values"}
            if extra:
                self.problem(
                    line, f"unknown key '{sorted(extra)[0]}' in a chance entry; expected label, top or values"
                )
            self.queue[str(entry["label"])].append((entry, line))
        self.steps = data.get("steps")
        if not isinstance(self.steps, list) or not self.steps:
            self.problem(
                data.line_of("steps"),
                "expected `steps:` with a list of chance/act/reject/expect/play_to_end steps",
            )
            self.steps = []
        for i, step in enumerate(self.steps):
            kinds = [k for k in step if k in STEP_KINDS] if isinstance(step, dict) else []
            if not isinstance(step, dict) or len(step) != 1 or len(kinds) != 1:
                self.problem(
                    self.steps.line_of(i),
                    f"step {i + 1}: expected exactly one of {', '.join(STEP_KINDS)}, "
                    f"got {show_value(list(step) if isinstance(step, dict) else step)}",
                )
        return not self.failures

    # -- playing
    # ------------------------------------------------------------------------------------------------------
    def apply(self, what: str, action) -> None:
        self.state.apply(action)
        broken = check_state(self.state, self.start_counts, what)
        if broken:
            raise StepFailed(broken[1])

    def answer(self, request: ChanceRequest) -> None:
        """Answer a chance event from the script's fixed outcomes, else from the seed."""
        self.labels_seen.append(request.label)
        queued = self.queue.get(request.label)
        if queued:
            entry, line = queued.popleft()
            try:
                outcome = build_outcome(request, entry)
            except StepFailed as exc:
                raise StepFailed(f"chance entry at line {line}: {exc}") from None
        else:
            outcome = sample_chance(request, self.rng)
        try:
            self.apply(f"chance event '{request.label}'", outcome)
        except IllegalAction as exc:
            raise StepFailed(f"the engine refused the '{request.label}' outcome: {exc}") from None

    def resolve(self, stop_label: str | None) -> None:
        """Answer pending chance events until a player decides (or one labelled `stop_label` is next)."""
        for _ in range(MAX_CHANCE_IN_A_ROW):
            if self.state.current_player() != CHANCE:
                return
            request = self.state.chance_request()
            if request.label == stop_label:
                return
            self.answer(request)
        raise StepFailed(f"{MAX_CHANCE_IN_A_ROW} chance events in a row; the game never reaches a decision")

    def stop_label_after(self, index: int) -> str | None:
        """The label of a `chance` step coming before the next act/reject/play_to_end step, if any."""
        for step in self.steps[index:]:
            if "chance" in step:
                given = step["chance"]
                return str(given.get("label")) if isinstance(given, dict) else None
            if "expect" not in step:
                return None
        return None

    def whose_turn(self) -> str:
        player = self.state.current_player()
        if player == TERMINAL:
            return "the game is over"
        if player == CHANCE:
            return f"the next chance event is '{self.state.chance_request().label}'"
        return (f"it is seat {player}'s turn (legal: "
                f"{', '.join(str(a) for a in self.state.legal_actions()[:12])})")

    def at_decision(self) -> int:
        player = self.state.current_player()
        if player < 0:
            raise StepFailed(f"expected a player's decision, but {self.whose_turn()}")
        return player

    def parse(self, text: str):
        try:
            return self.state.parse_action(str(text))
        except IllegalAction as exc:
            raise StepFailed(f"cannot read action '{text}': {exc}") from None

    def step_chance(self, given) -> None:
        if not isinstance(given, dict) or "label" not in given or ("top" in given) == ("values" in given):
            raise StepFailed("expected chance: {label: ..., values: [...]} or {label: ..., top: [...]}")
        label = str(given["label"])
        if self.state.current_player() != CHANCE or self.state.chance_request().label != label:
            raise StepFailed(f"expected a chance event '{label}' next, but {self.whose_turn()}")
        request = self.state.chance_request()
        self.labels_seen.append(label)
        try:
            self.apply(f"chance event '{label}'", build_outcome(request, given))
        except IllegalAction as exc:
            raise StepFailed(f"the engine refused the '{label}' outcome: {exc}") from None

    def step_act(self, text) -> None:
        seat = self.at_decision()
        action = self.parse(text)
        legal = self.state.legal_actions()
        if action not in legal:
            try:
                self.state.apply(action)
            except IllegalAction as exc:
                raise StepFailed(f"'{text}' was rejected: {exc}; legal for seat {seat}: "
                                 f"{', '.join(str(a) for a in legal[:12])}") from None
            raise StepFailed(f"'{text}' is not in legal_actions() but apply() accepted it (engine bug)")
        try:
            self.apply(f"'{text}'", action)
        except IllegalAction as exc:
            raise StepFailed(f"'{text}' is in legal_actions() but apply() rejected it: {exc}") from None

    def step_reject(self, given) -> None:
        if not isinstance(given, dict) or not isinstance(given.get("act"), str) or "reason" not in given:
            raise StepFailed("expected reject: {act: \"...\", reason: \"...\"}")
        text, reason = given["act"], str(given["reason"])
        self.at_decision()
        before = plain(self.state.snapshot())
        try:
            action = self.state.parse_action(text)
            if action in self.state.legal_actions():
                raise StepFailed(
                    f"expected '{text}' to be rejected ({reason}), but it is a legal action now", stop=False
                )
            self.state.apply(action)
        except IllegalAction as exc:
            if not same(before, plain(self.state.snapshot())):
                raise StepFailed(f"apply('{text}') changed the state before raising IllegalAction") from None
            if reason.lower() not in str(exc).lower():
                raise StepFailed(
                    f"'{text}' was rejected with \"{exc}\"; expected a reason containing \"{reason}\"",
                    stop=False,
                ) from None
            return
        raise StepFailed(f"expected '{text}' to be rejected ({reason}), but apply() accepted it")

    def step_expect(self, given) -> list[StepFailed]:
        if not isinstance(given, dict) or not given:
            raise StepFailed("expected expect: {dotted.path: value, ...}")
        snapshot = self.state.snapshot()
        found = []
        for path, wanted in given.items():
            line = given.line_of(path) if hasattr(given, "line_of") else None
            try:
                actual = lookup(snapshot, str(path))
            except StepFailed as exc:
                found.append(
                    StepFailed(f"expected {path} = {show_value(wanted)}, but {exc}", stop=False, line=line)
                )
                continue
            if not same(plain(wanted), plain(actual)):
                found.append(
                    StepFailed(
                        f"expected {path} = {show_value(wanted)}, got {show_value(plain(actual))}",
                        stop=False,
                        line=line,
                    )
                )
        return found

    def step_play_to_end(self, bot) -> None:
        names = [bot] * self.players if isinstance(bot, str) else list(bot or [])
        unknown = [b for b in names if b not in self.engine.bots]
        if unknown or len(names) != self.players:
            raise StepFailed(
                f"play_to_end needs a bot name (or one per seat); known bots: {known_list(self.engine.bots)}"
            )
        for decision in range(self.engine.turn_cap + 1):
            self.resolve(None)
            seat = self.state.current_player()
            if seat == TERMINAL:
                return
            if decision == self.engine.turn_cap:
                break
            action = self.engine.bots[names[seat]](self.state, self.rng)
            if action not in self.state.legal_actions():
                raise StepFailed(f"bot '{names[seat]}' chose '{action}', which is not in legal_actions()")
            try:
                self.apply(f"'{action}' by seat {seat}", action)
            except IllegalAction as exc:
                raise StepFailed(f"'{action}' is in legal_actions() but apply() rejected it: {exc}") from None
        raise StepFailed(
            f"the game did not end within the turn cap of {self.engine.turn_cap} decisions (seed {self.seed})"
        )

    def run(self) -> list[str]:
        if not self.read_header():
            return self.failures
        self.rng = random.Random(self.seed)
        try:
            self.state = self.engine.new_state(
                self.game.for_players(self.players), self.players, {**self.engine.options, **self.options}
            )
            self.start_counts = self.state.card_count()
        except Exception as exc:  # noqa: BLE001 - a setup failure is a finding of the script
            self.problem(
                self.data.line_of("players"),
                f"setup with {self.players} players failed: {type(exc).__name__}: {exc}",
            )
            return self.failures
        handlers = {"chance": self.step_chance, "act": self.step_act, "reject": self.step_reject,
                    "play_to_end": self.step_play_to_end}
        for index, step in enumerate(self.steps):
            kind, given = next(iter(step.items()))
            line = self.steps.line_of(index)
            try:
                self.resolve(self.stop_label_after(index))
                if kind == "expect":
                    found = self.step_expect(given)
                else:
                    handlers[kind](given)
                    found = []
            except StepFailed as exc:
                found = [exc]
            except Exception as exc:  # noqa: BLE001 - an engine crash is reported at the step that caused it
                found = [StepFailed(f"the engine raised {type(exc).__name__}: {exc}")]
            for failure in found:
                self.failures.append(
                    f"{self.shown}: step {index + 1} (line {failure.line or line}): {failure}"
                )
            if any(f.stop for f in found):
                return self.failures
        for label, left in sorted(self.queue.items()):
            for _entry, line in left:
                seen = known_list(set(self.labels_seen)) or "none"
                self.problem(
                    line, f"no chance event '{label}' was left to use this entry; chance events seen: {seen}"
                )
        return self.failures


def run_script(path: Path, game, engine: Engine | None = None) -> list[str]:
    """Replay one script against the game's engine; the failures as `file: step N (line L): ...` ([] =
    passed)."""
    path = Path(path)
    shown = game.show(path) if hasattr(game, "show") else str(path)
    try:
        if getattr(game, "project", None) is not None:  # a script linked from outside the project is not read
            game.project.inside(path.name, path.parent, file=shown, what="script")
        data = load_yaml(path, shown)
    except InputError as exc:
        return [str(p) for p in exc.problems]
    if engine is None:
        engine = engine_for(game)
        if engine is None:
            return [f"{shown}: the game has no `engine:` in game.yaml; expected one to replay scripts"]
    return ScriptRun(data, shown, game, engine).run()
