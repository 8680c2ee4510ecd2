"""Build and check Agent Desk's installers: the one script CI and people run.

    python packaging/build.py freeze              # PyInstaller onedir (dist/agentdesk, .app)
    python packaging/build.py smoke onedir        # smoke-test an artifact (see smoke_run.py)
    python packaging/build.py deb | appdir        # Linux packages from the onedir
    python packaging/build.py appimage --runtime FILE   # CI: AppImage from the AppDir
    python packaging/build.py windows [--check]   # NSIS per-user installer (--check: stand-in)
    python packaging/build.py dmg                 # macOS: sign (if secrets), dmg, notarize
    python packaging/build.py sign windows-bundle | windows-installer   # Authenticode (secrets)
    python packaging/build.py icons | sizes       # regenerate icons; print artifact sizes
    python packaging/build.py check-version --tag v1.2.3 | install-locked   # release inputs
    python packaging/build.py checksums DIR | release-notes DIR           # publish step

A step that cannot run on this OS (``guards.py``), a missing input or a failing tool stops with
one ``error: ...`` line and a non-zero exit code, never a traceback.

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


import guards
import linux_packages
import release
import signing
import smoke_run
from bundle_config import NAME, ROOT, version

HERE = Path(__file__).resolve().parent
SPEC = HERE / "agentdesk.spec"
NSIS_SCRIPT = HERE / "windows" / "agentdesk.nsi"
#: AionUi's macOS artifacts (product-anchor.md §5), the size target is a third of these.
AIONUI_DMG_MB, AIONUI_UNPACKED_MB = 243, 758
run = linux_packages.run


def onedir(build: Path) -> Path:
    """The frozen onedir folder (inside the .app on macOS)."""
    if sys.platform == "darwin":
        return build / "dist" / signing.APP_BUNDLE / "Contents" / "MacOS"
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
    if not check:
        guards.require_file(payload / f"{NAME}.exe", "the Windows onedir: run build.py freeze")
    out_dir = build / ("nsis-check" if check else "")
    out_dir.mkdir(parents=True, exist_ok=True)
    if check:
        payload = out_dir / "payload"
        (payload / "_internal").mkdir(parents=True, exist_ok=True)
        for exe in signing.WINDOWS_EXECUTABLES:
            (payload / exe).write_bytes(b"MZ stand-in payload")
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


def _user_path() -> str:
    """The user's PATH as the registry holds it (what a new cmd.exe gets)."""
    import winreg  # Windows only (the smoke target is guarded)

    with winreg.OpenKey(winreg.HKEY_CURRENT_USER, "Environment") as key:
        return str(winreg.QueryValueEx(key, "Path")[0])


