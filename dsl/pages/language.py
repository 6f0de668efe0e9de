"""The page of the rule language: docs/language.md rendered with markdown-it-py, every ```pai block
highlighted by the Pygments lexer of dsl/pygments_lexer.py (the same lexer other tools get through the
`pygments.lexers` entry point).

Two editions come from the one source: the English page, and a Chinese edition whose title, opening
note and section headings (and so its contents list) come from `language.zh.toml` beside the source,
keyed by each section's English heading, and whose prose comes from `language.zh.md` beside it, section
by section, with the code blocks and the generated table of codes taken from the English source
(`language_zh.compose`). Both keep the same anchors, so a link into one edition works in the other."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup, escape


@dataclass
class LanguagePage:
    title: str
    toc: list[tuple[str, Markup]]  # (anchor, heading as HTML) of the second-level headings
    body: Markup
    lang: str = "en"
    intro: str = ""
    untranslated: list[str] = field(default_factory=list)  # headings the Chinese edition lacks
    untranslated_body: list[str] = field(default_factory=list)  # sections with no Chinese text


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


_NUMBER = re.compile(r"^(\d+(?:\.\d+)*\.?)\s+")


class LanguageError(ValueError):
    """A Chinese edition whose text does not fit the English source (one sentence per problem)."""


def translation(source: Path) -> dict | None:
    """The Chinese edition's words for a language reference (`language.zh.toml` beside it, and the prose
    of `language.zh.md` as its "body" when that file exists), or None."""
    import tomllib

    path = Path(source).with_name("language.zh.toml")
    if not path.exists():
        return None
    with open(path, "rb") as fh:
        zh = tomllib.load(fh)
    prose = Path(source).with_name("language.zh.md")
    if prose.exists():
        zh["body"] = prose.read_text(encoding="utf-8")
    return zh


def render_language(markdown_text: str, zh: dict | None = None) -> LanguagePage:
    """The English page, or with `zh` (see `translation`) the Chinese edition."""
    from markdown_it import MarkdownIt

    untranslated_body: list[str] = []
    if zh is not None and "body" in zh:
        from .language_zh import compose

        composed = compose(markdown_text, zh["body"], zh.get("codes"))
        if composed.problems:
            raise LanguageError("the Chinese edition does not fit docs/language.md:\n" + "\n".join(composed.problems))
        markdown_text, untranslated_body = composed.markdown, composed.untranslated
    md = MarkdownIt("commonmark", {"highlight": _highlight, "html": False}).enable("table")
    tokens = md.parse(markdown_text)
    headings = (zh or {}).get("headings", {})
    used: set[str] = set()
    toc: list[tuple[str, Markup]] = []
    title = ""
    missing: list[str] = []
    for i, tok in enumerate(tokens):
        if tok.type != "heading_open":
            continue
        inline = tokens[i + 1]
        text = inline.content
        tok.attrSet("id", _slug(text, used))  # the English heading's anchor, in both editions
        if tok.tag == "h1" and not title:
            title = text
            if zh is not None and zh.get("title"):
                inline.children = md.parseInline(zh["title"])[0].children
            continue
        if zh is not None and tok.tag in ("h2", "h3"):
            m = _NUMBER.match(text)
            number, rest = (m.group(1), text[m.end():]) if m else ("", text)
            cn = headings.get(rest)
            if cn is None:
                missing.append(text)
            else:
                inline.children = md.parseInline(f"{number} {cn}" if number else cn)[0].children
        if tok.tag == "h2":
            toc.append((tok.attrGet("id"), Markup(md.renderer.renderInline(inline.children, md.options, {}))))
    body = md.renderer.render(tokens, md.options, {})
    if zh is not None:
        return LanguagePage(str(escape(zh.get("title") or title)), toc, Markup(body), "zh-CN",
                            zh.get("intro", ""), missing, untranslated_body)
    return LanguagePage(str(escape(_plain(title))) if title else "", toc, Markup(body))


def _plain(text: str) -> str:
    """A heading's text without its Markdown code marks (for the page's <title>)."""
    return text.replace("`", "")
