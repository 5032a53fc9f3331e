"""Producers own their inputs: each declares the parts of a game it plans from, every kind of output it makes,
what those are drawn from and the options that change how they look, and the fingerprints read nothing
else."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from generator.core.contract import HOW_TO_BUILD, BuildOptions, FunctionProducer, Output, OutputKind, looks_of
from generator.data.load import load_game
from generator.pipeline import producers
from generator.pipeline.fingerprints import PARTS, GameParts

OPTIONS = BuildOptions(papers=("a4",))
OPTION_NAMES = [field.name for field in dataclasses.fields(BuildOptions)]
LOOKS = sorted({name for producer in producers.PRODUCERS for name in looks_of(producer)})
KINDS = [made for producer in producers.PRODUCERS for made in producer.makes]


@pytest.fixture(scope="module")
def parts(repo_project) -> GameParts:
    """Order Up (boards, components, tuck boxes, rules) with every part worked out once."""
    parts = GameParts(load_game(repo_project, "order-up-pizza"), "tool")
    for name in PARTS:
        parts.part(name)
    return parts


def _fingerprints(parts: GameParts, options: BuildOptions) -> dict[str, str]:
    """Every producer's unit fingerprint and every kind of output's fingerprint, by producer and kind."""
    found = {producer.name: parts.unit_fingerprint(producer, options) for producer in producers.PRODUCERS}
    found |= {
        made.kind: parts.fingerprint(Path("order-up-pizza") / made.kind, made, options) for made in KINDS
    }
    return found


@pytest.mark.parametrize("producer", producers.PRODUCERS, ids=lambda p: p.name)
def test_every_producer_declares_what_it_is_made_from_and_the_options_it_looks_by(producer):
    assert producer.plans_from and set(producer.plans_from) <= set(PARTS)
    assert producer.makes
    for made in producer.makes:
        assert made.drawn_from and set(made.drawn_from) <= set(PARTS), made
        assert set(made.looks) <= set(OPTION_NAMES) - set(HOW_TO_BUILD), made


def test_each_kind_of_output_is_made_by_one_producer():
    kinds = [made.kind for made in KINDS]
    assert len(kinds) == len(set(kinds))
    assert all(producers.made_as(made.kind) is made for made in KINDS)
    with pytest.raises(ValueError, match="0 producers make outputs of kind 'poster'"):
        producers.made_as("poster")


def test_every_build_option_is_declared_somewhere():
    """An option is either how a build runs, which outputs there are, or changes how some producer's outputs
    look: a new option is a decision, never silently part of no fingerprint."""
    # papers, papers_from_game and languages say which outputs there are (each has its own path)
    assert set(OPTION_NAMES) == set(HOW_TO_BUILD) | {"papers", "papers_from_game", "languages"} | set(LOOKS)


@pytest.mark.parametrize("name", LOOKS)
def test_a_declared_option_changes_the_fingerprints_of_what_it_looks_by_and_no_others(parts, name):
    before = _fingerprints(parts, OPTIONS)
    after = _fingerprints(parts, dataclasses.replace(OPTIONS, **{name: "another value"}))
    changed = {key for key in before if before[key] != after[key]}
    assert changed == ({p.name for p in producers.PRODUCERS if name in looks_of(p)}
                       | {made.kind for made in KINDS if name in made.looks})
    assert changed  # LOOKS holds only declared options


@pytest.mark.parametrize("name", HOW_TO_BUILD)
def test_how_a_build_runs_changes_no_fingerprint(parts, name):
    assert _fingerprints(parts, dataclasses.replace(OPTIONS, **{name: 3})) == _fingerprints(parts, OPTIONS)


@pytest.mark.parametrize("name", PARTS)
def test_a_part_changes_the_fingerprints_that_declare_it_and_no_others(parts, monkeypatch, name):
    before = _fingerprints(parts, OPTIONS)
    # as if that part of the game changed
    monkeypatch.setitem(parts._parts, name, "another hash")  # noqa: SLF001
    after = _fingerprints(parts, OPTIONS)
    changed = {key for key in before if before[key] != after[key]}
    assert changed == ({p.name for p in producers.PRODUCERS if name in p.plans_from}
                       | {made.kind for made in KINDS if name in made.drawn_from})


def test_an_output_of_a_kind_its_producer_does_not_declare_is_refused():
    poster = Output("g", Path("g/poster.pdf"), "poster", lambda _tmp: {})
    producer = FunctionProducer("posters", "nothing", lambda _game, _options: [poster], plans_from=("game",),
                                makes=(OutputKind("flyer", ("game",), ()),))
    with pytest.raises(
        ValueError, match="posters made g/poster.pdf of kind 'poster', which it does not declare"
    ):
        producers.declared(producer, [poster])


def test_a_part_no_game_has_is_refused(parts):
    with pytest.raises(ValueError, match="no part of a game is called 'card_backs'"):
        parts.part("card_backs")
