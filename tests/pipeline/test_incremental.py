"""Incremental builds: a no-change build renders nothing, a changed game rebuilds alone, --force rebuilds
all."""

from __future__ import annotations

import json

from tests.conftest import run_pnp


def _stamps(build_dir, game):
    return {p.name: p.stat().st_mtime_ns for p in (build_dir / game).glob("*.pdf")}


def _two_games(project):
    assert run_pnp("new", "demo", project=project).exit_code == 0
    assert run_pnp("new", "other", project=project).exit_code == 0
    first = run_pnp("build", "demo", "other", "--paper", "a4", project=project)
    assert first.exit_code == 0, first.output
    assert "6 files written" in first.output
    return project.build_dir


def test_no_change_build_renders_nothing(tmp_project):
    build_dir = _two_games(tmp_project)
    manifest = json.loads((build_dir / "manifest.json").read_text())
    before = {game: _stamps(build_dir, game) for game in ("demo", "other")}
    again = run_pnp("build", "demo", "other", "--paper", "a4", project=tmp_project)
    assert again.exit_code == 0, again.output
    assert "0 files written" in again.output and "6 up to date" in again.output
    assert "wrote" not in again.output
    for path in ("demo/cards-a4.pdf", "demo/rules.pdf", "other/rules-booklet-a4.pdf"):
        assert f"skipped {path} (up to date)" in again.output
    assert {game: _stamps(build_dir, game) for game in ("demo", "other")} == before
    assert json.loads((build_dir / "manifest.json").read_text()) == manifest  # skipped entries carried over


def test_changed_game_rebuilds_alone_and_force_rebuilds_all(tmp_project):
    build_dir = _two_games(tmp_project)
    before = {game: _stamps(build_dir, game) for game in ("demo", "other")}
    deck = tmp_project.cards_dir / "demo" / "actions.yaml"
    deck.write_text(deck.read_text().replace("name: Draw Two", "name: Draw Three"))
    changed = run_pnp("build", "demo", "other", "--paper", "a4", project=tmp_project)
    assert changed.exit_code == 0, changed.output
    assert "3 files written" in changed.output and "3 up to date" in changed.output
    assert "wrote demo/cards-a4.pdf" in changed.output and "skipped other/cards-a4.pdf" in changed.output
    after = {game: _stamps(build_dir, game) for game in ("demo", "other")}
    assert after["other"] == before["other"]
    assert all(after["demo"][name] > before["demo"][name] for name in before["demo"])
    manifest = json.loads((build_dir / "manifest.json").read_text())
    assert sorted(o["path"] for o in manifest["outputs"]) == sorted(
        f"{g}/{n}" for g in ("demo", "other") for n in ("cards-a4.pdf", "rules.pdf", "rules-booklet-a4.pdf"))

    forced = run_pnp("build", "demo", "other", "--paper", "a4", "--force", project=tmp_project)
    assert forced.exit_code == 0 and "6 files written" in forced.output and "skipped" not in forced.output


def test_a_deleted_output_or_new_paper_is_rebuilt(tmp_project):
    build_dir = _two_games(tmp_project)
    (build_dir / "other" / "rules.pdf").unlink()
    rebuilt = run_pnp("build", "demo", "other", "--paper", "a4", project=tmp_project)
    assert "wrote other/rules.pdf" in rebuilt.output and "skipped other/cards-a4.pdf" in rebuilt.output
    assert "1 file written" in rebuilt.output
    letter = run_pnp("build", "other", "--paper", "letter", project=tmp_project)
    assert "wrote other/cards-letter.pdf" in letter.output and "skipped other/rules.pdf" in letter.output
    template = tmp_project.templates_dir / "rules" / "demo.md.j2"
    template.write_text(template.read_text() + "\nOne more rule.\n")  # a game's own template: its rules alone
    changed = run_pnp("build", "demo", "other", "--paper", "a4", project=tmp_project)
    assert "wrote demo/rules.pdf" in changed.output and "wrote other/rules.pdf" not in changed.output


