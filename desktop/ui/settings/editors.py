"""The field editors of generated settings forms: each shows one value and gives it back.

``value()`` returns JSON data for ``model_validate``; ``set_value`` shows it. ``forms.editor_for``
picks one per field; ``NameChoice`` (a choice among known names, with "New …") is also used by
hand where a field names an agent or a profile.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import Any

from annotated_types import Ge, Gt, Le, Lt
from pydantic.fields import FieldInfo
from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.settings.words import choice_label, default_label


class FieldEditor(QWidget):
    """One field's editor: ``value()`` gives JSON data, ``set_value`` shows it.

    Signals:
        changed(): the user edited the value.
    """

    changed = Signal()

    def value(self) -> Any:
        """The edited value as JSON data."""
        raise NotImplementedError

    def set_value(self, value: Any) -> None:
        """Show ``value``."""
        raise NotImplementedError


class LineEditor(FieldEditor):
    def __init__(self, kind: Any, optional: bool, placeholder: str) -> None:
        super().__init__()
        self._kind = kind
        self._optional = optional
        self.edit = QLineEdit()
        self.edit.setPlaceholderText(placeholder)
        self.edit.textEdited.connect(self.changed)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.edit)

    def value(self) -> Any:
        text = self.edit.text().strip()
        if self._optional and not text.strip():
            return None
        if self._kind is int:
            try:
                return int(text)
            except ValueError:
                return text  # pydantic reports it with the field's name
        if self._kind is float:
            try:
                return float(text)
            except ValueError:
                return text
        return text

    def set_value(self, value: Any) -> None:
        self.edit.setText("" if value is None else str(value))


class CheckEditor(FieldEditor):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.box = QCheckBox(text)
        self.box.toggled.connect(self.changed)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.box)

    def value(self) -> Any:
        return self.box.isChecked()

    def set_value(self, value: Any) -> None:
        self.box.setChecked(bool(value))


class ComboEditor(FieldEditor):
    def __init__(self, name: str, choices: list[str], optional: bool) -> None:
        super().__init__()
        self.combo = QComboBox()
        if optional:
            self.combo.addItem(default_label(name), None)
        for choice in choices:
            self.combo.addItem(choice_label(name, choice), choice)
        self.combo.activated.connect(self.changed)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.combo)
        layout.addStretch(1)

    def value(self) -> Any:
        return self.combo.currentData()

    def set_value(self, value: Any) -> None:
        index = self.combo.findData(None if value is None else str(value))
        self.combo.setCurrentIndex(max(index, 0))


class SpinEditor(FieldEditor):
    """An integer in the field's bounds; when optional, the lowest step reads "default"."""

    def __init__(self, name: str, info: FieldInfo, optional: bool) -> None:
        super().__init__()
        low, high = 0, 1_000_000_000
        for bound in info.metadata:
            if isinstance(bound, Ge):
                low = int(bound.ge)  # type: ignore[call-overload]
            elif isinstance(bound, Gt):
                low = int(bound.gt) + 1  # type: ignore[call-overload]
            elif isinstance(bound, Le):
                high = int(bound.le)  # type: ignore[call-overload]
            elif isinstance(bound, Lt):
                high = int(bound.lt) - 1  # type: ignore[call-overload]
        self._optional = optional
        self.spin = QSpinBox()
        self.spin.setRange(low - 1 if optional else low, high)
        if optional:
            self.spin.setSpecialValueText(default_label(name))
        if name == "font_size":
            self.spin.setSuffix(QCoreApplication.translate("Settings", " pt"))
        self.spin.setMinimumWidth(140)
        self.spin.valueChanged.connect(self.changed)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.spin)
        layout.addStretch(1)

    def value(self) -> Any:
        value = self.spin.value()
        return None if self._optional and value == self.spin.minimum() else value

    def set_value(self, value: Any) -> None:
        self.spin.setValue(self.spin.minimum() if value is None else int(value))


class PopupCombo(QComboBox):
    """A combo box that says when its list is about to open (to fill it afresh)."""

    opening = Signal()

    def showPopup(self) -> None:
        self.opening.emit()
        super().showPopup()


#: Data of a ``NameChoice``'s "New …" entry.
NEW_ENTRY = "\x00new"