def windows_install_smoke(installer: Path) -> None:
    """Silent per-user install, smoke test of the installed exe, silent uninstall."""
    target = Path(guards.require_env("LOCALAPPDATA")) / "Programs" / "AgentDesk"
    run([str(installer), "/S"])
    for program in signing.WINDOWS_EXECUTABLES:
        if not (target / program).exists():
            raise SystemExit(f"the installer did not install {target / program}")
    if str(target).lower() not in _user_path().lower():
        raise SystemExit(f"the installer did not put {target} on the user's PATH")
    smoke_run.check([str(target / f"{NAME}.exe")], display="native")  # the console program
    subprocess.run([str(target / "uninstall.exe"), "/S", f"_?={target}"], check=True)
    if str(target).lower() in _user_path().lower():
        raise SystemExit(f"the uninstaller left {target} on the user's PATH")
    (target / "uninstall.exe").unlink(missing_ok=True)
    leftovers = list(target.rglob("*")) if target.exists() else []
    if leftovers:
        raise SystemExit(f"the uninstaller left {len(leftovers)} files, e.g. {leftovers[:3]}")


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
    if path is not None:
        guards.require_file(path, f"the {target} artifact to smoke-test")
    if target == "onedir":
        smoke_run.check([str(path or guards.require_file(executable(build), "the onedir"))],
                        display=display)  # fmt: skip
    elif target == "deb":
        package = path or guards.artifact(build, f"{NAME}_*.deb", "deb")
        if os.environ.get("CI") and getattr(os, "geteuid", lambda: 1)() == 0:
            deb_install_smoke(package, display)
        else:
            deb_unpacked_smoke(package)
    elif target == "appdir":
        apprun = (path or build / "AgentDesk.AppDir") / "AppRun"
        smoke_run.check([str(guards.require_file(apprun, "the AppDir: run build.py appdir"))],
                        display=display)  # fmt: skip
    elif target == "appimage":
        image = path or guards.artifact(build, "AgentDesk-*.AppImage", "appimage")
        smoke_run.check([str(image)], display=display)
    elif target == "windows":
        windows_install_smoke(path or guards.artifact(build, "AgentDesk-*setup.exe", "windows"))
    elif target == "dmg":
        signing.dmg_smoke(path or guards.artifact(build, "AgentDesk-*.dmg", "dmg"))


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
    for deb in build.glob(f"{NAME}_*.deb") if guards.host_os() == "linux" else []:
        field = run(["dpkg-deb", "-f", str(deb), "Installed-Size"], capture_output=True).stdout
        rows.append((deb.name, deb.stat().st_size / mb, int(field) / 1024))
    if (build / "AgentDesk.AppDir").exists():
        rows.append(("AppDir", 0.0, _tree_size(build / "AgentDesk.AppDir") / mb))
    # Only this OS's artifacts: one of another OS here would be a stale or wrong build.
    here = guards.host_os()
    images = build.glob("AgentDesk-*.AppImage") if here == "linux" else []
    installers = build.glob("AgentDesk-*setup.exe") if here == "win32" else []
    for item in [*images, *installers, *(build.glob("*.zsync") if here == "linux" else [])]:
        rows.append((item.name, item.stat().st_size / mb, 0.0))
    for item in build.glob("AgentDesk-*.dmg") if here == "darwin" else []:
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
    sub.add_parser("dmg", help="macOS: sign inner-first, dmg, sign, notarize, staple")
    sign = sub.add_parser("sign", help="Windows: Authenticode (or name the installer -unsigned)")
    sign.add_argument("what", choices=["windows-bundle", "windows-installer"])
    check = sub.add_parser("smoke", help="smoke-test an artifact")
    check.add_argument("target", choices=sorted(guards.SMOKE_OS))
    check.add_argument("path", nargs="?", type=Path, help="artifact (default: under build dir)")
    check.add_argument("--display", choices=["offscreen", "native"], default="offscreen")
    sub.add_parser("sizes", help="download and installed size of each artifact")
    tag = sub.add_parser("check-version", help="the release tag names the app's version")
    tag.add_argument("--tag", required=True)
    sub.add_parser("install-locked", help="install the hash-locked inputs, then the app")
    for name in ("checksums", "release-notes"):
        sub.add_parser(name, help="publish step over a folder").add_argument("folder", type=Path)
    args = parser.parse_args(argv)
    try:
        guards.check_os(args.step, getattr(args, "target", None), getattr(args, "check", False))
        return _step(args)
    except guards.GuardError as exc:
        print(exc, file=sys.stderr)
        return exc.exit_code
    except subprocess.CalledProcessError as exc:
        tool = exc.cmd[0] if isinstance(exc.cmd, list) else exc.cmd
        print(f"error: {Path(str(tool)).name} failed (exit code {exc.returncode})", file=sys.stderr)
        return 1
    except FileNotFoundError as exc:  # a tool that is not installed
        print(f"error: {exc.filename or exc}: not found (is it installed?)", file=sys.stderr)
        return guards.EXIT_MISSING
    except smoke_run.SmokeFailure as exc:
        print(f"smoke FAILED: {exc}", file=sys.stderr)
        return 1


def _step(args: argparse.Namespace) -> int:
    build: Path = args.build_dir.resolve()
    build.mkdir(parents=True, exist_ok=True)
    if args.step == "freeze":
        print(freeze(build))
    elif args.step == "icons":
        icons()
    elif args.step in ("deb", "appdir"):
        base = guards.require_file(onedir(build), "the onedir: run build.py freeze")
        if args.step == "deb":
            print(linux_packages.build_deb(base, build, version()))
        else:
            print(linux_packages.build_appdir(base, build))
    elif args.step == "appimage":
        runtime = guards.require_file(args.runtime, "the AppImage type2 runtime given by --runtime")
        appdir = guards.require_file(build / "AgentDesk.AppDir", "the AppDir: run build.py appdir")
        print(linux_packages.build_appimage(appdir, runtime, build, version(), os.uname().machine))
    elif args.step == "windows":
        print(windows(build, args.check))
    elif args.step == "macos-keychain":
        signing.macos_keychain()
    elif args.step == "dmg":
        print(signing.dmg(build))
    elif args.step == "sign":
        if args.what == "windows-bundle":
            signing.sign_windows_bundle(onedir(build))
        else:
            print(signing.sign_windows_installer(build))
    elif args.step == "smoke":
        smoke(build, args.target, args.path, args.display)
    elif args.step == "sizes":
        sizes(build)
    elif args.step == "check-version":
        print(release.check_tag(args.tag))
    elif args.step == "install-locked":
        release.install_locked()
    elif args.step == "checksums":
        print(release.main_checksums(args.folder))
    elif args.step == "release-notes":
        print(release.release_notes(args.folder))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
