"""The turn budget (``desktop.ui.turn_budget``): jobs share one budget per turn of the loop.

Through the real Qt event dispatcher: a job that finds the turn's budget spent waits for the
next turn, once; the next turn starts with the budget whole again (the dispatcher's
``aboutToBlock`` began it).
"""

from __future__ import annotations

from PySide6.QtCore import QTimer
from pytestqt.qtbot import QtBot

from desktop.ui import turn_budget
from desktop.ui.turn_budget import TURN_BUDGET_S, TurnShare


def test_a_job_waits_one_turn_when_the_budget_is_spent(qtbot: QtBot) -> None:
    share = TurnShare()
    seen: list[tuple[str, bool, float]] = []

    def first_turn() -> None:
        turn_budget.spent()  # hooked to the dispatcher (the first use)
        QTimer.singleShot(0, second_turn)
        while turn_budget.spent() < TURN_BUDGET_S:  # another job used the turn up
            pass
        seen.append(("spent", share.may_start(), turn_budget.spent()))
        seen.append(("asked again", share.may_start(), turn_budget.spent()))
        seen.append(("go on", share.may_go_on(), turn_budget.spent()))

    def second_turn() -> None:
        seen.append(("next turn", share.may_start(), turn_budget.spent()))
        seen.append(("go on", share.may_go_on(), turn_budget.spent()))
        seen.append(("too dear", share.may_go_on(1.0), turn_budget.spent()))

    QTimer.singleShot(0, first_turn)
    qtbot.waitUntil(lambda: len(seen) == 6, timeout=15_000)
    # Spent: not now; asked again in the same turn it goes (it waited once: never starved).
    assert [(what, answer) for what, answer, _ in seen[:3]] == [
        ("spent", False),
        ("asked again", True),
        ("go on", False),
    ]
    next_turn = seen[3]
    assert next_turn[:2] == ("next turn", True)
    assert next_turn[2] < seen[2][2]  # counted from the new turn's start
    assert seen[5][:2] == ("too dear", False)


def test_a_claimed_turn_leaves_the_jobs_no_room_and_the_claim_lasts_one_turn(qtbot: QtBot) -> None:
    claim = 60.0  # far more than any turn of a loaded test machine runs on its own
    share = TurnShare()
    seen: list[tuple[str, object]] = []

    def claiming_turn() -> None:
        before = turn_budget.spent()
        turn_budget.claim_next(claim)  # a pane is shown in the next turn
        seen.append(("not counted in this turn", turn_budget.spent() - before < claim))
        QTimer.singleShot(0, claimed_turn)

    def claimed_turn() -> None:
        seen.append(("counted in the claimed turn", turn_budget.spent() >= claim))
        seen.append(("claimed", share.may_start()))
        seen.append(("asked again", share.may_start()))  # it waited once: it goes
        QTimer.singleShot(0, turn_after)

    def turn_after() -> None:
        seen.append(("gone the turn after", turn_budget.spent() < claim))
        seen.append(("a step dearer than the budget", share.may_start(claim)))

    QTimer.singleShot(0, claiming_turn)
    qtbot.waitUntil(lambda: len(seen) == 6, timeout=15_000)
    assert seen == [
        ("not counted in this turn", True),
        ("counted in the claimed turn", True),
        ("claimed", False),
        ("asked again", True),
        ("gone the turn after", True),
        ("a step dearer than the budget", False),
    ]


def test_a_waiting_job_starts_after_what_fell_due_during_the_turn(qtbot: QtBot) -> None:
    order: list[str] = []
    job = QTimer()
    job.setSingleShot(True)
    job.timeout.connect(lambda: order.append("the waiting job"))

    def heavy_turn() -> None:
        turn_budget.spent()
        turn_budget.at_turn_end(job)  # the job found the turn spent
        assert not job.isActive() and turn_budget.waiting(job)  # not before the turn ends
        QTimer.singleShot(0, lambda: order.append("due during the turn"))
        began = turn_budget.spent()
        while turn_budget.spent() - began < 0.005:  # the turn goes on for 5 ms
            pass

    QTimer.singleShot(0, heavy_turn)
    qtbot.waitUntil(lambda: len(order) == 2, timeout=15_000)
    assert order == ["due during the turn", "the waiting job"]
    assert not turn_budget.waiting(job)


def test_next_turn_does_its_work_once_in_a_later_turn(qtbot: QtBot) -> None:
    parent = QTimer()  # any QObject owns the job's timer
    done: list[str] = []

    def work() -> None:
        done.append("work")
        # Two turns later: a second run of the work would have come before.
        QTimer.singleShot(0, lambda: QTimer.singleShot(0, lambda: done.append("two turns on")))

    later = turn_budget.NextTurn(parent, work, 0.001)

    def ending_turn() -> None:
        turn_budget.spent()
        later.ask()
        later.ask()  # asked twice before it ran: done once
        done.append("asked")  # the work is not done in the asking turn

    QTimer.singleShot(0, ending_turn)
    qtbot.waitUntil(lambda: "two turns on" in done, timeout=15_000)
    assert done == ["asked", "work", "two turns on"]
