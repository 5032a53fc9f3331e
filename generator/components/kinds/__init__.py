"""Component kinds: one module per kind, each with the functions of `base.ComponentKind`, listed in `KINDS`.

A new kind is its model (generator.data.component_models.MODELS), one module here and its words (the i18n
catalogues). Asking for a kind that is not listed is an error, never a default.
"""

from __future__ import annotations

from types import ModuleType

from generator.components.kinds import die, sheet, standee, token, tuckbox
from generator.components.kinds.base import missing_functions
from generator.data.components import Component

KINDS: dict[str, ModuleType] = {
    "token": token, "standee": standee, "die": die, "tuckbox": tuckbox, "sheet": sheet}
"""The module of each component kind."""


class UnknownKind(LookupError):
    """A component kind no module is listed for."""


def kind_module(kind: str) -> ModuleType:
    """The module of component kind `kind`; UnknownKind when none is listed."""
    module = KINDS.get(kind)
    if module is None:
        raise UnknownKind(f"component kind '{kind}' has no module in generator.components.kinds.KINDS; "
                          f"known: {', '.join(KINDS)}")
    return module


def kind_of(component: Component) -> ModuleType:
    """The module of a component's kind."""
    return kind_module(component.kind)


for _name, _module in KINDS.items():
    if missing_functions(_module):
        raise TypeError(f"component kind module '{_name}' lacks {', '.join(missing_functions(_module))}")
