"""The composer: prompt editor, attachments, approval-mode switch, Stop and Send."""

from __future__ import annotations

import time
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
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.composer_actions import PluginButton
from desktop.ui.i18n import QT_TRANSLATE_NOOP
from desktop.ui.icons import Icon, decorate
from desktop.ui.theme import set_role

if TYPE_CHECKING:
    from PySide6.QtGui import QDragEnterEvent, QDropEvent, QKeyEvent, QResizeEvent

# ``QtCore.Qt`` inside methods, not ``Qt`` at import: the empty first window shows a composer
# before the ``Qt`` enums are built (see ``desktop.ui.theme``).

#: ``ApprovalMode`` values (``desktop.core.events``; a test keeps them equal). Plain strings,
#: because the composer is painted before the core is imported (see ``desktop.ui.startup``).

_MODES = (
    ("default", QT_TRANSLATE_NOOP("Composer", "Ask every time")),
    ("auto_edit", QT_TRANSLATE_NOOP("Composer", "Auto-approve edits")),
    ("yolo", QT_TRANSLATE_NOOP("Composer", "Approve everything (yolo)")),
)


#: Short mode labels for a narrow window (the full label stays in the tooltip and the
#: accessible name).
_SHORT_MODES = {
    "default": QT_TRANSLATE_NOOP("Composer", "Ask"),
    "auto_edit": QT_TRANSLATE_NOOP("Composer", "Auto-edit"),
    "yolo": QT_TRANSLATE_NOOP("Composer", "Yolo"),
}


def mode_label(mode: str) -> str:
    """An approval mode (``ApprovalMode`` value) in words ("Ask every time")."""
    return QCoreApplication.translate("Composer", dict(_MODES).get(mode, mode))


#: Seconds after the last key typed into the composer during which it is "in use": a new
#: approval request does not take keyboard focus from it (see ``PromptEdit.in_use``).
TYPING_IDLE_S = 1.5


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
        frame = 2 * self.document().documentMargin() + margins.top() + margins.bottom()
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


class ModeButton(QToolButton):
    """The approval-mode button: "Ask every time · 2 rules  ▾" (the pane opens its panel).

    ``currentText()`` and ``currentData()`` answer as the combo box it replaced did: the mode's
    label and its ``ApprovalMode`` value.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("modeButton")
        self.setToolTip(self.tr("Approval mode and always-rules of this conversation"))
        decorate(self, Icon.MODE, role="muted", beside_text=True)
        self._mode, self._rules = _MODES[0][0], 0
        self._compact = False
        self._show()

    def currentText(self) -> str:
        """The current mode's label."""
        return mode_label(self._mode)

    def currentData(self) -> str:
        """The current mode (an ``ApprovalMode`` value)."""
        return self._mode

    def show_state(self, mode: str | None = None, rules: int | None = None) -> None:
        """Show the mode and the always-rule count (None: unchanged)."""
        if mode in dict(_MODES):
            self._mode = mode
        if rules is not None:
            self._rules = rules
        self._show()

    def set_compact(self, compact: bool) -> None:
        """Show the short label ("Ask · 2") in a narrow window."""
        self._compact = compact
        self._show()

    def _show(self) -> None:
        text = self.currentText()
        if self._rules:
            text += f" · {self._rules} rule{'s' if self._rules != 1 else ''}"
        short = QCoreApplication.translate("Composer", _SHORT_MODES.get(self._mode, text)) + (
            f" · {self._rules}" if self._rules else ""
        )
        self.setText(f"{short if self._compact else text}  ▾")
        self.setAccessibleName(self.tr("Approval mode: {0}").format(text))


class Composer(QWidget):
    """Bottom of a conversation.

    Signals:
        submitted(str, list[str]): the user sent a prompt with attached file paths.
        stop_requested(): Stop (button, or Esc in the editor).
        mode_chosen(str): an approval mode was picked (in the mode button's panel).
    """

    submitted = Signal(str, list)
    stop_requested = Signal()
    mode_chosen = Signal(str)

    def __init__(self, workspace: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._workspace = workspace
        self.files: list[str] = []
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

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self.editor.fit_lines()
            self._set_compact(False)  # measured again at the new size
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
        self.editor.clear()
        self._on_clear_files()
        self.submitted.emit(text, files)

    def _on_attach(self) -> None:
        # open() + a signal, never exec(): a nested loop would re-enter asyncio (qasync#59).
        from PySide6.QtWidgets import QFileDialog

        dialog = QFileDialog(
            self, QCoreApplication.translate("Composer", "Attach files"), str(self._workspace)
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

    def _on_clear_files(self) -> None:
        self.files.clear()
        self._show_files()

    def _show_files(self) -> None:
        names = ", ".join(Path(p).name for p in self.files)
        self.attachments.setText(f"📎 {names}")
        self.attachments.setVisible(bool(self.files))
        self.clear_files.setVisible(bool(self.files))

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
