"""What a reading's raw pattern counts become, for every backend: exclusions, `combine`, the `max` units,
each unit's value, and the score's `total` and `best` where the rule set does not write them
(docs/language.md §37, steps 6–9).

Written once: the reference (`runtime/scoring.py` `ReadingEvaluator`) and the generated scorer
(`runtime/fastscore.py`) both call `Tally`; they differ only in how they find a reading's raw counts,
its patterns' values and the combinations a `combine` pattern counts, which they hand in as functions
of a pattern's index. Patterns are handled in declaration order throughout, so the patterns kept and
the trace of the ones not counted (`excluded`) are the same whichever backend counted.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable

from .evaluate import norm, power
from .exclusions import Exclusions
from .ir import nodes as ir


class Tally:
    """The steps after the counts, for one rule set; patterns and units by index (declaration order)."""

    def __init__(self, rs: ir.RuleSet):
        patterns = list(rs.patterns)
        self.names = [p.name for p in patterns]
        index = {n: i for i, n in enumerate(self.names)}
        self.exclusions = Exclusions(patterns)
        # each `combine` rule with the indexes of its patterns
        self.combines = [(c, [index[n] for n in c.patterns if n in index]) for c in rs.combines]
        self.unit_order = [u.name for u in rs.units]
        unit_index = {u: j for j, u in enumerate(self.unit_order)}
        self.unit_how = [u.combine for u in rs.units]
        self.unit_of = [unit_index.get(p.unit, -1) for p in patterns]  # -1: a unit not declared (no unit)
        self.unit_patterns = [[i for i, j in enumerate(self.unit_of) if j == u] for u in range(len(self.unit_order))]
        self.max_units = [j for j, how in enumerate(self.unit_how) if how == "max"]
        # one unit, a sum, that every pattern belongs to: the common case, without the general bookkeeping
        self.single_sum = self.unit_how == ["sum"] and -1 not in self.unit_of
        self.has_total = rs.score is not None and rs.score.total is not None
        self.has_best = rs.score is not None and rs.score.best is not None
        self.products: dict[tuple, object] = {}  # a `product` unit's value by its (value, count) pairs

    def final(self, counts, fired, value: Callable, combos: Callable, excluded: list | None = None,
              choices: dict | None = None, free=()) -> dict[int, int]:
        """Pattern index -> its final count, for the patterns that count, in declaration order.

        `counts`: the raw counts by pattern index; `fired`: the indexes whose raw count is positive;
        `value(i)`: pattern i's value; `combos(i)`: the combinations `combine` pattern i counted (each a
        tuple of meld tokens). `excluded`, when given, receives (pattern, by) for each fired pattern not
        counted or counted less, in the order the steps find them. `choices` and `free`: where the
        caller keeps the `combine` choices of the readings of one split (`free[k]`: rule k's choice
        cannot depend on the winning tile's placement)."""
        final, dropped = self.exclusions.apply(counts, fired)
        if excluded is not None:
            names = self.names
            for j in sorted(dropped):
                by = dropped[j]
                excluded.append((names[j], names[by] if by is not None else "count lowered"))
        if self.combines:
            self.combine(final, value, combos, excluded, choices, free)
        if self.max_units:
            self.keep_highest(final, value, excluded)
        return final

    def combine(self, final: dict[int, int], value, combos, excluded=None, choices=None, free=()) -> None:
        """Each `combine` rule keeps the most valuable buildable set of its patterns' combinations
        (`best_combo_set`); its patterns count the combinations kept."""
        for k, (c, idxs) in enumerate(self.combines):
            fired = [i for i in idxs if i in final]  # final counts are positive
            if not fired:
                continue
            key = None
            if choices is not None and free[k]:
                key = (k,) + tuple((i, final[i], value(i)) for i in fired)
                kept = choices.get(key)
                if kept is not None:
                    self._keep(c, idxs, kept, final, excluded)
                    continue
            edges = []
            for i in fired:
                v = value(i)
                edges.extend((i, combo, v) for combo in combos(i))
            if not edges:
                continue
            kept = {}
            for i, _, _ in best_combo_set(edges, c.distinct):
                kept[i] = kept.get(i, 0) + 1
            if key is not None:
                choices[key] = kept
            self._keep(c, idxs, kept, final, excluded)

    def _keep(self, c: ir.Combine, idxs, kept: dict[int, int], final: dict[int, int], excluded) -> None:
        for i in idxs:
            if i in final:
                n = kept.get(i, 0)
                if excluded is not None and n < final[i]:
                    excluded.append((self.names[i], f"{c.name} ×{final[i] - n}"))
                if n:
                    final[i] = n
                else:
                    del final[i]

    def keep_highest(self, final: dict[int, int], value, excluded=None) -> None:
        """In a `max` unit only the highest-valued pattern counts (ties: the one declared first)."""
        for j in self.max_units:
            fired = [i for i in self.unit_patterns[j] if i in final]
            if len(fired) < 2:
                continue
            best = max(fired, key=lambda i: (value(i), -fired.index(i)))
            for i in fired:
                if i != best:
                    del final[i]
                    if excluded is not None:
                        excluded.append((self.names[i], self.names[best]))

    def units(self, final: dict[int, int], value) -> list:
        """Each unit's value, in declaration order, from the final counts."""
        if self.single_sum:
            total = 0
            for i, n in final.items():  # in pattern order
                total += value(i) * n
            return [norm(total)]
        per_unit: list[list] = [[] for _ in self.unit_how]
        unit_of = self.unit_of
        for i, n in final.items():  # in pattern order (inserted sorted; later steps only delete)
            j = unit_of[i]
            if j >= 0:
                per_unit[j].append((value(i), n))
        return [self._product(vals) if how == "product" else self._combine_unit(how, vals)
                for how, vals in zip(self.unit_how, per_unit)]

    def _product(self, vals: list[tuple]):
        """A `product` unit's value, remembered by its (value, count) pairs: readings of one hand mostly
        repeat them, and each bounded power is costly (an error is not remembered: it is raised again)."""
        key = tuple(vals)
        got = self.products.get(key)
        if got is None:
            got = self._combine_unit("product", vals)
            if len(self.products) > 10_000:
                self.products.clear()
            self.products[key] = got
        return got

    def unit(self, j: int, final: dict[int, int], value):
        """Unit j's value alone."""
        return self._combine_unit(self.unit_how[j], [(value(i), final[i]) for i in self.unit_patterns[j]
                                                      if i in final])

    @staticmethod
    def _combine_unit(how: str, vals: list[tuple]):
        if how == "sum":
            total = 0
            for x, n in vals:
                total += x * n
            return norm(total)
        if how == "product":
            out = 1
            for x, n in vals:
                out = norm(out * power(x, n))  # bounded: a count may be large (docs/language.md §40)
            return out
        return max((x for x, _ in vals), default=0)

    def totals(self, score, total, best, units: list) -> tuple:
        """(total, best): the rule set's own where it writes them (`total`, `best` as evaluated), else the
        first unit's value (the score when there is no unit) and the score."""
        if not self.has_total:
            total = units[0] if self.unit_order else score
        if not self.has_best:
            best = score
        return total, best


class PatternLines:
    """What the lines of a result are made of, for one rule set: the patterns in declaration order, each
    one's (label, or None when its label has expressions; name; unit), their `Tally`, the units and the
    quantities. Shared by the generated scorer (runtime/fastscore.py) and the native scoring of whole
    hands (runtime/nativehand.py), which needs these names and not the generated code."""

    def __init__(self, rs: ir.RuleSet):
        self.patterns = list(rs.patterns)
        self.tally = Tally(rs)
        self.unit_order = self.tally.unit_order
        self.quantity_names = [q.name for q in rs.quantities]
        self.fan_meta = [(None if "{" in p.label else (p.label or p.name), p.name, p.unit) for p in self.patterns]
        self.units_declared = -1 not in self.tally.unit_of  # every pattern's unit is declared


def unmet_reason(q: ir.Requirement) -> str:
    """Why a reading that fails requirement q is rejected: its `reason`, else a sentence naming it."""
    return q.reason or f"the hand does not meet 「{q.name}」"


def best_combo_set(edges, distinct: bool):
    """The most valuable subset of combinations (pattern, combination, value) such that the set can be
    built one combination at a time, each bringing in a meld not yet combined; with `distinct`, no meld
    forms one pattern twice."""
    n = len(edges)
    if n == 1:  # one combination is always buildable, and alone it repeats no meld
        return list(edges)
    best, best_val = [], None
    for r in range(n, 0, -1):
        for subset in itertools.combinations(edges, r):
            val = sum(v for _, _, v in subset)
            if best_val is not None and not val > best_val:
                continue  # could not replace the best even if valid: the checks are skipped
            if distinct and not _distinct_ok(subset):
                continue
            if not _buildable(subset):
                continue
            best, best_val = list(subset), val
        if best and n > 10:  # keep very large inputs bounded: the largest buildable sets come first
            break
    return best


def _distinct_ok(subset) -> bool:
    seen = set()
    for name, combo, _ in subset:
        for m in combo:
            if (name, m) in seen:
                return False
            seen.add((name, m))
    return True


def _buildable(subset) -> bool:
    """The combinations can be taken one at a time so that each shares at most one meld with those
    taken before it (all its other melds are new): a forest of combinations. For combinations of two
    melds this is "each brings in a meld not yet combined". Checked by removing, while possible, a
    combination that shares at most one meld with all the others."""
    remaining = list(subset)
    while remaining:
        for k, (_, combo, _) in enumerate(remaining):
            others = {m for j, (_, c, _) in enumerate(remaining) if j != k for m in c}
            if sum(1 for m in combo if m in others) <= 1:
                remaining.pop(k)
                break
        else:
            return False
    return True


__all__ = ["PatternLines", "Tally", "best_combo_set", "unmet_reason"]
