"""The Chinese edition of the language reference, composed from two sources so that they cannot drift:
the English reference (docs/language.md) gives the sections, every code block and the generated table of
diagnostic codes; `language.zh.md` beside it gives the Chinese prose of each section.

`language.zh.md` repeats each heading line of the English source (its number may differ), in the same
order, and under it the section's Chinese text. The text holds no code block of its own: a line
`{{code N}}` stands for the section's N-th fenced block of the English source (each block once), and a
line `{{codes}}` for the table of diagnostic codes, generated from the registry (dsl/codes.py) with the
Chinese meanings of `[codes]` in `language.zh.toml`. A table the English section writes by hand is
translated in full, and must keep the English table's shape and the `code` of each row's first cell.
Anything before the first heading (the translator's term list, in an HTML comment) is not shown.

`compose` returns the Chinese Markdown with the problems found; the page refuses to build with any."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_HEADING = re.compile(r"^(#{1,6}) +(.*?)\s*$")
_NUMBER = re.compile(r"^(\d+(?:\.\d+)*\.?)\s+")
_PLACEHOLDER = re.compile(r"^\{\{\s*(code\s+(\d+)|codes)\s*\}\}\s*$")
_CODE_SPAN = re.compile(r"`([^`]+)`")


def heading_key(text: str) -> str:
    """A heading without its number: what the two editions' sections are matched by."""
    m = _NUMBER.match(text)
    return text[m.end():] if m else text


@dataclass
class Section:
    level: int
    heading: str  # the heading line's text, as written
    line: int  # 0-based line of the heading in its file
    body: list[str] = field(default_factory=list)  # the lines up to the next heading

    @property
    def key(self) -> tuple[int, str]:
        return (self.level, heading_key(self.heading))

    @property
    def where(self) -> str:
        return "#" * self.level + " " + self.heading


@dataclass
class Composed:
    markdown: str
    problems: list[str]
    untranslated: list[str]  # headings whose section has no Chinese text (the English text is used)


def english_sections(text: str) -> tuple[list[str], list[Section], dict[int, tuple[int, int]]]:
    """The source's lines, its sections (headings as Markdown reads them: not `#` lines inside code) and
    the fenced blocks, {opening line: (start, end)}."""
    from markdown_it import MarkdownIt

    lines = text.splitlines()
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    fences = {t.map[0]: (t.map[0], t.map[1]) for t in tokens if t.type == "fence" and t.map}
    sections: list[Section] = []
    for i, t in enumerate(tokens):
        if t.type == "heading_open" and t.map:
            sections.append(Section(int(t.tag[1]), tokens[i + 1].content, t.map[0]))
    for n, s in enumerate(sections):
        end = sections[n + 1].line if n + 1 < len(sections) else len(lines)
        s.body = lines[s.line + 1:end]
    return lines, sections, fences


def chinese_sections(text: str) -> list[Section]:
    """The sections of language.zh.md: it has no code blocks, so every `#` line is a heading."""
    sections: list[Section] = []
    for n, line in enumerate(text.splitlines()):
        m = _HEADING.match(line)
        if m:
            sections.append(Section(len(m.group(1)), m.group(2), n))
        elif sections:
            sections[-1].body.append(line)
    return sections


def _tables(text: str) -> list[list[list[str]]]:
    """The tables of a Markdown text: rows of cells (inline source), the heading row first."""
    from markdown_it import MarkdownIt

    out: list[list[list[str]]] = []
    row: list[str] | None = None
    for t in MarkdownIt("commonmark").enable("table").parse(text):
        if t.type == "table_open":
            out.append([])
        elif t.type == "tr_open":
            row = []
        elif t.type == "inline" and row is not None:
            row.append(t.content)
        elif t.type == "tr_close" and row is not None:
            out[-1].append(row)
            row = None
    return out


def _codes_table(meanings: dict) -> tuple[str, list[str]]:
    """The table of diagnostic codes with its Chinese meanings, and the codes that have none."""
    from ..codes import REGISTRY

    rows = ["| 代码 | 含义 |", "|---|---|"]
    missing = []
    for c in REGISTRY:
        cn = meanings.get(c.code)
        if not cn:
            missing.append(c.code)
        rows.append(f"| `{c.code}` | {cn or c.title} |")
    return "\n".join(rows), missing


