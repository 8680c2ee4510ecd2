"""The window's deferred start: an agent resolved when its conversation starts, not before.

Resolving an agent reads keys from the keyring, which may take seconds (an unlock prompt), so it
cannot happen while the window builds a conversation. ``deferred_factory`` returns at once a
factory whose backend (``LazyBackend``) resolves the agent inside ``start()`` on the event loop:
a missing program or key becomes the session's ordinary start error, carrying a ``StartFix`` the
window acts on (a key field, Install), and Restart resolves again (after the user stored the
key, say).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from desktop.core.backend import AgentBackend, AgentStartError, EmitFn, Prompt
from desktop.core.events import AgentReady, ApprovalMode, Decision, StartFix
from desktop.core.launch.factory import make_backend_factory
from desktop.core.launch.resolve import resolve
from desktop.core.launch.spec import AgentNotFoundError, AgentRef, MissingKeyError
from desktop.core.secrets import SecretStore, SecretStoreError
from desktop.core.session import BackendFactory
from desktop.core.settings import Settings
from desktop.core.signals import SignalFilter, SignalListener, Unsubscribe
from desktop.core.start_problem import StartProblem
from desktop.core.texts import QT_TRANSLATE_NOOP, CoreText

Resolver = Callable[[], Awaitable[BackendFactory]]


async def resolve_factory(
    settings: Settings, secrets: SecretStore, agent: str, workspace: Path
) -> BackendFactory:
    """The real backend factory of the configured (or catalogue) agent ``agent``.

    Raises:
        AgentStartError: unknown agent, missing program or key, keyring failure; its ``fix``
            says which, and its message says it without a terminal instruction (the window
            offers the fix instead).
    """
    try:
        launch = await resolve(AgentRef(agent), settings, secrets)
        return make_backend_factory(launch, workspace)
    except MissingKeyError as exc:
        fix = StartFix(problem=exc.problem, subject=exc.subject, agent=agent, provider=exc.provider)
        raise _window_error(fix) from None
    except AgentNotFoundError as exc:
        fix = StartFix(problem=exc.problem, subject=exc.subject, agent=agent)
        raise _window_error(fix, str(exc)) from None
    except SecretStoreError as exc:
        fix = StartFix(problem=StartProblem.KEYRING_LOCKED, agent=agent)
        raise AgentStartError(str(exc), fix=fix, text=exc.text) from None
    except ValueError as exc:
        raise AgentStartError(str(exc)) from None


def _window_error(fix: StartFix, text: str = "") -> AgentStartError:
    """The start error as the window says it: no ``agentdesk keys set`` or npm instruction."""
    said: CoreText | None = None
    if fix.problem == StartProblem.MISSING_KEY:
        said = QT_TRANSLATE_NOOP(
            "AgentStart", "The agent {agent} needs an API key (profile {subject})."
        )
    elif fix.problem == StartProblem.MISSING_PROGRAM:
        said = QT_TRANSLATE_NOOP(
            "AgentStart", "The agent {agent} is not installed ({subject} was not found)."
        )
    if said is None:
        return AgentStartError(text.split("; install it with")[0], fix=fix)
    said = said.with_args(agent=repr(fix.agent), subject=repr(fix.subject))
    return AgentStartError(said.english, fix=fix, text=said)


class LazyBackend(AgentBackend):
    """Resolves the real backend in ``start()`` and then forwards everything to it."""

    def __init__(self, resolve: Resolver, resume_id: str | None) -> None:
        self._resolve = resolve
        self._resume_id = resume_id
        self._inner: AgentBackend | None = None
        self._listeners: list[tuple[SignalListener, SignalFilter | None]] = []
        self._closed = False

    @property
    def inner(self) -> AgentBackend:
        """The real backend (after ``start``)."""
        if self._inner is None:
            raise AgentStartError("the agent has not been started")
        return self._inner

    async def resolved(self) -> BackendFactory:
        """Resolve the agent without starting it (a start check: program and key).

        Raises:
            AgentStartError: as ``start`` would, with its ``fix``.
        """
        return await self._resolve()

    async def start(self, emit: EmitFn) -> AgentReady:
        factory = await self._resolve()
        if self._closed:
            raise AgentStartError("the conversation was closed")
        inner = factory(self._resume_id)
        self._inner = inner
        self.name, self.protocol = inner.name, inner.protocol
        self.host_approves_tools = inner.host_approves_tools
        self.categories_from_protocol = inner.categories_from_protocol
        for listener, wants in self._listeners:
            inner.add_signal_listener(listener, wants)
        return await inner.start(emit)

    async def send_prompt(self, turn_id: str, prompt: Prompt) -> None:
        await self.inner.send_prompt(turn_id, prompt)

    async def send_decision(self, call_id: str, decision: Decision, reason: str | None) -> None:
        await self.inner.send_decision(call_id, decision, reason)

    async def interrupt(self) -> None:
        await self.inner.interrupt()

    async def shutdown(self, timeout: float) -> None:
        self._closed = True
        if self._inner is not None:
            await self._inner.shutdown(timeout)

    async def set_mode(self, mode: ApprovalMode) -> None:
        await self.inner.set_mode(mode)

    async def send_history(self, text: str) -> None:
        await self.inner.send_history(text)

    def add_signal_listener(
        self, listener: SignalListener, wants: SignalFilter | None = None
    ) -> Unsubscribe:
        entry = (listener, wants)
        self._listeners.append(entry)
        remove_inner = self._inner.add_signal_listener(listener, wants) if self._inner else None

        def remove() -> None:
            if entry in self._listeners:
                self._listeners.remove(entry)
            if remove_inner is not None:
                remove_inner()

        return remove

    @property
    def accepts_prompts(self) -> bool:
        return self._inner.accepts_prompts if self._inner is not None else True

    @property
    def session_id(self) -> str | None:
        return self._inner.session_id if self._inner is not None else self._resume_id


def deferred_factory(
    settings: Callable[[], Settings],
    secrets: Callable[[], SecretStore],
    agent: str,
    workspace: Path,
) -> BackendFactory:
    """A factory of ``LazyBackend``s that resolve ``agent`` with the settings and keys current
    at each start."""

    async def current() -> BackendFactory:
        return await resolve_factory(settings(), secrets(), agent, workspace)

    def factory(resume_id: str | None) -> AgentBackend:
        return LazyBackend(current, resume_id)

    return factory
