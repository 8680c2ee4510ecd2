"""Linux artifacts from the frozen onedir: the .deb, the AppDir and the AppImage.

Depends of the .deb are computed from the bundle itself, as dpkg-shlibdeps would: every ELF
file's NEEDED libraries that the bundle does not carry are looked up with ``ldconfig -p`` and
``dpkg -S`` on the build host (the oldest supported distro, so the names fit it and newer ones),
plus the libraries Qt's xcb plugin loads indirectly (``DEB_BASE_DEPENDS``). libc6 gets the
minimum version from the highest ``GLIBC_x.y`` symbol version the bundle uses.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import shlex
import shutil
import struct
import subprocess
from email.utils import formatdate
from pathlib import Path

from bundle_config import (
    APP_ID,
    DEB_BASE_DEPENDS,
    DEB_RECOMMENDS,
    HOMEPAGE,
    MAINTAINER,
    NAME,
    ROOT,
    SUMMARY,
)

RESOURCES = ROOT / "resources"
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
#: Named by the AppStream ID (reverse DNS), as the AppStream and Flatpak specs ask.
DESKTOP_FILE = RESOURCES / "linux" / f"{APP_ID}.desktop"
METAINFO = RESOURCES / "linux" / f"{APP_ID}.metainfo.xml"
LINTIAN_OVERRIDES = Path(__file__).parent / "linux" / "lintian-overrides"
#: The AppImage runtime is not in Debian: CI downloads this release and checks its SHA256
#: (the checksum published with AppImage's own download script for release 20251108).
APPIMAGE_RUNTIME_RELEASE = "20251108"
APPIMAGE_RUNTIME_SHA256 = {
    "x86_64": "2fca8b443c92510f1483a883f60061ad09b46b978b2631c807cd873a47ec260d",
    "aarch64": "00cbdfcf917cc6c0ff6d3347d59e0ca1f7f45a6df1a428a0d6d8a78664d87444",
}
APPIMAGE_RUNTIME_URL = (
    "https://github.com/AppImage/type2-runtime/releases/download/{release}/runtime-{arch}"
)


def run(argv: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    """Run a tool, echoing it; a failure raises with its output."""
    print("+", " ".join(argv), flush=True)
    return subprocess.run(argv, check=True, text=True, **kwargs)  # type: ignore[call-overload, no-any-return]


def _elf_files(folder: Path) -> list[Path]:
    found = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink():
            with path.open("rb") as handle:
                if handle.read(4) == b"\x7fELF":
                    found.append(path)
    return found


def _objdump(flag: str, files: list[Path]) -> str:
    out: list[str] = []
    for start in range(0, len(files), 200):  # stay far below the argv limit
        chunk = [str(p) for p in files[start : start + 200]]
        result = subprocess.run(["objdump", flag, *chunk], capture_output=True, text=True)
        out.append(result.stdout)
    return "\n".join(out)


def _ldconfig_paths() -> dict[str, str]:
    text = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True, check=True).stdout
    tag = {"x86_64": "x86-64", "aarch64": "AArch64"}.get(os.uname().machine, "")
    paths: dict[str, str] = {}
    for line in text.splitlines()[1:]:
        match = re.match(r"\s*(\S+) \(([^)]*)\) => (\S+)", line)
        if match and tag in match.group(2):
            paths.setdefault(match.group(1), match.group(3))
    return paths


def _owner(path: str) -> str | None:
    candidates = {path, os.path.realpath(path)}
    for item in list(candidates):
        if item.startswith("/usr/lib/"):
            candidates.add(item[len("/usr") :])
        elif item.startswith("/lib/"):
            candidates.add("/usr" + item)
    for item in sorted(candidates):
        result = subprocess.run(["dpkg", "-S", item], capture_output=True, text=True)
        if result.returncode == 0:
            return result.stdout.split(":", 1)[0].strip()
    return None


def fix_runpaths(onedir: Path) -> int:
    """Drop RUNPATH/RPATH entries that point outside the bundle (e.g. the build machine's
    Python prefix): they would make the app look for libraries in a folder of the user's
    machine. ``$ORIGIN`` entries stay. Returns how many files were changed (needs patchelf)."""
    changed = 0
    report = _objdump("-p", _elf_files(onedir))
    for block in re.split(r"\n(?=\S[^\n]*:\s+file format )", report):
        head = re.match(r"(\S[^\n]*):\s+file format ", block.strip())
        paths = re.search(r"^\s+(?:RUNPATH|RPATH)\s+(\S+)", block, re.MULTILINE)
        if head is None or paths is None:
            continue
        entries = paths.group(1).split(":")
        kept = [e for e in entries if e.startswith("$ORIGIN")]
        if kept != entries:
            file = head.group(1)
            if kept:
                run(["patchelf", "--set-rpath", ":".join(kept), file], capture_output=True)
            else:
                run(["patchelf", "--remove-rpath", file], capture_output=True)
            changed += 1
    return changed


def system_libraries(onedir: Path) -> tuple[dict[str, str], list[str], str]:
    """(soname → Debian package, sonames nobody provides, highest GLIBC version needed)."""
    files = _elf_files(onedir)
    bundled = {p.name for p in onedir.rglob("*")}
    needed = set(re.findall(r"^\s+NEEDED\s+(\S+)", _objdump("-p", files), re.MULTILINE))
    external = sorted(needed - bundled)
    where = _ldconfig_paths()
    packages: dict[str, str] = {}
    missing: list[str] = []
    for soname in external:
        owner = _owner(where[soname]) if soname in where else None
        if owner is None:
            missing.append(soname)
        else:
            packages[soname] = owner
    versions = re.findall(r"GLIBC_(\d+)\.(\d+)", _objdump("-T", files))
    glibc = max(((int(a), int(b)) for a, b in versions), default=(2, 17))
    return packages, missing, f"{glibc[0]}.{glibc[1]}"


def deb_depends(onedir: Path) -> list[str]:
    """The Depends field entries: computed system libraries plus the xcb plugin's needs."""
    packages, _missing, glibc = system_libraries(onedir)
    names = set(packages.values()) | set(DEB_BASE_DEPENDS)
    names.discard("libc6")
    return [f"libc6 (>= {glibc})", *sorted(names)]


