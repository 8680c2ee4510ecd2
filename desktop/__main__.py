"""``python -m desktop`` runs the ``agentdesk`` command."""

from desktop.cli.main import main

raise SystemExit(main())
