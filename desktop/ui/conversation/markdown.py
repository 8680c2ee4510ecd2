"""Markdown to the rich text Qt draws, styled from the palette in use.

One renderer per palette (``renderer``): every colour of an answer (links, code, quotes, table
rules) is a palette role (``desktop.ui.palette``), and the syntax colours of code come from a
Pygments style, each made readable (WCAG AA) on the code background; an answer rendered before
a theme change is rendered again (``stream_view``). Qt's rich text has no CSS borders on blocks,
so a blockquote is a two-cell table (a narrow bar and the quote), a table gets cell rules, and a
code block is a table with a header row (the language and a "Copy" link, ``COPY_SCHEME``).

Building a Pygments lexer the first time compiles its regular expressions (5–40 ms for Python,
Rust, TypeScript): while an answer streams, ``prepare`` builds the lexers a block needs on a
worker thread (``worker``: one thread, started once), and ``highlight(..., wait=False)`` draws
code as plain text until its lexer is ready, so the event loop never waits for a compile. A
finished block is rendered there too (``render_later``): highlighting its code costs a few ms.

The model is hostile: raw HTML is escaped, ``file:``/``javascript:`` links are not made by the
parser, and what a click may open is decided by ``links.open_link``.
"""

from __future__ import annotations

import colorsys
import hashlib
import html
import re
from collections.abc import MutableMapping, Sequence
from concurrent.futures import Future
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token
from pygments.lexers import TextLexer
from pygments.styles import get_style_by_name
from pygments.token import Generic, _TokenType
from PySide6.QtCore import QCoreApplication

from desktop.ui.conversation import worker
from desktop.ui.conversation.blocks import CONTINUED, CUT, unmarked
from desktop.ui.conversation.lexers import build_missing, lexer_for, prepare_languages
from desktop.ui.palette import DARK, LIGHT, Palette, contrast, luminance

#: The scheme of the links a code block's "Copy" is (the view copies that block, never opens it).
COPY_SCHEME = "agentdesk-copy"
#: The key, in the ``codes`` of an answer, of the code block cut at the end of the last block
#: rendered: the pieces that continue it are added to its code (one "Copy" for the whole).
OPEN_CODE = "\0open"
#: Pygments styles (token colours only; each is made readable on the palette's code background).
_CODE_STYLES = {False: "xcode", True: "github-dark"}
#: Contrast every syntax colour reaches on the code background (WCAG AA is 4.5).
_AA = 4.6
#: A code block's "Copy" link in rendered HTML, up to its colour (``MarkdownRenderer._fence``).
_LINK_COLOUR = re.compile(rf'(<a href="{COPY_SCHEME}:[^"]*" style="color:)#[0-9a-fA-F]{{6}}')
_LONG_WORD = re.compile(r"(\S{80})(?=\S)")
#: One type scale: heading sizes relative to the body text (Qt's size keywords follow zoom).
_HEADINGS = {
    "h1": ("x-large", 16, 6),
    "h2": ("large", 14, 6),
    "h3": ("medium", 12, 4),
    "h4": ("medium", 10, 4),
    "h5": ("medium", 10, 4),
    "h6": ("medium", 10, 4),
}
_BLOCK = "margin-top:0px; margin-bottom:12px"
_FENCE_LANG = re.compile(r"^ {0,3}(?:`{3,}|~{3,})[ \t]*([^\s`]+)", re.MULTILINE)


def render_later(
    dark: bool, text: str, codes: MutableMapping[str, str], surface: str
) -> Future[str]:
    """``renderer(dark).render(text, codes)`` on the worker thread, its lexers built first
    (``worker.handoff().done`` says when it is ready), its "Copy" links drawn in ``surface``
    (``conceal_links``: not coloured again once in the document). Its code goes into
    ``codes`` there."""

    def job() -> str:
        build_missing(fence_languages(text))
        return conceal_links(_worker_renderer(dark).render(text, codes), surface)

    return worker.submit(job, notify=True)


