"""The net of a six-sided die: a cross of six squares with glue tabs, placed by folding it in thought.

Pure geometry in points, y up. The cross is a column of four squares with one square either side of the
second from the top. Faces are placed so that faces two squares apart in the column, and the two arms, are
opposite: with faces listed 1 to 6, opposite faces are 1-6, 2-5 and 3-4 (a standard die adds to 7).

Where the glue tabs go is worked out by rolling a cube over the net (`fold`): each square becomes a face of
the cube and each of its four edges an edge of the cube. The 14 outer edges of the cross pair up into the 7
cube edges that are not folds; each pair gets exactly one tab (trapezoid, 45-degree ends), on the edge where
it overlaps nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.components.nets import Net, Part, Region, convex_overlap, polygon_points, rect_path
from generator.core.units import mm

Vec = tuple[int, int, int]
DIRECTIONS = {"E": (1, 0), "N": (0, 1), "W": (-1, 0), "S": (0, -1)}
# (column, row) of each face in the cross, rows counted upwards; faces 1..6 in order
CROSS = {1: (1, 3), 2: (1, 2), 6: (1, 1), 5: (1, 0), 3: (0, 2), 4: (2, 2)}
TAB_WIDTH = mm(5.5)


@dataclass(frozen=True)
class Orientation:
    """How the cube lies on one square: the body directions facing down (the face on the paper), east and
    north."""

    down: Vec
    east: Vec
    north: Vec

    def toward(self, direction: str) -> Vec:
        """The cube face (body direction) beyond this square's edge in a paper direction."""
        neg = lambda v: (-v[0], -v[1], -v[2])  # noqa: E731
        return {"E": self.east, "N": self.north, "W": neg(self.east), "S": neg(self.north)}[direction]

    def rolled(self, direction: str) -> Orientation:
        """The cube rolled over the edge in `direction` onto the next square."""
        neg = lambda v: (-v[0], -v[1], -v[2])  # noqa: E731
        if direction == "E":
            return Orientation(self.east, neg(self.down), self.north)
        if direction == "W":
            return Orientation(neg(self.east), self.down, self.north)
        if direction == "N":
            return Orientation(self.north, self.east, neg(self.down))
        return Orientation(neg(self.north), self.east, self.down)


def fold(cells: dict[int, tuple[int, int]]) -> dict[int, Orientation]:
    """Roll a cube over the squares of a net (face number -> (col, row)); each square's orientation."""
    by_cell = {cell: face for face, cell in cells.items()}
    first = min(cells)
    result = {first: Orientation((0, 0, -1), (1, 0, 0), (0, 1, 0))}
    todo = [first]
    while todo:
        face = todo.pop()
        col, row = cells[face]
        for direction, (dc, dr) in DIRECTIONS.items():
            other = by_cell.get((col + dc, row + dr))
            if other is not None and other not in result:
                result[other] = result[face].rolled(direction)
                todo.append(other)
    return result


def cube_edges(cells: dict[int, tuple[int, int]]) -> dict[frozenset, list[tuple[int, str]]]:
    """Every edge of the folded cube (the pair of cube faces it joins) -> the outer net edges (face,
    direction) that meet there. A net folds into a cube when every square is a different face and each group
    has two."""
    lying = fold(cells)
    occupied = set(cells.values())
    groups: dict[frozenset, list[tuple[int, str]]] = {}
    for face, (col, row) in sorted(cells.items()):
        for direction, (dc, dr) in DIRECTIONS.items():
            if (col + dc, row + dr) in occupied:
                continue
            key = frozenset((lying[face].down, lying[face].toward(direction)))
            groups.setdefault(key, []).append((face, direction))
    return groups


def _edge_points(
    cells, face: int, direction: str, size: float
) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two ends of a square's edge, counter-clockwise around the square."""
    col, row = cells[face]
    x0, y0, x1, y1 = col * size, row * size, (col + 1) * size, (row + 1) * size
    return {"S": ((x0, y0), (x1, y0)), "E": ((x1, y0), (x1, y1)), "N": ((x1, y1), (x0, y1)),
            "W": ((x0, y1), (x0, y0))}[direction]


def tab_polygon(a, b, width: float) -> list[tuple[float, float]]:
    """A glue tab on edge a->b (counter-clockwise around its square), outward, with 45-degree ends."""
    (ax, ay), (bx, by) = a, b
    length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    ux, uy = (bx - ax) / length, (by - ay) / length
    nx, ny = uy, -ux  # outward for a counter-clockwise square
    return [(ax, ay), (bx, by), (bx + nx * width - ux * width, by + ny * width - uy * width),
            (ax + nx * width + ux * width, ay + ny * width + uy * width)]


@dataclass
class DieNet:
    """The net and which square each face is on; `tabs` lists (face, direction) of the edges with a tab."""

    net: Net
    size: float
    cells: dict[int, tuple[int, int]]
    tabs: list[tuple[int, str]]


def die_net(size: float, tab: float | None = None) -> DieNet:
    """The cross net of a die with edge `size` points, faces 1..6, tabs on one edge of each open cube edge."""
    width = min(tab if tab is not None else TAB_WIDTH, size * 0.35)
    cells = dict(CROSS)
    squares = {face: rect_path(c * size, r * size, size, size) for face, (c, r) in cells.items()}
    placed: list[list[tuple[float, float]]] = [polygon_points(p) for p in squares.values()]
    tabs: list[tuple[int, str]] = []
    tab_parts: list[Part] = []
    for key in sorted(cube_edges(cells), key=lambda k: sorted(cube_edges(cells)[k])):
        pair = sorted(cube_edges(cells)[key])
        for face, direction in pair:  # the first edge of the pair whose tab overlaps nothing
            a, b = _edge_points(cells, face, direction, size)
            polygon = tab_polygon(a, b, width)
            if not any(convex_overlap(polygon, other) for other in placed):
                placed.append(polygon)
                tabs.append((face, direction))
                tab_parts.append(Part(f"tab-{face}{direction}", "tab", tuple(
                    [("M", *polygon[0])] + [("L", *p) for p in polygon[1:]] + [("Z",)])))
                break
        else:
            raise AssertionError(f"no room for a glue tab on cube edge {sorted(key)}")
    parts = [Part(f"face-{face}", "face", squares[face]) for face in sorted(squares)] + tab_parts
    occupied = {cell: face for face, cell in cells.items()}
    folds = []
    for face, (col, row) in sorted(cells.items()):
        for direction in ("E", "N"):  # each shared edge once
            dc, dr = DIRECTIONS[direction]
            if (col + dc, row + dr) in occupied:
                folds.append(_edge_points(cells, face, direction, size))
    folds += [_edge_points(cells, face, direction, size) for face, direction in tabs]
    regions = [
        Region(f"face-{face}", (c + 0.5) * size, (r + 0.5) * size, size, size)
        for face, (c, r) in sorted(cells.items())
    ]
    net = Net(parts, folds, regions=regions)
    x0, y0, _, _ = net.bounds()
    moved = net.moved(-x0, -y0)
    shifted = {face: cells[face] for face in cells}
    return DieNet(moved, size, shifted, tabs)
