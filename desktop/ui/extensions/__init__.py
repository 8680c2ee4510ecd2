"""The Extensions page, the trust dialog and the extension runtime of a window."""
