"""A scripted stand-in for ``codex app-server`` (JSON lines on stdio, no ``jsonrpc`` field).

Answers initialize/thread start/resume; on ``turn/start`` it streams an agent message, asks a
command approval (v2), a legacy ``applyPatchApproval`` and an unknown server request, and
completes the turn with token usage. Every line it receives is logged to ``$FAKE_PEER_LOG``.
``turn/interrupt`` while an approval is pending completes the turn as ``interrupted`` and then
sends ``serverRequest/resolved`` (as the real one does), unless ``$FAKE_PEER_IGNORE_INTERRUPT``
is set (a hung peer: the request is never answered). ``$FAKE_PEER_SHOW_ENV=A,B`` first logs its
arguments and those variables. ``$FAKE_PEER_MCP_APPROVAL`` makes a turn ask about an MCP
tool call (``mcpServer/elicitation/request``) and end once it is answered. ``model/list``
offers ``fake`` and ``fake-mini``; ``$FAKE_PEER_PLAN`` sends ``turn/plan/updated`` in a turn.
"""

from __future__ import annotations

import json
import os
import sys

LOG = os.environ.get("FAKE_PEER_LOG")


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def log(message: dict) -> None:
    if LOG:
        with open(LOG, "a") as f:
            f.write(json.dumps(message) + "\n")


def note(method: str, **params: object) -> None:
    send({"method": method, "params": {"threadId": "thr_1", "turnId": "turn_1", **params}})


#: How Codex asks about an MCP server's tool call (``default_tools_approval_mode = "prompt"``).
MCP_APPROVAL = {
    "threadId": "thr_1",
    "turnId": "turn_1",
    "serverName": "everything",
    "mode": "form",
    "_meta": {
        "codex_approval_kind": "mcp_tool_call",
        "tool_name": "echo",
        "tool_params": {"message": "hi"},
    },
    "message": 'Allow the everything MCP server to run tool "echo"?',
    "requestedSchema": {"type": "object", "properties": {}},
}


def main() -> None:
    pending: dict[int, str] = {}
    names = [n for n in os.environ.get("FAKE_PEER_SHOW_ENV", "").split(",") if n]
    if names:  # how it was started: its arguments and the named variables
        log({"argv": sys.argv[1:], "env": {n: os.environ.get(n) for n in names}})
    for line in sys.stdin:
        msg = json.loads(line)
        log(msg)
        method = msg.get("method")
        if method == "initialize":
            send({"id": msg["id"], "result": {"userAgent": "agent-desk/9.9.9 (fake)"}})
        elif method in ("thread/start", "thread/resume"):
            thread = msg["params"].get("threadId", "thr_1")
            send({"id": msg["id"], "result": {"thread": {"id": thread}, "model": "fake"}})
        elif method == "model/list":
            models = [
                {"id": "fake", "model": "fake", "displayName": "Fake", "description": "default"},
                {"id": "fake-mini", "model": "fake-mini", "displayName": "Fake Mini"},
            ]
            send({"id": msg["id"], "result": {"data": models, "nextCursor": None}})
        elif method == "turn/start" and os.environ.get("FAKE_PEER_MCP_APPROVAL"):
            send({"id": msg["id"], "result": {"turn": {"id": "turn_1", "status": "inProgress"}}})
            note("turn/started", turn={"id": "turn_1"})
            send({"id": 5, "method": "mcpServer/elicitation/request", "params": MCP_APPROVAL})
            pending[5] = "mcp"
        elif method == "turn/start":
            send({"id": msg["id"], "result": {"turn": {"id": "turn_1", "status": "inProgress"}}})
            note("turn/started", turn={"id": "turn_1"})
            note("item/agentMessage/delta", itemId="m1", delta="Working.")
            if os.environ.get("FAKE_PEER_PLAN"):
                steps = [
                    {"step": "look", "status": "completed"},
                    {"step": "fix", "status": "inProgress"},
                ]
                note("turn/plan/updated", explanation="two steps", plan=steps)
            note("item/reasoning/summaryTextDelta", itemId="r1", delta="hmm")
            note(
                "thread/status/changed",
                status={"type": "active", "activeFlags": ["waitingOnApproval"]},
            )
            item = {
                "type": "commandExecution",
                "id": "call_1",
                "command": "ls -la",
                "cwd": os.getcwd(),
                "status": "inProgress",
            }
            note("item/started", item=item)
            send(
                {
                    "id": 0,
                    "method": "item/commandExecution/requestApproval",
                    "params": {
                        "threadId": "thr_1",
                        "turnId": "turn_1",
                        "itemId": "call_1",
                        "command": "ls -la",
                        "cwd": os.getcwd(),
                        "reason": "list",
                    },
                }
            )
            pending[0] = "exec"
        elif "id" in msg and "method" not in msg:
            kind = pending.pop(msg["id"], None)
            if kind == "mcp":
                note("turn/completed", turn={"id": "turn_1", "status": "completed"})
            elif kind == "exec":
                note("serverRequest/resolved", requestId=0)
                note("thread/status/changed", status={"type": "active", "activeFlags": []})
                note("item/commandExecution/outputDelta", itemId="call_1", delta="file.txt\n")
                done = {
                    "type": "commandExecution",
                    "id": "call_1",
                    "command": "ls -la",
                    "status": "completed" if msg["result"]["decision"] == "accept" else "declined",
                    "exitCode": 0,
                    "aggregatedOutput": "file.txt\n",
                }
                note("item/completed", item=done)
                send(
                    {
                        "id": 1,
                        "method": "applyPatchApproval",
                        "params": {
                            "conversationId": "thr_1",
                            "callId": "patch_1",
                            "fileChanges": {"new.txt": {"type": "add", "content": "hello\n"}},
                        },
                    }
                )
                pending[1] = "patch"
            elif kind == "patch":
                send({"id": 2, "method": "item/tool/call", "params": {"threadId": "thr_1"}})
                pending[2] = "unknown"
            elif kind == "unknown":
                usage = {
                    "inputTokens": 30,
                    "cachedInputTokens": 10,
                    "outputTokens": 7,
                    "reasoningOutputTokens": 0,
                    "totalTokens": 37,
                }
                note("thread/tokenUsage/updated", tokenUsage={"total": usage, "last": usage})
                note("turn/completed", turn={"id": "turn_1", "status": "completed"})
        elif method == "turn/interrupt":
            if os.environ.get("FAKE_PEER_IGNORE_INTERRUPT"):
                continue  # a hung app-server: never answers, never ends the turn
            send({"id": msg["id"], "result": {}})
            note("turn/completed", turn={"id": "turn_1", "status": "interrupted"})
            for request_id in list(pending):
                note("serverRequest/resolved", requestId=request_id)
            pending.clear()


if __name__ == "__main__":
    main()
