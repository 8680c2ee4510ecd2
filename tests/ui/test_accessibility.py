"""Accessibility of the real window with a pending approval card: the accessibility tree as a
screen reader walks it (``QAccessible`` interfaces, the ones the AT-SPI bridge serves), the
announcements of a new request and of the answer that ends a turn, and the Tab order."""

from __future__ import annotations

from collections.abc import Iterator

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QAccessibleInterface
from PySide6.QtWidgets import QApplication, QLabel, QWidget
from pytestqt.qtbot import QtBot

from desktop.ui import announce
from desktop.ui.pane import ConversationPane
from desktop.ui.window import WorkspaceWindow
from tests.ui.conftest import Driver
from tests.waiting import until

Role = QAccessible.Role
#: What a user operates: each must say what it is (a name) for a screen reader.
INTERACTIVE = {
    Role.Button,
    Role.CheckBox,
    Role.RadioButton,
    Role.ComboBox,
    Role.EditableText,
    Role.List,
    Role.ListItem,
    Role.SpinBox,
    Role.Slider,
    Role.PageTab,
    Role.MenuItem,
    Role.Link,
}
#: Controls whose use is not obvious from the name alone: each also says what it does or how.
DESCRIBED = {Role.Button, Role.CheckBox, Role.RadioButton, Role.ComboBox, Role.List}
WRITE = {"tool": {"name": "Write", "args": {"file_path": "out.txt", "content": "hi\n"}}}


def walk(iface: QAccessibleInterface, path: str = "") -> Iterator[tuple[str, QAccessibleInterface]]:
    """Every visible node under ``iface`` with its path of roles and names (for messages)."""
    if not iface.isValid() or iface.state().invisible:
        return
    here = f"{path}/{iface.role().name}[{iface.text(QAccessible.Text.Name)}]"
    yield here, iface
    for i in range(iface.childCount()):
        child = iface.child(i)
        if child is not None:
            yield from walk(child, here)


def tree(widget: QWidget) -> list[tuple[str, QAccessibleInterface]]:
    root = QAccessible.queryAccessibleInterface(widget)
    assert root is not None
    return list(walk(root))


async def _pending(driver: Driver, qtbot: QtBot) -> tuple[WorkspaceWindow, ConversationPane]:
    context = await driver.acontext({"turns": [[WRITE, {"text": "**Written** `out.txt`."}]]})
    window = context.open_workspace(driver.workspace())
    window.show()
    pane = window.current
    assert pane is not None
    await until(lambda: context.addons_for(window.workspace), what="the Settings add-ons")
    pane.composer.editor.setPlainText("write it")
    qtbot.keyClick(pane.composer.editor, Qt.Key.Key_Return)
    await until(pane.pending_cards, what="the approval card")
    return window, pane


def test_tree_of_a_window_with_a_pending_card(driver: Driver, qtbot: QtBot) -> None:
    said: list[announce.Announcement] = []
    stop_listening = announce.listen(said.append)

    async def body() -> None:
        window, pane = await _pending(driver, qtbot)
        nodes = tree(window)
        roles = {iface.role() for _, iface in nodes}
        assert {Role.Button, Role.EditableText, Role.List, Role.ComboBox} <= roles
        unnamed = [
            path
            for path, iface in nodes
            if iface.role() in INTERACTIVE and not iface.text(QAccessible.Text.Name).strip()
        ]
        assert unnamed == []
        undescribed = [
            path
            for path, iface in nodes
            if iface.role() in DESCRIBED and not iface.text(QAccessible.Text.Description).strip()
        ]
        assert undescribed == []
        # The card: what will happen as its name, which keys in its description.
        approval = pane.pending_cards()[0].approval
        assert approval is not None
        card = QAccessible.queryAccessibleInterface(approval)
        assert card is not None and card.state().focusable
        assert card.text(QAccessible.Text.Name) == "Approval request: Create `out.txt` (+1)"
        keys = card.text(QAccessible.Text.Description)
        for said_key in ("Y or Enter approves once", "A approves always", "N or Escape denies"):
            assert said_key in keys
        buttons = {
            iface.text(QAccessible.Text.Name): iface.text(QAccessible.Text.Description)
            for _, iface in walk(card)
            if iface.role() == Role.Button
        }
        assert buttons["Approve once"] == "Shortcut: Y / Enter"
        assert buttons["Deny"] == "Shortcut: N / Esc"
        # The request was announced, assertively (it blocks the agent), once.
        requests = [a for a in said if a.message.startswith("Approval needed")]
        assert requests == [
            announce.Announcement(
                "Approval needed: Create `out.txt` (+1). Tab to review it, Y approves, N denies.",
                assertive=True,
            )
        ]
        # Approved by key: the turn ends and its answer is announced, politely, once.
        await until(lambda: not approval._guarded(), what="the key guard to end")
        qtbot.keyClick(approval, Qt.Key.Key_Y)
        await until(lambda: any(a.message.startswith("Agent answered") for a in said))
        answers = [a for a in said if a.message.startswith("Agent answered")]
        assert answers == [announce.Announcement("Agent answered: Written out.txt.", False)]
        # The decided card now says who decided instead of the keys.
        assert "Keys:" not in card.text(QAccessible.Text.Description)

    try:
        driver.run(body(), 60)
    finally:
        stop_listening()


def test_tab_goes_from_the_toolbar_through_the_sidebar_to_the_card_and_the_prompt(
    driver: Driver, qtbot: QtBot
) -> None:
    async def body() -> None:
        window, pane = await _pending(driver, qtbot)
        settings = window.agent_bar.widgetForAction(window.preferences_action)
        assert settings is not None
        window.activateWindow()
        settings.setFocus(Qt.FocusReason.TabFocusReason)
        await until(settings.hasFocus, what="the Settings button has the keyboard")
        approval = pane.pending_cards()[0].approval
        assert approval is not None
        sidebar = window.history.sidebar
        seen: list[QWidget] = []
        while approval not in seen and len(seen) < 20:
            widget = QApplication.focusWidget()
            assert widget is not None
            seen.append(widget)
            qtbot.keyClick(widget, Qt.Key.Key_Tab)
        named = [(type(w).__name__, w.accessibleName()) for w in seen]
        order = [settings, sidebar.search, sidebar.list, sidebar.new, approval]
        assert [w for w in seen if w in order] == order, named
        # The card keeps Tab for the next request; Shift+Tab leads on to the prompt.
        qtbot.keyClick(approval, Qt.Key.Key_Tab, Qt.KeyboardModifier.ShiftModifier)
        await until(pane.composer.editor.hasFocus, what="the prompt has the keyboard")

    driver.run(body(), 60)


def test_the_agent_label_takes_the_keyboard_to_the_picker(driver: Driver) -> None:
    async def body() -> None:
        context = await driver.acontext({})
        window = context.open_workspace(driver.workspace())
        [label] = [w for w in window.agent_bar.findChildren(QLabel) if "&" in w.text()]
        assert label.buddy() is window.agent_picker

    driver.run(body(), 30)
