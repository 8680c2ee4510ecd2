"""The text field that has the keyboard, for what depends on where the user types.

The Edit menu enables its actions by it (``menus``), and a reply that ends moves the keys to the
composer only when the user is not typing in another field (``turn_end``: renaming a
conversation, searching one).
"""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QLineEdit, QPlainTextEdit, QTextEdit


def text_field() -> QLineEdit | QPlainTextEdit | QTextEdit | None:
    """The text field that has the keyboard, if one does."""
    focused = QApplication.focusWidget()
    return focused if isinstance(focused, QLineEdit | QPlainTextEdit | QTextEdit) else None
