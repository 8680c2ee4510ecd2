"""The line splitter keeps memory bounded and skips oversize lines exactly."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from desktop.core.lines import LineSplitter, OversizeLine


def test_lines_across_chunks() -> None:
    splitter = LineSplitter(limit=100)
    assert splitter.feed(b'{"a":') == []
    assert splitter.feed(b"1}\n{") == [b'{"a":1}']
    assert splitter.feed(b"}\n\n") == [b"{}", b""]
    assert splitter.finish() == []


def test_oversize_line_is_skipped_to_its_end_and_next_line_survives() -> None:
    splitter = LineSplitter(limit=10)
    out = splitter.feed(b"x" * 8)
    out += splitter.feed(b"y" * 8)  # now over the limit: dropped, not kept in memory
    assert splitter._pending == 0
    out += splitter.feed(b"z" * 1000)
    out += splitter.feed(b"tail\nnext\n")
    assert out == [OversizeLine(1020), b"next"]


def test_oversize_within_one_chunk() -> None:
    splitter = LineSplitter(limit=4)
    assert splitter.feed(b"ok\ntoolong\nfine\n") == [b"ok", OversizeLine(7), b"fine"]


def test_unterminated_last_line_is_returned_at_eof() -> None:
    splitter = LineSplitter(limit=10)
    assert splitter.feed(b"a\nb") == [b"a"]
    assert splitter.finish() == [b"b"]


@given(
    st.lists(st.binary(max_size=30).filter(lambda b: b"\n" not in b), max_size=20),
    st.integers(min_value=1, max_value=17),
)
def test_any_chunking_gives_the_same_lines(lines: list[bytes], chunk: int) -> None:
    data = b"".join(line + b"\n" for line in lines)
    splitter = LineSplitter(limit=1000)
    out: list[bytes | OversizeLine] = []
    for start in range(0, len(data), chunk):
        out += splitter.feed(data[start : start + chunk])
    out += splitter.finish()
    assert out == lines


@given(
    st.lists(st.binary(max_size=40).filter(lambda b: b"\n" not in b), max_size=30),
    st.integers(min_value=1, max_value=64),
    st.integers(min_value=1, max_value=20),
)
def test_any_chunking_reports_each_oversize_line_once_with_its_size(
    lines: list[bytes], chunk: int, limit: int
) -> None:
    data = b"".join(line + b"\n" for line in lines)
    splitter = LineSplitter(limit=limit)
    out: list[bytes | OversizeLine] = []
    for start in range(0, len(data), chunk):
        out += splitter.feed(data[start : start + chunk])
    out += splitter.finish()
    assert out == [line if len(line) <= limit else OversizeLine(len(line)) for line in lines]
