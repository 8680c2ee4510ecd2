"""Sentences the Qt-free core says to users, in a form the window can translate.

The core stays English and Qt-free: an event keeps its English ``message`` (logs, ``agentdesk
exec``, the history and other front ends read that), and where the window shows it, it may also
carry a ``CoreText``: the catalogue context, the English source text and its ``{name}``
arguments. The window translates it with ``QCoreApplication.translate(context, source)`` and
fills in the arguments (``desktop.ui.i18n.core_text``).

``QT_TRANSLATE_NOOP("Context", "Source {name}.")`` makes one; ``pyside6-lupdate`` recognises the
call by its name and files the source under the context, so
``packaging/translations.py update`` puts every core sentence in the catalogue. The call takes
exactly those two literals (lupdate skips a call with more arguments); arguments follow with
``.with_args(name=value)``. An argument is user data (a path, a name, stderr) shown as it is, or
itself a ``CoreText`` translated in its turn ("exit code 1" inside "the agent exited (…)").
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class CoreText(BaseModel):
    """A translatable sentence: catalogue ``context``, English ``source``, its arguments."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    context: str
    source: str
    args: dict[str, str | CoreText] = Field(default_factory=dict)

    def with_args(self, **args: object) -> CoreText:
        """This sentence with ``args`` for its ``{name}`` fields (each a ``CoreText`` or shown
        as ``str(value)``, never translated)."""
        given = {k: v if isinstance(v, CoreText) else str(v) for k, v in args.items()}
        return self.model_copy(update={"args": {**self.args, **given}})

    @property
    def english(self) -> str:
        """The sentence in English, arguments filled in (what ``message`` fields hold)."""
        args = {k: v.english if isinstance(v, CoreText) else v for k, v in self.args.items()}
        return self.source.format(**args)


def QT_TRANSLATE_NOOP(context: str, source: str) -> CoreText:
    """The sentence ``source`` of catalogue ``context``, marked for ``pyside6-lupdate``."""
    return CoreText(context=context, source=source)
