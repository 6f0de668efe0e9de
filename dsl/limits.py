"""The compiler's side of the stated limits (runtime/limits.py; docs/language.md §40).

What only source text has is checked here: the file's size (`check_source_size`) and, on the parsed
statements before anything else reads them, block nesting, number literals and each expression's depth,
size and comprehension nesting (`check_syntax`, with runtime/ir/limitcheck.py's `check_expr`). A file
deeper, larger or with longer numbers than the limits is refused here, with one diagnostic per exceeded
limit, and compiles no further. The limits on the checked rule set (arithmetic, comprehension work,
tiles, table, wildcards) are runtime/ir/limitcheck.py's `check_ruleset`, which the loader of a compiled
JSON rule set runs too; the checker calls it (dsl/checker.py).
"""
from __future__ import annotations

from ..runtime import limits as L
from ..runtime.ir.limitcheck import check_expr, number_ok, start_of
from ..runtime.ir.span import Span
from .diagnostics import Diagnostics


def check_source_size(text: str, file: str, diags: Diagnostics) -> bool:
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > L.MAX_RULE_FILE_BYTES:
        diags.error("E701", f"the rule file is {size:,} bytes; the limit is {L.MAX_RULE_FILE_BYTES:,}",
                    Span(file, 1, 1))
        return False
    return True


def check_syntax(stmts, diags: Diagnostics) -> bool:
    """Block nesting, expression depth, size and comprehension nesting, and number literals."""
    ok = True
    stack = [(s, 1) for s in stmts]
    while stack:
        s, depth = stack.pop()
        if depth > L.MAX_BLOCK_DEPTH:
            diags.error("E703", f"blocks nested {depth} deep; at most {L.MAX_BLOCK_DEPTH} `{{ … }}` blocks may "
                        "nest", s.span)
            ok = False
            continue
        args = list(s.args)
        while args:
            a = args.pop()
            if a.kind == "list":
                args.extend(a.value)
            elif a.kind == "number":
                ok &= number_ok(str(a.value), a.span, diags)
            elif a.kind == "range":
                ok &= number_ok(str(a.value[0]), a.span, diags) and number_ok(str(a.value[1]), a.span, diags)
        for e in (s.expr, s.cond):
            if e is not None:
                ok &= check_expr(e, diags)
        if s.block:
            stack.extend((b, depth + 1) for b in s.block)
    return ok


def set_up_tiles(rs, diags: Diagnostics):
    """What `check_ruleset` calls once the tiles' own limits hold: the tiles set up under the default options
    (copies written as expressions are only known then), each failure a located error. It gives each kind's
    copies under those options, so the checker counts the wildcards a hand could hold as the runtime will
    (`Rules` refuses the same count when it sets the tiles up), or None when the tiles could not be set up."""
    def run() -> dict[str, int] | None:
        from ..runtime.evaluate import EvalError
        from ..runtime.tiles import Catalog

        try:
            cat = Catalog(rs)
        except L.LimitError as exc:
            diags.error("E706", f"with the default options: {exc}", start_of(rs.tiles.span))
        except EvalError as exc:
            diags.error("E402", f"the tiles cannot be set up with the default options: {exc}",
                        start_of(rs.tiles.span))
        else:
            return {k.name: k.copies for k in cat.kinds}
        return None
    return run
