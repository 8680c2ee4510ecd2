"""A scripted fake agent speaking the aionrs JSON Stream Protocol over stdin/stdout.

Two behaviour profiles:

- ``spec``: protocol 0.1.0 exactly as written (``shared/seeds/003_…``): ``message.input``,
  ``protocol_error`` for bad commands (also for ``ping``, which 0.1.0 does not define), parallel
  ``tool_request``s, ``scope: "always"`` honoured, ``stop`` answered with ``stream_end``, per-turn
  usage, ``init_history`` remembered.
- ``aionrs-0.2``: every quirk of the real aionrs 0.2.x
  (``shared/reference/aionrs-real-behaviour.md``): ``content`` only, bad lines silently dropped,
  ``engine_error`` without ``msg_id``, ``info`` with
  ``msg_id: ""``, one ``tool_request`` at a time, scope ignored, ``stop`` quits without
  ``stream_end`` (once another line or EOF arrives), cumulative usage, ``ExecCommand``, ``ping`` →
  ``pong``, ``config_changed``, slash commands, EOF with a pending request never exits,
  ``--workspace`` is a usage error (exit 2), ``--resume nope`` exits 1.

Usage::

    python tests/fakes/fake_aionrs.py --json-stream --profile aionrs-0.2 --scenario S.json

The scenario (a JSON file, or the ``FAKE_AGENT_SCENARIO`` environment variable holding a path)::

    {
      "startup": {"exit": 1, "stderr": "Error: boom", "delay": 0.0, "silent": false},
      "require_env": "ANTHROPIC_API_KEY",      # exit 1 "Error: No API key found" when unset
      "no_pong": false,                          # (aionrs-0.2) ignore ping
      "stop_reading": false,                     # never read stdin after ready (a full pipe)
      "no_session": false,                       # ready without session_id (C6)
      "mcp": false,                              # ready says mcp: true; add_mcp_server is
                                                 # answered with mcp_ready (tools "<name>_tool")
      "mcp_log": "PATH",                         # append each add_mcp_server command (JSON)
      "mcp_fail": {"name": "why"},               # answer that server with an mcp_error instead
      "image_input": "unknown",                  # (aionrs-0.2) ready.capabilities.image_input
      "message_log": "PATH",                     # append each message command (JSON)
      "models": ["a", "b"],                      # (aionrs-0.2) current_model (--model or the
                                                 # first) and available_models in capabilities;
                                                 # set_config {model} switches (config_log: PATH)
      "prompts": {"exact prompt text": [step, ...]},
      "turns": [[step, ...], ...]                # used in order for other prompts; then echo
    }

Steps (each a JSON object):

- ``{"text": "Hi", "chunks": 1}`` text_delta(s); ``{"thinking": "..."}``
- ``{"tool": {"name": "Write", "args": {...}, "category": "edit"}}`` request (or auto-run) and
  really run it: Write/Edit/Read touch files relative to the cwd, Bash/ExecCommand run a shell
  command in their own process group (killed on stop); ``{"tools": [tool, ...]}`` several at once
- ``{"sleep": 0.5}``, ``{"sleep": 0.5, "ignore_stop": true}`` (the turn then ends normally
  although a stop arrived: with aionrs-0.2 the process still quits at its next input line),
  ``{"hang": true}`` (never finishes, ignores stop)
- ``{"error": {"code": "provider_error", "message": "...", "retryable": false}}``
- ``{"info": "..."}``, ``{"raw": "not json"}``, ``{"raw_hex": "ff00"}``, ``{"oversize": 20000000}``
- ``{"flood": 200000, "text": "x"}`` many text_delta events as fast as possible
- ``{"crash": 3, "stderr": "panic!"}`` write to stderr and exit with that code at once
- ``{"event": {...}}`` write any event object as is (unknown types, unknown call ids, ...)
- ``{"usage": {"input_tokens": 10, "output_tokens": 5}}`` usage for this turn's stream_end
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

SPEC = "spec"
REAL = "aionrs-0.2"
_CATEGORY = {
    "Read": "info",
    "Glob": "info",
    "Grep": "info",
    "Write": "edit",
    "Edit": "edit",
    "Bash": "exec",
    "ExecCommand": "exec",
}
_MODE_CATEGORIES = {
    "default": set(),
    "auto_edit": {"info", "edit"},
    "yolo": {"info", "edit", "exec", "mcp"},
}


class Stopped(Exception):
    """The host asked to stop the turn."""


class FakeAgent:
    def __init__(
        self,
        profile: str,
        scenario: dict[str, Any],
        session_id: str | None,
        state_dir: Path,
        usage_total: dict[str, int],
    ) -> None:
        self.profile = profile
        self.scenario = scenario
        self.session_id = session_id
        self.state_dir = state_dir
        self.out = sys.stdout.buffer
        self.lock = threading.Lock()
        self.messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.decisions: dict[str, dict[str, Any]] = {}
        self.cond = threading.Condition()
        self.busy = False
        self.stop_requested = False
        self.quit_on_next_line = False
        self.eof = False
        self.mode = "default"
        self.model: str | None = None
        self.always: set[str] = set()
        self.history: list[str] = []
        self.turn_index = 0
        self.usage_total = usage_total
        self.pending: set[str] = set()
        self.children: list[subprocess.Popen[bytes]] = []

    # ------------------------------------------------------------------ output
    def emit(self, event: dict[str, Any]) -> None:
        data = (json.dumps(event, separators=(",", ":")) + "\n").encode()
        with self.lock:
            self.out.write(data)
            self.out.flush()

    def raw(self, data: bytes) -> None:
        with self.lock:
            self.out.write(data + b"\n")
            self.out.flush()

    def info(self, message: str, msg_id: str) -> None:
        self.emit(
            {"type": "info", "msg_id": "" if self.profile == REAL else msg_id, "message": message}
        )

    def error(self, code: str, message: str, retryable: bool, msg_id: str | None) -> None:
        if self.profile == REAL:
            self.emit(
                {
                    "type": "error",
                    "error": {"code": "engine_error", "message": message, "retryable": False},
                }
            )
        else:
            self.emit(
                {
                    "type": "error",
                    "msg_id": msg_id,
                    "error": {"code": code, "message": message, "retryable": retryable},
                }
            )

    def capabilities(self) -> dict[str, Any]:
        if self.profile == SPEC:
            return {"tool_approval": True, "thinking": True, "mcp": bool(self.scenario.get("mcp"))}
        models = self.scenario.get("models")
        chosen = {"current_model": self.model, "available_models": models} if models else {}
        return {
            **chosen,
            "tool_approval": True,
            "image_input": self.scenario.get("image_input", "unknown"),
            "thinking": True,
            "effort": False,
            "effort_levels": [],
            "modes": ["default", "auto_edit", "yolo"],
            "current_mode": self.mode,
            "mcp": bool(self.scenario.get("mcp")),
        }

    # ------------------------------------------------------------------ input
    def reader(self) -> None:
        while self.scenario.get("stop_reading"):  # hung: the host's writes fill the pipe
            time.sleep(3600)
        for raw in sys.stdin.buffer:
            if self.quit_on_next_line:
                os._exit(0)
            try:
                line = raw.decode("utf-8").strip()
            except UnicodeDecodeError:
                if self.profile == REAL:
                    break  # the real reader stops for good
                self.error("protocol_error", "Invalid UTF-8", False, None)
                continue
            if not line:
                continue
            self.handle(line)
        self.on_eof()

    def bad(self, message: str) -> None:
        if self.profile == SPEC:
            self.error("protocol_error", message, False, None)

    def handle(self, line: str) -> None:
        try:
            cmd = json.loads(line)
        except ValueError:
            self.bad(f"Malformed JSON: {line[:40]}")
            return
        if not isinstance(cmd, dict):
            self.bad("Command must be an object")
            return
        kind = cmd.get("type")
        if kind == "message":
            text = (
                cmd.get("content") if self.profile == REAL else cmd.get("input", cmd.get("content"))
            )
            if not isinstance(cmd.get("msg_id"), str) or not isinstance(text, str):
                self.bad("message needs msg_id and input")
                return
            if "files" in cmd and not isinstance(cmd["files"], list):
                self.bad("files must be a list")
                return
            if self.scenario.get("message_log"):
                with open(self.scenario["message_log"], "a") as f:
                    f.write(json.dumps(cmd) + "\n")
            if self.busy and self.profile == REAL:
                return  # dropped mid-turn
            self.messages.put(
                {"msg_id": cmd["msg_id"], "text": text, "files": cmd.get("files") or []}
            )
        elif kind == "stop":
            with self.cond:
                self.stop_requested = True
                self.cond.notify_all()
            if self.profile == REAL:
                self.quit_on_next_line = True
                if not self.busy:
                    pass  # idle stop = quit once another line or EOF arrives
        elif kind in ("tool_approve", "tool_deny"):
            scope = cmd.get("scope", "once")
            reason = cmd.get("reason", "")
            if (
                not isinstance(cmd.get("call_id"), str)
                or scope not in ("once", "always")
                or (not isinstance(reason, str))
            ):
                self.bad(f"bad {kind}")
                return
            with self.cond:
                if cmd["call_id"] in self.pending:
                    self.decisions[cmd["call_id"]] = cmd
                    self.cond.notify_all()
        elif kind == "init_history":
            if self.profile == SPEC and isinstance(cmd.get("text"), str):
                self.history.append(cmd["text"])
        elif kind == "set_mode":
            mode = cmd.get("mode")
            if mode not in _MODE_CATEGORIES:
                self.bad(f"Unknown mode: {mode}")
                return
            self.mode = mode
            if self.profile == REAL:
                self.info(f"mode updated: {mode}", "")
                if not self.busy:
                    self.emit({"type": "config_changed", "capabilities": self.capabilities()})
        elif kind == "set_config" and self.profile == REAL and self.scenario.get("models"):
            if self.scenario.get("config_log"):
                with open(self.scenario["config_log"], "a") as log:
                    log.write(json.dumps(cmd) + "\n")
            self.model = cmd.get("model") or self.model
            if not self.busy:
                self.emit({"type": "config_changed", "capabilities": self.capabilities()})
        elif kind == "add_mcp_server" and self.scenario.get("mcp"):
            self.add_mcp_server(cmd)
        elif kind == "ping" and self.profile == REAL:
            if not self.scenario.get("no_pong"):
                self.emit({"type": "pong"})
        else:
            self.bad(f"Unknown command type: {kind}")

    def add_mcp_server(self, cmd: dict[str, Any]) -> None:
        if self.scenario.get("mcp_log"):
            with Path(self.scenario["mcp_log"]).open("a", encoding="utf-8") as log:
                log.write(json.dumps(cmd) + "\n")
        name = str(cmd.get("name"))
        why = (self.scenario.get("mcp_fail") or {}).get(name)
        if why:
            error = {"code": "mcp_error", "message": why, "retryable": False}
            self.emit({"type": "error", "error": error})
        else:
            self.emit({"type": "mcp_ready", "name": name, "tools": [f"{name}_tool"]})

    def on_eof(self) -> None:
        self.eof = True
        if self.quit_on_next_line:
            os._exit(0)
        if self.pending and self.profile == REAL:
            while True:  # C39: a pending tool_request blocks EOF forever
                time.sleep(3600)
        self.messages.put(None)
        with self.cond:
            self.cond.notify_all()

    # ------------------------------------------------------------------ turns
    def steps_for(self, text: str) -> list[dict[str, Any]]:
        prompts = self.scenario.get("prompts", {})
        if text in prompts:
            return list(prompts[text])
        turns = self.scenario.get("turns", [])
        if self.turn_index < len(turns):
            self.turn_index += 1
            return list(turns[self.turn_index - 1])
        if text == "what is history?":
            return [{"text": " | ".join(self.history) or "(none)"}]
        return [{"text": f"You said: {text}"}]

    def check_stop(self) -> None:
        if self.stop_requested:
            raise Stopped

    def run(self) -> None:
        while True:
            message = self.messages.get()
            if message is None:
                return
            self.stop_requested = False
            msg_id = message["msg_id"]
            if self.profile == REAL and message["text"].startswith("/clear"):
                self.info("Conversation cleared", "")
                self.emit(
                    {
                        "type": "stream_end",
                        "msg_id": msg_id,
                        "usage": {"input_tokens": 0, "output_tokens": 0},
                    }
                )
                continue
            self.busy = True
            usage = {"input_tokens": 10, "output_tokens": 5}
            failed = False
            self.emit({"type": "stream_start", "msg_id": msg_id})
            try:
                for step in self.steps_for(message["text"]):
                    self.check_stop()
                    result = self.step(step, msg_id)
                    if result == "failed":
                        failed = True
                        break
                    if isinstance(result, dict):
                        usage = result
                self.check_stop()
            except Stopped:
                self.kill_children()
                if self.profile == REAL:
                    # No stream_end; the process quits once another line or EOF arrives.
                    self.busy = False
                    while True:
                        time.sleep(3600)
            self.busy = False
            self.end_turn(msg_id, usage, failed)
            if self.eof:
                return

    def end_turn(self, msg_id: str, usage: dict[str, int], failed: bool) -> None:
        if self.profile == REAL:
            if failed:
                usage = {"input_tokens": 0, "output_tokens": 0}
            else:
                for key, value in usage.items():
                    self.usage_total[key] = self.usage_total.get(key, 0) + value
                usage = dict(self.usage_total)
                self.save_state()
            self.emit({"type": "stream_end", "msg_id": msg_id, "usage": usage})
            self.emit({"type": "config_changed", "capabilities": self.capabilities()})
        else:
            self.emit({"type": "stream_end", "msg_id": msg_id, "usage": usage})

    def save_state(self) -> None:
        if self.session_id:
            folder = self.state_dir / self.session_id
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "state.json").write_text(json.dumps({"usage": self.usage_total}))

    def step(self, step: dict[str, Any], msg_id: str) -> Any:
        if "text" in step and "flood" not in step:
            text, chunks = step["text"], max(1, int(step.get("chunks", 1)))
            size = max(1, -(-len(text) // chunks))
            for i in range(0, len(text), size):
                self.check_stop()
                self.emit({"type": "text_delta", "text": text[i : i + size], "msg_id": msg_id})
        elif "thinking" in step:
            self.emit({"type": "thinking", "text": step["thinking"], "msg_id": msg_id})
        elif "flood" in step:
            piece = (
                json.dumps(
                    {"type": "text_delta", "text": step.get("text", "x"), "msg_id": msg_id},
                    separators=(",", ":"),
                ).encode()
                + b"\n"
            )
            out = self.out
            for _ in range(int(step["flood"])):
                out.write(piece)
                out.flush()
                if self.stop_requested:
                    raise Stopped
        elif "tool" in step:
            self.tools([step["tool"]], msg_id)
        elif "tools" in step:
            self.tools(step["tools"], msg_id)
        elif "sleep" in step:
            deadline = time.monotonic() + float(step["sleep"])
            if step.get("ignore_stop"):  # the turn finishes although stop arrived meanwhile
                time.sleep(float(step["sleep"]))
                self.stop_requested = False
                return None
            with self.cond:
                while not self.stop_requested and time.monotonic() < deadline:
                    self.cond.wait(deadline - time.monotonic())
        elif step.get("hang"):
            while True:
                time.sleep(3600)
        elif "error" in step:
            body = step["error"]
            self.error(
                body.get("code", "provider_error"),
                body.get("message", "failed"),
                bool(body.get("retryable", False)),
                msg_id,
            )
            if not body.get("retryable", False):
                return "failed"
        elif "info" in step:
            self.info(step["info"], msg_id)
        elif "raw" in step:
            self.raw(step["raw"].encode())
        elif "raw_hex" in step:
            self.raw(bytes.fromhex(step["raw_hex"]))
        elif "oversize" in step:
            self.raw(b'{"type":"text_delta","text":"' + b"y" * int(step["oversize"]) + b'"}')
        elif "crash" in step:
            sys.stderr.write(step.get("stderr", "") + "\n")
            sys.stderr.flush()
            os._exit(int(step["crash"]))
        elif "event" in step:
            self.emit(step["event"])
        elif "usage" in step:
            return dict(step["usage"])
        return None

    # ------------------------------------------------------------------ tools
    def tools(self, specs: list[dict[str, Any]], msg_id: str) -> None:
        calls = []
        for spec in specs:
            name = spec["name"]
            if self.profile == REAL and name == "Bash":
                name = "ExecCommand"
                spec = {**spec, "args": {"cmd": spec["args"].get("command", "")}}
            category = spec.get("category", _CATEGORY.get(name, "exec"))
            call_id = spec.get("call_id") or f"call-{uuid.uuid4().hex[:8]}"
            calls.append((call_id, name, category, spec))
        if self.profile == REAL:
            for call in calls:
                self.info(f"Tool call: {call[1]}", msg_id)
            for call in calls:  # one at a time, in order
                self.one_tool(*call, msg_id=msg_id)
            return
        waiting = [c for c in calls if self.request(*c, msg_id=msg_id)]
        for call in calls:
            if call in waiting:
                approved = self.wait_decision(call, msg_id)
                if not approved:
                    continue
            self.execute(*call, msg_id=msg_id)

    def needs_approval(self, name: str, category: str) -> bool:
        if category in _MODE_CATEGORIES[self.mode]:
            return False
        if self.profile == REAL:
            return name not in ("Read", "Grep", "Glob")
        return category not in self.always

    def request(
        self, call_id: str, name: str, category: str, spec: dict[str, Any], msg_id: str
    ) -> bool:
        if not self.needs_approval(name, category):
            return False
        args = dict(sorted(spec.get("args", {}).items()))
        description = spec.get("description", f"{name}: {json.dumps(args)[:80]}")
        with self.cond:
            self.pending.add(call_id)
        self.emit(
            {
                "type": "tool_request",
                "msg_id": msg_id,
                "call_id": call_id,
                "tool": {
                    "name": name,
                    "category": category,
                    "args": args,
                    "description": description,
                },
            }
        )
        return True

    def wait_decision(self, call: tuple[str, str, str, dict[str, Any]], msg_id: str) -> bool:
        call_id, name, category, _ = call
        with self.cond:
            while call_id not in self.decisions:
                if self.stop_requested and self.profile == SPEC:
                    self.pending.discard(call_id)
                    raise Stopped
                if self.eof and self.profile == SPEC:
                    self.pending.discard(call_id)
                    raise Stopped
                self.cond.wait(0.05)
            decision = self.decisions.pop(call_id)
            self.pending.discard(call_id)
        if decision["type"] == "tool_deny":
            reason = decision.get("reason", "")
            self.emit(
                {"type": "tool_cancelled", "msg_id": msg_id, "call_id": call_id, "reason": reason}
            )
            if self.profile == REAL:
                self.info(f"[{name} error] Tool denied: {reason}", msg_id)
            return False
        if self.profile == SPEC and decision.get("scope") == "always":
            self.always.add(category)
        return True

    def one_tool(
        self, call_id: str, name: str, category: str, spec: dict[str, Any], msg_id: str
    ) -> None:
        if self.request(call_id, name, category, spec, msg_id=msg_id) and not self.wait_decision(
            (call_id, name, category, spec), msg_id
        ):
            return
        self.execute(call_id, name, category, spec, msg_id=msg_id)

    def execute(
        self, call_id: str, name: str, category: str, spec: dict[str, Any], msg_id: str
    ) -> None:
        self.check_stop()
        self.emit({"type": "tool_running", "msg_id": msg_id, "call_id": call_id, "tool_name": name})
        status, output, output_type, extra = "success", "", "text", {}
        args = spec.get("args", {})
        try:
            if name == "Write":
                path = Path(args["file_path"])
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(args["content"])
                output = f"Created {path} ({len(args['content'].splitlines())} lines)"
            elif name == "Edit":
                path = Path(args["file_path"])
                old = path.read_text()
                if args["old_string"] not in old:
                    raise ValueError("old_string not found")
                path.write_text(old.replace(args["old_string"], args["new_string"], 1))
                output = (
                    f"--- a/{path}\n+++ b/{path}\n-{args['old_string']}\n+{args['new_string']}\n"
                )
                if self.profile == SPEC:
                    output_type, extra = "diff", {"metadata": {"file_path": str(path)}}
            elif name == "Read":
                output = Path(args["file_path"]).read_text()
            elif name in ("Bash", "ExecCommand"):
                command = args.get("command", args.get("cmd", ""))
                proc = subprocess.Popen(
                    command,
                    shell=True,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
                self.children.append(proc)
                while proc.poll() is None:
                    if self.stop_requested:
                        self.kill_children()
                        raise Stopped
                    time.sleep(0.02)
                output = proc.stdout.read().decode("utf-8", "replace") if proc.stdout else ""
                status = "success" if proc.returncode == 0 else "error"
            elif "output" in spec:
                output = spec["output"]
            else:
                status, output = "error", f"Unknown tool: {name}"
        except Stopped:
            raise
        except Exception as exc:  # a failing tool is a tool_result error, never a crash
            status, output = "error", str(exc)
        self.emit(
            {
                "type": "tool_result",
                "msg_id": msg_id,
                "call_id": call_id,
                "tool_name": name,
                "status": status,
                "output": output,
                "output_type": output_type,
                **extra,
            }
        )
        if self.profile == REAL:
            self.info(f"[{name} {status}] {output[:200]}", msg_id)

    def kill_children(self) -> None:
        for proc in self.children:
            if proc.poll() is None:
                with contextlib.suppress(OSError):
                    os.killpg(proc.pid, signal.SIGKILL)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json-stream", action="store_true")
    parser.add_argument("--profile", choices=[SPEC, REAL], default=REAL)
    parser.add_argument("--scenario")
    parser.add_argument("--resume")
    parser.add_argument("--session-id")
    parser.add_argument("-p", "--provider")
    parser.add_argument("-m", "--model")
    parser.add_argument("--auto-approve", action="store_true")
    args, unknown = parser.parse_known_args()
    profile = args.profile
    if unknown:
        sys.stderr.write(f"error: unexpected argument '{unknown[0]}' found\n")
        return 2
    path = args.scenario or os.environ.get("FAKE_AGENT_SCENARIO")
    scenario: dict[str, Any] = json.loads(Path(path).read_text()) if path else {}
    startup = scenario.get("startup", {})
    time.sleep(float(startup.get("delay", 0)))
    if "exit" in startup:
        sys.stderr.write(startup.get("stderr", "Error: startup failed") + "\n")
        return int(startup["exit"])
    if startup.get("silent"):
        while True:
            time.sleep(3600)
    needed = scenario.get("require_env")
    if needed and not os.environ.get(needed):
        sys.stderr.write("Error: No API key found for provider\n")
        return 1
    state_dir = Path.cwd() / ".fake-aionrs" / "sessions"
    usage_total: dict[str, int] = {}
    session_id = args.session_id or uuid.uuid4().hex
    if args.resume:
        state = state_dir / args.resume / "state.json"
        if not state.is_file():
            sys.stderr.write(f"Error: Session '{args.resume}' not found\n")
            return 1
        usage_total = json.loads(state.read_text()).get("usage", {})
        session_id = args.resume
    agent = FakeAgent(profile, scenario, session_id, state_dir, usage_total)
    agent.model = args.model or (scenario.get("models") or [None])[0]
    agent.save_state()
    ready: dict[str, Any] = {
        "type": "ready",
        "version": "0.1.0" if profile == SPEC else "0.2.10",
        "session_id": session_id,
        "capabilities": agent.capabilities(),
    }
    if scenario.get("no_session"):
        del ready["session_id"]
    agent.emit(ready)
    threading.Thread(target=agent.reader, daemon=True).start()
    agent.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
