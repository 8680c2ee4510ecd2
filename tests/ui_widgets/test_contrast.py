"""Every text of both palettes reads at WCAG AA (4.5:1) against what it is drawn on.

The colours are taken from where they are used: the ``QPalette`` roles ``theme`` sets and
every rule of every style-sheet template (the application's, the sidebar's, the Settings
dialog's), formatted with each palette and parsed. A rule with a text colour and a
background is checked as that pair; a text colour without a background is checked on every
background the window paints (``window``, ``surface``, ``sidebar``, ``user_bubble``); a
background without a text colour is checked with the inherited ``text`` (unless it is a
sub-control that draws no text: an indicator, a handle).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtGui import QPalette

from desktop.ui import mcp_status, model_picker, plan_view, theme, usage_view
from desktop.ui.composer_context import chips as composer_chips
from desktop.ui.composer_context import popup as composer_popup
from desktop.ui.conversation import find_bar
from desktop.ui.conversation import style as conversation_style
from desktop.ui.palette import contrast
from desktop.ui.settings import mcp_page
from desktop.ui.settings import style as settings_style
from desktop.ui.sidebar import panel as sidebar_panel

AA = 4.5
ROOT = Path(__file__).resolve().parents[2] / "desktop" / "ui"
#: Every style-sheet template in the window, by where it lives.
TEMPLATES = {
    "desktop/ui/theme.py": theme._QSS,
    "desktop/ui/settings/style.py": settings_style.SHEET,
    "desktop/ui/sidebar/panel.py": sidebar_panel._QSS,
    "desktop/ui/conversation/style.py": conversation_style.SHEET,
    "desktop/ui/conversation/find_bar.py": find_bar._QSS,
    "desktop/ui/composer_context/chips.py": composer_chips._SHEET,
    "desktop/ui/composer_context/popup.py": composer_popup._SHEET,
    "desktop/ui/plan_view.py": plan_view._SHEET,
    "desktop/ui/model_picker.py": model_picker._SHEET,
    "desktop/ui/usage_view.py": usage_view._SHEET,
    "desktop/ui/mcp_status.py": mcp_status._SHEET + mcp_status._BUTTON_SHEET,
    "desktop/ui/settings/mcp_page.py": mcp_page._SHEET,
}
#: Backgrounds a text without its own background can sit on.
SURFACES = ("window", "surface", "sidebar", "user_bubble")
#: Backgrounds that never carry text (lines, handles, the accent ring).
DECORATIVE = ("border",)
#: Sub-controls that draw no text (a check box's indicator, a scroll bar's handle, …).
_TEXTLESS = re.compile(r"::(?!item|title|tab\b)[\w-]+")
_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_COLOUR = re.compile(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{6})")
_BACKGROUND = re.compile(r"background(?:-color)?:\s*(#[0-9a-fA-F]{6})")


def _pairs(sheet: str, colours: theme.Palette) -> list[tuple[str, str, str]]:
    """(selector, text colour, background) of every text the sheet can draw."""
    pairs = []
    decorative = {getattr(colours, name) for name in DECORATIVE}
    texts: dict[str, str] = {}  # selector → its text colour, for the rules refining it
    for raw, body in _RULE.findall(sheet):
        selector = raw.strip()
        found = _COLOUR.search(body)
        bg = _BACKGROUND.search(body)
        # A rule without a colour of its own inherits the one of the rule it refines
        # (``QLabel[role="badge"][state="failed"]`` from ``QLabel[role="badge"]``).
        refined = [texts[s] for s in sorted(texts, key=len) if selector.startswith(s)]
        fg = found.group(1) if found else (refined[-1] if refined else None)
        if found:
            texts[selector] = found.group(1)
        if fg and bg:
            pairs.append((selector, fg, bg.group(1)))
        elif fg:
            pairs += [(selector, fg, getattr(colours, s)) for s in SURFACES]
        elif bg and bg.group(1) not in decorative and not _TEXTLESS.search(selector):
            pairs.append((selector, colours.text, bg.group(1)))
    return pairs


def test_the_contrast_helper_matches_known_ratios() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # just under AA


def test_every_template_in_the_window_is_checked() -> None:
    """A new style sheet with palette colours must join ``TEMPLATES`` (or it escapes the test)."""
    using_palette = {
        str(path.relative_to(ROOT.parents[1]))
        for path in ROOT.rglob("*.py")
        if re.search(r"(?:color|background(?:-color)?):\s*\{\w+\}", path.read_text())
    }
    assert using_palette <= set(TEMPLATES)


@pytest.mark.parametrize("colours", [theme.LIGHT, theme.DARK], ids=["light", "dark"])
def test_style_sheet_texts_meet_aa(colours: theme.Palette) -> None:
    failures = []
    checked = 0
    for where, template in TEMPLATES.items():
        for selector, fg, bg in _pairs(template.format(**colours._asdict()), colours):
            checked += 1
            ratio = contrast(fg, bg)
            if ratio < AA:
                failures.append(f"{where}: {selector}: {fg} on {bg} = {ratio:.2f}")
    assert checked > 100  # the parser really read the sheets
    assert failures == []


@pytest.mark.parametrize("colours", [theme.LIGHT, theme.DARK], ids=["light", "dark"])
def test_palette_roles_meet_aa(colours: theme.Palette) -> None:
    palette = theme.qt_palette(colours)
    roles = QPalette.ColorRole
    disabled = QPalette.ColorGroup.Disabled
    pairs = [
        (palette.color(roles.Text), palette.color(roles.Base)),
        (palette.color(roles.WindowText), palette.color(roles.Window)),
        (palette.color(roles.ButtonText), palette.color(roles.Button)),
        (palette.color(roles.HighlightedText), palette.color(roles.Highlight)),
        (palette.color(roles.PlaceholderText), palette.color(roles.Base)),
        (palette.color(roles.PlaceholderText), palette.color(roles.Button)),
        (palette.color(roles.ToolTipText), palette.color(roles.ToolTipBase)),
        (palette.color(roles.Link), palette.color(roles.Base)),
        (palette.color(roles.Link), palette.color(roles.AlternateBase)),
        (palette.color(disabled, roles.ButtonText), palette.color(disabled, roles.Button)),
    ]
    ratios = [contrast(fg.name(), bg.name()) for fg, bg in pairs]
    assert min(ratios) >= AA, list(zip(pairs, ratios, strict=True))


@pytest.mark.parametrize("colours", [theme.LIGHT, theme.DARK], ids=["light", "dark"])
def test_every_text_colour_reads_on_every_surface(colours: theme.Palette) -> None:
    """Also the colours painted without a style sheet (sidebar rows, search hits)."""
    texts = ("text", "muted", "accent", "danger", "warning", "success")
    worst = min(
        (contrast(getattr(colours, t), getattr(colours, s)), t, s) for t in texts for s in SURFACES
    )
    assert worst[0] >= AA, worst
    on_fills = ("accent", "muted", "danger", "warning", "success")  # buttons and badges
    assert min(contrast(colours.accent_text, getattr(colours, f)) for f in on_fills) >= AA


_MARKDOWN = """# Heading with a [link](https://example.com) and `code`

