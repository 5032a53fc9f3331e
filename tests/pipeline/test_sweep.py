"""pnp sweep on the toy game: grids, ranges, broken variants, the table, the JSON and the PDF; same results
for any --jobs."""

from __future__ import annotations

import json
import time

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from generator.core.errors import InputError
from generator.pipeline.changes import Changes
from generator.pipeline.sweep import expand_range, parse_varies, parse_vary, plan_variants, split_values
from tests.conftest import run_pnp
from tests.fixtures import toy_engine as toy

BASE14 = ("Helvetica", "Times", "Courier", "Symbol", "ZapfDingbats")


@pytest.fixture
def project(tmp_path):
    with toy.registered_project(tmp_path) as project:
        yield project


def test_ranges_and_lists_give_their_values():
    assert expand_range("8..12", "x") == [8, 9, 10, 11, 12]
    assert expand_range("8..12:2", "x") == [8, 10, 12]
    assert expand_range("0.1..0.3:0.1", "x") == [0.1, 0.2, 0.3]
    assert expand_range("immediate", "x") is None
    assert split_values("[1, 2],[2, 3],'a,b'") == ["[1, 2]", "[2, 3]", "'a,b'"]
    vary = parse_vary("settings.draw_at_restaurant=[1, 2],[2, 3]")
    assert vary.values == ([1, 2], [2, 3]) and vary.name == "draw_at_restaurant"
    assert parse_vary("options.end_mode=immediate,finish_round").is_option


@pytest.mark.parametrize(
    "texts, message",
    [
        (
            ["settings.hand_limit=12..8"],
            "--vary settings.hand_limit=12..8: the range has no values; expected A <= B and a STEP above 0",
        ),
        (["settings.hand_limit=8..12:0"], "the range has no values"),
        (["settings.hand_limit=a..b"], "expected a range of numbers A..B or A..B:STEP"),
        (["settings.hand_limit=8,,10"], "a value is empty"),
        (["settings.hand_limit="], "a value is empty"),
        (["settings.hand_limit=8,8"], "a value is listed twice"),
        (["settings.hand_limit=8", "settings.hand_limit=9"], "settings.hand_limit is varied twice"),
        (["options.a.b=1"], "expected options.NAME"),
        (["hand_limit"], "--vary hand_limit: expected PATH=V1,V2,... or PATH=A..B[:STEP]"),
        ([], "nothing to vary"),
        (
            ["settings.a=1..30", "settings.b=1..30"],
            "the --vary values make 900 variants; expected at most 400",
        ),
    ],
)
def test_bad_varies_are_one_line_errors(texts, message):
    with pytest.raises(InputError) as caught:
        parse_varies(texts)
    assert message in str(caught.value.problems[0])


def test_several_varies_make_a_grid_first_outermost():
    variants = plan_variants(parse_varies(["settings.hand_limit=4,6", "options.max_rounds=8..10"]),
                             Changes(sets=("numbers.one.copies=6",)))
    assert [v.label for v in variants][:4] == ["hand_limit=4, max_rounds=8", "hand_limit=4, max_rounds=9",
                                               "hand_limit=4, max_rounds=10", "hand_limit=6, max_rounds=8"]
    assert len(variants) == 6
    assert variants[0].changes.args() == ("--option max_rounds=8 --set numbers.one.copies=6 "
                                          "--set settings.hand_limit=4")


def test_a_sweep_is_the_same_for_any_number_of_jobs_and_reports_broken_variants(project):
    args = ["sweep", "toy", "--vary", "settings.hand_limit=4,6", "--vary", "numbers.one.copies=5..6",
            "--set", "numbers.total=17", "--games", "40", "--seed", "3"]
    outputs = []
    for jobs in ("1", "2"):
        report = project.root / f"sweep-{jobs}.json"
        result = run_pnp(*args, "--jobs", jobs, "--report", str(report), project=project)
        assert result.exit_code == 0, result.output
        outputs.append(
            (
                report.read_bytes(),
                (project.build_dir / "toy" / "sweep-hand_limit-numbers-one-copies.pdf").read_bytes(),
            )
        )
    assert outputs[0] == outputs[1]
    lines = result.output.splitlines()
    assert lines[0].split() == [
        "variant",
        "players",
        "failed",
        "length",
        "(95%",
        "CI)",
        "seat",
        "wins",
        "(greedy",
        "mirror)",
        "ended",
        "by",
        "goals/game",
        "margin",
        "half-time",
        "leader",
        "wins",
    ]
    assert "hand_limit=4, numbers.one.copies=5  -" in result.output
    assert "--  hand_limit=4, numbers.one.copies=5: breaks checks, not simulated:" in result.output
    assert "deck 'numbers' has 16 cards but `total` says 17" in result.output

    report = json.loads(outputs[0][0])
    assert [v["status"] for v in report["variants"]] == [
        "breaks checks",
        "simulated",
        "breaks checks",
        "simulated",
    ]
    assert report["settings"]["vary"][1] == {"path": "numbers.one.copies", "name": "numbers.one.copies",
                                             "values": [5, 6]}
    played = report["variants"][1]
    assert played["values"] == {"settings.hand_limit": 4, "numbers.one.copies": 6}
    assert (
        played["replay_args"]
        == "--set numbers.total=17 --set settings.hand_limit=4 --set numbers.one.copies=6"
    )
    two = played["by_players"]["2"]
    assert two["games"] == 40 and two["failed"] == 0
    mirror_games = 20
    assert sum(s["count"] for s in two["seat_wins"]) == pytest.approx(mirror_games)
    assert all(s["low"] <= s["share"] <= s["high"] for s in two["seat_wins"])
    assert two["length"]["low"] < two["length"]["mean"] < two["length"]["high"]
    assert sum(e["count"] for e in two["ended_by"].values()) == 40
    assert two["goal_completion"]["goals"] == 5
    # the hand limit changes the games: the two simulated variants differ
    assert played["by_players"] != report["variants"][3]["by_players"]


