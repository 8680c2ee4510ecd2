"""Forms generated from pydantic models, so a new settings field gets an editor by itself.

``ModelForm(model_cls)`` walks ``model_cls.model_fields`` and picks an editor from each field's
annotation: check box (bool), combo box (enum / ``Literal``), check list (list of ``Literal``),
line edit (str, numbers, paths, optional values: empty means "default"), shell-quoted line
(argument lists), one-per-line text (other lists), ``KEY=value`` lines (dicts) and a nested
group (sub-models). Labels and tooltips come from the fields' ``title``/``description``.
``value()`` returns plain JSON data for ``model_validate``; nothing here knows the settings tree.
"""

from __future__ import annotations

import enum
import shlex
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.conversation.items import set_role

#: Argument-vector fields edited as one shell-quoted line rather than one item per line.
ARGV_FIELDS = frozenset({"command", "args"})


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


def _unwrap(annotation: Any) -> tuple[Any, bool]:
    """(inner type, optional) for ``X | None``."""
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0], len(args) < len(get_args(annotation))
    return annotation, False


def _choices(annotation: Any) -> list[str] | None:
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return [str(m.value) for m in annotation]
    if get_origin(annotation) is Literal:
        return [str(a) for a in get_args(annotation)]
    return None


class _Line(FieldEditor):
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


class _Check(FieldEditor):
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


class _Combo(FieldEditor):
    def __init__(self, choices: list[str], optional: bool) -> None:
        super().__init__()
        self.combo = QComboBox()
        if optional:
            self.combo.addItem("(default)", None)
        for choice in choices:
            self.combo.addItem(choice, choice)
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


class NameChoice(FieldEditor):
    """An editable combo box offering known names (e.g. the default agent)."""

    def __init__(self) -> None:
        super().__init__()
        self.combo = QComboBox()
        self.combo.setEditable(True)
        self.combo.currentTextChanged.connect(self.changed)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.combo)
        layout.addStretch(1)

    def set_names(self, names: list[str]) -> None:
        """Offer ``names`` (the current text stays)."""
        current = self.combo.currentText()
        self.combo.blockSignals(True)
        self.combo.clear()
        self.combo.addItems(names)
        self.combo.setCurrentText(current)
        self.combo.blockSignals(False)

    def value(self) -> Any:
        return self.combo.currentText().strip()

    def set_value(self, value: Any) -> None:
        self.combo.setCurrentText(str(value or ""))


class _CheckList(FieldEditor):
    def __init__(self, choices: list[str]) -> None:
        super().__init__()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.boxes: dict[str, QCheckBox] = {}
        for choice in choices:
            box = QCheckBox(choice)
            box.toggled.connect(self.changed)
            layout.addWidget(box)
            self.boxes[choice] = box

    def value(self) -> Any:
        return [name for name, box in self.boxes.items() if box.isChecked()]

    def set_value(self, value: Any) -> None:
        for name, box in self.boxes.items():
            box.setChecked(name in (value or []))


class _Argv(_Line):
    def value(self) -> Any:
        try:
            return shlex.split(self.edit.text())
        except ValueError:
            return [self.edit.text()]  # unbalanced quotes: kept as typed, validated later

    def set_value(self, value: Any) -> None:
        self.edit.setText(shlex.join(value or []))


class _Lines(FieldEditor):
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


class _Nested(FieldEditor):
    def __init__(self, model: type[BaseModel], title: str) -> None:
        super().__init__()
        group = QGroupBox(title)
        self.form = ModelForm(model)
        self.form.changed.connect(self.changed)
        inner = QVBoxLayout(group)
        inner.addWidget(self.form)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(group)

    def value(self) -> Any:
        return self.form.value()

    def set_value(self, value: Any) -> None:
        self.form.set_value(value or {})


def humanize(name: str) -> str:
    """``ca_file`` → ``Ca file`` (for fields without a title)."""
    return name.replace("_", " ").capitalize()


