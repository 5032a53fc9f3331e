"""Layer 5, cards: layouts, text fitting, images, icons, one face, sheet imposition (pure geometry), print check, the card-sheet producer."""
