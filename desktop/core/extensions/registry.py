"""What an extension's ``register_agent_events(registry)`` sees, and the loaded result.

Registration validates loosely, as the contract does: a blank event type is ignored, a
non-number priority becomes 100 and a non-positive timeout 30 s. Unlike the reference, a
timeout below 1 ms is raised to 1 ms instead of flooring to 0 (trap T5).
"""

from __future__ import annotations

import functools
import math
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from desktop.core.extensions.manifest import ExtensionManifest
from desktop.sdk.types import AgentEventHandler, AgentJobHandler, JsonDict

DEFAULT_PRIORITY = 100
DEFAULT_TIMEOUT_MS = 30_000
DEDUPE_STRATEGIES = ("none", "single_flight", "drop_duplicate", "merge_duplicate")


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def normalize_priority(value: Any) -> int:
    """A finite number is floored (``-0.5`` → ``-1``); anything else is 100."""
    result: int = math.floor(value) if _is_number(value) else DEFAULT_PRIORITY
    return result


def normalize_timeout_ms(value: Any) -> int:
    """A finite positive number is floored but at least 1; anything else is 30,000."""
    if _is_number(value) and value > 0:
        floored: int = math.floor(value)
        return max(1, floored)
    return DEFAULT_TIMEOUT_MS


@dataclass(frozen=True)
class HandlerRegistration:
    """One ``on(...)`` call, after validation."""

    module_name: str
    event_type: str
    handler: AgentEventHandler
    priority: int
    timeout_ms: int
    index: int = 0

    @property
    def order_key(self) -> tuple[int, str, int]:
        """Dispatch order: priority, module name (code points, not ICU: trap T2), index."""
        return (self.priority, self.module_name, self.index)


@dataclass(frozen=True)
class JobTypeRegistration:
    """A job type declared by an extension (or built in)."""

    job_type: str
    handler: AgentJobHandler
    module_name: str
    dedupe: str = "none"
    dedupe_key: Callable[[JsonDict], str | None] | None = None
    timeout_ms: int = 300_000


class ModuleRegistry:
    """The ``registry`` passed to one extension's ``register_agent_events``."""

    def __init__(self, module_name: str) -> None:
        self.module_name = module_name
        self.handlers: list[HandlerRegistration] = []
        self.job_types: list[JobTypeRegistration] = []

    def on(
        self,
        event_type: str,
        handler: AgentEventHandler,
        priority: float = DEFAULT_PRIORITY,
        timeout_ms: float | None = None,
    ) -> None:
        """Call ``handler`` for each event whose type equals ``event_type`` (trimmed)."""
        if not isinstance(event_type, str) or not event_type.strip() or not callable(handler):
            return
        self.handlers.append(
            HandlerRegistration(
                module_name=self.module_name,
                event_type=event_type.strip(),
                handler=handler,
                priority=normalize_priority(priority),
                timeout_ms=normalize_timeout_ms(timeout_ms),
            )
        )

    def job(
        self,
        job_type: str,
        handler: AgentJobHandler,
        *,
        dedupe: str = "none",
        dedupe_key: Callable[[JsonDict], str | None] | None = None,
        timeout_ms: float | None = None,
    ) -> None:
        """Declare a job type; ``dedupe`` is none, single_flight, drop_duplicate or
        merge_duplicate, keyed by ``dedupe_key(payload)``."""
        if dedupe not in DEDUPE_STRATEGIES:
            raise ValueError(f"unknown dedupe strategy {dedupe!r}")
        if not isinstance(job_type, str) or not job_type.strip():
            raise ValueError("a job type needs a name")
        self.job_types.append(
            JobTypeRegistration(
                job_type=job_type.strip(),
                handler=handler,
                module_name=self.module_name,
                dedupe=dedupe,
                dedupe_key=dedupe_key,
                timeout_ms=normalize_timeout_ms(timeout_ms) if timeout_ms else 300_000,
            )
        )


@dataclass(frozen=True)
class LoadedModule:
    """An extension that passed every load step."""

    name: str
    path: Path
    origin: str
    manifest: ExtensionManifest
    handlers: tuple[HandlerRegistration, ...]
    job_types: tuple[JobTypeRegistration, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def events(self) -> list[str]:
        """The event types it handles, in registration order."""
        return list(dict.fromkeys(h.event_type for h in self.handlers))


@dataclass(frozen=True)
class LoadFailure:
    """An extension that did not load, and why (shown on the Extensions page)."""

    extension: str
    path: Path
    origin: str
    code: str
    message: str


@dataclass(frozen=True)
class Snapshot:
    """The modules in effect; an emit keeps the snapshot it started with."""

    modules: tuple[LoadedModule, ...] = ()
    version: str = field(default_factory=lambda: uuid.uuid4().hex)
    loaded_at: str = ""

    def handlers_for(self, event_type: str) -> list[HandlerRegistration]:
        """Handlers of exactly ``event_type`` in dispatch order."""
        found = [h for m in self.modules for h in m.handlers if h.event_type == event_type]
        return sorted(found, key=lambda h: h.order_key)

    @functools.cached_property
    def event_types(self) -> frozenset[str]:
        """Every event type some handler listens to (a snapshot never changes)."""
        return frozenset(h.event_type for m in self.modules for h in m.handlers)

    def has_handlers(self, event_type: str) -> bool:
        """Cheap check before building a payload nobody will read (asked per raw signal)."""
        return event_type in self.event_types

    def module(self, name: str) -> LoadedModule | None:
        """The loaded module called ``name``."""
        return next((m for m in self.modules if m.name == name), None)


def commit_modules(
    candidates: list[tuple[LoadedModule, list[HandlerRegistration]]],
) -> tuple[LoadedModule, ...]:
    """Give every handler its registration index from one counter shared by all modules."""
    counter = 0
    committed: list[LoadedModule] = []
    for module, handlers in candidates:
        indexed = []
        for handler in handlers:
            indexed.append(
                HandlerRegistration(
                    module_name=handler.module_name,
                    event_type=handler.event_type,
                    handler=handler.handler,
                    priority=handler.priority,
                    timeout_ms=handler.timeout_ms,
                    index=counter,
                )
            )
            counter += 1
        committed.append(
            LoadedModule(
                name=module.name,
                path=module.path,
                origin=module.origin,
                manifest=module.manifest,
                handlers=tuple(indexed),
                job_types=module.job_types,
                warnings=module.warnings,
            )
        )
    return tuple(committed)
