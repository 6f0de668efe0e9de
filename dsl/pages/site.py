"""Every page of a set of rule files: `<stem>.md` and `<stem>.html` per variant (the player's page),
`<stem>-design.md` and `<stem>-design.html` (its designer's appendix), `index.md`, `index.html`, and
`language.html` (the rule language) with its Chinese edition `language-zh.html`. Rendering is
deterministic — no timestamps, no absolute paths, orders taken from the source or sorted — so
`paili docs --check` can compare the committed pages byte for byte.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup

from .faces import sprite
from .render import render_html, render_md
from .tiles import TileView

# Pages rendered in this process, by (file name, source text): the same source gives the same page.
_CACHE: dict[tuple[str, str], Rendered] = {}


@dataclass
class Rendered:
    stem: str
    title: str
    summary: list
    pattern_count: int
    sample: list[TileView]
    html: str
    md: str
    design_html: str = ""
    design_md: str = ""


class PageError(Exception):
    """A rule file that cannot be turned into a page (it does not compile)."""


def _display_path(path: Path, root: Path | None) -> str:
    p = Path(path)
    if root is not None:
        try:
            return p.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            pass
    return p.name


def render_variant(path: Path, root: Path | None = None) -> Rendered:
    from ...runtime.rules import Rules
    from ..compiler import compile_file
    from .variant import build_page

    path = Path(path)
    source = path.read_text(encoding="utf-8")
    shown = _display_path(path, root)
    key = (shown, hashlib.sha256(source.encode("utf-8")).hexdigest())
    if key in _CACHE:
        return _CACHE[key]
    res = compile_file(path, examples=True)  # an example that does not hold is an error, not page text
    if not res.ok:
        raise PageError(f"{path} does not compile:\n{res.render()}")
    rules = Rules(res.ruleset)
    page = build_page(rules, path.stem)
    html = render_html("variant.html.j2", page=page, source=shown)
    md = render_md("variant.md.j2", page=page, source=shown)
    design_html = render_html("design.html.j2", page=page, source=shown)
    design_md = render_md("design.md.j2", page=page, source=shown)
    sample = _sample(page)
    out = Rendered(path.stem, page.title, page.summary, page.pattern_count, sample, html, md, design_html,
                   design_md)
    _CACHE[key] = out
    return out


def _sample(page) -> list[TileView]:
    """A few tiles of the variant for the index: one of each row of the tile table."""
    ch = next((c for c in page.chapters if c.key == "tiles"), None)
    if ch is None:
        return []
    out = []
    for row in ch.data["rows"]:
        out.extend(row.tiles[:3])
    return out[:12]


def render_language_page(path: Path, root: Path | None = None, chinese: bool = False) -> str:
    """The language reference's page (`chinese`: its Chinese edition, which needs `language.zh.toml`)."""
    from .language import LanguageError, render_language, translation

    zh = translation(Path(path)) if chinese else None
    if chinese and zh is None:
        raise PageError(f"{Path(path).with_name('language.zh.toml')} is missing")
    try:
        page = render_language(Path(path).read_text(encoding="utf-8"), zh)
    except LanguageError as exc:
        raise PageError(str(exc)) from None
    return render_html("language.html.j2", page=page, source=_display_path(path, root))


def render_site(rule_files: list[Path], language_md: Path | None = None, root: Path | None = None
                ) -> dict[str, str]:
    """{file name: text} of every page (PageError for a rule file that does not compile, examples
    included)."""
    pages: dict[str, str] = {}
    done = []
    for f in sorted(rule_files, key=lambda p: Path(p).stem):
        r = render_variant(Path(f), root)
        pages[f"{r.stem}.html"] = r.html
        pages[f"{r.stem}.md"] = r.md
        pages[f"{r.stem}-design.html"] = r.design_html
        pages[f"{r.stem}-design.md"] = r.design_md
        done.append(r)
    has_language = language_md is not None and Path(language_md).exists()
    if has_language:
        pages["language.html"] = render_language_page(Path(language_md), root)
        if Path(language_md).with_name("language.zh.toml").exists():
            pages["language-zh.html"] = render_language_page(Path(language_md), root, chinese=True)
    faces = Markup(sprite(t.face for r in done for t in r.sample))
    pages["index.html"] = render_html("index.html.j2", pages=done, language=has_language,
                                      language_zh="language-zh.html" in pages, sprite=faces)
    pages["index.md"] = render_md("index.md.j2", pages=done, language=has_language,
                                  language_zh="language-zh.html" in pages)
    return pages


def write_pages(pages: dict[str, str], out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in sorted(pages.items()):
        target = out_dir / name
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8", newline="\n")
        written.append(target)
    return written


def check_pages(pages: dict[str, str], out_dir: Path, stale: bool = False) -> list[str]:
    """One line per page that differs from what the rule files produce (missing, changed, or — with
    `stale` — a page no rule file produces any more)."""
    out = []
    for name, text in sorted(pages.items()):
        target = out_dir / name
        if not target.exists():
            out.append(f"{target}: missing")
            continue
        have = target.read_text(encoding="utf-8")
        if have != text:
            out.append(f"{target}: differs from what the rule files produce ({_first_difference(have, text)})")
    if stale and out_dir.exists():
        for p in sorted(out_dir.iterdir()):
            if p.suffix in (".html", ".md") and p.name not in pages:
                out.append(f"{p}: no rule file produces this page")
    return out


def _first_difference(have: str, want: str) -> str:
    a, b = have.splitlines(), want.splitlines()
    for i, (x, y) in enumerate(zip(a, b), 1):
        if x != y:
            return f"first difference at line {i}"
    return f"{len(a)} lines, expected {len(b)}"
