"""The aionrs JSON Stream Protocol (0.1.0 as written, and the real aionrs 0.2.x)."""
