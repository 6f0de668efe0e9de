"""Running the examples written in a rule file: each pattern's `example` must score that pattern, each
`counterexample` must not, and each top-level `example` must meet its `expect` lines."""
from __future__ import annotations

from dataclasses import dataclass

from .evaluate import compile_expr
from .hand import HandError
from .ir import nodes as ir
from .limits import EXAMPLES_WORK, HAND_WORK


@dataclass
class ExampleOutcome:
    where: str  # "pattern P example 1" or "example NAME"
    ok: bool
    message: str
    result: object = None  # the ScoreResult, when the hand could be scored
    span: object = None  # where the file says what does not hold: the `expect` value, the example, its hand
    invalid: bool = False  # the hand itself cannot be scored (malformed), rather than scoring otherwise


def context_of(rules, ex: ir.Example) -> dict:
    env = {"tile-lookup": lambda name: rules.catalog.by_name.get(name)}
    return {name: compile_expr(value)(env) for name, value in ex.sets}


def score_example(rules, ex: ir.Example, work: list[int] | None = None):
    """The example's score. With `work` (the units left for a file's examples, see `check_all`), the
    example gets at most one hand's work and what it uses is taken from `work`; HandError once the
    file's examples have used it all."""
    melds = [f"{k}:{t}" for k, t in ex.melds]
    if work is None:
        return rules.score(ex.hand, melds, ex.win or None, ex.self_drawn, context_of(rules, ex))
    if work[0] <= 0:
        raise HandError(_EXAMPLES_SENTENCE)
    hand_work = [HAND_WORK]
    try:
        return rules.score(ex.hand, melds, ex.win or None, ex.self_drawn, context_of(rules, ex), work=hand_work)
    finally:
        work[0] -= HAND_WORK - hand_work[0]


_EXAMPLES_SENTENCE = (f"the examples of this rule file take more work than paili spends on one file's examples "
                      f"({EXAMPLES_WORK:,} work units); this one is not checked")


def check_pattern_examples(rules, p: ir.Pattern, work: list[int] | None = None) -> list[ExampleOutcome]:
    out = []
    for i, ex in enumerate(p.examples, 1):
        where = f"pattern {p.name} example {i} (line {ex.span.line})"
        res = _scored(rules, ex, where, out, work)
        if res is None:
            continue
        fired = {f.pattern for f in res.fans}
        failures = expectation_failures(rules, ex, res)
        if not res.win:
            out.append(ExampleOutcome(where, False, f"does not win: {res.reason}", res, ex.span))
        elif p.name not in fired:
            out.append(ExampleOutcome(where, False, f"scores {sorted(fired)} without {p.name}", res, ex.span))
        elif failures:  # an example may also state its score or quantities
            out.append(ExampleOutcome(where, False, "; ".join(m for _, m in failures), res, failures[0][0]))
        else:
            out.append(ExampleOutcome(where, True, "", res))
    for i, ex in enumerate(p.counterexamples, 1):
        where = f"pattern {p.name} counterexample {i} (line {ex.span.line})"
        res = _scored(rules, ex, where, out, work)
        if res is None:
            continue
        fired = {f.pattern for f in res.fans}
        if p.name in fired:
            out.append(ExampleOutcome(where, False, f"scores {p.name} but must not", res, ex.span))
        else:
            out.append(ExampleOutcome(where, True, "", res))
    return out


def _scored(rules, ex: ir.Example, where: str, out: list[ExampleOutcome], work: list[int] | None = None):
    """The example's score, or None after recording why its hand is invalid."""
    try:
        return score_example(rules, ex, work)
    except HandError as exc:
        out.append(ExampleOutcome(where, False, f"invalid hand: {exc}", span=_hand_span(ex), invalid=True))
        return None


def check_example(rules, ex: ir.Example, work: list[int] | None = None) -> ExampleOutcome:
    where = f"example {ex.name} (line {ex.span.line})"
    try:
        res = score_example(rules, ex, work)
    except HandError as exc:
        return ExampleOutcome(where, False, f"invalid hand: {exc}", span=_hand_span(ex), invalid=True)
    failures = expectation_failures(rules, ex, res)
    return ExampleOutcome(where, not failures, "; ".join(m for _, m in failures), res,
                          failures[0][0] if failures else None)


def _hand_span(ex: ir.Example):
    return ex.hand_span if ex.hand_span.line else ex.span


def expectation_failures(rules, ex: ir.Example, res) -> list[tuple[object, str]]:
    """(where the `expect` value is written, what does not hold) for each `expect` line of `ex` that the
    scored result `res` does not meet."""
    problems = []
    env = {"tile-lookup": lambda name: rules.catalog.by_name.get(name)}
    for what, value in ex.expects:
        if what == "fans":
            want = {getattr(i, "name", None) for i in getattr(value, "items", ())}
            got = {f.pattern for f in res.fans}
            if want != got:
                problems.append((_span(ex, value), f"fans {sorted(got)}, expected {sorted(want)}"))
            continue
        expected = compile_expr(value)(env) if not hasattr(value, "name") else value.name
        if what == "win":
            actual = res.win
        elif what == "score":
            actual = res.score
        elif what == "total":
            actual = res.total
        elif what == "reason":
            actual = res.reason
        else:
            actual = res.evaluation.quantities.get(what) if res.evaluation else None
        if actual != expected:
            problems.append((_span(ex, value), f"{what} is {actual}, expected {expected}"))
    return problems


def _span(ex: ir.Example, value):
    span = getattr(value, "span", None)
    return span if span is not None and span.line else ex.span


def check_all(rules) -> list[ExampleOutcome]:
    """Every example of the rule set, together within limits.EXAMPLES_WORK (a file may hold thousands)."""
    out = []
    work = [EXAMPLES_WORK]
    for p in rules.ir.patterns:
        out.extend(check_pattern_examples(rules, p, work))
    for ex in rules.ir.examples:
        out.append(check_example(rules, ex, work))
    return out
