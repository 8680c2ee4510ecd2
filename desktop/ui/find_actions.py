"""Edit ▸ Find…, Find Next, Find Previous and Find in Conversations…: the window's find keys.

Ctrl+F (the platform's Find key) opens the find bar of the conversation shown
(``desktop.ui.conversation.find_bar``); F3 / Shift+F3 (and Ctrl+G / Ctrl+Shift+G) step through
its hits from anywhere in the window; Ctrl+Shift+F searches every conversation of the workspace
(the sidebar's search field), as "Find in Files" does beside "Find" in an editor.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from desktop.ui.i18n import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMenu

    from desktop.ui.menu_window import MenuWindow

__all__ = ["add_actions"]


def add_actions(add: Callable[..., object], menu: QMenu, window: MenuWindow) -> None:
    """The find actions in ``menu`` (``add`` is ``WindowMenus._add``)."""
    from PySide6.QtGui import QAction, QKeySequence  # not before the first paint

    keys = QKeySequence.StandardKey

    def find() -> None:
        pane = window.current
        if pane is None:
            everywhere()
        else:
            pane.find_bar.open()

    def step(forward: bool) -> Callable[[], None]:
        def go() -> None:
            pane = window.current
            if pane is not None:
                pane.find_bar.next() if forward else pane.find_bar.previous()

        return go

    def everywhere() -> None:
        window.show_sidebar(True)
        window.history.focus_search()

    add(menu, "find", QT_TRANSLATE_NOOP("Menus", "&Find…"), keys.Find, find)
    for name, text, key, forward in (
        ("findNext", QT_TRANSLATE_NOOP("Menus", "Find &Next"), keys.FindNext, True),
        ("findPrevious", QT_TRANSLATE_NOOP("Menus", "Find Pre&vious"), keys.FindPrevious, False),
    ):
        action = add(menu, name, text, None, step(forward))
        assert isinstance(action, QAction)
        action.setShortcuts(QKeySequence.keyBindings(key))  # F3 and Ctrl+G, Cmd+G on macOS
    everywhere_text = QT_TRANSLATE_NOOP("Menus", "Find in &Conversations…")
    add(menu, "findEverywhere", everywhere_text, "Ctrl+Shift+F", everywhere)
