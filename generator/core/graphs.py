"""Graph walks shared by the board checks, the engines and the template helpers."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping


def distances(neighbours: Mapping[str, Iterable[str]], start: str) -> dict[str, int]:
    """Road steps from `start` to every reachable space (breadth-first search)."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for nxt in neighbours[here]:
            if nxt not in dist:
                dist[nxt] = dist[here] + 1
                queue.append(nxt)
    return dist
