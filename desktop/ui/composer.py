"""The composer: prompt editor, attachments, approval-mode switch, Stop and Send."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6 import QtCore
from PySide6.QtCore import QCoreApplication, QEvent, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.composer_actions import PluginButton
from desktop.ui.mode_button import _MODES, ModeButton, mode_label

__all__ = ["_MODES", "Composer", "ModeButton", "PromptEdit", "mode_label"]
from desktop.ui.icons import Icon, decorate
from desktop.ui.theme import set_role

if TYPE_CHECKING:
    from PySide6.QtGui import QDragEnterEvent, QDropEvent, QKeyEvent, QResizeEvent, QShowEvent

# ``QtCore.Qt`` inside methods, not ``Qt`` at import: the empty first window shows a composer
# before the ``Qt`` enums are built (see ``desktop.ui.theme``).

#: Seconds after the last key typed into the composer during which it is "in use": a new
#: approval request does not take keyboard focus from it (see ``PromptEdit.in_use``).
TYPING_IDLE_S = 1.5
#: ``QTextDocument``'s default ``documentMargin`` (nothing here changes it): reading it from the
#: document would make PySide build ``QTextDocument``'s class and enums before the first paint.
DOCUMENT_MARGIN = 4.0


class PromptEdit(QPlainTextEdit):
    """Enter sends, Shift+Enter inserts a new line, Esc asks to stop; files can be dropped.

    It remembers when a key was last typed into it (``time.monotonic``), so that an approval
    request arriving while the user writes leaves the keyboard here (``in_use``).

    Signals:
        send(): Enter was pressed.
        stop(): Esc was pressed.
        files_dropped(list[str]): local files were dropped on the editor.
    """

    send = Signal()
    stop = Signal()
    files_dropped = Signal(list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("composer")
        self.setPlaceholderText(
            self.tr("Ask the agent…  (Enter to send, Shift+Enter for a new line)")
        )
        self.setTabChangesFocus(True)
        self.setAcceptDrops(True)
        self.setAccessibleDescription(
            self.tr("Enter sends, Shift+Enter starts a new line, Esc stops the agent")
        )
        self.setAccessibleName(self.tr("Prompt"))
        self._last_key: float | None = None

    def fit_lines(self, lines: int = 3) -> None:
        """A fixed height of ``lines`` lines of its font (it follows zoom and font size)."""
        margins = self.contentsMargins()
        frame = 2 * DOCUMENT_MARGIN + margins.top() + margins.bottom()
        self.setFixedHeight(round(lines * self.fontMetrics().lineSpacing() + frame))

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self.fit_lines()

    def in_use(self) -> bool:
        """Whether the user is writing here: text in it, or a key typed in the last 1.5 s.

        The Enter that sent a prompt counts as typing, so "yes, and…" typed right after
        sending is never taken by a request that arrived in between.
        """
        if self.toPlainText().strip():
            return True
        last = self._last_key
        return last is not None and time.monotonic() - last < TYPING_IDLE_S

    def keyPressEvent(self, event: QKeyEvent) -> None:
        qt = QtCore.Qt
        key = event.key()
        self._last_key = time.monotonic()
        if key in (qt.Key.Key_Return, qt.Key.Key_Enter):
            if event.modifiers() & qt.KeyboardModifier.ShiftModifier:
                self.insertPlainText("\n")
            else:
                self.send.emit()
            return
        if key == qt.Key.Key_Escape:
            self.stop.emit()
            return
        super().keyPressEvent(event)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:
        urls = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if urls:
            self.files_dropped.emit(urls)
            event.acceptProposedAction()
        else:
            super().dropEvent(event)


class Composer(QWidget):
    """Bottom of a conversation.

    Signals:
        submitted(str, list[str]): the user sent a prompt with attached file paths.
        stop_requested(): Stop (button, or Esc in the editor).
        mode_chosen(str): an approval mode was picked (in the mode button's panel).
        files_changed(list[str]): the attached files changed (the chips show them).
    """

    submitted = Signal(str, list)
    stop_requested = Signal()
    mode_chosen = Signal(str)
    files_changed = Signal(list)

    def __init__(self, workspace: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.files: list[str] = []
        #: More files for a prompt from its text (the ``@`` mentions: ``composer_context``).
        self.file_sources: list[Callable[[str], list[str]]] = []
        #: The attachment chips that replace the "📎 names" line, once installed.
        self.chips: QWidget | None = None
        #: Buttons added by window plug-ins (``add_action``), by name.
        self.action_buttons: dict[str, QPushButton] = {}
        frame = QFrame()
        frame.setObjectName("composerFrame")
        self._outer = outer = QVBoxLayout(self)
        outer.setContentsMargins(24, 8, 24, 14)
        outer.addWidget(frame)
        layout = QVBoxLayout(frame)
        layout.setContentsMargins(12, 8, 12, 8)
        layout.setSpacing(6)
        self.attachments = QLabel()
        set_role(self.attachments, "muted", polished=False)
        self.attachments.setVisible(False)
        layout.addWidget(self.attachments)
        self.editor = PromptEdit()
        self.editor.fit_lines()
        layout.addWidget(self.editor)
        row = QHBoxLayout()
        row.setSpacing(8)
        self.attach = QPushButton(self.tr("Attach…"))
        self.attach.setAccessibleName(self.tr("Attach files"))
        self.attach.setToolTip(self.tr("Attach files to the next prompt"))
        decorate(self.attach, Icon.ATTACH, role="muted")
        row.addWidget(self.attach)
        self.clear_files = QPushButton(self.tr("Clear files"))
        self.clear_files.setVisible(False)
        self.clear_files.setToolTip(self.tr("Remove the attached files from the next prompt"))
        row.addWidget(self.clear_files)
        # The pane opens the mode button's panel (``desktop.ui.approvals.rules``, loaded
        # after the first frame) when it is clicked.
        self.mode = ModeButton()
        row.addWidget(self.mode)
        row.addStretch(1)
        self.stop = QPushButton(self.tr("Stop"))
        self.stop.setAccessibleName(self.tr("Stop the agent"))
        self.stop.setToolTip(self.tr("Stop the running turn (Esc in the prompt, or Ctrl+.)"))
        set_role(self.stop, "danger", polished=False)
        decorate(self.stop, Icon.STOP, role="danger")
        self.stop.setEnabled(False)
        row.addWidget(self.stop)
        self.send = QPushButton(self.tr("Send"))
        self.send.setAccessibleName(self.tr("Send the prompt"))
        self.send.setToolTip(self.tr("Send the prompt (Enter)"))
        set_role(self.send, "primary", polished=False)
        decorate(self.send, Icon.SEND, role="accent_text")
        row.addWidget(self.send)
        for button in (self.attach, self.clear_files, self.mode, self.stop, self.send):
            _never_cut(button)
        layout.addLayout(row)
        self._row = row
        #: Narrow window: short labels (``_fit``); the row's width with the full ones.
        self._compact, self._full_width = False, 0
        #: Labels of the buttons that show their icon alone while compact.
        self._full_texts: dict[QPushButton, str] = {}
        self._connect_signals()

    def add_action(self, name: str, text: str, *, accessible: str, tip: str) -> QPushButton:
        """A button of a window plug-in (e.g. "Suggest"), before Stop and Send; the caller
        connects its ``clicked``. ``name`` is its key in ``action_buttons`` and names its object."""
        button = PluginButton(text, self._follow_compact)
        button.setObjectName(f"{name}Button")
        button.setAccessibleName(accessible)
        button.setToolTip(tip)
        self._row.insertWidget(self._row.indexOf(self.stop), button)
        self.action_buttons[name] = button
        _never_cut(button)
        if self._compact:  # the row's width with every full label, this one's too
            self._full_width += button.sizeHint().width() + self._row.spacing()
            self._follow_compact(button)
        elif self.isVisible():
            button.show()  # counted in the row's width now, not at the next layout pass
            self._fit()
        return button

    def _follow_compact(self, button: QPushButton) -> None:
        """While compact, a plug-in's button shows its icon alone, as soon as it has one."""
        if self._compact and not button.icon().isNull() and button.text():
            self._full_texts[button] = button.text()
            button.setText("")

    # ------------------------------------------------------------------ narrow windows
    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._fit()  # a style or font changed while hidden, or the size is the same

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self.editor.fit_lines()
            self._set_compact(False)  # measured again at the new size
            if self.isVisible():  # hidden (a pane being built): measured when it shows
                self._fit()

    def _fit(self) -> None:
        """Short labels when the buttons would not fit with their full ones: a button's text
        is never cut ("tach", "Senc")."""
        room = self._row.contentsRect().width() or self.width() - 72
        if not self._compact and self._row.sizeHint().width() > room:
            self._full_width = self._row.sizeHint().width()
            self._set_compact(True)
        elif self._compact and self._full_width < room:
            self._set_compact(False)

    def _set_compact(self, compact: bool) -> None:
        if compact == self._compact:
            return
        self._compact = compact
        short = "" if not self.attach.icon().isNull() else "+"  # the paperclip icon alone
        self.attach.setText(short if compact else self.tr("Attach…"))
        self.mode.set_compact(compact)
        for button in (self.stop, *self.action_buttons.values()):  # their icon alone
            if compact and not button.icon().isNull() and button.text():
                self._full_texts[button] = button.text()
                button.setText("")
            elif not compact and button in self._full_texts:
                button.setText(self._full_texts.pop(button))
        margin = 12 if compact else 24
        self._outer.setContentsMargins(margin, 8, margin, 14)

    @property
    def compact(self) -> bool:
        """Whether the buttons show their short labels (a narrow window)."""
        return self._compact

    def _connect_signals(self) -> None:
        self.editor.send.connect(self._on_send)
        self.editor.stop.connect(self.stop_requested)
        self.editor.files_dropped.connect(self.add_files)
        self.send.clicked.connect(self._on_send)
        self.stop.clicked.connect(self.stop_requested)
        self.attach.clicked.connect(self._on_attach)
        self.clear_files.clicked.connect(self._on_clear_files)

    def _on_send(self) -> None:
        text = self.editor.toPlainText().strip()
        if not text:
            return
        files = list(self.files)
        for source in self.file_sources:
            files += [f for f in source(text) if f not in files]
        self.editor.clear()
        self._on_clear_files()
        self.submitted.emit(text, files)

    def _on_attach(self) -> None:
        # open() + a signal, never exec(): a nested loop would re-enter asyncio (qasync#59).
        from PySide6.QtWidgets import QFileDialog

        dialog = QFileDialog(
            self, QCoreApplication.translate("Composer", "Attach files"), str(self.workspace)
        )
        dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
        dialog.filesSelected.connect(self.add_files)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

    def add_files(self, paths: list[str]) -> None:
        """Attach files to the next prompt."""
        for path in paths:
            if path not in self.files:
                self.files.append(path)
        self._show_files()

    def remove_file(self, path: str) -> None:
        """Take one file off the next prompt."""
        if path in self.files:
            self.files.remove(path)
            self._show_files()

    def _on_clear_files(self) -> None:
        self.files.clear()
        self._show_files()

    def _show_files(self) -> None:
        names = ", ".join(Path(p).name for p in self.files)
        self.attachments.setText(f"📎 {names}")
        self.attachments.setVisible(bool(self.files) and self.chips is None)
        self.clear_files.setVisible(bool(self.files))
        self.files_changed.emit(list(self.files))

    def show_mode(self, mode: str) -> None:
        """Reflect the session's mode without emitting ``mode_chosen``."""
        self.mode.show_state(mode=mode)

    def show_rules(self, count: int) -> None:
        """Reflect how many always-rules the conversation has."""
        self.mode.show_state(rules=count)

    def set_busy(self, busy: bool) -> None:
        """Enable Stop while a turn runs."""
        self.stop.setEnabled(busy)


def _never_cut(button: QWidget) -> None:
    """A button never narrower than its text (the row switches to short labels instead)."""
    policy = button.sizePolicy()
    policy.setHorizontalPolicy(QSizePolicy.Policy.Fixed)
    button.setSizePolicy(policy)
