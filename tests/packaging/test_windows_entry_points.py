"""Windows: a console ``agentdesk.exe`` for the command line, a windowed one for the Start menu,
and the install folder on the user's PATH (an installer option, on by default, undone by the
uninstaller). The installer compiles here with makensis against a stand-in payload; the real
install is smoke-tested on the Windows runner (``build.py smoke windows``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import signing
from bundle_config import ROOT

NSI = ROOT / "packaging" / "windows" / "agentdesk.nsi"


def test_the_spec_makes_a_console_and_a_windowed_program_on_windows() -> None:
    spec = (ROOT / "packaging" / "agentdesk.spec").read_text()
    assert 'programs = [program("agentdesk", console=not MACOS)]' in spec
    assert 'programs.append(program("agentdesk-gui", console=False))' in spec
    assert "COLLECT(*programs," in spec
    assert signing.WINDOWS_EXECUTABLES == ("agentdesk.exe", "agentdesk-gui.exe")


def test_the_installer_starts_the_windowed_program_and_offers_the_path(tmp_path: Path) -> None:
    script = NSI.read_text()
    assert 'CreateShortcut "$SMPROGRAMS\\${APPNAME}.lnk" "$INSTDIR\\${GUI_EXE}"' in script
    assert '!define MUI_FINISHPAGE_RUN "$INSTDIR\\${GUI_EXE}"' in script
    assert "MUI_PAGE_COMPONENTS" in script  # the PATH option is a choice
    path_section = script.split('Section "Add to PATH')[1].split("SectionEnd")[0]
    assert 'HKCU "Environment" "Path"' in path_section and "HKLM" not in script
    assert "${NSIS_MAX_STRLEN}" in path_section  # a long PATH is never written back cut short
    uninstall = script.split('Section "Uninstall"')[1]
    assert "${un.WordReplace}" in uninstall and 'Delete "$INSTDIR\\${GUI_EXE}"' in uninstall
    result = subprocess.run(
        [sys.executable, str(ROOT / "packaging" / "build.py"), "--build-dir", str(tmp_path),
         "windows", "--check"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    payload = tmp_path / "nsis-check" / "payload"
    assert {p.name for p in payload.glob("*.exe")} == set(signing.WINDOWS_EXECUTABLES)
