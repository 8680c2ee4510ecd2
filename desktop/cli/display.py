"""Is there a display the window can open? Asked before ``QApplication`` exists.

Without one, Qt prints several lines ending in "Reinstalling the application may fix this
problem" and aborts the process (status 134, a core dump): wrong advice to someone who ran
``agentdesk`` over ssh or in a container. ``display_problem`` finds that case first, so the
command can print one honest line and exit 2.

Linux only (Windows and macOS always have a display). A ``QT_QPA_PLATFORM`` that needs no
display server (offscreen, minimal, vnc, eglfs, linuxfb, ...) is fine as it is. Otherwise the
X server of ``DISPLAY`` or the Wayland compositor of ``WAYLAND_DISPLAY`` must accept a
connection: a socket connect, well under a millisecond, through ``_socket`` (the ``socket``
module's enum set-up is a cost the first paint need not pay). A display that accepts is what
Qt connects to; when only one of the two does, Qt is pointed at it (``QT_QPA_PLATFORM``) so it
does not try the dead one and abort. A window nobody can see is not a fallback.
"""

from __future__ import annotations

import os
import sys
from collections.abc import MutableMapping

#: Advice that follows every "no display" message.
ADVICE = "run it in a desktop session, or use `agentdesk exec` for headless use"
#: Qt platforms that talk to a display server (the others draw without one).
_SERVER_PLATFORMS = ("xcb", "wayland", "wayland-egl", "wayland-brcm")
#: Longest wait for a TCP X display (ssh forwarding: ``localhost:10``).
_TCP_TIMEOUT_S = 1.0


def _connects(family: int, address: str | tuple[str, int]) -> bool:
    import _socket

    sock = _socket.socket(family, _socket.SOCK_STREAM)
    try:
        sock.settimeout(_TCP_TIMEOUT_S)
        sock.connect(address)
    except OSError:
        return False
    finally:
        sock.close()
    return True


def x_display_open(display: str) -> bool:
    """Whether the X server of ``display`` (``[host]:N[.S]``) accepts a connection.

    A remote host other than this machine is assumed to answer (it is not ours to probe).
    """
    import _socket

    host, _, rest = display.rpartition(":")
    number = rest.split(".", 1)[0]
    if not number.isdigit():
        return False
    if host in ("", "unix"):
        path = f"/tmp/.X11-unix/X{number}"
        # libxcb tries Linux's abstract socket first, then the file.
        return _connects(_socket.AF_UNIX, "\0" + path) or _connects(_socket.AF_UNIX, path)
    if host in ("localhost", "127.0.0.1", "::1"):
        return _connects(_socket.AF_INET, ("127.0.0.1", 6000 + int(number)))
    return True


def wayland_display_open(name: str, environ: MutableMapping[str, str]) -> bool:
    """Whether the compositor socket ``WAYLAND_DISPLAY`` names accepts a connection."""
    import _socket

    path = name if name.startswith("/") else os.path.join(environ.get("XDG_RUNTIME_DIR", ""), name)
    return _connects(_socket.AF_UNIX, path)


def display_problem(
    environ: MutableMapping[str, str] | None = None, platform: str | None = None
) -> str | None:
    """The one line to print when the window cannot be shown, else None.

    May set ``QT_QPA_PLATFORM`` in ``environ`` when exactly one of X and Wayland answers.
    """
    environ = os.environ if environ is None else environ
    if not (platform or sys.platform).startswith("linux"):
        return None
    platforms = environ.get("QT_QPA_PLATFORM", "").split(";")
    chosen = [p.split(":", 1)[0].strip() for p in platforms if p.strip()]
    if any(p not in _SERVER_PLATFORMS for p in chosen):
        return None  # offscreen, minimal, vnc, eglfs, ...: no display server needed
    x_display = environ.get("DISPLAY", "")
    wayland = environ.get("WAYLAND_DISPLAY", "")
    if not x_display and not wayland:
        return f"agentdesk: no display found; {ADVICE}"
    x_ok = bool(x_display) and x_display_open(x_display)
    wayland_ok = bool(wayland) and wayland_display_open(wayland, environ)
    if chosen:  # Qt tries only these
        x_display = x_display if "xcb" in chosen else ""
        wayland = wayland if any(p.startswith("wayland") for p in chosen) else ""
        x_ok, wayland_ok = x_ok and bool(x_display), wayland_ok and bool(wayland)
    elif x_display and wayland and x_ok != wayland_ok:
        environ["QT_QPA_PLATFORM"] = "xcb" if x_ok else "wayland"
    if x_ok or wayland_ok:
        return None
    names = " or ".join(n for n in (x_display, wayland) if n)
    if not names:
        return f"agentdesk: no display found; {ADVICE}"
    return f"agentdesk: no display found (cannot connect to {names}); {ADVICE}"
