"""A scripted ACP agent on stdio (JSON-RPC 2.0 lines) for adapter tests.

On ``session/prompt`` it streams a message and a thought chunk, announces an edit tool call with
diff content, asks ``session/request_permission`` (options allow, always, reject, reject always),
then asks the client to write ``written.txt`` and to read ``/etc/hostname`` (outside the
workspace), sends a plan, and ends the turn with usage. Every line it receives goes to
``$FAKE_PEER_LOG``. ``FAKE_PEER_MCP_HTTP=1`` advertises ``mcpCapabilities.http``.
``FAKE_PEER_PROMPT_CAPS`` (JSON) is its ``promptCapabilities``; ``FAKE_PEER_COMMANDS`` (JSON, a
list) its ``availableCommands``, sent after ``session/new``; ``FAKE_PEER_SIMPLE=1`` answers a
prompt with one message chunk and ``end_turn``.
"""

from __future__ import annotations

import json
import os
import sys

LOG = os.environ.get("FAKE_PEER_LOG")
OPTIONS = [
    {"optionId": "yes", "name": "Allow", "kind": "allow_once"},
    {"optionId": "yes-always", "name": "Always", "kind": "allow_always"},
    {"optionId": "no", "name": "Reject", "kind": "reject_once"},
    {"optionId": "no-always", "name": "Reject always", "kind": "reject_always"},
]


def send(message: dict) -> None:
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
    sys.stdout.flush()


def update(session: str, body: dict) -> None:
    send({"method": "session/update", "params": {"sessionId": session, "update": body}})


MODELS = {"fake-large": "Fake Large", "fake-small": "Fake Small"}


def model_option(current: str) -> dict:
    options = [{"value": v, "name": n} for v, n in MODELS.items()]
    return {"id": "model", "name": "Model", "category": "model", "type": "select",
            "currentValue": current, "options": options}  # fmt: skip


def choices() -> dict:
    if os.environ.get("FAKE_PEER_CHOICES") == "unstable":  # claude-agent-acp's models field
        models = [{"modelId": v, "name": n} for v, n in MODELS.items()]
        return {"models": {"currentModelId": "fake-large", "availableModels": models}}
    if os.environ.get("FAKE_PEER_CHOICES") != "1":
        return {}
    modes = [{"id": "ask", "name": "Ask"}, {"id": "code", "name": "Code"}]
    return {"modes": {"currentModeId": "ask", "availableModes": modes},
            "configOptions": [model_option("fake-large")]}  # fmt: skip


def terminal(sid: str, command: str) -> None:
    limit = int(os.environ.get("FAKE_PEER_TERMINAL_LIMIT", "0")) or None
    params = {"sessionId": sid, "command": "sh", "args": ["-c", command]}
    send({"id": 110, "method": "terminal/create", "params": {**params, "outputByteLimit": limit}})
    created = read()
    if "result" not in created:
        return
    tid = {"sessionId": sid, "terminalId": created["result"]["terminalId"]}
    for number, method in enumerate(("wait_for_exit", "output", "release"), 111):
        send({"id": number, "method": f"terminal/{method}", "params": tid})
        read()


def read() -> dict:
    message = json.loads(sys.stdin.readline())
    if LOG:
        with open(LOG, "a") as f:
            f.write(json.dumps(message) + "\n")
    return message


