"""Token usage as aionrs reports it: per turn in 0.1.0, cumulative for the session from 0.2."""

from __future__ import annotations

from dataclasses import dataclass, field

from desktop.core.events import Usage


@dataclass
class UsageCounter:
    """Turns cumulative usage (aionrs 0.2.x) into per-turn figures; survives agent restarts."""

    last_total: Usage = field(default_factory=Usage)

    def per_turn(self, reported: Usage, cumulative: bool) -> Usage:
        """The usage of the turn that just ended."""
        if not cumulative:
            return reported
        if reported == Usage():  # error turns report zeros, not the running total
            return reported
        previous, self.last_total = self.last_total, reported
        return Usage(
            input_tokens=max(0, reported.input_tokens - previous.input_tokens),
            output_tokens=max(0, reported.output_tokens - previous.output_tokens),
            cache_read_tokens=max(0, reported.cache_read_tokens - previous.cache_read_tokens),
            cache_write_tokens=max(0, reported.cache_write_tokens - previous.cache_write_tokens),
        )


def version_tuple(version: str | None) -> tuple[int, ...]:
    """``"0.2.10"`` → ``(0, 2, 10)``; anything unparsable counts as 0."""
    parts: list[int] = []
    for piece in (version or "").split(".")[:3]:
        digits = "".join(ch for ch in piece if ch.isdigit())
        parts.append(int(digits) if digits else 0)
    return tuple(parts)
