"""The Jinja2 environments of the pages: templates live in dsl/templates/ (package data).

HTML templates render with HTML autoescaping. Markdown templates render in their own environment that
escapes for Markdown: every value a template prints goes through `md_escape` (Markdown's special
characters backslash-escaped, `<` and `>` included, so rule-file text such as `<script>` in a title,
a group heading or a table cell is shown as text, never as markup; line breaks become spaces), unless a
filter or a macro has already made it Markdown (`mdtext`, `mdcell`, `mdcode` and macro output are
`Markup`). Both use StrictUndefined, so a template naming a field the page data does not have is an
error, not an empty string.
"""
from __future__ import annotations

from functools import cache

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from . import words as W

# Markdown's inline specials (CommonMark lets any ASCII punctuation be backslash-escaped): emphasis,
# code, links and images, raw HTML, table cells, and `\` itself.
_MD_SPECIAL = ("\\", "*", "_", "`", "[", "]", "<", ">", "|")


def md_escape(text) -> str:
    """Text made inert in Markdown: shown as written, never markup, on one line."""
    s = str(text)
    for c in _MD_SPECIAL:
        s = s.replace(c, "\\" + c)
    return s.replace("\r", " ").replace("\n", " ")


def _md_cell(text) -> Markup:
    """Text made safe for one cell of a Markdown table."""
    return Markup(md_escape(text))


def _md_text(text) -> Markup:
    """Text made safe for a Markdown paragraph (no accidental emphasis, headings, lists or HTML)."""
    s = str(text)
    for c in _MD_SPECIAL:
        if c != "|":
            s = s.replace(c, "\\" + c)
    if s[:1] in ("#", "-", "+") or (s[:1].isdigit() and s[1:2] == "."):
        s = "\\" + s
    return Markup(s)


def _md_code(text) -> Markup:
    """Text for inside a code span (`…`): backticks and line breaks cannot end or break it."""
    return Markup(str(text).replace("`", "'").replace("\n", " "))


def _md_anchor(text) -> Markup:
    """The anchor a Markdown viewer gives a heading (GitHub's rule: punctuation dropped, spaces as `-`)."""
    import re

    return Markup(re.sub(r"[^\w\- ]", "", str(text).lower()).replace(" ", "-"))


def _md_finalize(value):
    """Every printed value that is not already Markdown is escaped (the Markdown environment's autoescape)."""
    if isinstance(value, Markup):
        return value
    return Markup(md_escape(value))


def _common(env: Environment) -> Environment:
    env.filters["cn"] = W.cn_number
    env.filters["mdcell"] = _md_cell
    env.filters["mdtext"] = _md_text
    env.filters["mdcode"] = _md_code
    env.filters["mdanchor"] = _md_anchor
    env.globals["words"] = W
    return env


# the package that holds templates/ (paili.dsl): named from this module's place, not spelled out, so the
# templates are found however the package is installed
COMPILER_PACKAGE = __package__.rpartition(".")[0]


@cache
def html_env() -> Environment:
    return _common(Environment(loader=PackageLoader(COMPILER_PACKAGE, "templates"), autoescape=True,
                               undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                               keep_trailing_newline=True))


@cache
def md_env() -> Environment:
    # autoescape makes macros return Markup (not escaped again); `finalize` does the Markdown escaping
    # of every other value before autoescape would apply HTML escaping (it leaves Markup alone).
    return _common(Environment(loader=PackageLoader(COMPILER_PACKAGE, "templates"), autoescape=True,
                               finalize=_md_finalize, undefined=StrictUndefined, trim_blocks=True,
                               lstrip_blocks=True, keep_trailing_newline=True))


def render_html(template: str, **data) -> str:
    return html_env().get_template(template).render(**data)


def render_md(template: str, **data) -> str:
    return str(md_env().get_template(template).render(**data))
