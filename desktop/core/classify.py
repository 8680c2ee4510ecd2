"""The host's own classification of tool calls, whatever category the agent claims.

The model is hostile: it can make an agent label ``Bash`` as ``info``. Modes, always-rules,
policies and screens must therefore key on what the host knows a tool does, not on the claim.
Shell tools are ``exec``; file writers and editors are ``edit``; file readers and searchers are
``info``; tools of a remote runtime (``remote``) keep their class, because the runtime, not the
host, runs them. A tool the host does not know (including every MCP tool) is ``mcp`` whatever
it claims: a class no mode short of YOLO, no info/edit/exec rule and no read-only policy
approves, so it is asked about. (Keeping an unknown tool's ``exec`` claim would let a model get
an always-rule for shell commands made from a harmless-looking call; the property test in
``tests/core/test_approval_property.py`` found that.) ACP agents name calls by their title;
their category comes from the call's ``kind``, which the agent program sets and the model cannot
choose, so the session keeps it (``AgentBackend.categories_from_protocol``).
"""

from __future__ import annotations

from desktop.core.events import ToolCategory

#: Lower-cased tool names of every adapter (aionrs, the built-in agent, ACP, Codex), by class.
SHELL_TOOLS = frozenset(
    {
        "bash",
        "execcommand",
        "exec_command",
        "shell",
        "run_shell_command",
        "local_shell",
        "command",
        "execute",
        "terminal",
        "run_terminal_cmd",
    }
)
EDIT_TOOLS = frozenset(
    {
        "write",
        "create",
        "write_file",
        "writefile",
        "edit",
        "str_replace",
        "multiedit",
        "edit_file",
        "notebookedit",
        "replace",
        "apply_patch",
        "patch",
    }
)
INFO_TOOLS = frozenset(
    {
        "read",
        "glob",
        "grep",
        "ls",
        "read_file",
        "read_many_files",
        "list_directory",
        "search_file_content",
    }
)


def host_category(name: str, claimed: ToolCategory) -> ToolCategory:
    """The class the host gives a tool named ``name`` that the agent called ``claimed``."""
    if claimed == ToolCategory.REMOTE:
        return ToolCategory.REMOTE
    key = name.strip().lower()
    if key in SHELL_TOOLS:
        return ToolCategory.EXEC
    if key in EDIT_TOOLS:
        return ToolCategory.EDIT
    if key in INFO_TOOLS:
        return ToolCategory.INFO
    return ToolCategory.MCP
