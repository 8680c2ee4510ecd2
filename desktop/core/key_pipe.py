"""API keys for the built-in agent through an inherited pipe, never through its environment.

Whatever a process has in its environment at start is readable by its descendants in
``/proc/<pid>/environ`` (removing a variable later does not erase it there), so a tool command the
model asks for could read the agent's key. Instead the host marks the agent's environment with
``AGENTDESK_KEY_PIPE=1``; at spawn (``take_keys`` + ``open_key_pipe``) the provider key variables
are taken out of that environment and written, as JSON, into a pipe whose read end the child
inherits. ``AGENTDESK_KEY_FD`` tells the child the descriptor number (no secret). The agent reads
the pipe to its end and closes it before anything else runs (``read_key_pipe``).

Where descriptors cannot be passed (Windows) the keys stay in the environment, as before.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Mapping, MutableMapping

KEY_PIPE_ENV = "AGENTDESK_KEY_PIPE"
"""Set (to ``1``) by the host on an agent that takes its keys from a pipe."""
KEY_FD_ENV = "AGENTDESK_KEY_FD"
"""The inherited descriptor to read the keys from (a number, never a secret)."""
PROVIDER_KEY_ENV = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_KEY")
"""Variables that hold provider keys: piped to the agent, never given to its tools."""
_MAX_PIPED = 60_000  # below the smallest pipe buffer (64 KiB): the write never blocks


def take_keys(env: Mapping[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """``(env without keys, keys)`` when ``env`` asks for a key pipe, else ``(env, {})``."""
    if env.get(KEY_PIPE_ENV) != "1":
        return dict(env), {}
    rest = {k: v for k, v in env.items() if k not in PROVIDER_KEY_ENV}
    return rest, {k: v for k, v in env.items() if k in PROVIDER_KEY_ENV and v}


def open_key_pipe(keys: Mapping[str, str]) -> int:
    """A pipe holding ``keys`` as JSON, written and closed: returns its inheritable read end
    (the caller passes it to the child and closes it after the spawn)."""
    data = json.dumps(dict(keys)).encode()
    if len(data) > _MAX_PIPED:
        raise ValueError("the keys are too large for the key pipe")
    read_fd, write_fd = os.pipe()
    try:
        os.write(write_fd, data)
    except OSError:
        os.close(read_fd)
        raise
    finally:
        os.close(write_fd)
    return read_fd


def read_key_pipe(environ: MutableMapping[str, str]) -> dict[str, str]:
    """In the agent: the keys from the inherited pipe (``{}`` without one), read to its end and
    closed; the pipe variables are removed from ``environ``.

    Raises:
        ValueError: the descriptor number is bad or the pipe holds no valid JSON object.
    """
    environ.pop(KEY_PIPE_ENV, None)
    raw = environ.pop(KEY_FD_ENV, None)
    if raw is None:
        return {}
    try:
        fd = int(raw)
    except ValueError as exc:
        raise ValueError(f"{KEY_FD_ENV}={raw!r} is not a descriptor number") from exc
    chunks: list[bytes] = []
    try:
        while chunk := os.read(fd, 65536):
            chunks.append(chunk)
    except OSError as exc:
        raise ValueError(f"cannot read the key pipe ({KEY_FD_ENV}={fd}): {exc}") from exc
    finally:
        with contextlib.suppress(OSError):
            os.close(fd)
    try:
        keys = json.loads(b"".join(chunks))
    except ValueError as exc:
        raise ValueError("the key pipe holds no valid keys") from exc
    if not isinstance(keys, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in keys.items()
    ):
        raise ValueError("the key pipe holds no valid keys")
    return keys


def move_keys_out_of_environment() -> None:
    """Run by hand with keys in its environment, re-execute this program with them in a key
    pipe instead (Linux; returns when there is nothing to move or no ``/proc`` to hide from).

    ``/proc/<pid>/environ`` shows the environment a process was started with to every process
    of the same user, the agent's own tool commands included, whatever the process removes from
    ``os.environ`` later; only a new ``exec`` replaces it.
    """
    if not sys.platform.startswith("linux") or KEY_FD_ENV in os.environ:
        return
    keys = {var: value for var in PROVIDER_KEY_ENV if (value := os.environ.get(var))}
    if not keys:
        return
    env = {k: v for k, v in os.environ.items() if k not in PROVIDER_KEY_ENV}
    fd = open_key_pipe(keys)
    os.set_inheritable(fd, True)
    env[KEY_FD_ENV] = str(fd)
    args = sys.argv[1:] if getattr(sys, "frozen", False) else sys.orig_argv[1:]
    os.execve(sys.executable, [sys.executable, *args], env)
