"""AppImage update information and the ``.zsync`` file: what AppImageUpdate needs.

The real type-2 runtime is downloaded by CI only (pinned by SHA-256), so the embedding is proven
on an ELF file given the same empty 1024-byte ``.upd_info`` section with binutils' objcopy, and
read back with objcopy; ``zsyncmake`` (apt: zsync) makes the ``.zsync`` of a file.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import linux_packages
import pytest


def _runtime_like(tmp_path: Path) -> Path:
    """A copy of a system ELF with an empty ``.upd_info`` section, as the runtime has."""
    elf = tmp_path / "runtime"
    shutil.copyfile(shutil.which("true") or "/bin/true", elf)
    empty = tmp_path / "empty"
    empty.write_bytes(b"\0" * 1024)
    subprocess.run(
        ["objcopy", "--add-section", f".upd_info={empty}", str(elf)], check=True, text=True
    )
    return elf


def _dump(elf: Path, tmp_path: Path) -> bytes:
    out = tmp_path / "dumped"
    subprocess.run(["objcopy", "--dump-section", f".upd_info={out}", str(elf), str(tmp_path / "x")],
                   check=True)  # fmt: skip
    return out.read_bytes()


def test_update_information_names_the_releases_zsync() -> None:
    assert linux_packages.update_information("x86_64") == (
        "gh-releases-zsync|agentdesk|agentdesk|latest|AgentDesk-*-x86_64.AppImage.zsync"
    )


def test_the_update_information_is_embedded_in_the_runtime(tmp_path: Path) -> None:
    elf = _runtime_like(tmp_path)
    image = bytearray(elf.read_bytes())
    offset, size = linux_packages.elf_section(bytes(image), ".upd_info")
    assert size == 1024 and image[offset : offset + size] == b"\0" * 1024
    info = linux_packages.update_information("aarch64")
    linux_packages.embed_update_information(image, info)
    elf.write_bytes(image)
    dumped = _dump(elf, tmp_path)
    assert dumped.rstrip(b"\0").decode() == info and len(dumped) == 1024
    with pytest.raises(SystemExit, match="longer than"):
        linux_packages.embed_update_information(image, "x" * 2000)
    with pytest.raises(SystemExit, match=r"no \.nothing section"):
        linux_packages.elf_section(bytes(image), ".nothing")


def test_zsyncmake_writes_the_zsync_beside_the_image(tmp_path: Path) -> None:
    assert shutil.which("zsyncmake"), "zsyncmake is needed (apt: zsync)"
    image = tmp_path / "AgentDesk-0.1.0-x86_64.AppImage"
    image.write_bytes(bytes(range(256)) * 4096)
    out = linux_packages.zsync_file(image)
    assert out == tmp_path / "AgentDesk-0.1.0-x86_64.AppImage.zsync"
    header = out.read_bytes().split(b"\n\n", 1)[0].decode()
    assert "Filename: AgentDesk-0.1.0-x86_64.AppImage" in header
    assert "URL: AgentDesk-0.1.0-x86_64.AppImage" in header  # relative: beside it on the release
    assert f"Length: {image.stat().st_size}" in header and "SHA-1: " in header
