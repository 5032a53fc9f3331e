"""Card text templates compiled into the cache of compiled templates and read back render as freshly compiled
ones; an edited template is compiled anew and a broken one reports the same syntax error."""

from __future__ import annotations

import pytest

from generator.faces import text
from generator.faces.text import CompiledCardTemplates, TemplateProblem, Templates

SOURCES = ["{% for id, n in card.toppings.items() %}{{ id }} **{{ n }} ×**\n{% endfor %}",
           "{{ card.name | upper }} <{{ card.cost }}>", "{% set s = card.name %}{{ s }}{{ s|length }}"]
CONTEXT = {"card": {"name": "Grandma Rosa", "cost": 3, "toppings": {"ham": 2, "olives": 1}}}


def test_compiled_card_templates_are_kept_and_read_back_with_the_same_results(tmp_path, monkeypatch):
    fresh = [Templates().render(source, CONTEXT) for source in SOURCES]  # no cache: each compiled here
    cache = CompiledCardTemplates(str(tmp_path))
    monkeypatch.setattr(text, "compiled_card_templates", lambda: cache)
    assert [Templates().render(source, CONTEXT) for source in SOURCES] == fresh  # compiled into the cache
    kept = sorted(tmp_path.iterdir())
    assert len(kept) == len(SOURCES)
    with monkeypatch.context() as patch:  # read back from it: nothing is compiled
        patch.setattr(type(Templates().env), "compile", lambda *args, **kwargs: pytest.fail("compiled again"))
        assert [Templates().render(source, CONTEXT) for source in SOURCES] == fresh
    assert sorted(tmp_path.iterdir()) == kept
    # an edited template is compiled anew, never served the code of another
    edited = SOURCES[1].replace("upper", "lower")
    assert Templates().render(edited, CONTEXT) == "grandma rosa <3>"
    assert len(list(tmp_path.iterdir())) == len(SOURCES) + 1
    # a template that does not compile says why, as without the cache
    with pytest.raises(TemplateProblem) as cached:
        Templates().render("{{ card.name ", CONTEXT)
    monkeypatch.setattr(text, "compiled_card_templates", lambda: None)
    with pytest.raises(TemplateProblem) as uncached:
        Templates().render("{{ card.name ", CONTEXT)
    assert str(cached.value) == str(uncached.value) and "template syntax error" in str(cached.value)
