"""Model providers. Each module imports its SDK, which is slow (about a second for
``anthropic``), so ``make_provider`` imports only the one that is used."""

from __future__ import annotations

from desktop.agent.providers.base import Provider

PROVIDERS = ("anthropic", "openai")
KEY_ENV = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}
BASE_URL_ENV = {"anthropic": "ANTHROPIC_BASE_URL", "openai": "OPENAI_BASE_URL"}
DEFAULT_MODELS = {"anthropic": "claude-sonnet-4-6", "openai": "gpt-5.5"}


def make_provider(name: str, api_key: str, base_url: str | None) -> Provider:
    """Build the provider ``name`` (one of ``PROVIDERS``)."""
    if name == "anthropic":
        from desktop.agent.providers.anthropic import AnthropicProvider

        return AnthropicProvider(api_key, base_url)
    if name == "openai":
        from desktop.agent.providers.openai import OpenAIProvider

        return OpenAIProvider(api_key, base_url)
    raise ValueError(f"unknown provider {name!r}")
