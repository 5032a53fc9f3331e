"""Layer 3, the engine API a game's rules are written against (State, Engine, options), the registry of
engines and the helpers engines share; the bundled games' engines, one package each with the same skeleton."""
