"""Pictures at the floor's pace (issue 38): a JPEG is embedded as its own bytes (DCTDecode, no ASCII85) once
per PDF whatever the copies, a PNG as Flate with a soft mask only when it is transparent, a picture finer than
game.yaml `max_image_dpi` at its printed size is downsampled to it, and what was decoded is kept in the build
folder: a second build decodes nothing, and the PDF is byte-identical with and without the cache and with one
or two jobs. Each PDF is read back with pypdf and rendered with pypdfium2."""

from __future__ import annotations

import math
import shutil
import textwrap
import zlib
from pathlib import Path

import pypdfium2
import pytest
from PIL import Image

from generator.data.load import load_game
from generator.data.project import Project
from generator.faces import embedding
from generator.faces.face import render_card_pdf
from tests.conftest import run_pnp
from tests.pdf_images import page_images

GAME = "title: Pictures\ncode: PIC\nplayers: {min: 2, max: 4}\ncard_size: poker\ndecks: [things]\n"
DECK = """\
deck: things
name: Things
code: THG
fields:
  pic: {type: text}
cards:
  - {id: jpeg, name: Jpeg, copies: 5, pic: red.jpg}
  - {id: again, name: Again, copies: 4, pic: red.jpg}
  - {id: plain, name: Plain, copies: 3, pic: blue.png}
  - {id: clear, name: Clear, copies: 2, pic: clear.png}
  - {id: opaque, name: Opaque, copies: 1, pic: opaque.png}
  - {id: cmyk, name: Cmyk, copies: 1, pic: cmyk.jpg}
  - {id: scan, name: Scan, copies: 2, pic: scan.jpg}
  - {id: poster, name: Poster, copies: 1, pic: poster.png}
"""
# the art box: 40 x 50 mm, whole picture shown (contain), centred
FRONT = """\
boxes:
  paper: {shape: rect, fill: "#ffffff"}
  art: {x: 11.5mm, y: 19mm, width: 40mm, height: 50mm, image: "images/{{ card.pic }}"}
"""
BACK = "boxes:\n  back: {shape: rect, fill: \"#444444\"}\n"
RED, BLUE = (214, 40, 40), (58, 134, 255)
BOX_MM = (40.0, 50.0)


def _pictures(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (400, 500), RED).save(folder / "red.jpg", quality=95)
    Image.new("RGB", (400, 500), BLUE).save(folder / "blue.png")
    clear = Image.new("RGBA", (400, 500), (*RED, 255))
    clear.paste((0, 0, 0, 0), (0, 0, 200, 500))  # the left half transparent
    clear.save(folder / "clear.png")
    Image.new("RGBA", (400, 500), (*BLUE, 255)).save(folder / "opaque.png")  # an alpha channel, all opaque
    Image.new("CMYK", (400, 500), (0, 200, 200, 0)).save(folder / "cmyk.jpg", quality=95)
    Image.linear_gradient("L").resize((4000, 5000)).convert("RGB").save(folder / "scan.jpg", quality=80)
    poster = Image.radial_gradient("L").resize((3000, 3750)).convert("RGBA")
    poster.save(folder / "poster.png", compress_level=1)


def _game(root: Path, game: str = GAME) -> Path:
    folder = root / "cards" / "pictures"
    for name, text in {"game.yaml": game, "things.yaml": DECK, "layouts/things.yaml": FRONT,
                       "layouts/things-back.yaml": BACK}.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    _pictures(folder / "images")
    return folder


def _build(root: Path, *options: str) -> Path:
    result = run_pnp("build", "pictures", "--paper", "a4", "--force", *options, project=root)
    assert result.exit_code == 0, result.output
    return root / "build" / "pictures" / "cards-a4.pdf"


def _images(pdf: Path) -> dict[int, dict]:
    """Every image XObject of the PDF (in pages and the forms they place), by object number."""
    return {key: xobject for _, _, key, xobject in page_images(pdf)}


def _filters(image) -> list[str]:
    value = image.get("/Filter")
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """The game built once (picture cache filled): (project root, its cards-a4.pdf)."""
    root = tmp_path_factory.mktemp("pictures")
    _game(root)
    embedding.forget()
    return root, _build(root)


