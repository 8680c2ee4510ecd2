"""Host libraries on the AppImage project's exclude list come from the system, not the bundle.

A bundled libstdc++, libX11 or glib mixed at run time with the system's libGL/libxcb is a known
source of crashes on newer distributions; the .deb's Depends name the packages that provide
them instead (computed from the bundle's NEEDED entries on the build host).
"""

from __future__ import annotations

import subprocess

import linux_packages
import pytest
from bundle_config import HOST_LIBRARIES, host_library

from tests.packaging.conftest import Built

pytestmark = pytest.mark.timeout(1800)  # may be the first to build (cached by source hash)


def test_no_host_library_is_bundled_and_the_deb_depends_on_them(built: Built) -> None:
    bundled = sorted(p.name for p in built.onedir.rglob("*") if p.name.startswith(HOST_LIBRARIES))
    assert bundled == [], f"host libraries in the bundle: {bundled}"
    packages, missing, _glibc = linux_packages.system_libraries(built.onedir)
    assert missing == []
    host = {soname: package for soname, package in packages.items() if host_library(soname)}
    assert {"libstdc++.so.6", "libX11.so.6", "libfontconfig.so.1"} <= set(host), packages
    depends = subprocess.run(
        ["dpkg-deb", "-f", str(built.deb), "Depends"], capture_output=True, text=True, check=True
    ).stdout
    names = {entry.strip().split(" ")[0] for entry in depends.split(",")}
    assert set(host.values()) - {"libc6"} <= names


def test_host_library_matches_only_top_level_libraries() -> None:
    assert host_library("libstdc++.so.6") and host_library("libxcb-cursor.so.0")
    assert not host_library("PySide6/Qt/plugins/platforms/libqxcb.so")
    assert not host_library("libzstd.so.1") and not host_library("libQt6Core.so.6")
