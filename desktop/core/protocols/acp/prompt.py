"""An ACP ``session/prompt``'s content blocks from a ``Prompt``: text, images, files.

Every ACP agent takes text and resource links (the protocol's baseline). Images go as image
blocks (base64 data) only where ``promptCapabilities.image`` is true, and are refused otherwise
(the adapter says so in the conversation). Other files, from the Attach button or an ``@``
mention, go as embedded text resources where ``promptCapabilities.embeddedContext`` is true and
the file is UTF-8 text of at most ``EMBED_LIMIT`` bytes, else as resource links the agent reads
itself. Reads files: call it off the event loop.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from acp.schema import (
    AudioContentBlock,
    EmbeddedResourceContentBlock,
    ImageContentBlock,
    ResourceContentBlock,
    TextContentBlock,
    TextResourceContents,
)

from desktop.core.backend import Prompt
from desktop.core.context.images import MAX_IMAGE_BYTES, image_type

#: Larger text files go as links, not embedded (a prompt stays a reasonable size).
EMBED_LIMIT = 256 * 1024

#: The blocks of ``session/prompt`` (audio is never sent, but the list type says it may be).
Block = (
    TextContentBlock
    | ImageContentBlock
    | AudioContentBlock
    | ResourceContentBlock
    | EmbeddedResourceContentBlock
)


def _embedded(path: Path, uri: str) -> EmbeddedResourceContentBlock | None:
    try:
        if path.stat().st_size > EMBED_LIMIT:
            return None
        text = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return EmbeddedResourceContentBlock(
        type="resource", resource=TextResourceContents(uri=uri, text=text, mime_type="text/plain")
    )


def _image(path: Path, mime: str, uri: str) -> ImageContentBlock | None:
    try:
        if path.stat().st_size > MAX_IMAGE_BYTES:
            return None
        data = base64.b64encode(path.read_bytes()).decode("ascii")
    except OSError:
        return None
    return ImageContentBlock(type="image", data=data, mime_type=mime, uri=uri)


def prompt_blocks(prompt: Prompt, capabilities: Mapping[str, Any]) -> tuple[list[Block], list[str]]:
    """The blocks of ``prompt`` for an agent with these ``agentCapabilities``, and the images
    it does not take (not sent)."""
    taken = capabilities.get("promptCapabilities")
    caps: Mapping[str, Any] = taken if isinstance(taken, dict) else {}
    blocks: list[Block] = [TextContentBlock(type="text", text=prompt.text)]
    refused: list[str] = []
    for name in prompt.files:
        path = Path(name)
        uri = path.resolve().as_uri() if path.is_absolute() else path.as_posix()
        mime = image_type(name)
        if mime is not None:
            image = _image(path, mime, uri) if caps.get("image") is True else None
            if image is None:
                refused.append(name)
            else:
                blocks.append(image)
            continue
        embedded = _embedded(path, uri) if caps.get("embeddedContext") is True else None
        blocks.append(
            embedded or ResourceContentBlock(type="resource_link", uri=uri, name=path.name or name)
        )
    return blocks, refused
