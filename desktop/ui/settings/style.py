"""The Settings dialog's own style rules (added to the dialog only, on top of the app theme).

A template in the palette's colour names: the dialog ``theme.follow``s it, so it is restyled
with the application when the theme changes.
"""

from __future__ import annotations

SHEET = """
QDialog#settingsDialog {{ background: {window}; }}
QListWidget#settingsNav {{ background: {sidebar}; border: none; border-radius: 10px; padding: 6px;
    outline: 0; font-size: 11pt; }}
QListWidget#settingsNav::item {{ padding: 9px 12px; border-radius: 7px; margin: 1px 0; }}
QListWidget#settingsNav::item:selected {{ background: {user_bubble}; color: {text}; }}
QListWidget#settingsNav::item:hover:!selected {{ background: {surface}; }}
QListWidget#settingsList {{ background: {surface}; border: 1px solid {border}; border-radius: 8px;
    padding: 4px; outline: 0; }}
QListWidget#settingsList::item {{ padding: 7px 9px; border-radius: 6px; }}
QListWidget#settingsList::item:selected {{ background: {user_bubble}; color: {text}; }}
QGroupBox {{ background: {surface}; border: 1px solid {border}; border-radius: 10px;
    margin-top: 16px; padding: 14px 12px 10px; }}
QGroupBox::title {{ subcontrol-origin: margin; left: 10px; padding: 0 4px; color: {muted}; }}
QLineEdit, QPlainTextEdit {{ background: {window}; border: 1px solid {border}; border-radius: 6px;
    padding: 4px 6px; }}
QLineEdit:focus, QPlainTextEdit:focus {{ border-color: {accent}; }}
QLabel#settingsBanner {{ background: {surface}; border: 1px solid {warning}; border-radius: 8px;
    padding: 8px 10px; }}
QLabel#pageTitle {{ font-size: 14pt; font-weight: 600; padding: 2px 0 4px; }}
QLabel#maskedKey {{ font-family: monospace; }}
QFrame[role="extension"] {{ background: {window}; border: 1px solid {border};
    border-radius: 8px; }}
QLabel[role="badge"] {{ border-radius: 8px; padding: 1px 8px; font-size: 8.5pt;
    color: {accent_text}; background: {muted}; }}
QLabel[role="badge"][state="loaded"] {{ background: {success}; }}
QLabel[role="badge"][state="failed"] {{ background: {danger}; }}
QLabel[role="badge"][state="untrusted"] {{ background: {warning}; }}
QToolButton#addButton, QToolButton#removeButton {{ border: 1px solid {border};
    padding: 4px 10px; }}
QScrollArea {{ background: transparent; }}
QCheckBox::indicator {{ width: 14px; height: 14px; border: 2px solid {muted}; border-radius: 4px;
    background: {window}; }}
QCheckBox::indicator:checked {{ background: {accent}; border-color: {accent}; }}
QCheckBox:focus::indicator {{ border-color: {accent}; }}
"""