def _install_icons(share: Path) -> None:
    icons = RESOURCES / "icons"
    for size in ICON_SIZES:
        target = share / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{NAME}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(icons / f"{NAME}-{size}.png", target)
    scalable = share / "icons" / "hicolor" / "scalable" / "apps" / f"{NAME}.svg"
    scalable.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(icons / f"{NAME}.svg", scalable)


def _install_desktop_files(share: Path) -> None:
    (share / "applications").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(DESKTOP_FILE, share / "applications" / DESKTOP_FILE.name)
    (share / "metainfo").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(METAINFO, share / "metainfo" / METAINFO.name)
    _install_icons(share)


def _normalize_modes(root: Path) -> None:
    """0755 folders and executables, 0644 everything else (shared libraries included)."""
    for path in root.rglob("*"):
        if path.is_symlink():
            continue
        if path.is_dir():
            path.chmod(0o755)
            continue
        executable = (path.name, path.parent.name) == (NAME, NAME) or path.name == "AppRun"
        path.chmod(0o755 if executable else 0o644)


def _doc_files(doc: Path, version: str) -> None:
    doc.mkdir(parents=True, exist_ok=True)
    license_text = (ROOT / "LICENSE").read_text() if (ROOT / "LICENSE").exists() else ""
    (doc / "copyright").write_text(
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
        f"Upstream-Name: {NAME}\nSource: {HOMEPAGE}\n\n"
        "Files: *\nCopyright: 2026 Agent Desk developers\nLicense: MIT\n"
        + (
            "".join(f" {line}\n" if line.strip() else " .\n" for line in license_text.splitlines())
            or " Permission is hereby granted, free of charge, to any person obtaining a copy of\n"
            " this software, to deal in the Software without restriction (the MIT license).\n"
        )
        + "\nFiles: opt/agentdesk/_internal/*\nCopyright: their respective authors\n"
        "License: various\n The bundled Python runtime, Qt (LGPL-3.0), PySide6 (LGPL-3.0) and\n"
        " Python packages keep their own licenses; see their metadata inside the bundle.\n"
    )
    stamp = formatdate(int(os.environ.get("SOURCE_DATE_EPOCH", "1700000000")))
    changelog = (
        f"{NAME} ({version}) unstable; urgency=medium\n\n"
        f"  * Release {version}.\n\n -- {MAINTAINER}  {stamp}\n"
    )
    with (
        (doc / "changelog.gz").open("wb") as raw,
        gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz,
    ):
        gz.write(changelog.encode())


