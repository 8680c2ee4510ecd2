"""Files attached to a message: images go to the model as images, text files inline.

Anything else (missing, too large, binary) is skipped with a note to the host, never an error
that would lose the message.
"""

from __future__ import annotations

import base64
import mimetypes
from dataclasses import dataclass, field
from pathlib import Path

from desktop.agent.history import Image, UserEntry

MAX_IMAGE_BYTES = 5 * 1024 * 1024
MAX_TEXT_BYTES = 256 * 1024
_IMAGE_TYPES = {"image/png", "image/jpeg", "image/gif", "image/webp"}


@dataclass
class Prepared:
    """The user entry and the attachments that could not be used."""

    entry: UserEntry
    problems: list[str] = field(default_factory=list)


def user_entry(text: str, files: list[str], workspace: Path) -> Prepared:
    """The user entry for ``text`` plus ``files`` (paths relative to the workspace allowed)."""
    prepared = Prepared(UserEntry(text=text))
    for raw in files:
        path = Path(raw).expanduser()
        if not path.is_absolute():
            path = workspace / path
        media_type = mimetypes.guess_type(path.name)[0] or ""
        try:
            size = path.stat().st_size
            if media_type in _IMAGE_TYPES:
                if size > MAX_IMAGE_BYTES:
                    prepared.problems.append(f"Attachment {raw} is too large ({size:,} bytes).")
                    continue
                data = base64.b64encode(path.read_bytes()).decode()
                prepared.entry.images.append(Image(media_type=media_type, data=data))
                continue
            if size > MAX_TEXT_BYTES:
                prepared.problems.append(f"Attachment {raw} is too large ({size:,} bytes).")
                continue
            content = path.read_bytes().decode("utf-8")
        except OSError as exc:
            prepared.problems.append(f"Attachment {raw} cannot be read: {exc.strerror or exc}.")
            continue
        except UnicodeDecodeError:
            prepared.problems.append(f"Attachment {raw} is neither an image nor UTF-8 text.")
            continue
        prepared.entry.text += f"\n\nAttached file {raw}:\n```\n{content}\n```"
    return prepared
