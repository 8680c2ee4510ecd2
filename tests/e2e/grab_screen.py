"""Save a screenshot of the whole X display named by $DISPLAY: ``grab_screen.py OUT.png``.

ImageMagick's ``import`` and ``xwd`` are not available here, so Qt grabs the root window.
"""

from __future__ import annotations

import sys

from PySide6.QtGui import QGuiApplication


def main() -> int:
    app = QGuiApplication([*sys.argv[:1], "-platform", "xcb"])
    screen = app.primaryScreen()
    ok = screen.grabWindow(0).save(sys.argv[1])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
