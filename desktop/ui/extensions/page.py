"""Settings → Extensions: what loaded, what is off, what failed and why, what awaits trust.

One row per extension found, each with its one switch (``ExtensionSettings``: a built-in is on
when it is in ``enabled_builtins``, any other one unless it is in ``disabled``), saved with the
rest of the settings; the row's badge says what the runtime did with it. The shell deny list
is edited here and written atomically to the file the ``shell_deny_list`` extension reads on
every request. Workspace extensions are reviewed in a non-modal trust dialog that shows their
manifest; trusting reloads the runtime.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.atomic_file import atomic_write
from desktop.core.extensions.builtin.shell_deny_list.events import deny_list_path, load_patterns
from desktop.ui.conversation.items import set_role
from desktop.ui.extensions.trust_dialog import TrustDialog
from desktop.ui.extensions.window import WindowExtensions
from desktop.ui.i18n import QT_TRANSLATE_NOOP
from desktop.ui.settings.dialog import WindowPage
from desktop.ui.settings.words import builtin_extensions, tr

#: What each runtime state reads as on a row's badge.
_STATES = {
    "loaded": QT_TRANSLATE_NOOP("Settings", "Running"),
    "off": QT_TRANSLATE_NOOP("Settings", "Off"),
    "failed": QT_TRANSLATE_NOOP("Settings", "Failed"),
    "untrusted": QT_TRANSLATE_NOOP("Settings", "Needs trust"),
}


def _row(
    title: str, state: str, detail: str, switch: QCheckBox, button: QPushButton | None = None
) -> QFrame:
    frame = QFrame()
    frame.setProperty("role", "extension")
    layout = QHBoxLayout(frame)
    layout.setContentsMargins(10, 6, 10, 6)
    text = QVBoxLayout()
    text.setSpacing(1)
    heading = QLabel(f"<b>{title}</b>")
    info = QLabel(detail)
    info.setWordWrap(True)
    set_role(info, "muted")
    text.addWidget(heading)
    text.addWidget(info)
    layout.setSpacing(10)
    layout.addLayout(text, 1)
    if state != "off":  # the switch already says so
        badge = QLabel(tr(_STATES.get(state, state)))
        badge.setObjectName("stateBadge")
        set_role(badge, "badge", state=state)
        layout.addWidget(badge)
    if button is not None:
        layout.addWidget(button)
    switch.setMinimumWidth(
        switch.fontMetrics().horizontalAdvance(QCoreApplication.translate("Settings", "Off")) + 34
    )
    layout.addWidget(switch)
    return frame


class ExtensionsPage(WindowPage):
    """The Extensions page of one window's Settings dialog (``edited``: a switch was flipped,
    not saved yet)."""

    def __init__(self, extensions: WindowExtensions, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.extensions = extensions
        self.rows: dict[str, QFrame] = {}
        #: Each extension's one switch, by folder name (on: it loads after Save).
        self.switches: dict[str, QCheckBox] = {}
        self.trust_buttons: dict[str, QPushButton] = {}
        self._dialogs: list[TrustDialog] = []
        config = extensions.store.settings.extensions
        self._enabled: list[str] = list(config.enabled_builtins)
        self._disabled = list(config.disabled)
        self.deny = QPlainTextEdit()
        self.deny.setObjectName("denyList")
        self.deny.setAccessibleName(self.tr("Shell deny list"))
        self.deny.setPlaceholderText(self.tr("One pattern per line: a glob (sudo *) or re:REGEX"))
        self.deny.setFixedHeight(120)
        self.deny_save = QPushButton(self.tr("Save deny list"))
        self.deny_note = QLabel()
        set_role(self.deny_note, "muted")
        deny_box = QGroupBox(self.tr("Shell deny list (shell_deny_list)"))
        deny_layout = QVBoxLayout(deny_box)
        deny_layout.addWidget(self.deny)
        deny_row = QHBoxLayout()
        deny_row.addWidget(self.deny_note, 1)
        deny_row.addWidget(self.deny_save)
        deny_layout.addLayout(deny_row)
        self.found = QVBoxLayout()
        self.found.setSpacing(6)
        self.reload_button = QPushButton(
            QCoreApplication.translate("Settings", "Reload extensions")
        )
        self.summary = QLabel(QCoreApplication.translate("Settings", "Loading…"))
        set_role(self.summary, "muted")
        found_box = QGroupBox(QCoreApplication.translate("Settings", "Extensions found"))
        found_layout = QVBoxLayout(found_box)
        head = QHBoxLayout()
        head.addWidget(self.summary, 1)
        head.addWidget(self.reload_button)
        found_layout.addLayout(head)
        found_layout.addLayout(self.found)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 8, 0)
        layout.addWidget(found_box)
        layout.addWidget(deny_box)
        layout.addStretch(1)
        self._connect_signals()
        self._load_deny_list()
        extensions.scope.spawn(self._build_runtime(), name="extensions page")

    def _connect_signals(self) -> None:
        self.extensions.changed.connect(self.refresh)
        self.deny_save.clicked.connect(self._on_save_deny)
        self.reload_button.clicked.connect(self._on_reload)

    def settings_value(self) -> dict[str, Any]:
        """The edited ``extensions`` section (the dialog saves it with everything else)."""
        return {"enabled_builtins": list(self._enabled), "disabled": list(self._disabled)}

    def _switch(self, name: str, builtin: bool, title: str) -> QCheckBox:
        on = name in self._enabled if builtin else name not in self._disabled
        switch = QCheckBox()
        switch.setObjectName(f"switch_{name}")
        switch.setChecked(on)
        switch.setText(
            QCoreApplication.translate("Settings", "On")
            if on
            else QCoreApplication.translate("Settings", "Off")
        )
        switch.toggled.connect(
            lambda checked: switch.setText(
                QCoreApplication.translate("Settings", "On")
                if checked
                else QCoreApplication.translate("Settings", "Off")
            )
        )
        switch.setAccessibleName(QCoreApplication.translate("Settings", "{0}: on").format(title))
        switch.setToolTip(
            QCoreApplication.translate("Settings", "On or off (applies when you Save)")
        )
        switch.toggled.connect(lambda checked: self._on_switch(name, builtin, checked))
        self.switches[name] = switch
        return switch

    def _on_switch(self, name: str, builtin: bool, on: bool) -> None:
        chosen = self._enabled if builtin else self._disabled
        if name in chosen:
            chosen.remove(name)
        if on == builtin:  # a built-in is listed when on, another extension when off
            chosen.append(name)
        self.edited.emit()

    # ------------------------------------------------------------------ deny list
    def _load_deny_list(self) -> None:
        try:
            patterns = load_patterns()
        except (OSError, ValueError) as exc:
            self.deny_note.setText(
                self.tr("The deny list could not be read: {exc}").format(exc=exc)
            )
            return
        self.deny.setPlainText("\n".join(patterns))
        self.deny_note.setText(str(deny_list_path()))

    def _on_save_deny(self) -> None:
        patterns = [p.strip() for p in self.deny.toPlainText().splitlines() if p.strip()]
        try:
            text = json.dumps({"patterns": patterns}, indent=2) + "\n"
            atomic_write(deny_list_path(), text, durable=True)
        except OSError as exc:
            self.deny_note.setText(self.tr("Not saved: {exc}").format(exc=exc))
            return
        self.deny_note.setText(
            self.tr("Saved {count} patterns; they apply at once.").format(count=len(patterns))
        )

    # ------------------------------------------------------------------ found
    async def _build_runtime(self) -> None:
        await self.extensions.ensure_runtime()
        self.refresh()

    def _on_reload(self) -> None:
        self.extensions.scope.spawn(self.extensions.reload(), name="extensions reload")

    def refresh(self) -> None:
        """Show the runtime's latest load report."""
        runtime = self.extensions.runtime
        while self.found.count():
            item = self.found.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.rows.clear()
        self.switches.clear()
        self.trust_buttons.clear()
        if runtime is None:
            return
        report = runtime.report
        for module in runtime.snapshot.modules:
            events = ", ".join(module.events) or QCoreApplication.translate("Settings", "no events")
            detail = f"{module.manifest.version} · {_origin(module.origin)} · {events}"
            self._add(module.name, module.origin, "loaded", detail)
        for candidate, manifest, digest in report.untrusted:
            button = QPushButton(QCoreApplication.translate("Settings", "Review and trust…"))
            button.clicked.connect(
                lambda _=False, c=candidate, m=manifest, d=digest: self.review(c, m, d)
            )
            self.trust_buttons[candidate.folder.name] = button
            detail = QCoreApplication.translate("Settings", "{0} {1} · from this workspace").format(
                manifest.display_name, manifest.version
            )
            self._add(candidate.folder.name, candidate.origin, "untrusted", detail, button)
        for failure in report.failures:
            if failure.code != "trust_required":
                detail = f"{failure.code}: {failure.message}"
                self._add(failure.extension, failure.origin, "failed", detail)
        for candidate in report.disabled:
            self._add(candidate.folder.name, candidate.origin, "off", _origin(candidate.origin))
        loaded = len(runtime.snapshot.modules)
        waiting = len(report.untrusted)
        summary = QCoreApplication.translate(
            "Settings", "{0} running · {1} waiting for trust · switches apply when you Save"
        )
        self.summary.setText(summary.format(loaded, waiting))

    def _add(
        self, name: str, origin: str, state: str, detail: str, button: QPushButton | None = None
    ) -> None:
        builtin = origin == "builtin"
        title = builtin_extensions().get(name, name) if builtin else name
        if builtin:
            detail = f"{detail} · {name}"
        row = _row(title, state, detail, self._switch(name, builtin, title), button)
        row.setObjectName(f"extension_{name}")
        self.rows[name] = row
        self.found.addWidget(row)

    def review(self, candidate: Any, manifest: Any, digest: str) -> TrustDialog:
        """Open the (non-modal) trust dialog of a workspace extension."""
        dialog = TrustDialog(self.extensions, candidate, manifest, digest, self)
        self._dialogs.append(dialog)
        dialog.finished.connect(lambda _: self._dialogs.remove(dialog))
        dialog.show()  # non-modal: the user may look at the code meanwhile
        return dialog


def _origin(origin: str) -> str:
    """Where an extension comes from, in words."""
    words = {
        "builtin": QT_TRANSLATE_NOOP("Settings", "built in"),
        "user": QT_TRANSLATE_NOOP("Settings", "your extensions folder"),
        "env": "AGENTDESK_EXTENSIONS_PATH",
        "workspace": QT_TRANSLATE_NOOP("Settings", "this workspace"),
    }
    return tr(words.get(origin, origin))