def editor_for(name: str, info: FieldInfo) -> FieldEditor:
    """The editor for one field (see the module docstring for the mapping)."""
    title = info.title or humanize(name)
    placeholder = info.description or ""
    kind, optional = _unwrap(info.annotation)
    origin = get_origin(kind)
    choices = _choices(kind)
    if kind is bool:
        return _Check(title)
    if choices is not None:
        return _Combo(choices, optional)
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return _Nested(kind, title)
    if origin is list:
        (item,) = get_args(kind) or (str,)
        item_choices = _choices(item)
        if item_choices is not None:
            return _CheckList(item_choices)
        if name in ARGV_FIELDS:
            return _Argv(str, False, placeholder or "program --flag 'an argument'")
        return _Lines(False, placeholder or "one per line")
    if origin is dict:
        return _Lines(True, placeholder or "NAME=value, one per line")
    if kind in (int, float):
        hint = placeholder or ("empty for the default" if optional else "")
        return _Line(kind, optional, hint)
    if kind is Path:
        return _Line(str, optional, placeholder or "path to a file")
    return _Line(str, optional, placeholder)


class ModelForm(QWidget):
    """A form with one editor per field of ``model``.

    Args:
        model: The pydantic model class.
        skip: Field names not to show (e.g. a union's ``kind`` chosen elsewhere).
        overrides: Hand-picked editors for some fields (e.g. a choice among known names).

    Signals:
        changed(): any editor changed.
    """

    changed = Signal()

    def __init__(
        self,
        model: type[BaseModel],
        skip: frozenset[str] = frozenset(),
        overrides: dict[str, FieldEditor] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.model = model
        self.editors: dict[str, FieldEditor] = {}
        self.errors: dict[str, QLabel] = {}
        self._extra: dict[str, Any] = {}
        layout = QFormLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setHorizontalSpacing(14)
        layout.setVerticalSpacing(8)
        layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        for name, info in model.model_fields.items():
            if name in skip:
                continue
            editor = (overrides or {}).get(name) or editor_for(name, info)
            editor.setObjectName(f"field_{name}")
            editor.setToolTip(info.description or "")
            editor.setAccessibleName(info.title or humanize(name))
            editor.changed.connect(self.changed)
            self.editors[name] = editor
            error = QLabel()
            error.setVisible(False)
            error.setWordWrap(True)
            set_role(error, "message", level="error")
            self.errors[name] = error
            column = QWidget()
            box = QVBoxLayout(column)
            box.setContentsMargins(0, 0, 0, 0)
            box.setSpacing(2)
            box.addWidget(editor)
            box.addWidget(error)
            if isinstance(editor, _Check | _Nested):
                layout.addRow(column)
            else:
                layout.addRow(f"{info.title or humanize(name)}:", column)

    def value(self) -> dict[str, Any]:
        """Every field as JSON data (fields not shown keep the values last set)."""
        return {**self._extra, **{name: e.value() for name, e in self.editors.items()}}

    def set_value(self, data: dict[str, Any]) -> None:
        """Show ``data`` (a ``model_dump(mode="json")``)."""
        self._extra = {k: v for k, v in data.items() if k not in self.editors}
        for name, editor in self.editors.items():
            if name in data:
                editor.blockSignals(True)
                editor.set_value(data[name])
                editor.blockSignals(False)
        self.show_errors({})

    def show_errors(self, errors: dict[str, str]) -> None:
        """Show ``{field: message}`` under the fields (empty clears them)."""
        for name, label in self.errors.items():
            label.setText(errors.get(name, ""))
            label.setVisible(name in errors)

    def walk(self, visit: Callable[[str, FieldEditor], None], prefix: str = "") -> None:
        """Call ``visit(path, editor)`` for every field, nested ones as ``outer.inner``."""
        for name, editor in self.editors.items():
            visit(f"{prefix}{name}", editor)
            if isinstance(editor, _Nested):
                editor.form.walk(visit, f"{prefix}{name}.")
