"""The workspace window's menu bar, laid out as desktop applications do.

File, Edit, View, Conversation, Window, Help. Edit's Undo, Redo, Cut, Copy, Paste and Select
All act on the widget that has the keyboard (the prompt, the search field, a selectable text);
Undo with nothing to undo there brings back the conversation deleted last while its Undo bar
shows. Settings is the Preferences item: under Edit on Linux and Windows, moved by Qt to the
application menu on macOS (``MenuRole.PreferencesRole``). View holds zoom (every element
follows, ``desktop.ui.zoom``), the sidebar (Ctrl+B), the theme (saved as Settings ▸ Appearance
saves it) and Review Changes (the shown conversation's first edit waiting for approval, full-window;
Ctrl+Shift+R, the key a pending card's Review button has).

The menu titles exist from the first frame; their actions are added right after it
(``add_actions``), because ``QKeySequence`` and the actions cost a tenth of a start-up.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication

from desktop.ui.i18n import QT_TRANSLATE_NOOP
from desktop.ui.text_focus import text_field

if TYPE_CHECKING:
    from collections.abc import Callable

    from PySide6.QtGui import QAction, QKeySequence
    from PySide6.QtWidgets import QLineEdit, QMenu, QPlainTextEdit, QTextEdit

    from desktop.ui.menu_window import MenuWindow

#: Edit actions: slots of the focused text field (QLineEdit, QPlainTextEdit, QTextEdit).
_EDIT_SLOTS = ("undo", "redo", "cut", "copy", "paste", "selectAll")
#: View ▸ Theme's actions (named ``theme`` + ``core.settings.Theme`` value, titled) and texts.
_THEMES = (
    ("themeLight", QT_TRANSLATE_NOOP("Menus", "&Light")),
    ("themeDark", QT_TRANSLATE_NOOP("Menus", "&Dark")),
    ("themeSystem", QT_TRANSLATE_NOOP("Menus", "Follow the &System")),
)


def tr(text: str) -> str:
    """``text`` translated (context "Menus")."""
    return QCoreApplication.translate("Menus", text)


class WindowMenus:
    """The menus of one window; ``actions`` by name once ``add_actions`` has run."""

    def __init__(self, window: MenuWindow) -> None:
        self.window = window
        bar = window.menuBar()
        titles = (
            QT_TRANSLATE_NOOP("Menus", "&File"),
            QT_TRANSLATE_NOOP("Menus", "&Edit"),
            QT_TRANSLATE_NOOP("Menus", "&View"),
            QT_TRANSLATE_NOOP("Menus", "&Conversation"),
            QT_TRANSLATE_NOOP("Menus", "&Window"),
            QT_TRANSLATE_NOOP("Menus", "&Help"),
        )
        self.file, self.edit, self.view, self.conversation, self.windows, self.help = (
            bar.addMenu(tr(title)) for title in titles
        )
        self.windows.aboutToShow.connect(self._fill_windows)
        self.actions: dict[str, QAction] = {}

    def add_actions(self) -> None:
        """Every menu's actions and shortcuts."""
        from PySide6.QtGui import QKeySequence  # not before the first paint (its enums)

        keys = QKeySequence.StandardKey
        self._add_file(keys)
        self._add_edit(keys)
        self._add_view()
        self._add_conversation()
        self._add(
            self.help,
            "shortcuts",
            QT_TRANSLATE_NOOP("Menus", "&Keyboard Shortcuts…"),
            "F1",
            self.window.show_shortcuts,
        )
        from desktop.ui import updates  # Help ▸ Check for Updates…, the daily check

        updates.add_actions(self._add, self.help, self.window)
        about = QT_TRANSLATE_NOOP("Menus", "&About Agent Desk")
        self._add(self.help, "about", about, None, self.window.show_about)

    # ------------------------------------------------------------------ menus
    def _add_file(self, keys: type[QKeySequence.StandardKey]) -> None:
        window, file = self.window, self.file
        self._add(
            file,
            "new",
            QT_TRANSLATE_NOOP("Menus", "&New Conversation"),
            keys.New,
            window.new_conversation,
        )
        self._add(
            file,
            "open",
            QT_TRANSLATE_NOOP("Menus", "&Open Workspace…"),
            keys.Open,
            lambda: window.host.choose_workspace(window.window()),
        )
        self.recent = file.addMenu(QCoreApplication.translate("Menus", "Open &Recent"))
        self.recent.aboutToShow.connect(self._fill_recent)
        file.addSeparator()
        # Not StandardKey.Close/Quit: Ctrl+F4 first on some desktops, none on Windows.
        self._add(
            file, "close", QT_TRANSLATE_NOOP("Menus", "&Close Window"), "Ctrl+W", window.close
        )
        quit_ = self._add(file, "quit", QT_TRANSLATE_NOOP("Menus", "&Quit"), "Ctrl+Q", self._quit)
        quit_.setMenuRole(quit_.MenuRole.QuitRole)

    def _add_edit(self, keys: type[QKeySequence.StandardKey]) -> None:
        edit = self.edit
        self._add(edit, "undo", QT_TRANSLATE_NOOP("Menus", "&Undo"), keys.Undo, self._undo)
        self.window.history.sidebar.release_undo_key()  # Ctrl+Z is this action's
        self._add(
            edit,
            "redo",
            QT_TRANSLATE_NOOP("Menus", "&Redo"),
            keys.Redo,
            lambda: self._on_focused("redo"),
        )
        edit.addSeparator()
        self._add(
            edit,
            "cut",
            QT_TRANSLATE_NOOP("Menus", "Cu&t"),
            keys.Cut,
            lambda: self._on_focused("cut"),
        )
        self._add(
            edit,
            "copy",
            QT_TRANSLATE_NOOP("Menus", "&Copy"),
            keys.Copy,
            lambda: self._on_focused("copy"),
        )
        self._add(
            edit,
            "paste",
            QT_TRANSLATE_NOOP("Menus", "&Paste"),
            keys.Paste,
            lambda: self._on_focused("paste"),
        )
        select_all = keys.SelectAll
        self._add(
            edit,
            "selectAll",
            QT_TRANSLATE_NOOP("Menus", "Select &All"),
            select_all,
            lambda: self._on_focused("selectAll"),
        )
        edit.addSeparator()
        from desktop.ui import find_actions  # Find…, Find Next / Previous, in Conversations…

        find_actions.add_actions(self._add, edit, self.window)
        edit.addSeparator()
        settings = self._add(
            edit, "preferences", QT_TRANSLATE_NOOP("Menus", "&Settings…"), "Ctrl+,", None
        )
        settings.setMenuRole(settings.MenuRole.PreferencesRole)
        settings.setEnabled(False)  # until a plug-in (the Settings add-on) connects it
        edit.aboutToShow.connect(self._update_edit)
        edit.aboutToHide.connect(self._enable_edit)  # a disabled action's key would not work

    def _add_view(self) -> None:
        view, window = self.view, self.window
        zoom_in = self._add(
            view, "zoomIn", QT_TRANSLATE_NOOP("Menus", "Zoom &In"), "Ctrl+=", lambda: window.zoom(1)
        )
        zoom_in.setShortcuts([zoom_in.shortcut(), _sequence("Ctrl++")])
        self._add(
            view,
            "zoomOut",
            QT_TRANSLATE_NOOP("Menus", "Zoom &Out"),
            "Ctrl+-",
            lambda: window.zoom(-1),
        )
        self._add(
            view,
            "zoomReset",
            QT_TRANSLATE_NOOP("Menus", "&Actual Size"),
            "Ctrl+0",
            lambda: window.zoom(0),
        )
        view.addSeparator()
        sidebar = self._add(
            view, "sidebar", QT_TRANSLATE_NOOP("Menus", "&Sidebar"), "Ctrl+B", window.toggle_sidebar
        )
        sidebar.setCheckable(True)
        sidebar.setChecked(window.history.sidebar.isVisibleTo(window.window()))
        self._add_theme()
        view.addSeparator()
        from desktop.ui.diff import REVIEW_SHORTCUT  # a pending card's Review key

        self._add(view, "review", "&Review Changes", REVIEW_SHORTCUT, self._review)
        self._add(
            view,
            "reviewConversation",
            QT_TRANSLATE_NOOP("Menus", "Review &Conversation Changes"),
            "Ctrl+Alt+R",
            self._review_conversation,
        )

    def _review_conversation(self) -> None:
        """Review everything the shown conversation changed (its checkpoints)."""
        pane = self.window.current
        if pane is None or not self.window.review.review_conversation(pane):
            self.window.show_message(
                QCoreApplication.translate("Menus", "No changes recorded in this conversation")
            )

    def _add_theme(self) -> None:
        """View ▸ Theme: Light, Dark, Follow the System; saved as Settings ▸ Appearance is."""
        from PySide6.QtGui import QActionGroup

        self.theme = self.view.addMenu(QCoreApplication.translate("Menus", "&Theme"))
        self.theme.setObjectName("themeMenu")
        group = QActionGroup(self.theme)
        group.setExclusive(True)
        for name, text in _THEMES:
            action = self._add(self.theme, name, text, None, partial(self._choose_theme, name))
            action.setCheckable(True)
            group.addAction(action)
        self.theme.aboutToShow.connect(self._check_theme)

    def _check_theme(self) -> None:
        chosen = self.window.host.settings.settings.appearance.theme
        for name, _text in _THEMES:
            self.actions[name].setChecked(name == f"theme{chosen.value.title()}")

    def _choose_theme(self, name: str) -> None:
        from desktop.core.settings import Theme
        from desktop.ui.settings.appearance import choose_theme

        choose_theme(self.window.host.settings, Theme(name.removeprefix("theme").lower()))
        self._check_theme()

    def _review(self) -> None:
        """Review the shown conversation's first pending edit, or say there is none."""
        pane = self.window.current
        if pane is None or not self.window.review.open_first_pending(pane):
            self.window.show_message(
                QCoreApplication.translate(
                    "Menus", "Nothing to review: no change is waiting for approval"
                )
            )

    def _add_conversation(self) -> None:
        menu, window, history = self.conversation, self.window, self.window.history
        self._add(menu, "stop", QT_TRANSLATE_NOOP("Menus", "&Stop"), "Ctrl+.", window.stop_current)
        if "reviewConversation" in self.actions:  # the View menu's, shown here too
            menu.addAction(self.actions["reviewConversation"])
        menu.addSeparator()
        self._add(
            menu, "rename", QT_TRANSLATE_NOOP("Menus", "&Rename"), "F2", history.rename_current
        )
        self._add(
            menu,
            "exportMd",
            QT_TRANSLATE_NOOP("Menus", "Export as &Markdown…"),
            None,
            lambda: history.export(None, "md"),
        )
        self._add(
            menu,
            "exportJson",
            QT_TRANSLATE_NOOP("Menus", "Export as &JSON…"),
            None,
            lambda: history.export(None, "json"),
        )
        self._add(
            menu,
            "delete",
            QT_TRANSLATE_NOOP("Menus", "&Delete…"),
            None,
            lambda: history.ask_delete(None),
        )

    def _add(
        self,
        menu: QMenu,
        name: str,
        text: str,
        keys: str | QKeySequence.StandardKey | None,
        slot: Callable[[], object] | None,
    ) -> QAction:
        from PySide6.QtGui import QAction

        action = QAction(tr(text), self.window.window())
        action.setObjectName(f"{name}Action")
        if keys is not None:
            action.setShortcut(_sequence(keys))
        if slot is not None:
            action.triggered.connect(slot)
        menu.addAction(action)
        self.actions[name] = action
        return action

    # ------------------------------------------------------------------ Edit
    def _update_edit(self) -> None:
        field = text_field()
        writable = field is not None and not field.isReadOnly()
        for name in _EDIT_SLOTS:
            enabled = field is not None and (writable or name in ("copy", "selectAll"))
            self.actions[name].setEnabled(enabled)
        undo_delete = self._undo_delete_available() and not _can_undo(field)
        self.actions["undo"].setText(
            QCoreApplication.translate("Menus", "&Undo Delete")
            if undo_delete
            else QCoreApplication.translate("Menus", "&Undo")
        )
        if undo_delete:
            self.actions["undo"].setEnabled(True)

    def _enable_edit(self) -> None:
        for name in _EDIT_SLOTS:
            self.actions[name].setEnabled(True)

    def _on_focused(self, slot: str) -> None:
        field = text_field()
        if field is not None:
            getattr(field, slot)()

    def _undo(self) -> None:
        field = text_field()
        if _can_undo(field):
            self._on_focused("undo")
        else:
            self.window.history.sidebar.undo_delete()

    def _undo_delete_available(self) -> bool:
        return self.window.history.sidebar.can_undo

    # ------------------------------------------------------------------ File, Window
    def _fill_recent(self) -> None:
        self.recent.clear()
        for path in self.window.host.recent_workspaces():
            self._open_action(self.recent, path)
        if self.recent.isEmpty():
            self.recent.addAction(QCoreApplication.translate("Menus", "(none)")).setEnabled(False)

    def _fill_windows(self) -> None:
        self.windows.clear()
        for window in self.window.host.windows():
            action = self._open_action(self.windows, window.workspace)
            action.setCheckable(True)
            action.setChecked(window is self.window)

    def _open_action(self, menu: QMenu, path: Path) -> QAction:
        action = menu.addAction(str(path))
        action.triggered.connect(lambda: self.window.host.open_workspace(path))
        return action

    def _quit(self) -> None:
        for window in self.window.host.windows():
            window.close()


def _sequence(keys: str | QKeySequence.StandardKey) -> QKeySequence:
    from PySide6.QtGui import QKeySequence

    return QKeySequence(keys)


def _can_undo(field: QLineEdit | QPlainTextEdit | QTextEdit | None) -> bool:
    """Whether ``field`` has something to undo."""
    from PySide6.QtWidgets import QLineEdit

    if field is None or field.isReadOnly():
        return False
    if isinstance(field, QLineEdit):
        return field.isUndoAvailable()
    return field.document().isUndoAvailable()
