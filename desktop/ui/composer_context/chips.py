"""Attachment chips above the prompt (a thumbnail for an image, the name for another file, ✕ to
remove it) and the thumbnails of a sent prompt's images in the transcript.

The chips also carry the composer's notice: why an image was not attached (the agent does not
take images, the file is too large or unreadable).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QImageReader, QPixmap
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from desktop.core.context.images import image_type
from desktop.ui.theme import follow, set_role

# The side of a chip's thumbnail and of a transcript thumbnail, in pixels.
CHIP_PX, TRANSCRIPT_PX = 36, 120

_SHEET = """
QFrame[role="attachmentChip"] {{ background: {window}; border: 1px solid {border};
    border-radius: 8px; }}
QFrame[role="attachmentChip"] QLabel {{ background: transparent; }}
QFrame[role="attachmentChip"] QToolButton {{ color: {muted}; padding: 0 4px; }}
QLabel[role="thumb"] {{ border: 1px solid {border}; border-radius: 6px; background: {window}; }}
"""


def thumbnail(path: str, side: int) -> QPixmap | None:
    """The image at ``path`` scaled to fit ``side`` × ``side`` pixels (None: unreadable)."""
    reader = QImageReader(path)
    reader.setAutoTransform(True)
    size = reader.size()
    if size.isValid():
        reader.setScaledSize(size.scaled(QSize(side, side), Qt.AspectRatioMode.KeepAspectRatio))
    image = reader.read()
    return None if image.isNull() else QPixmap.fromImage(image)


class AttachmentChips(QWidget):
    """The next prompt's attachments as chips, and the composer's notice.

    Signals:
        remove_requested(str): the ✕ of a chip was clicked (its file's path).
    """

    remove_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("attachmentChips")
        follow(self, _SHEET)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(4)
        self._row = QHBoxLayout()
        self._row.setContentsMargins(0, 0, 0, 0)
        self._row.setSpacing(6)
        self._row.addStretch(1)
        outer.addLayout(self._row)
        self.notice = QLabel()
        self.notice.setWordWrap(True)
        set_role(self.notice, "message", polished=False, level="warning")
        self.notice.hide()
        outer.addWidget(self.notice)
        self.chips: dict[str, QFrame] = {}
        self.hide()

    def show_files(self, files: list[str]) -> None:
        """One chip per file, in order."""
        for path in list(self.chips):
            if path not in files:
                self.chips.pop(path).deleteLater()
        for position, path in enumerate(files):
            if path not in self.chips:
                self.chips[path] = self._chip(path)
            self._row.insertWidget(position, self.chips[path])
        self._fit()

    def say(self, text: str) -> None:
        """Show a notice (empty: none)."""
        self.notice.setText(text)
        self.notice.setVisible(bool(text))
        self._fit()

    def _fit(self) -> None:
        self.setVisible(bool(self.chips) or self.notice.isVisibleTo(self))

    def _chip(self, path: str) -> QFrame:
        chip = QFrame()
        set_role(chip, "attachmentChip", polished=False)
        chip.setToolTip(path)
        layout = QHBoxLayout(chip)
        layout.setContentsMargins(4, 3, 2, 3)
        layout.setSpacing(4)
        name = Path(path).name
        picture = thumbnail(path, CHIP_PX) if image_type(path) else None
        if picture is not None:
            thumb = QLabel()
            thumb.setPixmap(picture)
            thumb.setObjectName("chipThumbnail")
            layout.addWidget(thumb)
        label = QLabel(name if picture is None else _short(name))
        label.setObjectName("chipName")
        layout.addWidget(label)
        remove = QToolButton()
        remove.setText("✕")
        remove.setObjectName("chipRemove")
        remove.setAccessibleName(self.tr("Remove {0}").format(name))
        remove.setToolTip(self.tr("Remove {0} from the next prompt").format(name))
        remove.clicked.connect(lambda: self.remove_requested.emit(path))
        layout.addWidget(remove)
        chip.setAccessibleName(self.tr("Attached: {0}").format(name))
        return chip


def _short(name: str, limit: int = 18) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


class ImageThumbs(QWidget):
    """A sent prompt's images as thumbnails (in the transcript and in reopened history); an
    image file that is gone is named instead."""

    def __init__(self, images: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("promptImages")
        follow(self, _SHEET)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 2)
        layout.setSpacing(6)
        for path in images:
            picture = thumbnail(path, TRANSCRIPT_PX)
            label = QLabel()
            if picture is None:
                label.setText(self.tr("{0} (missing)").format(Path(path).name))
                set_role(label, "muted", polished=False)
            else:
                label.setPixmap(picture)
                set_role(label, "thumb", polished=False)
            label.setToolTip(path)
            label.setAccessibleName(self.tr("Image: {0}").format(Path(path).name))
            layout.addWidget(label)
        layout.addStretch(1)
