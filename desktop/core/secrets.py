"""API keys: in the OS keyring (service ``agentdesk``, username = profile name), nowhere else.

At start-up the keyring backend is classified. A secure OS store (Secret Service, libsecret,
KWallet, macOS Keychain, Windows Credential Locker) is used. Without one (``fail``, ``null``,
``keyrings.alt`` plaintext files, a chainer with nothing secure in it) nothing is ever written to
disk: the status says so once, keys come from ``ANTHROPIC_API_KEY``/``OPENAI_API_KEY``, and a key
typed in the UI is kept in memory for this run only.

Every keyring call runs in a worker thread with a timeout, because an unlock prompt can block for
as long as the user looks away; failures become ``SecretStoreError`` with a sentence for the user.
Keys are handed out as ``pydantic.SecretStr`` so an accidental ``repr`` or log line shows stars.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

import keyring
import keyring.errors
from keyring.backend import KeyringBackend
from pydantic import SecretStr

from desktop.core.texts import QT_TRANSLATE_NOOP, CoreText

log = logging.getLogger(__name__)

SERVICE = "agentdesk"
#: Environment variables read when a profile of that provider type has no stored key.
PROVIDER_ENV = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}
#: Modules (under ``keyring.backends``) of backends that store secrets encrypted by the OS.
_SECURE_MODULES = ("SecretService", "libsecret", "kwallet", "macOS", "Windows")
_T = TypeVar("_T")


class KeySource(StrEnum):
    """Where a key was found or put."""

    KEYRING = "keyring"
    MEMORY = "memory"
    ENVIRONMENT = "environment"


class SecretStoreError(Exception):
    """A keyring operation failed; the message is meant for the user (``text``: for the window
    to translate)."""

    def __init__(self, text: CoreText) -> None:
        super().__init__(text.english)
        self.text = text


@dataclass(frozen=True)
class KeyringStatus:
    """The classification of the keyring backend, shown in Settings → API keys.

    ``backend`` is the class (``module.Class``, for logs); ``label`` is what people call it.
    """

    secure: bool
    backend: str
    message: str
    label: str = ""
    #: ``message`` for the window to translate.
    text: CoreText | None = None


@dataclass(frozen=True)
class StoredKey:
    """A key and where it came from."""

    value: SecretStr
    source: KeySource


def backend_name(backend: KeyringBackend) -> str:
    """``module.Class`` of a keyring backend."""
    return f"{type(backend).__module__}.{type(backend).__qualname__}"


#: What people call each backend (by the module under ``keyring.backends``): product names as
#: they are, descriptions marked for the window's translation.
_LABELS: dict[str, str | CoreText] = {
    "kwallet": "KDE Wallet",
    "macOS": "macOS Keychain",
    "Windows": "Windows Credential Manager",
    "chainer": QT_TRANSLATE_NOOP("Keyring", "no secure keyring"),
    "fail": QT_TRANSLATE_NOOP("Keyring", "no keyring"),
    "null": QT_TRANSLATE_NOOP("Keyring", "no keyring"),
}


def _desktop_keyring(environ: Mapping[str, str]) -> str:
    """Which program answers the Secret Service on this desktop (a best guess, for words)."""
    desktop = environ.get("XDG_CURRENT_DESKTOP", "").lower()
    return "KDE Wallet" if "kde" in desktop else "GNOME Keyring"


def backend_label(backend: KeyringBackend, environ: Mapping[str, str] | None = None) -> str:
    """A keyring backend in words: "GNOME Keyring (Secret Service)", "macOS Keychain"…"""
    said = backend_words(backend, environ)
    return said if isinstance(said, str) else said.english


def backend_words(
    backend: KeyringBackend, environ: Mapping[str, str] | None = None
) -> str | CoreText:
    """``backend_label``, a description ("no secure keyring") marked for translation."""
    module = type(backend).__module__
    short = module.removeprefix("keyring.backends.")
    if short in ("SecretService", "libsecret"):
        return f"{_desktop_keyring(os.environ if environ is None else environ)} (Secret Service)"
    if short in _LABELS:
        return _LABELS[short]
    if module.startswith("keyrings.alt"):
        return QT_TRANSLATE_NOOP("Keyring", "a plain-text file keyring (keyrings.alt)")
    return type(backend).__qualname__


def _is_secure(backend: KeyringBackend) -> bool:
    module = type(backend).__module__
    return any(module == f"keyring.backends.{m}" for m in _SECURE_MODULES)


def select_backend(backend: KeyringBackend) -> tuple[KeyringBackend, bool]:
    """Pick the backend to use and whether it is secure.

    A chainer is unwrapped to its highest-priority secure member, so a write can never land in
    a plaintext backend that happens to sit in the same chain.
    """
    members = getattr(backend, "backends", None)
    if type(backend).__module__ == "keyring.backends.chainer" and members is not None:
        secure = [b for b in members if _is_secure(b)]
        return (secure[0], True) if secure else (backend, False)
    return backend, _is_secure(backend)


def mask(key: str) -> str:
    """A key as the UI shows it: enough to recognise, never enough to use."""
    if len(key) < 12:
        return "•" * 8
    return f"{key[:3]}…{key[-4:]}"


class SecretStore:
    """The keyring facade.

    Args:
        backend: The keyring backend (default: ``keyring.get_keyring()``).
        secure: Override the classification (tests use this with an in-memory backend).
        timeout: Seconds a keyring call may take before it is reported as failed.
        environ: Where environment-variable keys are read (default: ``os.environ``).
        announce: Log the "no secure keyring" warning (callers that show ``status`` themselves
            turn this off, so the user is told once).
    """

    def __init__(
        self,
        backend: KeyringBackend | None = None,
        *,
        secure: bool | None = None,
        timeout: float = 10.0,
        environ: Mapping[str, str] | None = None,
        announce: bool = True,
    ) -> None:
        chosen, classified = select_backend(backend or keyring.get_keyring())
        self._backend = chosen
        self._secure = classified if secure is None else secure
        self._timeout = timeout
        self._environ = os.environ if environ is None else environ
        self._memory: dict[str, str] = {}
        self._listeners: list[Callable[[str], None]] = []
        name = backend_name(chosen)
        words = backend_words(chosen, self._environ)
        label = words if isinstance(words, str) else words.english
        if self._secure:
            text = QT_TRANSLATE_NOOP(
                "Keyring", "API keys are stored in the system keyring: {label}."
            )
        else:
            text = QT_TRANSLATE_NOOP(
                "Keyring",
                "No secure system keyring is available (found {label}). Keys are read from "
                "ANTHROPIC_API_KEY / OPENAI_API_KEY, and keys you type are kept in memory for "
                "this run only. To store keys, run a Secret Service (e.g. gnome-keyring or "
                "KWallet) in your session.",
            )
        text = text.with_args(label=words)
        message = text.english
        if announce and not self._secure:
            log.warning("%s", message)
        self.status = KeyringStatus(
            secure=self._secure, backend=name, message=message, label=label, text=text
        )

    def subscribe(self, listener: Callable[[str], None]) -> Callable[[], None]:
        """Be told the entry name after each key is set or deleted through this facade (on the
        event loop); returns an unsubscribe function. Windows restart agents that lacked it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _changed(self, profile: str) -> None:
        for listener in tuple(self._listeners):
            try:
                listener(profile)
            except Exception:
                log.exception("a key listener failed")

    async def _call(self, fn: Callable[[], _T], what: CoreText) -> _T:
        failed = QT_TRANSLATE_NOOP("Keyring", "The keyring failed while {what}: {error}")
        try:
            return await asyncio.wait_for(asyncio.to_thread(fn), self._timeout)
        except TimeoutError:
            late = QT_TRANSLATE_NOOP(
                "Keyring",
                "The keyring did not answer within {seconds} s while {what}; it may be "
                "locked and waiting for an unlock prompt.",
            )
            raise SecretStoreError(
                late.with_args(seconds=f"{self._timeout:g}", what=what)
            ) from None
        except keyring.errors.PasswordDeleteError:
            raise
        except keyring.errors.KeyringError as exc:
            error = str(exc)
            if "dismiss" in error.lower():
                dismissed = QT_TRANSLATE_NOOP(
                    "Keyring",
                    "The keyring is locked and the unlock prompt was dismissed while {what}.",
                )
                raise SecretStoreError(dismissed.with_args(what=what)) from None
            raise SecretStoreError(failed.with_args(what=what, error=error)) from None
        except Exception as exc:
            # D-Bus and OS errors surface as many types; the user needs one sentence.
            error = f"{type(exc).__name__}: {exc}"
            raise SecretStoreError(failed.with_args(what=what, error=error)) from exc

    async def get(self, profile: str, provider: str | None = None) -> StoredKey | None:
        """The key of ``profile``: stored, else typed this run, else the provider's env var.

        Raises:
            SecretStoreError: the keyring failed or timed out.
        """
        if self._secure:
            value = await self._call(
                lambda: self._backend.get_password(SERVICE, profile),
                QT_TRANSLATE_NOOP("Keyring", "reading a key"),
            )
            if value:
                return StoredKey(SecretStr(value), KeySource.KEYRING)
        elif profile in self._memory:
            return StoredKey(SecretStr(self._memory[profile]), KeySource.MEMORY)
        env_name = PROVIDER_ENV.get(provider or "")
        if env_name and self._environ.get(env_name):
            return StoredKey(SecretStr(self._environ[env_name]), KeySource.ENVIRONMENT)
        return None

    async def set(self, profile: str, key: str) -> KeySource:
        """Store ``key`` for ``profile``; returns where it went (memory without a keyring).

        Raises:
            SecretStoreError: the keyring failed or timed out.
            ValueError: the key is empty.
        """
        key = key.strip()
        if not key:
            raise ValueError("the key is empty")
        if not self._secure:
            self._memory[profile] = key
            self._changed(profile)
            return KeySource.MEMORY
        await self._call(
            lambda: self._backend.set_password(SERVICE, profile, key),
            QT_TRANSLATE_NOOP("Keyring", "saving a key"),
        )
        self._changed(profile)
        return KeySource.KEYRING

    async def delete(self, profile: str) -> bool:
        """Forget the key of ``profile``; False when there was none.

        Raises:
            SecretStoreError: the keyring failed or timed out.
        """
        if not self._secure:
            removed = self._memory.pop(profile, None) is not None
        else:
            try:
                await self._call(
                    lambda: self._backend.delete_password(SERVICE, profile),
                    QT_TRANSLATE_NOOP("Keyring", "deleting a key"),
                )
            except keyring.errors.PasswordDeleteError:
                return False
            removed = True
        self._changed(profile)
        return removed
