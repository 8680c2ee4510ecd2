"""Help ▸ About: the version and where Agent Desk keeps its files; the application icon."""

from __future__ import annotations

import platform
import sys
from pathlib import Path

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QMessageBox, QWidget

from desktop import __version__


def _icon_folders() -> list[Path]:
    """The bundle's resources when frozen (PyInstaller), the checkout's otherwise."""
    folders = [Path(__file__).resolve().parents[2] / "resources" / "icons"]
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        folders.insert(0, Path(bundle) / "resources" / "icons")
    return folders


def app_icon() -> QIcon:
    """The Agent Desk icon in every size that is available (empty when none is)."""
    icon = QIcon()
    for folder in _icon_folders():
        for png in sorted(folder.glob("agentdesk-*.png")):
            icon.addFile(str(png))
        if not icon.isNull():
            break
    return icon


def about_text() -> str:
    """The About box's text (rich text)."""
    from desktop.core.paths import app_paths

    paths = app_paths()

    return (
        f"<h3>Agent Desk {__version__}</h3><p>"
        + QCoreApplication.translate(
            "About",
            "A desktop host for AI coding agents: every edit and command is shown first and "
            "approved from the keyboard.",
        )
        + f"</p><p>Python {platform.python_version()} · Qt for Python {pyside_version}</p><p>"
        + QCoreApplication.translate(
            "About", "Settings: {config}<br>Data: {data}<br>Logs: {logs}"
        ).format(config=paths.config, data=paths.data, logs=paths.logs)
        + "</p>"
    )


def show_about(parent: QWidget) -> QMessageBox:
    """Open the About box without blocking the event loop (``open()``, never ``exec()``)."""
    box = QMessageBox(parent)
    box.setWindowTitle(QCoreApplication.translate("About", "About Agent Desk"))
    box.setIconPixmap(app_icon().pixmap(64, 64))
    box.setText(about_text())
    box.setAccessibleName(QCoreApplication.translate("About", "About Agent Desk"))
    box.open()
    return box
