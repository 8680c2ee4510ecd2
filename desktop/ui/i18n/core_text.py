"""The window's side of the core's translatable sentences (``desktop.core.texts.CoreText``).

The core builds its sentences in English and Qt-free; an event or entry that the window shows
may carry one as a ``CoreText`` (context, source, arguments). ``shown`` translates it with the
installed catalogue where the window shows it, and fills in its arguments: user data (paths,
names, stderr) as it is, a nested ``CoreText`` translated in its turn. Without a ``CoreText``
(an agent's own words, an entry stored before) the English text is shown.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QCoreApplication

from desktop.core.texts import CoreText

log = logging.getLogger(__name__)


def translated(text: CoreText) -> str:
    """``text`` in the window's language (English where the catalogue has no entry)."""
    args = {k: v if isinstance(v, str) else translated(v) for k, v in text.args.items()}
    sentence = QCoreApplication.translate(text.context, text.source)
    try:
        return sentence.format(**args)
    except (KeyError, IndexError, ValueError):
        # A translation whose {fields} do not match its source (the i18n test forbids it).
        log.warning("the translation of %r does not fit its arguments", text.source)
        return text.source.format(**args)


def shown(english: str, text: CoreText | None) -> str:
    """What the window shows for a message: ``text`` translated, else ``english`` as it is."""
    return english if text is None else translated(text)
