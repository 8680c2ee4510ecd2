"""Settings dialog, keys, agent choice and appearance for the window."""