#: What ``render_live_later`` gives back: the HTML, the code of each "Copy" link, and whether it
#: was drawn with every lexer it needs (False: its code is plain; render it again later).
LiveHtml = tuple[str, dict[str, str], bool]


def conceal_links(html: str, surface: str) -> str:
    """``html`` with its code blocks' "Copy" drawn in the code background ``surface`` (the open
    block while it streams: shown as it will be once finished, ``reveal.CopyLinks``)."""
    return _LINK_COLOUR.sub(rf"\g<1>{surface}", html)


def render_live_later(dark: bool, text: str, surface: str) -> Future[LiveHtml]:
    """The open (still growing) block rendered on the worker thread, its code plain while its
    lexers are built there (never waited for: the open block is drawn again once they are),
    its code blocks' "Copy" links drawn in ``surface`` (``reveal.conceal_links``)."""

    def job() -> LiveHtml:
        ready = prepare_languages(fence_languages(text))  # those missing: built after this job
        codes: dict[str, str] = {}
        out = _worker_renderer(dark).render(text, codes, wait=False)
        return conceal_links(out, surface), codes, ready

    return worker.submit(job, notify=True)


def fence_languages(text: str) -> list[str]:
    """The languages named by the code fences of markdown ``text``."""
    return [lang.lower() for lang in _FENCE_LANG.findall(text) if not lang.startswith("\u2063")]


def _break_long_words(text: str) -> str:
    """Zero-width spaces inside words of 80+ characters, so a label can wrap them."""
    return _LONG_WORD.sub("\\1\u200b", text)


def readable(colour: str, background: str) -> str:
    """``colour`` (``#rrggbb``), lightened or darkened until it reads at AA on ``background``."""
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    hue, light, sat = colorsys.rgb_to_hls(r, g, b)
    step = 0.02 if luminance(background) < 0.18 else -0.02
    while contrast(colour, background) < _AA and 0.0 < light < 1.0:
        light = min(1.0, max(0.0, light + step))
        r, g, b = colorsys.hls_to_rgb(hue, light, sat)
        colour = "#{:02x}{:02x}{:02x}".format(*(round(c * 255) for c in (r, g, b)))
    return colour


def code_id(code: str) -> str:
    """The name of a code block in its "Copy" link (the same code, the same name)."""
    return hashlib.sha1(code.encode(), usedforsecurity=False).hexdigest()[:16]


