"""Desktop integration without taking over: no folder claim, IDs that match, screenshots.

A ``.desktop`` file with ``MimeType=inode/directory`` makes ``xdg-mime query default
inode/directory`` answer Agent Desk on some desktops: opening any folder from a browser or file
manager would launch it. The checks run the distribution's own validators (apt:
desktop-file-utils, appstream) on the files the packages install.
"""

from __future__ import annotations

import configparser
import subprocess
import xml.etree.ElementTree as ET

import linux_packages
from bundle_config import APP_ID, ROOT

LINUX = ROOT / "resources" / "linux"


def _entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(LINUX / f"{APP_ID}.desktop")
    return parser["Desktop Entry"]


def test_the_desktop_entry_claims_no_folder_type() -> None:
    entry = _entry()
    mime = entry.get("MimeType", "")
    assert "inode/directory" not in mime and "inode/" not in mime
    assert not list(LINUX.glob("agentdesk.desktop")), "the old ID would install beside the new"
    assert entry["Exec"].startswith("agentdesk ")
    result = subprocess.run(
        ["desktop-file-validate", str(LINUX / f"{APP_ID}.desktop")], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_desktop_file_id_is_the_appstream_id_and_the_metainfo_has_screenshots() -> None:
    assert linux_packages.DESKTOP_FILE.name == f"{APP_ID}.desktop"
    assert linux_packages.DESKTOP_FILE.exists()
    tree = ET.parse(LINUX / f"{APP_ID}.metainfo.xml").getroot()
    assert tree.findtext("id") == APP_ID
    launchable = tree.find("launchable")
    assert launchable is not None and launchable.text == f"{APP_ID}.desktop"
    images = [image.text or "" for image in tree.iter("image")]
    assert len(images) >= 2
    for url in images:
        assert url.startswith("https://") and url.endswith(".png"), url
        name = url.rsplit("/", 1)[1]
        assert (ROOT / "docs" / name).is_file(), f"docs/{name} is not in the repository"
    default = [s for s in tree.iter("screenshot") if s.get("type") == "default"]
    assert len(default) == 1 and default[0].findtext("caption")
    result = subprocess.run(
        [
            "appstreamcli",
            "validate",
            "--no-net",
            "--pedantic",
            str(LINUX / f"{APP_ID}.metainfo.xml"),
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
