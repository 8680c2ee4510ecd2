"""What the Settings dialog shows for the settings' stored values: words, not identifiers.

The settings file keeps stable identifiers (``default``, ``system``, ``workspace-write``); the
dialog shows each choice in words ("Ask every time", "Follow the system"), looked up here by
field name and value. A value with no words here is shown as it is stored (a new choice still
shows up, only less kindly). Every string goes through Qt's translation function.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from desktop.ui.composer import _MODES  # the composer's names of the approval modes

_CONTEXT = "Settings"


def tr(text: str) -> str:
    """``text`` in the user's language (the Settings dialog's translation context)."""
    return QCoreApplication.translate(_CONTEXT, text)


def _choices() -> dict[str, dict[str, str]]:
    return {
        "mode": {value: tr(label) for value, label in _MODES},
        "theme": {"system": tr("Follow the system"), "light": tr("Light"), "dark": tr("Dark")},
        "provider": {"anthropic": "Anthropic", "openai": "OpenAI"},
        "protocol": {
            "aionrs": tr("aionrs JSON stream"),
            "acp": tr("Agent Client Protocol (ACP)"),
            "codex": tr("Codex app-server"),
        },
        "preset": {
            "claude": "Claude Code",
            "gemini": "Gemini CLI",
            "codex-acp": "Codex (ACP)",
            "custom": tr("Custom command"),
        },
        "sandbox": {
            "read-only": tr("Read only"),
            "workspace-write": tr("Write inside the workspace"),
            "danger-full-access": tr("Full access (no sandbox)"),
        },
        "approval_policy": {
            "on-request": tr("When Codex asks"),
            "on-failure": tr("When a command fails"),
            "never": tr("Never ask"),
        },
        "enabled_builtins": builtin_extensions(),
    }


def choice_label(field: str, value: str) -> str:
    """The words for ``value`` of the choice field ``field``."""
    return _choices().get(field, {}).get(value, value)


def builtin_extensions() -> dict[str, str]:
    """Built-in extensions in words (their manifests' display names)."""
    return {
        "read_only_auto_approve": tr("Auto-approve read-only tools"),
        "shell_deny_list": tr("Deny listed shell commands"),
        "file_change_review": tr("Review file changes"),
    }


def agent_kind(kind: str) -> str:
    """An agent kind in words (the Agents page's list, its Add menu, the detail heading)."""
    kinds = {
        "builtin": tr("Built-in agent"),
        "aionrs": "aionrs",
        "custom": tr("Custom command"),
        "remote": tr("Remote runtime"),
        "acp": tr("ACP agent"),
        "codex": "OpenAI Codex",
    }
    return kinds.get(kind, kind)


def default_label(field: str) -> str:
    """What an empty optional choice means, for ``field``."""
    defaults = {
        "key_profile": tr("Codex's own login"),
        "max_tokens": tr("Agent's default"),
    }
    return defaults.get(field, tr("Default"))
