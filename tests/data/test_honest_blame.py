"""Problems told where they are: an invisible character is a located warning at its line, and a template
error in a translation's words is located in the translation file, not at the layout that draws them."""

from __future__ import annotations

from tests.conftest import run_pnp


def test_invisible_characters_in_a_text_are_a_located_warning(tmp_project):
    assert run_pnp("new", "demo", project=tmp_project).exit_code == 0
    deck = tmp_project.cards_dir / "demo" / "actions.yaml"
    text = deck.read_text(encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), start=1) if "name: Draw Two" in row)
    deck.write_text(text.replace("name: Draw Two", "name: \"\u200bDraw Two\u200e\"", 1), encoding="utf-8")
    result = run_pnp("build", "demo", "--paper", "letter", project=tmp_project)
    assert result.exit_code == 0, result.output
    warnings = [row for row in result.output.splitlines() if row.startswith("warning: ")]
    assert warnings == [
        f"warning: cards/demo/actions.yaml:{line}: a zero-width space (U+200B, column 12), a left-to-right "
        "mark (U+200E, column 21): shows nothing but takes room or moves the text (a centred title sits "
        "off-centre); expected it deleted, or written as a visible character"]


def test_a_template_error_in_a_translation_is_located_in_the_translation_file(tmp_project):
    translation = tmp_project.cards_dir / "order-up-pizza" / "i18n" / "cs.yaml"
    text = translation.read_text(encoding="utf-8")
    words = "    player: \"{{ ref('players', card.player).name }} hráč\""
    assert words in text
    line = next(n for n, row in enumerate(text.splitlines(), start=1) if row == words)
    translation.write_text(text.replace(words, words[:-1] + " {% if %}\"", 1), encoding="utf-8")
    result = run_pnp("build", "order-up-pizza", "--paper", "letter", project=tmp_project)
    assert result.exit_code == 1 and "Traceback" not in result.output
    problem = next(row for row in result.output.splitlines() if "template syntax error" in row)
    assert problem.startswith(f"cards/order-up-pizza/i18n/cs.yaml:{line}: Czech (cs): card OUP-REF-"), problem
    assert "box 'player' (drawn by cards/order-up-pizza/layouts/reference.yaml:" in problem
