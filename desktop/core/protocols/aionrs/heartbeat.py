"""Liveness of an aionrs agent: ``ping``/``pong`` while it is idle.

aionrs 0.2 answers ``ping`` with ``pong`` at any time; protocol 0.1.0 does not define ``ping``
(a conforming agent answers ``protocol_error``; some ignore it). So the first ping is a probe:
without a ``pong`` no heartbeat is kept up and no false alarm is ever raised. With one, a ping
goes out whenever the agent has been silent and idle for an interval, and a missing ``pong``
reports the agent hung (once, until it answers again).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from desktop.core.backend import EmitFn
from desktop.core.events import ErrorEvent, Notice
from desktop.core.texts import QT_TRANSLATE_NOOP

log = logging.getLogger(__name__)


class Heartbeat:
    """Pings an agent and reports when it stops answering.

    Args:
        name: The agent's name, for messages.
        send_ping: Writes one ``ping`` command.
        is_busy: True while a turn runs (stream events are liveness enough then).
        report: Where ``agent_hung`` errors and recovery notices go.
        interval: Seconds of idle silence before a ping.
        timeout: Seconds to wait for the ``pong``.
    """

    def __init__(
        self,
        name: str,
        send_ping: Callable[[], Awaitable[None]],
        is_busy: Callable[[], bool],
        report: EmitFn,
        *,
        interval: float,
        timeout: float,
    ) -> None:
        self.name = name
        self.supported: bool | None = None
        self._send_ping = send_ping
        self._is_busy = is_busy
        self._report = report
        self._interval = interval
        self._timeout = timeout
        self._pong: asyncio.Future[None] | None = None
        self._last_seen = time.monotonic()

    def saw_output(self) -> None:
        """The agent wrote something: it is alive."""
        self._last_seen = time.monotonic()

    def on_pong(self) -> None:
        """A ``pong`` arrived."""
        if self._pong is not None and not self._pong.done():
            self._pong.set_result(None)

    def on_error(self, message: str) -> bool:
        """An ``error`` arrived; True if it was the agent refusing ``ping`` (then swallow it)."""
        if self._pong is not None and not self._pong.done() and "ping" in message.lower():
            self._pong.set_exception(LookupError(message))
            return True
        return False

    async def _ping(self, timeout: float) -> bool:
        self._pong = asyncio.get_running_loop().create_future()
        await self._send_ping()
        try:
            await asyncio.wait_for(asyncio.shield(self._pong), timeout)
        except (TimeoutError, LookupError):
            return False
        finally:
            self._pong = None
        return True

    async def run(self) -> None:
        """Probe once, then watch for as long as the task lives."""
        self.supported = await self._ping(timeout=min(5.0, self._timeout))
        if not self.supported:
            log.info("%s does not answer ping; no heartbeat", self.name)
            return
        hung = False
        while True:
            await asyncio.sleep(self._interval)
            if self._is_busy() or time.monotonic() - self._last_seen < self._interval:
                continue
            alive = await self._ping(self._timeout)
            if not alive and not hung:
                text = QT_TRANSLATE_NOOP(
                    "AgentHung",
                    "{name} has not answered a ping for {seconds} s; it may be hung. "
                    "Restart it if it stays unresponsive.",
                ).with_args(name=self.name, seconds=f"{self._timeout:g}")
                self._report(
                    ErrorEvent(code="agent_hung", message=text.english, retryable=True, i18n=text)
                )
            elif alive and hung:
                text = QT_TRANSLATE_NOOP("AgentHung", "{name} is responding again.")
                text = text.with_args(name=self.name)
                self._report(Notice(message=text.english, i18n=text))
            hung = not alive
