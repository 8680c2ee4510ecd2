"""Fixtures of the MCP tests: the built-in agent's workspace and fake LLM fixtures."""

from tests.agent.conftest import llm, workspace

__all__ = ["llm", "workspace"]
