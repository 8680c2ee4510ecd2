"""The keyring backend in words (Settings and ``agentdesk keys`` say it), never a class name."""

from __future__ import annotations

import keyring.backends.fail
import keyring.backends.SecretService
import pytest

from desktop.core.secrets import SecretStore, backend_label


@pytest.mark.parametrize(
    ("desktop", "expected"),
    [("GNOME", "GNOME Keyring (Secret Service)"), ("KDE", "KDE Wallet (Secret Service)")],
)
def test_secret_service_is_named_for_the_desktop(desktop: str, expected: str) -> None:
    backend = keyring.backends.SecretService.Keyring()
    assert backend_label(backend, {"XDG_CURRENT_DESKTOP": desktop}) == expected


def test_status_messages_say_the_keyring_in_words() -> None:
    secure = SecretStore(keyring.backends.SecretService.Keyring(), environ={})
    assert secure.status.message == (
        "API keys are stored in the system keyring: GNOME Keyring (Secret Service)."
    )
    assert secure.status.label == "GNOME Keyring (Secret Service)"
    assert secure.status.backend == "keyring.backends.SecretService.Keyring"  # for logs
    failing = SecretStore(keyring.backends.fail.Keyring(), environ={}, announce=False)
    assert "found no keyring" in failing.status.message
    assert "keyring.backends" not in failing.status.message
