"""Layer 1, no knowledge of games: errors, units, geometry, fonts, colours, atomic writes, YAML with line
marks, the output contract."""
