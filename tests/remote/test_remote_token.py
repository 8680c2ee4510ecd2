"""Token format: the deployed runtime's vectors, and its validation rules in the test server."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re

import pytest

from desktop.core.remote.token import TokenError, authorization_metadata, sign_token
from tests.fakes.runtime_server import TokenInvalid, verify_token

VECTOR_KEY = b"test-signing-key-32bytes-long!!!"
VECTOR_TOKEN = (
    "dXNlci1hYmMtMTIzOndzLWRlZi00NTY6MTcwMDAwMDAwMA."
    "7b91d1e98b65c4cea8638123c15d1d04c9cc5f0af6a825ab8949c8529b432597"
)
T0 = 1_700_000_000


def test_reference_vectors_reproduce_byte_for_byte() -> None:
    assert sign_token(VECTOR_KEY, "user-abc-123", "ws-def-456", now=T0) == VECTOR_TOKEN
    assert sign_token("k", "a", "b", now=T0) == (
        "YTpiOjE3MDAwMDAwMDA.0eb9b1e45228ea4d53253c9bf2c236364140b4019f5456d553c349dda4399e0c"
    )
    assert authorization_metadata(VECTOR_TOKEN) == (("authorization", f"Bearer {VECTOR_TOKEN}"),)


def test_fresh_token_uses_the_current_time_without_padding_in_lowercase_hex() -> None:
    # "u:w:<10 digits>" is 14 bytes, which base64 would pad: the payload must not be.
    token = sign_token(b"key", "u", "w", now=T0 + 1)
    payload, signature = token.split(".")
    assert "=" not in payload
    assert re.fullmatch(r"[0-9a-f]{64}", signature)
    assert base64.urlsafe_b64decode(payload + "==") == b"u:w:1700000001"
    assert sign_token(b"key", "u", "w", now=T0 + 2) != token


@pytest.mark.parametrize(
    ("user", "workspace"), [("a:b", "ws"), ("u", "w:s"), ("", "ws"), ("u", "")]
)
def test_ids_that_cannot_be_carried_are_refused_before_sending(user: str, workspace: str) -> None:
    with pytest.raises(TokenError):
        sign_token(b"key", user, workspace, now=T0)


@pytest.mark.parametrize("now", [T0, T0 + 300, T0 - 300])
def test_server_accepts_the_vector_within_the_skew(now: int) -> None:
    assert verify_token(VECTOR_KEY, VECTOR_TOKEN, now) == ("user-abc-123", "ws-def-456")


def test_server_accepts_an_uppercase_signature() -> None:
    payload, signature = VECTOR_TOKEN.split(".")
    assert verify_token(VECTOR_KEY, f"{payload}.{signature.upper()}", T0) == (
        "user-abc-123",
        "ws-def-456",
    )


def _signed(payload: str, key: bytes = VECTOR_KEY) -> str:
    return payload + "." + hmac.new(key, payload.encode(), hashlib.sha256).hexdigest()


@pytest.mark.parametrize(
    ("token", "now", "reason"),
    [
        (VECTOR_TOKEN, T0 + 301, "token expired"),
        (VECTOR_TOKEN, T0 - 301, "token expired"),
        ("", T0, "invalid token format"),
        ("no-dot", T0, "invalid token format"),
        (".", T0, "invalid token signature"),
        (".sig", T0, "invalid token signature"),
        (VECTOR_TOKEN.split(".")[0] + ".", T0, "invalid token signature"),
        (
            VECTOR_TOKEN[:-1] + ("0" if VECTOR_TOKEN[-1] != "0" else "1"),
            T0,
            "invalid token signature",
        ),
        (
            sign_token(b"another key", "user-abc-123", "ws-def-456", now=T0),
            T0,
            "invalid token signature",
        ),
        # A correctly signed but padded payload is still refused.
        (
            _signed(base64.urlsafe_b64encode(b"u:w:1700000000").decode()),
            T0,
            "invalid token payload",
        ),
        (
            _signed(base64.urlsafe_b64encode(b"u:w:x:1700000000").decode().rstrip("=")),
            T0,
            "invalid token timestamp",
        ),
        (
            _signed(base64.urlsafe_b64encode(b"u:w:1_700_000_000").decode().rstrip("=")),
            T0,
            "invalid token timestamp",
        ),
        (
            _signed(base64.urlsafe_b64encode(b"u::1700000000").decode().rstrip("=")),
            T0,
            "invalid token payload",
        ),
    ],
)
def test_server_rejects_bad_tokens(token: str, now: int, reason: str) -> None:
    with pytest.raises(TokenInvalid, match=reason):
        verify_token(VECTOR_KEY, token, now)


def test_seed_style_token_is_rejected() -> None:
    seed = hmac.new(VECTOR_KEY, b"user-abc-123:ws-def-456", hashlib.sha256).hexdigest()
    with pytest.raises(TokenInvalid):
        verify_token(VECTOR_KEY, seed, T0)
