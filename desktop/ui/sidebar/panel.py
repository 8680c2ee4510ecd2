"""The sidebar widget: workspace name, search field, conversations or hits, inline bars.

It only shows things and reports what the user did; ``WindowHistory`` does the work.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6 import QtCore
from PySide6.QtCore import QEvent, QObject, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QLineEdit,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.ui import theme
from desktop.ui.icons import Icon, decorate

if TYPE_CHECKING:
    from desktop.ui.sidebar.bars import ConfirmDeleteBar, UndoBar
    from desktop.ui.sidebar.lists import ConversationList
    from desktop.ui.sidebar.results import SearchResults

# ``QtCore.Qt`` inside methods, not ``Qt`` at import: the first window paints this sidebar
# before the ``Qt`` enums are built (see ``desktop.ui.theme``).

#: Typing pauses this long before a search runs.
SEARCH_DELAY_MS = 180

_QSS = """
QLineEdit#sidebarSearch {{ background: {window}; border: 1px solid {border}; border-radius: 8px;
    padding: 6px 10px; margin: 0 10px; }}
QLineEdit#sidebarSearch:focus {{ border: 1px solid {accent}; }}
QLineEdit#renameEditor {{ background: {window}; border: 1px solid {accent}; border-radius: 5px;
    padding: 2px 6px; }}
QLabel#sidebarHint {{ color: {muted}; font-size: 9pt; padding: 2px 14px; }}
QFrame#sidebarBar {{ background: {surface}; border: 1px solid {border}; border-radius: 8px;
    margin: 0 8px; }}
