"""Layer 4, rules as data: a card game described in YAML (cards/<game>/rules.yaml), played as an engine.

The language (docs/rules-language.md) describes sequential, turn-based card games: zones, setup steps, the
turn, actions with conditions and effects from a closed vocabulary, end conditions, scores and bots.
`language` reads and checks a rules file, `expressions` compiles its expressions once into functions,
`runtime` and `steps` play it, and `engine` makes it a generator.engines.base.Engine (game.yaml
`engine: {rules: rules.yaml}`).
"""

from generator.rules.engine import engine_for_rules, engine_from_text

__all__ = ["engine_for_rules", "engine_from_text"]
