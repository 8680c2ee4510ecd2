"""The interface every protocol adapter implements for the session engine.

A backend owns one agent connection (a child process or a remote stream). It reports everything
it learns as session events through the ``emit`` callback it is started with; the session applies
approvals and the state machine and fans the events out. Data flows one way:
wire → backend → session → consumers.

Optionally a backend also publishes the agent's raw traffic (``desktop.core.signals``) to
listeners added with ``add_signal_listener``; extensions receive it as ``<protocol>.*`` signals.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field

from desktop.core.events import (
    AgentReady,
    ApprovalMode,
    ChoiceKind,
    Decision,
    ErrorEvent,
    SessionEvent,
    StartFix,
)
from desktop.core.signals import SignalFilter, SignalListener, Unsubscribe
from desktop.core.texts import QT_TRANSLATE_NOOP, CoreText

EmitFn = Callable[[SessionEvent], None]


def _no_op() -> None:
    """The remover of a listener that was never added."""


class AgentStartError(Exception):
    """The agent could not be started; ``stderr_tail`` and ``exit_code`` say why when known,
    ``fix`` what the user can change (a key, a program) when the cause is known, ``text`` the
    message for the window to translate."""

    def __init__(
        self,
        message: str,
        *,
        exit_code: int | None = None,
        stderr_tail: str = "",
        fix: StartFix | None = None,
        text: CoreText | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.text = text
        self.exit_code = exit_code
        self.stderr_tail = stderr_tail
        self.fix = fix

    def __str__(self) -> str:
        text = self.message
        if self.stderr_tail:
            text += "\n" + self.stderr_tail
        return text

    def event(self) -> ErrorEvent:
        """The session event that reports this failure (with its fix)."""
        message, fix, text = str(self), self.fix, self.text
        if text is not None and self.stderr_tail:
            text = QT_TRANSLATE_NOOP("AgentStart", "{message}\n{stderr}").with_args(
                message=text, stderr=self.stderr_tail
            )
        return ErrorEvent(
            code="agent_start_failed", message=message, retryable=True, fix=fix, i18n=text
        )


@dataclass(frozen=True)
class Prompt:
    """A user prompt with optional attached file paths."""

    text: str
    files: tuple[str, ...] = field(default_factory=tuple)


class AgentBackend(ABC):
    """One connection to one agent, driven by a ``Session``."""

    #: Name of the agent, shown to the user.
    name: str = "agent"
    #: Protocol family, e.g. ``aionrs``; also the prefix of raw extension signals.
    protocol: str = "unknown"
    #: Whether tool calls are approved on this host (remote runtimes run their own tools).
    host_approves_tools: bool = True
    #: Whether the adapter takes tool categories from the protocol's own structure (ACP tool
    #: kinds), which the agent program sets and the model cannot choose; otherwise the host
    #: classifies tools by name (``desktop.core.classify``), whatever category is claimed.
    categories_from_protocol: bool = False

    @abstractmethod
    async def start(self, emit: EmitFn) -> AgentReady:
        """Start the agent and wait until it is ready.

        Raises:
            AgentStartError: the agent exited, failed to launch or never became ready.
        """

    @abstractmethod
    async def send_prompt(self, turn_id: str, prompt: Prompt) -> None:
        """Begin a turn; the backend emits ``turn_ended`` for ``turn_id`` when it ends."""

    @abstractmethod
    async def send_decision(self, call_id: str, decision: Decision, reason: str | None) -> None:
        """Tell the agent what was decided for a pending tool call."""

    @abstractmethod
    async def interrupt(self) -> None:
        """Ask the agent to stop the current turn (protocol level; may not be honoured)."""

    @abstractmethod
    async def shutdown(self, timeout: float) -> None:
        """End the agent for good: close its input, terminate, kill after ``timeout`` seconds.

        The backend emits ``agent_exited`` once the agent is gone.
        """

    async def set_mode(self, mode: ApprovalMode) -> None:  # noqa: B027 - optional hook
        """Forward a mode change to agents that also apply modes themselves."""

    async def set_choice(self, kind: ChoiceKind, choice_id: str) -> None:  # noqa: B027
        """Switch to one of the models (or agent modes) the agent offered in ``choices_changed``
        (an optional hook: agents that offer none never get it)."""

    async def end_escaped(self) -> None:  # noqa: B027 - optional hook
        """End what a stopped turn's tools started that left the agent's process tree (a
        daemon that called ``setsid()``): the agent confirmed the stop but cannot reach it."""

    async def send_history(self, text: str) -> None:  # noqa: B027 - optional hook
        """Give the agent prior conversation context (before the first prompt)."""

    def add_signal_listener(
        self, listener: SignalListener, wants: SignalFilter | None = None
    ) -> Unsubscribe:
        """Receive every notification and request the agent sends, as a ``RawSignal``.

        Optional: backends whose agent has no raw traffic worth exposing keep this default,
        which never calls ``listener``. Backends that publish do so only while someone listens
        and only for the event names ``wants`` accepts (e.g. ``aionrs.tool_request``), so a
        listener for rare signals does not slow down streamed text. Listeners are called on the
        event loop, synchronously, before the backend handles the message; they must not block.

        Returns:
            A function that removes the listener.
        """
        return _no_op

    @property
    def accepts_prompts(self) -> bool:
        """False once the agent is on its way out (e.g. aionrs 0.2 quits after ``stop``); the
        session then restarts it before sending the next prompt."""
        return True

    @property
    def session_id(self) -> str | None:
        """The agent's own session id, used to resume the conversation later."""
        return None
