"""The examples of a rule file are part of what the compiler checks: a pattern's `example` must score
it, a `counterexample` must not, and a top-level `example` must meet its `expect` lines. A hand that
cannot be scored is E506, any other example that does not hold is E508 — errors of `paili check`,
`paili compile`, `paili build` and `paili docs`, never text on a players' page.

The examples are scored by the runtime (dsl may use runtime; runtime never uses dsl for this). Scoring
them takes a fraction of a second per file, so the diagnostics are kept per rule-file text: a text
checked once in a process is not scored again.
"""
from __future__ import annotations

import hashlib

from ..runtime.ir.nodes import RuleSet
from ..runtime.ir.span import Span
from .diagnostics import Diagnostic

_CACHE: dict[tuple[str, str], tuple[Diagnostic, ...]] = {}
_CACHE_LIMIT = 256


def example_diagnostics(rs: RuleSet, text: str, file: str) -> tuple[Diagnostic, ...]:
    """E506 / E508 for every example of `rs` (compiled from `text`) that does not hold."""
    key = (file, hashlib.sha256(text.encode("utf-8")).hexdigest())
    got = _CACHE.get(key)
    if got is None:
        got = tuple(_run(rs, file))
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        _CACHE[key] = got
    return got


def _run(rs: RuleSet, file: str) -> list[Diagnostic]:
    from ..runtime.examples import check_all
    from ..runtime.rules import Rules

    try:
        outcomes = check_all(Rules(rs))
    except Exception as exc:  # a rule set the runtime cannot evaluate: one clear line, not a traceback
        return [Diagnostic("E508", f"the examples cannot be scored ({type(exc).__name__}: {exc})",
                           Span(file, 1, 1))]
    out = []
    for o in outcomes:
        if o.ok:
            continue
        span = o.span if isinstance(o.span, Span) and o.span.line else Span(file, 1, 1)
        code = "E506" if o.invalid else "E508"
        hint = "" if o.invalid else "fix the rule or the example's `expect` so that they agree"
        out.append(Diagnostic(code, f"{o.where}: {o.message}", span, hint))
    return out
