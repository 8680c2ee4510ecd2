"""The built-in tools: Read, Write, Edit, Bash, Glob, Grep (the spec's categories)."""

from __future__ import annotations

from typing import Any

from desktop.agent.tools.base import Tool
from desktop.agent.tools.bash import BashTool
from desktop.agent.tools.files import EditTool, ReadTool, WriteTool
from desktop.agent.tools.search import GlobTool, GrepTool


def default_tools() -> dict[str, Tool[Any]]:
    """A fresh set of every built-in tool, by name."""
    tools: list[Tool[Any]] = [
        ReadTool(),
        WriteTool(),
        EditTool(),
        BashTool(),
        GlobTool(),
        GrepTool(),
    ]
    return {tool.name: tool for tool in tools}
