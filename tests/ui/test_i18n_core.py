"""The core's sentences in the window's language (issue 16): marked in the Qt-free core, found
by ``lupdate``, translated where the window shows them, English everywhere else.

The core marks each sentence with ``desktop.core.texts.QT_TRANSLATE_NOOP`` and sends it with its
English message (``i18n`` on ``ErrorEvent``, ``Notice``, ``TurnEnded``, ``ToolDecided``,
``ToolCancelled``; ``text`` on the keyring's status and errors). A scan of ``desktop/core``
checks that every marker is a call ``lupdate`` reads (two literals) in a module
``packaging/translations.py`` reads, and that the German catalogue translates it with the same
``{fields}``. Then real windows under the German catalogue:
an agent that cannot start and one that exits mid-turn read German, with the agent's own stderr
as it was; a card denied by the user's stop gives its reason in German; the events' JSON
(``agentdesk exec --json``), what the agent is told and the stored entries stay English.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

from PySide6.QtCore import QTranslator

from desktop.core import session_texts
from desktop.core.entries import MessageItem, ToolStatus
from desktop.core.events import (
    Decision,
    DecisionSource,
    ErrorEvent,
    SessionState,
    ToolDecided,
    parse_event,
)
from desktop.core.texts import QT_TRANSLATE_NOOP, CoreText
from desktop.ui.approvals.summary import describe_decision
from desktop.ui.conversation.items import MessageRow
from desktop.ui.conversation.tool_card import ToolCard
from desktop.ui.i18n.core_text import shown, translated
from desktop.ui.pane import ConversationPane
from tests.ui.conftest import Driver
from tests.ui.test_i18n_window import german  # noqa: F401 - the German catalogue fixture
from tests.waiting import until

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "desktop" / "core"
GERMAN = ROOT / "desktop" / "ui" / "i18n" / "agentdesk_de.ts"
_FIELD = re.compile(r"\{[^{}]*\}")


def _translations() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "translations", ROOT / "packaging" / "translations.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def core_markers() -> dict[tuple[str, str], str]:
    """(context, source) → where, of every ``QT_TRANSLATE_NOOP`` call in ``desktop/core``;
    a call ``lupdate`` would not read (not two literals) fails here."""
    found: dict[tuple[str, str], str] = {}
    for path in sorted(CORE.rglob("*.py")):
        if path.name == "texts.py":
            continue  # the marker's definition
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id != "QT_TRANSLATE_NOOP":
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            literal = [isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args]
            assert literal == [True, True] and not node.keywords, (
                f"{where}: lupdate reads only QT_TRANSLATE_NOOP(<literal>, <literal>)"
            )
            context, source = (a.value for a in node.args if isinstance(a, ast.Constant))
            found[(context, source)] = where
    return found


def test_every_core_sentence_is_in_the_catalogue_in_german() -> None:
    markers = core_markers()
    assert len(markers) >= 25  # start, hang, exit, keyring, resume, approval sentences
    read = {str(p.relative_to(ROOT)) for p in _translations().core_sources()}
    unread = sorted({where.split(":")[0] for where in markers.values()} - read)
    assert unread == [], "packaging/translations.py does not read these modules"
    catalogue: dict[tuple[str, str], ET.Element] = {}
    for context in ET.parse(GERMAN).getroot().iter("context"):
        for message in context.iter("message"):
            catalogue[(context.findtext("name") or "", message.findtext("source") or "")] = message
    problems = []
    for (context, source), where in sorted(markers.items()):
        message = catalogue.get((context, source))
        translation = None if message is None else message.find("translation")
        if translation is None or translation.get("type") or not (translation.text or ""):
            problems.append(f"{where}: {context}: {source!r} has no German")
        elif sorted(_FIELD.findall(source)) != sorted(_FIELD.findall(translation.text or "")):
            problems.append(f"{where}: {source!r} → {translation.text!r} (fields differ)")
    assert problems == [], "run python packaging/translations.py update and translate:\n" + (
        "\n".join(problems)
    )


def test_core_texts_stay_english_outside_the_window() -> None:
    what = QT_TRANSLATE_NOOP("Session", "exit code {code}").with_args(code=3)
    text = QT_TRANSLATE_NOOP("Session", "The agent exited during the turn ({what}).")
    text = text.with_args(what=what)
    assert text.english == "The agent exited during the turn (exit code 3)."
    event = ErrorEvent(code="agent_hung", message=text.english, i18n=text)
    line = event.model_dump_json(exclude_none=True)  # as ``agentdesk exec --json`` prints it
    assert "i18n" not in line and "exit code 3" in line
    assert parse_event(line).i18n is None
    # A stored entry keeps its text for a window reopening it, and only when it has one.
    stored = MessageItem(type="error", level="error", text=text.english, i18n=text)
    assert MessageItem.model_validate_json(stored.model_dump_json()) == stored
    assert "i18n" not in MessageItem(text="plain").model_dump_json()


def test_translated_fills_user_data_as_is(german: list[QTranslator]) -> None:  # noqa: F811
    code = QT_TRANSLATE_NOOP("Session", "exit code {code}").with_args(code="{1}")
    text = QT_TRANSLATE_NOOP("Session", "The agent exited during the turn ({what}).")
    assert translated(text.with_args(what=code)) == (
        "Der Agent wurde während des Durchgangs beendet (Exit-Code {1})."
    )
    unknown = CoreText(context="Session", source="Not in the catalogue: {x}").with_args(x="y")
    assert translated(unknown) == "Not in the catalogue: y"
    assert shown("The agent said so.", None) == "The agent said so."


def _rows(pane: ConversationPane) -> list[str]:
    return [w.text() for w in pane.view.widgets.values() if isinstance(w, MessageRow)]


def test_an_agent_that_cannot_start_reads_german(
    german: list[QTranslator],  # noqa: F811
    driver: Driver,
) -> None:
    async def body() -> None:
        context = await driver.acontext({"startup": {"exit": 1, "stderr": "Error: boom"}})
        window = context.open_workspace(driver.workspace())
        pane = window.current
        assert pane is not None
        pane.submit("hallo", [])  # the agent starts with the first prompt
        await until(lambda: pane.session.state == SessionState.EXITED, 30, "start failure")
        await until(lambda: len(_rows(pane)) >= 2, 30, "the error and the failed turn")
        rows = "\n".join(_rows(pane))
        assert "wurde mit Code 1 beendet, bevor er bereit war" in rows
        assert "Error: boom" in rows  # the agent's own words, as they were
        assert "Der Agent konnte nicht starten:" in rows
        assert "before it was ready" not in rows
        english = [i.text for i in pane.transcript.items if isinstance(i, MessageItem)]
        assert any("before it was ready" in text for text in english)  # history: English

    driver.run(body(), 90)


def test_an_agent_that_exits_mid_turn_reads_german(
    german: list[QTranslator],  # noqa: F811
    driver: Driver,
) -> None:
    async def body() -> None:
        crash = {"prompts": {"crash please": [{"text": "vorher"}, {"crash": 3, "stderr": "!"}]}}
        context = await driver.acontext(crash)
        window = context.open_workspace(driver.workspace())
        pane = window.current
        assert pane is not None
        pane.submit("crash please", [])
        await until(lambda: pane.session.state == SessionState.EXITED, 30, "the crash")
        wanted = (
            "Der Agent wurde während des Durchgangs beendet (Exit-Code 3).",
            "Der Agent wurde unerwartet beendet; die nächste Eingabe startet ihn neu.",
        )
        await until(
            lambda: all(any(w in row for row in _rows(pane)) for w in wanted),
            30,
            "the German rows",
        )

    driver.run(body(), 90)


def test_a_card_stopped_by_the_user_reads_german(
    german: list[QTranslator],  # noqa: F811
    driver: Driver,
) -> None:
    """The host's reason on a decided card is translated; the agent and the record get it in
    English (``ToolDecided.reason``), and its ``i18n`` never reaches the JSON."""

    async def body() -> None:
        write = {"tool": {"name": "Write", "args": {"file_path": "w.txt", "content": "w"}}}
        context = await driver.acontext({"turns": [[write, {"text": "written"}]]})
        window = context.open_workspace(driver.workspace())
        pane = window.current
        assert pane is not None
        pane.submit("schreib", [])
        await until(lambda: _waiting_cards(pane), 30, "the approval card")
        card = _waiting_cards(pane)[0]
        pane.stop()
        await until(lambda: card.item.decision is not None, 30, "the card decided")
        decision = card.item.decision
        assert decision is not None and decision.reason == "Stopped by the user"
        assert "i18n" not in decision.model_dump_json()
        assert card.approval is not None
        await until(
            lambda: "Von dir angehalten" in card.approval.accessibleDescription(),  # type: ignore[union-attr]
            30,
            "the German reason on the card",
        )
        assert "Stopped by the user" not in card.approval.accessibleDescription()

    driver.run(body(), 90)


def test_a_withdrawn_call_reads_german(german: list[QTranslator]) -> None:  # noqa: F811
    text = session_texts.turn_ended()
    decided = ToolDecided(
        call_id="c", decision=Decision.DENY, source=DecisionSource.SHUTDOWN,
        reason=text.english, i18n=text,
    )  # fmt: skip
    assert describe_decision(decided, "edit") == "Nicht ausgeführt: Der Durchgang ist beendet"
    by_agent = decided.model_copy(update={"source": DecisionSource.POLICY, "i18n": None})
    assert describe_decision(by_agent, "edit").endswith(": The turn ended")  # no text: as it is


def _waiting_cards(pane: ConversationPane) -> list[ToolCard]:
    return [
        w
        for w in pane.view.widgets.values()
        if isinstance(w, ToolCard) and w.item.status == ToolStatus.WAITING
    ]
