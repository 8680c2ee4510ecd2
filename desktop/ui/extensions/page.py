"""Settings → Extensions: what loaded, what is off, what failed and why, what awaits trust.

The built-in switches are a form generated from ``ExtensionSettings`` (saved with the rest of
the settings); the shell deny list is edited here and written atomically to the file the
``shell_deny_list`` extension reads on every request. Workspace extensions are reviewed in a
non-modal trust dialog that shows their manifest; trusting reloads the runtime.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtWidgets import (
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
from desktop.core.settings.models import ExtensionSettings
from desktop.ui.conversation.items import set_role
from desktop.ui.extensions.trust_dialog import TrustDialog
from desktop.ui.extensions.window import WindowExtensions
from desktop.ui.settings.forms import ModelForm


def _row(name: str, state: str, detail: str, button: QPushButton | None = None) -> QFrame:
    frame = QFrame()
    frame.setProperty("role", "extension")
    frame.setObjectName(f"extension_{name}")
    layout = QHBoxLayout(frame)
    layout.setContentsMargins(10, 6, 10, 6)
    text = QVBoxLayout()
    text.setSpacing(1)
    title = QLabel(f"<b>{name}</b>")
    info = QLabel(detail)
    info.setWordWrap(True)
    set_role(info, "muted")
    text.addWidget(title)
    text.addWidget(info)
    badge = QLabel(state)
    set_role(badge, "badge", state=state)
    layout.addLayout(text, 1)
    layout.addWidget(badge)
    if button is not None:
        layout.addWidget(button)
    return frame


class ExtensionsPage(QWidget):
    """The Extensions page of one window's Settings dialog."""

    def __init__(self, extensions: WindowExtensions, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.extensions = extensions
        self.rows: dict[str, QFrame] = {}
        self.trust_buttons: dict[str, QPushButton] = {}
        self._dialogs: list[TrustDialog] = []
        self.form = ModelForm(ExtensionSettings)
        self.form.set_value(extensions.store.settings.extensions.model_dump(mode="json"))
        builtins = QGroupBox("Built-in extensions (saved with Save)")
        QVBoxLayout(builtins).addWidget(self.form)
        self.deny = QPlainTextEdit()
        self.deny.setObjectName("denyList")
        self.deny.setAccessibleName("Shell deny list")
        self.deny.setPlaceholderText("One pattern per line: a glob (sudo *) or re:REGEX")
        self.deny.setFixedHeight(120)
        self.deny_save = QPushButton("Save deny list")
        self.deny_note = QLabel()
        set_role(self.deny_note, "muted")
        deny_box = QGroupBox("Shell deny list (shell_deny_list)")
        deny_layout = QVBoxLayout(deny_box)
        deny_layout.addWidget(self.deny)
        deny_row = QHBoxLayout()
        deny_row.addWidget(self.deny_note, 1)
        deny_row.addWidget(self.deny_save)
        deny_layout.addLayout(deny_row)
        self.found = QVBoxLayout()
        self.found.setSpacing(6)
        self.reload_button = QPushButton("Reload extensions")
        self.summary = QLabel("Loading…")
        set_role(self.summary, "muted")
        found_box = QGroupBox("Found")
        found_layout = QVBoxLayout(found_box)
        head = QHBoxLayout()
        head.addWidget(self.summary, 1)
        head.addWidget(self.reload_button)
        found_layout.addLayout(head)
        found_layout.addLayout(self.found)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 8, 0)
        layout.addWidget(found_box)
        layout.addWidget(builtins)
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
        return self.form.value()

    # ------------------------------------------------------------------ deny list
    def _load_deny_list(self) -> None:
        try:
            patterns = load_patterns()
        except (OSError, ValueError) as exc:
            self.deny_note.setText(f"The deny list could not be read: {exc}")
            return
        self.deny.setPlainText("\n".join(patterns))
        self.deny_note.setText(str(deny_list_path()))

    def _on_save_deny(self) -> None:
        patterns = [p.strip() for p in self.deny.toPlainText().splitlines() if p.strip()]
        try:
            text = json.dumps({"patterns": patterns}, indent=2) + "\n"
            atomic_write(deny_list_path(), text, durable=True)
        except OSError as exc:
            self.deny_note.setText(f"Not saved: {exc}")
            return
        self.deny_note.setText(f"Saved {len(patterns)} patterns; they apply at once.")

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
        self.trust_buttons.clear()
        if runtime is None:
            return
        report = runtime.report
        for module in runtime.snapshot.modules:
            events = ", ".join(module.events) or "no events"
            detail = f"{module.manifest.version} · {module.origin} · {events}"
            self._add(module.name, "loaded", detail)
        for candidate, manifest, digest in report.untrusted:
            button = QPushButton("Review and trust…")
            button.clicked.connect(
                lambda _=False, c=candidate, m=manifest, d=digest: self.review(c, m, d)
            )
            self.trust_buttons[candidate.folder.name] = button
            detail = f"{manifest.display_name} {manifest.version} · from this workspace"
            self._add(candidate.folder.name, "untrusted", detail, button)
        for failure in report.failures:
            if failure.code != "trust_required":
                self._add(failure.extension, "failed", f"{failure.code}: {failure.message}")
        for candidate in report.disabled:
            self._add(candidate.folder.name, "off", f"{candidate.origin} · switched off")
        loaded = len(runtime.snapshot.modules)
        waiting = len(report.untrusted)
        self.summary.setText(f"{loaded} loaded · {waiting} waiting for trust")

    def _add(self, name: str, state: str, detail: str, button: QPushButton | None = None) -> None:
        row = _row(name, state, detail, button)
        self.rows[name] = row
        self.found.addWidget(row)

    def review(self, candidate: Any, manifest: Any, digest: str) -> TrustDialog:
        """Open the (non-modal) trust dialog of a workspace extension."""
        dialog = TrustDialog(self.extensions, candidate, manifest, digest, self)
        self._dialogs.append(dialog)
        dialog.finished.connect(lambda _: self._dialogs.remove(dialog))
        dialog.show()  # non-modal: the user may look at the code meanwhile
        return dialog
