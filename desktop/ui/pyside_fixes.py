"""Workaround for a reference-count bug in PySide6 6.12.0 on Python 3.11.

Every ``SignalInstance.emit(...)`` called from Python drops one reference to ``True`` that it
never took (measured: 100 emits lower ``sys.getrefcount(True)`` by exactly 100, connected or
not). After a few thousand emits the interpreter frees the ``True`` singleton and aborts with
"Fatal Python error: bool_dealloc" — mid-stream, or at interpreter shutdown as the "none_dealloc"
aborts seen with naive PySide6 6.12 + qasync programs. On Python 3.12+ these singletons are
immortal (PEP 683), so the bug is invisible there. On 3.11 we emulate that immortality once at
startup by adding 2**40 to their reference counts; the singletons are static and never freed, so
nothing else changes. Remove when PySide6 fixes ``emit`` or the app requires Python 3.12.
"""

from __future__ import annotations

import ctypes
import sys

_BOOST = 1 << 40
_applied = False


def make_singletons_immortal() -> None:
    """Raise the reference counts of ``None``, ``True`` and ``False`` far out of reach."""
    global _applied
    if _applied or sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return
    for singleton in (None, True, False):
        refcount = ctypes.c_ssize_t.from_address(id(singleton))
        refcount.value += _BOOST
    _applied = True


make_singletons_immortal()
