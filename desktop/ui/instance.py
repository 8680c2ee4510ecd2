"""Single instance: a second ``agentdesk PATH`` hands PATH to the running process and exits.

The running instance listens on a ``QLocalServer`` whose name is derived from the config folder
(so separate ``AGENTDESK_HOME``s, e.g. tests, never talk to each other). A message is one line of
JSON: ``{"open": "/abs/path"}``, with ``"agent": NAME`` or ``"agent_cmd": "CMD ARGS"`` when the
second command was given them (they apply to the window it opens; older senders omit them) and
``"conversation": ID`` for ``--conversation`` (the window shows that stored conversation); the
server answers ``ok`` once the window is shown.

Start-up cost: when no instance runs (the usual case), ``hand_off`` decides without loading
QtNetwork. On Linux a ``QLocalServer`` is a socket file at ``QDir::tempPath()/NAME`` (``$TMPDIR``
or ``/tmp``, symlinks resolved); no file, no server. Only when the file exists (a running
instance, or a stale file after a crash) does a ``QLocalSocket`` try to connect; a stale file
refuses at once, so nothing waits. Elsewhere (named pipes on Windows, macOS's own temporary
folder) the ``QLocalSocket`` always tries.
"""

from __future__ import annotations

import logging
import os
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from PySide6.QtCore import QObject

from desktop.ui import startup_hints

if TYPE_CHECKING:
    from PySide6.QtNetwork import QLocalServer

log = logging.getLogger(__name__)

_TIMEOUT_MS = 2000


class AgentOptions(NamedTuple):
    """``--agent``/``--agent-cmd`` for one window (immutable; a tuple: no dataclasses before
    the first paint). Both None: the window uses the settings' default agent."""

    agent: str | None = None
    agent_cmd: str | None = None

    def message(self) -> dict[str, str]:
        """The fields of a hand-off message (only those given)."""
        return {k: v for k, v in self._asdict().items() if v}

    @classmethod
    def from_message(cls, message: dict[str, object]) -> AgentOptions:
        """The options in a hand-off message (absent or not text: None)."""
        agent, command = message.get("agent"), message.get("agent_cmd")
        return cls(
            agent if isinstance(agent, str) and agent else None,
            command if isinstance(command, str) and command else None,
        )


def server_name() -> str:
    """The local socket name of this user's (or this ``AGENTDESK_HOME``'s) instance."""
    # crc32, not hashlib: loading OpenSSL's hashes costs ~15 ms before the first paint, and the
    # name only has to tell config folders apart (the start-up hints' file is in that folder).
    key = zlib.crc32(startup_hints.location().encode())
    return f"agentdesk-{key:08x}"


def _no_server(name: str) -> bool:
    """True when surely no instance listens on ``name`` (Linux: its socket file is absent)."""
    if not sys.platform.startswith("linux"):
        return False
    # QDir::tempPath() on Linux, without building the QDir class (its enums) before the paint.
    folder = os.path.realpath(os.environ.get("TMPDIR") or "/tmp")
    return not os.path.exists(os.path.join(folder, name))


def hand_off(
    path: Path, agent: AgentOptions | None = None, conversation: str | None = None
) -> bool:
    """Ask a running instance to open ``path`` (with ``agent``, on the stored ``conversation``);
    False when none answers."""
    name = server_name()
    if _no_server(name):
        return False
    import json

    from PySide6.QtNetwork import QLocalSocket

    socket = QLocalSocket()
    socket.connectToServer(name)
    if not socket.waitForConnected(_TIMEOUT_MS):
        return False
    message = {"open": str(path), **(agent or AgentOptions()).message()}
    if conversation:
        message["conversation"] = conversation
    socket.write(json.dumps(message).encode() + b"\n")
    socket.flush()
    answered = socket.waitForReadyRead(_TIMEOUT_MS * 2)
    reply = bytes(socket.readAll().data()).strip() if answered else b""
    socket.disconnectFromServer()
    return reply == b"ok"


class InstanceServer(QObject):
    """Listens for hand-offs and calls ``on_open(path, agent_options, conversation)`` for each.

    The ``QLocalServer`` is made by ``listen`` (after the first paint: QtNetwork loads then).
    """

    def __init__(
        self,
        on_open: Callable[[Path, AgentOptions, str | None], None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._on_open = on_open
        self._server: QLocalServer | None = None

    def listen(self) -> bool:
        """Start listening, removing a stale socket left by a crashed instance."""
        from PySide6.QtNetwork import QLocalServer

        if self._server is None:
            self._server = QLocalServer(self)
            self._server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
            self._server.newConnection.connect(self._on_connection)
        name = server_name()
        if self._server.listen(name):
            return True
        QLocalServer.removeServer(name)
        return self._server.listen(name)

    def close(self) -> None:
        """Stop listening."""
        if self._server is not None:
            self._server.close()

    def _on_connection(self) -> None:
        assert self._server is not None
        while self._server.hasPendingConnections():
            socket = self._server.nextPendingConnection()
            socket.readyRead.connect(self._on_ready_read)
            socket.disconnected.connect(socket.deleteLater)

    def _on_ready_read(self) -> None:
        import json

        from PySide6.QtNetwork import QLocalSocket

        socket = self.sender()
        if not isinstance(socket, QLocalSocket) or not socket.canReadLine():
            return
        line = bytes(socket.readLine().data())
        try:
            message = json.loads(line)
            path = Path(message["open"])
            agent = AgentOptions.from_message(message)
            conversation = message.get("conversation")
        except (ValueError, KeyError, TypeError, AttributeError):
            log.warning("ignored a malformed hand-off message")
            socket.write(b"error\n")
            return
        self._on_open(path, agent, conversation if isinstance(conversation, str) else None)
        socket.write(b"ok\n")
        socket.flush()
