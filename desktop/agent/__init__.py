"""Agent Desk's built-in agent: a JSON Stream Protocol 0.1.0 peer (the aionrs protocol).

It is the default agent of every conversation (aionrs cannot be bundled) and the host's reference
peer for the protocol as written in ``shared/seeds/003_fa068bb72b516b08.txt``. Run it with
``python -m desktop.agent --json-stream``; stdout carries only protocol lines, stderr diagnostics.
"""

PROTOCOL_VERSION = "0.1.0"
