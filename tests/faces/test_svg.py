"""References inside SVG icons and pictures: fragments, embedded pictures and files inside the project are
drawn; anything that leads outside the project, is missing or is a picture bomb is a problem naming the SVG's
line."""

from __future__ import annotations

import base64
import io

from PIL import Image

from generator.data.project import Project
from generator.faces.svg import reference_problem
from tests.cli.test_hostile_inputs import png_header

SVG = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="20" '
       'height="20">\n{}\n</svg>')


def _png_bytes(size=(4, 4)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, "red").save(buffer, format="PNG")
    return buffer.getvalue()


def _project(tmp_path) -> tuple[Project, object]:
    project = Project(tmp_path / "p")
    folder = project.root / "cards" / "g" / "art"
    folder.mkdir(parents=True)
    (folder / "dot.png").write_bytes(_png_bytes())
    (tmp_path / "outside.png").write_bytes(_png_bytes())
    return project, folder


def _check(project, folder, body: str, name: str = "x.svg") -> str | None:
    path = folder / name
    path.write_text(SVG.format(body))
    return reference_problem(path, project)


def test_fragments_embedded_and_inside_references_are_fine(tmp_path):
    project, folder = _project(tmp_path)
    data = base64.b64encode(_png_bytes()).decode()
    body = ('<defs><circle id="c" r="3"/></defs><use href="#c"/>'
            f'<image href="data:image/png;base64,{data}" width="4" height="4"/>'
            '<image xlink:href="dot.png" width="4" height="4"/>')
    assert _check(project, folder, body) is None


def test_references_leaving_the_project_are_refused_by_line(tmp_path):
    project, folder = _project(tmp_path)
    for href in ("../../../../outside.png", str(tmp_path / "outside.png")):
        shown = href if len(href) < 80 else href[:60] + "..."  # a long path is shortened
        assert _check(
            project, folder, f'<rect width="1" height="1"/>\n<image href="{href}" width="4" height="4"/>'
        ) == (
            f"line 3 of the SVG refers to '{shown}', which is outside the project folder; expected a file "
            "inside "
            "the project"
        )
    (folder / "link.png").symlink_to(tmp_path / "outside.png")
    assert "outside the project folder" in _check(
        project, folder, '<image href="link.png" width="4" height="4"/>'
    )


def test_a_nested_svg_that_leaves_the_project_is_refused_too(tmp_path):
    project, folder = _project(tmp_path)
    _check(project, folder, '<image href="../../../../outside.png" width="4" height="4"/>', "inner.svg")
    problem = _check(project, folder, '<use href="inner.svg#a"/>')
    assert problem.startswith("line 2 of the SVG refers to 'inner.svg#a': line 2 of the SVG refers to "
                              "'../../../../outside.png', which is outside the project folder")


def test_missing_files_and_picture_bombs_are_refused(tmp_path):
    project, folder = _project(tmp_path)
    assert "'nope.png', which does not exist" in _check(project, folder, '<image href="nope.png"/>')
    bomb = base64.b64encode(png_header(30000, 30000)).decode()
    assert _check(project, folder, f'<image href="data:image/png;base64,{bomb}"/>') == (
        "line 2 of the SVG refers to 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAdTAAAHUwCAIAAA...': "
        "an embedded picture has more than 64,000,000 pixels")
    (folder / "big.png").write_bytes(png_header(9000, 9000))
    assert _check(project, folder, '<image href="big.png"/>') == (
        "line 2 of the SVG refers to 'big.png': the picture is 9000 x 9000 pixels; expected at most "
        "64,000,000"
    )
