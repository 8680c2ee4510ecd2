"""Is there a newer Agent Desk? One GET of the project's releases feed, and when to ask again.

Help ▸ Check for Updates and the automatic check (at most once a day, Settings ▸ "Check for
updates") both call ``check``: a single HTTPS GET of the GitHub "latest release" feed
(``FEED_URL``; ``AGENTDESK_UPDATE_FEED`` points it elsewhere, e.g. at a test server). Nothing is
sent but the request itself: no identifiers, no cookies, no telemetry. Every outcome is a
``UpdateResult`` (newer, current, the running build is ahead, or failed with a reason), never an
exception, and the whole check is bounded by ``TIMEOUT``: a slow or silent server cannot hang
anything. ``CheckSchedule`` keeps the time of the last automatic check in a small JSON file.

Versions are compared as PEP 440 release numbers with pre-releases ordered before their release
(``version_key``); ``packaging.version`` is not used because the repository's own
``packaging/`` folder shadows it under the test runner.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from pathlib import Path

from desktop.core.atomic_file import atomic_write

log = logging.getLogger(__name__)

FEED_ENV = "AGENTDESK_UPDATE_FEED"
FEED_URL = "https://api.github.com/repos/agentdesk/agentdesk/releases/latest"
RELEASES_PAGE = "https://github.com/agentdesk/agentdesk/releases/latest"
TIMEOUT = 15.0
INTERVAL = timedelta(days=1)
#: Release notes longer than this are cut (the notice shows a summary and links the page).
NOTES_LIMIT = 1500
_VERSION = re.compile(
    r"^v?(?P<release>\d+(?:\.\d+)*)"
    r"(?:[-_.]?(?P<pre>a|alpha|b|beta|rc|c)[-_.]?(?P<pre_n>\d*))?"
    r"(?:[-_.]?(?:post|rev|r)[-_.]?(?P<post>\d+))?"
    r"(?:[-_.]?dev[-_.]?(?P<dev>\d*))?$",
    re.IGNORECASE,
)
_PRE_RANK = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "c": 2, "rc": 2}


class UpdateStatus(StrEnum):
    """What the feed said about the running version."""

    NEWER = "newer"  # a newer release exists
    CURRENT = "current"  # the running version is the latest
    AHEAD = "ahead"  # the running version is newer than the latest release (a dev build)
    FAILED = "failed"  # no answer to compare: unreachable, an error status, not a release


class UpdateProblem(StrEnum):
    """Why a check failed (the window words each)."""

    UNREACHABLE = "unreachable"
    HTTP_STATUS = "http_status"
    MALFORMED = "malformed"


@dataclass(frozen=True)
class UpdateResult:
    """The outcome of one check; ``detail`` is for the log, never shown as the message."""

    status: UpdateStatus
    current: str
    latest: str | None = None
    url: str = RELEASES_PAGE
    title: str = ""
    notes: str = ""
    problem: UpdateProblem | None = None
    detail: str = ""


def version_key(text: str) -> tuple[tuple[int, ...], int, int, int, int] | None:
    """A sortable key for a PEP 440-style version (``v`` prefix allowed); None if not one.

    Order: ``1.0.dev1 < 1.0a1 < 1.0b2 < 1.0rc1 < 1.0 < 1.0.post1``; trailing zeros do not count.
    """
    match = _VERSION.match(text.strip())
    if match is None:
        return None
    release = tuple(int(part) for part in match["release"].split("."))
    while len(release) > 1 and release[-1] == 0:
        release = release[:-1]
    pre, post, dev = match["pre"], match["post"], match["dev"]
    # pre-release rank: dev-only < a < b < rc < final (3)
    if pre is not None:
        rank, number = _PRE_RANK[pre.lower()], int(match["pre_n"] or 0)
    elif dev is not None and post is None:
        rank, number = -1, 0
    else:
        rank, number = 3, 0
    post_n = int(post) if post is not None else -1
    dev_n = int(dev or 0) if dev is not None else 1 << 30  # a dev release sorts first
    return release, rank, number, post_n, dev_n


def feed_url(environ: dict[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    return env.get(FEED_ENV) or FEED_URL


def compare(current: str, payload: object) -> UpdateResult:
    """The result for the feed's decoded JSON ``payload`` (a release object, or a list of
    them: the newest published, non-draft, non-prerelease one counts)."""
    release = _pick_release(payload)
    if release is None:
        return _failed(current, UpdateProblem.MALFORMED, "no published release in the feed")
    tag = release.get("tag_name")
    latest_key = version_key(tag) if isinstance(tag, str) else None
    current_key = version_key(current)
    if latest_key is None or current_key is None or not isinstance(tag, str):
        return _failed(current, UpdateProblem.MALFORMED, f"not a version: {tag!r}")
    latest = tag.removeprefix("v")
    url = release.get("html_url")
    notes = release.get("body")
    title = release.get("name")
    status = (
        UpdateStatus.NEWER
        if latest_key > current_key
        else UpdateStatus.AHEAD
        if latest_key < current_key
        else UpdateStatus.CURRENT
    )
    return UpdateResult(
        status=status,
        current=current,
        latest=latest,
        url=url if isinstance(url, str) and url.startswith("https://") else RELEASES_PAGE,
        title=title if isinstance(title, str) else "",
        notes=_summary(notes) if isinstance(notes, str) else "",
    )


def _pick_release(payload: object) -> dict[str, object] | None:
    items = payload if isinstance(payload, list) else [payload]
    best: tuple[object, dict[str, object]] | None = None
    for item in items:
        if not isinstance(item, dict) or item.get("draft") or item.get("prerelease"):
            continue
        tag = item.get("tag_name")
        key = version_key(tag) if isinstance(tag, str) else None
        if key is None:
            if len(items) == 1:
                return item  # the caller names the bad tag
            continue
        if best is None or key > best[0]:  # type: ignore[operator]
            best = (key, item)
    return best[1] if best is not None else None


def _summary(notes: str) -> str:
    text = notes.replace("\r\n", "\n").strip()
    return text if len(text) <= NOTES_LIMIT else text[:NOTES_LIMIT].rstrip() + " …"


def _failed(current: str, problem: UpdateProblem, detail: str) -> UpdateResult:
    log.info("update check failed (%s): %s", problem.value, detail)
    return UpdateResult(UpdateStatus.FAILED, current, problem=problem, detail=detail)


async def check(current: str, url: str | None = None, timeout: float = TIMEOUT) -> UpdateResult:
    """Ask the feed once; every outcome is a result, within ``timeout`` seconds."""
    import httpx2  # only when a check runs: the window starts without it

    target = url or feed_url()
    headers = {"Accept": "application/vnd.github+json", "User-Agent": f"AgentDesk/{current}"}
    try:
        async with asyncio.timeout(timeout):
            async with httpx2.AsyncClient(timeout=timeout, follow_redirects=True) as client:
                response = await client.get(target, headers=headers)
    except (TimeoutError, httpx2.HTTPError, OSError) as exc:
        return _failed(current, UpdateProblem.UNREACHABLE, f"{target}: {exc!r}")
    if response.status_code != 200:
        return _failed(current, UpdateProblem.HTTP_STATUS, f"{target}: HTTP {response.status_code}")
    try:
        payload = json.loads(response.content)
    except ValueError as exc:
        return _failed(current, UpdateProblem.MALFORMED, f"{target}: {exc}")
    result = compare(current, payload)
    if result.status is UpdateStatus.FAILED:
        return replace(result, detail=f"{target}: {result.detail}")
    return result


class CheckSchedule:
    """When the automatic check last ran (``updates.json`` in the data folder)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def last(self) -> datetime | None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            return datetime.fromisoformat(data["last_check"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def due(self, now: datetime | None = None) -> bool:
        """True when no automatic check ran in the last ``INTERVAL``."""
        last = self.last()
        moment = now or datetime.now(UTC)
        return last is None or not (moment - INTERVAL < last <= moment)

    def mark(self, now: datetime | None = None) -> None:
        moment = (now or datetime.now(UTC)).isoformat()
        try:
            atomic_write(self.path, json.dumps({"last_check": moment}))
        except OSError as exc:  # the next start checks again: harmless
            log.warning("cannot record the update check in %s: %s", self.path, exc)
