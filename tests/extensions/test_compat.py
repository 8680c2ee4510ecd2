"""Compatibility vectors C1-C19 (host identity codex-manager 1.0.0, core 1, as in the reference)."""

from __future__ import annotations

from typing import Any

import pytest

from desktop.core.extensions.compat import HOST_PROFILE, compatibility_reasons
from desktop.sdk import AgentRuntimeProfile


def profile(version: str = "1.0.0", name: str = "codex-manager") -> AgentRuntimeProfile:
    return {"runtimeProfileId": name, "runtimeProfileVersion": version, "coreApiVersion": 1}


RANGE_15 = {"profiles": [{"name": "codex-manager", "versionRange": ">=1.5 <2.0"}]}


@pytest.mark.parametrize(
    ("runtime", "version", "compatible"),
    [
        (
            {
                "coreApiVersion": 1,
                "coreApiVersionRange": ">=1 <2",
                "profiles": [{"name": "codex-manager", "versionRange": ">=1 <2"}],
            },
            "1.0.0",
            True,
        ),
        (
            {"coreApiVersionRange": ">=2 <3", "profiles": [{"name": "other-profile"}]},
            "1.0.0",
            False,
        ),
        (RANGE_15, "1.1.0", False),
        (RANGE_15, "1.1", False),
        (RANGE_15, "1.6.2", True),
        (None, "1.0.0", True),
        ({}, "1.0.0", True),
        ({"coreApiVersionRange": "^1"}, "1.0.0", True),
        ({"coreApiVersionRange": "1.x"}, "1.0.0", True),
        ({"coreApiVersionRange": "*"}, "1.0.0", True),
        ({"coreApiVersionRange": "1 || 2"}, "1.0.0", True),
        ({"coreApiVersionRange": "~1.2"}, "1.0.0", False),
        ({"coreApiVersionRange": ">1"}, "1.0.0", False),
        ({"coreApiVersionRange": "not a range"}, "1.0.0", False),
        ({"profiles": [{"name": "Codex-Manager"}]}, "1.0.0", False),
        ({"profiles": [{"name": "codex-manager"}]}, "1.0.0", True),
        ({"profiles": [{"name": "codex-manager", "version": "1.0"}]}, "1.0.0", True),
        ({"profiles": [{"name": "codex-manager", "version": "v1.0.0"}]}, "1.0.0", True),
        ({"profiles": [{"name": "codex-manager", "version": "1.0.1"}]}, "1.0.0", False),
        ({"profiles": [{"name": "codex-manager", "versionRange": "^1.0.0"}]}, "1.2.0-beta.1", True),
        ({"profiles": [{"name": "codex-manager", "versionRange": ">=1 <2"}]}, "2.0.0-rc.1", False),
        ({"profiles": [{"name": "codex-manager", "versionRange": ">=1 <2"}]}, "banana", False),
        ({"profiles": [{"name": "codex-manager", "versionRange": ""}]}, "1.0.0", True),
    ],
)
def test_compatibility_vectors(runtime: Any, version: str, compatible: bool) -> None:
    assert (compatibility_reasons(runtime, profile(version)) == []) is compatible


def test_c3_reason_mentions_version_range() -> None:
    reasons = compatibility_reasons(RANGE_15, profile("1.1.0"))
    assert any("versionRange" in r for r in reasons)


def test_c7_core_version_reason() -> None:
    assert compatibility_reasons({"coreApiVersion": 2}, profile()) == [
        "requires coreApiVersion=2; runtime=1"
    ]


def test_c10_two_reasons_version_first() -> None:
    reasons = compatibility_reasons({"coreApiVersion": 2, "coreApiVersionRange": ">=2"}, profile())
    assert len(reasons) == 2
    assert reasons[0].startswith("requires coreApiVersion=2")
    assert reasons[1].startswith("requires coreApiVersionRange=>=2")


def test_c11_undeclared_profile_reason() -> None:
    assert compatibility_reasons({"profiles": [{"name": "other"}]}, profile()) == [
        "profile codex-manager is not declared in manifest runtime.profiles"
    ]


def test_v41_profiles_and_unknown_runtime_profile() -> None:
    runtime = {
        "profiles": [
            {"name": "codex-manager", "versionRange": ">=1 <2"},
            {"name": "fixture-profile", "versionRange": ">=1 <2"},
        ]
    }
    assert compatibility_reasons(runtime, profile()) == []
    assert compatibility_reasons(runtime, profile(name="unknown-profile")) != []


def test_host_profile_is_agentdesk_core_1() -> None:
    assert HOST_PROFILE["runtimeProfileId"] == "agentdesk"
    assert HOST_PROFILE["coreApiVersion"] == 1
