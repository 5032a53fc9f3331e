"""The designer's documentation stays true: every layout box key and every template helper and filter is
documented, the layout pictures of docs/layouts.md are checked in, small, and drawn from examples that still
load and draw with the card renderer."""

from __future__ import annotations

import importlib.util
import re

from jinja2.sandbox import SandboxedEnvironment
from PIL import Image

from generator.data.models import CheckSpec
from generator.data.templating import GameHelpers, environment
from generator.faces.layout import BoxSpec, LayoutFile
from tests.conftest import REPO

DOCS = REPO / "docs"


def _module(name: str):
    spec = importlib.util.spec_from_file_location(name, DOCS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_box_key_is_in_the_table_of_docs_layouts_with_a_default():
    text = (DOCS / "layouts.md").read_text()
    rows = dict(re.findall(r"^\| `(\w+)` \| ([^|]+) \|", text, re.M))
    for key in list(BoxSpec.model_fields) + list(LayoutFile.model_fields):
        assert key in rows and rows[key].strip(), f"layouts.md has no row for `{key}`"


def test_the_pictures_of_docs_layouts_are_checked_in_and_small():
    text = (DOCS / "layouts.md").read_text()
    pictures = re.findall(r"!\[[^]]*\]\((images/layouts/[\w-]+\.png)\)", text)
    examples = _module("layout_pictures").EXAMPLES
    assert sorted(pictures) == sorted(f"images/layouts/{name}.png" for name in examples)
    for picture in pictures:
        path = DOCS / picture
        assert path.stat().st_size < 60_000, picture
        with Image.open(path) as image:
            assert image.height < 400 and image.width < 700


def test_the_layout_examples_load_and_draw(tmp_path):
    pictures = _module("layout_pictures")
    game, shown, images = pictures.render(tmp_path)
    assert len(images) == len(shown) == sum(len(v) for v in pictures.EXAMPLES.values())
    colours = {image.convert("RGB").resize((1, 1)).getpixel((0, 0)) for image in images}
    assert len(colours) > len(images) // 2  # the cards differ: something was drawn on each


def test_every_helper_and_filter_is_in_docs_templates():
    text = (DOCS / "templates.md").read_text()
    env = environment(autoescape=False)
    ours = set(env.filters) - set(SandboxedEnvironment().filters)
    helpers = set(env.globals) - {"range", "dict", "lipsum", "cycler", "joiner", "namespace"}
    helpers |= {"setting", "ref", "street", "distance", "icon", "chip", "figure", "has_icon",
                "in_play", "copies_for"}
    assert set(GameHelpers.functions(GameHelpers.__new__(GameHelpers))) <= helpers
    for name in sorted(ours | helpers):
        assert re.search(rf"\b{name}\b", text), f"templates.md does not mention `{name}`"
    for name, info in CheckSpec.model_fields.items():
        assert f"`{info.alias or name}`" in text, (
            f"templates.md does not describe the check key `{info.alias or name}`"
        )
