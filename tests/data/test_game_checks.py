"""game.yaml `checks:`: composition rules written as data, in the template language, located at the check's
line and naming the item (and where it is written); a broken expression is one located line, never a
traceback."""

from __future__ import annotations

import pytest

from generator.core.errors import InputError
from generator.data.load import load_game
from generator.pipeline.gather import check_game
from tests.conftest import run_pnp

GAME = "space-race"
GAME_YAML = f"cards/{GAME}/game.yaml"


def edit(project, name: str, old: str, new: str) -> None:
    path = project.cards_dir / GAME / name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def line(project, text: str) -> int:
    lines = (project.cards_dir / GAME / "game.yaml").read_text(encoding="utf-8").splitlines()
    return next(n for n, content in enumerate(lines, start=1) if text in content)


def problems(project) -> list[str]:
    with pytest.raises(InputError) as caught:
        check_game(load_game(project, GAME))
    return [str(p) for p in caught.value.problems]


def test_the_checks_pass_and_are_reported_by_name(designer_project):
    report = check_game(load_game(designer_project, GAME))
    assert {"nine crew cards, one captain", "no event costs more than 3 resources"} <= set(report.checks)


def test_a_failed_check_names_the_check_and_the_item_where_it_is_written(designer_project):
    edit(designer_project, "crew.csv", "Medic Ana,2", "Medic Ana,3")
    rows = [
        r
        for r in [
            ["id", "name", "copies", "cost", "effect"],
            ["meteor", "Meteor", 1, "metal: 3; fuel: 1", "Boom."],
        ]
    ]
    from tests.fixtures.workbooks import write_xlsx

    write_xlsx(designer_project.cards_dir / GAME / "events.xlsx", rows)
    at = line(designer_project, "- name: nine crew cards")
    events = line(designer_project, "- name: no event costs")
    assert problems(designer_project) == [
        f"{GAME_YAML}:{at}: check 'nine crew cards, one captain' failed: the crew deck has 10 cards and 1 "
        "captains; "
        "expected 9 cards and 1 captain",
        f"{GAME_YAML}:{events}: check 'no event costs more than 3 resources' failed for card 'meteor' "
        f"(cards/{GAME}/events.xlsx:Events!A2): event 'meteor' costs 4 resources; expected at most 3",
    ]
    result = run_pnp("validate", "--no-sim", project=designer_project)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{GAME_YAML}:{at}: check 'nine crew cards, one captain' failed" in result.output


def test_without_a_message_the_expression_is_the_expectation(designer_project):
    edit(
        designer_project,
        "game.yaml",
        '    message: "event \'{{ event.id }}\' costs {{ event.cost | dictsum }} resources; expected at most '
        '3"\n',
        "",
    )
    edit(
        designer_project,
        "game.yaml",
        "assert: event.cost | dictsum <= 3",
        "assert: event.cost | dictsum <= 1",
    )
    found = problems(designer_project)
    assert found[0].endswith("check 'no event costs more than 3 resources' failed for card 'meteor' "
                             f"(cards/{GAME}/events.xlsx:Events!A3): expected event.cost | dictsum <= 1")


@pytest.mark.parametrize(
    "old, new, message",
    [
        (
            "assert: event.cost | dictsum <= 3",
            "assert: event.cots | dictsum <= 3",
            "check 'no event costs more than 3 resources' cannot be evaluated: assert: error: no field "
            "'cots' here (did you "
            "mean 'cost'?)",
        ),
        (
            "assert: event.cost | dictsum <= 3",
            "assert: event.cost | dictsum <=",
            "check 'no event costs more than 3 resources' cannot be evaluated: assert: expression syntax "
            "error: unexpected "
            "'end of template'",
        ),
        (
            "for_each: {event: decks.events.cards}",
            "for_each: {event: decks.events.copies}",
            "check 'no event costs more than 3 resources' cannot be evaluated: for_each event: gives 7, not "
            "a list of items",
        ),
        (
            "assert: event.cost | dictsum <= 3",
            "assert: event.__class__",
            "check 'no event costs more than 3 resources' cannot be evaluated: assert: error: access to "
            "attribute "
            "'__class__' of 'View' object is unsafe.",
        ),
    ],
)
def test_a_mistake_in_a_check_is_one_located_line(designer_project, old, new, message):
    edit(designer_project, "game.yaml", old, new)
    found = problems(designer_project)
    at = line(designer_project, "- name: no event costs")
    assert len(found) == 1 and found[0].startswith(f"{GAME_YAML}:{at}: {message}"), found


def test_an_unknown_key_in_a_check_is_a_located_model_error(designer_project):
    edit(
        designer_project,
        "game.yaml",
        "    for_each: {event: decks.events.cards}",
        "    for_eech: {event: decks.events.cards}",
    )
    with pytest.raises(InputError) as caught:
        load_game(designer_project, GAME)
    at = line(designer_project, "for_eech")
    assert [str(p) for p in caught.value.problems] == [
        f"{GAME_YAML}:{at}: unknown key 'for_eech' (did you mean 'for_each'?); expected one of: name, "
        "assert, for_each, "
        "let, with, message"
    ]


def test_compiled_checks_are_kept_and_read_back_with_the_same_results(
    designer_project, tmp_path, monkeypatch
):
    from generator.data import game_checks

    cache = game_checks.CompiledChecks(str(tmp_path))
    monkeypatch.setattr(game_checks, "_compiled_checks", lambda: cache)
    edit(designer_project, "crew.csv", "Medic Ana,2", "Medic Ana,3")
    first = problems(designer_project)  # compiled into the empty cache
    kept = sorted(tmp_path.iterdir())
    assert kept and first[0].endswith(
        "the crew deck has 10 cards and 1 captains; expected 9 cards and 1 captain"
    )
    assert problems(designer_project) == first  # read back from it
    assert sorted(tmp_path.iterdir()) == kept
    # an edited check is compiled anew, never served the code of the old one
    edit(
        designer_project,
        "game.yaml",
        "assert: event.cost | dictsum <= 3",
        "assert: event.cost | dictsum <= 1",
    )
    assert len(problems(designer_project)) > len(first)
    edit(
        designer_project, "game.yaml", "assert: event.cost | dictsum <= 1", "assert: event.cost | dictsum <="
    )
    assert any(
        "expression syntax error: unexpected 'end of template'" in p for p in problems(designer_project)
    )
