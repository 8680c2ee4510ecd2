"""Trusting a workspace extension: code that came with a repository runs only after this.

The dialog shows where the extension lives, its manifest as written (name, agent id, declared
events and actions, runtime) and the content hash the decision is bound to: changed code asks
again. It is non-modal; "Trust and load" records the decision and reloads the runtime.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.extensions.manifest import MANIFEST_NAME
from desktop.ui.conversation.items import set_role

if TYPE_CHECKING:
    from desktop.ui.extensions.window import WindowExtensions


class TrustDialog(QDialog):
    """Review one untrusted workspace extension and trust it (or not)."""

    def __init__(
        self,
        extensions: WindowExtensions,
        candidate: Any,
        manifest: Any,
        digest: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("trustDialog")
        self.setWindowTitle(
            self.tr("Trust extension {display_name}?").format(display_name=manifest.display_name)
        )
        self.setModal(False)
        self.resize(620, 520)
        self._extensions = extensions
        self._candidate = candidate
        self._manifest = manifest
        self._digest = digest
        heading = QLabel(
            self.tr("<b>{display_name}</b> {version} wants to run in this workspace").format(
                display_name=manifest.display_name, version=manifest.version
            )
        )
        heading.setObjectName("pageTitle")
        heading.setWordWrap(True)
        warning = QLabel(
            self.tr(
                "Workspace extensions are Python code that came with the repository. Trust it only "
                "if you trust its authors: it runs with your permissions and can approve or deny "
                "tool calls."
            )
        )
        warning.setWordWrap(True)
        set_role(warning, "message", level="warning")
        where = QLabel(
            self.tr("Folder: {folder}\nContent hash: {digest}…").format(
                folder=candidate.folder, digest=digest[:16]
            )
        )
        where.setWordWrap(True)
        set_role(where, "muted")
        self.manifest_view = QPlainTextEdit()
        self.manifest_view.setReadOnly(True)
        self.manifest_view.setAccessibleName(self.tr("Manifest"))
        set_role(self.manifest_view, "output")
        self.manifest_view.setPlainText(self._manifest_text())
        self.trust_button = QPushButton(self.tr("Trust and load"))
        set_role(self.trust_button, "primary")
        self.cancel_button = QPushButton(self.tr("Not now"))
        self.result_label = QLabel()
        self.result_label.setWordWrap(True)
        buttons = QHBoxLayout()
        buttons.addWidget(self.result_label, 1)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.trust_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(18, 16, 18, 14)
        layout.setSpacing(10)
        for widget in (heading, warning, where):
            layout.addWidget(widget)
        layout.addWidget(QLabel(MANIFEST_NAME))
        layout.addWidget(self.manifest_view, 1)
        layout.addLayout(buttons)
        self.trust_button.clicked.connect(self._on_trust)
        self.cancel_button.clicked.connect(self.reject)

    def _manifest_text(self) -> str:
        path = self._candidate.folder / MANIFEST_NAME
        try:
            return json.dumps(json.loads(path.read_text(encoding="utf-8")), indent=2)
        except (OSError, ValueError):
            dumped = self._manifest.model_dump(by_alias=True, mode="json")
            return json.dumps(dumped, indent=2)

    def _on_trust(self) -> None:
        self.trust_button.setEnabled(False)
        self._extensions.scope.spawn(self.trust(), name="trust extension")

    async def trust(self) -> None:
        """Record the decision, reload, and close when the extension loaded."""
        runtime = await self._extensions.ensure_runtime()
        store = runtime.loader.trust_store
        store.trust(self._candidate.folder, self._digest, self._manifest.name)
        result = await self._extensions.reload()
        if result.get("status") == "ok":
            self.accept()
            return
        errors = "; ".join(f"{e['extension']}: {e['message']}" for e in result.get("errors", []))
        self.result_label.setText(
            self.tr("Trusted, but loading failed: {errors}").format(errors=errors)
        )
        set_role(self.result_label, "message", level="error")
        self.trust_button.setEnabled(True)
