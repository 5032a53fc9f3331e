"""Python's cycle collector during a build: paused while the build imports, loads and plans.

Before a build draws anything it has made some half a million objects that live until it ends (the modules it
imports, pydantic's validators, the loaded games, their compiled templates). Each time they grow by a quarter,
Python's collector walks every one of them, and few of them are ever garbage: that made up some 15 % of a
one-change rebuild. So a build pauses the collector until it starts drawing, then moves what it has made into
Python's permanent generation (never walked again; freed as usual once nothing refers to it) and collects
again while it draws, which makes and drops objects page by page. When the build ends, what it froze is handed
back to the collector (a test run or the studio builds many times in one process).
"""

from __future__ import annotations

import gc


class Paused:
    """The collector paused from now until `resume()`; use it as a context manager around the whole build,
    whose end resumes it if the build stopped early and hands back what `resume` froze."""

    def __init__(self) -> None:
        self.was_enabled = gc.isenabled()
        self.paused = True
        self.froze = False
        gc.disable()

    def resume(self) -> None:
        """Keep every object made so far out of later collections, and collect again (as before the pause)."""
        if not self.paused:
            return
        self.paused = False
        gc.freeze()
        self.froze = True
        if self.was_enabled:
            gc.enable()

    def __enter__(self) -> Paused:
        return self

    def __exit__(self, *exc) -> None:
        if self.paused:
            self.paused = False
            if self.was_enabled:
                gc.enable()
        if self.froze:
            self.froze = False
            gc.unfreeze()
