"""Version stamps and `pnp build --changed`: the cards reprinted, the swap list and the stamps, read back from
the PDFs; the printed record's bad inputs."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from pathlib import Path

import pypdfium2

from generator.data.project import Project
from generator.data.revision import build_date, content_revision
from tests.cards.test_sheets import codes_per_page
from tests.conftest import run_pnp

REVISION = re.compile(r"\b[0-9a-f]{6}\b")


def page_texts(path: Path) -> list[str]:
    pdf = pypdfium2.PdfDocument(str(path))
    return [" ".join(pdf[i].get_textpage().get_text_range().split()) for i in range(len(pdf))]


def stamps(path: Path) -> Counter:
    """The revisions printed on the backs of a full card sheet PDF (the pages after the print check that
    carry no card code), one per copy."""
    found: Counter = Counter()
    for text in page_texts(path)[2:]:
        if "DEM-ACT" not in text:
            found.update(REVISION.findall(text))
    return found


def demo_project(root: Path) -> Project:
    """`pnp new demo` with `stamp: true`, built on A4 and marked printed."""
    assert run_pnp("new", "demo", project=root).exit_code == 0
    game = root / "cards" / "demo" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "stamp: true\n", encoding="utf-8")
    assert run_pnp("build", "demo", "--paper", "a4", project=root).exit_code == 0
    marked = run_pnp("mark-printed", "demo", project=root)
    assert marked.exit_code == 0, marked.output
    assert "4 cards (10 copies) marked printed in en -> cards/demo/printed.yaml" in marked.output
    return Project(root)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_changed_reprints_the_edited_card_and_only_its_stamp_changes(tmp_path):
    project = demo_project(tmp_path)
    folder = project.build_dir / "demo"
    record = (project.cards_dir / "demo" / "printed.yaml").read_text(encoding="utf-8")
    lucky = re.search(r"lucky-roll: \{code: DEM-ACT-02, name: Lucky Roll, copies: 3, revision: \"?(\w+)",
                      record)
    assert lucky is not None
    before = stamps(folder / "cards-a4.pdf")
    assert before[lucky[1]] == 3 and sum(before.values()) == 10 and len(before) == 4  # one revision a card
    edit(project.cards_dir / "demo" / "actions.yaml", "On 4 or more", "On 5 or more")

    result = run_pnp("build", "demo", "--paper", "a4", "--changed", project=tmp_path)
    assert result.exit_code == 0, result.output
    assert "replace DEM-ACT-02 Lucky Roll (3 copies)" in result.output
    reprint = folder / "cards-a4-changed.pdf"
    texts = page_texts(reprint)
    assert len(texts) == 4  # the swap list and its back, one sheet of fronts and its backs
    assert texts[0] == "Demo: cards to swap What changed since the cards were marked printed " \
        f"(printed.yaml, revision {content_revision_of(project)}): \u2022 replace DEM-ACT-02 Lucky Roll " \
        "(3 copies)"
    assert texts[1] == ""
    assert [c for page in codes_per_page(reprint, "DEM")[2:] for c in page] == ["DEM-ACT-02"] * 3
    assert "On 5 or more" in texts[2]
    new = REVISION.findall(texts[3])
    assert len(new) == 3 and len(set(new)) == 1 and new[0] != lucky[1]  # the reprint's backs: its new stamp
    swap_text = (folder / "cards-changed.txt").read_text(encoding="utf-8")
    assert swap_text == "Demo: cards to swap\n\nreplace DEM-ACT-02 Lucky Roll (3 copies)\n"

    assert run_pnp("build", "demo", "--paper", "a4", project=tmp_path).exit_code == 0
    after = stamps(folder / "cards-a4.pdf")
    assert after - before == Counter({new[0]: 3}) and before - after == Counter({lucky[1]: 3})


def content_revision_of(project: Project) -> str:
    """build.revision of the demo as it was marked (the record says it)."""
    text = (project.cards_dir / "demo" / "printed.yaml").read_text(encoding="utf-8")
    found = re.search(r"^revision: \"?(\w+)", text, re.M)
    assert found is not None
    return found[1]


def test_changed_lists_added_removed_and_recounted_cards(tmp_path):
    project = demo_project(tmp_path)
    deck = project.cards_dir / "demo" / "actions.yaml"
    edit(deck, "    copies: 4\n", "    copies: 5\n")  # draw-two: one more copy, the same face
    edit(deck, "    copies: 3\n", "    copies: 2\n")  # lucky-roll: one copy fewer
    text = deck.read_text(encoding="utf-8")
    head_cook = text.index("  - id: head-cook")
    deck.write_text(text[:head_cook] + "  - {id: big-tip, name: Big Tip, copies: 2, icon: star, value: 4, "
                    "color: \"#1f5fbf\", text: Score 4 points.}\n", encoding="utf-8")
    result = run_pnp("build", "demo", "--paper", "a4", "--changed", project=tmp_path)
    assert result.exit_code == 0, result.output
    swaps = (project.build_dir / "demo" / "cards-changed.txt").read_text(encoding="utf-8").splitlines()[2:]
    assert swaps == ["add DEM-ACT-01 Draw Two (1 more copy)", "remove DEM-ACT-02 Lucky Roll (1 copy of it)",
                     "add DEM-ACT-04 Big Tip (2 copies)", "remove DEM-ACT-04 Head Cook (1 copy)"]
    reprint = project.build_dir / "demo" / "cards-a4-changed.pdf"
    assert sorted(c for page in codes_per_page(reprint, "DEM")[2:] for c in page) == \
        ["DEM-ACT-01", "DEM-ACT-04", "DEM-ACT-04"]  # the extra copy and the new card, nothing else
    assert all(swap in page_texts(reprint)[0] for swap in swaps)
    # marked printed again: nothing to swap, and no reprint sheets
    assert run_pnp("mark-printed", "demo", project=tmp_path).exit_code == 0
    again = run_pnp("build", "demo", "--paper", "a4", "--changed", project=tmp_path)
    assert again.exit_code == 0 and "nothing: every card is as it was printed" in again.output


def test_changed_without_a_good_record_says_where_and_keeps_the_build(tmp_path):
    assert run_pnp("new", "demo", project=tmp_path).exit_code == 0
    assert run_pnp("build", "demo", "--paper", "a4", project=tmp_path).exit_code == 0
    folder = tmp_path / "build" / "demo"
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    missing = run_pnp("build", "demo", "--paper", "a4", "--changed", project=tmp_path)
    assert missing.exit_code == 1
    assert missing.output.splitlines()[0].startswith(
        "cards/demo/printed.yaml: no printed record of demo yet; expected one written by "
        "`pnp mark-printed demo`")
    assert run_pnp("mark-printed", project=tmp_path).exit_code == 0
    record = tmp_path / "cards" / "demo" / "printed.yaml"
    good = record.read_text(encoding="utf-8")
    line = next(n for n, text in enumerate(good.splitlines(), 1) if "draw-two" in text)
    record.write_text(good.replace("copies: 4", "copies: 5"), encoding="utf-8")  # edited by hand
    edited = run_pnp("build", "demo", "--paper", "a4", "--changed", project=tmp_path)
    assert edited.exit_code == 1
    checksum_line = next(n for n, text in enumerate(good.splitlines(), 1) if text.startswith("checksum:"))
    assert edited.output.splitlines()[0].startswith(
        f"cards/demo/printed.yaml:{checksum_line}: the printed record is not as `pnp mark-printed` wrote it "
        "(its checksum does not match its cards: it was edited by hand or damaged)")
    record.write_text(good.replace("copies: 4", "copies: four"), encoding="utf-8")
    wrong = run_pnp("build", "demo", "--paper", "a4", "--changed", project=tmp_path)
    assert wrong.exit_code == 1 and wrong.output.startswith(f"cards/demo/printed.yaml:{line}: ")
    assert "card 'draw-two' has copies 'four'" in wrong.output
    record.write_text(good + "<<<<<<< HEAD\nlanguages: {}\n", encoding="utf-8")  # a merge left its markers
    damaged = run_pnp("build", "demo", "--paper", "a4", "--changed", project=tmp_path)
    assert damaged.exit_code == 1 and "the printed record is damaged" in damaged.output
    assert re.match(r"cards/demo/printed\.yaml:\d+: ", damaged.output)
    for result in (missing, edited, wrong, damaged):
        assert sum(1 for text in result.output.splitlines() if "printed.yaml" in text) == 1
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before  # nothing built was lost
    both = run_pnp("build", "demo", "--changed", "--only", "actions", project=tmp_path)
    assert both.exit_code == 2 and "give one of them" in both.output


def test_bad_stamp_values_are_one_located_line(tmp_path):
    assert run_pnp("new", "demo", project=tmp_path).exit_code == 0
    game = tmp_path / "cards" / "demo" / "game.yaml"
    good = game.read_text(encoding="utf-8")
    line = len(good.splitlines()) + 1
    for value, expected in (("sideways", "'stamp': 'sideways' is no stamp; expected true, false or a "
                                         "mapping"),
                            ("{corner: middle}", "'stamp.corner' is 'middle'; expected one of: top-left"),
                            ("{size: 2pt}", "'stamp.size': 2pt is no size for a stamp; expected 6pt to 24pt"),
                            ("{colour: auto}", "unknown key 'colour' (did you mean 'color'?)")):
        game.write_text(good + f"stamp: {value}\n", encoding="utf-8")
        result = run_pnp("build", "demo", "--paper", "a4", project=tmp_path)
        assert result.exit_code == 1
        assert result.output.splitlines()[0].startswith(f"cards/demo/game.yaml:{line}: {expected}"), value
        assert "1 problem found" in result.output


def test_stamps_and_builds_are_the_same_in_any_folder(tmp_path):
    outputs = []
    for name in ("one", "two/deeper"):
        root = tmp_path / name
        root.mkdir(parents=True)
        project = demo_project(root)
        layout = project.cards_dir / "demo" / "layouts" / "actions.yaml"
        (project.cards_dir / "demo" / "scripts").mkdir()  # scripts are no part of build.revision
        (project.cards_dir / "demo" / "scripts" / "notes.yaml").write_text(f"# {name}\n", encoding="utf-8")
        layout.write_text(layout.read_text(encoding="utf-8") + "  version: {x: 5mm, y: 80mm, width: 50mm, "
                          "height: 4mm, size: 7pt, text: \"{{ build.revision }} {{ card.revision }}\"}\n",
                          encoding="utf-8")
        assert run_pnp("build", "demo", "--paper", "a4", project=root).exit_code == 0
        outputs.append(hashlib.sha256((project.build_dir / "demo" / "cards-a4.pdf").read_bytes()).hexdigest())
        revision = content_revision(project.cards_dir / "demo", project.templates_dir)
        sheets = page_texts(project.build_dir / "demo" / "cards-a4.pdf")[2:]
        fronts = " ".join(text for text in sheets if "DEM-ACT" in text)
        assert f"{revision} " in fronts  # build.revision on the fronts
        # a card's revision on its front is the one on its back: printing it does not change it
        front_revisions = set(re.findall(rf"{revision} ([0-9a-f]{{6}})", fronts))
        assert front_revisions <= set(stamps(project.build_dir / "demo" / "cards-a4.pdf"))
        assert len(front_revisions) == 4
    assert outputs[0] == outputs[1]


def test_build_revision_and_date_come_from_the_sources(tmp_path):
    game = tmp_path / "cards" / "g"
    (game / "scripts").mkdir(parents=True)
    (game / "game.yaml").write_text("title: G\n", encoding="utf-8")
    first = content_revision(game, tmp_path / "templates")
    (game / "game.yaml").write_bytes(b"title: G\r\n")  # a Windows checkout
    (game / "printed.yaml").write_text("game: g\n", encoding="utf-8")
    (game / "scripts" / "s.yaml").write_text("seed: 1\n", encoding="utf-8")
    assert content_revision(game, tmp_path / "templates") == first
    (game / "game.yaml").write_text("title: H\n", encoding="utf-8")
    assert content_revision(game, tmp_path / "templates") != first
    assert build_date({"SOURCE_DATE_EPOCH": "1767225600"}) == "2026-01-01"
    assert build_date({}) == ""


def test_the_game_schema_takes_stamp_as_a_switch_or_a_mapping():
    import jsonschema

    from generator.data.models import GameConfig

    schema = GameConfig.model_json_schema()
    game = {"title": "G", "code": "GAM", "players": {"min": 2, "max": 4}, "decks": ["d"]}
    for stamp in (True, False, {"corner": "bottom", "inset": "5mm", "color": "auto"}):
        jsonschema.validate(game | {"stamp": stamp}, schema)
    for wrong in ("yes please", {"corner": "middle"}, {"colour": "#000000"}):
        try:
            jsonschema.validate(game | {"stamp": wrong}, schema)
        except jsonschema.ValidationError:
            continue
        raise AssertionError(f"the schema took stamp: {wrong!r}")
