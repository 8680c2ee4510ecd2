"""A workspace window's agent bar: the toolbar with the agent for new conversations.

``WorkspaceWindow`` makes it with its first frame, the picker still empty and disabled; the
Settings add-ons (a plug-in: ``desktop.ui.addons``) fill and enable the picker and add the
Settings button after the first paint. The bar exists from the first frame so the conversation
does not move down when they arrive. Kept apart from the window because it is one self-contained
widget the window only places; its texts keep the window's translation context, where the
catalogue has them.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QComboBox, QLabel, QMainWindow, QToolBar


def add_agent_bar(window: QMainWindow) -> tuple[QToolBar, QComboBox]:
    """Add the agent bar to ``window``; returns the bar and its (empty, disabled) picker."""
    bar = QToolBar("Agent", window)
    bar.setObjectName("agentToolbar")
    bar.setMovable(False)
    label = QLabel(QCoreApplication.translate("WorkspaceWindow", "  &Agent: "))
    bar.addWidget(label)
    picker = QComboBox()
    picker.setObjectName("agentPicker")
    for_new = QCoreApplication.translate("WorkspaceWindow", "Agent for new conversations")
    picker.setAccessibleName(for_new)
    picker.setToolTip(for_new)
    picker.setMinimumContentsLength(18)
    picker.setEnabled(False)  # until the add-ons have filled it
    bar.addWidget(picker)
    window.addToolBar(bar)
    label.setBuddy(picker)  # Alt+A goes to the picker
    return bar, picker
