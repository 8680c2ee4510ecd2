"""What a window shows until its first conversation exists: an empty transcript and composer.

The first window paints before the core, the agent and the renderers are imported (see
``desktop.ui.startup``); this page gives that first frame the final layout, so nothing jumps
when the real conversation replaces it a moment later. It imports only Qt and the light UI modules.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QVBoxLayout, QWidget

from desktop.ui.composer import Composer
from desktop.ui.welcome.empty import EmptyState


class EmptyConversation(QWidget):
    """An empty conversation page (the same empty state as a new conversation's) with a
    disabled composer: the agent is still loading."""

    def __init__(self, workspace: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("conversationPane")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        self.empty = EmptyState(workspace)
        layout.addWidget(self.empty, 1)
        self.composer = Composer(workspace)
        self.composer.editor.setPlaceholderText(self.tr("Starting the agent…"))
        self.composer.setEnabled(False)
        layout.addWidget(self.composer)
        self.setAccessibleName(self.tr("Conversation (starting)"))