def test_each_picture_is_one_xobject_whatever_its_copies_and_no_ascii85(built):
    _, pdf = built
    images = _images(pdf)
    masks = {i.raw_get("/SMask").idnum for i in images.values() if "/SMask" in i}
    pictures = [i for n, i in images.items() if n not in masks]
    # red.jpg (9 copies on two cards), blue.png, clear.png, opaque.png, cmyk.jpg, scan.jpg, poster.png
    assert len(pictures) == 7, [(_filters(i), i["/Width"]) for i in pictures]
    for image in images.values():
        assert "/ASCII85Decode" not in _filters(image)
    jpegs = [i for i in pictures if _filters(i) == ["/DCTDecode"]]
    assert len(jpegs) == 3  # red, cmyk, the downsampled scan: JPEGs stay JPEGs
    red = next(i for i in jpegs if (i["/Width"], i["/Height"]) == (400, 500)
               and i["/ColorSpace"] == "/DeviceRGB")
    assert red.get_data() == (built[0] / "cards/pictures/images/red.jpg").read_bytes()  # the file's own bytes


def test_both_papers_each_hold_every_picture_once_and_a4_is_the_same_as_alone(built, tmp_path):
    """The faces are drawn once for both papers: each paper's file still holds its own copy of each picture
    (with its soft mask) and the A4 file is the bytes of an A4-only build."""
    import shutil

    root = tmp_path / "both"
    shutil.copytree(built[0] / "cards", root / "cards")
    result = run_pnp("build", "pictures", "--paper", "both", "--force", project=root)
    assert result.exit_code == 0, result.output
    folder = root / "build" / "pictures"
    summaries = []
    for name in ("cards-a4.pdf", "cards-letter.pdf"):
        images = _images(folder / name)
        summaries.append(sorted((_filters(i), i["/Width"], i["/Height"], "/SMask" in i, len(i.get_data()))
                                for i in images.values()))
    assert summaries[0] == summaries[1] and len(summaries[0]) == 7  # 7 pictures, clear.png with its mask
    assert sum(masked for _, _, _, masked, _ in summaries[0]) == 1
    assert (folder / "cards-a4.pdf").read_bytes() == built[1].read_bytes()


def test_a_png_has_a_soft_mask_only_when_it_is_transparent(built):
    _, pdf = built
    images = _images(pdf)
    masks = {i.raw_get("/SMask").idnum for i in images.values() if "/SMask" in i}
    flate = [i for n, i in images.items() if n not in masks and _filters(i) == ["/FlateDecode"]]
    assert len(flate) == 4  # blue.png, clear.png, opaque.png, the downsampled poster.png
    with_mask = [i for i in flate if "/SMask" in i]
    assert [(i["/Width"], i["/Height"]) for i in with_mask] == [(400, 500)]  # clear.png only
    assert with_mask[0]["/SMask"].get_object()["/ColorSpace"] == "/DeviceGray"


def test_pictures_finer_than_the_ceiling_are_downsampled_to_it(built):
    _, pdf = built
    sizes = {(int(i["/Width"]), int(i["/Height"])) for i in _images(pdf).values()}
    # contain in 40 x 50 mm: the 4:5 pictures fill it; at most 600 dpi (the default) at that size
    wanted = (math.ceil(BOX_MM[0] / 25.4 * 600), math.ceil(BOX_MM[1] / 25.4 * 600))
    assert (4000, 5000) not in sizes and (3000, 3750) not in sizes
    assert wanted in sizes  # scan.jpg and poster.png, both 4:5
    assert all(w <= 4000 for w, _ in sizes)


def test_the_ceiling_is_the_games_and_a_bad_value_is_a_located_error(tmp_path):
    _game(tmp_path, GAME + "max_image_dpi: 350\n")
    embedding.forget()
    sizes = {(int(i["/Width"]), int(i["/Height"])) for i in _images(_build(tmp_path)).values()}
    assert (math.ceil(BOX_MM[0] / 25.4 * 350), math.ceil(BOX_MM[1] / 25.4 * 350)) in sizes
    (tmp_path / "cards/pictures/game.yaml").write_text(GAME + "max_image_dpi: 150\n")
    result = run_pnp("build", "pictures", "--paper", "a4", project=tmp_path)
    assert result.exit_code != 0
    assert "cards/pictures/game.yaml:6" in result.output and "max_image_dpi" in result.output
    assert "150 dpi is out of range; expected 300 to 2400 dots per inch" in result.output


