"""The ``agentdesk`` command line: the window, ``exec`` and management subcommands."""
