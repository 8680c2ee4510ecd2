"""Code signing of the Windows and macOS artifacts, and the macOS dmg it is part of.

Windows: Authenticode with ``signtool`` (a PFX from the ``WINDOWS_CERTIFICATE`` secret, SHA-256
digests, an RFC 3161 timestamp), first both executables of the bundle, then the installer.
macOS: ``codesign`` inner-first (every Mach-O file, then the frameworks, then the .app, never
``--deep``), hardened runtime and timestamp, the dmg signed too, then ``notarytool`` and
``stapler``. Without the secrets nothing is signed (macOS: ad hoc, so the app still runs) and
the artifact is renamed ``-unsigned`` (``release.mark_unsigned``): never silently unsigned.
"""

from __future__ import annotations

import base64
import os
import shutil
import tempfile
from pathlib import Path

import release
from bundle_config import DISPLAY_NAME, NAME, version
from linux_packages import run

HERE = Path(__file__).resolve().parent
ENTITLEMENTS = HERE / "macos" / "entitlements.plist"
APP_BUNDLE = f"{DISPLAY_NAME}.app"
TIMESTAMP_URL = "http://timestamp.digicert.com"
#: The executables of the Windows bundle: the console one (command line) and the windowed one.
WINDOWS_EXECUTABLES = (f"{NAME}.exe", f"{NAME}-gui.exe")


# ---------------------------------------------------------------------------------- Windows
def _signtool() -> str:
    found = shutil.which("signtool")
    if found:
        return found
    kits = Path(os.environ.get("PROGRAMFILES(X86)", r"C:\Program Files (x86)")) / "Windows Kits"
    candidates = sorted(kits.glob("10/bin/10.*/x64/signtool.exe"))
    if not candidates:
        raise release.ReleaseError("signtool.exe not found (Windows SDK)")
    return str(candidates[-1])


def windows_sign(files: list[Path]) -> bool:
    """Authenticode-sign ``files``; False (nothing done) when the certificate secret is absent."""
    cert = os.environ.get("WINDOWS_CERTIFICATE")
    password = os.environ.get("WINDOWS_CERTIFICATE_PWD")
    if not cert or not password:
        print("no WINDOWS_CERTIFICATE/WINDOWS_CERTIFICATE_PWD: not Authenticode-signed")
        return False
    with tempfile.TemporaryDirectory() as tmp:
        pfx = Path(tmp) / "signing.pfx"
        pfx.write_bytes(base64.b64decode(cert))
        tool = _signtool()
        for file in files:
            run([tool, "sign", "/f", str(pfx), "/p", password, "/fd", "SHA256", "/tr",
                 TIMESTAMP_URL, "/td", "SHA256", "/d", DISPLAY_NAME, str(file)])  # fmt: skip
            run([tool, "verify", "/pa", "/v", str(file)], capture_output=True)
    return True


def sign_windows_bundle(onedir: Path) -> None:
    windows_sign([onedir / name for name in WINDOWS_EXECUTABLES if (onedir / name).exists()])


def sign_windows_installer(build: Path) -> Path:
    installer = next(build.glob("AgentDesk-*setup.exe"))
    return installer if windows_sign([installer]) else release.mark_unsigned(installer)


# ---------------------------------------------------------------------------------- macOS
def macos_keychain() -> None:
    """Import the signing certificate from CI secrets into a temporary keychain (if present)."""
    cert, password = os.environ.get("MACOS_CERTIFICATE"), os.environ.get("MACOS_CERTIFICATE_PWD")
    if not cert or not password:
        print("no signing certificate in the environment: the app will be ad-hoc signed")
        return
    keychain = Path(tempfile.gettempdir()) / "agentdesk-signing.keychain-db"
    p12 = Path(tempfile.gettempdir()) / "agentdesk-signing.p12"
    p12.write_bytes(base64.b64decode(cert))
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


