"""How ``agentdesk exec`` prints a conversation: JSON Lines or readable text.

Everything printed goes through the same redaction as the history (``desktop.core.redaction``):
an agent's stderr tail, a start error or a tool's output that shows a key the launch used (or any
secret-looking environment value, or anything key-shaped) prints ``[REDACTED]`` instead.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable, Iterable
from typing import TextIO

from desktop.core.events import (
    AgentExited,
    AgentReady,
    ErrorEvent,
    Notice,
    PlanUpdated,
    SessionEvent,
    TextDelta,
    ThinkingDelta,
    ToolCancelled,
    ToolDecided,
    ToolFinished,
    ToolRequested,
    ToolStarted,
    TurnEnded,
    TurnStarted,
)
from desktop.core.redaction import Redactor, secret_values


def exec_redactor(secrets: Iterable[str] = ()) -> Callable[[str], str]:
    """Redaction for what ``exec`` prints: ``secrets`` (the launch's keys), the values of
    secret-looking environment variables, and key-shaped strings."""
    return Redactor([*secrets, *secret_values(os.environ)]).text


class JsonPrinter:
    """Every session event as one JSON object per line on stdout.

    Lines are written every ``FLUSH_INTERVAL`` seconds while events arrive (and by ``flush``), so
    a fast stream costs a few large writes instead of one write per event.
    """

    FLUSH_INTERVAL = 0.05

    def __init__(
        self, out: TextIO | None = None, *, redact: Callable[[str], str] | None = None
    ) -> None:
        self._out = out or sys.stdout
        self._lines: list[str] = []
        self.redact = redact or exec_redactor()

    def __call__(self, event: SessionEvent) -> None:
        if not self._lines:
            asyncio.get_running_loop().call_later(self.FLUSH_INTERVAL, self.flush)
        self._lines.append(self.redact(event.model_dump_json(exclude_none=True)))

    def flush(self) -> None:
        """Write out what is buffered."""
        if self._lines:
            self._out.write("\n".join(self._lines) + "\n")
            self._lines.clear()
        self._out.flush()


class TextPrinter:
    """Assistant text on stdout; tools, notices and errors as short lines on stderr."""

    def __init__(
        self,
        out: TextIO | None = None,
        err: TextIO | None = None,
        *,
        redact: Callable[[str], str] | None = None,
    ) -> None:
        self._out = out or sys.stdout
        self._err = err or sys.stderr
        self._text_open = False
        self.redact = redact or exec_redactor()

    def flush(self) -> None:
        """Everything is written as it happens; kept for symmetry with ``JsonPrinter``."""
        self._out.flush()

    def _line(self, text: str) -> None:
        if self._text_open:
            self._out.write("\n")
            self._out.flush()
            self._text_open = False
        self._err.write(self.redact(text) + "\n")
        self._err.flush()

    def __call__(self, event: SessionEvent) -> None:
        if isinstance(event, TextDelta):
            self._out.write(self.redact(event.text))
            self._out.flush()
            self._text_open = not event.text.endswith("\n")
        elif isinstance(event, ThinkingDelta):
            pass
        elif isinstance(event, AgentReady):
            version = f" {event.version}" if event.version else ""
            self._line(f"· {event.agent}{version} ready")
        elif isinstance(event, TurnStarted):
            self._line(f"› {event.prompt}")
        elif isinstance(event, ToolRequested):
            where = f" in {event.preview.cwd}" if event.preview and event.preview.cwd else ""
            self._line(f"⏺ {event.name}: {event.description or event.args}{where}")
        elif isinstance(event, ToolDecided):
            who = event.source.value + (f" {event.source_name}" if event.source_name else "")
            self._line(f"  {event.decision.value} (by {who})")
        elif isinstance(event, ToolStarted):
            self._line(f"  running {event.name}")
        elif isinstance(event, ToolFinished):
            first = event.output.strip().splitlines()[:1]
            self._line(f"  {event.status}: {first[0] if first else ''}")
        elif isinstance(event, ToolCancelled):
            self._line(f"  cancelled {event.reason}".rstrip())
        elif isinstance(event, PlanUpdated):
            marks = {"completed": "✓", "in_progress": "●", "pending": "○"}
            steps = "  ".join(f"{marks[s.status.value]} {s.content}" for s in event.entries)
            self._line(f"· plan: {steps}")
        elif isinstance(event, Notice):
            self._line(f"· {event.message}")
        elif isinstance(event, ErrorEvent):
            self._line(f"✗ {event.code}: {event.message}")
        elif isinstance(event, TurnEnded):
            usage = event.usage
            tokens = f", {usage.input_tokens} in / {usage.output_tokens} out" if usage else ""
            self._line(
                f"· turn {event.reason.value}{tokens}"
                + (f": {event.message}" if event.message else "")
            )
        elif isinstance(event, AgentExited):
            status = f"signal {event.signal}" if event.signal else f"code {event.exit_code}"
            self._line(f"· agent exited ({status})")
            if event.stderr_tail and not event.expected:
                self._line(event.stderr_tail)
