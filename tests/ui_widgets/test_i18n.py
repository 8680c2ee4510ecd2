"""Ready for translation (issue 16): no bare UI strings, a current catalogue, a complete German.

An AST check over every ``.py`` of ``desktop/ui``: a literal with words passed to a Qt text
setter (``setText``, ``setToolTip``, ``QPushButton("…")``…) outside Qt's translation functions
fails, and so does a module helper called with a literal (``lupdate`` would file the string
under the wrong context). Then ``pyside6-lupdate`` runs over the sources
(``packaging/translations.py stale``): every string it finds must be in the catalogue; and the
texts the Settings dialog shows from the (Qt-free, English) settings models must be in the
generated marker list; the German catalogue must have no unfinished entry, and keep every
``{placeholder}`` and the mnemonics (``&``) of its source.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "desktop" / "ui"
GERMAN = UI / "i18n" / "agentdesk_de.ts"

#: Methods whose string arguments are shown to the user (or read by a screen reader).
SETTERS = frozenset(
    [
        "setText",
        "setToolTip",
        "setWindowTitle",
        "setPlaceholderText",
        "setStatusTip",
        "setWhatsThis",
        "setAccessibleName",
        "setAccessibleDescription",
        "setTitle",
        "addAction",
        "addMenu",
        "setLabelText",
        "setHeaderLabels",
        "showMessage",
        "setTabText",
        "addTab",
        "setInformativeText",
        "setDetailedText",
        "setSuffix",
        "setPrefix",
        "setSpecialValueText",
        "addItem",
        "insertItem",
        "setItemText",
        "setTabToolTip",
        "setButtonText",
        "addButton",
        "setWindowIconText",
        # the window's own text setters (each shows its text as it is)
        "_say",
        "show_message",
        "show_working",
        "show_problem",
        "_show_problem",
        "show_hint",
        "show_done",
        "_working",
        "set_run_status",
        "set_outcome",
        "_show_status",
        "mark_cancelled",
        "notify",
    ]
)
#: Widgets and actions whose constructor's string argument is shown.
CONSTRUCTORS = frozenset(
    [
        "QPushButton",
        "QLabel",
        "QAction",
        "QCheckBox",
        "QRadioButton",
        "QGroupBox",
        "QMenu",
        "QToolButton",
        "QCommandLinkButton",
        "QListWidgetItem",
        "text_label",  # desktop.ui.theme: a word-wrapped QLabel
    ]
)
#: Names of module helpers that translate a variable text (never called with a literal).
HELPERS = frozenset({"tr", "_tr", "_t", "_"})
#: Tones the window's setters take beside their text (style names, never shown).
TONES = frozenset({"info", "warning", "error", "success"})
_TAG = re.compile(r"<[^>]*>")
_WORD = re.compile(r"[^\W\d_]{2,}")


def _words(text: str) -> bool:
    """True when ``text`` has a word of two letters or more outside markup (not '⇧N', '<b>')."""
    return bool(_WORD.search(_TAG.sub("", text)))


def _texty(node: ast.expr) -> bool:
    """Whether ``node`` is (or builds) a literal text with words."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value not in TONES and _words(node.value)
    if isinstance(node, ast.JoinedStr):
        return any(_texty(part) for part in node.values if isinstance(part, ast.Constant))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr == "format" and _texty(node.func.value)
    if isinstance(node, ast.BinOp):
        return _texty(node.left) or _texty(node.right)
    if isinstance(node, ast.IfExp):
        return _texty(node.body) or _texty(node.orelse)
    if isinstance(node, (ast.List, ast.Tuple)):
        return any(_texty(element) for element in node.elts)
    return False