def test_the_pictures_print_as_they_look(built, tmp_path):
    _, pdf = built
    colours = set()
    for page in pypdfium2.PdfDocument(str(pdf)):
        shown = page.render(scale=1).to_pil().convert("RGB")
        colours |= {shown.getpixel((x, y)) for x in range(0, shown.width, 5)
                    for y in range(0, shown.height, 5)}

    def near(found, wanted, tolerance=14):
        return all(abs(a - b) <= tolerance for a, b in zip(found, wanted, strict=True))

    assert any(near(c, RED) for c in colours)  # red.jpg and clear.png
    assert any(near(c, BLUE) for c in colours)  # blue.png as its own rows (the PNG predictor), opaque.png
    cmyk = Image.new("CMYK", (1, 1), (0, 200, 200, 0)).convert("RGB").getpixel((0, 0))
    # a CMYK JPEG as its colour (pdfium converts CMYK less naively than Pillow), not inverted (near black)
    assert any(near(c, cmyk, 45) for c in colours), cmyk
    game = load_game(Project(built[0]), "pictures")
    card = render_card_pdf(game, game.decks["things"].cards[3], tmp_path / "clear.pdf")  # clear.png
    shown = pypdfium2.PdfDocument(str(card))[0].render(scale=72 / 72).to_pil().convert("RGB")
    b = game.bleed_pt

    def at(x_mm: float, y_mm: float) -> tuple[int, int]:
        return round(b + x_mm * 72 / 25.4), round(b + y_mm * 72 / 25.4)

    assert near(shown.getpixel(at(21.5, 44)), (255, 255, 255))  # its transparent half shows the white paper
    assert near(shown.getpixel(at(41.5, 44)), RED)


def test_a_second_build_decodes_nothing_and_the_bytes_do_not_depend_on_the_cache_or_jobs(built):
    root, pdf = built
    first = pdf.read_bytes()
    cache = root / "build" / ".cache" / "pictures"
    # the decoded ones: clear.png (with its mask), opaque.png, scan.jpg, poster.png
    assert len(list(cache.glob("*.pic"))) == 4
    embedding.forget()
    before = embedding.decodes[0]
    again = _build(root, "--jobs", "1").read_bytes()
    assert embedding.decodes[0] == before  # every decoded picture read back from the build folder
    assert again == first
    shutil.rmtree(cache)
    embedding.forget()
    assert _build(root, "--jobs", "1").read_bytes() == first  # decoded again, the same bytes
    assert embedding.decodes[0] == before + 4
    assert _build(root, "--jobs", "2").read_bytes() == first


def test_a_damaged_cache_entry_is_decoded_again(built):
    root, pdf = built
    first = pdf.read_bytes()
    for entry in (root / "build" / ".cache" / "pictures").glob("*.pic"):
        entry.write_bytes(entry.read_bytes()[:-10])
    embedding.forget()
    assert _build(root, "--jobs", "1").read_bytes() == first


