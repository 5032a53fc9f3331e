"""Markdown to Platypus: block types, headings in the outline and contents, project fonts only."""

from __future__ import annotations

from pypdf import PdfReader
from reportlab.platypus import CondPageBreak, KeepTogether, ListFlowable, PageBreak

from generator.booklet.document import (
    Heading,
    RulesParagraph,
    build_document,
    contents,
    hidden_heading,
    make_styles,
)
from generator.booklet.markdown import Converter, NoteBox

SAMPLE = """# Setting up

Deal **6** cards, *face down*.

1. First
2. Second

- a
- b

| Topping | Cards |
|---|--:|
| Ham | 7 |

```note
Remember the **hand limit**.
```

> A quoted tip.

<!-- pagebreak -->
## Scoring

Most money wins.
"""


def test_blocks_map_to_flowables():
    flows = Converter(width=300).convert(SAMPLE)
    kinds = [type(f) for f in flows if not isinstance(f, CondPageBreak)]
    assert kinds == [
        Heading,
        RulesParagraph,
        ListFlowable,
        ListFlowable,
        KeepTogether,
        NoteBox,
        NoteBox,
        PageBreak,
        Heading,
        RulesParagraph,
    ]
    assert "<b>6</b>" in flows[2].text and "<i>face down</i>" in flows[2].text


def test_document_has_outline_contents_and_only_embedded_fonts(tmp_path):
    styles = make_styles()
    body = Converter(width=300, styles=styles).convert(SAMPLE)
    path = tmp_path / "doc.pdf"
    build_document(
        str(path),
        [hidden_heading("Contents", styles["h1"], "c"), contents(styles), PageBreak(), *body],
        title="T",
        header="T",
        page_size=(396, 612),
    )
    reader = PdfReader(str(path))
    outline = reader.outline
    assert [outline[0].title, outline[1].title, outline[2][0].title] == ["Contents", "Setting up", "Scoring"]
    text = reader.pages[0].extract_text()
    assert "Setting up" in text and "Scoring" in text
    fonts = {f.get_object()["/BaseFont"] for p in reader.pages for f in p["/Resources"]["/Font"].values()}
    assert fonts and all("Lato" in f or "Fredoka" in f for f in fonts), fonts
