"""The lock file: every input pinned with hashes, and used by the release and by dev_install.

``packaging/requirements.lock`` (``packaging/lock.sh``) is what makes a release reproducible: a
package named in ``pyproject.toml`` but missing from it would be installed unpinned on tag day.
"""

from __future__ import annotations

import re
import tomllib

import release
from bundle_config import ROOT

LOCK = ROOT / "packaging" / "requirements.lock"
# (``packaging.requirements`` cannot be imported here: under pytest this folder is "packaging")


def canonicalize_name(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _minimum(spec: str) -> tuple[str, str | None]:
    """``"name>=1.2,<2"`` → (canonical name, "1.2")."""
    match = re.match(r"([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?\s*(.*)", spec)
    assert match, spec
    low = re.search(r">=\s*([0-9][^,\s]*)", match.group(2))
    return canonicalize_name(match.group(1)), low.group(1) if low else None


def _tuple(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version)[:4])


def _locked() -> dict[str, tuple[str, int]]:
    """name → (pinned version, number of hashes)."""
    text = LOCK.read_text()
    entries: dict[str, tuple[str, int]] = {}
    for block in re.split(r"\n(?=[A-Za-z])", text):
        match = re.match(r"([A-Za-z0-9_.\-\[\]]+)==(\S+)", block)
        if match:
            name = canonicalize_name(match.group(1).split("[")[0])
            entries[name] = (match.group(2), block.count("--hash=sha256:"))
    return entries


def test_every_dependency_of_pyproject_is_pinned_with_hashes() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"]["test"]]
    locked = _locked()
    missing = []
    for spec in wanted:
        name, low = _minimum(spec)
        if name not in locked:
            missing.append(name)
            continue
        pinned, hashes = locked[name]
        assert low is None or _tuple(pinned) >= _tuple(low), (spec, pinned)
        assert hashes >= 1, f"{name} has no hash"
    assert missing == [], f"not in the lock file (run packaging/lock.sh): {missing}"
    assert all(hashes >= 1 for _version, hashes in locked.values())
    assert len(locked) > len(wanted)  # the transitive packages are pinned too


def test_the_release_build_and_dev_install_use_the_lock_with_hash_checking() -> None:
    first = release.locked_install_command("python")[0]
    assert first[-3:] == ["--require-hashes", "-r", str(LOCK)]
    script = (ROOT / "packaging" / "dev_install.sh").read_text()
    assert "pip install -q --require-hashes -r packaging/requirements.lock" in script
    workflow = (ROOT / ".github" / "workflows" / "release.yml").read_text()
    assert workflow.count("packaging/build.py install-locked") == 3  # Linux, Windows, macOS
    assert "pyinstaller" not in workflow.lower().split("jobs:")[1].replace("# pyinstaller", "")
