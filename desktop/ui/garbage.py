"""Cyclic garbage collection on the GUI thread, paced by the event loop.

The interpreter collects garbage whenever an allocation crosses a threshold, in whichever thread
allocates, and a full collection stops everything for as long as it walks the heap. For a
window, that is a crash risk (a worker finalizing Qt objects) and dropped frames (a full
collection inside a stream). So while a qasync loop is open, automatic collection is off and the
GUI thread collects when its event loop is about to wait (``GuiThreadGC``, ``Pacer``), full
collections at quiet moments only; long-lived objects are frozen out of collections
(``settle_garbage``, ``keep_long_lived``).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

from PySide6.QtCore import QAbstractEventDispatcher

#: A full collection waits until the loop wakes from a sleep at least this long (``Pacer``)...
QUIET_S = 0.2
#: ... or until it has waited this long.
DEFER_MAX_S = 30.0


class GuiThreadGC:
    """Cyclic garbage collection on the GUI thread only, while a qasync loop is open.

    CPython runs an automatic collection in whichever thread happens to allocate past the
    threshold. With worker threads busy (``asyncio.to_thread``: keyring, HTTP clients, name
    look-ups; the history writer), that is sometimes a worker, and a full collection there
    finalizes every Qt wrapper left in a reference cycle: whole closed windows, QTimers,
    qasync's ``_SimpleTimer``. Qt cannot unregister a timer from another thread, so the GUI
    thread later dispatches a timer event to a freed QObject and the process segfaults in
    ``QCoreApplication::notifyInternal2`` (seen in our UI suite inside ``run_forever``; the class
    of crash upstream reports as qasync#153/#154; pyqtgraph's ``GarbageCollector`` works around the
    same thing). So automatic collection is off while a loop is open, and the GUI thread runs the
    generations that are due, with the interpreter's own thresholds, each time its event loop is
    about to wait (the dispatcher's ``aboutToBlock``): after each burst of work, and once per
    loop iteration under continuous work (Qt emits it on every pass), but never while nothing
    happens, so no timer wakes an idle window (it was a 100 ms timer: 600 wake-ups a minute).
    A full collection waits for a quiet moment (``Pacer``).
    Only the GUI thread allocates between two passes in practice; a worker's garbage waits for
    the next wake-up, which its result brings. On the last release the garbage is collected
    here, on the GUI thread, and automatic collection is restored.
    """

    _holders = 0
    _was_enabled = True
    _dispatcher: QAbstractEventDispatcher | None = None
    _pacer: Pacer | None = None

    def __init__(self) -> None:
        self._released = False

    @classmethod
    def hold(cls) -> GuiThreadGC:
        """Start (or join) GUI-thread collection; call ``release()`` on the result once."""
        if cls._holders == 0:
            cls._was_enabled = gc.isenabled()
            gc.disable()
            dispatcher = QAbstractEventDispatcher.instance()
            if dispatcher is not None:
                cls._pacer = Pacer()
                dispatcher.awake.connect(cls._pacer.awake)
                dispatcher.aboutToBlock.connect(cls._pacer.about_to_block)
            cls._dispatcher = dispatcher
        cls._holders += 1
        return cls()

    def release(self) -> None:
        """Stop GUI-thread collection when no loop needs it any more (idempotent)."""
        if self._released:
            return
        self._released = True
        cls = type(self)
        cls._holders -= 1
        if cls._holders > 0:
            return
        if cls._dispatcher is not None and cls._pacer is not None:
            cls._dispatcher.awake.disconnect(cls._pacer.awake)
            cls._dispatcher.aboutToBlock.disconnect(cls._pacer.about_to_block)
        cls._dispatcher = cls._pacer = None
        gc.collect()  # what the loop's lifetime left, finalized here and not in some worker
        if cls._was_enabled:
            gc.enable()


def settle_garbage() -> None:
    """After start-up: collect once, then freeze what survived (``gc.freeze``), so later
    collections no longer walk the modules, classes and widgets that live as long as the app."""
    gc.collect()
    gc.freeze()


def keep_long_lived() -> None:
    """What was made so far lives long (a reopened conversation's entries, as they come): later
    collections skip it (``gc.freeze``), so none walks a 5,000-turn conversation (~90 ms)."""
    gc.freeze()


def due_generation(*, full: bool) -> int | None:
    """The oldest generation whose threshold is exceeded (None: none is), by the interpreter's
    own thresholds; a due full collection (2) is a middle one (1) unless ``full``."""
    threshold0, threshold1, threshold2 = gc.get_threshold()
    count0, count1, count2 = gc.get_count()
    if threshold0 == 0 or count0 <= threshold0:
        return None
    if count1 <= threshold1:
        return 0
    return 2 if count2 > threshold2 and full else 1


class Pacer:
    """Collects the due generations each time the event loop is about to wait, a full
    collection only at a quiet moment.

    A full collection walks every object not frozen: about 16 ms at 30,000 objects, a dropped
    frame if it lands while an answer streams. So it waits until the loop wakes from a sleep of
    at least ``QUIET_S`` (the user paused, nothing is painting), or until it has waited
    ``DEFER_MAX_S`` (memory stays bounded under endless work). Young generations are collected
    when due, as before: they cost well under a millisecond.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._blocked_at = clock()
        self._slept = 0.0
        self._full_due: float | None = None  # when a full collection fell due and waited
        self.full_collections = 0

    def awake(self) -> None:
        """The loop woke up (the dispatcher's ``awake``)."""
        self._slept = self._clock() - self._blocked_at

    def about_to_block(self) -> int:
        """The loop is about to wait (the dispatcher's ``aboutToBlock``): collect what is due;
        returns the objects found."""
        now = self._clock()
        due = due_generation(full=True)
        if due == 2 and self._full_due is None:
            self._full_due = now
        waited = self._full_due is not None and now - self._full_due >= DEFER_MAX_S
        generation = due if due != 2 or self._slept >= QUIET_S or waited else 1
        found = 0
        if generation is not None:
            found = gc.collect(generation)
            if generation == 2:
                self._full_due = None
                self.full_collections += 1
        self._blocked_at = self._clock()
        return found
