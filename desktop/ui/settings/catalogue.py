"""Settings → Agents → "Ready-made agents": where each catalogue agent was found, and Install.

Looking a program up may start a login shell (to learn its PATH), so it runs in a worker thread.
``Install`` streams npm's progress lines (``desktop.core.catalogue.install_lines``) into a log
as they arrive, in the dialog's task scope: the window keeps working meanwhile.
"""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.catalogue import CATALOGUE, CatalogueEntry, NpmInstallError, find_entry_program
from desktop.core.catalogue import install_lines as npm_install_lines
from desktop.ui.conversation.items import set_role
from desktop.ui.qt_async import TaskScope

#: Lines kept in the install log (npm can be chatty).
LOG_LINES = 400


def _find_all() -> dict[str, list[str] | None]:
    """Every entry's program (one worker-thread trip for all of them)."""
    return {entry.key: find_entry_program(entry) for entry in CATALOGUE}


class CatalogueBox(QGroupBox):
    """One row per catalogue agent: title, where it is, Install."""

    def __init__(self, scope: TaskScope, parent: QWidget | None = None) -> None:
        super().__init__("Ready-made agents", parent)
        self._scope = scope
        #: True once the programs were looked up (tests wait for it before closing).
        self.ready = False
        self.status: dict[str, QLabel] = {}
        self.install: dict[str, QPushButton] = {}
        #: Keys of the agents found installed by the last look-up.
        self.installed: set[str] = set()
        grid = QGridLayout()
        grid.setHorizontalSpacing(12)
        for row, entry in enumerate(CATALOGUE):
            title = QLabel(f"<b>{entry.title}</b>")
            title.setToolTip(entry.spec)
            status = QLabel(self.tr("looking…"))
            set_role(status, "muted")
            cell = QVBoxLayout()
            cell.setSpacing(0)
            cell.addWidget(title)
            cell.addWidget(status)
            button = QPushButton(self.tr("Install"))
            button.setAccessibleName(self.tr("Install {title}").format(title=entry.title))
            button.setToolTip(
                self.tr("npm install {spec} into Agent Desk's data folder").format(spec=entry.spec)
            )
            button.setEnabled(False)
            button.clicked.connect(self._on_install)
            button.setProperty("entry", entry.key)
            grid.addLayout(cell, row, 0)
            grid.addWidget(button, row, 1)
            grid.setColumnStretch(0, 1)
            self.status[entry.key] = status
            self.install[entry.key] = button
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        self.log.setMaximumBlockCount(LOG_LINES)
        self.log.setFixedHeight(110)
        self.log.setVisible(False)
        self.log.setAccessibleName(self.tr("Install progress"))
        set_role(self.log, "output")
        layout = QVBoxLayout(self)
        layout.addLayout(grid)
        layout.addWidget(self.log)

    def refresh(self) -> None:
        """Look every program up again (in a worker thread)."""
        self._scope.spawn(self._lookup(), name="catalogue lookup")

    async def _lookup(self) -> None:
        self.ready = False
        found = await asyncio.to_thread(_find_all)
        for entry in CATALOGUE:
            argv = found[entry.key]
            self._show(entry, argv[0] if argv else None)
        self.ready = True

    def _show(self, entry: CatalogueEntry, program: str | None) -> None:
        status, button = self.status[entry.key], self.install[entry.key]
        where = program if program is None or len(program) < 60 else "…" + program[-58:]
        status.setText(
            where
            or QCoreApplication.translate("CatalogueBox", "Not installed · {spec}").format(
                spec=entry.spec
            )
        )
        (self.installed.add if program else self.installed.discard)(entry.key)
        status.setToolTip(program or "")
        button.setText(self.tr("Reinstall") if program else self.tr("Install"))
        button.setEnabled(True)

    def _on_install(self) -> None:
        key = str(self.sender().property("entry"))
        entry = next(e for e in CATALOGUE if e.key == key)
        self._scope.spawn(self.install_entry(entry), name=f"install {key}")

    async def install_entry(self, entry: CatalogueEntry) -> bool:
        """Install ``entry`` with npm, showing progress; True when it worked."""
        for button in self.install.values():
            button.setEnabled(False)
        self.log.setVisible(True)
        self.status[entry.key].setText(self.tr("installing…"))
        ok = False
        try:
            async for line in npm_install_lines(entry):
                self.log.appendPlainText(line)
            ok = True
        except NpmInstallError as exc:
            self.log.appendPlainText(str(exc))
        argv = await asyncio.to_thread(find_entry_program, entry)
        for other in CATALOGUE:
            self.install[other.key].setEnabled(True)
        self._show(entry, argv[0] if argv else None)
        if not ok:
            self.status[entry.key].setText(
                self.tr("install failed — see the log ({spec})").format(spec=entry.spec)
            )
        return ok
