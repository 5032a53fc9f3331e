"""Named built-ins of the rules language: functions a game needs that the expression language cannot say itself.

Each is `function(state, *arguments)`, called from an expression as `name(arguments)`. They read the table and
never change it (effects are steps). The list is closed: a rules file names only these.
"""

from __future__ import annotations


def _clamp(state, value, low=None, high=None):
    """`value` kept between `low` and `high` (either may be none)."""
    if low is not None and value < low:
        return low
    if high is not None and value > high:
        return high
    return value


BUILT_INS = {
    "clamp": _clamp,
}
