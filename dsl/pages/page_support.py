"""What the chapter builders share: where each statement of a rule file ends, an example's result and
checks as text, every reading note, markup around a formula, a condition test, sort keys and setting
defaults."""
from __future__ import annotations

from ...runtime.ir import expr as E
from ...runtime.ir import nodes as ir
from .examples import ExampleView
from .page_data import NoteView, paragraphs

# ---------------------------------------------------------------------- small helpers


def statement_ends(path: str) -> dict[int, int]:
    """For each top-level statement of a rule file: its first line -> its last line (the IR keeps only
    where a statement starts). Empty when the file cannot be read (e.g. a compiled rule set)."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, TypeError):
        return {}
    out: dict[int, int] = {}
    depth, line, start, i, n = 0, 1, None, 0, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            if depth == 0 and start is not None:
                out[start] = line
                start = None
            line += 1
        elif c == "#":
            while i + 1 < n and text[i + 1] != "\n":
                i += 1
        elif not c.isspace():
            if start is None and depth == 0:
                start = line
            if text.startswith('"""', i):
                j = text.find('"""', i + 3)
                j = n - 3 if j < 0 else j
                line += text.count("\n", i, j)
                i = j + 2
            elif c in "\"'":
                j = i + 1
                while j < n and text[j] != c and text[j] != "\n":
                    j += 2 if text[j] == "\\" else 1
                i = j
            elif c in "{([":
                depth += 1
            elif c in "})]":
                depth = max(0, depth - 1)
        i += 1
    if start is not None:
        out[start] = line
    return out


def result_text(view: ExampleView) -> str:
    if view.error:
        return f"无效：{view.error}"
    if not view.won:
        return f"不能和：{view.reason}"
    fans = "、".join(f"{f.name}{f.value}" + (f"×{f.count}" if f.count > 1 else "") for f in view.fans)
    return f"{fans}；得分 {view.score}" if fans else f"得分 {view.score}"


def check_texts(view: ExampleView) -> list[str]:
    if not view.ok:
        return []
    out = [view.verdict] if view.verdict else []
    out += [f"{what}＝{v}" for what, v in view.expects]
    return out


def all_notes(rs: ir.RuleSet) -> list[NoteView]:
    """Every `note` of the rule set, in full, with the name of the construct it belongs to (in the order
    they are written)."""
    from dataclasses import fields, is_dataclass

    found: list[tuple[int, int, str, tuple[str, ...]]] = []
    seen: set[int] = set()

    def visit(node, owner: str):
        if id(node) in seen:
            return
        seen.add(id(node))
        if isinstance(node, ir.Node):
            name = getattr(node, "name", "") or getattr(node, "title", "") or owner
            if node.notes:
                found.append((node.span.line, node.span.col, name if isinstance(name, str) else owner, node.notes))
            owner = name if isinstance(name, str) and name else owner
        if is_dataclass(node):
            for f in fields(node):
                v = getattr(node, f.name)
                for x in (v if isinstance(v, tuple) else (v,)):
                    if is_dataclass(x) and isinstance(x, ir.Node):
                        visit(x, owner)
    visit(rs, "")
    found.sort(key=lambda t: (t[0], t[1]))
    found = [t for i, t in enumerate(found) if i == 0 or t[:2] != found[i - 1][:2]]  # a suit's kinds share its notes
    return [NoteView(where, [q for n in notes for q in paragraphs(n)]) for _, _, where, notes in found]


def markup(before: str, html, after: str):
    from markupsafe import Markup, escape

    return Markup(escape(before) + Markup(html) + escape(after))


def is_condition(e: E.Expr) -> bool:
    return isinstance(e, (E.Compare, E.Bool)) or (isinstance(e, E.Unary) and e.op == "not") or (
        isinstance(e, E.Binary) and e.op in ("and", "or"))


def sort_number(v) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return float("inf")


def defaults_by_name(rs: ir.RuleSet) -> dict:
    """Every setting's default value by its bare name."""
    from ...runtime.tiles import setting_defaults

    return {k.partition(":")[2]: v for k, v in setting_defaults(rs).items()}