QPushButton#barClose {{ border: none; background: transparent; color: {muted}; padding: 4px 6px; }}
QPushButton#newConversation {{ padding: 7px 12px; }}
QFrame#sidebarListEmpty {{ background: {sidebar}; border: none; }}
"""


class HistorySidebar(QWidget):
    """The conversations sidebar of a workspace window.

    ``lazy=True`` (the first window, painted before the history loads): the two lists, the
    inline bars and the Undo key are made by ``complete``, on first use; until then the list
    area is empty, as the list itself is before the history has loaded.

    Signals:
        new_requested(): "New conversation" was pressed.
        search_requested(str): the search text settled (empty: back to the list).
        undo_requested(): Undo (the bar's button, Ctrl+Z while the bar is up, ``undo_delete``).
        can_undo_changed(bool): Undo became possible (the bar is up) or not; an Edit ▸ Undo
            action follows it.
        leave_requested(): Esc in the empty search field: the window gives the composer the
            keyboard.
    """

    new_requested = Signal()
    search_requested = Signal(str)
    undo_requested = Signal()
    can_undo_changed = Signal(bool)
    leave_requested = Signal()

    def __init__(
        self,
        workspace_name: str,
        tooltip: str,
        parent: QWidget | None = None,
        *,
        lazy: bool = False,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("sidebar")
        self.setMinimumWidth(200)  # the window works from 640 px wide
        theme.follow(self, _QSS)
        self._column = column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 10)
        column.setSpacing(6)
        name = QLabel(workspace_name)
        name.setObjectName("workspaceName")
        name.setToolTip(tooltip)
        column.addWidget(name)
        self.search = QLineEdit()
        self.search.setObjectName("sidebarSearch")
        self.search.setPlaceholderText(self.tr("Search"))
        tip = self.tr("Search every conversation of this workspace (Ctrl+Shift+F)")
        self.search.setToolTip(tip)
        self.search.setAccessibleName(self.tr("Search conversations"))
        column.addWidget(self.search)
        self.heading = QLabel(self.tr("CONVERSATIONS"))
        self.heading.setObjectName("sidebarTitle")
        column.addWidget(self.heading)
        self.hint = QLabel()
        self.hint.setObjectName("sidebarHint")
        self.hint.setWordWrap(True)
        self.hint.hide()
        column.addWidget(self.hint)
        self.stack = QStackedWidget()
        self._empty: QFrame | None = None
        if lazy:  # until ``complete``: the list's background, as the empty list shows it
            self._empty = QFrame(self.stack)
            self._empty.setObjectName("sidebarListEmpty")
            self.stack.addWidget(self._empty)
        column.addWidget(self.stack, 1)
        self.new = QPushButton(self.tr("New conversation"))
        self.new.setObjectName("newConversation")
        decorate(self.new, Icon.NEW_CONVERSATION)
        self.new.setAccessibleName(self.tr("New conversation"))
        self.new.setToolTip(self.tr("Start a new conversation (Ctrl+N)"))
        wrap = QVBoxLayout()
        wrap.setContentsMargins(10, 0, 10, 0)
        wrap.addWidget(self.new)
        column.addLayout(wrap)
        self._search_timer: QTimer | None = None  # made at the first keystroke (``_timer``)
        self._parts: tuple[ConversationList, SearchResults, ConfirmDeleteBar, UndoBar] | None = None
        self._connect_signals()
        if not lazy:
            self.complete()

    def complete(self) -> None:
        """Make the lists, the inline bars and the Undo key (once)."""
        if self._parts is not None:
            return
        from PySide6.QtGui import QKeySequence, QShortcut

        from desktop.ui.sidebar.bars import ConfirmDeleteBar, UndoBar
        from desktop.ui.sidebar.lists import ConversationList
        from desktop.ui.sidebar.results import SearchResults

        conversations, results = ConversationList(), SearchResults()
        self.stack.addWidget(conversations)
        self.stack.addWidget(results)
        if self._empty is not None:
            self.stack.removeWidget(self._empty)
            self._empty.deleteLater()
            self._empty = None
        confirm, undo = ConfirmDeleteBar(), UndoBar()
        below = self._column.indexOf(self.stack) + 1
        self._column.insertWidget(below, confirm)
        self._column.insertWidget(below + 1, undo)
        self._parts = (conversations, results, confirm, undo)
        # Ctrl+Z anywhere in the window while the bar is up (a text field keeps its own undo:
        # it takes the key first); off otherwise, so it never shadows another Undo.
        self._undo_key: QShortcut | None = QShortcut(QKeySequence.StandardKey.Undo, self)
        self._undo_key.setContext(QtCore.Qt.ShortcutContext.WindowShortcut)
        self._undo_key.setEnabled(False)
        self._undo_key.activated.connect(self.undo_delete)
        undo.undo_requested.connect(self.undo_requested)
        undo.shown.connect(self._on_undo_shown)
        # The field is empty until then (so the clear button hidden), and its keys lead to
        # the lists: both wait for them.
        self.search.setClearButtonEnabled(True)
        self.search.installEventFilter(self)

    def _completed(self) -> tuple[ConversationList, SearchResults, ConfirmDeleteBar, UndoBar]:
        self.complete()
        assert self._parts is not None
        return self._parts

    def tab_chain(self) -> list[QWidget]:
        """Its widgets in Tab order: search, the lists (the one shown takes the key), New."""
        conversations, results, _confirm, _undo = self._completed()
        return [self.search, conversations, results, self.new]

    @property
    def list(self) -> ConversationList:
        """The workspace's conversations."""
        return self._completed()[0]

    @property
    def results(self) -> SearchResults:
        """Search hits (shown instead of the conversations while searching)."""
        return self._completed()[1]

    @property
    def confirm(self) -> ConfirmDeleteBar:
        """The inline "Delete …?" bar."""
        return self._completed()[2]

    @property
    def undo(self) -> UndoBar:
        """The inline Undo bar."""
        return self._completed()[3]

    # ------------------------------------------------------------------ undo
    @property
    def can_undo(self) -> bool:
        """Whether a deletion can be undone now (the Undo bar is up)."""
        return self._parts is not None and not self.undo.isHidden()

    def undo_delete(self) -> bool:
        """Undo the latest deletion while the Undo bar is up (Ctrl+Z, Edit ▸ Undo); False when
        there is nothing to undo."""
        if not self.can_undo:
            return False
        self.undo_requested.emit()
        return True

    def release_undo_key(self) -> None:
        """The window's own Edit ▸ Undo takes Ctrl+Z (and calls ``undo_delete`` when
        ``can_undo``): the sidebar's key goes, so the two never make the key ambiguous."""
        self.complete()
        if self._undo_key is not None:
            self._undo_key.setEnabled(False)
            self._undo_key.deleteLater()
            self._undo_key = None

    def _on_undo_shown(self, shown: bool) -> None:
        if self._undo_key is not None:
            self._undo_key.setEnabled(shown)
        self.can_undo_changed.emit(shown)

    def _connect_signals(self) -> None:
        self.new.clicked.connect(self.new_requested)
        self.search.textChanged.connect(self._on_text)

    @property
    def _timer(self) -> QTimer:
        """The pause after typing before a search runs (made on first use, not before the
        first paint)."""
        if self._search_timer is None:
            self._search_timer = QTimer(self)
            self._search_timer.setSingleShot(True)
            self._search_timer.setInterval(SEARCH_DELAY_MS)
            self._search_timer.timeout.connect(self._on_settled)
        return self._search_timer

    # ------------------------------------------------------------------ search
    def focus_search(self) -> None:
        """Ctrl+Shift+F: put the cursor in the search field, its text selected."""
        self.search.setFocus(QtCore.Qt.FocusReason.ShortcutFocusReason)
        self.search.selectAll()

    @property
    def searching(self) -> bool:
        """Whether the hits are shown instead of the conversations."""
        return self.stack.currentWidget() is self.results

    def _on_text(self, text: str) -> None:
        if text.strip():
            self._timer.start()
        else:
            if self._search_timer is not None:
                self._search_timer.stop()
            self._on_settled()

    def _on_settled(self) -> None:
        query = self.search.text().strip()
        self.stack.setCurrentWidget(self.results if query else self.list)
        self.heading.setText(self.tr("RESULTS") if query else self.tr("CONVERSATIONS"))
        if not query:
            self.results.clear()
            self.show_hint("")
        self.search_requested.emit(query)

    def show_hint(self, text: str) -> None:
        """A muted line under the heading ("No matches", "History unavailable: …")."""
        self.hint.setText(text)
        self.hint.setVisible(bool(text))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        is_key = isinstance(event, QKeyEvent) and event.type() == QEvent.Type.KeyPress
        if watched is self.search and is_key and self._search_key(event):  # type: ignore[arg-type]
            return True
        return super().eventFilter(watched, event)

    def _search_key(self, event: QKeyEvent) -> bool:
        qt = QtCore.Qt
        key = event.key()
        if key == qt.Key.Key_Escape:  # clears the search; in an empty field, leaves it
            if self.search.text():
                self.search.clear()
            else:
                self.leave_requested.emit()
            return True
        if key == qt.Key.Key_Down and self.searching and self.results.count():
            self.results.setFocus()
            return True
        if key in (qt.Key.Key_Return, qt.Key.Key_Enter) and self.searching:
            timer = self._search_timer
            if timer is not None and timer.isActive():  # Enter before the pause: search now
                timer.stop()
                self._on_settled()
                return True
            item = self.results.currentItem()
            if item is not None:
                self.results.itemActivated.emit(item)
            return True
        return False