def test_text_that_does_not_fit_replaces_no_output(tmp_project):
    # The rules show a picture of the first card, so the rules PDFs would be drawn (wrongly) before the card
    # sheets found the overflow; a failed build must leave every last good file as it was.
    assert run_pnp("new", "demo", project=tmp_project).exit_code == 0
    assert run_pnp("build", "demo", "--paper", "a4", project=tmp_project).exit_code == 0
    build_dir = tmp_project.build_dir / "demo"
    before = {p.name: p.read_bytes() for p in build_dir.iterdir()}
    deck = tmp_project.cards_dir / "demo" / "actions.yaml"
    deck.write_text(
        deck.read_text().replace("then discard 1.", "then discard 1. " + "Far too long. " * 60, 1)
    )
    broken = run_pnp("build", "demo", "--paper", "a4", project=tmp_project)
    assert broken.exit_code == 1
    assert "cards/demo/layouts/actions.yaml:" in broken.output and "(draw-two)" in broken.output
    assert broken.output.count("does not fit") == 1  # one card, reported once for all outputs
    assert "wrote" not in broken.output
    assert {p.name: p.read_bytes() for p in build_dir.iterdir()} == before  # no temporary files left either


def test_a_new_duplex_mode_redraws_only_the_card_sheets(tmp_project):
    build_dir = _two_games(tmp_project)
    before = _stamps(build_dir, "demo")
    again = run_pnp("build", "demo", "--paper", "a4", "--duplex", "short", project=tmp_project)
    assert again.exit_code == 0, again.output
    assert "1 file written" in again.output and "skipped demo/rules.pdf (up to date)" in again.output
    after = _stamps(build_dir, "demo")
    assert after["cards-a4.pdf"] > before["cards-a4.pdf"]
    assert {k: v for k, v in after.items() if k != "cards-a4.pdf"} == {
        k: v for k, v in before.items() if k != "cards-a4.pdf"
    }


def test_sheet_options_are_in_the_card_sheets_fingerprint(tmp_project):
    build_dir = _two_games(tmp_project)
    before = _stamps(build_dir, "demo")
    for flags in (
        ["--gap", "3mm"],
        ["--gap", "3mm", "--marks", "lines"],
        ["--gap", "3mm", "--marks", "lines", "--pack"],
    ):
        changed = run_pnp("build", "demo", "--paper", "a4", *flags, project=tmp_project)
        assert changed.exit_code == 0, changed.output
        assert "wrote demo/cards-a4.pdf" in changed.output and "skipped demo/rules.pdf" in changed.output
    same = run_pnp(
        "build", "demo", "--paper", "a4", "--gap", "3mm", "--marks", "lines", "--pack", project=tmp_project
    )
    assert "0 files written" in same.output
    saver = run_pnp("build", "demo", "--paper", "a4", "--ink", "saver", project=tmp_project)
    assert "wrote demo/cards-a4-inksaver.pdf" in saver.output and "1 file written" in saver.output
    assert _stamps(build_dir, "demo")["rules.pdf"] == before["rules.pdf"]


