"""Protocol adapters: each maps one agent wire protocol into the session event model."""
