"""Texts of the settings models shown by Settings, for lupdate (generated).

The models (``desktop.core.settings.models``) stay Qt-free and English; the dialog translates
their field titles, descriptions and agent kinds' summaries where it shows them (context
"Settings"). ``python packaging/translations.py update`` writes this file, so ``lupdate``
finds those texts; ``tests/ui_widgets/test_i18n.py`` checks it is current. Never imported.
"""

from desktop.ui.i18n import QT_TRANSLATE_NOOP

TEXTS = (
    QT_TRANSLATE_NOOP("Settings", "Schema version"),
    QT_TRANSLATE_NOOP("Settings", "Providers"),
    QT_TRANSLATE_NOOP(
        "Settings",
        "A named provider configuration; its API key lives in the OS keyring under ``name``.",
    ),
    QT_TRANSLATE_NOOP("Settings", "Name"),
    QT_TRANSLATE_NOOP("Settings", "Identifier; also the keyring entry of the key."),
    QT_TRANSLATE_NOOP("Settings", "Provider"),
    QT_TRANSLATE_NOOP("Settings", "Which API the profile talks to."),
    QT_TRANSLATE_NOOP("Settings", "Model"),
    QT_TRANSLATE_NOOP("Settings", "Model id sent to the API."),
    QT_TRANSLATE_NOOP("Settings", "Base URL"),
    QT_TRANSLATE_NOOP("Settings", "API endpoint; empty for the provider's default."),
    QT_TRANSLATE_NOOP("Settings", "Max tokens"),
    QT_TRANSLATE_NOOP(
        "Settings",
        "Upper bound on tokens per reply; empty for the agent's default.",
    ),
    QT_TRANSLATE_NOOP("Settings", "Agents"),
    QT_TRANSLATE_NOOP("Settings", "Agent Desk's own agent, driven by a provider profile."),
    QT_TRANSLATE_NOOP("Settings", "Shown in the agent picker; used by --agent."),
    QT_TRANSLATE_NOOP("Settings", "Kind"),
    QT_TRANSLATE_NOOP("Settings", "Profile"),
    QT_TRANSLATE_NOOP("Settings", "Provider profile the agent uses."),
    QT_TRANSLATE_NOOP(
        "Settings",
        "The aionrs binary (found on PATH unless ``command`` is a path); it keeps its own config.",
    ),
    QT_TRANSLATE_NOOP("Settings", "Program"),
    QT_TRANSLATE_NOOP("Settings", "aionrs program or path."),
    QT_TRANSLATE_NOOP("Settings", "Extra arguments"),
    QT_TRANSLATE_NOOP("Settings", "Environment"),
    QT_TRANSLATE_NOOP("Settings", "Extra, non-secret variables."),
    QT_TRANSLATE_NOOP("Settings", "Any program that speaks a supported protocol over stdio."),
    QT_TRANSLATE_NOOP("Settings", "Command"),
    QT_TRANSLATE_NOOP("Settings", "Program and arguments."),
    QT_TRANSLATE_NOOP("Settings", "Protocol"),
    QT_TRANSLATE_NOOP("Settings", "Keys in environment"),
    QT_TRANSLATE_NOOP(
        "Settings",
        "Variable name → provider profile whose stored key is put there.",
    ),
    QT_TRANSLATE_NOOP("Settings", "Resume flag"),
    QT_TRANSLATE_NOOP("Settings", "e.g. --resume, if the agent has sessions."),
    QT_TRANSLATE_NOOP(
        "Settings",
        "An Agent Runtime reached over gRPC; its signing key is in the keyring under ``name``.",
    ),
    QT_TRANSLATE_NOOP("Settings", "Runtime"),
    QT_TRANSLATE_NOOP("Settings", "Connection settings of the runtime."),
    QT_TRANSLATE_NOOP(
        "Settings",
        "A remote Agent Runtime as stored in Settings (the ``remote`` agent kind).",
    ),
    QT_TRANSLATE_NOOP("Settings", "Address"),
    QT_TRANSLATE_NOOP("Settings", "HOST:PORT of the runtime (port 42618 by default)."),
    QT_TRANSLATE_NOOP("Settings", "Tls"),
    QT_TRANSLATE_NOOP("Settings", "Ca file"),
    QT_TRANSLATE_NOOP("Settings", "PEM roots for tls=custom_ca."),
    QT_TRANSLATE_NOOP("Settings", "Client cert file"),
    QT_TRANSLATE_NOOP("Settings", "PEM client certificate."),
    QT_TRANSLATE_NOOP("Settings", "Client key file"),
    QT_TRANSLATE_NOOP("Settings", "PEM client private key."),
    QT_TRANSLATE_NOOP("Settings", "Tls server name"),
    QT_TRANSLATE_NOOP("Settings", "Name to verify in the server certificate, if not the host."),
    QT_TRANSLATE_NOOP("Settings", "User id"),
    QT_TRANSLATE_NOOP("Settings", "Workspace id"),
    QT_TRANSLATE_NOOP("Settings", "Agent id"),
    QT_TRANSLATE_NOOP("Settings", "Agent slug; empty lets the Manager route."),
    QT_TRANSLATE_NOOP("Settings", "System prompt"),
    QT_TRANSLATE_NOOP("Settings", "Keepalive seconds"),
    QT_TRANSLATE_NOOP("Settings", "Connect timeout"),
    QT_TRANSLATE_NOOP("Settings", "How long a turn waits for the runtime to be reachable."),
    QT_TRANSLATE_NOOP(
        "Settings",
        "An Agent Client Protocol agent: a catalogue preset or a custom command.",
    ),
    QT_TRANSLATE_NOOP("Settings", "Agent"),
    QT_TRANSLATE_NOOP("Settings", "Catalogue entry, or custom for command."),
    QT_TRANSLATE_NOOP(
        "Settings",
        "Program and arguments (custom), or a program path overriding the preset's.",
    ),
    QT_TRANSLATE_NOOP(
        "Settings",
        "Provider endpoint for presets that take one; empty for the default.",
    ),
    QT_TRANSLATE_NOOP(
        "Settings",
        "OpenAI Codex through ``codex app-server``; a base URL means an Agent Desk-managed",
    ),
    QT_TRANSLATE_NOOP("Settings", "codex program or path."),
    QT_TRANSLATE_NOOP("Settings", "Empty: Codex's default."),
    QT_TRANSLATE_NOOP(
        "Settings",
        "OpenAI Responses endpoint of a custom provider; empty: Codex's own login.",
    ),
    QT_TRANSLATE_NOOP("Settings", "Key"),
    QT_TRANSLATE_NOOP("Settings", "Provider profile whose stored key Codex uses."),
    QT_TRANSLATE_NOOP("Settings", "Sandbox"),
    QT_TRANSLATE_NOOP("Settings", "What commands may touch."),
    QT_TRANSLATE_NOOP("Settings", "Approval policy"),
    QT_TRANSLATE_NOOP("Settings", "When Codex asks."),
    QT_TRANSLATE_NOOP("Settings", "Default agent"),
    QT_TRANSLATE_NOOP("Settings", "Agent of new conversations."),
    QT_TRANSLATE_NOOP("Settings", "Approvals"),
    QT_TRANSLATE_NOOP("Settings", "How new conversations start approving tool calls."),
    QT_TRANSLATE_NOOP("Settings", "Approval mode"),
    QT_TRANSLATE_NOOP(
        "Settings",
        "default asks for edits and commands; auto_edit approves reads and edits; yolo approves everything.",  # noqa: E501
    ),
    QT_TRANSLATE_NOOP("Settings", "Stop idle agents after"),
    QT_TRANSLATE_NOOP(
        "Settings",
        "Minutes without a prompt before a conversation's agent is stopped to free its memory; the next prompt resumes it. 0: never.",  # noqa: E501
    ),
    QT_TRANSLATE_NOOP("Settings", "Check for updates"),
    QT_TRANSLATE_NOOP(
        "Settings",
        "Once a day, ask the project's releases page whether a newer version exists. Nothing is sent but the request.",  # noqa: E501
    ),
    QT_TRANSLATE_NOOP("Settings", "Appearance"),
    QT_TRANSLATE_NOOP("Settings", "Look of the window."),
    QT_TRANSLATE_NOOP("Settings", "Theme"),
    QT_TRANSLATE_NOOP("Settings", "Follow the system?"),
    QT_TRANSLATE_NOOP("Settings", "Font size"),
    QT_TRANSLATE_NOOP("Settings", "In points."),
    QT_TRANSLATE_NOOP("Settings", "Extensions"),
    QT_TRANSLATE_NOOP(
        "Settings",
        "Which extensions load. Added within schema 2: files without it get these defaults.",
    ),
    QT_TRANSLATE_NOOP("Settings", "Enabled built-ins"),
    QT_TRANSLATE_NOOP(
        "Settings",
        "Built-in extensions that are switched on (all are off by default).",
    ),
    QT_TRANSLATE_NOOP("Settings", "Disabled extensions"),
    QT_TRANSLATE_NOOP("Settings", "Extension folder names that are not loaded even when found."),
    QT_TRANSLATE_NOOP("Settings", "Checkpoints"),
    QT_TRANSLATE_NOOP(
        "Settings",
        "Checkpoints of the workspace around each turn, for review and restore.",
    ),
    QT_TRANSLATE_NOOP("Settings", "Largest file recorded"),
    QT_TRANSLATE_NOOP("Settings", "In MB; larger files are left out of checkpoints (and named)."),
    QT_TRANSLATE_NOOP("Settings", "Disk space for checkpoints"),
    QT_TRANSLATE_NOOP(
        "Settings",
        "In GB per workspace; the oldest conversations' checkpoints go first.",
    ),
    QT_TRANSLATE_NOOP("Settings", "Recent workspaces"),
    QT_TRANSLATE_NOOP("Settings", "Most recent first."),
)
