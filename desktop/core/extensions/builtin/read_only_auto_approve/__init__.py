"""Built-in extension folder (loaded by the extension loader, not imported as a package)."""
