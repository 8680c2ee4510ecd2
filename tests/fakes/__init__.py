"""Test doubles for what cannot run here (LLMs, remote runtimes) and scripted agents."""
