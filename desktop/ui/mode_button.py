"""The approval-mode button of the composer ("Ask every time · 2 rules  ▾") and the modes'
labels, which the composer, the rules panel, the settings and the status bar share.

Plain strings, not ``ApprovalMode``: the composer paints before the core is imported (see
``desktop.ui.startup``).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QToolButton, QWidget

from desktop.ui.i18n import QT_TRANSLATE_NOOP
from desktop.ui.icons import Icon, decorate

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
