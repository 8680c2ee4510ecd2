"""Event names of raw agent signals: ``<source>.<normalized_method>``.

App-server notifications become ``app_server.<norm(method)>`` and server-initiated requests
``app_server.request.<norm(method)>``; other protocols use the same scheme with their own
prefix (``aionrs.tool_request``).
"""

from __future__ import annotations

import functools
import re

from desktop.sdk.types import SignalType

_NON_ALNUM = re.compile(r"[^A-Za-z0-9]+")
_ACRONYM = re.compile(r"([A-Z]+)([A-Z][a-z])")
_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
_UNDERSCORES = re.compile(r"_+")


def _segment(raw: str) -> str:
    text = raw.strip() or "unknown"
    text = _NON_ALNUM.sub("_", text)
    text = _ACRONYM.sub(r"\1_\2", text)
    text = _CAMEL.sub(r"\1_\2", text)
    return _UNDERSCORES.sub("_", text).strip("_").lower()


def normalize_method(method: str) -> str:
    """``item/commandExecution/requestApproval`` → ``item.command_execution.request_approval``.

    Each ``/`` segment is trimmed (empty → ``unknown``), non-alphanumeric runs become ``_``,
    camelCase and PascalCase become snake_case; empty segments are dropped. An empty result is
    ``unknown``.
    """
    parts = [s for s in (_segment(p) for p in method.split("/")) if s]
    return ".".join(parts) or "unknown"


@functools.lru_cache(maxsize=4096)
def signal_event_name(source: str, method: str, signal_type: SignalType | str) -> str:
    """``<source>.<norm>`` for notifications, ``<source>.request.<norm>`` for requests."""
    middle = ".request" if signal_type == "request" else ""
    return f"{source}{middle}.{normalize_method(method)}"


def app_server_event_name(method: str, signal_type: SignalType | str = "notification") -> str:
    """The event name of an app-server signal (``signal_type``: notification or request)."""
    return signal_event_name("app_server", method, signal_type)
