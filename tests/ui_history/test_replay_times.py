"""A reopened conversation's tool cards say when each call was decided, not when it was reopened."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from desktop.core.entries import ToolItem
from desktop.core.history import ItemKind, StoredConversation, StoredItem
from desktop.core.history.items import from_legacy
from desktop.ui.conversation.model import TranscriptModel
from desktop.ui.sidebar.replay import replay

REQUESTED_AT = 1_700_000_000.0
DECIDED_AT = REQUESTED_AT + 42


def _conversation(decision: dict[str, object]) -> StoredConversation:
    """A conversation with one tool call, stored as history did before entries (schema 3)."""
    data = {"name": "Bash", "category": "exec", "args": {"command": "ls"}, "decision": decision}
    entry = from_legacy("tool", "", data, seq=0, turn_id=None, created_at=REQUESTED_AT, tools=set())
    tool = StoredItem(
        id=1, seq=0, kind=ItemKind.TOOL, call_id="c1", entry=entry, created_at=REQUESTED_AT
    )
    return StoredConversation(
        id="conv",
        workspace="/w",
        title="t",
        agent="builtin",
        created_at=REQUESTED_AT,
        updated_at=DECIDED_AT,
        items=[tool],
    )


def _decided_at(conversation: StoredConversation) -> float | None:
    transcript = TranscriptModel()
    replay(transcript, conversation)
    (tool,) = [item for item in transcript.items if isinstance(item, ToolItem)]
    assert tool.decision is not None and tool.decision.source == "always_rule"
    return tool.decided_at


def test_replayed_decision_keeps_its_recorded_time(qtbot: QtBot) -> None:
    decision = {"decision": "once", "source": "always_rule", "source_name": "exec"}
    assert _decided_at(_conversation({**decision, "at": DECIDED_AT})) == DECIDED_AT
    # Recorded before decisions carried a time: the request's time, never the time of reopening.
    assert _decided_at(_conversation(decision)) == REQUESTED_AT