class MarkdownRenderer:
    """Renders markdown to the HTML subset Qt understands, in the colours of ``palette``."""

    def __init__(self, palette: Palette) -> None:
        self.palette = palette
        self.dark = palette.dark
        self._style = get_style_by_name(_CODE_STYLES[palette.dark])
        self._tokens: dict[_TokenType, tuple[str, str]] = {}
        self._md = MarkdownIt("commonmark", {"html": False})
        self._md.enable(["table", "strikethrough"])
        rules: dict[str, Any] = {
            "fence": self._fence,
            "code_block": self._fence,
            "code_inline": self._code_inline,
            "paragraph_open": self._paragraph_open,
            "heading_open": self._heading_open,
            "blockquote_open": self._quote_open,
            "blockquote_close": self._quote_close,
            "table_open": self._table_open,
            "th_open": self._cell_open,
            "td_open": self._cell_open,
            "link_open": self._link_open,
            "bullet_list_open": self._list_open,
            "ordered_list_open": self._list_open,
        }
        for name, rule in rules.items():
            # markdown-it calls a rule as rule(renderer, tokens, idx, options, env).
            self._md.add_render_rule(name, _bind(rule))

    # ---------------------------------------------------------------- public
    def render(
        self, text: str, codes: MutableMapping[str, str] | None = None, *, wait: bool = True
    ) -> str:
        """HTML of one markdown block; each code block's text goes into ``codes`` by its id
        (the view copies it when its "Copy" link is clicked). ``wait=False``: code whose lexer
        is not built yet is drawn plain (the open block while it streams)."""
        if not text.strip():
            return ""
        env: dict[str, Any] = {"codes": codes, "wait": wait}
        out: str = self._md.render(_break_long_words(text), env)
        return out

    def plain(self, text: str) -> str:
        """HTML of plain text (for user messages), keeping line breaks."""
        return html.escape(_break_long_words(text)).replace("\n", "<br>")

    # ---------------------------------------------------------------- code
    def _token_style(self, kind: _TokenType) -> tuple[str, str]:
        """(opening span, closing) for a Pygments token kind ("" when it keeps the text colour)."""
        found = self._tokens.get(kind)
        if found is None:
            style = self._style.style_for_token(kind)
            css = []
            # A diff's lines in the palette's own tones, as the diff viewer shows them.
            tone = {Generic.Inserted: "success", Generic.Deleted: "danger"}.get(kind)
            colour = (
                getattr(self.palette, tone) if tone else style["color"] and "#" + style["color"]
            )
            if colour:
                css.append(f"color:{readable(colour, self.palette.surface)}")
            if style["bold"]:
                css.append("font-weight:600")
            if style["italic"]:
                css.append("font-style:italic")
            found = (f'<span style="{"; ".join(css)}">', "</span>") if css else ("", "")
            self._tokens[kind] = found
        return found

    def highlight(self, code: str, lang: str, *, wait: bool = True) -> str:
        """The HTML of ``code`` coloured as ``lang`` (plain text when unknown, or while its
        lexer is being built when not ``wait``)."""
        lexer = (lexer_for(lang.lower(), wait=wait) if lang else None) or TextLexer()
        tokens = list(lexer.get_tokens(code))
        while tokens and tokens[-1][1].endswith("\n"):  # no empty last line in the block
            kind, value = tokens.pop()
            if value.rstrip("\n"):
                tokens.append((kind, value.rstrip("\n")))
                break
        out = []
        for kind, value in tokens:
            opening, closing = self._token_style(kind)
            out.append(f"{opening}{html.escape(value)}{closing}")
        return "".join(out)

    def _fence(self, tokens: Sequence[Token], idx: int, env: dict[str, Any]) -> str:
        # A long code block comes in pieces (``blocks.BlockSplitter``), drawn as one: a piece
        # cut at its end has no bottom margin, one that continues another has no header.
        token = tokens[idx]
        info = token.info or ""
        cut, continued = CUT in info, CONTINUED in info
        lang = unmarked(info).split(" ")[0]
        code = token.content
        ident = code_id(code)
        codes = env.get("codes")
        if codes is not None:
            first = codes.get(OPEN_CODE)
            if continued and first is not None and first in codes:
                codes[first] += code
            else:
                codes[ident] = code
                first = ident
            if cut:
                codes[OPEN_CODE] = first
            else:
                codes.pop(OPEN_CODE, None)
        p = self.palette
        pad = "padding-left:12px; padding-right:12px"
        label = html.escape(lang) if lang else "&nbsp;"
        copy = html.escape(QCoreApplication.translate("Markdown", "Copy"))
        coloured = self.highlight(code, lang, wait=env.get("wait", True))
        header = (
            ""
            if continued
            else f'<tr><td style="{pad}; padding-top:6px"><span style="color:{p.muted}; '
            f'font-size:small">{label}</span></td>'
            f'<td align="right" style="{pad}; padding-top:6px"><a href="{COPY_SCHEME}:{ident}" '
            f'style="color:{p.accent}; text-decoration:none; font-size:small">'
            f"{copy}</a></td></tr>"
        )
        top, bottom = (0, 0) if continued else (6, 4), (0, 0) if cut else (12, 10)
        return (
            f'<table width="100%" cellspacing="0" cellpadding="0" '
            f'style="background-color:{p.surface}; margin-top:{top[0]}px; '
            f'margin-bottom:{bottom[0]}px">{header}'
            f'<tr><td colspan="2" style="{pad}; padding-top:{top[1]}px; '
            f'padding-bottom:{bottom[1]}px">'
            f'<pre style="color:{p.text}; white-space:pre-wrap; font-family:monospace; '
            f'margin:0px">{coloured}</pre></td></tr></table>'
        )

    def _code_inline(self, tokens: Sequence[Token], idx: int, _env: dict[str, Any]) -> str:
        p = self.palette
        return (
            f'<code style="background-color:{p.surface}; color:{p.text}; '
            f'font-family:monospace">{html.escape(tokens[idx].content)}</code>'
        )

    # ---------------------------------------------------------------- blocks
    def _paragraph_open(self, tokens: Sequence[Token], idx: int, _env: dict[str, Any]) -> str:
        return "" if tokens[idx].hidden else f'<p style="{_BLOCK}">'

    def _heading_open(self, tokens: Sequence[Token], idx: int, _env: dict[str, Any]) -> str:
        tag = tokens[idx].tag
        size, top, bottom = _HEADINGS.get(tag, _HEADINGS["h6"])
        return (
            f'<{tag} style="font-size:{size}; font-weight:600; '
            f'margin-top:{top}px; margin-bottom:{bottom}px">'
        )

    def _list_open(self, tokens: Sequence[Token], idx: int, _env: dict[str, Any]) -> str:
        token = tokens[idx]
        start = token.attrGet("start")
        extra = f' start="{start}"' if start is not None else ""
        return f'<{token.tag}{extra} style="{_BLOCK}">'

    def _quote_open(self, _tokens: Sequence[Token], _idx: int, _env: dict[str, Any]) -> str:
        p = self.palette
        return (
            f'<table width="100%" cellspacing="0" cellpadding="0" '
            f'style="margin-top:6px; margin-bottom:12px"><tr>'
            f'<td width="3" style="background-color:{p.border}"></td>'
            f'<td style="padding-left:12px; color:{p.muted}">'
        )

    def _quote_close(self, _tokens: Sequence[Token], _idx: int, _env: dict[str, Any]) -> str:
        return "</td></tr></table>"

    def _table_open(self, _tokens: Sequence[Token], _idx: int, _env: dict[str, Any]) -> str:
        return (
            f'<table border="1" cellspacing="0" cellpadding="6" style="border-collapse:collapse; '
            f"border-style:solid; border-color:{self.palette.border}; "
            f'margin-top:6px; margin-bottom:12px">'
        )

    def _cell_open(self, tokens: Sequence[Token], idx: int, _env: dict[str, Any]) -> str:
        token = tokens[idx]
        align = str(token.attrGet("style") or "").removeprefix("text-align:")
        extra = f' align="{align}"' if align in ("left", "center", "right") else ""
        if token.tag == "th":
            return f'<th{extra} style="background-color:{self.palette.surface}">'
        return f"<td{extra}>"

    def _link_open(self, tokens: Sequence[Token], idx: int, _env: dict[str, Any]) -> str:
        href = html.escape(str(tokens[idx].attrGet("href") or ""))
        return f'<a href="{href}" style="color:{self.palette.accent}">'


def _bind(rule: Any) -> Any:
    """A markdown-it render rule calling ``rule(tokens, idx, env)``."""

    def call(
        _renderer: object, tokens: Sequence[Token], idx: int, _options: object, env: Any
    ) -> str:
        result: str = rule(tokens, idx, env)
        return result

    return call


@lru_cache(maxsize=2)
def renderer(dark: bool) -> MarkdownRenderer:
    """The shared renderer for a palette (building one costs a few milliseconds)."""
    return MarkdownRenderer(DARK if dark else LIGHT)


@lru_cache(maxsize=2)
def _worker_renderer(dark: bool) -> MarkdownRenderer:
    """The worker thread's own renderer for a palette (none shared between threads)."""
    return MarkdownRenderer(DARK if dark else LIGHT)
