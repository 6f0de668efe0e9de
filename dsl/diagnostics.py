"""Diagnostics: stable codes, positions, and rendering with the source line and a caret."""
from __future__ import annotations

from dataclasses import dataclass

from ..runtime.ir.span import Span
from .codes import REGISTRY

# Every code the compiler can emit, with its one-line title. The registry (dsl/codes.py) is the one source:
# an entry there per code, with an explanation and an example (`paili explain CODE`).
CODES: dict[str, str] = {c.code: c.title for c in REGISTRY}


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
