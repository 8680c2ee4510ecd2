"""The shell deny list itself: its patterns file, the match, and the host-side screen.

The list lives in ``<config>/shell-deny-list.json`` as ``{"patterns": [...]}`` and is read on
every request, so edits apply at once. A pattern is a glob matched against a whole command (``sudo
*``) or a regular expression searched in it when prefixed with ``re:``. It is matched against the
whole line and against every simple command in it (``desktop.core.shell_commands``), so ``echo ok;
sudo rm -rf /``, ``$(…)`` or ``bash -c '…'`` cannot hide a listed command.

``deny_list_screen`` is registered in the session's ``ApprovalBook.screens`` when the built-in is
enabled: it sees every shell request before the mode, the always-rules and the policies (so
``yolo`` or a rule on shell commands cannot run a listed command) and can only deny.
"""

from __future__ import annotations

import fnmatch
import json
import logging
import re
from collections.abc import Callable
from pathlib import Path

from desktop.core.approvals import Verdict
from desktop.core.classify import host_category
from desktop.core.events import Decision, DecisionSource, ToolCategory, ToolRequested
from desktop.core.paths import app_paths
from desktop.core.shell_commands import simple_commands
from desktop.core.texts import QT_TRANSLATE_NOOP, CoreText

log = logging.getLogger(__name__)

NAME = "shell_deny_list"
DENY_LIST_FILE = "shell-deny-list.json"
DEFAULT_PATTERNS = [
    "rm -rf /*",
    "rm -rf ~*",
    "sudo *",
    "git push --force*",
    "git push -f*",
    r"re:\bmkfs(\.\w+)?\b",
    r"re:curl[^|]*\|\s*(ba)?sh",
]


def deny_list_path() -> Path:
    """Where the user's deny list is kept."""
    return app_paths().config / DENY_LIST_FILE


def load_patterns(path: Path | None = None) -> list[str]:
    """The patterns of the deny list (written with defaults when missing; a broken file keeps
    the defaults in force rather than denying nothing)."""
    target = path or deny_list_path()
    try:
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps({"patterns": DEFAULT_PATTERNS}, indent=2) + "\n")
            return list(DEFAULT_PATTERNS)
        data = json.loads(target.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        log.warning("shell deny list %s unusable (%s); using the default patterns", target, exc)
        return list(DEFAULT_PATTERNS)
    patterns = data.get("patterns") if isinstance(data, dict) else data
    if not isinstance(patterns, list):
        return list(DEFAULT_PATTERNS)
    return [p for p in patterns if isinstance(p, str) and p.strip()]


def _matches(pattern: str, text: str) -> bool:
    if pattern.startswith("re:"):
        try:
            return re.search(pattern[3:], text) is not None
        except re.error:
            return False
    return fnmatch.fnmatchcase(text, pattern)


def matching_pattern(command: str, patterns: list[str]) -> str | None:
    """The first pattern that matches the whole ``command`` or any simple command in it."""
    texts = [command.strip()]
    if patterns:
        texts += simple_commands(command)
    for pattern in patterns:
        if any(_matches(pattern, text) for text in texts):
            return pattern
    return None


def shell_command(request: ToolRequested) -> str | None:
    """The command line a request would run, if it is a shell request (by the host's preview
    or the host's classification of the tool; the agent's claimed category never hides one)."""
    preview = request.preview
    if preview is not None and preview.kind == "command":
        return preview.text
    if host_category(request.name, request.category) != ToolCategory.EXEC:
        return None
    command = request.args.get("command", request.args.get("cmd"))
    if isinstance(command, list):
        return " ".join(str(part) for part in command)
    return command if isinstance(command, str) else None


def denial_text(pattern: str) -> CoreText:
    """What the user is told (in the window's language) and the agent (in English)."""
    text = QT_TRANSLATE_NOOP("ToolReason", "The command matches the deny list pattern {pattern}")
    return text.with_args(pattern=repr(pattern))


def denial_reason(pattern: str) -> str:
    """What the agent and the extension events are told."""
    return denial_text(pattern).english


def deny_list_screen(request: ToolRequested) -> Verdict | None:
    """A deny for a shell request that matches the deny list, else None."""
    command = shell_command(request)
    if command is None:
        return None
    pattern = matching_pattern(command, load_patterns())
    if pattern is None:
        return None
    log.info("denied a listed shell command (pattern %r)", pattern)
    text = denial_text(pattern)
    return Verdict(Decision.DENY, DecisionSource.EXTENSION, NAME, text.english, text)


def screen_while(enabled: Callable[[], bool]) -> Callable[[ToolRequested], Verdict | None]:
    """``deny_list_screen`` active only while ``enabled()`` (the window follows Settings)."""

    def screen(request: ToolRequested) -> Verdict | None:
        return deny_list_screen(request) if enabled() else None

    return screen
