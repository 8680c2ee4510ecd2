"""Opening gRPC channels to a runtime, and turning gRPC failures into sentences.

Channel options follow the deployed runtime's limits: keepalive no more often than every 15 s
(it answers faster pings with GOAWAY ``too_many_pings``), 4 MiB messages both ways, and a short
reconnect backoff so a restarted runtime is found again quickly.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import grpc
import grpc.aio

from desktop.core.remote.config import MIN_KEEPALIVE_SECONDS, RemoteRuntimeConfig, TlsMode

#: The runtime's (and gRPC's default) receive limit.
MAX_MESSAGE_BYTES = 4 * 1024 * 1024
CONVERSE_METHOD = "/crawbl.agentruntime.v1.AgentRuntime/Converse"


class ChannelConfigError(Exception):
    """A certificate or key file of the configuration cannot be read."""


def _read(path: Path | None, what: str) -> bytes | None:
    if path is None:
        return None
    try:
        return path.expanduser().read_bytes()
    except OSError as exc:
        raise ChannelConfigError(f"cannot read the {what} {path}: {exc.strerror or exc}") from exc


def channel_options(config: RemoteRuntimeConfig) -> list[tuple[str, int | str]]:
    """gRPC channel arguments for ``config``."""
    keepalive_ms = int(max(MIN_KEEPALIVE_SECONDS, config.keepalive_seconds) * 1000)
    options: list[tuple[str, int | str]] = [
        ("grpc.keepalive_time_ms", keepalive_ms),
        ("grpc.keepalive_timeout_ms", 10_000),
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.max_pings_without_data", 0),
        ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
        ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
        ("grpc.initial_reconnect_backoff_ms", 250),
        ("grpc.min_reconnect_backoff_ms", 250),
        ("grpc.max_reconnect_backoff_ms", 10_000),
        ("grpc.enable_retries", 0),  # a turn is never replayed behind the user's back
    ]
    if config.tls_server_name:
        options.append(("grpc.ssl_target_name_override", config.tls_server_name))
    return options


def open_channel(config: RemoteRuntimeConfig) -> grpc.aio.Channel:
    """A new channel to the runtime (plaintext, TLS, or mutual TLS as configured).

    Raises:
        ChannelConfigError: a configured certificate or key file cannot be read.
    """
    options = channel_options(config)
    if config.tls == TlsMode.OFF:
        return grpc.aio.insecure_channel(config.address, options=options)
    roots = _read(config.ca_file, "CA file") if config.tls == TlsMode.CUSTOM_CA else None
    credentials = grpc.ssl_channel_credentials(
        root_certificates=roots,
        private_key=_read(config.client_key_file, "client key file"),
        certificate_chain=_read(config.client_cert_file, "client certificate file"),
    )
    return grpc.aio.secure_channel(config.address, credentials, options=options)


@dataclass(frozen=True)
class Failure:
    """A gRPC failure explained for the user."""

    code: str
    message: str
    retryable: bool
    #: The connection should be dropped and a new one made for the next turn.
    reconnect: bool = False


def explain(status: grpc.StatusCode, details: str | None, address: str) -> Failure:
    """Turn a gRPC status into a message a user can act on."""
    detail = (details or "").strip() or "no details"
    if status == grpc.StatusCode.UNAUTHENTICATED:
        return Failure(
            "remote_unauthenticated",
            f"The runtime at {address} rejected the signing key ({detail}). Check the key stored "
            "for this agent, the user and workspace ids, and this computer's clock (tokens are "
            "valid for 5 minutes either side).",
            retryable=False,
        )
    if status == grpc.StatusCode.PERMISSION_DENIED:
        return Failure(
            "remote_permission_denied",
            f"The runtime at {address} refused access ({detail}).",
            retryable=False,
        )
    if status == grpc.StatusCode.UNAVAILABLE:
        return Failure(
            "remote_unavailable",
            f"Cannot reach the runtime at {address} ({detail}).",
            retryable=True,
            reconnect=True,
        )
    if status == grpc.StatusCode.RESOURCE_EXHAUSTED:
        return Failure(
            "remote_message_too_large",
            f"A message to or from the runtime at {address} was over the "
            f"{MAX_MESSAGE_BYTES // (1024 * 1024)} MiB limit or the runtime is overloaded "
            f"({detail}).",
            retryable=False,
        )
    if status == grpc.StatusCode.UNIMPLEMENTED:
        return Failure(
            "remote_unimplemented",
            f"The server at {address} is not an Agent Runtime (Converse is not implemented).",
            retryable=False,
        )
    if status == grpc.StatusCode.DEADLINE_EXCEEDED:
        return Failure(
            "remote_timeout",
            f"The runtime at {address} did not answer in time ({detail}).",
            retryable=True,
        )
    return Failure(
        "remote_" + status.name.lower(),
        f"The runtime at {address} failed: {status.name} ({detail}).",
        retryable=status in (grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN),
        reconnect=status == grpc.StatusCode.INTERNAL,
    )
