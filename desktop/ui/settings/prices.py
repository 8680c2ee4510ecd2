"""Settings ▸ General ▸ Usage and cost: where the cost estimates come from, and "Edit prices…".

Agent Desk estimates what a conversation cost from a price table shipped with the app
(``desktop.core.usage.pricing``). "Edit prices…" writes the user's own copy to the config folder
the first time (a copy of the shipped table) and opens it in the desktop's editor; models added
or changed there are used from the next turn on. The box says where the file is.
"""

from __future__ import annotations

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QGroupBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from desktop.core.usage.pricing import ensure_override, override_path
from desktop.ui.theme import set_role


class PricesBox(QGroupBox):
    """The price table's box on the General page."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pricesBox")
        self.setTitle(self.tr("Usage and cost"))
        layout = QVBoxLayout(self)
        about = QLabel(
            self.tr(
                "Costs in the status bar, below each turn and in agentdesk history list are "
                "estimates from a price table (US dollars per million tokens). Add or change "
                "models in your own copy; a model it does not know has no estimate."
            )
        )
        about.setWordWrap(True)
        set_role(about, "muted")
        layout.addWidget(about)
        row = QHBoxLayout()
        self.path = QLabel(str(override_path()))
        self.path.setObjectName("pricesPath")
        self.path.setWordWrap(True)
        set_role(self.path, "muted")
        self.edit = QPushButton(self.tr("Edit prices…"))
        self.edit.setToolTip(self.tr("Open your price table in the desktop's editor"))
        self.edit.clicked.connect(self.open_prices)
        row.addWidget(self.path, 1)
        row.addWidget(self.edit)
        layout.addLayout(row)

    def open_prices(self) -> bool:
        """Write the user's table if there is none yet, then open it; False if it cannot be
        written or opened (said in the box)."""
        try:
            path = ensure_override()
        except OSError as exc:
            self.path.setText(self.tr("Could not write the price table: {error}").format(error=exc))
            return False
        self.path.setText(str(path))
        return QDesktopServices.openUrl(QUrl.fromLocalFile(str(path)))