def build_deb(onedir: Path, out_dir: Path, version: str) -> Path:
    """``agentdesk_VERSION_ARCH.deb``: the onedir in /opt, launcher, desktop entry, icons."""
    arch = run(["dpkg", "--print-architecture"], capture_output=True).stdout.strip()
    stage = out_dir / "deb-root"
    shutil.rmtree(stage, ignore_errors=True)
    shutil.copytree(onedir, stage / "opt" / NAME, symlinks=True)
    (stage / "usr" / "bin").mkdir(parents=True)
    (stage / "usr" / "bin" / NAME).symlink_to(f"/opt/{NAME}/{NAME}")
    share = stage / "usr" / "share"
    _install_desktop_files(share)
    _doc_files(share / "doc" / NAME, version)
    overrides = share / "lintian" / "overrides"
    overrides.mkdir(parents=True)
    shutil.copyfile(LINTIAN_OVERRIDES, overrides / NAME)
    _normalize_modes(stage)
    files = [p for p in stage.rglob("*") if p.is_file() and not p.is_symlink()]
    size_kib = sum(p.stat().st_size for p in files) // 1024
    control = stage / "DEBIAN" / "control"
    control.parent.mkdir()
    control.write_text(
        f"Package: {NAME}\nVersion: {version}\nArchitecture: {arch}\n"
        f"Maintainer: {MAINTAINER}\nInstalled-Size: {size_kib}\n"
        f"Depends: {', '.join(deb_depends(onedir))}\n"
        f"Recommends: {', '.join(DEB_RECOMMENDS)}\n"
        f"Section: devel\nPriority: optional\nHomepage: {HOMEPAGE}\n"
        f"Description: {SUMMARY}\n"
        " Agent Desk runs AI coding agents in a native window. Every file edit and\n"
        " shell command an agent wants to make is shown first, with a diff, and\n"
        " approved or denied from the keyboard. API keys stay in the system keyring.\n"
    )
    control.parent.chmod(0o755)
    control.chmod(0o644)
    out = out_dir / f"{NAME}_{version}_{arch}.deb"
    # xz for releases (smallest download); tests ask for a quicker compressor (the contents are
    # what they check): xz costs ~50 s on 2 cores, gzip -1 ~3 s.
    compression = shlex.split(os.environ.get("AGENTDESK_DEB_COMPRESSION", "-Zxz"))
    run(["dpkg-deb", "--build", "--root-owner-group", *compression, str(stage), str(out)])
    return out


