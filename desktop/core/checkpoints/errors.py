"""The checkpoint store's errors (a sentence for the user, ``message``, plus diagnostics) and the
sentences that say why a checkpoint is incomplete (``Checkpoint.problem``, translatable)."""

from __future__ import annotations

from desktop.core.texts import QT_TRANSLATE_NOOP, CoreText


def workspace_gone() -> CoreText:
    """The workspace folder no longer exists."""
    return QT_TRANSLATE_NOOP(
        "Checkpoints", "The workspace folder is gone, so its state could not be recorded."
    )


def disk_full() -> CoreText:
    """No room for the checkpoint's objects."""
    return QT_TRANSLATE_NOOP(
        "Checkpoints", "The disk is full, so the workspace's state could not be recorded."
    )


def not_recorded() -> CoreText:
    """Any other failure to record."""
    return QT_TRANSLATE_NOOP("Checkpoints", "The workspace's state could not be recorded.")


def unreadable(names: str) -> CoreText:
    """Files that could not be read (``names``: the first few, comma-separated)."""
    text = QT_TRANSLATE_NOOP(
        "Checkpoints", "Some files could not be read and were left as last recorded: {names}."
    )
    return text.with_args(names=names)


def incomplete_notice(problem: CoreText) -> CoreText:
    """The notice told once per conversation about an incomplete checkpoint."""
    text = QT_TRANSLATE_NOOP("Checkpoints", "Checkpoints: {problem}")
    return text.with_args(problem=problem)


class CheckpointError(Exception):
    """A checkpoint operation cannot be done; ``message`` says why to the user, ``str(e)``
    carries the diagnostics."""

    def __init__(self, message: str, details: str = "") -> None:
        super().__init__(f"{message} ({details})" if details else message)
        self.message = message


class NothingToUndo(CheckpointError):
    """There is no restore of the conversation to undo."""