def _is_macho(path: Path) -> bool:
    if not path.is_file() or path.is_symlink():
        return False
    with path.open("rb") as handle:
        magic = handle.read(4)
    return magic in {b"\xcf\xfa\xed\xfe", b"\xce\xfa\xed\xfe", b"\xca\xfe\xba\xbe"}


def inner_first(app: Path) -> list[Path]:
    """What codesign must sign, innermost first: loose Mach-O files (deepest paths first), then
    the nested bundles (frameworks, deepest first), then the app itself."""
    contents = app / "Contents"
    bundles = sorted(
        (p for p in contents.rglob("*") if p.suffix in {".framework", ".app"} and p.is_dir()),
        key=lambda p: -len(p.parts),
    )
    machos = sorted(
        (p for p in contents.rglob("*") if _is_macho(p) and p.parent != contents / "MacOS"),
        key=lambda p: -len(p.parts),
    )
    main = [p for p in (contents / "MacOS").iterdir() if _is_macho(p)]
    return [*machos, *bundles, *main, app]


def macos_sign_app(app: Path, identity: str) -> None:
    sign = ["codesign", "--force", "--options", "runtime", "--sign", identity]
    if identity != "-":
        sign += ["--timestamp"]
    for item in inner_first(app):
        entitled = item == app or item.parent.name == "MacOS"
        extra = ["--entitlements", str(ENTITLEMENTS)] if entitled and identity != "-" else []
        run([*sign, *extra, str(item)], capture_output=True)
    run(["codesign", "--verify", "--strict", "--deep", "--verbose=2", str(app)])


def dmg(build: Path) -> Path:
    """Sign the .app inner-first (Developer ID when configured, else ad hoc), make the dmg, sign
    it, notarize and staple; an ad-hoc build is named ``-unsigned``."""
    app = build / "dist" / APP_BUNDLE
    identity = os.environ.get("AGENTDESK_CODESIGN_IDENTITY") or "-"
    macos_sign_app(app, identity)
    stage = build / "dmg-root"
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir()
    run(["ditto", str(app), str(stage / APP_BUNDLE)])
    (stage / "Applications").symlink_to("/Applications")
    out = build / f"AgentDesk-{version()}-macos-{os.uname().machine}.dmg"
    out.unlink(missing_ok=True)
    run(["hdiutil", "create", "-volname", DISPLAY_NAME, "-srcfolder", str(stage), "-ov",
         "-format", "UDZO", str(out)])  # fmt: skip
    if identity == "-":
        return release.mark_unsigned(out)
    run(["codesign", "--force", "--timestamp", "--sign", identity, str(out)])
    apple_id, team = os.environ.get("APPLE_ID"), os.environ.get("APPLE_TEAM_ID")
    app_password = os.environ.get("APPLE_APP_PASSWORD")
    if not (apple_id and team and app_password):
        print("UNSIGNED: not notarized (APPLE_ID/APPLE_TEAM_ID/APPLE_APP_PASSWORD not all set)")
        return release.mark_unsigned(out)
    run(["xcrun", "notarytool", "submit", str(out), "--apple-id", apple_id, "--team-id", team,
         "--password", app_password, "--wait"])  # fmt: skip
    run(["xcrun", "stapler", "staple", str(out)])
    run(["spctl", "--assess", "--type", "open", "--context", "context:primary-signature",
         "--verbose", str(out)])  # fmt: skip
    return out


def dmg_smoke(image: Path) -> None:
    """Smoke-test the app inside the mounted dmg (what a user starts first)."""
    import smoke_run

    mount = Path(tempfile.mkdtemp(prefix="agentdesk-dmg-"))
    run(["hdiutil", "attach", "-nobrowse", "-readonly", "-mountpoint", str(mount), str(image)])
    try:
        smoke_run.check([str(mount / APP_BUNDLE / "Contents" / "MacOS" / NAME)], display="native")
    finally:
        run(["hdiutil", "detach", str(mount)])
