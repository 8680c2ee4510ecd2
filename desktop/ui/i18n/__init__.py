"""Translations of the window: Agent Desk's own catalogue and Qt's, for the user's language.

Every user-visible string of ``desktop/ui`` goes through Qt's translation functions
(``self.tr`` in a class, ``QCoreApplication.translate(context, text)`` elsewhere), so
``pyside6-lupdate`` finds them all. The catalogues are ``agentdesk_<lang>.ts`` in this folder;
``packaging/translations.py`` updates them from the sources and compiles them into ``.qm``
files (generated at install and build time, never committed). ``install`` loads the compiled
catalogue of the system's language, and Qt's own (``qtbase_<lang>.qm``, for the standard
dialogs and context menus), before the first window is built: the first frame is translated
too, and loading a catalogue costs well under a millisecond (a memory-mapped file).

Imports only ``QtCore``: it runs before the first paint (``desktop.ui.startup``).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLocale, QTranslator

#: Where the compiled catalogues of Agent Desk live (``agentdesk_<lang>.qm``).
FOLDER = Path(__file__).resolve().parent
#: The catalogue's file name before ``_<lang>``.
PREFIX = "agentdesk"


def install(
    app: QCoreApplication, locale: QLocale | None = None, folder: Path | None = None
) -> list[QTranslator]:
    """Install the translators for ``locale`` (default: the system's) on ``app``.

    Returns the translators installed (none for English or a language without a catalogue);
    ``app`` keeps them alive as Python attributes (Qt does not own them).
    """
    chosen = QLocale.system() if locale is None else locale
    installed: list[QTranslator] = []
    ours = QTranslator(app)
    if ours.load(chosen, PREFIX, "_", str(folder or FOLDER)):
        installed.append(ours)
        from PySide6.QtCore import QLibraryInfo  # only then: English needs no Qt catalogue

        qt_own = QTranslator(app)
        qt_folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        if qt_own.load(chosen, "qtbase", "_", qt_folder):
            installed.append(qt_own)
    for translator in installed:
        app.installTranslator(translator)
    return installed


def remove(app: QCoreApplication, translators: list[QTranslator]) -> None:
    """Remove translators that ``install`` returned (tests switch languages in one process)."""
    for translator in translators:
        app.removeTranslator(translator)


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:
    """Mark ``text`` for the catalogue under ``context``; translated where it is shown.

    Qt's own marker is typed as returning ``object``; this one keeps ``str``.
    """
    del context
    return text