def _same_tables(en: str, zh: str, where: str) -> list[str]:
    """Problems of a section's hand-written tables: the Chinese ones must have the English ones' shape and
    the code of each row's first cell (the key, event or word the row is about)."""
    te, tz = _tables(en), _tables(zh)
    if len(te) != len(tz):
        return [f"{where}: the English text has {len(te)} table(s), the Chinese text {len(tz)}"]
    problems = []
    for k, (a, b) in enumerate(zip(te, tz), 1):
        if len(a) != len(b) or any(len(ra) != len(rb) for ra, rb in zip(a, b)):
            problems.append(f"{where}: table {k} has {len(a)} rows of {len(a[0])} cells in English, "
                            f"{len(b)} rows of {len(b[0]) if b else 0} in Chinese")
            continue
        for ra, rb in zip(a[1:], b[1:]):
            if _CODE_SPAN.findall(ra[0]) != _CODE_SPAN.findall(rb[0]):
                problems.append(f"{where}: table {k}: the row of {ra[0]!r} reads {rb[0]!r} in Chinese "
                                "(the code of its first cell must stay the same)")
    return problems


def compose(english: str, chinese: str, code_meanings: dict | None = None) -> Composed:
    """The Chinese edition's Markdown: the English heading lines (the page puts the Chinese headings of
    language.zh.toml on them and keeps their anchors), each with the Chinese text of language.zh.md, its
    placeholders replaced by the English section's code blocks and the generated table."""
    from ..codes import MARK_BEGIN, MARK_END

    lines, en_sections, fences = english_sections(english)
    zh_sections = {}
    problems: list[str] = []
    order = [s.key for s in en_sections]
    last = -1
    for s in chinese_sections(chinese):
        if s.key not in order:
            problems.append(f"language.zh.md line {s.line + 1}: `{s.where}` is not a heading of the English "
                            "source (the headings must be the English ones, in their order)")
            continue
        if s.key in zh_sections:
            problems.append(f"language.zh.md line {s.line + 1}: `{s.where}` is given twice")
            continue
        if order.index(s.key) < last:
            problems.append(f"language.zh.md line {s.line + 1}: `{s.where}` is out of the English order")
        last = order.index(s.key)
        zh_sections[s.key] = s
    out: list[str] = []
    untranslated: list[str] = []
    for s in en_sections:
        out.append(lines[s.line])
        blocks = [fences[n] for n in range(s.line + 1, s.line + 1 + len(s.body)) if n in fences]
        generated = any(ln.strip() == MARK_BEGIN for ln in s.body)
        zh = zh_sections.get(s.key)
        if zh is None or not any(ln.strip() for ln in zh.body):
            untranslated.append(s.heading)
            out.extend(s.body)
            continue
        where = f"language.zh.md line {zh.line + 1} (`{s.where}`)"
        used: list[int] = []
        text: list[str] = []
        has_codes = False
        for ln in zh.body:
            if ln.lstrip().startswith(("```", "~~~")):
                problems.append(f"{where}: a code block written in the Chinese text; refer to the English "
                                "section's block with {{code N}} instead")
            m = _PLACEHOLDER.match(ln.strip())
            if m is None:
                if "{{" in ln:
                    problems.append(f"{where}: {ln.strip()!r} is not a placeholder ({{{{code N}}}} or "
                                    "{{codes}}, on a line of its own)")
                text.append(ln)
            elif m.group(2):
                n = int(m.group(2))
                if not 1 <= n <= len(blocks):
                    problems.append(f"{where}: {{{{code {n}}}}} refers to no code block (the English section "
                                    f"has {len(blocks)})")
                    continue
                used.append(n)
                start, end = blocks[n - 1]
                text.extend(lines[start:end])
            else:
                has_codes = True
                if not generated:
                    problems.append(f"{where}: {{{{codes}}}}, but the English section has no generated table")
                    continue
                table, missing = _codes_table(code_meanings or {})
                if missing:
                    problems.append("language.zh.toml [codes] has no Chinese meaning for: " + ", ".join(missing))
                text.append(table)
        unused = [n for n in range(1, len(blocks) + 1) if n not in used]
        if unused:
            problems.append(f"{where}: the Chinese text does not show the English code block(s) "
                            + ", ".join(f"{{{{code {n}}}}}" for n in unused))
        twice = sorted({n for n in used if used.count(n) > 1})
        if twice:
            problems.append(f"{where}: code block(s) shown more than once: {twice}")
        if generated and not has_codes:
            problems.append(f"{where}: the English section has the generated table of codes; put {{{{codes}}}}")
        en_text = "\n".join(ln for i, ln in enumerate(s.body, s.line + 1)
                            if not any(a <= i < b for a, b in blocks))
        if generated:
            en_text = en_text[:en_text.find(MARK_BEGIN)] + en_text[en_text.find(MARK_END) + len(MARK_END):]
        problems += _same_tables(en_text, "\n".join(ln for ln in zh.body if not _PLACEHOLDER.match(ln.strip())),
                                 where)
        out.extend(text)
    return Composed("\n".join(out) + "\n", problems, untranslated)
