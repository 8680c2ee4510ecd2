"""Build and check Agent Desk's installers: the one script CI and people run.

    python packaging/build.py freeze              # PyInstaller onedir (dist/agentdesk, .app)
    python packaging/build.py smoke onedir        # smoke-test an artifact (see smoke_run.py)
    python packaging/build.py deb | appdir        # Linux packages from the onedir
    python packaging/build.py appimage --runtime FILE   # CI: AppImage from the AppDir
    python packaging/build.py windows [--check]   # NSIS per-user installer (--check: stand-in)
    python packaging/build.py dmg                 # macOS: sign (if secrets), dmg, notarize
    python packaging/build.py icons | sizes       # regenerate icons; print artifact sizes

Everything is written under ``--build-dir`` (default ``build/packaging``): ``dist/`` (onedir),
``work/`` (PyInstaller), and the artifacts. The workflow in ``.github/workflows/release.yml``
only installs prerequisites and calls these subcommands.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


import linux_packages
import smoke_run
from bundle_config import DISPLAY_NAME, NAME, ROOT, version

HERE = Path(__file__).resolve().parent
SPEC = HERE / "agentdesk.spec"
NSIS_SCRIPT = HERE / "windows" / "agentdesk.nsi"
ENTITLEMENTS = HERE / "macos" / "entitlements.plist"
APP_BUNDLE = f"{DISPLAY_NAME}.app"
#: AionUi's macOS artifacts (product-anchor.md §5), the size target is a third of these.
AIONUI_DMG_MB, AIONUI_UNPACKED_MB = 243, 758
run = linux_packages.run


def onedir(build: Path) -> Path:
    """The frozen onedir folder (inside the .app on macOS)."""
    if sys.platform == "darwin":
        return build / "dist" / APP_BUNDLE / "Contents" / "MacOS"
    return build / "dist" / NAME


def executable(build: Path) -> Path:
    return onedir(build) / (f"{NAME}.exe" if sys.platform == "win32" else NAME)


# ---------------------------------------------------------------------------------- freeze
def freeze(build: Path) -> Path:
    """Run PyInstaller on the spec; returns the onedir."""
    run(
        [
            sys.executable,
            "-m",
            "PyInstaller",
            "--noconfirm",
            "--log-level=WARN",
            "--distpath",
            str(build / "dist"),
            "--workpath",
            str(build / "work"),
            str(SPEC),
        ],
        cwd=ROOT,
    )
    exe = executable(build)
    if not exe.exists():
        raise SystemExit(f"PyInstaller produced no {exe}")
    if sys.platform.startswith("linux"):
        fixed = linux_packages.fix_runpaths(onedir(build))
        print(f"RUNPATHs outside the bundle removed from {fixed} files")
    return onedir(build)


# ---------------------------------------------------------------------------------- icons
def icons() -> None:
    """Render resources/icons/agentdesk.svg to PNGs (Qt's SVG renderer), ICO and ICNS (Pillow)."""
    from PIL import Image
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = QGuiApplication.instance() or QGuiApplication([])
    folder = ROOT / "resources" / "icons"
    renderer = QSvgRenderer(str(folder / f"{NAME}.svg"))
    pngs = {}
    for size in (*linux_packages.ICON_SIZES, 1024):
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        renderer.render(painter)
        painter.end()
        path = folder / f"{NAME}-{size}.png"
        image.save(str(path))
        pngs[size] = path
    big = Image.open(pngs[1024])
    big.save(folder / f"{NAME}.ico", sizes=[(s, s) for s in (16, 24, 32, 48, 64, 128, 256)])
    big.save(folder / f"{NAME}.icns")
    pngs[1024].unlink()  # only the ICNS needs it
    del app
    print(f"icons written to {folder}")


# ---------------------------------------------------------------------------------- windows
def windows(build: Path, check: bool) -> Path:
    """The per-user NSIS installer; ``check`` compiles it against a stand-in payload."""
    payload = onedir(build)
    out_dir = build / ("nsis-check" if check else "")
    out_dir.mkdir(parents=True, exist_ok=True)
    if check:
        payload = out_dir / "payload"
        (payload / "_internal").mkdir(parents=True, exist_ok=True)
        (payload / f"{NAME}.exe").write_bytes(b"MZ stand-in payload")
        (payload / "_internal" / "base_library.zip").write_bytes(b"stand-in")
    out = out_dir / f"AgentDesk-{version()}-setup.exe"
    makensis = shutil.which("makensis") or r"C:\Program Files (x86)\NSIS\makensis.exe"
    run(
        [
            makensis,
            "-V2",
            f"-DVERSION={version()}",
            f"-DPAYLOAD={payload}",
            f"-DOUTFILE={out}",
            f"-DICON={ROOT / 'resources' / 'icons' / f'{NAME}.ico'}",
            str(NSIS_SCRIPT),
        ]
    )
    return out


def windows_install_smoke(installer: Path) -> None:
    """Silent per-user install, smoke test of the installed exe, silent uninstall."""
    target = Path(os.environ["LOCALAPPDATA"]) / "Programs" / "AgentDesk"
    run([str(installer), "/S"])
    exe = target / f"{NAME}.exe"
    if not exe.exists():
        raise SystemExit(f"the installer did not install {exe}")
    smoke_run.check([str(exe)], display="native")
    subprocess.run([str(target / "uninstall.exe"), "/S", f"_?={target}"], check=True)
    (target / "uninstall.exe").unlink(missing_ok=True)
    leftovers = list(target.rglob("*")) if target.exists() else []
    if leftovers:
        raise SystemExit(f"the uninstaller left {len(leftovers)} files, e.g. {leftovers[:3]}")


# ---------------------------------------------------------------------------------- macOS
def macos_keychain() -> None:
    """Import the signing certificate from CI secrets into a temporary keychain (if present)."""
    cert, password = os.environ.get("MACOS_CERTIFICATE"), os.environ.get("MACOS_CERTIFICATE_PWD")
    if not cert or not password:
        print("no signing certificate in the environment: the app will be ad-hoc signed")
        return
    keychain = Path(tempfile.gettempdir()) / "agentdesk-signing.keychain-db"
    p12 = Path(tempfile.gettempdir()) / "agentdesk-signing.p12"
    p12.write_bytes(__import__("base64").b64decode(cert))
    secret = os.urandom(16).hex()
    run(["security", "create-keychain", "-p", secret, str(keychain)])
    run(["security", "set-keychain-settings", "-lut", "21600", str(keychain)])
    run(["security", "unlock-keychain", "-p", secret, str(keychain)])
    run(["security", "import", str(p12), "-P", password, "-A", "-t", "cert", "-f", "pkcs12",
         "-k", str(keychain)])  # fmt: skip
    run(["security", "set-key-partition-list", "-S", "apple-tool:,apple:", "-k", secret,
         str(keychain)])  # fmt: skip
    run(["security", "list-keychains", "-d", "user", "-s", str(keychain)])
    p12.unlink()


def dmg(build: Path) -> Path:
    """Sign the .app (Developer ID when configured, else ad hoc), make the dmg, notarize."""
    if sys.platform != "darwin":
        raise SystemExit("dmg: macOS only (hdiutil, codesign, notarytool)")
    app = build / "dist" / APP_BUNDLE
    identity = os.environ.get("AGENTDESK_CODESIGN_IDENTITY") or "-"
    sign = ["codesign", "--force", "--deep", "--options", "runtime", "--sign", identity]
    if identity != "-":
        sign += ["--timestamp", "--entitlements", str(ENTITLEMENTS)]
    run([*sign, str(app)])
    run(["codesign", "--verify", "--strict", "--deep", "--verbose=2", str(app)])
    stage = build / "dmg-root"
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir()
    run(["ditto", str(app), str(stage / APP_BUNDLE)])
    (stage / "Applications").symlink_to("/Applications")
    arch = os.uname().machine
    out = build / f"AgentDesk-{version()}-macos-{arch}.dmg"
    out.unlink(missing_ok=True)
    run(["hdiutil", "create", "-volname", DISPLAY_NAME, "-srcfolder", str(stage), "-ov",
         "-format", "UDZO", str(out)])  # fmt: skip
    apple_id, team = os.environ.get("APPLE_ID"), os.environ.get("APPLE_TEAM_ID")
    app_password = os.environ.get("APPLE_APP_PASSWORD")
    if identity != "-" and apple_id and team and app_password:
        run(["xcrun", "notarytool", "submit", str(out), "--apple-id", apple_id, "--team-id",
             team, "--password", app_password, "--wait"])  # fmt: skip
        run(["xcrun", "stapler", "staple", str(out)])
        run(["spctl", "--assess", "--type", "open", "--context", "context:primary-signature",
             "--verbose", str(out)])  # fmt: skip
    else:
        print("notarization skipped: APPLE_ID/APPLE_TEAM_ID/APPLE_APP_PASSWORD not all set")
    return out


def dmg_smoke(image: Path) -> None:
    """Smoke-test the app inside the mounted dmg (what a user starts first)."""
    mount = Path(tempfile.mkdtemp(prefix="agentdesk-dmg-"))
    run(["hdiutil", "attach", "-nobrowse", "-readonly", "-mountpoint", str(mount), str(image)])
    try:
        smoke_run.check([str(mount / APP_BUNDLE / "Contents" / "MacOS" / NAME)], display="native")
    finally:
        run(["hdiutil", "detach", str(mount)])


# ---------------------------------------------------------------------------------- Linux
def deb_install_smoke(package: Path, display: str) -> None:
    """As root: install with apt (Depends resolved), smoke-test, remove, check nothing is left."""
    run(["apt-get", "install", "-y", "--no-install-recommends", str(package.resolve())])
    smoke_run.check([f"/usr/bin/{NAME}"], display=display)
    run(["dpkg", "--purge", NAME])
    left = [p for p in (Path("/opt") / NAME, Path("/usr/bin") / NAME) if os.path.lexists(p)]
    if left:
        raise SystemExit(f"dpkg --purge left {left}")


def deb_unpacked_smoke(package: Path) -> None:
    """Without root: unpack into a temporary root and smoke-test from there."""
    with tempfile.TemporaryDirectory(prefix="agentdesk-deb-") as root:
        run(["dpkg-deb", "-x", str(package), root])
        smoke_run.check([str(Path(root) / "opt" / NAME / NAME)])


def smoke(build: Path, target: str, path: Path | None, display: str) -> None:
    """Smoke-test one artifact (its default location under ``build`` unless ``path``)."""
    if target == "onedir":
        smoke_run.check([str(path or executable(build))], display=display)
    elif target == "deb":
        package = path or next(build.glob(f"{NAME}_*.deb"))
        if os.environ.get("CI") and getattr(os, "geteuid", lambda: 1)() == 0:
            deb_install_smoke(package, display)
        else:
            deb_unpacked_smoke(package)
    elif target == "appdir":
        smoke_run.check([str((path or build / "AgentDesk.AppDir") / "AppRun")], display=display)
    elif target == "appimage":
        smoke_run.check([str(path or next(build.glob("AgentDesk-*.AppImage")))], display=display)
    elif target == "windows":
        windows_install_smoke(path or next(build.glob("AgentDesk-*-setup.exe")))
    elif target == "dmg":
        dmg_smoke(path or next(build.glob("AgentDesk-*.dmg")))


# ---------------------------------------------------------------------------------- sizes
def _tree_size(folder: Path) -> int:
    return sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def sizes(build: Path) -> list[tuple[str, float, float]]:
    """(artifact, download MB, installed MB) of every artifact present under ``build``."""
    mb = 1024 * 1024
    rows: list[tuple[str, float, float]] = []
    base = onedir(build)
    if base.exists():
        rows.append(("onedir", 0.0, _tree_size(base) / mb))
    for deb in build.glob(f"{NAME}_*.deb"):
        field = run(["dpkg-deb", "-f", str(deb), "Installed-Size"], capture_output=True).stdout
        rows.append((deb.name, deb.stat().st_size / mb, int(field) / 1024))
    if (build / "AgentDesk.AppDir").exists():
        rows.append(("AppDir", 0.0, _tree_size(build / "AgentDesk.AppDir") / mb))
    for item in [*build.glob("AgentDesk-*.AppImage"), *build.glob("AgentDesk-*-setup.exe")]:
        rows.append((item.name, item.stat().st_size / mb, 0.0))
    for item in build.glob("AgentDesk-*.dmg"):
        rows.append((item.name, item.stat().st_size / mb, _tree_size(build / "dist") / mb))
    print(f"{'artifact':<34} {'download MB':>12} {'installed MB':>13}")
    for name, download, installed in rows:
        print(f"{name:<34} {download or float('nan'):>12.1f} {installed or float('nan'):>13.1f}")
    print(f"AionUi macOS: DMG {AIONUI_DMG_MB} MB, unpacked {AIONUI_UNPACKED_MB} MB (target: < 1/3)")
    return rows


# ---------------------------------------------------------------------------------- CLI
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build" / "packaging")
    sub = parser.add_subparsers(dest="step", required=True)
    sub.add_parser("freeze", help="PyInstaller onedir")
    sub.add_parser("icons", help="render the SVG icon to PNG, ICO and ICNS (needs Pillow)")
    sub.add_parser("deb", help="Debian package (dpkg-deb) from the onedir")
    sub.add_parser("appdir", help="AppDir from the onedir")
    appimage = sub.add_parser("appimage", help="AppImage from the AppDir (runtime checked)")
    appimage.add_argument("--runtime", type=Path, required=True, help="type2 runtime file")
    win = sub.add_parser("windows", help="NSIS per-user installer")
    win.add_argument("--check", action="store_true", help="compile against a stand-in payload")
    sub.add_parser("macos-keychain", help="CI: import the signing certificate from secrets")
    sub.add_parser("dmg", help="macOS: sign, dmg, notarize when the secrets are present")
    check = sub.add_parser("smoke", help="smoke-test an artifact")
    check.add_argument("target", choices=["onedir", "deb", "appdir", "appimage", "windows", "dmg"])
    check.add_argument("path", nargs="?", type=Path, help="artifact (default: under build dir)")
    check.add_argument("--display", choices=["offscreen", "native"], default="offscreen")
    sub.add_parser("sizes", help="download and installed size of each artifact")
    args = parser.parse_args(argv)
    build: Path = args.build_dir.resolve()
    build.mkdir(parents=True, exist_ok=True)
    if args.step == "freeze":
        print(freeze(build))
    elif args.step == "icons":
        icons()
    elif args.step == "deb":
        print(linux_packages.build_deb(onedir(build), build, version()))
    elif args.step == "appdir":
        print(linux_packages.build_appdir(onedir(build), build))
    elif args.step == "appimage":
        arch = os.uname().machine
        appdir = build / "AgentDesk.AppDir"
        print(linux_packages.build_appimage(appdir, args.runtime, build, version(), arch))
    elif args.step == "windows":
        print(windows(build, args.check))
    elif args.step == "macos-keychain":
        macos_keychain()
    elif args.step == "dmg":
        print(dmg(build))
    elif args.step == "smoke":
        try:
            smoke(build, args.target, args.path, args.display)
        except smoke_run.SmokeFailure as exc:
            print(f"smoke FAILED: {exc}", file=sys.stderr)
            return 1
    elif args.step == "sizes":
        sizes(build)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
