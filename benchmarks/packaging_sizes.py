"""Installed and download size of each Linux artifact this machine can build, against AionUi.

Artifacts: the frozen onedir, the .deb (xz), the AppDir, and the AppImage payload (squashfs of
the AppDir, zstd, as CI packs it; the runtime adds under 1 MB). AionUi's macOS DMG is about
243 MB and its unpacked app about 758 MB (product-anchor.md §5): the target is under a third.

Usage: python benchmarks/packaging_sizes.py [--build-dir build/packaging]
(builds whatever is missing with packaging/build.py)
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "packaging" / "build.py"
AIONUI_DMG_MB, AIONUI_UNPACKED_MB = 243, 758
MB = 1024 * 1024


def step(build: Path, name: str) -> None:
    subprocess.run([sys.executable, str(BUILD), "--build-dir", str(build), name], check=True)


def tree_mb(folder: Path) -> float:
    return (
        sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink()) / MB
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build" / "packaging")
    build = parser.parse_args().build_dir.resolve()
    if not (build / "dist" / "agentdesk" / "agentdesk").exists():
        step(build, "freeze")
    if not list(build.glob("agentdesk_*.deb")):
        step(build, "deb")
    if not (build / "AgentDesk.AppDir").exists():
        step(build, "appdir")
    deb = next(build.glob("agentdesk_*.deb"))
    installed = subprocess.run(["dpkg-deb", "-f", str(deb), "Installed-Size"], capture_output=True,
                               text=True, check=True).stdout  # fmt: skip
    rows = [
        ("onedir (unpacked app)", None, tree_mb(build / "dist" / "agentdesk")),
        (deb.name, deb.stat().st_size / MB, int(installed) / 1024),
        ("AppDir", None, tree_mb(build / "AgentDesk.AppDir")),
    ]
    if shutil.which("mksquashfs"):
        with tempfile.TemporaryDirectory() as tmp:
            image = Path(tmp) / "appdir.squashfs"
            appdir = str(build / "AgentDesk.AppDir")
            options = ["-root-owned", "-noappend", "-comp", "zstd", "-quiet", "-no-progress"]
            subprocess.run(["mksquashfs", appdir, str(image), *options], check=True)
            rows.append(("AppImage payload (squashfs)", image.stat().st_size / MB, None))
    print(f"{'artifact':<30} {'download MB':>12} {'installed MB':>13}")
    for name, download, inst in rows:
        d = f"{download:.1f}" if download is not None else "-"
        i = f"{inst:.1f}" if inst is not None else "-"
        print(f"{name:<30} {d:>12} {i:>13}")
    biggest_download = max(r[1] for r in rows if r[1] is not None)
    biggest_installed = max(r[2] for r in rows if r[2] is not None)
    print(f"AionUi macOS: DMG {AIONUI_DMG_MB} MB, unpacked {AIONUI_UNPACKED_MB} MB")
    down, inst_ratio = biggest_download / AIONUI_DMG_MB, biggest_installed / AIONUI_UNPACKED_MB
    print(
        f"largest download {down:.2f} of AionUi's DMG, largest install {inst_ratio:.2f} of its app"
    )
    print("target: under 0.33 of each")


if __name__ == "__main__":
    main()
