"""What a session says to users when a start, a stop or the agent itself fails, and why it
denied or withdrew a pending tool call.

The sentences of ``desktop.core.session``, marked for the window's translation
(``desktop.core.texts``); their ``english`` is the event's message (logs, ``agentdesk exec``,
the history).
"""

from __future__ import annotations

from desktop.core.texts import QT_TRANSLATE_NOOP, CoreText


def could_not_start(reason: str | CoreText) -> CoreText:
    """A queued turn failed because the agent could not start, for ``reason``."""
    text = QT_TRANSLATE_NOOP("Session", "The agent could not start: {reason}")
    return text.with_args(reason=reason)


def stop_unconfirmed() -> CoreText:
    """The agent did not confirm a stop in time and was ended."""
    return QT_TRANSLATE_NOOP("Session", "The agent did not confirm the stop in time; it was ended.")


def exited_during_turn(code: int | None, signal: int | None) -> CoreText:
    """The agent exited while a turn ran, with ``code`` or by ``signal``."""
    what = (
        QT_TRANSLATE_NOOP("Session", "exit code {code}").with_args(code=code)
        if signal is None
        else QT_TRANSLATE_NOOP("Session", "signal {signal}").with_args(signal=signal)
    )
    text = QT_TRANSLATE_NOOP("Session", "The agent exited during the turn ({what}).")
    return text.with_args(what=what)


def stopped_unexpectedly() -> CoreText:
    """The agent exited without being asked to."""
    return QT_TRANSLATE_NOOP(
        "Session", "The agent stopped unexpectedly; the next prompt restarts it."
    )


# Why a pending tool call was denied or withdrawn without the user deciding it (shown on its card).


def conversation_closed() -> CoreText:
    """Pending calls denied: the conversation was closed."""
    return QT_TRANSLATE_NOOP("ToolReason", "The conversation was closed")


def agent_shutting_down() -> CoreText:
    """Pending calls denied: the agent is being ended."""
    return QT_TRANSLATE_NOOP("ToolReason", "The agent is being shut down")


def stopped_by_user() -> CoreText:
    """Pending calls denied or cancelled: the user stopped the turn."""
    return QT_TRANSLATE_NOOP("ToolReason", "Stopped by the user")


def turn_ended() -> CoreText:
    """Pending calls withdrawn: their turn ended."""
    return QT_TRANSLATE_NOOP("ToolReason", "The turn ended")
