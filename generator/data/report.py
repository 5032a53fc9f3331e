"""The check report of a game: what was counted and which checks passed (light: a build with nothing to do
shows the last one again without loading anything)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class CheckReport:
    """What `pnp validate` prints per game: what was counted and which checks passed."""

    game: str
    cards: int
    card_types: int
    decks: int
    checks: list[str] = field(default_factory=list)
