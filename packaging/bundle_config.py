"""What goes into the frozen bundle and its packages: shared by the spec, build.py and the tests.

Kept in one small module so the spec (run by PyInstaller, not importable as a package), the
build script and the packaging tests agree on names, excludes and runtime dependencies.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP_ID = "io.github.agentdesk.AgentDesk"
NAME = "agentdesk"
DISPLAY_NAME = "Agent Desk"
SUMMARY = "Desktop host for AI coding agents"
HOMEPAGE = "https://github.com/agentdesk/agentdesk"
MAINTAINER = "Agent Desk developers <agentdesk@users.noreply.github.com>"

#: PySide6 modules the app never imports (``grep -r "from PySide6" desktop``: QtCore, QtGui,
#: QtWidgets, QtNetwork). Excluding them keeps their libraries (QML/Quick alone is ~60 MB) out.
_UNUSED_QT_MODULES = (
    "Qt3DAnimation Qt3DCore Qt3DExtras Qt3DInput Qt3DLogic Qt3DRender QtBluetooth QtCharts "
    "QtConcurrent QtDataVisualization QtDesigner QtGraphs QtHelp QtHttpServer QtLabsStyleKit "
    "QtLocation QtMultimedia QtMultimediaWidgets QtNetworkAuth QtNfc QtOpenGL "
    "QtOpenGLWidgets QtPdf QtPdfWidgets QtPositioning QtPrintSupport QtQml QtQmlFeatures "
    "QtQuick QtQuick3D QtQuickControls2 QtQuickTest QtQuickWidgets QtRemoteObjects QtScxml "
    "QtSensors QtSerialBus QtSerialPort QtSpatialAudio QtSql QtStateMachine QtSvg "
    "QtSvgWidgets QtTest QtTextToSpeech QtUiTools QtWebChannel QtWebEngineCore "
    "QtWebEngineQuick QtWebEngineWidgets QtWebSockets QtWebView QtXml"
)
QT_EXCLUDES = [f"PySide6.{m}" for m in _UNUSED_QT_MODULES.split()]
#: Python packages that are development or test tools, never used by the app at run time.
PY_EXCLUDES = [
    "tkinter",
    "unittest",
    "pydoc_data",
    "pytest",
    "_pytest",
    "hypothesis",
    "mypy",
    "ruff",
    "grpc_tools",
    "setuptools",
    "pip",
    "IPython",
    "matplotlib",
    "numpy",
    "PIL",
    "tests",
]
#: Qt plugins (path fragments inside the bundle) the app never loads. The GTK3 platform theme
#: alone drags libgtk-3, glib and friends into the bundle (desktop-engineering.md §4.8); Qt
#: falls back to the xdg-desktop-portal theme, whose file dialog is the desktop's own.
QT_PLUGIN_EXCLUDES = [
    "platformthemes/libqgtk3",
    "platforms/libqeglfs",
    "platforms/libqlinuxfb",
    "platforms/libqminimalegl",
    "platforms/libqvkkhrdisplay",
    "platforms/libqvnc",
    "egldeviceintegrations/",
    "libQt6EglFSDeviceIntegration",
    "libQt6EglFsKmsSupport",
    "wayland-graphics-integration-server/",
    "libQt6WaylandCompositor",
    "networkinformation/libqglib",  # drags in gio, libmount and libblkid; NetworkManager stays
    "imageformats/libqpdf",
    "libQt6Pdf",
    "imageformats/libqtiff",
    "imageformats/libqtga",
    "imageformats/libqwbmp",
    "printsupport/",
    "sqldrivers/",
    "qmltooling/",
    "designer/",
    "translations/qtwebengine",
]

#: Host libraries the bundle leaves to the system (Linux), from the AppImage project's exclude
#: list: a bundled copy mixed at run time with the system's libGL/libxcb is a known source of
#: crashes on newer distributions. The .deb's Depends name their packages (computed from the
#: bundle's NEEDED entries); an AppImage finds them on every desktop system.
HOST_LIBRARIES = (
    "libstdc++.so", "libgcc_s.so", "libz.so", "libexpat.so", "libuuid.so", "libcom_err.so",
    "libgpg-error.so", "libX11.so", "libX11-xcb.so", "libXau.so", "libXdmcp.so", "libxcb-",
    "libxkbcommon.so", "libxkbcommon-x11.so", "libfontconfig.so", "libfreetype.so",
    "libdbus-1.so", "libglib-2.0.so", "libgthread-2.0.so",
)  # fmt: skip


def host_library(dest: str) -> bool:
    """True for a file of ``HOST_LIBRARIES`` at the bundle's top (not a Qt plugin)."""
    name = dest.replace("\\", "/")
    return "/" not in name.strip("/") and name.startswith(HOST_LIBRARIES)


#: Debian packages the bundle needs at run time although no ELF file names them directly:
#: the xcb platform plugin ``dlopen``s or indirectly loads these (desktop-engineering.md §4.3),
#: and a missing one makes Qt fail with "Could not load the Qt platform plugin xcb".
DEB_BASE_DEPENDS = [
    "libxcb-cursor0",
    "libxcb-icccm4",
    "libxcb-keysyms1",
    "libxcb-shape0",
    "libxcb-randr0",
    "libxcb-render-util0",
    "libxcb-image0",
    "libxcb-xkb1",
    "libxkbcommon-x11-0",
    "libegl1",
    "libgl1",
    "libfontconfig1",
    "libdbus-1-3",
]
DEB_RECOMMENDS = ["gnome-keyring | kwalletmanager"]


def _excluded(dest: str) -> bool:
    dest = dest.replace("\\", "/")
    return any(part in dest for part in QT_PLUGIN_EXCLUDES)


def prune_binaries(binaries: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """``binaries`` without the excluded Qt plugins and the libraries only they need.

    PyInstaller collects a plugin's dependencies during analysis, so dropping the plugin alone
    would leave e.g. libgtk-3 behind. A library is dropped only when it is reachable from an
    excluded plugin and from nothing that stays (``ldd`` lists the transitive closure).
    """
    import sys  # the spec runs this inside PyInstaller

    kept = [entry for entry in binaries if not _excluded(entry[0])]
    if not sys.platform.startswith("linux"):
        return kept
    kept = [entry for entry in kept if not host_library(entry[0])]
    from PyInstaller.depend.bindepend import get_imports

    def closure(entries: list[tuple[str, str, str]]) -> set[str]:
        names: set[str] = set()
        for _dest, src, _kind in entries:
            names.update(Path(name).name for name, _path in get_imports(src))
        return names

    candidates = closure([entry for entry in binaries if _excluded(entry[0])])
    roots = [entry for entry in kept if Path(entry[0]).name not in candidates]
    needed = closure(roots)
    return [e for e in kept if Path(e[0]).name not in candidates or Path(e[0]).name in needed]


def version() -> str:
    """The version of ``desktop/__init__.py``, read without importing the package."""
    text = (ROOT / "desktop" / "__init__.py").read_text(encoding="utf-8")
    match = re.search(r'^__version__ = "([^"]+)"', text, re.MULTILINE)
    if match is None:
        raise RuntimeError("desktop/__init__.py has no __version__")
    return match.group(1)
