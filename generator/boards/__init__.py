"""Layer 5, boards: plan (pure geometry), tiling (pure), drawing, board checks and the board producer."""
