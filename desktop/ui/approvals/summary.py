"""Tool calls in words: the sentence a card is titled with, and who decided it.

A card says what will happen ("Edit `src/util.py` (+12 −3)", "Run `make all` in ~/proj",
"Use tool `fetch`") rather than a tool name, a category and raw JSON, and once decided it
says who decided in plain words ("Allowed by your always-rule for shell commands"). Kept free
of widgets so the wording is one function each, testable on its own.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication

from desktop.core.approvals import CATEGORY_LABELS
from desktop.core.events import (
    Decision,
    DecisionSource,
    ToolCategory,
    ToolDecided,
    ToolRequested,
    UnaskedRun,
)
from desktop.ui.i18n import QT_TRANSLATE_NOOP
from desktop.ui.i18n.core_text import shown

#: Qt's translation (``lupdate`` finds ``translate(context, text)`` calls by that name).
translate = QCoreApplication.translate
#: Characters of a target (path, command, pattern) shown in a title; the tooltip has it all.
TARGET_CHARS = 64
#: The composer's names of the approval modes (the composer cannot import the core).
MODE_LABELS = {
    "default": QT_TRANSLATE_NOOP("Decision", "Ask every time"),
    "auto_edit": QT_TRANSLATE_NOOP("Decision", "Auto-approve edits"),
    "yolo": QT_TRANSLATE_NOOP("Decision", "Approve everything"),
}
_READ = {"read", "read_file", "readfile", "view", "cat", "open_file"}
_WRITE = {"write", "create", "write_file", "writefile"}
_EDIT = {"edit", "str_replace", "multiedit", "edit_file"}
_SEARCH = {"grep", "search", "glob", "find", "rg", "ripgrep", "search_files", "find_files"}
_LIST = {"ls", "list", "list_dir", "list_directory", "listdir"}
_FETCH = {"webfetch", "web_fetch", "fetch", "fetch_url"}
_WEB_SEARCH = {"websearch", "web_search", "google_web_search"}
_PATH_ARGS = ("file_path", "path", "filePath", "filename", "directory", "dir")
_PATTERN_ARGS = ("pattern", "query", "regex", "glob", "q")


@dataclass(frozen=True)
class Sentence:
    """What a call does: ``verb`` ``target`` (shown as code) and a trailing ``where``.

    ``added``/``removed`` are the diff's line counts (``None`` when there is no diff);
    ``target`` is shortened for the title, ``full_target`` is the whole of it (tooltip).
    """

    verb: str
    target: str = ""
    full_target: str = ""
    where: str = ""
    added: int | None = None
    removed: int | None = None

    def stats(self) -> str:
        """``(+12 −3)``, ``(+40)`` for a new file, or ""."""
        if self.added is None:
            return ""
        if not self.removed:
            return f"(+{self.added})"
        return f"(+{self.added} −{self.removed})"

    def plain(self) -> str:
        """The sentence as plain text (accessible names, tests, exported text)."""
        parts = [self.verb]
        if self.target:
            parts.append(f"`{self.target}`")
        if self.where:
            parts.append(self.where)
        if self.stats():
            parts.append(self.stats())
        return " ".join(parts)


def shorten_home(path: str) -> str:
    """``/home/me/proj`` → ``~/proj``."""
    home = os.path.expanduser("~")
    if home not in ("", "/") and (path == home or path.startswith(home + os.sep)):
        return "~" + path[len(home) :]
    return path


def _elide(text: str, limit: int = TARGET_CHARS) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    half = (limit - 1) // 2
    return text[:half].rstrip() + "…" + text[-(limit - 1 - half) :].lstrip()


def _first_str(args: dict[str, object], keys: tuple[str, ...]) -> str:
    for key in keys:
        value = args.get(key)
        if isinstance(value, str) and value:
            return value
    return ""


def _diff_label(diff: str) -> str:
    for line in diff.splitlines():
        if line.startswith("+++ "):
            label = line[4:].split("\t")[0]
            return label[2:] if label.startswith("b/") else label
    return ""


def _diff_counts(diff: str) -> tuple[int, int]:
    added = removed = 0
    for line in diff.splitlines():
        if line.startswith("+") and not line.startswith("+++ "):
            added += 1
        elif line.startswith("-") and not line.startswith("--- "):
            removed += 1
    return added, removed


def _sentence(verb: str, target: str, **extra: object) -> Sentence:
    return Sentence(verb, _elide(target), " ".join(target.split()), **extra)  # type: ignore[arg-type]


def tool_sentence(request: ToolRequested) -> Sentence:
    """The title of a call's card, from the host's preview and the arguments."""
    key = request.name.lower()
    args = request.args
    preview = request.preview
    raw_path = _first_str(args, _PATH_ARGS)
    path = raw_path if raw_path and not os.path.isabs(raw_path) else shorten_home(raw_path)
    if preview is not None and preview.kind == "diff":
        label = _diff_label(preview.text) or path
        added, removed = _diff_counts(preview.text)
        verb = (
            translate("ToolSentence", "Create")
            if preview.new_file
            else translate("ToolSentence", "Edit")
        )
        return _sentence(verb, shorten_home(label), added=added, removed=removed)
    if preview is not None and preview.kind == "command":
        where = (
            translate("ToolSentence", "in {path}").format(path=shorten_home(preview.cwd))
            if preview.cwd
            else ""
        )
        return _sentence(translate("ToolSentence", "Run"), preview.text, where=where)
    if key in _WRITE or key in _EDIT:
        if not path:
            return Sentence(request.name)
        create = key in _WRITE
        verb = translate("ToolSentence", "Create") if create else translate("ToolSentence", "Edit")
        return _sentence(verb, path)
    command = args.get("command", args.get("cmd"))
    if isinstance(command, str) and command and request.category == ToolCategory.EXEC:
        return _sentence(translate("ToolSentence", "Run"), command)
    if key in _READ and path:
        return _sentence(translate("ToolSentence", "Read"), path)
    if key in _LIST:
        return _sentence(translate("ToolSentence", "List"), path or ".")
    pattern = _first_str(args, _PATTERN_ARGS)
    if key in _WEB_SEARCH and pattern:
        return _sentence(translate("ToolSentence", "Search the web for"), pattern)
    if key in _SEARCH and pattern:
        return _sentence(
            translate("ToolSentence", "Search for"),
            pattern,
            where=translate("ToolSentence", "in {path}").format(path=path) if path else "",
        )
    url = _first_str(args, ("url", "uri"))
    if key in _FETCH and url:
        return _sentence(translate("ToolSentence", "Fetch"), url)
    return _sentence(translate("ToolSentence", "Use tool"), request.name)


def extra_description(request: ToolRequested, sentence: Sentence) -> str:
    """The agent's description when it says more than the title (else "").

    Agents often send the call again as its description (``ExecCommand: {"cmd": ...}``,
    ``Write to notes.md``); that is noise beside a title that already says it.
    """
    text = " ".join(request.description.split())
    if not text or "{" in text:
        return ""
    lowered = text.lower()
    known = [request.name, sentence.full_target, *(str(v) for v in request.args.values())]
    if any(k and len(k) > 2 and " ".join(k.split()).lower() in lowered for k in known):
        return ""
    return text


def _rule_label(event: ToolDecided, category: str) -> str:
    name = (event.source_name or category).removeprefix("deny:")
    try:
        return CATEGORY_LABELS[ToolCategory(name)]
    except ValueError:
        return name


def describe_decision(event: ToolDecided, category: str) -> str:
    """Who decided a call, in words: "Approved by you", "Denied by policy shell_deny_list";
    the host's reason translated (``ToolDecided.i18n``), the user's or agent's as it is."""
    approved = not event.decision.denies
    reason = shown(event.reason, event.i18n) if event.reason else ""
    source, name = event.source, event.source_name or ""
    if source == DecisionSource.USER:
        if event.decision in (Decision.ALWAYS, Decision.REJECT_ALWAYS):
            label = CATEGORY_LABELS.get(ToolCategory(category), category) if category in set(
                ToolCategory) else category  # fmt: skip
            text = (
                translate("Decision", "Approved by you, always for {label}")
                if approved
                else translate("Decision", "Denied by you, always for {label}")
            ).format(label=label)
        else:
            text = (
                translate("Decision", "Approved by you")
                if approved
                else translate("Decision", "Denied by you")
            )
    elif source == DecisionSource.MODE:
        mode = translate("Decision", MODE_LABELS.get(name, name))
        text = (
            translate("Decision", "Allowed by mode {mode}")
            if approved
            else translate("Decision", "Denied by mode {mode}")
        )
        text = text.format(mode=mode).rstrip()
    elif source == DecisionSource.ALWAYS_RULE:
        rule = _rule_label(event, category)
        text = (
            translate("Decision", "Allowed by your always-rule for {rule}")
            if approved
            else translate("Decision", "Denied by your always-rule for {rule}")
        ).format(rule=rule)
    elif source == DecisionSource.EXTENSION:
        text = (
            translate("Decision", "Allowed by extension {name}")
            if approved
            else translate("Decision", "Denied by extension {name}")
        )
        text = text.format(name=name).rstrip()
    elif source == DecisionSource.POLICY:
        text = (
            translate("Decision", "Allowed by policy {name}")
            if approved
            else translate("Decision", "Denied by policy {name}")
        )
        text = text.format(name=name).rstrip()
    else:
        if reason:
            return translate("Decision", "Not run: {reason}").format(reason=reason)
        return translate("Decision", "Not run: the session was closed")
    return f"{text}: {reason}" if reason else text


def describe_unasked(category: str, unasked: str | None) -> tuple[str, str]:
    """What a card run without a request says, and its tone ("warning" or "").

    The host marks such runs (``ToolStarted.unasked``): a read-only tool run by the agent's own
    allow-list, or a tool the approval mode the user chose covers, is plain information; any
    other tool run without asking, while the host approves tools, is a warning.
    """
    if unasked == UnaskedRun.WARNING:
        return translate("Decision", "The agent ran this without asking"), "warning"
    if unasked == UnaskedRun.ALLOWED:
        if category == ToolCategory.INFO:
            return translate("Decision", "Run by the agent (read-only)"), ""
        return translate("Decision", "Run by the agent (your approval mode allows it)"), ""
    return translate("Decision", "Run by the agent without asking"), ""


def clock(at: float) -> str:
    """Local time of day, ``HH:MM``."""
    return time.strftime("%H:%M", time.localtime(at))
