"""``python -m desktop.agent`` runs the built-in agent."""

from desktop.agent.cli import main

raise SystemExit(main())