def bare_strings(source: str) -> list[tuple[int, str]]:
    """(line, code) of each user-visible literal of ``source`` that is not translated."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        setter = isinstance(func, ast.Attribute) and func.attr in SETTERS
        constructor = isinstance(func, ast.Name) and func.id in CONSTRUCTORS
        helper = isinstance(func, ast.Name) and func.id in HELPERS
        if setter or constructor:
            found += [(node.lineno, ast.unparse(arg)) for arg in node.args if _texty(arg)]
        elif helper and node.args and _texty(node.args[0]):
            found.append((node.lineno, ast.unparse(node)))
    return found


def test_the_check_finds_bare_strings() -> None:
    """The check itself: what it must flag and what it must let through."""
    flagged = bare_strings(
        "b = QPushButton('Send')\n"
        "b.setToolTip(f'Send to {agent}')\n"
        "b.setText('Stop' if busy else self.tr('Send'))\n"
        "b.setAccessibleName('Prompt: {0}'.format(x))\n"
        "label = tr('Hello')\n"
        "self._say('Saving…', 'info')\n"
    )
    assert [line for line, _code in flagged] == [1, 2, 3, 4, 5, 6]
    assert not bare_strings(
        "b = QPushButton(self.tr('Send'))\n"
        "b.setToolTip(QCoreApplication.translate('Composer', 'Send to {0}').format(a))\n"
        "b.setText('⇧N')\n"
        "label = QLabel(f'<b>{title}</b>')\n"
        "label.setText(tr(variable))\n"
        "self._say(self.tr('Saved.'), 'info' if ok else 'error')\n"
    )


def test_no_bare_user_visible_strings_in_desktop_ui() -> None:
    bare = [
        f"{path.relative_to(ROOT)}:{line}: {code}"
        for path in sorted(UI.rglob("*.py"))
        for line, code in bare_strings(path.read_text(encoding="utf-8"))
    ]
    assert bare == [], "user-visible strings outside Qt's translation:\n" + "\n".join(bare)


def test_the_catalogue_has_every_string_of_the_sources() -> None:
    """``lupdate`` over ``desktop/ui`` finds nothing the catalogue lacks (and no string filed
    under an empty context, which a ``tr()`` outside a class would give)."""
    script = ROOT / "packaging" / "translations.py"
    result = subprocess.run(
        [sys.executable, str(script), "stale"], capture_output=True, text=True, cwd=ROOT
    )
    assert result.returncode == 0, (
        "strings missing from the catalogue (run python packaging/translations.py update, "
        f"then translate them):\n{result.stdout}{result.stderr}"
    )
    contexts = [name.text or "" for name in ET.parse(GERMAN).getroot().iter("name")]
    assert "" not in contexts


def test_the_settings_models_texts_are_current() -> None:
    """The generated marker list (``desktop/ui/i18n/settings_texts.py``) has every title,
    description and kind summary the Settings dialog shows from the models as they are now."""
    spec = importlib.util.spec_from_file_location(
        "translations", ROOT / "packaging" / "translations.py"
    )
    assert spec is not None and spec.loader is not None
    translations = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(translations)
    current = (UI / "i18n" / "settings_texts.py").read_text(encoding="utf-8")
    assert current == translations.model_texts_source(), (
        "run python packaging/translations.py update, then translate the new texts"
    )


def _messages() -> list[ET.Element]:
    return list(ET.parse(GERMAN).getroot().iter("message"))


_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


@pytest.mark.parametrize("check", ["finished", "placeholders", "mnemonics"])
def test_the_german_translation_is_complete(check: str) -> None:
    problems = []
    messages = _messages()
    assert len(messages) > 300
    for message in messages:
        source = message.findtext("source") or ""
        translation = message.find("translation")
        assert translation is not None
        forms = [form.text or "" for form in translation.iter("numerusform")] or [
            translation.text or ""
        ]
        for text in forms:
            if check == "finished" and (translation.get("type") or not text.strip()):
                problems.append(source)
            if check == "placeholders" and sorted(_PLACEHOLDER.findall(source)) != sorted(
                _PLACEHOLDER.findall(text)
            ):
                problems.append(f"{source} → {text}")
            if check == "mnemonics" and (
                text.replace("&&", "").count("&") != source.replace("&&", "").count("&")
            ):
                problems.append(f"{source} → {text}")
    assert problems == []
