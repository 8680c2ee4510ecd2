"""What a click on a link in the conversation may do: open a web or mail address, nothing else.

Answers are written by the model, and the model is hostile: a link to ``file:``, to a custom
scheme (which starts whatever program registered it) or without a scheme is never opened. The
desktop opens the rest (``QDesktopServices.openUrl``: the user's browser or mail program).
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

log = logging.getLogger(__name__)

#: The schemes a link in an answer may open.
SAFE_SCHEMES = frozenset({"http", "https", "mailto"})


def is_safe(url: QUrl) -> bool:
    """Whether ``url`` is a web or mail address the desktop may open."""
    scheme = url.scheme().lower()
    if not url.isValid() or scheme not in SAFE_SCHEMES:
        return False
    return scheme == "mailto" or bool(url.host())


def open_link(link: QUrl | str) -> bool:
    """Open ``link`` in the user's browser or mail program if it is safe; whether it was."""
    url = link if isinstance(link, QUrl) else QUrl(link)
    if not is_safe(url):
        log.warning("link not opened (only http, https and mailto are): %s", url.toString())
        return False
    return bool(QDesktopServices.openUrl(url))
