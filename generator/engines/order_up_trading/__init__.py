"""Rules of "Order Up", the simultaneous recipe trading game (games.md section B): static checks and
engine."""

from generator.engines.order_up_trading.actions import Action
from generator.engines.order_up_trading.checks import normalise_name, static_checks
from generator.engines.order_up_trading.engine import ENGINE
from generator.engines.order_up_trading.options import OPTIONS
from generator.engines.order_up_trading.state import TradingState

__all__ = ["ENGINE", "OPTIONS", "Action", "TradingState", "normalise_name", "static_checks"]