@pytest.mark.parametrize("name", ["scan.jpg", "red.jpg", "blue.png"])  # a big and a small JPEG, a PNG
def test_a_truncated_picture_is_a_located_problem_without_decoding_it(tmp_path, name):
    folder = _game(tmp_path)
    data = (folder / "images" / name).read_bytes()
    (folder / "images" / name).write_bytes(data[: len(data) * 2 // 3])
    result = run_pnp("build", "pictures", "--paper", "a4", project=tmp_path)
    assert result.exit_code != 0
    assert f"image '{name}' cannot be read as a picture (the file is truncated)" in result.output
    assert "cards/pictures/layouts/things.yaml:3" in result.output


def test_reportlab_uses_its_c_accelerator():
    from reportlab.lib import rl_accel

    # rl_accel (a dependency) gives ReportLab its C number formatting, text widths and ASCII85
    assert rl_accel.fp_str.__module__ == "_rl_accel"
    assert rl_accel.asciiBase85Encode.__module__ == "_rl_accel"


def test_a_16_bit_grey_png_keeps_its_tones(tmp_path):
    path = tmp_path / "grey16.png"
    Image.new("I;16", (40, 50), 40000).save(path)  # 61 % grey in 16 bits
    image = embedding.encoded(path, embedding.Recipe((40.0, 50.0), fade=0.5))
    assert image.colour_space == "DeviceGray" and image.mask is None
    rows = zlib.decompress(image.data)  # PNG rows: a filter byte, then the pixels
    # faded half way to white (Pillow rounds the half down), not clipped to white before
    assert abs(rows[1] - (40000 / 256 + (255 - 40000 / 256) * 0.5)) <= 1


def _jpegs(folder: Path) -> dict[str, Path]:
    """JPEGs as designers' tools write them: grey, RGB (subsampled or not), CMYK (Adobe), progressive and
    optimised, with an ICC profile, with Exif, with a comment, without JFIF; and one with a bad table."""
    folder.mkdir(parents=True, exist_ok=True)
    art = Image.linear_gradient("L").resize((300, 420)).convert("RGB")
    made = {"grey": (art.convert("L"), {}), "rgb": (art, {"quality": 90}),
            "full-colour": (art, {"subsampling": 0}), "cmyk": (art.convert("CMYK"), {}),
            "progressive": (art, {"progressive": True, "optimize": True}),
            "icc": (art, {"icc_profile": b"\0" * 70_000}),  # spread over two segments
            "exif": (art, {"exif": Image.Exif()}), "comment": (art, {"comment": b"made by hand"})}
    paths = {}
    for name, (picture, options) in made.items():
        paths[name] = folder / f"{name}.jpg"
        picture.save(paths[name], "JPEG", **options)
    data = paths["rgb"].read_bytes()
    app0 = data.index(b"\xff\xe0")  # JFIF left out: the frame is still found
    paths["no-jfif"] = folder / "no-jfif.jpg"
    after = app0 + 2 + int.from_bytes(data[app0 + 2:app0 + 4], "big")
    paths["no-jfif"].write_bytes(data[:app0] + data[after:])
    dqt = data.index(b"\xff\xdb")  # a quantization table one byte short: Pillow refuses it, so Pillow says so
    paths["bad-table"] = folder / "bad-table.jpg"
    short = data[:dqt + 3] + bytes([data[dqt + 3] - 1]) + data[dqt + 4:dqt + 68] + data[dqt + 69:]
    paths["bad-table"].write_bytes(short)
    return paths


def test_a_jpeg_header_says_what_pillow_says_or_leaves_it_to_pillow(tmp_path):
    import io

    from generator.faces.image import ImageProblem, pixel_size

    paths = _jpegs(tmp_path)
    read = {name: embedding.jpeg_header(io.BytesIO(path.read_bytes())) for name, path in paths.items()}
    # what only Pillow reads is left to it
    assert read["exif"] is None and read["bad-table"] is None
    for name, found in read.items():
        if found is None:
            continue
        with Image.open(paths[name]) as image:
            assert found == (image.mode, image.size), name
        assert pixel_size(paths[name]) == image.size
    assert {name for name, found in read.items() if found} == {
        "grey", "rgb", "full-colour", "cmyk", "progressive", "icc", "no-jfif", "comment"}
    with pytest.raises(ImageProblem, match="cannot be read as a picture"):
        pixel_size(paths["bad-table"])
    png = tmp_path / "blue.png"  # not a JPEG, whatever its name
    Image.new("RGB", (10, 20), BLUE).save(png, "PNG")
    assert embedding.jpeg_header(io.BytesIO(png.read_bytes())) is None
    named = tmp_path / "png-named.jpg"
    named.write_bytes(png.read_bytes())
    assert pixel_size(named) == (10, 20)
    # a header cut short anywhere before its first scan is Pillow's to judge
    data = paths["rgb"].read_bytes()
    scan = data.index(b"\xff\xda")
    assert all(embedding.jpeg_header(io.BytesIO(data[:cut])) is None for cut in range(scan + 2))
    assert embedding.jpeg_header(io.BytesIO(data[:scan + 2])) == ("RGB", (300, 420))


def test_a_big_jpeg_with_bytes_after_its_end_marker_is_whole_and_one_cut_in_its_scan_is_not(tmp_path):
    import random

    from generator.faces.image import ImageProblem, pixel_size

    noise = Image.frombytes("RGB", (700, 700), random.Random(3).randbytes(700 * 700 * 3))
    data = _jpeg_bytes(noise)
    assert len(data) > 4 * 65_536  # read by its end only
    trailing = tmp_path / "trailing.jpg"  # 10 kB after the end marker (a tool's own trailer), no marker in it
    trailing.write_bytes(data + b"\x00" * 10_000)
    assert pixel_size(trailing) == (700, 700)
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(data[:-5_000])
    with pytest.raises(ImageProblem, match="the file is truncated"):
        pixel_size(cut)


def _jpeg_bytes(picture: Image.Image) -> bytes:
    """The picture as a JPEG's bytes."""
    import io

    out = io.BytesIO()
    picture.save(out, "JPEG", quality=90)
    return out.getvalue()
