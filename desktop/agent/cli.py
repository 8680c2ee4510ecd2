"""Command line of the built-in agent: flags, API key, session, then the command loop.

Start-up problems (a bad flag, no API key, an unknown session) are reported as one ``error``
event with ``config_error`` on stdout, a line on stderr, and exit status 2: the host shows the
message instead of a silent crash. API keys come from an inherited pipe (how Agent Desk starts
it, see ``desktop.core.key_pipe``) or, run by hand, from the environment; either way they are
removed from ``os.environ`` before any tool runs, so no command the model asks for inherits them;
run by hand, the agent first re-executes itself with them in a key pipe, so that its
``/proc/<pid>/environ`` does not show them either.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import logging
import os
import signal
import sys
import threading
from pathlib import Path
from typing import NoReturn

from desktop.agent.approvals import ApprovalPolicy
from desktop.agent.channel import Channel, error_event
from desktop.agent.controller import Controller
from desktop.agent.mcp_tools import McpHub
from desktop.agent.providers import BASE_URL_ENV, DEFAULT_MODELS, KEY_ENV, PROVIDERS, make_provider
from desktop.agent.providers.base import Provider, ToolSpec
from desktop.agent.sessions import (
    CorruptSessionError,
    SessionError,
    SessionRecord,
    SessionStore,
    check_session_id,
    new_session_id,
)
from desktop.agent.settings import SessionSettings, retry_base_from_env
from desktop.agent.toolrun import ToolRunner
from desktop.agent.tools import default_tools
from desktop.agent.tools.base import ToolContext
from desktop.agent.turn import TurnEngine
from desktop.core.key_pipe import PROVIDER_KEY_ENV, move_keys_out_of_environment, read_key_pipe
from desktop.core.redaction import Redactor, secret_values

EXIT_CONFIG = 2
_LABELS = {"anthropic": "Anthropic", "openai": "OpenAI"}
log = logging.getLogger("desktop.agent")


class ConfigError(Exception):
    """The agent cannot start with this configuration."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise ConfigError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="agentdesk-agent", description="Agent Desk's built-in agent.")
    parser.add_argument("--json-stream", action="store_true", help="speak the JSON Stream Protocol")
    parser.add_argument("--provider", choices=PROVIDERS, help="default: from the API key set")
    parser.add_argument("--model", help="model id (default depends on the provider)")
    parser.add_argument("--base-url", help="API base URL (local servers, proxies)")
    parser.add_argument("--max-tokens", type=int, default=8192)
    parser.add_argument("--max-turns", type=int, default=30, help="model calls per message")
    parser.add_argument("--system-prompt", help="replaces the default system prompt")
    parser.add_argument("--thinking-budget", type=int, help="enable thinking with this budget")
    parser.add_argument("--auto-approve", action="store_true", help="start in yolo mode")
    parser.add_argument("--workspace", type=Path, help="default: the current folder")
    parser.add_argument(
        "--allow-outside-workspace",
        action="store_true",
        help="let file tools use paths outside the workspace",
    )
    session = parser.add_mutually_exclusive_group()
    session.add_argument("--session-id", help="id for a new session")
    session.add_argument("--resume", metavar="ID|latest", help="resume a saved session")
    return parser


def take_api_keys() -> dict[str, str]:
    """The provider keys (from the key pipe, else the environment), removed from
    ``os.environ`` so that tool commands cannot inherit them.

    Raises:
        ConfigError: the key pipe cannot be read.
    """
    try:
        piped = read_key_pipe(os.environ)
    except ValueError as exc:
        raise ConfigError(f"Cannot read the API key from Agent Desk: {exc}") from exc
    keys = {var: piped.get(var) or os.environ.get(var, "") for var in PROVIDER_KEY_ENV}
    for var in PROVIDER_KEY_ENV:
        os.environ.pop(var, None)
    return keys


def _settings(args: argparse.Namespace, keys: dict[str, str]) -> SessionSettings:
    provider = args.provider
    if provider is None:
        provider = next((p for p in PROVIDERS if keys.get(KEY_ENV[p])), "anthropic")
    key = keys.get(KEY_ENV[provider], "")
    if not key:
        raise ConfigError(
            f"{KEY_ENV[provider]} is not set. Enter your {_LABELS[provider]} API key in "
            "Agent Desk's settings (or set the variable) and start the conversation again."
        )
    workspace = (args.workspace or Path.cwd()).expanduser().resolve()
    if not workspace.is_dir():
        raise ConfigError(f"The workspace {workspace} is not a folder.")
    for flag, value in (("--max-tokens", args.max_tokens), ("--max-turns", args.max_turns)):
        if value < 1:
            raise ConfigError(f"{flag} must be at least 1.")
    return SessionSettings(
        provider=provider,
        model=args.model or DEFAULT_MODELS[provider],
        api_key=key,
        workspace=workspace,
        base_url=args.base_url or os.environ.get(BASE_URL_ENV[provider]) or None,
        max_tokens=args.max_tokens,
        max_turns=args.max_turns,
        system_prompt=args.system_prompt,
        thinking_budget=args.thinking_budget or None,
        allow_outside_workspace=args.allow_outside_workspace,
        retry_base=retry_base_from_env(),
    )