def test_a_no_change_build_loads_no_game_and_imports_no_drawing_code(tmp_project):
    """What makes a no-change build quick: the hashes and the state are all it reads (no YAML, no
    producers)."""
    import subprocess
    import sys

    assert run_pnp("new", "demo", project=tmp_project).exit_code == 0
    assert run_pnp("build", "demo", "--paper", "a4", project=tmp_project).exit_code == 0
    code = ("import sys\nfrom generator.cli.main import cli\ntry:\n"
            f"    cli(['--project', {str(tmp_project.root)!r}, 'build', 'demo', '--paper', 'a4'])\n"
            "except SystemExit:\n    pass\nprint('MODULES', ' '.join(sorted(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "0 files written" in done.stdout and "3 up to date" in done.stdout
    modules = set(done.stdout.split("MODULES ", 1)[1].split())
    for heavy in (
        "yaml",
        "jinja2",
        "pydantic",
        "reportlab.platypus",
        "reportlab.pdfgen.canvas",
        "generator.data.load",
        "generator.faces.face",
        "generator.booklet.pdf",
        "generator.validator.simulate",
        "generator.studio.app",
    ):
        assert heavy not in modules, heavy


def test_a_games_key_covers_its_own_rules_templates_in_every_language_and_no_other_games(tmp_path):
    from generator.data.project import Project
    from generator.pipeline.incremental import rules_template_owner, shared_digest

    games = ["my.game", "my", "pizza"]  # longest first, as shared_digest orders them
    assert rules_template_owner("my.game.md.j2", games) == "my.game"
    assert rules_template_owner("my.game.de.md.j2", games) == "my.game"
    assert rules_template_owner("my.de.md.j2", games) == "my"
    assert rules_template_owner("pizza.pt-BR.md.j2", games) == "pizza"
    assert rules_template_owner("_making-the-pieces.cs.md.j2", games) is None
    rules = tmp_path / "templates" / "rules"
    rules.mkdir(parents=True)
    for name in games:
        (tmp_path / "cards" / name).mkdir(parents=True)
    project = Project(tmp_path)
    before = {name: shared_digest(project, "tool", name) for name in games}
    (rules / "my.game.de.md.j2").write_text("# Regeln\n")
    after = {name: shared_digest(project, "tool", name) for name in games}
    assert [name for name in games if before[name] != after[name]] == ["my.game"]
    (rules / "_making-the-pieces.de.md.j2").write_text("shared\n")
    assert all(shared_digest(project, "tool", name) != after[name] for name in games)


def test_the_files_a_key_is_made_from_are_those_inside_the_project_in_path_order(tmp_path):
    from generator.pipeline.incremental import files_below

    project, outside = tmp_path / "project", tmp_path / "outside"
    game = project / "cards" / "g"
    (game / "sub").mkdir(parents=True)
    (game / "sub-x").mkdir()
    (outside / "dir").mkdir(parents=True)
    for path in (game / "a.yaml", game / "sub" / "z.yaml", game / "sub-x" / "b.yaml", game / "sub.yaml",
                 game / "notes.yaml~", game / ".#a.yaml", outside / "b.yaml", outside / "dir" / "c.yaml"):
        path.write_text("x", encoding="utf-8")
    (game / "__pycache__").mkdir()
    (game / "__pycache__" / "m.pyc").write_text("x", encoding="utf-8")
    (game / "linked.yaml").symlink_to(outside / "b.yaml")  # leads outside: never read
    (game / "sub" / "inner.yaml").symlink_to(game / "a.yaml")  # a link inside the project is a file of it
    (game / "linked-dir").symlink_to(outside / "dir")  # a linked folder is not entered
    (game / "broken.yaml").symlink_to(tmp_path / "nowhere")
    (project / "cards" / "alias").symlink_to(game)
    # part by part, as paths sort
    listed = ["a.yaml", "sub/inner.yaml", "sub/z.yaml", "sub-x/b.yaml", "sub.yaml"]
    assert [p.relative_to(game).as_posix() for p in files_below(game, project)] == listed
    assert [p.relative_to(game).as_posix() for p in files_below(game)] == listed[:1] + [
        "linked.yaml"
    ] + listed[1:]
    alias = project / "cards" / "alias"
    assert [p.relative_to(alias).as_posix() for p in files_below(alias, project)] == listed
    assert files_below(project / "cards" / "nothing", project) == []


def test_files_no_build_reads_start_no_rebuild(tmp_project):
    """Notes beside the data, a spreadsheet program's lock file, a desktop's folder file: not inputs."""
    build_dir = _two_games(tmp_project)
    before = {game: _stamps(build_dir, game) for game in ("demo", "other")}
    game = tmp_project.cards_dir / "demo"
    for name in ("notes.txt", ".~lock.cards.ods#", "~$cards.xlsx", ".DS_Store"):
        (game / name).write_text("x", encoding="utf-8")
    (tmp_project.templates_dir / "ideas.txt").write_text("x", encoding="utf-8")
    again = run_pnp("build", "demo", "other", "--paper", "a4", project=tmp_project)
    assert again.exit_code == 0, again.output
    assert "0 files written" in again.output and "6 up to date" in again.output
    (game / ".~lock.cards.ods#").unlink()  # the spreadsheet closed
    assert "0 files written" in run_pnp("build", "demo", "other", "--paper", "a4", project=tmp_project).output
    assert {game: _stamps(build_dir, game) for game in ("demo", "other")} == before
    (game / "portrait.png").write_bytes(b"not read yet, but a picture a layout may name")
    assert "0 files written" not in run_pnp("build", "demo", "--paper", "a4", project=tmp_project).output
