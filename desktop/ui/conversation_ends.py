"""Ctrl+Home / Ctrl+End: the conversation's top and bottom, from the keyboard.

From the transcript (a shortcut on the view and its children) and from the composer while it is
empty (in a prompt being written the keys keep their text meaning: start and end of the text).
Ctrl+End also follows new output again, as "Jump to latest" does.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import QPlainTextEdit

from desktop.ui.conversation.view import ConversationView

_CTRL_HOME = QKeySequence(Qt.Modifier.CTRL | Qt.Key.Key_Home)
_CTRL_END = QKeySequence(Qt.Modifier.CTRL | Qt.Key.Key_End)


class ConversationEnds(QObject):
    """Moves ``view`` to its top or bottom on Ctrl+Home / Ctrl+End (see the module docstring)."""

    def __init__(self, view: ConversationView, editor: QPlainTextEdit) -> None:
        super().__init__(view)
        self._view = view
        self._editor = editor
        for keys, slot in ((_CTRL_HOME, self.top), (_CTRL_END, self.bottom)):
            shortcut = QShortcut(keys, view)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)
        editor.installEventFilter(self)

    def top(self) -> None:
        """Show the beginning of the conversation (new output no longer pulls it down)."""
        bar = self._view.verticalScrollBar()
        bar.setValue(bar.minimum())

    def bottom(self) -> None:
        """Show the end of the conversation and follow new output."""
        self._view.follow()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Ctrl+Home / Ctrl+End in the empty composer."""
        kind = event.type()
        if watched is not self._editor or not isinstance(event, QKeyEvent):
            return False
        if kind not in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride):
            return False
        keys = QKeySequence(event.keyCombination())
        if keys not in (_CTRL_HOME, _CTRL_END) or not self._editor.document().isEmpty():
            return False
        if kind == QEvent.Type.KeyPress:
            self.top() if keys == _CTRL_HOME else self.bottom()
        event.accept()
        return True