def _open_session(
    args: argparse.Namespace, settings: SessionSettings, store: SessionStore, channel: Channel
) -> SessionRecord:
    def fresh(session_id: str) -> SessionRecord:
        return SessionRecord(
            id=session_id,
            workspace=str(settings.workspace),
            provider=settings.provider,
            model=settings.model,
        )

    try:
        if args.session_id is not None:
            if store.exists(check_session_id(args.session_id)):
                raise ConfigError(f"Session {args.session_id!r} already exists; use --resume.")
            return fresh(args.session_id)
        if args.resume is None:
            return fresh(new_session_id())
        wanted = store.latest_id() if args.resume == "latest" else check_session_id(args.resume)
        if wanted is None:
            raise ConfigError(f"There is no saved session for {settings.workspace} to resume.")
        try:
            return store.load(wanted)
        except CorruptSessionError as exc:
            moved = store.set_aside(wanted)
            message = f"{exc} It was moved to {moved.name}; a new session was started."
            sys.stderr.write(f"agentdesk-agent: {message}\n")
            channel.send(error_event("config_error", message))
            return fresh(wanted if args.resume != "latest" else new_session_id())
    except SessionError as exc:
        raise ConfigError(str(exc)) from exc


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)


class _ProviderHandle:
    """Builds the provider in the background after ``ready`` (its SDK import is slow)."""

    def __init__(self, settings: SessionSettings) -> None:
        self._settings = settings
        self._task: asyncio.Task[Provider] | None = None

    def warm_up(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._build())

    async def _build(self) -> Provider:
        s = self._settings
        loop = asyncio.get_running_loop()
        imported: asyncio.Future[None] = loop.create_future()

        def load() -> None:
            # A daemon thread, not the default executor: quitting must not wait for the import.
            try:
                importlib.import_module(f"desktop.agent.providers.{s.provider}")
                outcome: BaseException | None = None
            except Exception as exc:  # noqa: BLE001 (re-raised in the event loop)
                outcome = exc
            with contextlib.suppress(RuntimeError):  # the loop is already closed
                loop.call_soon_threadsafe(_settle, imported, outcome)

        threading.Thread(target=load, name="provider-import", daemon=True).start()
        await imported
        return make_provider(s.provider, s.api_key, s.base_url)

    async def get(self) -> Provider:
        self.warm_up()
        assert self._task is not None
        return await asyncio.shield(self._task)

    async def close(self) -> None:
        if self._task is not None and self._task.done() and not self._task.exception():
            await self._task.result().close()


async def _serve(
    args: argparse.Namespace, settings: SessionSettings, channel: Channel, redactor: Redactor
) -> int:
    store = SessionStore.for_workspace(settings.workspace, redactor)
    record = _open_session(args, settings, store, channel)
    record.provider, record.model = settings.provider, settings.model
    store.save(record)
    tools = default_tools()
    policy = ApprovalPolicy(mode="yolo" if args.auto_approve else "default")
    ctx = ToolContext(workspace=settings.workspace, allow_outside=settings.allow_outside_workspace)
    provider = _ProviderHandle(settings)
    specs = [ToolSpec(t.name, t.description, t.schema()) for t in tools.values()]
    mcp = McpHub(tools, specs, settings.workspace, channel.send)  # adds to tools and specs
    engine = TurnEngine(
        settings,
        provider.get,
        ToolRunner(tools, ctx, policy, channel.send),
        specs,
        channel.send,
        lambda: store.save(record),
    )
    engine.history = record.history  # the same list: the store saves what the engine appends
    engine.context = record.context
    controller = Controller(channel, settings, policy, engine, record.id, mcp)
    controller.announce()
    provider.warm_up()
    serving = asyncio.current_task()
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError, RuntimeError):
        loop.add_signal_handler(signal.SIGTERM, lambda: serving and serving.cancel())
    try:
        await controller.serve()
    except asyncio.CancelledError:
        pass  # SIGTERM: serve() stopped the turn on its way out
    finally:
        record.context = engine.context
        store.save(record)
        await mcp.close()
        await provider.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the agent; returns the exit status."""
    if argv is None:
        move_keys_out_of_environment()  # run by hand: not readable in /proc/<pid>/environ
    logging.basicConfig(
        level=os.environ.get("AGENTDESK_AGENT_LOG", "WARNING").upper(),
        stream=sys.stderr,
        format="agentdesk-agent %(levelname)s %(name)s: %(message)s",
    )
    channel = Channel()
    try:
        keys = take_api_keys()
        args = build_parser().parse_args(argv)
        settings = _settings(args, keys)
        redactor = Redactor([*keys.values(), *secret_values(os.environ)])
        return asyncio.run(_serve(args, settings, channel, redactor))
    except ConfigError as exc:
        sys.stderr.write(f"agentdesk-agent: {exc}\n")
        channel.send(error_event("config_error", str(exc)))
        return EXIT_CONFIG
    except KeyboardInterrupt:
        return 130
