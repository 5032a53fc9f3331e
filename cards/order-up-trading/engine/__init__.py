"""Rules of "Order Up", the simultaneous recipe trading game (games.md section B): static checks and
engine."""

from .actions import Action
from .checks import normalise_name, static_checks
from .engine import ENGINE
from .options import OPTIONS
from .state import TradingState

__all__ = ["ENGINE", "OPTIONS", "Action", "TradingState", "normalise_name", "static_checks"]
