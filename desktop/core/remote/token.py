"""Bearer tokens in the format the deployed Agent Runtime verifies.

The deployed runtime (not the contract document) is authoritative: the token is
``base64url_nopad("user:workspace:unix_seconds") + "." + hex(HMAC-SHA256(key, <that base64
text>))`` and is valid for ±300 s around the runtime's clock. The HMAC covers the *base64 text*,
not the decoded bytes. A fresh token is made for every stream, because the runtime checks it
only when a stream opens.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import time

#: Seconds of clock skew the runtime accepts in either direction.
TOKEN_VALIDITY_SECONDS = 300


class TokenError(ValueError):
    """The ids cannot be put in a token (empty, or containing ``:``)."""


def _check_id(label: str, value: str) -> None:
    if not value:
        raise TokenError(f"the {label} is empty")
    if ":" in value:
        # The runtime splits the payload at ':', so such a token would always be rejected.
        raise TokenError(f"the {label} {value!r} contains ':', which the runtime cannot accept")


def sign_token(
    key: bytes | str, user_id: str, workspace_id: str, *, now: float | None = None
) -> str:
    """Make a token for ``user_id`` in ``workspace_id`` signed with ``key``.

    Raises:
        TokenError: an id is empty or contains ``:``.
    """
    _check_id("user id", user_id)
    _check_id("workspace id", workspace_id)
    secret = key.encode("utf-8") if isinstance(key, str) else key
    stamp = int(time.time() if now is None else now)
    text = f"{user_id}:{workspace_id}:{stamp}".encode()
    payload = base64.urlsafe_b64encode(text).rstrip(b"=")
    signature = hmac.new(secret, payload, hashlib.sha256).hexdigest()
    return payload.decode("ascii") + "." + signature


def authorization_metadata(token: str) -> tuple[tuple[str, str]]:
    """The gRPC metadata that carries ``token`` (the runtime rejects a bare token)."""
    return (("authorization", "Bearer " + token),)
