"""Entry point of the ``agentdesk`` command.

``agentdesk [PATH]`` opens the window for a workspace; ``agentdesk SUBCOMMAND ...`` runs a
headless command. Subcommands are imported only when used so the window starts fast.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import logging
import os
import sys
from collections.abc import Sequence

from desktop import __version__

#: subcommand → module with ``add_arguments(parser)`` and ``run(args) -> int``.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "exec": ("desktop.cli.exec_command", "run prompts headless and print the conversation"),
    "extensions": ("desktop.cli.extensions_command", "list extensions or trust a folder"),
    "agents": ("desktop.cli.agents_command", "list agents or register a remote Agent Runtime"),
    "keys": ("desktop.cli.keys_command", "store, list or delete API keys in the OS keyring"),
    "profiles": ("desktop.cli.profiles_command", "list, add or remove provider profiles"),
    "history": ("desktop.cli.history_command", "list, show, search or export conversations"),
    "mcp": ("desktop.cli.mcp_command", "list, add, remove or test MCP servers"),
}

EXIT_USAGE = 2
#: ``agentdesk agent ARGS`` runs the built-in agent in this process: a frozen bundle has no
#: ``python -m desktop.agent``, so ``builtin_agent_command()`` starts the app itself this way.
AGENT_COMMAND = "agent"


def _configure_logging() -> None:
    level = os.environ.get("AGENTDESK_LOG_LEVEL", "WARNING").upper()
    logging.basicConfig(
        level=getattr(logging, level, logging.WARNING),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )


def _subcommand_parser(name: str) -> tuple[argparse.ArgumentParser, object]:
    module_name, help_text = SUBCOMMANDS[name]
    module = importlib.import_module(module_name)
    parser = argparse.ArgumentParser(prog=f"agentdesk {name}", description=help_text)
    module.add_arguments(parser)
    return parser, module


def _gui_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agentdesk",
        description="Agent Desk: a desktop host for AI coding agents.",
        epilog="Subcommands: "
        + ", ".join(f"{name} ({text})" for name, (_, text) in SUBCOMMANDS.items())
        + f", {AGENT_COMMAND} (run the built-in agent: agentdesk {AGENT_COMMAND} --help)",
    )
    parser.add_argument("--version", action="version", version=f"agentdesk {__version__}")
    parser.add_argument("path", nargs="?", help="workspace folder (default: the last one)")
    agent = parser.add_mutually_exclusive_group()
    agent.add_argument("--agent", help="agent for new conversations in this window")
    agent.add_argument("--agent-cmd", help='command of an aionrs-protocol agent, "CMD ARGS"')
    parser.add_argument(
        "--conversation",
        metavar="ID",
        help="open the window on this stored conversation (an id agentdesk history list prints)",
    )
    parser.add_argument(
        "--smoke-test",
        nargs="?",
        const="full",
        choices=["full", "window"],
        help="check this installation: show the window, run one conversation with the built-in "
        "agent (needs a reachable model), print the keyring backend, exit 0 ('window': paint "
        "the window and exit)",
    )
    return parser


def _quick_gui_options(args: list[str]) -> argparse.Namespace | None:
    """The window's options when ``args`` hold only PATH, ``--agent NAME``, ``--agent-cmd CMD``
    (and a trailing ``--smoke-test [MODE]``, which the cold-start benchmark times).

    Building the argparse parser costs ~4 ms before the window can paint; everything else
    (help, version, ``--opt=value``, abbreviations, errors) returns None and goes through the
    parser, which gives the same result for these simple forms.
    """
    values: dict[str, str | None] = {"path": None, "agent": None, "agent_cmd": None}
    smoke_test = None
    if args[-1:] == ["--smoke-test"]:
        smoke_test, args = "full", args[:-1]
    elif args[-2:-1] == ["--smoke-test"] and args[-1] in ("full", "window"):
        smoke_test, args = args[-1], args[:-2]
    rest = iter(args)
    for arg in rest:
        if arg in ("--agent", "--agent-cmd"):
            key = arg[2:].replace("-", "_")
            value = next(rest, None)
            if value is None or value.startswith("-") or values[key] is not None:
                return None
            values[key] = value
        elif arg.startswith("-") or values["path"] is not None:
            return None
        else:
            values["path"] = arg
    if values["agent"] is not None and values["agent_cmd"] is not None:
        return None  # the parser reports the conflict
    return argparse.Namespace(**values, smoke_test=smoke_test, conversation=None)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``agentdesk`` and return its exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == AGENT_COMMAND:
        from desktop.agent.cli import main as agent_main  # only when used

        return agent_main(args[1:])
    _configure_logging()
    if args and args[0] in SUBCOMMANDS:
        parser, module = _subcommand_parser(args[0])
        options = parser.parse_args(args[1:])
        result: int = module.run(options)  # type: ignore[attr-defined]
        return result
    options = _quick_gui_options(args) or _gui_parser().parse_args(args)
    from desktop.cli.display import display_problem

    problem = display_problem()
    if problem is not None:  # Qt would abort (status 134) with misleading advice
        print(problem, file=sys.stderr)
        return EXIT_USAGE
    # No automatic collection until the first paint (``desktop.ui.startup.show_painted``
    # resumes it): the window's modules, classes, enums and widgets set off ~10 collections
    # (2-4 ms) that find next to no garbage.
    gc.disable()
    try:
        gui = importlib.import_module(
            "desktop.ui.smoke" if options.smoke_test else "desktop.ui.app"
        )
    except ImportError as exc:
        gc.enable()
        print(f"agentdesk: the window is not available: {exc}", file=sys.stderr)
        return 1
    try:
        result = gui.run(options)
    finally:
        gc.enable()  # also when it ended before any paint (e.g. handed to a running instance)
    return int(result)