def build_appdir(onedir: Path, out_dir: Path) -> Path:
    """``AgentDesk.AppDir``: AppRun, desktop entry and icon at the top, the onedir inside."""
    appdir = out_dir / "AgentDesk.AppDir"
    shutil.rmtree(appdir, ignore_errors=True)
    shutil.copytree(onedir, appdir / "usr" / "lib" / NAME, symlinks=True)
    share = appdir / "usr" / "share"
    _install_desktop_files(share)
    shutil.copyfile(DESKTOP_FILE, appdir / DESKTOP_FILE.name)
    shutil.copyfile(RESOURCES / "icons" / f"{NAME}-256.png", appdir / f"{NAME}.png")
    (appdir / ".DirIcon").symlink_to(f"{NAME}.png")
    apprun = appdir / "AppRun"
    apprun.write_text(
        "#!/bin/sh\n"
        "# Starts the frozen Agent Desk inside this AppDir (or mounted AppImage).\n"
        'HERE="$(dirname "$(readlink -f "$0")")"\n'
        f'exec "$HERE/usr/lib/{NAME}/{NAME}" "$@"\n'
    )
    _normalize_modes(appdir)
    return appdir


def update_information(arch: str) -> str:
    """What AppImageUpdate reads from the AppImage to find the next release's ``.zsync``."""
    owner, repo = HOMEPAGE.removeprefix("https://github.com/").split("/")[:2]
    return f"gh-releases-zsync|{owner}|{repo}|latest|AgentDesk-*-{arch}.AppImage.zsync"


def elf_section(data: bytes, name: str) -> tuple[int, int]:
    """(file offset, size) of the section ``name`` in a 64-bit little-endian ELF file."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise SystemExit("the AppImage runtime is not a 64-bit little-endian ELF file")
    (shoff,) = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)

    def header(index: int) -> tuple[int, int, int]:
        base = shoff + index * shentsize
        (name_at,) = struct.unpack_from("<I", data, base)
        offset, size = struct.unpack_from("<QQ", data, base + 0x18)
        return name_at, offset, size

    _n, names_at, _s = header(shstrndx)
    for index in range(shnum):
        name_at, offset, size = header(index)
        end = data.index(b"\0", names_at + name_at)
        if data[names_at + name_at : end].decode() == name:
            return offset, size
    raise SystemExit(f"the AppImage runtime has no {name} section")


def embed_update_information(image: bytearray, info: str) -> None:
    """Write ``info`` into the runtime's ``.upd_info`` section (zero-padded), as appimagetool
    ``-u`` does."""
    offset, size = elf_section(bytes(image), ".upd_info")
    raw = info.encode()
    if len(raw) >= size:
        raise SystemExit(f"update information longer than .upd_info ({size} bytes)")
    image[offset : offset + size] = raw.ljust(size, b"\0")


def zsync_file(image: Path) -> Path | None:
    """``IMAGE.zsync`` beside the image (zsyncmake; apt: zsync), for delta updates; None when
    zsyncmake is not installed (said, never silent)."""
    if shutil.which("zsyncmake") is None:
        print("no zsyncmake (apt: zsync): the AppImage gets no .zsync file")
        return None
    out = image.with_name(image.name + ".zsync")
    run(["zsyncmake", "-u", image.name, "-o", str(out), str(image)], cwd=image.parent)
    return out


def build_appimage(appdir: Path, runtime: Path, out_dir: Path, version: str, arch: str) -> Path:
    """An AppImage (type 2): the checked runtime, carrying the update information, followed by
    a squashfs of the AppDir; then its ``.zsync`` file."""
    digest = hashlib.sha256(runtime.read_bytes()).hexdigest()
    if digest != APPIMAGE_RUNTIME_SHA256.get(arch):
        raise SystemExit(f"AppImage runtime checksum mismatch: {digest}")
    image = out_dir / "appdir.squashfs"
    image.unlink(missing_ok=True)
    run(["mksquashfs", str(appdir), str(image), "-root-owned", "-noappend", "-comp", "zstd"])
    out = out_dir / f"AgentDesk-{version}-{arch}.AppImage"
    head = bytearray(runtime.read_bytes())
    embed_update_information(head, update_information(arch))
    with out.open("wb") as target:
        target.write(head)
        target.write(image.read_bytes())
    out.chmod(0o755)
    image.unlink()
    zsync_file(out)
    return out
