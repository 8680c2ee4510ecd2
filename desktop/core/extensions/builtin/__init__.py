"""Built-in extensions; each folder is loaded like any user extension when enabled."""
