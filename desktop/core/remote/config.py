"""Settings of one remote Agent Runtime (the backend factory built from them is
``desktop.core.launch.factory.make_remote_factory``).

The signing key is deliberately not part of the model: it lives in the OS keyring (service
``agentdesk``, user name = the agent's name) and the caller reads it and passes it to
``make_remote_factory``, so a settings file can never leak it.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Self

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

#: The runtime's default port.
DEFAULT_PORT = 42618
#: gRPC servers (the runtime too) answer pings more often than this with GOAWAY too_many_pings.
MIN_KEEPALIVE_SECONDS = 15.0


class TlsMode(StrEnum):
    """How the connection to the runtime is secured."""

    OFF = "off"  # plaintext, as inside a cluster
    SYSTEM = "system"  # TLS, server verified against the system/bundled roots
    CUSTOM_CA = "custom_ca"  # TLS, server verified against ``ca_file``


class RemoteRuntimeConfig(BaseModel):
    """A remote Agent Runtime as stored in Settings (the ``remote`` agent kind)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    address: str = Field(description="HOST:PORT of the runtime (port 42618 by default).")
    tls: TlsMode = TlsMode.OFF
    ca_file: Path | None = Field(default=None, description="PEM roots for tls=custom_ca.")
    client_cert_file: Path | None = Field(default=None, description="PEM client certificate.")
    client_key_file: Path | None = Field(default=None, description="PEM client private key.")
    tls_server_name: str | None = Field(
        default=None, description="Name to verify in the server certificate, if not the host."
    )
    user_id: str
    workspace_id: str
    agent_id: str = Field(default="", description="Agent slug; empty lets the Manager route.")
    system_prompt: str = ""
    keepalive_seconds: float = Field(default=30.0, ge=MIN_KEEPALIVE_SECONDS)
    connect_timeout: float = Field(
        default=20.0, gt=0, description="How long a turn waits for the runtime to be reachable."
    )

    @field_validator("address")
    @classmethod
    def _check_address(cls, value: str) -> str:
        value = value.strip()
        host, sep, port = value.rpartition(":")
        if not sep:
            return f"{value}:{DEFAULT_PORT}" if value else _fail("the address is empty")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            _fail(f"{value!r} is not HOST:PORT")
        return value

    @field_validator("user_id", "workspace_id")
    @classmethod
    def _check_id(cls, value: str) -> str:
        if not value.strip():
            _fail("must not be empty")
        if ":" in value:
            _fail("must not contain ':' (the runtime's token cannot carry it)")
        return value

    @model_validator(mode="after")
    def _check_tls(self) -> Self:
        if self.tls == TlsMode.CUSTOM_CA and self.ca_file is None:
            _fail("tls=custom_ca needs ca_file")
        if self.tls != TlsMode.CUSTOM_CA and self.ca_file is not None:
            _fail("ca_file is only used with tls=custom_ca")
        if (self.client_cert_file is None) != (self.client_key_file is None):
            _fail("a client certificate needs both client_cert_file and client_key_file")
        if self.tls == TlsMode.OFF and self.client_cert_file is not None:
            _fail("a client certificate needs TLS (system or custom_ca)")
        return self


def _fail(message: str) -> str:
    raise ValueError(message)
