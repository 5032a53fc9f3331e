"""Layer 6, card sheets: imposition, marks and labels (pure geometry), round and hex decks, sheet options, cut
files, the print check and the card-sheet producer."""
