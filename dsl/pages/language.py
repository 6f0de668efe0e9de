"""The page of the rule language: docs/language.md rendered with markdown-it-py, every ```pai block
highlighted by the Pygments lexer of dsl/pygments_lexer.py (the same lexer other tools get through the
`pygments.lexers` entry point)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from markupsafe import Markup, escape


@dataclass
class LanguagePage:
    title: str
    toc: list[tuple[str, str]]  # (anchor, heading) of the second-level headings
    body: Markup


def highlight_pai(code: str) -> str:
    """Tokens of our own lexer, written with Pygments' short class names and our own escaping, so the
    page depends only on this project's code (Pygments' HTML formatter escapes differently across
    versions, which would make `paili docs --check` depend on the installed version)."""
    from html import escape

    from pygments.token import STANDARD_TYPES

    from ..pygments_lexer import PaiLexer

    parts = []
    for ttype, value in PaiLexer().get_tokens(code):
        while ttype not in STANDARD_TYPES:
            ttype = ttype.parent
        cls = STANDARD_TYPES[ttype]
        text = escape(value, quote=False)
        parts.append(f'<span class="{cls}">{text}</span>' if cls else text)
    body = "".join(parts)
    return f'<pre class="highlight"><code class="language-pai">{body}</code></pre>\n'


def _highlight(code: str, lang: str, attrs: str) -> str:
    if lang in ("pai", "paili"):
        return highlight_pai(code)
    return ""  # markdown-it writes the escaped block itself


def _slug(text: str, used: set[str]) -> str:
    base = re.sub(r"[^\w\u4e00-\u9fff]+", "-", text).strip("-").lower() or "section"
    slug, n = base, 2
    while slug in used:
        slug, n = f"{base}-{n}", n + 1
    used.add(slug)
    return slug


def render_language(markdown_text: str) -> LanguagePage:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"highlight": _highlight, "html": False}).enable("table")
    tokens = md.parse(markdown_text)
    used: set[str] = set()
    toc: list[tuple[str, str]] = []
    title = ""
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open":
            inline = tokens[i + 1]
            text = inline.content
            slug = _slug(text, used)
            tok.attrSet("id", slug)
            if tok.tag == "h1" and not title:
                title = text
            elif tok.tag == "h2":
                toc.append((slug, text))
    body = md.renderer.render(tokens, md.options, {})
    return LanguagePage(str(escape(title)) if title else "", toc, Markup(body))
