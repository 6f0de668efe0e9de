"""The Jinja2 environments of the pages: templates live in dsl/templates/ (package data).

HTML templates render with autoescaping; Markdown templates with a separate environment without it.
Both use StrictUndefined, so a template naming a field the page data does not have is an error, not an
empty string.
"""
from __future__ import annotations

from functools import cache

from jinja2 import Environment, PackageLoader, StrictUndefined

from . import words as W


def _md_cell(text) -> str:
    """Text made safe for one cell of a Markdown table."""
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _md_text(text) -> str:
    """Text made safe for a Markdown paragraph (no accidental emphasis, headings or lists)."""
    s = str(text)
    for c in ("\\", "*", "_", "`", "[", "]", "<", ">"):
        s = s.replace(c, "\\" + c)
    if s[:1] in ("#", "-", "+") or (s[:1].isdigit() and s[1:2] == "."):
        s = "\\" + s
    return s


def _common(env: Environment) -> Environment:
    env.filters["cn"] = W.cn_number
    env.filters["mdcell"] = _md_cell
    env.filters["mdtext"] = _md_text
    env.globals["words"] = W
    return env


@cache
def html_env() -> Environment:
    return _common(Environment(loader=PackageLoader("dsl", "templates"), autoescape=True,
                               undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                               keep_trailing_newline=True))


@cache
def md_env() -> Environment:
    return _common(Environment(loader=PackageLoader("dsl", "templates"), autoescape=False,
                               undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                               keep_trailing_newline=True))


def render_html(template: str, **data) -> str:
    return html_env().get_template(template).render(**data)


def render_md(template: str, **data) -> str:
    return md_env().get_template(template).render(**data)
