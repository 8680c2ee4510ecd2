"""Builds the app's deferred pydantic models while the window is idle, one a turn of the loop.

The core's events, entries and wire messages are pydantic models with ``defer_build``: a model's
validator is built the first time it is used (0.3–1.2 ms each, more for one that nests others),
which kept imports before the first paint short but put the building in the middle of a turn:
a prompt built the prompt, turn and stream models, and the end of the first answer built the
stream-end, turn-end and usage models in one turn of the loop (~4 ms beside the last frames of
the answer). ``schedule`` builds those not built yet shortly after the first conversation view
is made, one a turn of the loop, so no single turn pays for more than one.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

from pydantic import BaseModel
from PySide6.QtCore import QTimer

log = logging.getLogger(__name__)

#: Time after the first conversation view before the first model is built (its first screen
#: and the window's start-up come first).
DELAY_MS = 400
_scheduled = False


def _subclasses(cls: type[BaseModel]) -> Iterator[type[BaseModel]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def unbuilt() -> list[type[BaseModel]]:
    """The app's models whose validator is not built yet (of the modules imported so far)."""
    models = dict.fromkeys(_subclasses(BaseModel))  # a model may subclass two of ours
    return [
        model
        for model in models
        if model.__module__.startswith("desktop.") and not model.__pydantic_complete__
    ]


def schedule() -> None:
    """Build every unbuilt model over the next turns of the loop (once per process)."""
    global _scheduled
    if not _scheduled:
        _scheduled = True
        QTimer.singleShot(DELAY_MS, lambda: _build(unbuilt()))


def _build(pending: list[type[BaseModel]]) -> None:
    """Build the first of ``pending`` (unless its first use built it), the rest later."""
    if not pending:
        return
    model = pending.pop(0)
    if not model.__pydantic_complete__:
        try:
            model.model_rebuild()
        except Exception:  # boundary: a model that cannot be built now is built when first used
            log.exception("Building %s ahead of its first use failed", model.__qualname__)
    QTimer.singleShot(0, lambda: _build(pending))
