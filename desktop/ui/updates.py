"""Help ▸ Check for Updates and the automatic daily check: what is new and where to get it.

``add_actions(menus)`` (called by ``desktop.ui.menus`` for each window) adds the Help item and,
once per run, starts the automatic check: a few seconds after the first window is up, when
Settings ▸ "Check for updates" is on and no automatic check ran in the last day
(``core.updates.CheckSchedule``). The check itself is ``desktop.core.updates.check`` (one GET of
the releases feed, bounded in time) run in the window's ``TaskScope``, so the window never waits
on the network and closing it cancels the check.

A manual check always answers in a non-modal box: a newer version (with its notes and a
Download button that opens the release page), up to date, ahead of the latest release, or why
the check failed. The automatic check speaks only when a newer version exists.
"""

from __future__ import annotations

import logging
import re
from html import escape
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QCoreApplication, QObject, Qt, QUrl
from PySide6.QtWidgets import QMessageBox, QWidget

from desktop import __version__
from desktop.ui.i18n import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from collections.abc import Callable

    from PySide6.QtWidgets import QMenu

    from desktop.core.updates import UpdateResult
    from desktop.ui.menu_window import MenuWindow
    from desktop.ui.qt_async import TaskScope

log = logging.getLogger(__name__)
MENU_TEXT = QT_TRANSLATE_NOOP("Menus", "Check for &Updates…")
# Seconds after the first window's actions exist before the automatic check: start-up first.
AUTOMATIC_DELAY = 5.0


class UpdateWindow(Protocol):
    """What the checker needs of a workspace window (``WorkspaceWindow`` has it)."""

    @property
    def scope(self) -> TaskScope:
        """The window's tasks."""

    def window(self) -> QWidget:
        """The window as the parent of the answer box."""

    def show_message(self, text: str) -> None:
        """A status-bar message."""


class UpdateChecker(QObject):
    """The app's one update checker: the manual check of any window, the automatic one once."""

    def __init__(self) -> None:
        super().__init__()
        self.automatic_started = False
        self.box: QMessageBox | None = None
        self.last: UpdateResult | None = None
        self._checking = False

    def check_now(self, window: UpdateWindow) -> None:
        """Help ▸ Check for Updates: check, then answer in a box (never blocks the window)."""
        if self._checking:
            window.show_message(
                QCoreApplication.translate("Updates", "Already checking for updates…")
            )
            return
        window.show_message(QCoreApplication.translate("Updates", "Checking for updates…"))
        window.scope.spawn(self._check(window, manual=True), name="update check")

    def start_automatic(self, window: UpdateWindow, enabled: bool) -> None:
        """The automatic check (at most once per run, and per day across runs)."""
        if self.automatic_started:
            return
        self.automatic_started = True
        if not enabled:
            log.info("automatic update check is off (Settings)")
            return
        window.scope.spawn(self._automatic(window), name="automatic update check")

    async def _automatic(self, window: UpdateWindow) -> None:
        import asyncio

        from desktop.core.paths import app_paths
        from desktop.core.updates import CheckSchedule

        schedule = CheckSchedule(app_paths().data / "updates.json")
        if not schedule.due():
            log.info("update check skipped: the last one was at %s", schedule.last())
            return
        await asyncio.sleep(AUTOMATIC_DELAY)
        schedule.mark()
        await self._check(window, manual=False)

    async def _check(self, window: UpdateWindow, *, manual: bool) -> None:
        from desktop.core.updates import UpdateStatus, check

        self._checking = True
        try:
            result = await check(__version__)
        finally:
            self._checking = False
        self.last = result
        log.info("update check: %s (latest %s)", result.status.value, result.latest)
        if manual or result.status is UpdateStatus.NEWER:
            self.box = show_result(window.window(), result, self.box)
            self.box.destroyed.connect(self._forget_box)

    def _forget_box(self) -> None:
        self.box = None

    def close_box(self) -> None:
        if self.box is not None:
            self.box.close()


