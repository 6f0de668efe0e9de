"""Diagnostics: stable codes, positions, and rendering with the source line and a caret."""
from __future__ import annotations

from dataclasses import dataclass

from .span import Span

# Every code the compiler can emit, with a one-line description. Codes are a public contract:
# never renumber; retire a code by leaving it here unused.
CODES: dict[str, str] = {
    # E1xx: syntax
    "E101": "syntax error: unexpected token",
    "E102": "syntax error: unexpected character",
    "E103": "syntax error: unexpected end of file",
    "E104": "file cannot be read or is not UTF-8",
    # E2xx: structure (schema)
    "E201": "unknown key in this block",
    "E202": "key given more than once",
    "E203": "missing required key",
    "E204": "wrong arguments for this key",
    "E205": "this key takes no block / needs a block",
    "E206": "missing or extra `variant` block",
    "E207": "this key takes no expression / needs an expression",
    "E208": "a `when` condition is not allowed here",
    # E3xx: names
    "E301": "unknown name",
    "E302": "duplicate name",
    "E303": "unknown tile in a tile literal",
    "E304": "unknown field",
    "E305": "unknown function",
    "E306": "name used as the wrong kind of thing",
    # E4xx: types and values
    "E401": "type mismatch",
    "E402": "value out of range",
    "E403": "wrong number of arguments",
    "E404": "malformed comprehension",
    "E405": "default value not allowed by the option's values",
    "E406": "bad label template",
    # E5xx: rule semantics
    "E501": "exclusion names an unknown pattern",
    "E502": "exclusion cycle",
    "E503": "dependency cycle between quantities, patterns and the score",
    "E504": "combine names a pattern that is not counted per combination",
    "E505": "priority names an unknown action",
    "E506": "an example hand is malformed",
    "E507": "meld shape is impossible with the declared tiles",
    "E508": "an example does not hold: its `expect` lines, or the pattern it must (not) score",
    # E7xx: stated limits (runtime/limits.py, docs/language.md §40)
    "E701": "the rule file is too large",
    "E702": "a number is too large",
    "E703": "nested too deeply",
    "E704": "an expression is too large",
    "E705": "too much work per reading",
    "E706": "too many tiles, copies, players or wildcards",
    "E707": "a constant divisor is zero",
    # E9xx: the compiler itself
    "E900": "internal compiler error",
    # W6xx: warnings
    "W601": "pattern can never match with the declared tiles",
    "W602": "a lower-valued pattern excludes a higher-valued one",
    "W603": "pattern has no example hand",
    "W604": "pattern excludes itself",
    "W605": "the game engine does not execute this construct",
}


SHOWN_LINE = 160  # characters of a source line shown under a diagnostic


@dataclass(frozen=True)
class Diagnostic:
    code: str
    message: str
    span: Span
    hint: str = ""

    @property
    def is_error(self) -> bool:
        return self.code.startswith("E")

    def render(self, source_lines: list[str] | None = None) -> str:
        kind = "error" if self.is_error else "warning"
        out = [f"{self.span}: {kind} {self.code}: {self.message}"]
        if source_lines is not None and 1 <= self.span.line <= len(source_lines):
            text = source_lines[self.span.line - 1].rstrip("\n")
            col = max(self.span.col - 1, 0)
            ranged = self.span.end_line == self.span.line and self.span.end_col > self.span.col
            end = self.span.end_col - 1 if ranged else col + 1
            # A long line is shown as a window around the column (so rendering costs the same for any
            # line length), and a long span's caret is cut to the window.
            start = 0
            if len(text) > SHOWN_LINE:
                start = max(0, col - SHOWN_LINE // 2)
                text = ("…" if start else "") + text[start:start + SHOWN_LINE] + \
                    ("…" if start + SHOWN_LINE < len(text) else "")
                shift = 1 if start else 0
                col, end = col - start + shift, min(end - start, SHOWN_LINE) + shift
            gutter = f"{self.span.line:>4} | "
            out.append(gutter + text)
            # Wide (CJK) characters take two columns in a terminal; pad the caret to match.
            pad = sum(2 if _is_wide(ch) else 1 for ch in text[:col])
            width = max(1, sum(2 if _is_wide(ch) else 1 for ch in text[col:end])) if ranged else 1
            out.append(" " * len(gutter) + " " * pad + "^" * width)
        if self.hint:
            out.append(f"  = help: {self.hint}")
        return "\n".join(out)


def _is_wide(ch: str) -> bool:
    import unicodedata

    return unicodedata.east_asian_width(ch) in ("W", "F")


class Diagnostics:
    """Collects diagnostics for one compilation."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []

    def error(self, code: str, message: str, span: Span, hint: str = "") -> None:
        assert code in CODES, code
        self.items.append(Diagnostic(code, message, span, hint))

    warn = error  # the code's letter decides the severity

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.items)

    def sorted(self) -> list[Diagnostic]:
        return sorted(self.items, key=lambda d: (d.span.file, d.span.line, d.span.col, d.code))
