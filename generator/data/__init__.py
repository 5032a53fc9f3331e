"""Layer 2, the game as data: project paths and resources, file models, YAML to a typed Game, reference
checks, expand, schema, scaffold, templates' view of a game."""
