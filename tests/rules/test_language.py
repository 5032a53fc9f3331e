"""The rules language: a described game plays like any engine (seeded, picklable), and every mistake in a
rules file is one located line."""

from __future__ import annotations

import pickle

import pytest

from generator.core.errors import InputError
from generator.data.load import load_game
from generator.engines.base import ChanceOutcome
from generator.rules.engine import engine_from_text
from generator.rules.expressions import RulesLimit
from generator.validator.harness import play_game

FILE = "cards/crazy-eights/rules.yaml"


@pytest.fixture(scope="module")
def eights(repo_project):
    return load_game(repo_project, "crazy-eights")


@pytest.fixture(scope="module")
def text(repo_project) -> str:
    return (repo_project.root / FILE).read_text(encoding="utf-8")


def problems(game, text: str) -> list[str]:
    with pytest.raises(InputError) as caught:
        engine_from_text(text, FILE, game)
    return [str(p) for p in caught.value.problems]


def line_of(text: str, fragment: str) -> int:
    """The 1-based line of the first line of `text` holding `fragment`."""
    return next(n for n, line in enumerate(text.splitlines(), 1) if fragment in line)


def test_crazy_eights_plays_from_its_rules_file_the_same_game_for_the_same_seed(eights, text):
    engine = engine_from_text(text, FILE, eights)
    assert engine.player_counts == (2, 3, 4, 5) and set(engine.bots) == {"random", "greedy"}
    first = play_game(engine, eights, 3, 7, ["random", "greedy", "random"])
    again = play_game(engine, eights, 3, 7, ["random", "greedy", "random"])
    assert first.ok and first.log == again.log
    assert first.metrics["ended_by"] in ("went-out", "blocked")
    if first.metrics["ended_by"] == "went-out":
        assert max(first.scores) == 0 and first.winners == [first.scores.index(0)]
    assert sum(first.metrics["card_usage"].values()) > 0


def test_the_engine_pickles_and_the_copy_plays_the_same_games(eights, text):
    engine = engine_from_text(text, FILE, eights)
    copy = pickle.loads(pickle.dumps(engine))
    for seed in range(5):
        assert play_game(copy, eights, 4, seed, ["greedy"] * 4).log == play_game(engine, eights, 4, seed,
                                                                                  ["greedy"] * 4).log


def test_a_scripted_opening_the_state_api(eights, text):
    state = engine_from_text(text, FILE, eights).new_state(eights, 2, {})
    request = state.chance_request()
    assert request.kind == "shuffle" and request.label == "stock" and len(request.items) == 52
    order = tuple(sorted(request.items))  # 10-clubs on top: dealt first
    state.apply(ChanceOutcome("stock", order))
    state.apply(ChanceOutcome("first-player", (1,)))
    snap = state.snapshot()
    assert snap["current_player"] == 1 and snap["stock_size"] == 52 - 14 - 1
    assert snap["players"][0]["hand"] == sorted(order[:7]) and snap["discard"] == [order[14]]
    legal = [str(a) for a in state.legal_actions()]
    assert legal and all(a.startswith(("play ", "eight ", "draw")) for a in legal)
    state.apply(state.parse_action(legal[0]))
    assert state.current_player() == 0


