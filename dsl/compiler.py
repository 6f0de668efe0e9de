"""The compiler's API: a rule file's text -> a checked RuleSet plus diagnostics."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..runtime.ir.nodes import RuleSet
from ..runtime.ir.span import Span
from ..runtime.limits import MAX_RULE_FILE_BYTES
from .diagnostics import Diagnostic, Diagnostics


@dataclass(frozen=True)
class Result:
    ruleset: RuleSet | None  # None when there are errors
    diagnostics: tuple[Diagnostic, ...]
    source: str

    @property
    def ok(self) -> bool:
        return self.ruleset is not None

    def render(self) -> str:
        lines = self.source.splitlines()
        return "\n".join(d.render(lines) for d in self.diagnostics)


def compile_text(text: str, file: str = "<text>", examples: bool = False) -> Result:
    """Parse, build and check `text`. With `examples`, a file without other errors also has its examples
    scored by the runtime, and each one that does not hold is an error (E506, E508; dsl/example_check.py)."""
    from .build import Builder
    from .checker import Checker
    from .limits import check_source_size, check_syntax
    from .syntax import parse_source

    diags = Diagnostics()
    # The limits come first (dsl/limits.py): the passes after them assume a file of bounded size and depth.
    stmts = parse_source(text, file, diags) if check_source_size(text, file, diags) else None
    rs = None
    if stmts is not None and check_syntax(stmts, diags):
        builder = Builder(diags, file)
        built = builder.build(stmts)
        if built is not None:
            # Checking a structurally broken file would mostly repeat the same mistakes; check anyway
            # so that every independent error is reported in one run.
            try:
                rs = Checker(built, diags, builder.functions).run()
            except Exception as exc:  # never a traceback for the user; earlier errors explain most crashes
                if not diags.has_errors:
                    diags.error("E900", f"internal compiler error ({type(exc).__name__}: {exc}); please report "
                                "it with this file", Span(file, 1, 1))
    if examples and rs is not None and not diags.has_errors:
        from .example_check import example_diagnostics

        diags.items.extend(example_diagnostics(rs, text, file))
    items = tuple(diags.sorted())
    return Result(None if diags.has_errors else rs, items, text)


def compile_file(path: str | Path, examples: bool = False) -> Result:
    p = Path(path)
    try:
        size = p.stat().st_size if p.is_file() else 0
        if size > MAX_RULE_FILE_BYTES:  # refused before reading: the file could be of any size
            diags = Diagnostics()
            diags.error("E701", f"the rule file is {size:,} bytes; the limit is {MAX_RULE_FILE_BYTES:,}",
                        Span(str(p), 1, 1))
            return Result(None, tuple(diags.items), "")
        text = p.read_text(encoding="utf-8-sig")  # a byte-order mark (some editors write one) is not text
    except (OSError, UnicodeDecodeError) as exc:
        diags = Diagnostics()
        reason = "not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else (exc.strerror or str(exc))
        diags.error("E104", f"cannot read {p}: {reason}", Span(str(p), 0, 0))
        return Result(None, tuple(diags.items), "")
    return compile_text(text, str(path), examples)