def show_result(
    parent: QWidget, result: UpdateResult, previous: QMessageBox | None = None
) -> QMessageBox:
    """The answer, in a non-modal box (``show()``, never ``exec()``); replaces ``previous``."""
    from desktop.core.updates import UpdateStatus

    if previous is not None:
        previous.close()
    box = QMessageBox(parent)
    box.setObjectName("updateBox")
    box.setWindowModality(Qt.WindowModality.NonModal)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.setTextFormat(Qt.TextFormat.RichText)  # both labels: the notes are rich text
    title, text, info = _words(result)
    box.setWindowTitle(title)
    box.setText(f"<h3>{escape(text)}</h3>")
    box.setInformativeText(info if result.status is UpdateStatus.NEWER else escape(info))
    box.setAccessibleName(title)
    if result.status is UpdateStatus.NEWER:
        box.setIcon(QMessageBox.Icon.Information)
        download = box.addButton(
            QCoreApplication.translate("Updates", "Download…"), QMessageBox.ButtonRole.AcceptRole
        )
        download.setObjectName("updateDownload")
        download.clicked.connect(lambda: _open(result.url))
        box.addButton(
            QCoreApplication.translate("Updates", "Later"), QMessageBox.ButtonRole.RejectRole
        )
        box.setDefaultButton(download)
    else:
        box.setIcon(
            QMessageBox.Icon.Warning
            if result.status is UpdateStatus.FAILED
            else QMessageBox.Icon.Information
        )
        box.addButton(QMessageBox.StandardButton.Ok)
    if result.detail:
        box.setDetailedText(result.detail)
    box.show()
    return box


def _words(result: UpdateResult) -> tuple[str, str, str]:
    """(title, text, informative text) for ``result``."""
    from desktop.core.updates import UpdateProblem, UpdateStatus

    status = result.status
    if status is UpdateStatus.NEWER:
        text = QCoreApplication.translate(
            "Updates", "Agent Desk {latest} is available. You have {current}."
        ).format(latest=result.latest, current=result.current)
        link = f'<a href="{escape(result.url)}">{escape(result.url.removeprefix("https://"))}</a>'
        where = QCoreApplication.translate(
            "Updates", "Download it from the release page: {url}"
        ).format(url=link)
        return (
            QCoreApplication.translate("Updates", "Update Available"),
            text,
            f"{_notes_html(result.notes or escape(result.title))}<p>{where}</p>",
        )
    if status is UpdateStatus.CURRENT:
        text = QCoreApplication.translate(
            "Updates", "Agent Desk {current} is the latest version."
        ).format(current=result.current)
        return QCoreApplication.translate("Updates", "No Update Available"), text, ""
    if status is UpdateStatus.AHEAD:
        text = QCoreApplication.translate(
            "Updates", "This Agent Desk ({current}) is newer than the latest release ({latest})."
        )
        return (
            QCoreApplication.translate("Updates", "No Update Available"),
            text.format(current=result.current, latest=result.latest),
            "",
        )
    reasons = {
        UpdateProblem.UNREACHABLE: QCoreApplication.translate(
            "Updates",
            "The releases page could not be reached. Check the network connection and try "
            "again later.",
        ),
        UpdateProblem.HTTP_STATUS: QCoreApplication.translate(
            "Updates", "The releases page answered with an error. Try again later."
        ),
        UpdateProblem.MALFORMED: QCoreApplication.translate(
            "Updates",
            "The releases page answered with something that is not a release. Try again later.",
        ),
    }
    reason = reasons.get(result.problem) if result.problem else None
    return (
        QCoreApplication.translate("Updates", "Update Check Failed"),
        QCoreApplication.translate("Updates", "Could not check for updates."),
        reason or "",
    )


def _notes_html(notes: str) -> str:
    """The release notes (Markdown, raw HTML off) as compact rich text: headings in bold."""
    if not notes:
        return ""
    from markdown_it import MarkdownIt

    html = MarkdownIt("commonmark", {"html": False}).render(notes)
    html = re.sub(r"<h[1-6]>(.*?)</h[1-6]>", r"<p><b>\1</b></p>", html)
    return re.sub(r"<img[^>]*>", "", html)  # nothing is fetched


def _open(url: str) -> None:
    from PySide6.QtGui import QDesktopServices

    QDesktopServices.openUrl(QUrl(url))


_CHECKER: UpdateChecker | None = None


def checker() -> UpdateChecker:
    """The app's update checker (made on first use)."""
    global _CHECKER
    if _CHECKER is None:
        _CHECKER = UpdateChecker()
    return _CHECKER


def add_actions(add: Callable[..., object], menu: QMenu, window: MenuWindow) -> None:
    """Help ▸ Check for Updates… in ``window`` (``add`` is ``WindowMenus._add``); the
    automatic check on the first window."""
    target: UpdateWindow = window  # type: ignore[assignment]  # WorkspaceWindow has a scope
    add(menu, "updates", MENU_TEXT, None, lambda: checker().check_now(target))
    enabled = window.host.settings.settings.check_for_updates
    checker().start_automatic(target, enabled)
