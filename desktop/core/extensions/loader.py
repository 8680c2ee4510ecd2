"""Find extension folders, check them and import the ones that may run.

Sources, by precedence: built-ins enabled by name, the user's folder
(``<config>/extensions``), the folders of ``AGENTDESK_EXTENSIONS_PATH`` (trusted, like the
user's own) and the workspace's ``.agentdesk/extensions`` (loaded only after the user trusted
that exact content, every file of its folder included). Extension code is compiled from its
source only: no bytecode is read from or written to an extension folder (a planted
``__pycache__`` file never runs). An incompatible extension is never imported; under
``enforced`` trust an extension without a capability declaration is refused before its code
runs (trap T15), and ``agentId`` clashes are refused before any handler is committed (trap T3).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import inspect
import logging
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType, ModuleType

from desktop.core.extensions.compat import HOST_PROFILE, compatibility_reasons
from desktop.core.extensions.locations import WORKSPACE_FOLDER, env_roots
from desktop.core.extensions.manifest import (
    MANIFEST_NAME,
    ExtensionManifest,
    ManifestError,
    content_hash,
    entrypoint_path,
    read_manifest,
)
from desktop.core.extensions.policy import TrustMode, evaluate_trust
from desktop.core.extensions.registry import (
    HandlerRegistration,
    LoadedModule,
    LoadFailure,
    ModuleRegistry,
)
from desktop.core.extensions.trust import TrustStore
from desktop.sdk.types import AgentRuntimeProfile

log = logging.getLogger(__name__)

TRUST_MODE_ENV = "AGENTDESK_EXTENSION_TRUST_MODE"
BUILTIN_ROOT = Path(__file__).resolve().parent / "builtin"
REGISTER_FUNCTION = "register_agent_events"


@dataclass(frozen=True)
class Candidate:
    """An extension folder found by discovery."""

    folder: Path
    origin: str  # builtin | user | env | workspace
    needs_trust: bool = False


@dataclass
class LoadReport:
    """Everything the Extensions page shows."""

    loaded: list[tuple[LoadedModule, list[HandlerRegistration]]] = field(default_factory=list)
    failures: list[LoadFailure] = field(default_factory=list)
    disabled: list[Candidate] = field(default_factory=list)
    #: Workspace extensions awaiting the user's trust: (candidate, manifest, content hash).
    untrusted: list[tuple[Candidate, ExtensionManifest, str]] = field(default_factory=list)


def _is_extension(folder: Path) -> bool:
    return (folder / MANIFEST_NAME).is_file() or (folder / "events.py").is_file()


def _expand_root(root: Path, origin: str, needs_trust: bool) -> list[Candidate]:
    if not root.is_dir():
        return []
    if _is_extension(root):
        return [Candidate(root.resolve(), origin, needs_trust)]
    children = sorted(c for c in root.iterdir() if c.is_dir() and not c.name.startswith((".", "_")))
    return [Candidate(c.resolve(), origin, needs_trust) for c in children if _is_extension(c)]


@dataclass(frozen=True)
class ExtensionSources:
    """Where to look; built once per runtime from paths, environment and settings."""

    user_root: Path | None = None
    env_roots: tuple[Path, ...] = ()
    workspace: Path | None = None
    builtin_root: Path = BUILTIN_ROOT
    enabled_builtins: frozenset[str] = frozenset()

    @classmethod
    def from_environment(
        cls,
        config_dir: Path,
        workspace: Path | None,
        enabled_builtins: Iterable[str] = (),
        environ: dict[str, str] | None = None,
    ) -> ExtensionSources:
        """The user folder under ``config_dir``, ``AGENTDESK_EXTENSIONS_PATH`` and the
        workspace."""
        return cls(
            user_root=config_dir / "extensions",
            env_roots=env_roots(environ),
            workspace=workspace,
            enabled_builtins=frozenset(enabled_builtins),
        )

    def discover(self) -> tuple[list[Candidate], list[Candidate]]:
        """(candidates to load, built-ins that are not enabled); a folder seen twice keeps its
        first (most trusted) source."""
        found: list[Candidate] = []
        disabled: list[Candidate] = []
        for candidate in _expand_root(self.builtin_root, "builtin", False):
            target = found if candidate.folder.name in self.enabled_builtins else disabled
            target.append(candidate)
        if self.user_root is not None:
            found += _expand_root(self.user_root, "user", False)
        for root in self.env_roots:
            found += _expand_root(root, "env", False)
        if self.workspace is not None:
            found += _expand_root(self.workspace / WORKSPACE_FOLDER, "workspace", True)
        seen: set[Path] = set()
        unique = []
        for candidate in found:
            if candidate.folder not in seen:
                seen.add(candidate.folder)
                unique.append(candidate)
        return unique, disabled


class SourceOnlyLoader(importlib.machinery.SourceFileLoader):
    """Compiles the entry point from its source text: a ``__pycache__`` file (which Python
    would prefer, and which a repository can plant) is never read, and none is written."""

    def get_code(self, fullname: str) -> CodeType:
        """The code of the source file, compiled now (the base class would read and write the
        cache here)."""
        del fullname
        return self.source_to_code(self.get_data(self.path), self.path)


def _import(candidate: Candidate, entry: Path) -> ModuleType:
    unique = f"agentdesk_extension_{candidate.folder.name}_{abs(hash(candidate.folder)):x}"
    safe = "".join(ch if ch.isalnum() else "_" for ch in unique)
    loader = SourceOnlyLoader(safe, str(entry))
    spec = importlib.util.spec_from_file_location(safe, entry, loader=loader)
    if spec is None:
        raise ImportError(f"cannot import {entry}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[safe] = module  # dataclasses and pickling look modules up by name
    # Modules the extension imports itself write no bytecode into its folder either (it would
    # change the folder and so revoke the user's trust).
    writes_bytecode, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        loader.exec_module(module)
    except BaseException:
        sys.modules.pop(safe, None)
        raise
    finally:
        sys.dont_write_bytecode = writes_bytecode
    return module


class ExtensionLoader:
    """Loads the candidates of ``sources`` into registrations (not yet a snapshot)."""

    def __init__(
        self,
        sources: ExtensionSources,
        trust_store: TrustStore,
        *,
        trust_mode: TrustMode = TrustMode.ENFORCED,
        profile: AgentRuntimeProfile = HOST_PROFILE,
        disabled: Iterable[str] = (),
    ) -> None:
        self.sources = sources
        self.trust_store = trust_store
        self.trust_mode = trust_mode
        self.profile = profile
        self.disabled = frozenset(disabled)

    def load(self) -> LoadReport:
        """Run every load step for every candidate; failures are reported, not raised."""
        report = LoadReport()
        candidates, report.disabled = self.sources.discover()
        names: dict[str, Path] = {}
        agent_ids: dict[str, str] = {}
        for candidate in candidates:
            if candidate.folder.name in self.disabled:
                report.disabled.append(candidate)
                continue
            failure = self._load_one(candidate, report, names, agent_ids)
            if failure is not None:
                report.failures.append(failure)
                log.warning("extension %s not loaded: %s", failure.extension, failure.message)
        return report

    def _fail(self, candidate: Candidate, code: str, message: str) -> LoadFailure:
        return LoadFailure(candidate.folder.name, candidate.folder, candidate.origin, code, message)

    def _load_one(
        self,
        candidate: Candidate,
        report: LoadReport,
        names: dict[str, Path],
        agent_ids: dict[str, str],
    ) -> LoadFailure | None:
        name = candidate.folder.name
        if name in names:
            return self._fail(
                candidate,
                "name_conflict",
                f"an extension named {name} is loaded from {names[name]}",
            )
        try:
            manifest, _ = read_manifest(candidate.folder)
        except ManifestError as exc:
            return self._fail(candidate, "invalid_manifest", str(exc))
        entry = entrypoint_path(candidate.folder, manifest)
        if entry is None:
            return self._fail(candidate, "missing_entrypoint", "no events.py entrypoint")
        reasons = compatibility_reasons(manifest.runtime, self.profile)
        if reasons:
            return self._fail(candidate, "incompatible_runtime", "; ".join(reasons))
        if candidate.needs_trust:
            digest = content_hash(candidate.folder)
            if not self.trust_store.is_trusted(candidate.folder, digest):
                report.untrusted.append((candidate, manifest, digest))
                message = (
                    "workspace extension changed since it was trusted (a file was added, "
                    "removed or changed); review it and trust it again"
                    if self.trust_store.changed(candidate.folder)
                    else "workspace extension not trusted yet"
                )
                return self._fail(candidate, "trust_required", message)
        if self.trust_mode == TrustMode.ENFORCED and manifest.capabilities is None:
            return self._fail(candidate, "trust_denied", "has no manifest capabilities declaration")
        if manifest.agent_id in agent_ids:
            return self._fail(
                candidate,
                "agent_id_conflict",
                f"agentId {manifest.agent_id} is already used by {agent_ids[manifest.agent_id]}",
            )
        try:
            module = _import(candidate, entry)
        except BaseException as exc:  # noqa: BLE001 - extension code may raise anything
            return self._fail(candidate, "import_failed", f"{type(exc).__name__}: {exc}")
        register = getattr(module, REGISTER_FUNCTION, None)
        if not callable(register):
            return self._fail(
                candidate, "missing_register", f"{entry.name} has no {REGISTER_FUNCTION}()"
            )
        registry = ModuleRegistry(name)
        try:
            outcome = register(registry)
            if inspect.isawaitable(outcome):
                if inspect.iscoroutine(outcome):
                    outcome.close()
                raise TypeError(f"{REGISTER_FUNCTION} must be synchronous")
        except BaseException as exc:  # noqa: BLE001 - extension code may raise anything
            return self._fail(candidate, "registration_failed", f"{type(exc).__name__}: {exc}")
        trust = evaluate_trust(
            self.trust_mode, manifest.capabilities, [h.event_type for h in registry.handlers]
        )
        if trust.status == "denied":
            return self._fail(candidate, "trust_denied", "; ".join(trust.reasons))
        names[name] = candidate.folder
        agent_ids[manifest.agent_id] = name
        loaded = LoadedModule(
            name=name,
            path=candidate.folder,
            origin=candidate.origin,
            manifest=manifest,
            handlers=(),
            job_types=tuple(registry.job_types),
            warnings=trust.reasons,
        )
        report.loaded.append((loaded, registry.handlers))
        return None
