"""What the Settings dialog shows for the settings' stored values: words, not identifiers.

The settings file keeps stable identifiers (``default``, ``system``, ``workspace-write``); the
dialog shows each choice in words ("Ask every time", "Follow the system"), looked up here by
field name and value. A value with no words here is shown as it is stored (a new choice still
shows up, only less kindly). Every string goes through Qt's translation function.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from desktop.ui.composer import _MODES, mode_label  # the composer's names of the approval modes

_CONTEXT = "Settings"


def tr(text: str) -> str:
    """``text`` in the user's language (the Settings dialog's translation context)."""
    return QCoreApplication.translate(_CONTEXT, text)


def _choices() -> dict[str, dict[str, str]]:
    return {
        "mode": {value: mode_label(value) for value, _label in _MODES},
        "theme": {
            "system": QCoreApplication.translate("Settings", "Follow the system"),
            "light": QCoreApplication.translate("Settings", "Light"),
            "dark": QCoreApplication.translate("Settings", "Dark"),
        },
        "provider": {"anthropic": "Anthropic", "openai": "OpenAI"},
        "protocol": {
            "aionrs": QCoreApplication.translate("Settings", "aionrs JSON stream"),
            "acp": QCoreApplication.translate("Settings", "Agent Client Protocol (ACP)"),
            "codex": QCoreApplication.translate("Settings", "Codex app-server"),
        },
        "preset": {
            "claude": "Claude Code",
            "gemini": "Gemini CLI",
            "codex-acp": "Codex (ACP)",
            "custom": QCoreApplication.translate("Settings", "Custom command"),
        },
        "sandbox": {
            "read-only": QCoreApplication.translate("Settings", "Read only"),
            "workspace-write": QCoreApplication.translate("Settings", "Write inside the workspace"),
            "danger-full-access": QCoreApplication.translate(
                "Settings", "Full access (no sandbox)"
            ),
        },
        "approval_policy": {
            "on-request": QCoreApplication.translate("Settings", "When Codex asks"),
            "on-failure": QCoreApplication.translate("Settings", "When a command fails"),
            "never": QCoreApplication.translate("Settings", "Never ask"),
        },
        "enabled_builtins": builtin_extensions(),
    }


def choice_label(field: str, value: str) -> str:
    """The words for ``value`` of the choice field ``field``."""
    return _choices().get(field, {}).get(value, value)


def builtin_extensions() -> dict[str, str]:
    """Built-in extensions in words (their manifests' display names)."""
    return {
        "read_only_auto_approve": QCoreApplication.translate(
            "Settings", "Auto-approve read-only tools"
        ),
        "shell_deny_list": QCoreApplication.translate("Settings", "Deny listed shell commands"),
        "file_change_review": QCoreApplication.translate("Settings", "Review file changes"),
    }


def agent_kind(kind: str) -> str:
    """An agent kind in words (the Agents page's list, its Add menu, the detail heading)."""
    kinds = {
        "builtin": QCoreApplication.translate("Settings", "Built-in agent"),
        "aionrs": "aionrs",
        "custom": QCoreApplication.translate("Settings", "Custom command"),
        "remote": QCoreApplication.translate("Settings", "Remote runtime"),
        "acp": QCoreApplication.translate("Settings", "ACP agent"),
        "codex": "OpenAI Codex",
    }
    return kinds.get(kind, kind)


def default_label(field: str) -> str:
    """What an empty optional choice means, for ``field``."""
    defaults = {
        "key_profile": QCoreApplication.translate("Settings", "Codex's own login"),
        "max_tokens": QCoreApplication.translate("Settings", "Agent's default"),
    }
    return defaults.get(field, QCoreApplication.translate("Settings", "Default"))