def test_the_sweep_pdf_has_a_chart_per_metric_and_only_embedded_fonts(project):
    result = run_pnp("sweep", "toy", "--vary", "options.max_rounds=2..6:2", "--games", "30", "--players", "2",
                     "--players", "3", "--jobs", "1", "--name", "rounds", project=project)
    assert result.exit_code == 0, result.output
    assert "sweep report: build/toy/sweep-rounds.pdf" in result.output
    path = project.build_dir / "toy" / "sweep-rounds.pdf"
    reader = PdfReader(path)
    text = " ".join(page.extract_text() for page in reader.pages)
    for heading in (
        "Sum Up: how max rounds changes play",  # the title in words, not the file's name
        "first to play",  # the legend names turn positions in words
        "second to play",
        "third to play",
        "Win rate by turn position",
        "2 players.",
        "3 players.",
        "Game length",
        "How games end",
        "Goal completion",
        "max_rounds",
    ):
        assert heading in text, heading
    fonts = {str(f.get_object()["/BaseFont"]) for page in reader.pages
             for f in page["/Resources"].get("/Font", {}).values()}
    assert fonts and not [f for f in fonts if any(b in f for b in BASE14)]
    page = pdfium.PdfDocument(path)[0].render(scale=0.5).to_pil().convert("L")
    assert page.getextrema()[0] < 80  # something dark was drawn (text, points)


def test_bad_values_stop_the_sweep_before_any_game(project):
    result = run_pnp(
        "sweep",
        "toy",
        "--vary",
        "numbers.one.copies=5,many",
        "--vary",
        "options.max_rounds=0,3",
        "--games",
        "5",
        project=project,
    )
    assert result.exit_code == 1
    assert (
        "'copies' is 'many'; expected a whole number (the value comes from --vary numbers.one.copies=many)"
        in result.output
    )
    result = run_pnp("sweep", "toy", "--vary", "numbers.uno.copies=5,6", "--games", "5", project=project)
    assert result.exit_code == 1
    assert result.output.count("has no card 'uno'") == 1  # said once, not once per value
    assert not (project.build_dir / "toy").exists()


def test_a_player_count_the_engine_does_not_play_is_refused(project):
    result = run_pnp("sweep", "toy", "--vary", "settings.hand_limit=4,6", "--players", "7", project=project)
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == "--players 7: toy is played by 2, 3, 4 players; expected those"


def test_a_sweep_where_no_variant_can_be_played_fails(project):
    result = run_pnp(
        "sweep",
        "toy",
        "--vary",
        "numbers.one.copies=4,5",
        "--set",
        "numbers.total=17",
        "--games",
        "5",
        project=project,
    )
    assert result.exit_code == 1
    assert "no variant could be simulated" in result.output


@pytest.mark.parametrize(
    "text, message",
    [
        ("settings.x=1..1e9", "--vary settings.x=1..1e9: the range makes 1,000,000,000 values; expected at "
                              "most 400 variants in all"),
        ("settings.x=1..1000000000000000000000", "the range makes 1,000,000,000,000,000,000,000 values"),
        ("settings.x=0..1:1e-300", "--vary settings.x=0..1:1e-300: STEP 1e-300 is below 1e-09"),
        ("settings.x=0..1e308:0.5", "the range makes countless values"),
        ("settings.x=1..inf", "--vary settings.x=1..inf: expected finite numbers A..B[:STEP]"),
        ("settings.x=nan..1", "expected finite numbers"),
    ],
)
def test_a_range_is_counted_before_its_values_are_made(text, message):
    """`--vary x=1..1e9` (or a tiny step) is one located line at once, not a billion values in memory."""
    started = time.monotonic()
    with pytest.raises(InputError) as caught:
        parse_varies([text])
    assert time.monotonic() - started < 1
    assert len(caught.value.problems) == 1
    assert message in str(caught.value.problems[0]), caught.value.problems[0]
