"""Images in prompts: which attached files are images, whether an agent takes them, and pasted
image data kept as files.

A prompt carries its images as file paths among its ``files`` (as attachments already did), so
the transcript and the history keep them with no new field. Each protocol adapter splits them
off (``split_images``) and sends them its own way where ``image_input`` says the agent takes
them: ACP image blocks (``promptCapabilities.image``), Codex ``localImage`` items, aionrs
``files`` unless ``image_input`` is ``unsupported``. Where the agent does not take them they are
not sent, and ``refused_images`` says so in the conversation.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from enum import StrEnum
from pathlib import Path
from typing import Any

from desktop.core.events import Notice
from desktop.core.texts import QT_TRANSLATE_NOOP

# The image types agents take (the ACP, Anthropic and OpenAI sets agree), by file suffix.
IMAGE_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
}
# Larger images are refused by the providers; the composer refuses them first.
MAX_IMAGE_BYTES = 20 * 1024 * 1024


class ImageInput(StrEnum):
    """Whether an agent takes images in a prompt."""

    TAKEN = "taken"
    REFUSED = "refused"
    # The agent does not say (aionrs ``image_input: unknown``, remote runtimes): sent, and the
    # agent answers for it.
    UNKNOWN = "unknown"


def image_type(path: str) -> str | None:
    """The MIME type of an image file by its suffix (None: not an image)."""
    return IMAGE_TYPES.get(Path(path).suffix.lower())


def split_images(files: Iterable[str]) -> tuple[list[str], list[str]]:
    """The images among ``files`` and the other files, each in their order."""
    images: list[str] = []
    others: list[str] = []
    for path in files:
        (images if image_type(path) else others).append(path)
    return images, others


def image_input(protocol: str, capabilities: Mapping[str, Any]) -> ImageInput:
    """Whether the agent of ``protocol`` takes images, from its ``AgentReady.capabilities``."""
    if protocol == "acp":
        prompt = capabilities.get("promptCapabilities")
        taken = isinstance(prompt, dict) and prompt.get("image") is True
        return ImageInput.TAKEN if taken else ImageInput.REFUSED  # not in ACP's baseline
    if protocol == "codex":
        return ImageInput.TAKEN  # turn/start's localImage item
    if protocol == "aionrs":
        said = capabilities.get("image_input")
        if said == "supported":
            return ImageInput.TAKEN
        if said == "unsupported":
            return ImageInput.REFUSED
    return ImageInput.UNKNOWN


def refused_images(images: list[str], turn_id: str | None) -> Notice:
    """The conversation's notice for images an agent does not take (not sent)."""
    said = QT_TRANSLATE_NOOP(
        "AgentNotice", "This agent does not take images; not sent: {names}"
    ).with_args(names=", ".join(Path(p).name for p in images))
    return Notice(turn_id=turn_id, level="warning", message=said.english, i18n=said)


def save_pasted(data: bytes, folder: Path, suffix: str = ".png") -> Path:
    """Keep pasted image data as a file named by its content (the same picture pasted twice is
    one file), so that the prompt, the transcript and the history can name it."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = folder / f"pasted-{hashlib.sha256(data).hexdigest()[:16]}{suffix}"
    if not path.exists():
        path.write_bytes(data)
    return path
