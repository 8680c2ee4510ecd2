"""The extension runtime of one workspace window, attached to each of its conversations.

Like ``agentdesk exec``, the runtime is built only when something could load (an enabled
built-in, a folder of extensions), so a plain window pays nothing for it; the Extensions page and
a settings change build it on demand. Each conversation is connected as ``exec`` connects its
own: ``Conversation.extend`` with an ``ExtensionLink`` (``desktop.core.extensions.link``), which
screens its shell requests with the built-in deny list while Settings enable it and attaches it
to the runtime once there is one. Entries that extensions post (``transcript.upsert``) appear in
that conversation, and "Suggest next prompt" emits ``suggest_request.requested`` and waits for
the winning job's text.
"""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from desktop.core.entries import MessageItem
from desktop.core.events import Notice
from desktop.core.extensions.link import ExtensionLink, something_to_load
from desktop.core.settings import SettingsStore
from desktop.ui.qt_async import TaskScope

if TYPE_CHECKING:
    from desktop.core.extensions.bridge import SessionBridge
    from desktop.core.extensions.executor import TranscriptEntry
    from desktop.core.extensions.runtime import ExtensionRuntime
    from desktop.ui.pane import ConversationPane

log = logging.getLogger(__name__)

SUGGEST_EVENT = "suggest_request.requested"
SUGGEST_TIMEOUT = 300.0


class SuggestionError(Exception):
    """No suggestion could be made; the message is for the user."""


class WindowExtensions(QObject):
    """Owns the runtime of one window and the links of its conversations to it.

    Signals:
        changed(): the runtime was (re)loaded; the Extensions page shows the new report.
    """

    changed = Signal()

    def __init__(self, workspace: Path, store: SettingsStore, scope: TaskScope) -> None:
        super().__init__()
        self.workspace = workspace
        self.store = store
        self.scope = scope
        self.runtime: ExtensionRuntime | None = None
        self.links: dict[ConversationPane, ExtensionLink] = {}
        self._entries: dict[tuple[int, str], MessageItem] = {}
        self._unsubscribe = store.subscribe(self._on_settings)
        self._closed = False

    # ------------------------------------------------------------------ lifecycle
    def start_if_needed(self) -> None:
        """Build the runtime in the background when some extension could load."""
        enabled = list(self.store.settings.extensions.enabled_builtins)
        if self._closed:
            return
        if self.runtime is None and something_to_load(self.workspace, enabled):
            self.scope.spawn(self.ensure_runtime(), name="extensions")

    async def ensure_runtime(self) -> ExtensionRuntime:
        """The runtime, built and started on first use."""
        if self.runtime is None:
            from desktop.core.extensions.runtime import create_runtime

            config = self.store.settings.extensions
            runtime = create_runtime(
                self.workspace, enabled_builtins=config.enabled_builtins, disabled=config.disabled
            )
            self.runtime = runtime
            await runtime.start()
            if self._closed:  # the window closed meanwhile: its aclose found nothing to stop
                await runtime.close()
                return runtime
            for link in self.links.values():
                link.connect(runtime)
            self.changed.emit()
        return self.runtime

    async def reload(self) -> dict[str, Any]:
        """Apply the current settings and trust decisions: load again (the old set stays when
        the new one fails)."""
        runtime = await self.ensure_runtime()
        config = self.store.settings.extensions
        loader = runtime.loader
        loader.sources = dataclasses.replace(
            loader.sources, enabled_builtins=frozenset(config.enabled_builtins)
        )
        loader.disabled = frozenset(config.disabled)
        result = await runtime.reload()
        self.changed.emit()
        return result

    async def aclose(self) -> None:
        """Detach every conversation and stop the job queue."""
        self._closed = True
        self._unsubscribe()
        if self.runtime is not None:
            await self.runtime.close()

    def _on_settings(self, section: str) -> None:
        if section in ("", "extensions") and (
            self.runtime is not None or self.store.settings.extensions.enabled_builtins
        ):
            self.scope.spawn(self.reload(), name="extensions reload")

    # ------------------------------------------------------------------ conversations
    def add_pane(self, pane: ConversationPane) -> None:
        """Connect a conversation (to the runtime now, or when it is built)."""
        if pane in self.links:
            return

        def show(_session: str, entry: TranscriptEntry, module: str) -> None:
            self._show_entry(pane, entry, module)

        link = ExtensionLink(show, deny_list=self._deny_list_enabled, title=pane.title)
        self.links[pane] = link
        pane.conversation.extend(link)
        if self.runtime is not None:
            link.connect(self.runtime)

    @property
    def bridges(self) -> dict[ConversationPane, SessionBridge]:
        """The conversations attached to the runtime, and their bridges."""
        return {pane: link.bridge for pane, link in self.links.items() if link.bridge is not None}

    def _deny_list_enabled(self) -> bool:
        """Whether Settings enable the built-in shell deny list (read on each request)."""
        from desktop.core.extensions.builtin.shell_deny_list.screen import NAME

        config = self.store.settings.extensions
        return NAME in config.enabled_builtins and NAME not in config.disabled

    def remove_pane(self, pane: ConversationPane) -> None:
        """Disconnect a closed conversation."""
        for key in [key for key in self._entries if key[0] == id(pane)]:
            del self._entries[key]
        link = self.links.pop(pane, None)
        if link is not None:
            link.detach()

    def _show_entry(self, pane: ConversationPane, entry: TranscriptEntry, module: str) -> None:
        """An extension's post, as an inline message; later updates change it in place."""
        text = f"{module} · {entry.type}\n{entry.content.strip()}"
        level = "warning" if entry.status == "error" else "info"
        key = (id(pane), entry.messageId)
        item = self._entries.get(key)
        if item is None:
            pane.transcript.apply(Notice(level=level, message=text))
            added = pane.transcript.items[-1]
            if isinstance(added, MessageItem):
                self._entries[key] = added
            return
        pane.transcript.update(item, text=text, level=level)

    # ------------------------------------------------------------------ suggestions
    def can_suggest(self) -> bool:
        """Whether a loaded extension answers "Suggest next prompt"."""
        return self.runtime is not None and self.runtime.snapshot.has_handlers(SUGGEST_EVENT)

    async def suggest(self, pane: ConversationPane, draft: str | None = None) -> str:
        """Emit ``suggest_request.requested`` and return the suggested prompt.

        Raises:
            SuggestionError: no extension answers, or its job failed.
        """
        await self.ensure_runtime()
        link = self.links.get(pane)
        bridge = link.bridge if link is not None else None
        if bridge is None or not self.can_suggest():
            raise SuggestionError("No extension offers suggestions (see Settings → Extensions).")
        outcome = await bridge.suggest_next_prompt(draft)
        winner = outcome.get("winner")
        if winner is None:
            raise SuggestionError("A suggestion is already being made (job_conflict).")
        assert self.runtime is not None
        job = await self.runtime.jobs.wait(winner["job"]["id"], SUGGEST_TIMEOUT)
        if job.get("state") != "completed":
            raise SuggestionError(f"The suggestion failed: {job.get('error') or job.get('state')}")
        result = job.get("result")
        text = result.get("text") if isinstance(result, dict) else result
        if not isinstance(text, str) or not text.strip():
            raise SuggestionError("The extension suggested nothing.")
        return text.strip()
