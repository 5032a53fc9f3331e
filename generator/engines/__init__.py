"""Layer 3, the rules engines (one package per game, same skeleton), their registry and the validator that plays them."""
