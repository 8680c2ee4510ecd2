"""Settings → "Test connection": one tiny streamed request with the official client.

The request asks for a single token (``max_tokens=1``) at the profile's base URL with the key
being tested, and reads the short streamed reply to its end: enough to prove the endpoint,
the model and the key, at a cost of one token. Errors become one sentence for the user, and the
key is scrubbed from anything the client put into its message.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QCoreApplication

PING: Any = [{"role": "user", "content": "ping"}]


@dataclass(frozen=True)
class ConnectionResult:
    """What the test found; ``message`` is shown next to the button."""

    ok: bool
    message: str


def _scrub(text: str, key: str) -> str:
    return text.replace(key, "•" * 8) if key else text


def _api_message(exc: Exception) -> str:
    """The API's own error sentence when the body has one (``{"error": {"message": ...}}``)."""
    body = getattr(exc, "body", None)
    error = body.get("error", body) if isinstance(body, dict) else None
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        return str(error["message"])
    return str(getattr(exc, "message", None) or exc)


def _explain(exc: Exception, url: str) -> str:
    import anthropic
    import openai

    status = getattr(exc, "status_code", None)
    body = _api_message(exc)
    if isinstance(exc, anthropic.AuthenticationError | openai.AuthenticationError):
        return QCoreApplication.translate(
            "Connection", "The key was rejected (HTTP 401): {body}"
        ).format(body=body)
    if isinstance(exc, anthropic.PermissionDeniedError | openai.PermissionDeniedError):
        return QCoreApplication.translate(
            "Connection", "The key may not use this model (HTTP 403): {body}"
        ).format(body=body)
    if isinstance(exc, anthropic.NotFoundError | openai.NotFoundError):
        return QCoreApplication.translate(
            "Connection", "Not found (HTTP 404): check the base URL and the model. {body}"
        ).format(body=body)
    if isinstance(exc, anthropic.APITimeoutError | openai.APITimeoutError):
        return QCoreApplication.translate("Connection", "{url} did not answer in time.").format(
            url=url
        )
    if isinstance(exc, anthropic.APIConnectionError | openai.APIConnectionError):
        return QCoreApplication.translate(
            "Connection", "Could not connect to {url}: {reason}"
        ).format(url=url, reason=exc.__cause__ or exc)
    if status is not None:
        return QCoreApplication.translate(
            "Connection", "The API answered HTTP {status}: {body}"
        ).format(status=status, body=body)
    return QCoreApplication.translate("Connection", "The test failed: {kind}: {exc}").format(
        kind=type(exc).__name__, exc=exc
    )


async def _anthropic(key: str, model: str, base_url: str | None, timeout: float) -> None:
    import anthropic

    client = anthropic.AsyncAnthropic(
        api_key=key, base_url=base_url or None, max_retries=0, timeout=timeout
    )
    async with client:
        stream: Any = await client.messages.create(
            model=model, max_tokens=1, messages=PING, stream=True
        )
        async with stream:
            async for _event in stream:
                pass  # one token: a few events; read to the end so the connection closes cleanly


async def _openai(key: str, model: str, base_url: str | None, timeout: float) -> None:
    import openai

    client = openai.AsyncOpenAI(
        api_key=key, base_url=base_url or None, max_retries=0, timeout=timeout
    )
    async with client:
        stream: Any = await client.chat.completions.create(
            model=model, max_tokens=1, messages=PING, stream=True
        )
        async with stream:
            async for _chunk in stream:
                pass


async def check_connection(
    provider: str, model: str, key: str, base_url: str | None = None, timeout: float = 20.0
) -> ConnectionResult:
    """Send one tiny request; never raises (failures are a result with a message).

    Args:
        provider: ``anthropic`` or ``openai``.
        model: The model id to ask.
        key: The API key to test (never put into the message).
        base_url: The endpoint; ``None`` for the provider's default.
        timeout: Seconds for the whole request.
    """
    default = "https://api.anthropic.com" if provider == "anthropic" else "https://api.openai.com"
    url = base_url or default
    send = _anthropic if provider == "anthropic" else _openai
    try:
        await send(key, model, base_url, timeout)
    except Exception as exc:  # noqa: BLE001 - every failure becomes a sentence for the user
        return ConnectionResult(False, _scrub(_explain(exc, url), key))
    return ConnectionResult(
        True,
        QCoreApplication.translate(
            "Connection", "Connected to {url}: the key and model {model} work."
        ).format(url=url, model=model),
    )
