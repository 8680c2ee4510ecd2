"""Diff viewer: unified and side-by-side views with syntax and intra-line highlighting."""

from desktop.ui.diff.view import REVIEW_SHORTCUT, TOGGLE_SHORTCUT, WRAP_SHORTCUT, DiffView

__all__ = ["REVIEW_SHORTCUT", "TOGGLE_SHORTCUT", "WRAP_SHORTCUT", "DiffView"]
