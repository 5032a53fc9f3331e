"""Rules engines, one module per game, plus the shared simulation harness (see base.py)."""
