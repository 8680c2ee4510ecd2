"""The release workflow: linted by actionlint and zizmor, on current runners, signing wired in.

The workflow only calls ``packaging/build.py``; the Python it calls (tag check, checksums,
release notes, unsigned naming) runs here too, on real files.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import release
import yaml
from bundle_config import ROOT, version

WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"
BIN = Path(sys.executable).parent
#: Runner images GitHub has retired (a job on one queues forever and the release never comes).
RETIRED = {"macos-13", "macos-12", "ubuntu-20.04", "windows-2019"}


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(BIN)) or shutil.which(name)
    assert found, f"{name} is not installed (bash packaging/dev_install.sh --test)"
    return found


def _workflow() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(WORKFLOW.read_text())
    return loaded


def _steps(job: str) -> str:
    """The job's steps as text (uses and run lines), to look for what it calls."""
    steps = _workflow()["jobs"][job]["steps"]
    return "\n".join(str(s.get("uses", "")) + "\n" + str(s.get("run", "")) for s in steps)


def test_actionlint_finds_nothing() -> None:
    result = subprocess.run(
        [_tool("actionlint"), "-no-color", str(WORKFLOW)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_zizmor_finds_nothing() -> None:
    result = subprocess.run(
        [_tool("zizmor"), "--offline", "--no-progress", "--format", "plain", str(WORKFLOW)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No findings" in result.stdout + result.stderr


def test_every_platform_job_runs_on_a_current_image_and_smoke_tests() -> None:
    jobs = _workflow()["jobs"]
    runners = set()
    for name in ("linux", "macos"):
        runners |= {i["runner"] if isinstance(i, dict) else i for i in _matrix(jobs[name])}
    runners |= {jobs["windows"]["runs-on"], jobs["publish"]["runs-on"], jobs["version"]["runs-on"]}
    assert not runners & RETIRED, runners
    assert {"ubuntu-22.04", "ubuntu-22.04-arm", "macos-14", "macos-15-intel"} <= runners
    assert any(r.startswith("windows-2025") or r == "windows-latest" for r in runners)
    for job, target in [("linux", "appimage"), ("windows", "windows"), ("macos", "dmg")]:
        assert f"build.py smoke {target}" in _steps(job), job
        assert "build.py install-locked" in _steps(job), f"{job} must build from the lock file"
        assert jobs[job]["needs"] == "version"
    assert "check-version --tag" in _steps("version")


def _matrix(job: dict[str, Any]) -> list[Any]:
    matrix = job["strategy"]["matrix"]
    return list(matrix.get("include", [])) or list(matrix["runner"])


def test_signing_notarization_checksums_and_provenance_are_part_of_the_release() -> None:
    jobs = _workflow()["jobs"]
    assert "build.py sign windows-bundle" in _steps("windows")
    assert "build.py sign windows-installer" in _steps("windows")
    assert "secrets.WINDOWS_CERTIFICATE" in str(jobs["windows"]["env"])
    assert "secrets.APPLE_APP_PASSWORD" in str(jobs["macos"]["env"])
    publish = _steps("publish")
    assert "minisign" in publish and "build.py checksums" in publish
    assert "--notes-file release-notes.md" in publish
    for job in ("linux", "windows", "macos", "publish"):
        assert "actions/attest-build-provenance@" in _steps(job), job
        assert jobs[job]["permissions"]["id-token"] == "write"
        assert jobs[job]["permissions"]["attestations"] == "write"
    signing = (ROOT / "packaging" / "signing.py").read_text()
    assert "--deep" not in signing.split("def macos_sign_app")[1].split("--verify")[0]
    for needed in ('"notarytool"', '"stapler"', '"signtool"', "/tr"):
        assert needed in signing, needed
    assert '["codesign", "--force", "--timestamp", "--sign", identity, str(out)]' in signing


def test_tag_must_name_the_app_version() -> None:
    assert release.check_tag(f"v{version()}") == version()
    with pytest.raises(SystemExit, match="must be 'v"):
        release.check_tag("v999.0.0")


def test_unsigned_artifacts_are_named_and_listed_in_the_notes(tmp_path: Path) -> None:
    installer = tmp_path / f"AgentDesk-{version()}-setup.exe"
    image = tmp_path / f"AgentDesk-{version()}-macos-arm64.dmg"
    deb = tmp_path / f"agentdesk_{version()}_amd64.deb"
    for file in (installer, image, deb):
        file.write_bytes(file.name.encode())
    marked = release.mark_unsigned(installer)
    assert marked.name == f"AgentDesk-{version()}-unsigned-setup.exe" and not installer.exists()
    assert release.mark_unsigned(image).name == f"AgentDesk-{version()}-macos-arm64-unsigned.dmg"
    sums = release.checksums(tmp_path, key_b64=None, password=None)
    lines = sums.read_text().splitlines()
    assert len(lines) == 3 and all(len(line.split("  ")[0]) == 64 for line in lines)
    check = subprocess.run(
        ["sha256sum", "--check", "SHA256SUMS"], cwd=tmp_path, capture_output=True, text=True
    )
    assert check.returncode == 0, check.stdout + check.stderr
    notes = release.release_notes(tmp_path)
    warning = notes.split("NOT signed")[1]
    assert f"AgentDesk-{version()}-unsigned-setup.exe" in warning
    assert f"AgentDesk-{version()}-macos-arm64-unsigned.dmg" in warning
    assert "**`SHA256SUMS` is NOT signed**" in notes
    assert "gh attestation verify" in notes
