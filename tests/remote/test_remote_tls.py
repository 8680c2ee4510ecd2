"""TLS to the runtime with a CA made by the test: custom CA, mutual TLS, and clear failures."""

from __future__ import annotations

import datetime
import ipaddress
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from desktop.core.backend import AgentStartError, Prompt
from desktop.core.events import TextDelta, TurnEnded, TurnEndReason
from desktop.core.remote.backend import RemoteRuntimeBackend
from desktop.core.remote.config import TlsMode
from tests.fakes.runtime_server import RuntimeServer, ServerTls
from tests.remote.support import KEY, remote_config
from tests.waiting import until


@dataclass
class Pem:
    cert: bytes
    key: bytes


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def make_ca(common: str) -> tuple[Pem, ec.EllipticCurvePrivateKey, x509.Certificate]:
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name(common))
        .issuer_name(_name(common))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .sign(key, hashes.SHA256())
    )
    return _pem(cert, key), key, cert


def issue(
    ca_key: ec.EllipticCurvePrivateKey, ca: x509.Certificate, common: str, *, server: bool
) -> Pem:
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.UTC)
    usage = x509.oid.ExtendedKeyUsageOID
    builder = (
        x509.CertificateBuilder()
        .subject_name(_name(common))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.ExtendedKeyUsage([usage.SERVER_AUTH if server else usage.CLIENT_AUTH]),
            critical=False,
        )
    )
    if server:
        builder = builder.add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
    return _pem(builder.sign(ca_key, hashes.SHA256()), key)


def _pem(cert: x509.Certificate, key: ec.EllipticCurvePrivateKey) -> Pem:
    return Pem(
        cert.public_bytes(serialization.Encoding.PEM),
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ),
    )


@dataclass
class Pki:
    ca_file: Path
    other_ca_file: Path
    server: Pem
    client_cert: Path
    client_key: Path
    ca: Pem


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    folder = tmp_path_factory.mktemp("pki")
    ca_pem, ca_key, ca = make_ca("Agent Desk test CA")
    other_pem, _, _ = make_ca("Some other CA")
    server = issue(ca_key, ca, "runtime", server=True)
    client = issue(ca_key, ca, "agent-desk", server=False)
    files = {
        "ca.pem": ca_pem.cert,
        "other.pem": other_pem.cert,
        "client.pem": client.cert,
        "client.key": client.key,
    }
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return Pki(
        folder / "ca.pem",
        folder / "other.pem",
        server,
        folder / "client.pem",
        folder / "client.key",
        ca_pem,
    )


@pytest_asyncio.fixture
async def tls_runtime(pki: Pki) -> AsyncIterator[RuntimeServer]:
    server = RuntimeServer(KEY, tls=ServerTls(pki.server.cert, pki.server.key))
    await server.start()
    yield server
    await server.stop()


@pytest_asyncio.fixture
async def mtls_runtime(pki: Pki) -> AsyncIterator[RuntimeServer]:
    server = RuntimeServer(
        KEY, tls=ServerTls(pki.server.cert, pki.server.key, client_ca=pki.ca.cert)
    )
    await server.start()
    yield server
    await server.stop()


async def one_turn(backend: RemoteRuntimeBackend) -> tuple[str, TurnEndReason]:
    events: list[object] = []
    await backend.start(events.append)
    await backend.send_prompt("t1", Prompt("over tls"))
    await until(lambda: any(isinstance(e, TurnEnded) for e in events), 5, "the turn end")
    await backend.shutdown(1.0)
    text = "".join(e.text for e in events if isinstance(e, TextDelta))
    (end,) = [e for e in events if isinstance(e, TurnEnded)]
    return text, end.reason


@pytest.mark.asyncio
async def test_custom_ca(tls_runtime: RuntimeServer, pki: Pki) -> None:
    config = remote_config(tls_runtime.address, tls=TlsMode.CUSTOM_CA, ca_file=pki.ca_file)
    text, reason = await one_turn(RemoteRuntimeBackend(config, KEY, session_id="tls-1"))
    assert reason == TurnEndReason.COMPLETED
    assert text.startswith("echo: over tls [turn 1 of tls-1]")


@pytest.mark.asyncio
async def test_server_from_an_untrusted_ca_is_refused(tls_runtime: RuntimeServer, pki: Pki) -> None:
    config = remote_config(tls_runtime.address, tls=TlsMode.CUSTOM_CA, ca_file=pki.other_ca_file)
    with pytest.raises(AgentStartError, match=f"Cannot reach the runtime at {tls_runtime.address}"):
        await RemoteRuntimeBackend(config, KEY, session_id="x").start(lambda _e: None)
    assert tls_runtime.record.streams_opened == 0


@pytest.mark.asyncio
async def test_system_roots_do_not_trust_a_private_ca(tls_runtime: RuntimeServer) -> None:
    config = remote_config(tls_runtime.address, tls=TlsMode.SYSTEM)
    with pytest.raises(AgentStartError, match="Cannot reach the runtime"):
        await RemoteRuntimeBackend(config, KEY, session_id="x").start(lambda _e: None)


@pytest.mark.asyncio
async def test_plaintext_client_cannot_talk_to_a_tls_runtime(tls_runtime: RuntimeServer) -> None:
    config = remote_config(tls_runtime.address)
    with pytest.raises(AgentStartError, match="Cannot reach the runtime"):
        await RemoteRuntimeBackend(config, KEY, session_id="x").start(lambda _e: None)


@pytest.mark.asyncio
async def test_mutual_tls(mtls_runtime: RuntimeServer, pki: Pki) -> None:
    config = remote_config(
        mtls_runtime.address,
        tls=TlsMode.CUSTOM_CA,
        ca_file=pki.ca_file,
        client_cert_file=pki.client_cert,
        client_key_file=pki.client_key,
    )
    text, reason = await one_turn(RemoteRuntimeBackend(config, KEY, session_id="m-1"))
    assert reason == TurnEndReason.COMPLETED
    assert text.startswith("echo: over tls")


@pytest.mark.asyncio
async def test_mutual_tls_without_a_client_certificate_is_refused(
    mtls_runtime: RuntimeServer, pki: Pki
) -> None:
    config = remote_config(mtls_runtime.address, tls=TlsMode.CUSTOM_CA, ca_file=pki.ca_file)
    with pytest.raises(AgentStartError, match="Cannot reach the runtime"):
        await RemoteRuntimeBackend(config, KEY, session_id="x").start(lambda _e: None)
    assert mtls_runtime.record.streams_opened == 0


@pytest.mark.asyncio
async def test_unreadable_ca_file_is_a_clear_start_error(tmp_path: Path) -> None:
    config = remote_config("127.0.0.1:1", tls=TlsMode.CUSTOM_CA, ca_file=tmp_path / "missing.pem")
    with pytest.raises(AgentStartError, match="cannot read the CA file"):
        await RemoteRuntimeBackend(config, KEY, session_id="x").start(lambda _e: None)
