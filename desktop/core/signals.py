"""Raw agent signals: every notification and request an agent sends, as it sent it.

The session engine only sees the backend-neutral events of ``desktop.core.events``; extensions
may also want the agent's own traffic. The extension contract names it
``<source>.<normalized method>`` (``app_server.turn.completed``, ``acp.session.update``,
``aionrs.tool_request``) and ``<source>.request.<normalized method>`` for requests the agent
expects an answer to, wrapped in the signal envelope of ``shared/reference/agent-runtime-sdk.md``
§6. Backends publish ``RawSignal``s through a ``SignalHub``; consumers subscribe with
``AgentBackend.add_signal_listener`` (usually through ``Session.subscribe_signals``).

Publishing costs nothing while nobody listens: a backend checks ``SignalHub.active`` and
``SignalHub.wants`` before it builds a signal, so hot paths (streamed text) stay fast.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from desktop.sdk.names import signal_event_name
from desktop.sdk.types import SignalType

log = logging.getLogger(__name__)

#: Receives one raw signal; called on the event loop, must not block.
SignalListener = Callable[["RawSignal"], None]
#: Decides by event name (``aionrs.text_delta``) whether a listener wants a signal at all.
SignalFilter = Callable[[str], bool]
#: Removes a listener again.
Unsubscribe = Callable[[], None]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _accept_all(_name: str) -> bool:
    return True


@dataclass(frozen=True)
class RawSignal:
    """One notification or server request, as the agent sent it."""

    source: str
    signal_type: SignalType
    method: str
    params: dict[str, Any] | None
    request_id: int | str | None = None
    thread_id: str | None = None
    turn_id: str | None = None
    received_at: str = field(default_factory=_now)

    @property
    def event_type(self) -> str:
        """e.g. ``app_server.turn.completed`` or ``app_server.request.item.tool.call``."""
        return signal_event_name(self.source, self.method, self.signal_type)

    def envelope(self, session: dict[str, Any] | None = None) -> dict[str, Any]:
        """The contract's payload (``session``: ``{id, title, projectId}`` or None)."""
        payload: dict[str, Any] = {
            "source": self.source,
            "signalType": self.signal_type,
            "eventType": self.event_type,
            "method": self.method,
            "receivedAt": self.received_at,
            "context": {"threadId": self.thread_id, "turnId": self.turn_id},
            "params": self.params,
            "session": session,
        }
        if self.signal_type == "request":
            payload["requestId"] = self.request_id
        return payload


class SignalHub:
    """The raw-signal listeners of one backend; a failing listener never breaks the protocol."""

    def __init__(self) -> None:
        self._listeners: list[tuple[SignalListener, SignalFilter]] = []
        #: True while anyone listens (a plain attribute: checked once per line on hot paths).
        self.active = False

    def add(self, listener: SignalListener, wants: SignalFilter | None = None) -> Unsubscribe:
        """Add a listener (only for the event names ``wants`` accepts); returns its remover."""
        entry = (listener, wants or _accept_all)
        self._listeners.append(entry)
        self.active = True

        def remove() -> None:
            if entry in self._listeners:
                self._listeners.remove(entry)
            self.active = bool(self._listeners)

        return remove

    def __bool__(self) -> bool:
        return self.active

    def wants(self, source: str, method: str, signal_type: SignalType) -> bool:
        """Whether any listener wants this signal (check before building it)."""
        if not self.active:
            return False
        name = signal_event_name(source, method, signal_type)
        return any(wants(name) for _listener, wants in self._listeners)

    def publish(self, signal: RawSignal) -> None:
        """Give ``signal`` to every listener that wants it."""
        name = signal.event_type
        for listener, wants in tuple(self._listeners):
            try:
                if wants(name):
                    listener(signal)
            except Exception:
                log.exception("a raw signal listener failed on %s", signal.method)


class SignalSource(Protocol):
    """What publishes raw signals: every ``AgentBackend`` (declared here, below the backend
    interface, so this module does not import the layer above it)."""

    def add_signal_listener(
        self, listener: SignalListener, wants: SignalFilter | None = None
    ) -> Unsubscribe:
        """Call ``listener`` with each raw signal ``wants`` accepts; returns its remover."""
        ...


class SignalRelay:
    """Listeners that outlive backends: a ``Session`` attaches each backend it starts.

    The relay subscribes to a backend only while it has listeners of its own, so a session
    nobody watches for raw signals leaves the backend's hot paths untouched.
    """

    def __init__(self) -> None:
        self._listeners: list[tuple[SignalListener, SignalFilter | None]] = []
        self._backend: SignalSource | None = None
        self._unsubscribe: Unsubscribe | None = None

    def subscribe(self, listener: SignalListener, wants: SignalFilter | None = None) -> Unsubscribe:
        """Add a listener (for the current and every later backend); returns its remover."""
        entry = (listener, wants)
        self._listeners.append(entry)
        self._connect()

        def remove() -> None:
            if entry in self._listeners:
                self._listeners.remove(entry)
            if not self._listeners:
                self._disconnect()

        return remove

    def attach(self, backend: SignalSource) -> None:
        """Relay ``backend``'s signals from now on (instead of the previous backend's)."""
        self._disconnect()
        self._backend = backend
        self._connect()

    def detach(self) -> None:
        """Stop relaying the current backend's signals (it is gone)."""
        self._disconnect()
        self._backend = None

    def _connect(self) -> None:
        if self._backend is not None and self._unsubscribe is None and self._listeners:
            self._unsubscribe = self._backend.add_signal_listener(self._forward, self._wants)

    def _disconnect(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def _wants(self, name: str) -> bool:
        return any(wants is None or wants(name) for _, wants in self._listeners)

    def _forward(self, signal: RawSignal) -> None:
        name = signal.event_type
        for listener, wants in tuple(self._listeners):
            try:
                if wants is None or wants(name):
                    listener(signal)
            except Exception:
                log.exception("a raw signal consumer failed on %s", name)
