"""What every built-in tool shares: arguments as pydantic models, the workspace guard, the
output cap.

A tool never raises for a user-level problem (a missing file, a path outside the workspace):
it raises ``ToolFailure``, which the turn engine turns into an ``error`` tool result that the
model can read and react to.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict

DEFAULT_OUTPUT_CAP = 30_000
"""Characters of tool output sent to the host and the model; the rest is cut with a marker."""


class ToolFailure(Exception):
    """A tool could not do what was asked; the message goes back to the model."""


class ToolArgs(BaseModel):
    """Base of tool argument models: unknown fields are an error the model should see."""

    model_config = ConfigDict(extra="forbid")


@dataclass(frozen=True)
class ToolOutput:
    """A finished tool call, in the shape of the protocol's ``tool_result``."""

    output: str
    is_error: bool = False
    output_type: str = "text"
    metadata: dict[str, Any] | None = None


@dataclass(frozen=True)
class ToolContext:
    """Where tools may act and how much they may say."""

    workspace: Path
    allow_outside: bool = False
    output_cap: int = DEFAULT_OUTPUT_CAP
    bash_timeout: float = 120.0
    env: dict[str, str] = field(default_factory=dict)

    def resolve(self, raw: str) -> Path:
        """An absolute, symlink-resolved path for ``raw`` (relative to the workspace).

        Raises:
            ToolFailure: the path leaves the workspace and outside paths are not allowed.
        """
        if not raw:
            raise ToolFailure("The path is empty.")
        path = Path(raw).expanduser()
        if not path.is_absolute():
            path = self.workspace / path
        resolved = path.resolve()
        if not self.allow_outside and not resolved.is_relative_to(self.workspace):
            raise ToolFailure(
                f"{raw} is outside the workspace {self.workspace}; the user did not allow "
                "access to paths outside it."
            )
        return resolved

    def confines(self, path: Path) -> bool:
        """Whether a tree walk may use ``path``: it resolves (through every symlink) inside the
        workspace, or outside paths are allowed. The same rule as ``resolve``, for the files
        Glob and Grep find rather than the paths the model names."""
        if self.allow_outside:
            return True
        try:
            return path.resolve().is_relative_to(self.workspace)
        except (OSError, RuntimeError):  # a symlink loop, an unreadable component
            return False

    def display(self, path: Path) -> str:
        """``path`` relative to the workspace when inside it, else absolute."""
        if path.is_relative_to(self.workspace):
            return path.relative_to(self.workspace).as_posix() or "."
        return str(path)


def truncate(text: str, cap: int) -> str:
    """``text`` cut to ``cap`` characters with a marker saying how much was left out."""
    if len(text) <= cap:
        return text
    return text[:cap] + f"\n… [output truncated: {cap:,} of {len(text):,} characters shown]"


ArgsT = TypeVar("ArgsT", bound=ToolArgs)


class Tool(ABC, Generic[ArgsT]):
    """A built-in tool: name, protocol category, argument model and behaviour."""

    name: ClassVar[str]
    category: ClassVar[str]
    """``info``, ``edit`` or ``exec`` (the spec's category table)."""
    description: ClassVar[str]
    args_model: type[ArgsT]

    def parse(self, raw: dict[str, Any]) -> ArgsT:
        """Validate the model's arguments (raises pydantic ``ValidationError``)."""
        return self.args_model.model_validate(raw)

    def schema(self) -> dict[str, Any]:
        """JSON schema of the arguments, as providers want it."""
        schema = self.args_model.model_json_schema()
        schema.pop("title", None)
        return schema

    def check(self, args: ArgsT, ctx: ToolContext) -> None:
        """Refuse a call before anyone is asked to approve it (e.g. a path outside the
        workspace); raises ``ToolFailure``."""

    @abstractmethod
    def summary(self, args: ArgsT, ctx: ToolContext) -> str:
        """One line for the approval card (the ``tool_request`` description)."""

    @abstractmethod
    async def run(self, args: ArgsT, ctx: ToolContext) -> ToolOutput:
        """Do the work; raise ``ToolFailure`` for problems the model should hear about."""
