"""Raw protocol logs never contain secrets."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from desktop.core.backend import Prompt
from desktop.core.launch.factory import make_backend_factory
from desktop.core.launch.spec import LaunchAionrs
from desktop.core.session import Session
from desktop.core.traffic_log import Redactor, secret_values
from tests.core.support import FAKE_AGENT


def test_redactor_hides_env_secrets_and_key_shapes() -> None:
    redact = Redactor(secret_values({"OPENAI_API_KEY": "abc123secret", "HOME": "/root"}))
    line = b'{"text":"abc123secret and sk-ant-api03-XXXXXXXXXXXX and /root"}'
    assert redact(line) == b'{"text":"[REDACTED] and [REDACTED] and /root"}'


@pytest.mark.parametrize(
    "text",
    [
        "abc123secret, then sk-ant-api03-XXXXXXXXXXXX; café sk-proj_1234567890 /root",
        "nothing to hide here, not even sk- alone or sk-short",
        "éabc123secretésk-XXXXXXXXXXXX",  # word boundaries as for bytes (ASCII)
        "",
    ],
)
def test_text_redaction_equals_the_bytes_redaction(text: str) -> None:
    """The history redacts text directly; it must hide exactly what the bytes path hides."""
    redact = Redactor(secret_values({"OPENAI_API_KEY": "abc123secret"}))
    assert redact.text(text) == redact(text.encode()).decode()
    assert "abc123secret" not in redact.text(text)


@pytest.mark.asyncio
async def test_protocol_log_is_written_with_secrets_redacted(
    tmp_path: Path, agentdesk_home: Path
) -> None:
    secret = "sk-test-0123456789abcdef"
    choice = LaunchAionrs(
        name="fake",
        command=[sys.executable, str(FAKE_AGENT), "--json-stream"],
        keys={"ANTHROPIC_API_KEY": secret},
    )
    factory = make_backend_factory(choice, tmp_path, protocol_log=True)
    session = Session(factory, workspace=tmp_path)
    await session.start()
    session.submit(Prompt(f"please echo {secret}"))
    await session.wait_idle()
    await session.close()
    logs = list((agentdesk_home / "logs" / "protocol").glob("*.log"))
    assert logs
    text = logs[0].read_text()
    assert '"type":"message"' in text
    assert "You said: please echo [REDACTED]" in text
    assert secret not in text
