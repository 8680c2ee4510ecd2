"""Wires the ``@`` finder, the image chips and the ``/`` menu into one pane's composer.

The prompt keeps the keyboard: an event filter on it moves the popup (↑/↓), picks (Enter, Tab)
and closes it (Esc, which then does not stop the agent); Ctrl+V of image data attaches the
picture (saved as a file under the data folder, so history can show it). Sending adds the files
of the ``@`` tokens still in the prompt to its attachments (``Composer.file_sources``). Images
are refused with a notice in the composer once the agent says it takes none; before the agent
has started, its adapter refuses them at send time.
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QBuffer, QCoreApplication, QEvent, QIODevice, QObject, Qt
from PySide6.QtGui import QGuiApplication, QImage, QKeyEvent, QKeySequence, QTextCursor
from PySide6.QtWidgets import QVBoxLayout

from desktop.core.context.images import (
    MAX_IMAGE_BYTES,
    ImageInput,
    image_input,
    image_type,
    save_pasted,
)
from desktop.core.events import AgentReady, CommandsChanged
from desktop.ui.composer import Composer
from desktop.ui.composer_context.chips import AttachmentChips
from desktop.ui.composer_context.mentions import FileMentions, Spawn
from desktop.ui.composer_context.popup import ChoicePopup
from desktop.ui.composer_context.slash import SlashCommands
from desktop.ui.composer_context.tokens import Token, TokenHighlighter, token_at

log = logging.getLogger(__name__)

_PICK_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Tab)


class ComposerContext(QObject):
    """The composer's context features for one pane (``spawn``: its ``TaskScope.spawn``;
    ``pasted``: the folder that keeps pasted images)."""

    def __init__(self, composer: Composer, workspace: Path, spawn: Spawn, pasted: Path) -> None:
        super().__init__(composer)
        self.composer = composer
        self.editor = editor = composer.editor
        self._pasted = pasted
        self.images = ImageInput.UNKNOWN
        self.popup = ChoicePopup(composer)
        self.popup.picked.connect(self._picked)
        self.mentions = FileMentions(workspace, spawn, self._refresh)
        self.commands = SlashCommands()
        self.highlighter = TokenHighlighter(editor.document())
        self.highlighter.commands = self.commands.names()
        self.chips = AttachmentChips()
        self.chips.remove_requested.connect(composer.remove_file)
        host = editor.parentWidget()
        frame = host.layout() if host is not None else None
        assert isinstance(frame, QVBoxLayout)
        frame.insertWidget(frame.indexOf(editor), self.chips)
        composer.chips = self.chips
        composer.files_changed.connect(self._files_changed)
        composer.file_sources.append(self.mentions.files_in)
        self._token: Token | None = None
        self._shown: tuple[Token, bool] | None = None  # the token shown, with the file list?
        editor.installEventFilter(self)
        editor.textChanged.connect(self._refresh)
        editor.cursorPositionChanged.connect(self._refresh)

    # ------------------------------------------------------------------ agent
    def agent_ready(self, event: AgentReady) -> None:
        """Learn whether the agent takes images (and refuse the attached ones if not)."""
        self.images = image_input(event.protocol, event.capabilities)
        self._files_changed(list(self.composer.files))

    def commands_changed(self, event: CommandsChanged) -> None:
        """The agent's slash commands (all of them)."""
        self.commands.agent = list(event.commands)
        self._commands_offered()

    def models_offered(self, offered: bool) -> None:
        """Whether the agent offers models to choose from (``/model`` comes and goes with it)."""
        self.commands.models = offered
        self._commands_offered()

    def _commands_offered(self) -> None:
        self.highlighter.commands = self.commands.names()
        self.highlighter.rehighlight()
        self._refresh()

    # ------------------------------------------------------------------ images
    def _files_changed(self, files: list[str]) -> None:
        refused = [f for f in files if image_type(f) and self.images is ImageInput.REFUSED]
        large = [f for f in files if image_type(f) and _size(f) > MAX_IMAGE_BYTES]
        if refused or large:
            for path in refused + large:
                self.composer.remove_file(path)  # calls back with the rest
            names = ", ".join(Path(p).name for p in refused + large)
            if refused:
                said = QCoreApplication.translate(
                    "ComposerContext", "This agent does not take images; not attached: {0}"
                )
            else:
                said = QCoreApplication.translate(
                    "ComposerContext", "Images larger than 20 MB are not sent; not attached: {0}"
                )
            self.chips.say(said.format(names))
            return
        self.chips.show_files(files)
        if files:
            self.chips.say("")

    def paste_image(self, image: QImage) -> Path | None:
        """Attach pasted image data (saved as a PNG file named by its content)."""
        buffer = QBuffer()
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        saved: bool = image.save(buffer, "PNG")  # type: ignore[call-overload]  # stub: bytes
        if not saved:
            return None
        try:
            path = save_pasted(bytes(buffer.data().data()), self._pasted)
        except OSError:
            log.warning("could not keep a pasted image in %s", self._pasted, exc_info=True)
            self.chips.say(
                QCoreApplication.translate("ComposerContext", "The pasted image could not be saved")
            )
            return None
        self.composer.add_files([str(path)])
        return path

    # ------------------------------------------------------------------ popup
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is not self.editor or event.type() != QEvent.Type.KeyPress:
            return False
        assert isinstance(event, QKeyEvent)
        if self.popup.isVisible():
            key = event.key()
            if key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
                self.popup.step(-1 if key == Qt.Key.Key_Up else 1)
                return True
            if key in _PICK_KEYS and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                self.popup.pick()
                return True
            if key == Qt.Key.Key_Escape:
                self._close()
                return True
        if event.matches(QKeySequence.StandardKey.Paste):
            data = QGuiApplication.clipboard().mimeData()
            if data is not None and data.hasImage() and not data.hasUrls():
                image = QImage(data.imageData())
                if not image.isNull():
                    self.paste_image(image)
                    return True
        return False

    def _close(self) -> None:
        self._token = self._shown = None
        self.popup.hide()

    def _refresh(self) -> None:
        """Open, update or close the popup for the word at the cursor."""
        cursor = self.editor.textCursor()
        text = self.editor.toPlainText()
        token = None if cursor.hasSelection() else token_at(text, cursor.position())
        if token is None:
            self._close()
            return
        if token.kind == "@":
            if self._token is None or self._token.kind != "@":
                self.mentions.opened()
            source: FileMentions | SlashCommands = self.mentions
        else:
            source = self.commands
        shown = (token, source is self.mentions and self.mentions.index is not None)
        if shown == self._shown and self.popup.isVisible():
            return  # the cursor moved with the text: already shown
        self._token, self._shown = token, shown
        self.popup.show_choices(source.heading(), source.choices(token.query))

    def run_desk(self, name: str) -> None:
        """Run Agent Desk's command ``name``: the mode panel, or a new conversation."""
        if name == "mode":
            self.composer.mode.click()
            return
        if name == "model":
            status = getattr(self.composer.window(), "status", None)
            opener = getattr(status, "open_model_menu", None)
            if callable(opener):
                opener()
            return
        new = getattr(self.composer.window(), "new_conversation", None)
        if callable(new):
            new()

    def _picked(self, key: str) -> None:
        token = self._token
        if token is None:
            return
        cursor = self.editor.textCursor()
        end = cursor.position()
        cursor.setPosition(token.start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        if token.kind == "@":
            text = self.mentions.pick(key)
            self.highlighter.mentions.add(key)
            cursor.insertText(text + " ")
            self._close()
            return
        picked = self.commands.pick(key)
        self._close()
        if picked.desk is not None:
            cursor.removeSelectedText()
            self.run_desk(picked.desk)
            return
        cursor.insertText(picked.text)
        if picked.send:
            self.composer.send.click()


def _size(path: str) -> int:
    try:
        return Path(path).stat().st_size
    except OSError:
        return 0
