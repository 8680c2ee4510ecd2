"""Qt-free core of Agent Desk: protocols, sessions, approvals, storage (asyncio + pydantic only)."""
