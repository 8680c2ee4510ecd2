"""``agentdesk exec``: run prompts headless through the same session engine as the window.

Exit codes: 0 every turn completed or was stopped by ``--timeout``; 1 a turn ended in error, the
agent exited unexpectedly, or part of the conversation could not be saved to the history; 2 usage
error; 3 the agent failed to start.

Start-up order: the agent's launch is resolved with light modules only and the agent is spawned
before the session engine, the history and the extensions are imported, so those imports
overlap with the agent's own start-up (see ``desktop.core.launch.early``). This module therefore
imports the heavy parts inside ``_run_session``, and ``SettingsStore``/``SecretStore`` when
first used.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop.cli.exec_extensions import add_extension_arguments
from desktop.core.launch.early import EarlyAgent
from desktop.core.launch.resolve import resolve
from desktop.core.launch.spec import AgentNotFoundError, AgentRef, Launch, launch_secrets

if TYPE_CHECKING:
    from desktop.core.checkpoints.recorder import CheckpointRecorder
    from desktop.core.history.recording import HistoryRecording
    from desktop.core.secrets import SecretStore
    from desktop.core.settings import SettingsStore

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_START = 0, 1, 2, 3

#: The values of ``desktop.core.events.ApprovalMode`` (not imported for the parser: it loads the
#: event models; tests/cli checks that both agree).
APPROVAL_MODES = ("default", "auto_edit", "yolo")
#: The keys of ``exec_session.ON_REQUEST``.
ON_REQUEST_CHOICES = ("approve", "approve-always", "deny")


def __getattr__(name: str) -> Any:
    """``SettingsStore`` and ``SecretStore``, imported when first used (they load pydantic and
    keyring, which ``--agent-cmd`` does not need); tests replace them on this module."""
    if name == "SettingsStore":
        from desktop.core.settings import SettingsStore

        return SettingsStore
    if name == "SecretStore":
        from desktop.core.secrets import SecretStore

        return SecretStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _stores() -> tuple[SettingsStore, SecretStore]:
    """The settings and the keyring, each loaded once per run."""
    module = sys.modules[__name__]
    settings: SettingsStore = module.SettingsStore()
    secrets: SecretStore = module.SecretStore()
    return settings, secrets


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the options of ``agentdesk exec``."""
    parser.add_argument(
        "--workspace",
        type=Path,
        default=None,
        help="folder the agent works in (default: the current folder)",
    )
    agent = parser.add_mutually_exclusive_group()
    agent.add_argument("--agent", help="configured agent name (builtin, aionrs, ...)")
    agent.add_argument("--agent-cmd", help='command of an aionrs-protocol agent, "CMD ARGS"')
    parser.add_argument(
        "--profile", help="provider profile for the built-in agent (see `agentdesk profiles`)"
    )
    parser.add_argument(
        "--continue",
        dest="conversation",
        metavar="CONVERSATION",
        help="continue a stored conversation (id or prefix, see `agentdesk history list`)",
    )
    parser.add_argument(
        "--no-history", action="store_true", help="do not record this run in the history"
    )
    parser.add_argument("--mode", choices=APPROVAL_MODES, default="default", help="approval mode")
    parser.add_argument(
        "--on-request",
        choices=ON_REQUEST_CHOICES,
        default=None,
        help="decide tool requests the mode does not approve (default: ask on a "
        "terminal, otherwise deny)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="stop a turn that runs longer than this",
    )
    parser.add_argument("--json", action="store_true", help="print session events as JSON Lines")
    add_extension_arguments(parser)
    parser.add_argument(
        "-p",
        "--prompt",
        action="append",
        required=True,
        dest="prompts",
        help="a prompt; repeat for successive turns of one conversation",
    )


