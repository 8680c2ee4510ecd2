"""Help ▸ Check for Updates and the automatic check, in a real window (offscreen).

The feed is the fake releases server on 127.0.0.1 (``AGENTDESK_UPDATE_FEED``): a newer release
opens a non-modal box with the version, the notes and Download; a failed check says why; a
server that never answers leaves the window running its loop, and closing the window ends the
check. The automatic check speaks only of a newer release, at most once a day, and not at all
when Settings turns it off.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton

from desktop import __version__
from desktop.core.paths import app_paths
from desktop.core.updates import CheckSchedule, UpdateStatus
from desktop.ui import updates
from desktop.ui.window import WorkspaceWindow
from tests.fakes.fake_releases import ReleaseFeed
from tests.ui.conftest import Driver
from tests.ui.test_window_layout import _menu, _open


@pytest.fixture
def feed() -> Iterator[ReleaseFeed]:
    server = ReleaseFeed(same=f"v{__version__}", older="v0.0.1")
    yield server
    server.close()


def _boxes() -> list[QMessageBox]:
    return [
        w
        for w in QApplication.topLevelWidgets()
        if isinstance(w, QMessageBox) and w.objectName() == "updateBox" and w.isVisible()
    ]


def _window(driver: Driver) -> WorkspaceWindow:
    window = _open(driver, {})
    driver.wait(lambda: "updates" in window.menus.actions, 15, "the Help menu's actions")
    return window


def _newer_feed(monkeypatch: pytest.MonkeyPatch, feed: ReleaseFeed, path: str) -> None:
    """The fake feed's ``path``, with a tag above the running version for ``/newer``."""
    monkeypatch.setenv("AGENTDESK_UPDATE_FEED", feed.url(path))


def test_help_check_for_updates_shows_the_newer_release(
    driver: Driver, feed: ReleaseFeed, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = _window(driver)
    action = window.menus.actions["updates"]
    assert action in _menu(window, "Help").actions()
    assert action.text().replace("&", "") == "Check for Updates…"
    _newer_feed(monkeypatch, feed, "/newer")
    driver.call(action.trigger)
    driver.wait(lambda: _boxes(), 15, "the update box")
    (box,) = _boxes()
    assert "Agent Desk 9.1.0 is available" in box.text() and __version__ in box.text()
    assert "Update check in the Help menu" in box.informativeText()
    assert "https://github.com/agentdesk/agentdesk/releases/tag/v9.1.0" in box.informativeText()
    assert not box.isModal()
    download = box.findChild(QPushButton, "updateDownload")
    assert download is not None and download.text() == "Download…"
    assert [path for path, _headers in feed.requests] == ["/newer"]
    box.close()


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/malformed", "something that is not a release"),
        ("/error", "answered with an error"),
        ("/unreachable", "could not be reached"),
    ],
)
def test_a_failed_check_says_why(
    driver: Driver,
    feed: ReleaseFeed,
    monkeypatch: pytest.MonkeyPatch,
    path: str,
    words: str,
) -> None:
    window = _window(driver)
    url = "http://127.0.0.1:9/releases/latest" if path == "/unreachable" else feed.url(path)
    monkeypatch.setenv("AGENTDESK_UPDATE_FEED", url)
    driver.call(window.menus.actions["updates"].trigger)
    driver.wait(lambda: _boxes(), 15, "the update box")
    (box,) = _boxes()
    assert box.text() == "<h3>Could not check for updates.</h3>"
    assert words in box.informativeText()
    assert box.icon() == QMessageBox.Icon.Warning
    box.close()


def test_a_silent_server_never_hangs_the_window(
    driver: Driver, feed: ReleaseFeed, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = _window(driver)
    monkeypatch.setenv("AGENTDESK_UPDATE_FEED", feed.url("/silent"))
    driver.call(window.menus.actions["updates"].trigger)
    driver.wait(lambda: ("/silent",) in [(p,) for p, _h in feed.requests], 15, "the request")
    assert updates.checker()._checking
    ticks: list[int] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start(10)
    driver.wait(lambda: len(ticks) >= 5, 15, "the loop to go on while the check waits")
    timer.stop()
    assert "Checking for updates" in window.statusBar().currentMessage()
    assert _boxes() == []
    # A second click while it waits does not start a second check.
    driver.call(window.menus.actions["updates"].trigger)
    assert [p for p, _h in feed.requests].count("/silent") == 1
    # Closing the window ends the check with it (the driver checks no task is left).


def test_the_automatic_check_speaks_only_of_a_newer_release(
    driver: Driver, feed: ReleaseFeed, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = _window(driver)
    monkeypatch.setattr(updates, "AUTOMATIC_DELAY", 0.0)
    schedule = CheckSchedule(app_paths().data / "updates.json")
    schedule.path.unlink(missing_ok=True)

    monkeypatch.setenv("AGENTDESK_UPDATE_FEED", feed.url("/same"))
    same = updates.UpdateChecker()
    driver.call(same.start_automatic, window, True)
    driver.wait(lambda: same.last is not None, 15, "the automatic check")
    assert same.last is not None and same.last.status is UpdateStatus.CURRENT
    assert _boxes() == [] and schedule.last() is not None

    monkeypatch.setenv("AGENTDESK_UPDATE_FEED", feed.url("/newer"))
    again = updates.UpdateChecker()
    driver.call(again.start_automatic, window, True)  # checked less than a day ago: not due
    driver.wait(lambda: window.scope.tasks == set(), 15, "the skipped check to end")
    assert again.last is None and [p for p, _h in feed.requests] == ["/same"]

    schedule.path.unlink()
    off = updates.UpdateChecker()
    driver.call(off.start_automatic, window, False)  # Settings ▸ Check for updates: off
    assert off.automatic_started and window.scope.tasks == set()

    newer = updates.UpdateChecker()
    driver.call(newer.start_automatic, window, True)
    driver.wait(lambda: _boxes(), 15, "the update box")
    assert newer.last is not None and newer.last.status is UpdateStatus.NEWER
    assert [p for p, _h in feed.requests] == ["/same", "/newer"]
    _boxes()[0].close()


def test_the_setting_is_on_by_default_and_shown_in_settings(driver: Driver) -> None:
    window = _window(driver)
    settings = window.host.settings.settings
    assert settings.check_for_updates is True
    field = type(settings).model_fields["check_for_updates"]
    assert field.title == "Check for updates" and "Nothing is sent" in (field.description or "")
