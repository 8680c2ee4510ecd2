"""The Qt window of Agent Desk (PySide6 on qasync); the core never imports this package.

Importing the package loads PySide6 and turns off PySide's scan of every later import
(``_skip_feature_scan``).
"""

from __future__ import annotations

import sys
from types import ModuleType

import PySide6  # noqa: F401 - installs PySide's import hook, which is adjusted below


def _plain_pyside_usage(_module: ModuleType) -> bool:
    """Every module counts as using PySide without ``__feature__`` (feature set 0)."""
    return True


def _skip_feature_scan() -> None:
    """Stop PySide reading the source of every module imported after it.

    To find modules that might write ``from __feature__ import snake_case``, PySide's import
    hook calls ``inspect.getsource`` on each newly imported module and searches it for
    "PySide6": about 30 modules before the first paint (~6 ms) and 420 by the time the first
    conversation is ready (~120 ms), each source then kept in ``linecache`` (napari#8584 traced
    the same cost). Agent Desk never selects a feature, so every module gets the answer our own
    modules would get, "uses PySide, no feature": Qt names stay the normal ones everywhere.
    Other PySide versions without this hook are left alone.
    """
    feature = sys.modules.get("shibokensupport.feature")
    if feature is not None and callable(getattr(feature, "_mod_uses_pyside", None)):
        feature._mod_uses_pyside = _plain_pyside_usage  # type: ignore[attr-defined]


_skip_feature_scan()