# ----- every mistake, one located line
# ---------------------------------------------------------------------------
def _broken(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def test_an_unknown_top_level_key_zone_field_action_and_effect_say_did_you_mean(eights, text):
    cases = [
        (
            _broken(text, "bots:\n", "bot:\n"),
            "bot:",
            "unknown key 'bot' in the rules file (did you mean 'bots'?)",
        ),
        (
            _broken(
                text,
                "move: {card: card, from: hand, to: discard}",
                "move: {card: card, from: hnad, to: discard}",
            ),
            "from: hnad",
            "unknown name 'hnad' (did you mean 'hand'?)",
        ),
        (
            _broken(text, "card.suit == suit or", "card.siut == suit or"),
            "card.siut",
            "cards have no field 'siut' (did you mean 'suit'?)",
        ),
        (
            _broken(text, "choose: [play, eight, draw, pass]", "choose: [play, eihgt, draw, pass]"),
            "eihgt",
            "unknown action 'eihgt' (did you mean 'eight'?)",
        ),
        (
            _broken(text, "      - add: {passes: 1}", "      - ad: {passes: 1}"),
            "- ad:",
            "unknown effect 'ad' in action 'pass' (did you mean 'add'?)",
        ),
    ]
    for broken, fragment, message in cases:
        found = problems(eights, broken)
        assert len(found) == 1, found
        assert found[0].startswith(f"{FILE}:{line_of(broken, fragment)}: "), found
        assert message in found[0], found


def test_a_type_error_in_an_expression_names_the_expression_and_the_fix(eights, text):
    broken = _broken(text, 'when: "hand.size == 0"', 'when: "hand == 0 or hand > 3"')
    (found,) = problems(eights, broken)
    assert found == (
        f"{FILE}:{line_of(broken, 'hand > 3')}: 'hand > 3' in 'hand == 0 or hand > 3': '>' compares "
        "numbers or texts, but 'hand' is a zone; expected hand.size"
    )
    broken = _broken(text, 'score: "-(hand | sum(\'points\'))"', 'score: "hand + 1"')
    (found,) = problems(eights, broken)
    assert "'hand + 1'" in found and "expected hand.size" in found and found.startswith(f"{FILE}:")
    broken = _broken(text, "count: hand_size}", "count: discard}")
    (found,) = problems(eights, broken)
    assert found == (f"{FILE}:{line_of(broken, 'count: discard}')}: 'discard' is a zone, but count needs a "
                     "number; expected discard.size")


def test_circular_values_an_action_without_effect_and_an_unbounded_repeat_are_refused(eights, text):
    broken = _broken(text, "values:\n", "values:\n  loop_a: \"loop_b + 1\"\n  loop_b: \"loop_a\"\n")
    (found,) = problems(eights, broken)
    assert found == (f"{FILE}:{line_of(broken, 'loop_a:')}: circular definition: loop_a -> loop_b -> loop_a; "
                     "expected values that end in zones, counters and numbers")
    broken = _broken(text, "    do:\n      - add: {passes: 1}\n", "")
    (found,) = problems(eights, broken)
    assert found.startswith(f"{FILE}:{line_of(broken, '  pass:')}: action 'pass' has no effect;")
    broken = _broken(text, "      max: 60\n", "")
    (found,) = problems(eights, broken)
    assert found.startswith(
        f"{FILE}:{line_of(broken, '- repeat:')}: a repeat without `max:` could go on for ever"
    )


def test_wrong_types_and_values_of_keys(eights, text):
    cases = [
        (_broken(text, "discard: {face: up}", "discard: {face: up, owner: everyone}"), "owner: everyone",
         "zone 'discard': owner 'everyone'; expected player (one per player) or shared"),
        (_broken(text, "discard: {face: up}", "discard: {face: sideways}"), "face: sideways",
         "zone 'discard': face 'sideways'; expected up or down"),
        (_broken(text, "      max: 60\n", "      max: lots\n"), "max: lots", "unknown name 'lots'"),
        (_broken(text, "players: [2, 3, 4, 5]", "players: two"), "players: two",
         "players is 'two'; expected a list of counts"),
        (_broken(text, "{deck: cards, face: down}", "{deck: cardz, face: down}"), "deck: cardz",
         "zone 'stock': deck 'cardz' is not a deck of the game (did you mean 'cards'?)"),
        (_broken(text, "'play' in taken", "'play' in taken and"), "'play' in taken and", "does not parse"),
    ]
    for broken, fragment, message in cases:
        found = problems(eights, broken)
        assert len(found) == 1, found
        assert found[0].startswith(f"{FILE}:{line_of(broken, fragment)}: ") and message in found[0], found


def test_every_problem_of_a_file_is_reported_together(eights, text):
    broken = _broken(
        _broken(text, "bots:\n", "bot:\n"),
        "card.siut" if "card.siut" in text else "card.suit ==",
        "card.siut ==",
    )
    assert len(problems(eights, broken)) == 2


def test_an_expression_that_blows_up_is_stopped_with_the_rules_line(eights, text):
    broken = _broken(text, 'tie_breaks: ["-hand.size"]', "tie_breaks: [\"'x' * (10 ** 9)\"]")
    engine = engine_from_text(broken, FILE, eights)
    record = play_game(engine, eights, 2, 1, ["random", "random"])
    assert record.failure_kind == "crash"
    assert (
        f"{FILE}:{line_of(broken, 'tie_breaks')}:" in record.failure and "repeating a str" in record.failure
    )
    with pytest.raises(RulesLimit):
        state = engine.new_state(eights, 2, {})
        state.p.tie_breaks[0](state, {})


def test_a_deal_the_deck_cannot_give_is_a_located_problem_of_the_static_checks(eights, text):
    broken = _broken(text, "else settings.hand_more_players", "else 15")
    engine = engine_from_text(broken, FILE, eights)
    checks = dict(engine.static_checks(eights))
    (found,) = {str(p) for p in checks["the rules file plays: setup and every step carry out"]}
    assert found.startswith(
        f"{FILE}:{line_of(broken, '- deal:')}: stock runs out while dealing 15 cards to each"
    )


def test_a_card_no_action_can_play_is_named_at_its_line(eights, text):
    broken = _broken(text, "if: \"card.rank == '8'\"", "if: \"card.rank == '8' and card.suit != 'hearts'\"")
    engine = engine_from_text(broken, FILE, eights)
    found = [
        str(p)
        for p in dict(engine.static_checks(eights))["every card of a deck the actions play can be played"]
    ]
    assert (
        len(found) == 1 and found[0].startswith("cards/crazy-eights/cards.yaml:") and "'8-hearts'" in found[0]
    )


def test_a_pile_that_ends_the_game_too_soon(eights, text):
    broken = _broken(text, "{deck: cards, face: down}", "{deck: cards, face: down, when_empty: end}")
    broken = _broken(broken, "else settings.hand_more_players", "else 10")
    # 51 of the 52 cards dealt and turned up
    broken = _broken(broken, "players: [2, 3, 4, 5]", "players: [5]")
    broken = _broken(broken, "turn:\n", "turn:\n  - draw: {from: stock, to: hand}\n")  # a draw every turn
    engine = engine_from_text(broken, FILE, eights)
    found = [
        str(p)
        for p in dict(engine.static_checks(eights))["a pile whose emptiness ends the game lasts a round"]
    ]
    assert len(found) == 1 and found[0].startswith(
        f"{FILE}:{line_of(broken, '  stock:')}: zone 'stock' runs out before the first round is over"
    )


def test_a_player_count_table_gives_each_count_its_value(eights, text):
    value = '  hand_size: "settings.hand_two_players if players == 2 else settings.hand_more_players"'
    tabled = _broken(text, value, "").replace(
        "values:\n", "tables:\n  hand_size: {2: 7, 3: 6, default: 5}\nvalues:\n"
    )
    engine = engine_from_text(tabled, FILE, eights)
    for players, dealt in ((2, 7), (3, 6), (5, 5)):
        state = engine.new_state(eights, players, {})
        state.apply(ChanceOutcome("stock", tuple(state.chance_request().items)))
        assert state.snapshot()["players"][0]["hand_size"] == dealt
    missing = tabled.replace("hand_size: {2: 7, 3: 6, default: 5}", "hand_size: {2: 7, 3: 6}")
    (found,) = problems(eights, missing)
    assert found == (
        f"{FILE}:{line_of(missing, 'hand_size: {2: 7, 3: 6}')}: table 'hand_size' gives no value for 4, "
        "5 players; expected one per player count the rules play (or `default:`)"
    )


def test_a_bot_may_prefer_per_action_and_an_unknown_action_there_is_located(eights, text):
    per_action = text.replace(
        '    prefer: "[action.name != \'eight\', action.card.points if action.card else 0, hand | '
        'selectattr(\'suit\', '
        '\'==\', action.named) | list | length]"',
        '    prefer:\n      play: "card.points + 100"\n      eight: "hand | selectattr(\'suit\', \'==\', '
        'named) | list | length"',
    )
    assert per_action != text
    engine = engine_from_text(per_action, FILE, eights)
    record = play_game(engine, eights, 3, 2, ["greedy"] * 3)
    assert record.ok, record.failure
    wrong = per_action.replace('      play: "card.points + 100"', '      plya: "card.points + 100"')
    (found,) = problems(eights, wrong)
    assert found.startswith(
        f"{FILE}:{line_of(wrong, 'plya:')}: prefer: unknown action 'plya' (did you mean 'play'?)"
    )


def test_an_expression_is_one_function_and_its_texts_stay_texts():
    from generator.rules.expressions import Scope, compile_expression

    scope = Scope({}, frozenset())
    nasty = "'); __import__('os').system('echo hi') #\n"
    read, kind, _of = compile_expression(f"{nasty!r} == 'x' or [1, 2 * 3, {nasty!r}]", scope)
    assert kind == "value" and read(None, {}) == [1, 6, nasty]
    assert repr(nasty) in read.source and "__import__('os')" not in read.source.replace(repr(nasty), "")
    located = read.locate(lambda exc: ValueError(f"at line 3: {exc}"))
    broken, _kind, _of = compile_expression("[1][5] - 1", scope)  # none - 1: a failure at run time
    with pytest.raises(ValueError, match="at line 3: unsupported operand"):
        broken.locate(lambda exc: ValueError(f"at line 3: {exc}"))(None, {})
    assert located(None, {}) == [1, 6, nasty]
