"""The update check against a fake releases feed on 127.0.0.1: a clear result for every case.

Newer, same, older, a list of releases, malformed JSON, a tag that is no version, an HTTP
error, an unreachable server and one that never answers: each gives an ``UpdateResult`` (never an
exception), and only the request itself is sent.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from desktop.core import updates
from desktop.core.updates import CheckSchedule, UpdateProblem, UpdateStatus, check, version_key
from tests.fakes.fake_releases import CURRENT, NOTES, ReleaseFeed


@pytest.fixture
def feed() -> Iterator[ReleaseFeed]:
    server = ReleaseFeed()
    yield server
    server.close()


def _check(url: str, timeout: float = 15.0) -> updates.UpdateResult:
    return asyncio.run(check(CURRENT, url, timeout=timeout))


def test_a_newer_release_is_reported_with_its_notes_and_page(feed: ReleaseFeed) -> None:
    result = _check(feed.url("/newer"))
    assert result.status is UpdateStatus.NEWER
    assert (result.current, result.latest) == (CURRENT, "9.1.0")
    assert result.url == "https://github.com/agentdesk/agentdesk/releases/tag/v9.1.0"
    assert result.notes == NOTES and result.problem is None
    path, headers = feed.requests[-1]
    assert path == "/newer"
    assert headers["User-Agent"] == f"AgentDesk/{CURRENT}"
    sent = {name.lower() for name in headers}
    assert sent <= {"host", "accept", "accept-encoding", "connection", "user-agent"}, sent


def test_same_older_and_list_feeds(feed: ReleaseFeed) -> None:
    same = _check(feed.url("/same"))
    assert same.status is UpdateStatus.CURRENT and same.latest == "1.4.0"
    older = _check(feed.url("/older"))
    assert older.status is UpdateStatus.AHEAD and older.latest == "1.3.9"
    listed = _check(feed.url("/list"))  # the draft and the pre-release do not count
    assert listed.status is UpdateStatus.NEWER and listed.latest == "9.1.0"


@pytest.mark.parametrize(
    ("path", "problem"),
    [
        ("/malformed", UpdateProblem.MALFORMED),
        ("/badtag", UpdateProblem.MALFORMED),
        ("/error", UpdateProblem.HTTP_STATUS),
        ("/missing", UpdateProblem.HTTP_STATUS),
    ],
)
def test_a_bad_answer_is_a_failed_result(feed: ReleaseFeed, path: str, problem: str) -> None:
    result = _check(feed.url(path))
    assert result.status is UpdateStatus.FAILED and result.problem is problem
    assert result.latest is None and feed.url(path) in result.detail


def test_an_unreachable_or_silent_server_is_a_failed_result(feed: ReleaseFeed) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    refused = _check(f"http://127.0.0.1:{port}/releases/latest")
    assert refused.status is UpdateStatus.FAILED
    assert refused.problem is UpdateProblem.UNREACHABLE
    silent = _check(feed.url("/silent"), timeout=1.0)
    assert silent.status is UpdateStatus.FAILED
    assert silent.problem is UpdateProblem.UNREACHABLE


def test_the_feed_url_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(updates.FEED_ENV, raising=False)
    assert updates.feed_url() == updates.FEED_URL
    assert updates.FEED_URL.startswith("https://api.github.com/repos/")
    monkeypatch.setenv(updates.FEED_ENV, "http://127.0.0.1:1/x")
    assert updates.feed_url() == "http://127.0.0.1:1/x"


@pytest.mark.parametrize(
    "ordered",
    [
        ["0.1.0", "0.1.1", "0.2.0", "0.10.0", "1.0.0"],
        ["1.0.dev1", "1.0a1", "1.0b2", "1.0rc1", "1.0", "1.0.post1", "1.0.1"],
        ["v1.9", "v1.10.0rc1", "1.10"],
    ],
)
def test_versions_order_as_pep_440(ordered: list[str]) -> None:
    keys = [version_key(v) for v in ordered]
    assert None not in keys
    assert keys == sorted(keys)  # type: ignore[type-var]
    assert len(set(keys)) == len(keys)


def test_version_equality_and_garbage() -> None:
    assert version_key("v1.0") == version_key("1.0.0")
    assert version_key("nightly") is None and version_key("") is None


def test_the_schedule_is_at_most_daily(tmp_path: Path) -> None:
    schedule = CheckSchedule(tmp_path / "data" / "updates.json")
    now = datetime(2026, 11, 24, 12, tzinfo=UTC)
    assert schedule.due(now)
    schedule.mark(now)
    assert schedule.last() == now
    assert not schedule.due(now + timedelta(hours=23))
    assert schedule.due(now + timedelta(hours=25))
    assert schedule.due(now - timedelta(days=3))  # a clock set back does not silence it forever
    (tmp_path / "data" / "updates.json").write_text("{not json")
    assert schedule.last() is None and schedule.due(now)
