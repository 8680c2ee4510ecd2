"""A fake GitHub releases feed on 127.0.0.1, for the update check (desktop/core/updates.py).

``ReleaseFeed()`` starts a threaded HTTP server; each path answers one case:

- ``/newer``, ``/same``, ``/older``: a ``releases/latest`` object whose tag is newer than, equal
  to or older than ``CURRENT`` (the test passes the running version as ``CURRENT``);
- ``/list``: a list of releases (a draft and a pre-release that must be ignored);
- ``/malformed``: not JSON; ``/badtag``: JSON whose tag is not a version; ``/error``: HTTP 500;
- ``/silent``: accepts and never answers (until the server stops): the check must time out.

``requests`` records each request's path and headers (to show nothing but the request is sent).
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

NEWER, SAME, OLDER = "v9.1.0", "v1.4.0", "v1.3.9"
CURRENT = "1.4.0"
NOTES = "## What's new\n\n- Update check in the Help menu\n- Signed installers"


def release(tag: str, *, draft: bool = False, prerelease: bool = False) -> dict[str, object]:
    return {
        "tag_name": tag,
        "name": f"Agent Desk {tag}",
        "html_url": f"https://github.com/agentdesk/agentdesk/releases/tag/{tag}",
        "body": NOTES,
        "draft": draft,
        "prerelease": prerelease,
    }


def answers(same: str, older: str) -> dict[str, object]:
    """What each path answers, around the running version ``same`` (a tag)."""
    return {
        "/newer": release(NEWER),
        "/same": release(same),
        "/older": release(older),
        "/badtag": release("nightly-build"),
        "/list": [
            release("v12.0.0", draft=True),
            release("v11.0.0rc1", prerelease=True),
            release(older),
            release(NEWER),
        ],
    }


class ReleaseFeed:
    """The server; ``url(path)`` for a case; ``close()`` also releases ``/silent``.

    ``same`` and ``older`` are the tags ``/same`` and ``/older`` answer (around the version the
    test runs the check as)."""

    def __init__(self, same: str = SAME, older: str = OLDER) -> None:
        table = answers(same, older)
        self.requests: list[tuple[str, dict[str, str]]] = []
        self.release_silent = threading.Event()
        feed = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                feed.requests.append((self.path, dict(self.headers)))
                if self.path == "/silent":
                    feed.release_silent.wait(60)
                    return
                if self.path == "/error":
                    self._send(500, b'{"message": "boom"}')
                elif self.path == "/malformed":
                    self._send(200, b"<html>not json</html>")
                elif self.path in table:
                    self._send(200, json.dumps(table[self.path]).encode())
                else:
                    self._send(404, b'{"message": "Not Found"}')

            def _send(self, status: int, body: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}{path}"

    def close(self) -> None:
        self.release_silent.set()
        self.server.shutdown()
        self.server.server_close()
