"""A conversation's MCP servers in the status bar: "MCP: 2 connected, 1 failed", and a popup
listing each server, its state, its tools, and why it failed (with the end of its stderr).

``McpServers`` keeps the latest ``McpStatus`` of each server of one conversation (the pane owns
one and feeds it from its bridge); ``McpIndicator`` is the status-bar button that shows the
shown conversation's, hidden while it has none. States arrive as the core's enum values and are
compared as strings: the status bar is built with the first frame, before the core is imported
(and before Qt's enums are: the popup imports ``Qt`` when it opens).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from desktop.ui import theme
from desktop.ui.i18n import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from PySide6.QtGui import QKeyEvent

    from desktop.core.events import McpStatus

#: ``McpServerState`` values in words (a test keeps the keys equal to the enum's values).
STATE_WORDS = {
    "starting": QT_TRANSLATE_NOOP("McpStatus", "starting…"),
    "connected": QT_TRANSLATE_NOOP("McpStatus", "connected"),
    "passed": QT_TRANSLATE_NOOP("McpStatus", "passed to the agent"),
    "failed": QT_TRANSLATE_NOOP("McpStatus", "failed"),
    "stopped": QT_TRANSLATE_NOOP("McpStatus", "stopped working"),
}
_BAD = frozenset({"failed", "stopped"})
_LEVEL = {"connected": "info", "passed": "info", "starting": "info"}

_SHEET = """
QFrame#mcpPanel {{ background: {window}; border: 1px solid {border}; }}
QLabel[role="mcpName"] {{ font-weight: 600; }}
QLabel[role="mcpState"] {{ color: {muted}; }}
QLabel[role="mcpState"][level="ok"] {{ color: {success}; }}
QLabel[role="mcpState"][level="bad"] {{ color: {danger}; font-weight: 600; }}
QLabel[role="mcpReason"] {{ color: {text}; font-family: monospace; font-size: 9pt;
    background: {surface}; border: 1px solid {border}; border-radius: 6px; padding: 4px 6px; }}
