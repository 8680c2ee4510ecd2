"""Why an agent cannot start: the closed set the launch and the event model both name.

``desktop.core.launch`` raises errors carrying a ``StartProblem`` and ``desktop.core.events``
reports it to the window (``StartFix``). It lives below both so the event model does not import
the launch layer above it, and it stays light (no pydantic): ``agentdesk exec`` imports the launch
records before the session engine and the wire models.
"""

from __future__ import annotations

from enum import StrEnum


class StartProblem(StrEnum):
    """Why an agent cannot start, in terms a window can act on (a closed set: a UI offers one
    fix per value, e.g. a key field for ``missing_key``, Install for ``missing_program``)."""

    MISSING_KEY = "missing_key"
    MISSING_PROGRAM = "missing_program"
    KEYRING_LOCKED = "keyring_locked"
    UNKNOWN_AGENT = "unknown_agent"
    UNKNOWN_PROFILE = "unknown_profile"
    UNAVAILABLE = "unavailable"
