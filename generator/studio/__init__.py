"""Layer 12, the studio (`pnp serve`): a live preview of every game in the browser, drawn by the same code as
the PDFs."""