> a quote

| a | b |
|---|---|
| 1 | 2 |

```python
@decorator
def f(x: int = 1, *args) -> str:  # comment
    '''doc'''
    return f"{x!r}" + 'text' + str(0x1F) if x is not None else None
```

```diff
- removed
+ added
```

```json
{"key": [1, 2.5, true, null]}
```

```bash
for f in *.py; do echo "$f" && exit 1; done
```
"""


@pytest.mark.parametrize("colours", [theme.LIGHT, theme.DARK], ids=["light", "dark"])
def test_rendered_markdown_texts_meet_aa(colours: theme.Palette) -> None:
    """Every colour an answer is drawn in (links, quotes, syntax colours of code) reads at AA
    on what it is drawn on: code on the code background, the rest on every surface."""
    from desktop.ui.conversation.markdown import MarkdownRenderer

    html = MarkdownRenderer(colours).render(_MARKDOWN)
    code_blocks = re.findall(r"<pre[^>]*>.*?</pre>", html, flags=re.DOTALL)
    assert len(code_blocks) == 4
    failures = []
    for block in code_blocks:
        found = set(_COLOUR.findall(block))
        assert len(found) > 1 or "json" in block  # the code really is coloured
        failures += [
            f"code {fg} on {colours.surface}" for fg in found if contrast(fg, colours.surface) < AA
        ]
    rest = re.sub(r"<pre[^>]*>.*?</pre>", "", html, flags=re.DOTALL)
    for fg in set(_COLOUR.findall(rest)):
        failures += [
            f"{fg} on {getattr(colours, s)}"
            for s in ("window", "surface")
            if contrast(fg, getattr(colours, s)) < AA
        ]
    assert failures == []
