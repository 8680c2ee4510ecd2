"""``ExtensionLink``: the extensions collaborator of a ``desktop.core.conversation.Conversation``.

The window and ``agentdesk exec`` connect a conversation to extensions through this one class;
each supplies its own runtime (the window's, built on demand and shared by its conversations;
``exec``'s own) and says where the entries extensions post go (an inline message in the window,
stderr for ``exec``). The link:

- screens every shell request of the conversation with the built-in shell deny list, before the
  mode and the always-rules, while ``deny_list()`` says it is switched on (checked on each
  request, so a settings change applies at once, also before a runtime is built);
- attaches the conversation's session to the runtime once there is one (``connect``), and lets
  extensions decide a pending tool request before another subscriber does (``defer``).

This module imports no part of the runtime at import time: ``exec`` decides that nothing could
load (``something_to_load``) without paying for it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from desktop.core.extensions.locations import search_roots
from desktop.core.paths import app_paths

if TYPE_CHECKING:
    from desktop.core.extensions.bridge import SessionBridge, TranscriptListener
    from desktop.core.extensions.runtime import ExtensionRuntime
    from desktop.core.session import Session, Subscriber


def something_to_load(workspace: Path, enabled: Sequence[str]) -> bool:
    """Whether any extension could load: an enabled built-in, or a folder with extensions.
    Otherwise the runtime is not even imported (about 0.2 s of every start-up)."""
    if enabled:
        return True
    roots = search_roots(app_paths().config, workspace)
    return any(root.is_dir() and any(root.iterdir()) for root in roots)


class ExtensionLink:
    """Connects one conversation to an extension runtime.

    Args:
        post: Receives what extensions post into the conversation.
        deny_list: Whether the shell deny list screens this conversation now (None: never).
        title: The conversation's title as extensions see it.
    """

    def __init__(
        self,
        post: TranscriptListener,
        *,
        deny_list: Callable[[], bool] | None = None,
        title: str | None = None,
    ) -> None:
        self._post = post
        self._deny_list = deny_list
        self._title = title
        self._session: Session | None = None
        self._runtime: ExtensionRuntime | None = None
        #: The session's bridge to the runtime (None until both are there).
        self.bridge: SessionBridge | None = None

    def attach(self, session: Session) -> None:
        """Screen ``session``'s shell requests and connect it once a runtime is there
        (``Conversation.extend``)."""
        if self._session is not None:
            return
        self._session = session
        if self._deny_list is not None:
            from desktop.core.extensions.builtin.shell_deny_list.screen import NAME, screen_while

            session.approvals.screens.append((NAME, screen_while(self._deny_list)))
        self._connect()

    def connect(self, runtime: ExtensionRuntime) -> None:
        """The runtime is started: attach the conversation to it."""
        self._runtime = runtime
        self._connect()

    def _connect(self) -> None:
        if self._runtime is None or self._session is None or self.bridge is not None:
            return
        self.bridge = self._runtime.attach(self._session, title=self._title)
        self.bridge.on_transcript(self._post)

    def defer(self, subscriber: Subscriber) -> Subscriber:
        """``subscriber`` seeing a pending tool request only after extensions had their say."""
        return self.bridge.defer(subscriber) if self.bridge is not None else subscriber

    def detach(self) -> None:
        """Disconnect the conversation from the runtime."""
        if self.bridge is not None and self._runtime is not None:
            self._runtime.detach(self.bridge)
        self.bridge = None