def main() -> None:
    cwd = os.getcwd()
    while True:
        try:
            msg = read()
        except (json.JSONDecodeError, ValueError):
            return
        method = msg.get("method")
        if method == "initialize":
            result = {
                "protocolVersion": 1,
                "agentCapabilities": {
                    "loadSession": True,
                    "mcpCapabilities": {"http": os.environ.get("FAKE_PEER_MCP_HTTP") == "1"},
                    "promptCapabilities": json.loads(
                        os.environ.get("FAKE_PEER_PROMPT_CAPS") or "{}"
                    ),
                },
                "agentInfo": {"name": "fake", "version": "1.2.3"},
            }
            send({"id": msg["id"], "result": result})
        elif method in ("session/new", "session/load"):
            sid = msg["params"].get("sessionId", "s1")
            if method == "session/load":
                update(
                    sid,
                    {
                        "sessionUpdate": "agent_message_chunk",
                        "content": {"type": "text", "text": "REPLAYED"},
                    },
                )
            result = {"sessionId": sid} if method == "session/new" else {}
            send({"id": msg["id"], "result": {**result, **choices()}})
            commands = os.environ.get("FAKE_PEER_COMMANDS")
            if commands:
                body = {"sessionUpdate": "available_commands_update"}
                update(sid, {**body, "availableCommands": json.loads(commands)})
        elif method in ("session/set_model", "session/set_mode"):
            send({"id": msg["id"], "result": {}})
        elif method == "session/set_config_option":
            option = model_option(msg["params"]["value"])
            send({"id": msg["id"], "result": {"configOptions": [option]}})
        elif method == "session/prompt" and os.environ.get("FAKE_PEER_SIMPLE") == "1":
            chunk = {"type": "text", "text": "Seen."}
            sid = msg["params"]["sessionId"]
            update(sid, {"sessionUpdate": "agent_message_chunk", "content": chunk})
            send({"id": msg["id"], "result": {"stopReason": "end_turn"}})
        elif method == "session/prompt":
            sid = msg["params"]["sessionId"]
            update(
                sid,
                {
                    "sessionUpdate": "agent_message_chunk",
                    "content": {"type": "text", "text": "Hello."},
                },
            )
            update(
                sid,
                {
                    "sessionUpdate": "agent_thought_chunk",
                    "content": {"type": "text", "text": "pondering"},
                },
            )
            if os.environ.get("FAKE_PEER_PLAN") == "1":
                steps = [("read", "completed"), ("edit", "in_progress"), ("test", "pending")]
                entries = [{"content": c, "priority": "medium", "status": st} for c, st in steps]
                update(sid, {"sessionUpdate": "plan", "entries": entries})
            diff = {"type": "diff", "path": os.path.join(cwd, "a.txt"), "newText": "one\n"}
            update(
                sid,
                {
                    "sessionUpdate": "tool_call",
                    "toolCallId": "t1",
                    "title": "Write a.txt",
                    "kind": "edit",
                    "status": "pending",
                    "content": [diff],
                },
            )
            send(
                {
                    "id": 100,
                    "method": "session/request_permission",
                    "params": {
                        "sessionId": sid,
                        "options": OPTIONS,
                        "toolCall": {
                            "toolCallId": "t1",
                            "title": "Write a.txt",
                            "kind": "edit",
                            "content": [diff],
                        },
                    },
                }
            )
            answer = read()
            outcome = answer["result"]["outcome"]
            status = "completed" if outcome.get("optionId", "").startswith("yes") else "failed"
            update(
                sid,
                {
                    "sessionUpdate": "tool_call_update",
                    "toolCallId": "t1",
                    "status": status,
                    "rawOutput": "done",
                },
            )
            send(
                {
                    "id": 101,
                    "method": "fs/write_text_file",
                    "params": {
                        "sessionId": sid,
                        "path": os.path.join(cwd, "written.txt"),
                        "content": "via fs\n",
                    },
                }
            )
            read()
            send(
                {
                    "id": 102,
                    "method": "fs/read_text_file",
                    "params": {"sessionId": sid, "path": "/etc/hostname"},
                }
            )
            read()
            if os.environ.get("FAKE_PEER_TERMINAL"):
                terminal(sid, os.environ["FAKE_PEER_TERMINAL"])
            update(
                sid,
                {
                    "sessionUpdate": "plan",
                    "entries": [{"content": "step one", "priority": "high", "status": "completed"}],
                },
            )
            usage = {"inputTokens": 11, "outputTokens": 4, "totalTokens": 15}
            send({"id": msg["id"], "result": {"stopReason": "end_turn", "usage": usage}})


if __name__ == "__main__":
    main()
