"""One time budget per turn of the event loop, shared by all the work that can wait a turn.

Work the window does a step at a time (building the transcript rows near the viewport, putting
an answer's rendered blocks into its documents, opening a stored conversation) runs from
zero-delay timers. Qt fires every due timer in one turn of the loop, and input waits for the
turn to end, so two jobs that each kept their own slice of 4 ms made turns of 15-25 ms with
what Qt does around them (polish, layout): the window did not answer a key for that long
(issue 19: never more than 16 ms). They share one budget instead, counted from the start of the
turn (the event dispatcher's ``aboutToBlock``, which Qt's GLib dispatcher emits before every
turn, blocking or not): a job starts a step only while the turn has budget left, and goes on
with more steps only while it still has.

A job that found the budget spent (or too little of it left for its next step) waits for the
next turn, once: it then takes at least one step whatever the turn has spent, so none of them
starves while another has a long queue (``TurnShare``). A step known to come in the next turn
and to cost much (showing a pane: its first polish, layout and paint) claims its share of that
turn beforehand (``claim_next``), so the jobs leave it room. A job that waits is started
again when the turn ends (``at_turn_end``), not at once: what fell due while the turn ran (a key
pressed, a timer) comes before it in the next turn. Without an event dispatcher (no application
yet) every turn has budget.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QAbstractEventDispatcher, QCoreApplication, QObject, QTimer
from shiboken6 import isValid

#: What the jobs together may spend of one turn of the loop before they wait for the next (Qt's
#: own layout and painting in that turn, and one step over the budget, fit in a 16 ms frame).
TURN_BUDGET_S = 0.006

_started: float | None = None  # when this turn of the loop began; None: not hooked yet
_dispatcher: QAbstractEventDispatcher | None = None
_claimed = 0.0  # of this turn, by a step announced in the turn before (``claim_next``)
_claimed_next = 0.0
_waiting: list[QTimer] = []  # started when this turn ends (``at_turn_end``)


def _turn_began() -> None:
    global _started, _claimed, _claimed_next
    _started = time.perf_counter()
    _claimed, _claimed_next = _claimed_next, 0.0
    waiting = _waiting[:]
    _waiting.clear()
    for timer in waiting:
        if isValid(timer) and not timer.isActive():  # its owner may be gone since
            timer.start(0)


def waiting(timer: QTimer) -> bool:
    """Whether ``timer`` waits for this turn to end (``at_turn_end``)."""
    return timer in _waiting


def due(timer: QTimer) -> bool:
    """Whether ``timer`` will fire: it runs, or it waits for this turn to end."""
    return timer.isActive() or waiting(timer)


def at_turn_end(timer: QTimer) -> None:
    """Start ``timer`` (at zero delay) once this turn of the loop ends (at once without an event
    dispatcher): what fell due during the turn comes first."""
    if _hooked() is None:
        timer.start(0)
    elif timer not in _waiting:
        _waiting.append(timer)


def claim_next(seconds: float) -> None:
    """A step of ``seconds`` will run in the next turn of the loop: count it as spent there."""
    global _claimed_next
    _hooked()  # so that the next turn takes the claim over
    _claimed_next += seconds


def _hooked() -> QAbstractEventDispatcher | None:
    """The event dispatcher, its turns followed from the first call (None: no application)."""
    global _dispatcher, _started
    dispatcher = QAbstractEventDispatcher.instance() if QCoreApplication.instance() else None
    if dispatcher is not None and dispatcher is not _dispatcher:  # first, or a new application
        _dispatcher = dispatcher
        dispatcher.aboutToBlock.connect(_turn_began)
        _started = time.perf_counter()
    return dispatcher


def spent() -> float:
    """Seconds this turn of the event loop has run so far (0 without an event dispatcher)."""
    if _hooked() is None:
        return 0.0
    return time.perf_counter() - (_started or 0.0) + _claimed


class TurnShare:
    """One job's use of the turn budget (see the module docstring)."""

    def __init__(self) -> None:
        self._waited = False

    def may_start(self, cost: float = 0.0) -> bool:
        """Whether the job may take a first step, expected to cost ``cost`` seconds, now; False:
        ask again at the next turn (where the answer is yes)."""
        if self._waited or spent() + cost < TURN_BUDGET_S:
            self._waited = False
            return True
        self._waited = True
        return False

    def run(self, work: Callable[[], None], cost: float, timer: QTimer) -> None:
        """Do ``work`` (a first step of ``cost`` seconds) now if the turn allows it, else start
        ``timer``, whose timeout does this again, when the turn ends (``at_turn_end``)."""
        if self.may_start(cost):
            work()
        else:
            at_turn_end(timer)

    @staticmethod
    def may_go_on(cost: float = 0.0) -> bool:
        """Whether the job may take another step, expected to cost ``cost`` seconds."""
        return spent() + cost < TURN_BUDGET_S


class NextTurn:
    """``work`` done once in a later turn of the loop, the first with budget for ``cost``
    seconds (``TurnShare``); asked again before it was done, it is done once.

    For what an event brings that can wait a turn: the turn that delivered the event had its
    share of work already (the end of a reply: its last text, the transcript, the history)."""

    def __init__(self, parent: QObject, work: Callable[[], None], cost: float) -> None:
        self._work, self._cost = work, cost
        self._share = TurnShare()
        self._timer = QTimer(parent)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._go)

    def ask(self) -> None:
        """Do the work in a later turn (not this one)."""
        if not due(self._timer):
            at_turn_end(self._timer)

    def _go(self) -> None:
        self._share.run(self._work, self._cost, self._timer)
