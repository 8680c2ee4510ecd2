"""The checkpoint store's errors: a sentence for the user (``message``) plus diagnostics."""

from __future__ import annotations


class CheckpointError(Exception):
    """A checkpoint operation cannot be done; ``message`` says why to the user, ``str(e)``
    carries the diagnostics."""

    def __init__(self, message: str, details: str = "") -> None:
        super().__init__(f"{message} ({details})" if details else message)
        self.message = message


class NothingToUndo(CheckpointError):
    """There is no restore of the conversation to undo."""
