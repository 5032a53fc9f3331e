"""The bundled press profile (generator/assets/profiles/pnp-fogra39.icc, issue 34): a CMYK output profile that
littleCMS loads, the default of the presets that write CMYK, converting within each preset's ink limit, and
relative `cmyk_profile:` paths taken from the preset's folder."""

from __future__ import annotations

import io
import shutil

import pytest
from PIL import Image, ImageCms, ImageDraw, ImageFont
from pypdf import PdfReader

from generator.core.errors import InputError
from generator.core.pdfx import PdfxPage, cmyk_profile, max_ink, pdfx_bytes, to_cmyk
from generator.data.project import ASSETS
from generator.exports import pod

PROFILE = ASSETS / "profiles" / "pnp-fogra39.icc"
SRGB = ImageCms.createProfile("sRGB")


def _plain(rgb: tuple[int, int, int]) -> tuple[int, ...]:
    """The profile's own conversion of one sRGB colour (relative colorimetric, black point compensation)."""
    transform = ImageCms.buildTransform(SRGB, cmyk_profile(PROFILE), "RGB", "CMYK",
                                        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    return ImageCms.applyTransform(Image.new("RGB", (1, 1), rgb), transform).getpixel((0, 0))


def test_the_bundled_profile_is_a_small_cmyk_output_profile_with_its_licence_beside_it():
    header = ImageCms.getOpenProfile(str(PROFILE)).profile
    assert header.device_class == "prtr" and header.xcolor_space.strip() == "CMYK"
    assert header.connection_space.strip() == "Lab" and "FOGRA39" in header.profile_description
    assert "zlib" in header.copyright
    assert PROFILE.stat().st_size < 1_000_000
    notes = (PROFILE.parent / "README.md").read_text()
    assert "zlib" in notes and "FOGRA39L.ti3" in notes and "Permission is granted" in notes


def test_the_profile_converts_within_its_ink_limit():
    red = _plain((255, 0, 0))
    assert red[0] < 10 and red[1] > 200 and red[2] > 200 and red[3] < 10  # magenta and yellow
    black = _plain((0, 0, 0))
    assert black[3] > 220 and sum(black) / 255 * 100 <= 300.5  # a four-colour black, at most 300 %
    assert _plain((255, 255, 255)) == (0, 0, 0, 0)  # paper white: no ink


@pytest.mark.parametrize("shop, limit", [("press", 300), ("drivethrucards", 240)])
def test_the_cmyk_presets_take_the_bundled_profile_and_name_its_condition(shop, limit):
    spec = pod.load_preset(shop).pdfx
    assert spec is not None and spec.profile == PROFILE.resolve() and spec.ink_limit == limit
    assert spec.condition == "FOGRA39" and spec.condition_name == "Coated FOGRA39 (ISO 12647-2:2004)"
    image = Image.new("RGB", (400, 300), (255, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 120, 120), fill=(0, 0, 0))           # a large black area: rich black
    font = ImageFont.truetype(str(ASSETS / "fonts" / "NotoSans-Bold.ttf"), 24)
    draw.text((200, 190), "Black text", fill=(0, 0, 0), font=font)  # black text: black ink alone
    cmyk = to_cmyk(image, spec)
    assert max_ink(cmyk) <= limit + 0.01
    assert cmyk.getpixel((60, 60)) == (153, 102, 102, 255)     # C60 M40 Y40 K100
    text = [cmyk.getpixel((x, y)) for x in range(195, 400) for y in range(185, 230)
            if image.getpixel((x, y)) == (0, 0, 0)]
    assert len(text) > 10 and all(p == (0, 0, 0, 255) for p in text)
    reader = PdfReader(io.BytesIO(pdfx_bytes([PdfxPage(cmyk, 100, 75, 0)], spec, "t")))
    intent = reader.trailer["/Root"]["/OutputIntents"][0].get_object()
    assert intent["/OutputConditionIdentifier"] == "FOGRA39"
    assert intent["/OutputCondition"] == intent["/Info"] == "Coated FOGRA39 (ISO 12647-2:2004)"
    embedded = intent.get("/DestOutputProfile")  # X-4 embeds the profile, X-1a names its condition only
    assert (embedded.get_object().get_data() == PROFILE.read_bytes()) if shop == "press" else embedded is None


PRESET = """name: Test shop
format: pdf
bleed: 0.125in
pdfx: x-4
ink_limit: 280%
output_condition: FOGRA39
cmyk_profile: {profile}
"""


def test_a_relative_profile_path_is_taken_from_the_preset_s_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(pod, "PRESET_DIR", tmp_path / "presets")
    (tmp_path / "presets").mkdir()
    shutil.copy(PROFILE, tmp_path / "shop.icc")
    (tmp_path / "presets" / "testshop.yaml").write_text(PRESET.format(profile="../shop.icc"))
    spec = pod.load_preset("testshop").pdfx
    assert spec is not None and spec.profile == (tmp_path / "shop.icc").resolve()
    assert spec.condition_name == ""  # the identifier alone names the condition
    (tmp_path / "presets" / "testshop.yaml").write_text(PRESET.format(profile="missing.icc"))
    with pytest.raises(InputError) as info:
        pod.load_preset("testshop")
    line = str(info.value)
    assert "testshop.yaml:7: cmyk_profile: no CMYK profile at " in line
    assert str((tmp_path / "presets" / "missing.icc").resolve()) in line and "Traceback" not in line
