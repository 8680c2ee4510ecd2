"""Help ▸ Keyboard Shortcuts (F1): every key the window answers to, from one table.

``SHORTCUTS`` is the single list (grouped: Conversation, Approvals, View, Window) that the
window shows; a test checks it against the shortcuts of the window's menu actions, so the two
cannot drift apart. ``APPROVALS_CONTRACT`` is the keyboard contract of the approval cards, worded
for users (the README says the same). The window is non-modal (``show()``, never ``exec()``):
it can stay open beside the conversation while one learns the keys.
"""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QFont, QIcon, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.i18n import QT_TRANSLATE_NOOP
from desktop.ui.theme import set_role


class Shortcut(NamedTuple):
    """Keys (alternatives separated by `` / ``, in Qt's portable notation) and what they do."""

    keys: str
    action: str


class ShortcutGroup(NamedTuple):
    """A titled group of shortcuts, with an optional note under it."""

    title: str
    shortcuts: tuple[Shortcut, ...]
    note: str = ""


#: The approval cards' keyboard contract.
APPROVALS_CONTRACT = QT_TRANSLATE_NOOP(
    "Shortcuts",
    "These keys act only on the request that has the keyboard (the accent ring). Whatever you "
    "type in the prompt stays in the prompt: no key typed there ever decides, and no character "
    "is lost. A new request takes the keyboard only when the prompt is empty and you have not "
    "typed for 1.5 s (the Enter that sent it counts); otherwise it shows \u201cTab to review\u201d "
    "and waits. The request with the keyboard is always scrolled into view; clicking a card's "
    "toggles leaves the keyboard in the prompt.",
)