class NameChoice(FieldEditor):
    """A choice among known names (agents, profiles), each shown with its label.

    Args:
        names: (name, label) pairs, read afresh whenever the list opens.
        empty: When given, the words of an empty choice (the value is then ``None``).
        new: When given, the words of a last entry that asks for a new name.

    Signals:
        new_requested(): the "New …" entry was chosen (the choice stays as it was).
    """

    new_requested = Signal()

    def __init__(
        self,
        names: Callable[[], list[tuple[str, str]]] | None = None,
        *,
        empty: str | None = None,
        new: str | None = None,
    ) -> None:
        super().__init__()
        self._names = names
        self._empty = empty
        self._new = new
        self._value: str | None = None
        self._pairs: list[tuple[str, str]] = []
        self.combo = PopupCombo()
        self.combo.setMinimumWidth(200)
        self.combo.opening.connect(self.refresh)
        self.combo.activated.connect(self._on_activated)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.combo)
        layout.addStretch(1)

    def set_names(self, names: list[str] | list[tuple[str, str]]) -> None:
        """Offer ``names`` (plain names or (name, label) pairs); the choice stays."""
        self._pairs = [(n, n) if isinstance(n, str) else n for n in names]
        self._fill()

    def refresh(self) -> None:
        """Read the names again (they may have been edited meanwhile)."""
        if self._names is not None:
            self._pairs = self._names()
        self._fill()

    def _fill(self) -> None:
        combo = self.combo
        combo.blockSignals(True)
        combo.clear()
        if self._empty is not None:
            combo.addItem(self._empty, None)
        for name, label in self._pairs:
            combo.addItem(label, name)
        if self._value is not None and combo.findData(self._value) < 0:
            combo.addItem(
                QCoreApplication.translate("Settings", "{0} (not found)").format(self._value),
                self._value,
            )
        if self._new is not None:
            combo.insertSeparator(combo.count())
            combo.addItem(self._new, NEW_ENTRY)
        combo.setCurrentIndex(max(combo.findData(self._value), 0))
        combo.blockSignals(False)

    def _on_activated(self, _index: int) -> None:
        data = self.combo.currentData()
        if data == NEW_ENTRY:
            self._fill()  # back to the current choice until the new name exists
            self.new_requested.emit()
            return
        self._value = data
        self.changed.emit()

    def value(self) -> Any:
        return self._value if self._value is not None or self._empty is not None else ""

    def set_value(self, value: Any) -> None:
        self._value = None if value in (None, "") else str(value)
        if self._names is not None:
            self._pairs = self._names()
        self._fill()


class CheckListEditor(FieldEditor):
    def __init__(self, name: str, choices: list[str]) -> None:
        super().__init__()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.boxes: dict[str, QCheckBox] = {}
        for choice in choices:
            box = QCheckBox(choice_label(name, choice))
            box.toggled.connect(self.changed)
            layout.addWidget(box)
            self.boxes[choice] = box

    def value(self) -> Any:
        return [name for name, box in self.boxes.items() if box.isChecked()]

    def set_value(self, value: Any) -> None:
        for name, box in self.boxes.items():
            box.setChecked(name in (value or []))


class ArgvEditor(LineEditor):
    def value(self) -> Any:
        try:
            return shlex.split(self.edit.text())
        except ValueError:
            return [self.edit.text()]  # unbalanced quotes: kept as typed, validated later

    def set_value(self, value: Any) -> None:
        self.edit.setText(shlex.join(value or []))


class LinesEditor(FieldEditor):
    """One item per line (lists) or ``KEY=value`` per line (dicts)."""

    def __init__(self, as_dict: bool, placeholder: str) -> None:
        super().__init__()
        self._dict = as_dict
        self.edit = QPlainTextEdit()
        self.edit.setPlaceholderText(placeholder)
        self.edit.setFixedHeight(64)
        self.edit.textChanged.connect(self.changed)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.edit)

    def value(self) -> Any:
        lines = [ln.strip() for ln in self.edit.toPlainText().splitlines() if ln.strip()]
        if not self._dict:
            return lines
        pairs = {}
        for line in lines:
            key, _, val = line.partition("=")
            pairs[key.strip()] = val.strip()
        return pairs

    def set_value(self, value: Any) -> None:
        if self._dict:
            text = "\n".join(f"{k}={v}" for k, v in (value or {}).items())
        else:
            text = "\n".join(str(v) for v in value or [])
        self.edit.setPlainText(text)


def focus_target(editor: FieldEditor) -> QWidget:
    """The widget inside ``editor`` that takes the keyboard (a label's buddy)."""
    for attr in ("spin", "combo", "edit", "box"):
        widget = getattr(editor, attr, None)
        if isinstance(widget, QWidget):
            return widget
    return editor
