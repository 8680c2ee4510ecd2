"""The workspace's files for the ``@`` finder: listed once (honouring ``.gitignore``), queried
per keystroke.

``list_files`` walks the workspace in a worker thread (the caller's ``asyncio.to_thread``),
skipping ``.git`` and what the ``.gitignore`` files at every level ignore (``pathspec``'s
git-ignore rules). ``FileIndex.query`` ranks the paths that hold the query's characters in
order (a subsequence, as in Zed's and VS Code's finders), found and scored by ``rapidfuzz`` in C
(the longest common subsequence as long as the query, then ``fuzz.ratio``), a match in the
file's name above one in its folders, the query whole in a name above scattered letters.
A 50,000-file tree answers in a few milliseconds (``benchmarks/file_finder.py``).
"""

from __future__ import annotations

import heapq
import os
from dataclasses import dataclass
from pathlib import Path

import pathspec
from rapidfuzz import fuzz, process
from rapidfuzz.distance import LCSseq

#: Folders never listed (besides what ``.gitignore`` says).
_ALWAYS_SKIPPED = frozenset({".git", ".hg", ".svn"})
#: More files than this are not listed (a home folder opened as a workspace).
MAX_FILES = 200_000


def _ignore_spec(folder: Path) -> pathspec.GitIgnoreSpec | None:
    try:
        lines = (folder / ".gitignore").read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return pathspec.GitIgnoreSpec.from_lines(lines) if lines else None


def _ignored(active: list[tuple[str, pathspec.GitIgnoreSpec]], path: str) -> bool:
    """Whether a ``.gitignore`` of ``active`` (its folder, its rules) ignores ``path`` (a
    folder's ends with ``/``)."""
    return any(spec.match_file(path[len(base) :]) for base, spec in active)


def list_files(root: Path, limit: int = MAX_FILES) -> list[str]:
    """The workspace's files as ``/``-separated paths relative to ``root``, sorted, without
    what ``.gitignore`` files ignore (each applies to its own folder and below)."""
    found: list[str] = []
    # (folder relative path prefix, spec) of every .gitignore above the folder walked
    specs: dict[str, list[tuple[str, pathspec.GitIgnoreSpec]]] = {}
    for current, dirs, files in os.walk(root):
        rel = os.path.relpath(current, root)
        rel = "" if rel == "." else rel.replace(os.sep, "/") + "/"
        inherited = specs.get(rel, [])
        own = _ignore_spec(Path(current))
        active = [*inherited, (rel, own)] if own is not None else inherited

        dirs[:] = sorted(
            d for d in dirs if d not in _ALWAYS_SKIPPED and not _ignored(active, f"{rel}{d}/")
        )
        for d in dirs:
            specs[f"{rel}{d}/"] = active
        found.extend(rel + f for f in files if not _ignored(active, rel + f))
        if len(found) >= limit:
            break
    found.sort()
    return found[:limit]


@dataclass(frozen=True)
class FileMatch:
    """One file the finder offers: its relative path and its score (higher is better)."""

    path: str
    score: float


class FileIndex:
    """The listed files of one workspace, ready for ranked fuzzy queries."""

    def __init__(self, paths: list[str]) -> None:
        self.paths = paths
        self._lower = [p.lower() for p in paths]
        self._names = [p.rsplit("/", 1)[-1] for p in self._lower]

    def __len__(self) -> int:
        return len(self.paths)

    def _ranked(
        self, query: str, pool: list[str], indices: list[int], limit: int
    ) -> list[FileMatch]:
        """The best of ``indices`` by their text in ``pool``: close in length (``fuzz.ratio``,
        in C), then in Python a bonus for the query whole in the text, more at its start."""
        choices = {i: pool[i] for i in indices}
        near = process.extract(query, choices, scorer=fuzz.ratio, limit=limit * 3)
        scored: list[tuple[float, int]] = []
        for text, ratio, i in near:
            bonus = (30.0 if query in text else 0.0) + (20.0 if text.startswith(query) else 0.0)
            scored.append((ratio + bonus - len(self._lower[i]) / 100.0, i))
        best = heapq.nlargest(limit, scored, key=lambda pair: (pair[0], -pair[1]))
        return [FileMatch(self.paths[i], round(score, 2)) for score, i in best]

    def query(self, text: str, limit: int = 50) -> list[FileMatch]:
        """The best ``limit`` files for ``text`` (the first files when it is empty): files whose
        name holds its characters in order first, then those whose path does."""
        query = text.strip().lower().replace("\\", "/")
        if not query:
            return [FileMatch(p, 0.0) for p in self.paths[:limit]]
        whole = len(query)  # LCS length: the query is a subsequence (scanned in C)
        found: list[FileMatch] = []
        taken: set[int] = set()
        pools = (self._lower,) if "/" in query else (self._names, self._lower)
        for pool in pools:
            hits = process.extract(
                query, pool, scorer=LCSseq.similarity, score_cutoff=whole, limit=None
            )
            indices = [i for _, _, i in hits if i not in taken]
            for match in self._ranked(query, pool, indices, limit - len(found)):
                found.append(match)
            taken.update(indices)
            if len(found) >= limit:
                break
        return found