SHORTCUTS: tuple[ShortcutGroup, ...] = (
    ShortcutGroup(
        QT_TRANSLATE_NOOP("Shortcuts", "Conversation"),
        (
            Shortcut("Return", QT_TRANSLATE_NOOP("Shortcuts", "Send the prompt")),
            Shortcut("Shift+Return", QT_TRANSLATE_NOOP("Shortcuts", "New line in the prompt")),
            Shortcut("Esc / Ctrl+.", QT_TRANSLATE_NOOP("Shortcuts", "Stop the running turn")),
            Shortcut("Ctrl+N", QT_TRANSLATE_NOOP("Shortcuts", "New conversation")),
            Shortcut("F2", QT_TRANSLATE_NOOP("Shortcuts", "Rename the conversation")),
            Shortcut("Ctrl+F", QT_TRANSLATE_NOOP("Shortcuts", "Find in this conversation")),
            Shortcut("Return / F3", QT_TRANSLATE_NOOP("Shortcuts", "Find: next match")),
            Shortcut(
                "Shift+Return / Shift+F3",
                QT_TRANSLATE_NOOP("Shortcuts", "Find: previous match (Esc closes the find bar)"),
            ),
            Shortcut("Ctrl+Shift+F", QT_TRANSLATE_NOOP("Shortcuts", "Search every conversation")),
            Shortcut(
                "Ctrl+Z",
                QT_TRANSLATE_NOOP(
                    "Shortcuts", "Undo (in the sidebar: bring back a deleted conversation)"
                ),
            ),
            Shortcut("Ctrl+Shift+Z / Ctrl+Y", QT_TRANSLATE_NOOP("Shortcuts", "Redo")),
            Shortcut(
                "Ctrl+X / Ctrl+C / Ctrl+V", QT_TRANSLATE_NOOP("Shortcuts", "Cut, copy, paste")
            ),
            Shortcut("Ctrl+A", QT_TRANSLATE_NOOP("Shortcuts", "Select all")),
        ),
    ),
    ShortcutGroup(
        QT_TRANSLATE_NOOP("Shortcuts", "Approvals"),
        (
            Shortcut("Y / Return", QT_TRANSLATE_NOOP("Shortcuts", "Approve once")),
            Shortcut(
                "A",
                QT_TRANSLATE_NOOP(
                    "Shortcuts", "Approve always (this kind of tool, this conversation)"
                ),
            ),
            Shortcut("N / Esc", QT_TRANSLATE_NOOP("Shortcuts", "Deny")),
            Shortcut("Shift+N", QT_TRANSLATE_NOOP("Shortcuts", "Deny with a reason")),
            Shortcut(
                "Ctrl+Shift+N",
                QT_TRANSLATE_NOOP("Shortcuts", "Deny always (where the agent offers it)"),
            ),
            Shortcut(
                "Tab",
                QT_TRANSLATE_NOOP("Shortcuts", "From the prompt: review the first waiting request"),
            ),
            Shortcut("Shift+Tab", QT_TRANSLATE_NOOP("Shortcuts", "Back to the prompt")),
            Shortcut(
                "Up / Down", QT_TRANSLATE_NOOP("Shortcuts", "Previous / next waiting request")
            ),
            Shortcut(
                "PgUp / PgDown",
                QT_TRANSLATE_NOOP("Shortcuts", "Scroll the request's diff or command"),
            ),
            Shortcut(
                "Ctrl+Shift+D", QT_TRANSLATE_NOOP("Shortcuts", "Diff: unified or side by side")
            ),
            Shortcut(
                "Ctrl+Shift+R",
                QT_TRANSLATE_NOOP("Shortcuts", "Review the request's change full-window"),
            ),
        ),
        APPROVALS_CONTRACT,
    ),
    ShortcutGroup(
        QT_TRANSLATE_NOOP("Shortcuts", "Review"),
        (
            Shortcut(
                "Esc",
                QT_TRANSLATE_NOOP(
                    "Shortcuts", "Back to the conversation, the keyboard where it was"
                ),
            ),
            Shortcut("Alt+Down / F7", QT_TRANSLATE_NOOP("Shortcuts", "Next change")),
            Shortcut("Alt+Up / Shift+F7", QT_TRANSLATE_NOOP("Shortcuts", "Previous change")),
            Shortcut("Ctrl+Shift+D", QT_TRANSLATE_NOOP("Shortcuts", "Unified or side by side")),
            Shortcut("Alt+Z", QT_TRANSLATE_NOOP("Shortcuts", "Wrap long lines")),
            Shortcut("Alt+PgDown / F8", QT_TRANSLATE_NOOP("Shortcuts", "Next file")),
            Shortcut("Alt+PgUp / Shift+F8", QT_TRANSLATE_NOOP("Shortcuts", "Previous file")),
            Shortcut(
                "Alt+Shift+Down / Alt+Shift+Up",
                QT_TRANSLATE_NOOP("Shortcuts", "Next / previous hunk"),
            ),
            Shortcut(
                "Ctrl+Alt+Z",
                QT_TRANSLATE_NOOP("Shortcuts", "A turn's changes: revert the hunk under review"),
            ),
            Shortcut(
                "Ctrl+Alt+Shift+Z",
                QT_TRANSLATE_NOOP("Shortcuts", "Changes: revert the file under review"),
            ),
            Shortcut("Ctrl+Z", QT_TRANSLATE_NOOP("Shortcuts", "Changes: undo the last revert")),
            Shortcut(
                "Y / A / N",
                QT_TRANSLATE_NOOP("Shortcuts", "Approve, always, deny the request under review"),
            ),
        ),
        QT_TRANSLATE_NOOP(
            "Shortcuts",
            "The approval keys of the card work in the review and decide the request shown; "
            "the review then shows the next waiting change, or the conversation.",
        ),
    ),
    ShortcutGroup(
        QT_TRANSLATE_NOOP("Shortcuts", "View"),
        (
            Shortcut(
                "Ctrl+= / Ctrl++",
                QT_TRANSLATE_NOOP("Shortcuts", "Zoom in (every part of every window)"),
            ),
            Shortcut("Ctrl+-", QT_TRANSLATE_NOOP("Shortcuts", "Zoom out")),
            Shortcut("Ctrl+0", QT_TRANSLATE_NOOP("Shortcuts", "Actual size")),
            Shortcut("Ctrl+B", QT_TRANSLATE_NOOP("Shortcuts", "Show or hide the sidebar")),
            Shortcut(
                "Ctrl+Alt+R",
                QT_TRANSLATE_NOOP("Shortcuts", "Review everything this conversation changed"),
            ),
        ),
    ),
    ShortcutGroup(
        QT_TRANSLATE_NOOP("Shortcuts", "Window"),
        (
            Shortcut(
                "Ctrl+O", QT_TRANSLATE_NOOP("Shortcuts", "Open a workspace (in its own window)")
            ),
            Shortcut("Ctrl+,", QT_TRANSLATE_NOOP("Shortcuts", "Settings")),
            Shortcut("F1", QT_TRANSLATE_NOOP("Shortcuts", "Keyboard shortcuts")),
            Shortcut("Ctrl+W", QT_TRANSLATE_NOOP("Shortcuts", "Close the window")),
            Shortcut("Ctrl+Q", QT_TRANSLATE_NOOP("Shortcuts", "Quit")),
        ),
    ),
)

