"""Launching an agent: from a name (or an ``--agent-cmd`` command) to a backend factory.

One path for the window and for ``agentdesk exec``: ``resolve.resolve`` turns an ``AgentRef``
and the settings into a typed, frozen ``Launch`` (``spec``), checking the program once and
reading keys once (``locate``); ``factory.make_backend_factory`` turns a ``Launch`` into the
session's backend factory. ``early`` spawns an aionrs agent before ``exec`` imports the session
engine; ``deferred`` resolves when the window's conversation starts, turning a missing key or
program into a ``StartFix``. This package depends on settings, catalogue, remote and the
protocol adapters; none of them imports it. ``spec``, ``locate``, ``resolve`` and ``early`` load
no pydantic and no session engine at import time (``exec`` spawns the agent first).
"""
