"""Window plug-ins in a real window: told of every conversation however it is made or closed.

A recording plug-in is installed on a real ``WorkspaceWindow`` (fake aionrs agent, real history
file); new, reopened-from-history and removed conversations each reach it, and the Settings
add-ons (the app's own plug-in) give every conversation's composer its "Suggest" action, placed
before Stop and Send.
"""

from __future__ import annotations

from desktop.core.events import SessionState
from desktop.ui.pane import ConversationPane
from desktop.ui.window import WorkspaceWindow
from tests.ui.conftest import Driver


class Recorder:
    """A ``WindowPlugin`` that writes down what the window tells it."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, object]] = []

    def install(self, window: WorkspaceWindow) -> None:
        self.calls.append(("install", window))

    def pane_added(self, pane: ConversationPane) -> None:
        self.calls.append(("added", pane))

    def pane_removed(self, pane: ConversationPane) -> None:
        self.calls.append(("removed", pane))


def _suggest_before_stop(pane: ConversationPane) -> bool:
    composer = pane.composer
    button = composer.action_buttons.get("suggest")
    if button is None:
        return False
    row = composer._row
    return row.indexOf(button) == row.indexOf(composer.stop) - 1


def test_plugins_see_new_reopened_and_removed_conversations(driver: Driver) -> None:
    folder = driver.workspace()
    context = driver.context({"turns": [[{"text": "Answer one"}]]})
    window = driver.open(context, folder)
    first = window.current
    assert first is not None
    recorder = Recorder()
    driver.call(window.install_plugin, recorder)
    assert recorder.calls == [("install", window), ("added", first)]  # the pane it already had

    driver.call(first.submit, "question one", [])
    driver.wait(lambda: first.session.state == SessionState.IDLE, what="answer")
    driver.call(window.new_conversation)
    second = window.current
    assert second is not None and second is not first
    assert recorder.calls[-1] == ("added", second)
    driver.run(second.aclose())  # as the sidebar's Delete does, before taking it out
    driver.call(window.remove_pane, second)
    assert recorder.calls[-1] == ("removed", second)
    assert all(_suggest_before_stop(pane) for pane in window.panes)
    engine = window.history.engine
    assert engine is not None
    driver.wait(lambda: any(e.stored for e in engine.entries), what="first conversation stored")
    driver.close_all()

    context = driver.context({"turns": []})
    window = driver.open(context, folder)
    recorder = Recorder()
    driver.call(window.install_plugin, recorder)
    engine = window.history.engine
    assert engine is not None
    driver.wait(lambda: any(e.stored for e in engine.entries), what="listed")
    entry = next(e for e in engine.entries if e.stored)
    reopened = driver.run(engine.open_stored(entry))
    assert isinstance(reopened, ConversationPane) and reopened in window.panes
    assert recorder.calls[-1] == ("added", reopened)
    assert _suggest_before_stop(reopened)
