"""Diff viewer: unified and side-by-side views with syntax and intra-line highlighting."""

from desktop.ui.diff.view import TOGGLE_SHORTCUT, DiffView

__all__ = ["TOGGLE_SHORTCUT", "DiffView"]
