"""``fs/read_text_file`` and ``fs/write_text_file`` served inside the workspace only.

Reads outside the workspace are refused; a missing file is ACP's ``-32002`` "Resource not found".
Writes never happen directly: the caller turns the write into an approval card with the host's
diff first, and ``write`` runs only after approval.
"""

from __future__ import annotations

from pathlib import Path

from acp.exceptions import RequestError

from desktop.core.atomic_file import atomic_write
from desktop.core.events import ToolPreview
from desktop.core.previews import resolve_path, unified_diff

RESOURCE_NOT_FOUND = -32002


class WorkspaceFiles:
    """The workspace as seen by an ACP agent."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace.resolve()

    def _inside(self, raw: str) -> Path:
        path, outside = resolve_path(self.workspace, raw)
        if outside:
            raise RequestError.invalid_params(
                {"details": f"{raw} is outside the workspace {self.workspace}"}
            )
        return path

    def read(self, raw: str, line: int | None = None, limit: int | None = None) -> str:
        """The file's text (``line`` is 1-based), or ACP's resource-not-found error."""
        path = self._inside(raw)
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            raise RequestError(
                RESOURCE_NOT_FOUND, f"Resource not found: {raw}", {"uri": raw}
            ) from None
        except OSError as exc:
            raise RequestError.internal_error({"details": str(exc)}) from exc
        if line is None and limit is None:
            return text
        lines = text.splitlines(keepends=True)
        start = max(0, (line or 1) - 1)
        end = start + limit if limit is not None else None
        return "".join(lines[start:end])

    def preview_write(self, raw: str, content: str) -> ToolPreview:
        """The approval card's diff for writing ``content`` to ``raw``."""
        path = self._inside(raw)
        old = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None
        label = str(path.relative_to(self.workspace))
        return ToolPreview(
            kind="diff",
            text=unified_diff(old or "", content, label),
            paths=[str(path)],
            new_file=old is None,
        )

    def write(self, raw: str, content: str) -> None:
        """Write atomically (after approval)."""
        atomic_write(self._inside(raw), content, mode=None)