QLabel[role="mcpTools"] {{ color: {muted}; font-size: 9pt; }}
"""

_BUTTON_SHEET = """
QToolButton#status_mcp {{ padding: 0 6px; border: none; }}
QToolButton#status_mcp:hover {{ background: {surface}; border-radius: 4px; }}
QToolButton#status_mcp[level="bad"] {{ color: {danger}; font-weight: 600; }}
"""


def tr(text: str) -> str:
    """``text`` translated (context "McpStatus")."""
    return QCoreApplication.translate("McpStatus", text)


class ServerState(NamedTuple):
    """The latest state of one server (no dataclass: the first frame goes without the module)."""

    name: str
    state: str
    tools: list[str]
    message: str = ""


class McpServers:
    """The MCP servers of one conversation, by name, in the order they were first reported."""

    def __init__(self) -> None:
        self.servers: dict[str, ServerState] = {}

    def apply(self, event: McpStatus) -> None:
        """Take one status report (a later one replaces the earlier; tools are kept)."""
        known = self.servers.get(event.server)
        tools = list(event.tools) or (known.tools if known else [])
        self.servers[event.server] = ServerState(
            event.server, str(event.state.value), tools, event.message
        )

    def count(self, *states: str) -> int:
        """How many servers are in one of ``states``."""
        return sum(1 for s in self.servers.values() if s.state in states)

    def summary(self) -> str:
        """ "MCP: 2 connected, 1 failed" (only the parts that are not zero)."""
        parts = []
        for states, words in (
            (("connected",), QT_TRANSLATE_NOOP("McpStatus", "{0} connected")),
            (("passed",), QT_TRANSLATE_NOOP("McpStatus", "{0} passed")),
            (("starting",), QT_TRANSLATE_NOOP("McpStatus", "{0} starting")),
            (("failed", "stopped"), QT_TRANSLATE_NOOP("McpStatus", "{0} failed")),
        ):
            n = self.count(*states)
            if n:
                parts.append(tr(words).format(n))
        return QCoreApplication.translate("McpStatus", "MCP: {0}").format(", ".join(parts))


class McpPanel(QFrame):
    """The popup: one block per server (name, state, tools or the reason)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        from PySide6.QtCore import Qt

        super().__init__(parent, Qt.WindowType.Popup)
        self.setObjectName("mcpPanel")
        self.setAccessibleName(
            QCoreApplication.translate("McpStatus", "MCP servers of this conversation")
        )
        self.setMinimumWidth(380)
        self.setMaximumWidth(620)
        theme.follow(self, _SHEET)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(12, 10, 12, 12)
        self._layout.setSpacing(4)
        self.blocks: dict[str, list[QLabel]] = {}

    def show_servers(self, servers: McpServers) -> None:
        """List ``servers`` afresh."""
        while self._layout.count():
            item = self._layout.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.hide()
                widget.deleteLater()
        self.blocks = {}
        title = QLabel(QCoreApplication.translate("McpStatus", "MCP servers"))
        theme.set_role(title, "sectionTitle", polished=False)
        self._layout.addWidget(title)
        for server in servers.servers.values():
            self.blocks[server.name] = self._block(server)

    def _block(self, server: ServerState) -> list[QLabel]:
        from PySide6.QtCore import Qt

        name = QLabel(server.name)
        theme.set_role(name, "mcpName", polished=False)
        level = "bad" if server.state in _BAD else ("ok" if server.state == "connected" else "")
        state = QLabel("● " + tr(STATE_WORDS.get(server.state, server.state)))
        theme.set_role(state, "mcpState", polished=False, level=level)
        labels = [name, state]
        if server.tools and server.state not in _BAD:
            tools = QLabel(
                QCoreApplication.translate("McpStatus", "Tools: {0}").format(
                    ", ".join(server.tools)
                )
            )
            tools.setWordWrap(True)
            theme.set_role(tools, "mcpTools", polished=False)
            labels.append(tools)
        if server.message and server.state in _BAD:
            reason = QLabel(server.message)
            reason.setWordWrap(True)
            reason.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            theme.set_role(reason, "mcpReason", polished=False)
            labels.append(reason)
        name.setAccessibleName(f"{server.name}: {state.text()[2:]}")
        heading = QWidget()  # the name and its state on one line
        line = QHBoxLayout(heading)
        line.setContentsMargins(0, 0, 0, 0)
        line.setSpacing(10)
        line.addWidget(name)
        line.addWidget(state)
        line.addStretch(1)
        self._layout.addSpacing(6)
        self._layout.addWidget(heading)
        for label in labels[2:]:
            self._layout.addWidget(label)
        return labels

    def popup_at(self, anchor: QWidget) -> None:
        """Open above ``anchor`` (the status-bar button), right-aligned with it."""
        from PySide6.QtCore import QPoint, Qt

        self.adjustSize()
        corner = anchor.mapToGlobal(QPoint(anchor.width(), 0))
        self.move(max(corner.x() - self.width(), 0), corner.y() - self.height() - 4)
        self.show()
        self.setFocus(Qt.FocusReason.PopupFocusReason)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        from PySide6.QtCore import Qt

        if event.key() == Qt.Key.Key_Escape:
            self.close()
        else:
            super().keyPressEvent(event)


class McpIndicator(QToolButton):
    """The status bar's MCP button: the summary; a click opens the list (hidden: no servers)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("status_mcp")
        self.setAutoRaise(True)
        self.setAccessibleName(QCoreApplication.translate("McpStatus", "MCP servers"))
        self.setToolTip(
            QCoreApplication.translate(
                "McpStatus", "MCP servers of this conversation: click for details"
            )
        )
        self.setVisible(False)
        theme.follow(self, _BUTTON_SHEET)
        self._servers: McpServers | None = None
        self.panel: McpPanel | None = None
        self.clicked.connect(self.open_panel)

    def show_servers(self, servers: McpServers | None) -> None:
        """Show ``servers`` (a conversation's), or hide when it has none."""
        self._servers = servers
        if not servers or not servers.servers:
            self.setVisible(False)
            return
        self.setText(servers.summary())
        bad = servers.count(*_BAD)
        theme.set_role(self, "mcpIndicator", level="bad" if bad else "")
        self.setAccessibleDescription(self.text())
        self.setVisible(True)
        if self.panel is not None and self.panel.isVisible():
            self.panel.show_servers(servers)
            self.panel.adjustSize()

    def open_panel(self) -> None:
        """Open the list of servers above the button."""
        if self._servers is None:
            return
        if self.panel is None:
            self.panel = McpPanel(self)
        self.panel.show_servers(self._servers)
        self.panel.popup_at(self)
