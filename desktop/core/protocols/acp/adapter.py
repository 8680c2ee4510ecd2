"""Host side of the Agent Client Protocol: Claude Code (claude-agent-acp), Gemini CLI
(``gemini --acp``), codex-acp and any custom ACP command.

Uses the maintained ``acp`` package (``agent-client-protocol``) for JSON-RPC and schema,
over a transport on Agent Desk's ``AgentProcess`` (own process group, bounded lines, tree kill).
``initialize`` → ``session/new`` (or ``session/load`` with the stored session id, this backend's
``session_id``) → one ``session/prompt`` per turn; ``session/cancel`` for Stop.
``session/request_permission`` becomes a pending ``ToolRequested`` whose decision is answered with
the agent's own option of the matching kind. ``fs/*`` is served inside the workspace only (writes
need approval); ``terminal/*`` runs approved commands (``terminals``). Every incoming
notification and request is also published as a ``RawSignal`` (``acp.*``).

This module is the ACP handshake, turns and the client methods; tool calls and the approvals
they wait for are ``cards.ToolCards``, the process lifecycle is ``ProcessBackend``'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Unpack, cast

from acp.client.connection import ClientSideConnection
from acp.connection import StreamDirection, StreamEvent
from acp.exceptions import RequestError
from acp.interfaces import Client
from acp.schema import (
    AllowedOutcome,
    ClientCapabilities,
    DeniedOutcome,
    FileSystemCapabilities,
    Implementation,
    ReadTextFileResponse,
    RequestPermissionResponse,
)

from desktop import __version__
from desktop.core.backend import EmitFn, Prompt
from desktop.core.context.commands import acp_commands
from desktop.core.context.images import refused_images
from desktop.core.events import (
    AgentReady,
    ChoiceKind,
    Decision,
    ErrorEvent,
    Notice,
    TextDelta,
    ThinkingDelta,
    TurnEnded,
    TurnEndReason,
    Usage,
)
from desktop.core.mcp import McpSource
from desktop.core.plans import acp_plan
from desktop.core.protocols.acp.cards import ToolCards
from desktop.core.protocols.acp.choices import SessionChoices
from desktop.core.protocols.acp.mcp_servers import acp_servers
from desktop.core.protocols.acp.prompt import prompt_blocks
from desktop.core.protocols.acp.terminals import TerminalClient, Terminals
from desktop.core.protocols.acp.transport import ProcessTransport
from desktop.core.protocols.acp.workspace_fs import WorkspaceFiles
from desktop.core.protocols.process_backend import ProcessBackend, ProcessOptions
from desktop.core.signals import RawSignal
from desktop.core.texts import QT_TRANSLATE_NOOP

log = logging.getLogger(__name__)

PROTOCOL_VERSION = 1


@dataclass(frozen=True)
class AcpLaunch:
    """How to start an ACP agent. Keys go in ``env`` only.

    ``serve_fs``: advertise ``fs/read_text_file``/``fs/write_text_file`` (off for Gemini CLI,
    whose new-file writes fail when the client serves reads).
    """

    argv: list[str]
    cwd: Path
    env: dict[str, str]
    name: str = "acp"
    serve_fs: bool = True
    mcp_servers: list[dict[str, Any]] = field(default_factory=list)
    #: The configured MCP servers of the workspace (resolved at ``session/new``/``load``).
    mcp: McpSource | None = None


def _dump(model: Any) -> Any:
    if hasattr(model, "model_dump"):
        return model.model_dump(by_alias=True, exclude_none=True, mode="json")
    return model


def _usage(data: Any) -> Usage | None:
    if isinstance(data, dict) and data:
        if "inputTokens" in data:
            cached = int(data.get("cachedReadTokens") or 0)
            return Usage(
                input_tokens=int(data.get("inputTokens") or 0),
                output_tokens=int(data.get("outputTokens") or 0),
                cache_read_tokens=cached,
                cache_write_tokens=int(data.get("cachedWriteTokens") or 0),
            )
        quota = data.get("quota")  # gemini: _meta.quota.token_count
        count = quota.get("token_count") if isinstance(quota, dict) else None
        if isinstance(count, dict):
            return Usage(
                input_tokens=int(count.get("input_tokens") or 0),
                output_tokens=int(count.get("output_tokens") or 0),
            )
    return None


class AcpBackend(TerminalClient, ProcessBackend[AcpLaunch]):
    """One ACP agent process and one ACP session (raw signals: every incoming ``acp.*``)."""

    protocol = "acp"
    #: ACP names calls by their title; the category comes from the call's ``kind`` (unknown
    #: kinds are exec: asked about), which the agent program sets, not the model.
    categories_from_protocol = True
    start_errors = (RequestError, ConnectionError)

    def __init__(self, launch: AcpLaunch, **options: Unpack[ProcessOptions]) -> None:
        super().__init__(launch, **options)
        self._files = WorkspaceFiles(launch.cwd)
        self._cards = ToolCards(launch.cwd)
        self._choices = SessionChoices()
        self._session_models: dict[str, Any] | None = None
        self._terminals = Terminals(
            launch.cwd, self._cards, launch.env, lambda: self._process.tree_tag
        )
        self._conn: ClientSideConnection | None = None
        self._loading = False
        self._cancelled = False
        self._capabilities: dict[str, Any] = {}  # agentCapabilities (prompt blocks)

    @property
    def _turn(self) -> str | None:
        return self._cards.turn

    # ------------------------------------------------------------------ AgentBackend

    async def start(self, emit: EmitFn) -> AgentReady:
        """Spawn the agent, ``initialize``, then ``session/new`` or ``session/load``."""
        self._cards.emit = emit
        return await super().start(emit)

    async def _handshake(self) -> AgentReady:
        transport = ProcessTransport(self._process, self._bad_line)
        conn = self._conn = ClientSideConnection(
            # Elicitation methods are left out on purpose: not advertised, -32601.
            cast(Client, self),
            transport,
            observers=[self._observe],
        )
        serve = self._launch.serve_fs
        init = await conn.initialize(
            protocol_version=PROTOCOL_VERSION,
            client_capabilities=ClientCapabilities(
                fs=FileSystemCapabilities(read_text_file=serve, write_text_file=serve),
                terminal=True,
            ),
            client_info=Implementation(name="agent-desk", title="Agent Desk", version=__version__),
        )
        cwd = str(self._launch.cwd)
        mcp = await acp_servers(self._launch.mcp, init.agent_capabilities, self._emit)
        can_load = bool(init.agent_capabilities and init.agent_capabilities.load_session)
        if self._resume_id and can_load:
            self._loading = True
            try:
                loaded = await conn.load_session(
                    cwd=cwd, session_id=self._resume_id, mcp_servers=mcp
                )
                self._read_choices(loaded)
                self._session_id = self._resume_id
            except RequestError as exc:
                text = QT_TRANSLATE_NOOP(
                    "Resume",
                    "{name} could not load session {session}: {error}; a new session was started.",
                ).with_args(name=self.name, session=self._resume_id, error=exc)
                self._emit(Notice(level="warning", message=text.english, i18n=text))
            finally:
                self._loading = False
        if self._session_id is None:
            session = await conn.new_session(cwd=cwd, mcp_servers=mcp)
            self._session_id = session.session_id
            self._read_choices(session)
        info = init.agent_info
        self._capabilities = _dump(init.agent_capabilities) or {}
        return AgentReady(
            agent=self.name,
            protocol=self.protocol,
            version=info.version if info else None,
            session_id=self._session_id,
            capabilities=self._capabilities,
        )

    async def send_prompt(self, turn_id: str, prompt: Prompt) -> None:
        """``session/prompt``; the turn ends when it answers with a ``stopReason``."""
        self._cards.turn = turn_id
        self._cancelled = False
        self._spawn(self._prompt(turn_id, prompt))

    async def _prompt(self, turn_id: str, prompt: Prompt) -> None:
        assert self._conn is not None and self._session_id is not None
        blocks, refused = await asyncio.to_thread(prompt_blocks, prompt, self._capabilities)
        if refused:
            self._emit(refused_images(refused, turn_id))
        try:
            response = await self._conn.prompt(session_id=self._session_id, prompt=blocks)
        except (RequestError, ConnectionError) as exc:
            if self._turn == turn_id:
                message = str(exc)
                self._emit(ErrorEvent(turn_id=turn_id, code="prompt_failed", message=message))
                self._finish(
                    TurnEndReason.STOPPED if self._cancelled else TurnEndReason.ERROR, message
                )
            return
        if self._turn != turn_id:
            return
        data = _dump(response)
        usage = _usage(data.get("usage")) or _usage(data.get("_meta"))
        stop = data.get("stopReason")
        if stop == "cancelled" or self._cancelled:
            self._finish(TurnEndReason.STOPPED, None, usage)
        elif stop in ("refusal", "max_tokens", "max_turn_requests"):
            self._finish(TurnEndReason.COMPLETED, f"The agent stopped: {stop}", usage)
        else:
            self._finish(TurnEndReason.COMPLETED, None, usage)

    async def send_decision(self, call_id: str, decision: Decision, reason: str | None) -> None:
        """Resolve the waiting permission request (or a pending host-side file write)."""
        self._cards.decide(call_id, decision)

    async def set_choice(self, kind: ChoiceKind, choice_id: str) -> None:
        """``session/set_mode`` or ``session/set_config_option`` (the model option)."""
        if self._conn is None or self._session_id is None:
            return
        choices = self._choices
        try:
            if kind == ChoiceKind.MODE:
                await self._conn.set_session_mode(session_id=self._session_id, mode_id=choice_id)
                choices.mode = choice_id
                self._emit(choices.mode_event())
            elif choices.unstable_models:
                params = {"sessionId": self._session_id, "modelId": choice_id}
                await self._conn._conn.send_request("session/set_model", params)
                choices.model = choice_id
                self._emit(choices.model_event())
            elif choices.model_option is not None:
                answer = await self._conn.set_config_option(
                    config_id=choices.model_option, session_id=self._session_id, value=choice_id
                )
                choices.model = choice_id
                choices.read_options(_dump(answer).get("configOptions") or [])
                self._emit(choices.model_event())
        except (RequestError, ConnectionError) as exc:
            said = QT_TRANSLATE_NOOP("AgentNotice", "{name} could not switch to {choice}: {error}")
            said = said.with_args(name=self.name, choice=choice_id, error=exc)
            self._emit(Notice(level="warning", message=said.english, i18n=said))

    def _read_choices(self, response: Any) -> None:
        data = _dump(response) or {}
        if self._session_models is not None:  # unstable: the SDK's model drops the field
            data = {**data, "models": self._session_models}
        for event in self._choices.read_session(data):
            self._emit(event)

    async def interrupt(self) -> None:
        """``session/cancel``; waiting permission requests are answered ``cancelled``."""
        self._cancelled = True
        self._cards.withdraw_all(QT_TRANSLATE_NOOP("ToolReason", "The turn was cancelled"))
        if self._conn is not None and self._session_id is not None and self._turn is not None:
            with contextlib.suppress(ConnectionError, RequestError):
                await self._conn.cancel(session_id=self._session_id)

    # ------------------------------------------------------------------ process lifecycle

    def _before_shutdown(self) -> None:
        """Answer waiting requests first; codex-acp keeps running after stdin closes."""
        self._cards.withdraw_all(QT_TRANSLATE_NOOP("ToolReason", "The agent is shutting down"))
        self._terminals.release_all()

    async def _read_output(self) -> None:
        """Nothing to do: the acp connection reads stdout on its own task."""

    async def _after_exit(self) -> None:
        self._cards.withdraw_all(QT_TRANSLATE_NOOP("ToolReason", "The agent exited"))
        self._terminals.release_all()
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()

    def _bad_line(self, message: str) -> None:
        self._emit(ErrorEvent(turn_id=self._turn, code="protocol_error", message=message))

    def _observe(self, event: StreamEvent) -> None:
        message = event.message
        result = message.get("result") if event.direction == StreamDirection.INCOMING else None
        if isinstance(result, dict) and isinstance(result.get("models"), dict):
            self._session_models = result["models"]  # session/new or load (unstable field)
        method = message.get("method")
        if event.direction != StreamDirection.INCOMING or not isinstance(method, str):
            return
        is_request = "id" in message
        if not self.signals.wants("acp", method, "request" if is_request else "notification"):
            return
        params = message.get("params")
        self.signals.publish(
            RawSignal(
                source="acp",
                signal_type="request" if is_request else "notification",
                method=method,
                params=params if isinstance(params, dict) else None,
                request_id=message.get("id") if is_request else None,
                thread_id=self._session_id,
                turn_id=self._turn,
            )
        )

    def _finish(
        self, reason: TurnEndReason, message: str | None, usage: Usage | None = None
    ) -> None:
        turn = self._cards.end_turn()
        if turn is not None:
            model = self._choices.model
            self._emit(
                TurnEnded(turn_id=turn, reason=reason, usage=usage, model=model, message=message)
            )

    # ------------------------------------------------------------------ Client: permissions

    async def request_permission(
        self, options: list[Any], session_id: str, tool_call: Any, **kwargs: Any
    ) -> RequestPermissionResponse:
        """Show a pending card; answer with the option whose kind matches the decision."""
        option_id = await self._cards.ask_permission(_dump(tool_call), [_dump(o) for o in options])
        if option_id is None:
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(
            outcome=AllowedOutcome(outcome="selected", option_id=option_id)
        )

    # ------------------------------------------------------------------ Client: file system

    async def read_text_file(
        self,
        path: str,
        session_id: str,
        limit: int | None = None,
        line: int | None = None,
        **kwargs: Any,
    ) -> ReadTextFileResponse:
        """Read inside the workspace only."""
        return ReadTextFileResponse(content=self._files.read(path, line, limit))

    async def write_text_file(
        self, content: str, path: str, session_id: str, **kwargs: Any
    ) -> None:
        """Ask first (with the host's diff), write only after approval."""
        preview = self._files.preview_write(path, content)
        call_id = await self._cards.ask_write(path, content, preview)
        if call_id is None:
            raise RequestError(-32000, f"The user denied writing {path}")
        self._files.write(path, content)
        self._cards.written(call_id, path, preview)

    # ------------------------------------------------------------------ Client: updates

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        """Map one ``session/update`` into session events."""
        if self._loading:
            return  # the replayed history of a loaded session is already in Agent Desk's
        data = _dump(update)
        kind = data.get("sessionUpdate")
        if kind in ("agent_message_chunk", "agent_thought_chunk"):
            content = data.get("content")
            text = content.get("text") if isinstance(content, dict) else None
            if isinstance(text, str) and text:
                event = TextDelta if kind == "agent_message_chunk" else ThinkingDelta
                self._emit(event(turn_id=self._turn, text=text))
        elif kind in ("tool_call", "tool_call_update"):
            self._cards.update(data)
        elif kind == "plan":
            self._emit(acp_plan(data, self._turn))
        elif kind == "available_commands_update":
            self._emit(acp_commands(data))  # the composer's / menu
        elif kind == "current_mode_update":
            self._choices.mode = data.get("currentModeId") or None
            self._emit(self._choices.mode_event())
        elif kind == "config_option_update" and self._choices.read_options(
            data.get("configOptions") or []
        ):
            self._emit(self._choices.model_event())
