"""A rebuild runs only the game.yaml checks whose inputs changed (generator.pipeline.check_cache): each check
that passed is remembered by the hash of the parts of the game it reads, and a change to any of them runs it
again. A rebuild gives the bytes of a --force build of the same data, and says the same warnings and
problems as a cold build."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from generator.core.contract import BuildOptions
from generator.core.errors import InputError, Problems
from generator.data import game_checks
from generator.data.game_checks import PassedChecks, parts_read, run_checks
from generator.data.load import load_game
from generator.data.models import CheckSpec
from generator.data.project import Project
from generator.data.templating import game_view
from generator.pipeline.build import build
from generator.pipeline.check_cache import CHECKS_FILE
from tests.conftest import run_pnp
from tests.fixtures.built import edit, game_project

ORDER_UP = "order-up-pizza"
GO_FISH = "go-fish"
A4 = BuildOptions(papers=("a4",), languages=("en",))


def _check(**fields) -> CheckSpec:
    return CheckSpec.model_validate({"name": "a check", **fields})


def test_a_check_reads_the_parts_its_expressions_name(tmp_path):
    view = game_view(load_game(game_project(tmp_path, ORDER_UP), ORDER_UP))
    assert parts_read(_check(**{"assert": "decks.toppings.copies == 91"}), view) == {"decks.toppings"}
    # a loop, a `let`, a subscript and a helper: the street helper reads the boards
    assert parts_read(_check(**{"let": {"n": "players.max"}, "for_each": {"o": "decks['orders'].cards"},
                                "assert": "street(o.address).color and n"}), view) \
        == {"players", "decks.orders", "boards"}
    assert parts_read(_check(**{"assert": "decks | length > 1"}), view) == {"decks"}  # every deck
    assert parts_read(_check(**{"assert": "game.title"}), view) == set(view)  # the whole game
    # words of the game's language, or a helper it does not know: run every time
    assert parts_read(_check(**{"assert": "plural(2, 'card') != ''"}), view) is None
    assert parts_read(_check(**{"assert": "(2 | words) != ''"}), view) is None


def _counted_runs(monkeypatch) -> list[str]:
    ran: list[str] = []
    run = game_checks._Runner.run

    def counting(self, check):
        ran.append(check.name)
        return run(self, check)

    monkeypatch.setattr(game_checks._Runner, "run", counting)
    return ran


def test_a_passed_check_runs_again_only_when_what_it_reads_changed(tmp_path, monkeypatch):
    project = game_project(tmp_path, ORDER_UP)
    ran = _counted_runs(monkeypatch)
    game = load_game(project, ORDER_UP)
    first = PassedChecks(salt="tool")
    names = run_checks(game, Problems(), first)
    assert len(first.passed[ORDER_UP]) == len(names) == len(ran) == 29  # every check passed, and is kept

    ran.clear()
    parsed: list[str] = []
    parse = game_checks.parts_read
    monkeypatch.setattr(game_checks, "parts_read",
                        lambda check, view: parsed.append(check.name) or parse(check, view))
    again = PassedChecks(first.passed[ORDER_UP], salt="tool", parts=first.parts_used[ORDER_UP])
    assert run_checks(load_game(project, ORDER_UP), Problems(), again) == names
    assert ran == [] and again.passed == first.passed  # nothing changed: nothing runs
    assert parsed == []  # what each check reads is remembered too: no expression is parsed again
    monkeypatch.setattr(game_checks, "parts_read", parse)

    ran.clear()
    edit(project, f"cards/{ORDER_UP}/orders.yaml", "customer: Grandma Rosa", "customer: Grandma Rosie")
    game = load_game(project, ORDER_UP)
    view = game_view(game)
    reading_orders = [c.name for c in game.config.checks if {"decks", "decks.orders"} & parts_read(c, view)]
    assert run_checks(game, Problems(), PassedChecks(first.passed[ORDER_UP], salt="tool")) == names
    assert ran == reading_orders and 0 < len(ran) < len(names)  # only the checks that read the orders deck

    ran.clear()
    other_tool = PassedChecks(first.passed[ORDER_UP], salt="another tool")  # pnp itself changed: all run
    run_checks(game, Problems(), other_tool)
    assert len(ran) == len(names)


def test_a_check_broken_by_an_edit_fails_as_it_does_without_the_cache(tmp_path):
    project = game_project(tmp_path, ORDER_UP)
    passed = PassedChecks(salt="tool")
    run_checks(load_game(project, ORDER_UP), Problems(), passed)
    edit(project, f"cards/{ORDER_UP}/toppings.yaml", "copies: 10", "copies: 11")
    cached, cold = Problems(), Problems()
    run_checks(load_game(project, ORDER_UP), cached, PassedChecks(passed.passed[ORDER_UP], salt="tool"))
    run_checks(load_game(project, ORDER_UP), cold)
    assert [str(p) for p in cached] == [str(p) for p in cold]
    assert any("check 'toppings deck matches the box' failed" in str(p) for p in cold)


def _digests(project: Project) -> dict[str, str]:
    return {str(p.relative_to(project.build_dir)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(project.build_dir.rglob("*.pdf"))}


def test_a_rebuild_after_an_edit_gives_the_bytes_of_a_forced_build(tmp_path):
    project = game_project(tmp_path / "rebuilt", GO_FISH)
    build(project, [GO_FISH], A4)
    assert (project.build_dir / CHECKS_FILE).is_file()
    edit(project, f"cards/{GO_FISH}/fish.yaml", "name: Salmon,", "name: King Salmon,")
    rebuilt = build(project, [GO_FISH], A4)
    assert {Path(w["path"]).name for w in rebuilt.written} >= {"cards-a4.pdf"}  # drawn again
    forced = Project(tmp_path / "forced")
    shutil.copytree(project.root / "cards", forced.root / "cards")
    shutil.copytree(project.root / "templates", forced.root / "templates")
    build(forced, [GO_FISH], BuildOptions(papers=("a4",), languages=("en",), force=True))
    assert _digests(project) == _digests(forced)


def _said(result) -> list[str]:
    return [line for line in result.output.splitlines() if line.startswith(("warning: ", "cards/"))]


def test_a_rebuild_says_the_warnings_and_problems_a_cold_build_says(tmp_path):
    project = game_project(tmp_path, GO_FISH)
    edit(project, f"cards/{GO_FISH}/fish.yaml", "name: Cod,", 'name: "Co\u200bd",')  # an invisible space
    cold = run_pnp("build", GO_FISH, "--paper", "a4", project=project)
    assert cold.exit_code == 0 and len(_said(cold)) == 1 and "zero-width space" in _said(cold)[0]
    unchanged = run_pnp("build", GO_FISH, "--paper", "a4", project=project)
    assert "0 files written" in unchanged.output and _said(unchanged) == _said(cold)
    edit(project, f"templates/rules/{GO_FISH}.md.j2", "", "Fish!\n\n")  # the card sheets stay as they are
    rules = run_pnp("build", GO_FISH, "--paper", "a4", project=project)
    assert "skipped go-fish/cards-a4.pdf" in rules.output and _said(rules) == _said(cold)

    # a check that fails after an edit says on the rebuild (its passes cached) what a cold build says
    edit(project, f"cards/{GO_FISH}/fish.yaml", "name: Tuna, copies: 4", "name: Tuna, copies: 3")
    edit(project, f"cards/{GO_FISH}/fish.yaml", "total: 52", "total: 51")
    with pytest.raises(InputError) as rebuilt:
        build(project, [GO_FISH], A4)
    shutil.rmtree(project.build_dir)
    with pytest.raises(InputError) as fresh:
        build(project, [GO_FISH], A4)
    assert [str(p) for p in rebuilt.value.problems] == [str(p) for p in fresh.value.problems]
    assert "check 'every fish makes whole sets' failed for card 'tuna'" in str(fresh.value.problems[0])


def test_a_skipped_game_says_the_translation_warnings_of_its_last_build(tmp_path):
    from generator.core.errors import Problem
    from generator.data.report import CheckReport
    from generator.pipeline.incremental import BuildState, GameKey

    said = [Problem("cards/g/toppings.yaml", 15, "toppings.mushrooms.name has no Czech (cs) translation"),
            Problem("cards/g/i18n/cs.xlsx", 2, "Czech (cs): a note", "Texts!B2")]
    state = BuildState(tmp_path)
    state.record_game("g", GameKey("content", "full"), [], CheckReport("g", 1, 1, 1), ["en", "cs"], said)
    state.save()
    assert BuildState(tmp_path).game_warnings("g") == said  # as the build that planned it said them
    assert BuildState(tmp_path).game_warnings("another") == []
