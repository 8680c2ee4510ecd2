"""Forms generated from pydantic models, so a new settings field gets an editor by itself.

``ModelForm(model_cls)`` walks ``model_cls.model_fields`` and picks an editor from each field's
annotation: check box (bool), combo box (enum / ``Literal``, each value in words from
``settings.words``), check list (list of ``Literal``), spin box (integers, within the field's
bounds; an optional one's lowest step means "default"), line edit (str, floats, paths, optional
values: empty means "default"), shell-quoted line (argument lists), one-per-line text (other
lists), ``KEY=value`` lines (dicts) and a nested group (sub-models). ``NameChoice`` picks among
known names (agents, profiles) with an optional "New …" entry. Labels and tooltips come from the
fields' ``title``/``description``. ``value()`` returns plain JSON data for ``model_validate``.
"""

from __future__ import annotations

import enum
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import QFormLayout, QGroupBox, QLabel, QVBoxLayout, QWidget

from desktop.ui.conversation.items import set_role
from desktop.ui.settings.editors import (
    ArgvEditor,
    CheckEditor,
    CheckListEditor,
    ComboEditor,
    FieldEditor,
    LineEditor,
    LinesEditor,
    NameChoice,
    SpinEditor,
    focus_target,
)
from desktop.ui.settings.words import tr

__all__ = ["FieldEditor", "ModelForm", "NameChoice", "editor_for", "humanize"]

#: Argument-vector fields edited as one shell-quoted line rather than one item per line.
ARGV_FIELDS = frozenset({"command", "args"})


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
    title = tr(info.title or humanize(name))
    placeholder = tr(info.description or "")
    kind, optional = _unwrap(info.annotation)
    origin = get_origin(kind)
    choices = _choices(kind)
    if kind is bool:
        return CheckEditor(title)
    if choices is not None:
        return ComboEditor(name, choices, optional)
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return _Nested(kind, title)
    if origin is list:
        (item,) = get_args(kind) or (str,)
        item_choices = _choices(item)
        if item_choices is not None:
            return CheckListEditor(name, item_choices)
        if name in ARGV_FIELDS:
            return ArgvEditor(
                str,
                False,
                placeholder
                or QCoreApplication.translate("Settings", "program --flag 'an argument'"),
            )
        return LinesEditor(
            False, placeholder or QCoreApplication.translate("Settings", "one per line")
        )
    if origin is dict:
        return LinesEditor(
            True, placeholder or QCoreApplication.translate("Settings", "NAME=value, one per line")
        )
    if kind is int:
        return SpinEditor(name, info, optional)
    if kind is float:
        hint = placeholder or (
            QCoreApplication.translate("Settings", "empty for the default") if optional else ""
        )
        return LineEditor(kind, optional, hint)
    if kind is Path:
        return LineEditor(
            str, optional, placeholder or QCoreApplication.translate("Settings", "path to a file")
        )
    return LineEditor(str, optional, placeholder)


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
            title = tr(info.title or humanize(name))
            editor.setObjectName(f"field_{name}")
            editor.setToolTip(tr(info.description or ""))
            editor.setAccessibleName(title)
            editor.setAccessibleDescription(tr(info.description or ""))
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
            if isinstance(editor, CheckEditor | _Nested):
                layout.addRow(column)
            else:
                label = QLabel(QCoreApplication.translate("Settings", "{0}:").format(title))
                label.setBuddy(focus_target(editor))
                layout.addRow(label, column)

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
