"""What `pnp validate --format` writes for continuous integration: GitHub annotations, a JUnit test report, a
SARIF code-scanning report, or JSON.

Each format is a function of the validation's findings only (`Findings`: the problems that fail the run, the
warnings, and per game what ran), so a run whose data does not even load still gives a complete document with
its problems in it. The documents carry no clock time: the same run writes the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from xml.etree import ElementTree

from generator import __version__
from generator.core.errors import Problem

FORMATS = ("text", "github", "junit", "sarif", "json")  # --format; text is the terminal's own summary
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


@dataclass(frozen=True)
class GameFindings:
    """What ran for one game: its passed checks, its scripted games, its simulation, its own problems."""

    game: str
    checks: tuple[str, ...] = ()
    scripts: int = 0
    script_failures: tuple[str, ...] = ()
    simulated: bool = False
    failed_games: int = 0
    sim_problems: tuple[str, ...] = ()


@dataclass
class Findings:
    """A validation's outcome as every format reads it."""

    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    games: list[GameFindings] = field(default_factory=list)
    loaded: bool = True  # False: the data did not load, so nothing was checked or played

    @property
    def ok(self) -> bool:
        return not self.problems


def findings_of(result) -> Findings:
    """The findings of a finished `pipeline.validate.Validation`."""
    games = []
    for entry in result.games:
        figures = entry.figures
        games.append(GameFindings(
            game=entry.game, checks=tuple(entry.report.checks), scripts=entry.scripts,
            script_failures=tuple(p.message for p in entry.script_problems),
            simulated=figures is not None,
            failed_games=sum(f["failed"] for f in figures["by_players"].values()) if figures else 0,
            sim_problems=tuple(str(p) for p in entry.sim_problems)))
    return Findings(list(result.problems), list(result.warnings), games)


def problem_data(problem: Problem) -> dict:
    """A problem as JSON: file, line, cell (for a workbook) and message."""
    return {"file": problem.file, "line": problem.line, "cell": problem.cell, "message": problem.message}


# -- GitHub Actions workflow commands ---------------------------------------------------------------------

def _escape_data(text: str) -> str:
    # the escapes GitHub's runner decodes in a command's message
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _annotation(level: str, problem: Problem) -> str:
    message = f"{problem.cell}: {problem.message}" if problem.cell else problem.message
    where = []
    if problem.file:
        where.append(f"file={_escape_property(problem.file)}")
        if problem.line and not problem.cell:
            where.append(f"line={problem.line}")
    where.append("title=pnp validate")
    return f"::{level} {','.join(where)}::{_escape_data(message)}"


def github(findings: Findings) -> str:
    """One `::error` / `::warning` line per finding, located at file and line for a pull request's diff."""
    lines = [_annotation("error", p) for p in findings.problems]
    lines += [_annotation("warning", p) for p in findings.warnings]
    return "".join(line + "\n" for line in lines)


# -- JUnit XML ---------------------------------------------------------------------------------------------

def _case(suite: ElementTree.Element, game: str, name: str, failures: list[str]) -> None:
    case = ElementTree.SubElement(suite, "testcase", classname=f"pnp.{game}", name=name)
    if failures:
        failure = ElementTree.SubElement(case, "failure", message=failures[0][:200],
                                         type="pnp.problem")
        failure.text = "\n".join(failures)


def _belongs(problem: Problem, game: str) -> bool:
    return f"/{game}/" in f"/{problem.file}"


def junit(findings: Findings) -> str:
    """A JUnit report: per game a test suite with the data checks, the scripted games and the simulation."""
    root = ElementTree.Element("testsuites", name="pnp validate")
    located = {str(p) for g in findings.games for p in g.script_failures + g.sim_problems}
    unclaimed = [p for p in findings.problems if str(p) not in located]
    for found in findings.games:
        suite = ElementTree.SubElement(root, "testsuite", name=found.game)
        own = [str(p) for p in unclaimed if _belongs(p, found.game)]
        unclaimed = [p for p in unclaimed if not _belongs(p, found.game)]
        _case(suite, found.game, f"data: {len(found.checks)} checks", own)
        if found.scripts:
            _case(suite, found.game, f"scripts: {found.scripts} scripted games", list(found.script_failures))
        if found.simulated:
            failures = list(found.sim_problems)
            if found.failed_games:
                failures.append(f"{found.failed_games} simulated games failed")
            _case(suite, found.game, "simulation", failures)
    if unclaimed or not findings.games:
        suite = ElementTree.SubElement(root, "testsuite", name="project")
        _case(suite, "project", "data loads and checks" if not findings.loaded else "other problems",
              [str(p) for p in unclaimed])
    for suite in root:
        cases = list(suite)
        suite.set("tests", str(len(cases)))
        suite.set("failures", str(sum(1 for c in cases if c.find("failure") is not None)))
        suite.set("errors", "0")
    root.set("tests", str(sum(int(s.get("tests", 0)) for s in root)))
    root.set("failures", str(sum(int(s.get("failures", 0)) for s in root)))
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"


# -- SARIF 2.1.0 -------------------------------------------------------------------------------------------

RULES = {"error": ("pnp/problem", "A problem that fails pnp validate"),
         "warning": ("pnp/warning", "A warning (pnp validate --strict fails on it)")}


def _result(level: str, problem: Problem) -> dict:
    found: dict = {"ruleId": RULES[level][0], "level": level, "message": {"text": str(problem)}}
    if problem.file:
        location: dict = {"artifactLocation": {"uri": problem.file}}
        if problem.line and not problem.cell:
            location["region"] = {"startLine": problem.line}
        found["locations"] = [{"physicalLocation": location}]
    return found


def sarif(findings: Findings) -> str:
    """A SARIF 2.1.0 log (code scanning): one result per problem and warning, located where pnp locates it."""
    rules = [{"id": rule, "shortDescription": {"text": text}} for rule, text in RULES.values()]
    results = [_result("error", p) for p in findings.problems] + [_result("warning", p)
                                                                    for p in findings.warnings]
    log = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [{
        "tool": {"driver": {"name": "pnp", "version": __version__, "rules": rules}},
        "results": results}]}
    return json.dumps(log, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


# -- JSON ----------------------------------------------------------------------------------------------------

def as_json(findings: Findings) -> str:
    """The findings as JSON: ok, problems, warnings and per game what ran."""
    document = {
        "ok": findings.ok, "loaded": findings.loaded,
        "problems": [problem_data(p) for p in findings.problems],
        "warnings": [problem_data(p) for p in findings.warnings],
        "games": {g.game: {"checks": list(g.checks), "scripts": g.scripts,
                           "script_failures": list(g.script_failures), "simulated": g.simulated,
                           "failed_games": g.failed_games, "sim_problems": list(g.sim_problems)}
                  for g in findings.games},
    }
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


WRITERS: dict[str, Callable[[Findings], str]] = {"github": github, "junit": junit, "sarif": sarif,
                                                 "json": as_json}


def render(fmt: str, findings: Findings) -> str:
    """The document of one --format (ValueError for 'text' or an unknown name: the caller chose it)."""
    return WRITERS[fmt](findings)
