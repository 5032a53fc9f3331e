"""Layer 7, components that are not cards: tokens, standees, dice, tuck boxes and table sheets, on printable
sheets."""