async def _launch(options: argparse.Namespace) -> Launch:
    """The agent of ``--agent-cmd``, else of ``--agent``/``--profile`` and the settings.

    Raises:
        AgentNotFoundError: it cannot be launched (the keyring failing included).
    """
    ref = AgentRef(options.agent, options.profile, options.agent_cmd)
    if options.agent_cmd:
        return await resolve(ref, None, None)
    settings, secrets = _stores()
    for message in settings.messages:
        print(f"agentdesk: {message}", file=sys.stderr)
    from desktop.core.secrets import SecretStoreError  # loaded with the keyring by _stores

    try:
        return await resolve(ref, settings.settings, secrets)
    except SecretStoreError as exc:
        raise AgentNotFoundError(str(exc)) from exc


async def _run(options: argparse.Namespace, workspace: Path) -> int:
    try:
        launch = await _launch(options)
    except AgentNotFoundError as exc:
        print(f"agentdesk: {exc}", file=sys.stderr)
        return EXIT_START
    early = EarlyAgent()
    if not options.conversation:  # continuing needs the history first
        await early.spawn(launch, workspace)
    try:
        return await _run_session(options, workspace, launch, early)
    finally:
        await early.close()


async def _run_session(
    options: argparse.Namespace, workspace: Path, launch: Launch, early: EarlyAgent
) -> int:
    """Open the history, build the session around the (early) agent and drive it."""
    from desktop.cli.exec_record import ExecRecording, RecordingError
    from desktop.cli.exec_session import drive
    from desktop.core.conversation import Conversation
    from desktop.core.events import ApprovalMode
    from desktop.core.launch.factory import make_backend_factory

    record = ExecRecording(
        workspace, enabled=not options.no_history, secrets=launch_secrets(launch)
    )
    try:
        stored = await record.open(options.conversation, launch)
    except RecordingError as exc:
        print(f"agentdesk: {exc}", file=sys.stderr)
        return EXIT_START
    factory = early.wrap(make_backend_factory(launch, workspace))
    mode = ApprovalMode(options.mode)
    if stored is None:
        conversation = Conversation(factory, workspace=workspace, mode=mode)
    else:  # the window's resume plan: its own session, else (or when refused) a summary
        same_agent = stored.agent == launch.name and launch.keeps_sessions
        conversation = Conversation.continuing(
            factory, stored, agent_has_sessions=same_agent, workspace=workspace, mode=mode
        )
    await early.spawn(launch, workspace, conversation.session.agent_session_id)  # if not yet
    checkpoints = None
    if record.recording is not None:
        conversation.record(record.recording)  # as the window records its conversations
        checkpoints = _checkpoints(workspace, record.recording)
        conversation.checkpoint(checkpoints)  # as the window records the workspace's changes
    try:
        code = await drive(options, conversation, record)
    finally:
        if checkpoints is not None:
            await checkpoints.drain()  # the last turn's after-state is recorded before exiting
        await record.close()
    # Part of the conversation could not be saved to the history: the run did not fully succeed.
    return EXIT_FAILED if record.failed and code == EXIT_OK else code


def _checkpoints(workspace: Path, recording: HistoryRecording) -> CheckpointRecorder:
    """The recorder of the workspace's checkpoints around each turn of ``recording``'s
    conversation (``agentdesk history changes``/``restore`` read them)."""
    from desktop.core.checkpoints.recorder import CheckpointRecorder

    return CheckpointRecorder.open(workspace, lambda: recording.conversation_id)


def run(options: argparse.Namespace) -> int:
    """Run ``agentdesk exec`` and return its exit code."""
    workspace = (options.workspace or Path.cwd()).expanduser().resolve()
    if not workspace.is_dir():
        print(f"agentdesk: workspace {workspace} is not a folder", file=sys.stderr)
        return EXIT_USAGE
    if options.timeout is not None and options.timeout <= 0:
        print("agentdesk: --timeout must be positive", file=sys.stderr)
        return EXIT_USAGE
    try:
        return asyncio.run(_run(options, workspace))
    except KeyboardInterrupt:
        return EXIT_FAILED
