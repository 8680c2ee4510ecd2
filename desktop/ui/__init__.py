"""The Qt window of Agent Desk (PySide6 on qasync); the core never imports this package."""
