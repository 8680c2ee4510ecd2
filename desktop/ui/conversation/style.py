"""The conversation's own style sheet: thinking, the answers' Copy, a finished edit's Review.

A template over the palette's colour names (``theme.follow`` formats it with the palette in
use and again after every theme change), set on the conversation view so it reaches every item.
Sizes are in points, so View ▸ Zoom scales them; ``tests/ui_widgets/test_contrast.py`` checks
its colours.
"""

from __future__ import annotations

SHEET = """
QToolButton[role="thinkingToggle"] {{ color: {muted}; font-size: 9.5pt; font-weight: 600;
    padding: 2px 6px 2px 0; border: none; }}
QToolButton[role="thinkingToggle"]:hover {{ color: {text}; background: transparent; }}
QLabel[role="thinkingPreview"] {{ color: {muted}; font-size: 9.5pt; font-style: italic;
    border-left: 2px solid {border}; padding: 1px 0 1px 10px; }}
QTextBrowser#thinkingText {{ color: {muted}; background: transparent;
    border: none; border-left: 2px solid {border}; padding-left: 10px; }}
QToolButton[role="copyAnswer"] {{ color: {muted}; font-size: 9pt; padding: 2px 6px;
    border-radius: 6px; }}
QToolButton[role="copyAnswer"]:hover, QToolButton[role="copyAnswer"]:focus {{
    color: {text}; background: {surface}; }}
QPushButton[role="reviewEdit"] {{ color: {accent}; background: transparent;
    border: 1px solid {border}; border-radius: 6px; padding: 1px 9px; font-size: 9pt; }}
QPushButton[role="reviewEdit"]:hover, QPushButton[role="reviewEdit"]:focus {{
    border-color: {accent}; }}
"""
