"""The agent's configuration, from command-line flags and the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

RETRY_BASE_ENV = "AGENTDESK_AGENT_RETRY_BASE"
"""Seconds before the first retry (doubled each time); tests set it near zero."""

DEFAULT_SYSTEM_PROMPT = """\
You are the built-in coding agent of Agent Desk, working in the workspace folder {workspace}.
Use the tools to read, search and change files and to run commands; relative paths are relative \
to the workspace. Every tool call may need the user's approval; if a call is denied, respect the \
reason and choose another way or ask. Keep answers short and concrete."""


@dataclass
class SessionSettings:
    """Everything that shapes a session; ``model`` and ``thinking_budget`` may change live."""

    provider: str
    model: str
    api_key: str
    workspace: Path
    base_url: str | None = None
    max_tokens: int = 8192
    max_turns: int = 30
    system_prompt: str | None = None
    thinking_budget: int | None = None
    allow_outside_workspace: bool = False
    retries: int = 3
    retry_base: float = 1.0

    def __repr__(self) -> str:  # never show the key
        return f"SessionSettings(provider={self.provider!r}, model={self.model!r})"

    def system_text(self, context: str | None) -> str:
        """The system prompt, with ``init_history`` context appended."""
        base = self.system_prompt or DEFAULT_SYSTEM_PROMPT.format(workspace=self.workspace)
        if context:
            base += "\n\nContext from an earlier part of this conversation:\n" + context
        return base


def retry_base_from_env() -> float:
    """``AGENTDESK_AGENT_RETRY_BASE`` as seconds (default 1.0; bad values fall back to it)."""
    try:
        value = float(os.environ.get(RETRY_BASE_ENV, "1.0"))
    except ValueError:
        return 1.0
    return max(0.0, value)
