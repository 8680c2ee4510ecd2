"""What tokens cost: the price table shipped with the app, the user's override, the estimate.

The shipped table (``prices.json`` beside this module) gives US dollars per million input,
output, cached-input and cache-write tokens per model. The user's ``prices.json`` in the config
folder (Settings ▸ Usage and cost ▸ Edit prices) adds models or replaces shipped ones. A model
id matches its exact key, else the longest key it starts with ("claude-sonnet-4-20250514" is
priced as "claude-sonnet-4"), after any "provider/" prefix. A model the table does not know has
no estimate (None), never a guess. A damaged override is logged and ignored with its reason.
"""

from __future__ import annotations

import json
import logging
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from desktop.core.atomic_file import atomic_write
from desktop.core.events import Usage
from desktop.core.paths import app_paths

log = logging.getLogger(__name__)

#: The name of the table, shipped and in the user's config folder.
PRICES_FILE = "prices.json"
_MILLION = 1_000_000


class Price(BaseModel):
    """US dollars per million tokens of one model."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    input: float
    output: float
    cached_input: float | None = None
    cache_write: float | None = None


class _Table(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    models: dict[str, Price]


class PriceTable:
    """Prices by model key, matched by exact id or longest prefix."""

    def __init__(self, models: dict[str, Price]) -> None:
        self.models = {key.lower(): price for key, price in models.items()}

    def price(self, model: str | None) -> Price | None:
        """The price of ``model`` (None: unknown)."""
        if not model:
            return None
        name = model.lower().rsplit("/", 1)[-1]
        if name in self.models:
            return self.models[name]
        keys = [key for key in self.models if name.startswith(key)]
        return self.models[max(keys, key=len)] if keys else None

    def cost(self, usage: Usage, model: str | None) -> float | None:
        """What ``usage`` cost in US dollars with ``model`` (None: the model is not priced)."""
        price = self.price(model)
        if price is None:
            return None
        cached = price.cached_input if price.cached_input is not None else price.input
        write = price.cache_write if price.cache_write is not None else price.input
        return (
            usage.input_tokens * price.input
            + usage.output_tokens * price.output
            + usage.cache_read_tokens * cached
            + usage.cache_write_tokens * write
        ) / _MILLION


def _read(text: str) -> dict[str, Price]:
    return _Table.model_validate(json.loads(text)).models


def shipped_text() -> str:
    """The shipped table as JSON text."""
    return resources.files(__package__).joinpath(PRICES_FILE).read_text(encoding="utf-8")


def override_path() -> Path:
    """The user's table (it may not exist)."""
    return app_paths().config / PRICES_FILE


def load_prices(override: Path | None = None) -> PriceTable:
    """The shipped table with the user's override on top."""
    models = _read(shipped_text())
    path = override or override_path()
    try:
        models.update(_read(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        pass
    except (OSError, ValueError, ValidationError) as exc:
        log.warning("the price table %s is not used: %s", path, str(exc).splitlines()[0])
    return PriceTable(models)


def ensure_override(path: Path | None = None) -> Path:
    """The user's table, first written as a copy of the shipped one (to edit)."""
    target = path or override_path()
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, shipped_text())
    return target


def dollars(cost: float) -> str:
    """A cost estimate in words: "$0.42", "$0.0031", "<$0.0001"."""
    if cost <= 0:
        return "$0.00"
    if cost < 0.0001:
        return "<$0.0001"
    if cost < 0.01:
        return f"${cost:.4f}"
    return f"${cost:,.2f}"
