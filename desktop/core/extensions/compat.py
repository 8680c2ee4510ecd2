"""Runtime compatibility: does an extension's manifest ``runtime`` block accept this host?

Semver follows node-semver 7 as the contract's reference does: loose parsing, ``coerce`` for
short versions (``1.1`` → ``1.1.0``), ranges satisfied with prereleases included. node-semver
0.9.1 (the Python port) has no ``coerce``, so it is written here.
"""

from __future__ import annotations

import math
import re
from typing import Any

import nodesemver  # type: ignore[import-untyped]

from desktop.sdk.types import AGENT_RUNTIME_CORE_API_VERSION, AgentRuntimeProfile

#: This host's identity as extensions see it.
HOST_PROFILE: AgentRuntimeProfile = {
    "runtimeProfileId": "agentdesk",
    "runtimeProfileVersion": "1.0.0",
    "coreApiVersion": AGENT_RUNTIME_CORE_API_VERSION,
}

_COERCE = re.compile(r"(?:^|[^\d])(\d{1,16})(?:\.(\d{1,16}))?(?:\.(\d{1,16}))?(?:$|[^\d])")


def normalize_version(raw: str | None) -> str | None:
    """A semver string, or ``None`` when ``raw`` is empty or holds no version at all."""
    text = (raw or "").strip()
    if not text:
        return None
    valid = nodesemver.valid(text, True)
    if isinstance(valid, str):
        return valid
    match = _COERCE.search(text)
    if match is None:
        return None
    major, minor, patch = (int(g) if g else 0 for g in match.groups())
    return f"{major}.{minor}.{patch}"


def satisfies(version: str | None, version_range: str | None) -> bool:
    """Whether ``version`` lies in ``version_range``; an empty range accepts everything."""
    rng = (version_range or "").strip()
    if not rng:
        return True
    normalized = normalize_version(version)
    if normalized is None:
        return False
    try:
        return bool(nodesemver.satisfies(normalized, rng, loose=True, include_prerelease=True))
    except Exception:  # noqa: BLE001 - the reference counts any parser failure as "not satisfied"
        return False


def versions_equal(left: str, right: str) -> bool:
    """Semver equality, or trimmed text equality when one side does not parse."""
    a, b = normalize_version(left), normalize_version(right)
    if a is None or b is None:
        return left.strip() == right.strip()
    return bool(nodesemver.eq(a, b, True))


def _finite_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def compatibility_reasons(runtime: Any, profile: AgentRuntimeProfile = HOST_PROFILE) -> list[str]:
    """Why an extension declaring ``runtime`` cannot run on ``profile``; empty = compatible.

    Args:
        runtime: The manifest's ``runtime`` block (``AgentRuntimeCompatibility``), or
            ``None`` when the extension declares nothing.
        profile: The host identity to check against.
    """
    if not isinstance(runtime, dict):
        return []
    core = profile["coreApiVersion"]
    reasons: list[str] = []
    declared: Any = runtime.get("coreApiVersion")
    if _finite_number(declared) and math.floor(declared) != core:
        reasons.append(f"requires coreApiVersion={math.floor(declared)}; runtime={core}")
    core_range = runtime.get("coreApiVersionRange")
    if (
        isinstance(core_range, str)
        and core_range.strip()
        and not satisfies(f"{math.trunc(core)}.0.0", core_range)
    ):
        reasons.append(f"requires coreApiVersionRange={core_range}; runtime={core}")
    profiles = [
        p
        for p in runtime.get("profiles") or []
        if isinstance(p, dict) and isinstance(p.get("name"), str) and p["name"].strip()
    ]
    if not profiles:
        return reasons
    wanted = profile["runtimeProfileId"]
    entry = next((p for p in profiles if p["name"] == wanted), None)
    if entry is None:
        reasons.append(f"profile {wanted} is not declared in manifest runtime.profiles")
        return reasons
    have = profile["runtimeProfileVersion"]
    version = entry.get("version")
    if isinstance(version, str) and version.strip() and not versions_equal(version, have):
        reasons.append(f"requires profile version {version}; runtime={have}")
    version_range = entry.get("versionRange")
    if isinstance(version_range, str) and not satisfies(have, version_range):
        reasons.append(f"requires profile versionRange {version_range}; runtime={have}")
    return reasons