#: Keys Qt spells as words that read better as symbols.
_SYMBOLS = {"Up": "↑", "Down": "↓", "Return": "Enter"}


def key_text(keys: str) -> list[str]:
    """The alternatives of ``keys`` as this platform writes them (``⌘N`` on macOS)."""
    shown = []
    for part in keys.split(" / "):
        if part in _SYMBOLS:
            shown.append(_SYMBOLS[part])
            continue
        sequence = QKeySequence(part)
        native = sequence.toString(QKeySequence.SequenceFormat.NativeText)
        shown.append(native.replace("Return", "Enter") if native else part)
    return shown


def all_keys() -> set[str]:
    """Every key combination in the table, in portable notation (tests)."""
    return {part for group in SHORTCUTS for s in group.shortcuts for part in s.keys.split(" / ")}


def _label(text: str, role: str) -> QLabel:
    label = QLabel(text)
    set_role(label, role)
    return label


class ShortcutsWindow(QDialog):
    """The Keyboard Shortcuts window (non-modal)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("shortcutsWindow")
        self.setWindowTitle(self.tr("Keyboard Shortcuts"))
        self.setAccessibleName(self.tr("Keyboard Shortcuts"))
        self.setModal(False)
        self.resize(640, 780)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 12)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        body = QWidget()
        body.setObjectName("shortcutsBody")
        layout = QVBoxLayout(body)
        layout.setContentsMargins(28, 20, 28, 8)
        layout.setSpacing(10)
        for group in SHORTCUTS:
            layout.addWidget(self._group(group))
        layout.addStretch(1)
        scroll.setWidget(body)
        outer.addWidget(scroll, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        for button in buttons.buttons():
            button.setIcon(QIcon())  # some styles put a stray icon on it
        buttons.rejected.connect(self.close)
        buttons.setContentsMargins(28, 0, 28, 0)
        outer.addWidget(buttons)

    def _group(self, group: ShortcutGroup) -> QWidget:
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 6, 0, 6)
        layout.setSpacing(8)
        title = QLabel(QCoreApplication.translate("Shortcuts", group.title))
        font = QFont(title.font())
        font.setPointSizeF(font.pointSizeF() * 1.15)
        font.setWeight(QFont.Weight.DemiBold)
        title.setFont(font)
        title.setAccessibleName(self.tr("{title} shortcuts").format(title=title.text()))
        layout.addWidget(title)
        grid = QGridLayout()
        grid.setHorizontalSpacing(16)
        grid.setVerticalSpacing(6)
        grid.setColumnMinimumWidth(0, 150)
        grid.setColumnStretch(1, 1)
        for row, shortcut in enumerate(group.shortcuts):
            keys = QHBoxLayout()
            keys.setSpacing(6)
            for index, key in enumerate(key_text(shortcut.keys)):
                if index:
                    keys.addWidget(_label(self.tr("or"), "muted"))
                keys.addWidget(_label(key, "chip"))
            keys.addStretch(1)
            action = QLabel(QCoreApplication.translate("Shortcuts", shortcut.action))
            action.setWordWrap(True)
            grid.addLayout(keys, row, 0)
            grid.addWidget(action, row, 1)
        layout.addLayout(grid)
        if group.note:
            note = QLabel(QCoreApplication.translate("Shortcuts", group.note))
            note.setObjectName(f"{group.title.lower()}Note")
            note.setWordWrap(True)
            set_role(note, "muted")
            layout.addSpacing(4)
            layout.addWidget(note)
        return box

    def text(self) -> str:
        """Everything the window says, as plain text (tests, accessibility checks)."""
        return "\n".join(label.text() for label in self.findChildren(QLabel))


def show_shortcuts(parent: QWidget, current: ShortcutsWindow | None = None) -> ShortcutsWindow:
    """Show (or raise) the Keyboard Shortcuts window of ``parent``."""
    window = current if current is not None else ShortcutsWindow(parent)
    window.show()
    window.raise_()
    window.activateWindow()
    return window
