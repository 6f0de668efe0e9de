"""Exclusions (不计): which fired patterns are counted, and with what count.

One function for every backend (the reference `runtime/scoring.py` and the generated
`runtime/fastscore.py`), so the two cannot disagree on it. The rule (docs/language.md §37, step 6):
only a pattern that is **counted** excludes. A pattern removed by another, or lowered to nothing,
does not apply its own `excludes`: when A removes B and B would remove C, C is still counted with A
(unless another counted pattern removes it).

Patterns are decided in an order in which each one comes after every pattern that excludes it
(removes it or lowers its count); among patterns whose excluders are all decided, the one declared
first. A pattern is counted when it fired and is not removed by a counted pattern, with its raw count
lowered by the counted patterns that lower it (each by its decrement times its own counted count).
Because a pattern's fate depends only on the patterns that exclude it, all decided before it, the
result does not depend on how ties in that order are broken. The checker refuses exclusion cycles
(E502); in a rule set that has one anyway (a JSON file written by hand), the pattern declared first
in the cycle is decided first and the exclusions it receives from the others do not apply, and a
pattern's exclusion of itself (W604) has no effect.
"""
from __future__ import annotations

import heapq


class Exclusions:
    """The exclusion lists of one rule set's patterns, by pattern index, and the order they are
    decided in."""

    def __init__(self, patterns):  # the rule set's patterns (IR), in declaration order
        index = {p.name: i for i, p in enumerate(patterns)}
        n = len(patterns)
        self.by: list[tuple[tuple[int, int | None], ...]] = [
            tuple((index[x.pattern], x.decrement) for x in p.excludes if x.pattern in index and index[x.pattern] != i)
            for i, p in enumerate(patterns)]
        self.any = any(self.by)
        incoming = [0] * n
        for edges in self.by:
            for j, _ in edges:
                incoming[j] += 1
        ready = [i for i in range(n) if incoming[i] == 0]
        heapq.heapify(ready)
        order: list[int] = []
        done = [False] * n
        while len(order) < n:
            if not ready:  # a cycle (refused by the checker): the first undecided pattern goes first
                ready = [min(i for i in range(n) if not done[i])]
            i = heapq.heappop(ready)
            if done[i]:
                continue
            done[i] = True
            order.append(i)
            for j, _ in self.by[i]:
                incoming[j] -= 1
                if incoming[j] == 0 and not done[j]:
                    heapq.heappush(ready, j)
        self.rank = [0] * n
        for r, i in enumerate(order):
            self.rank[i] = r
        # When declaration order already puts every pattern after its excluders, it is the order.
        self.in_order = order == list(range(n))

    def apply(self, counts, fired) -> tuple[dict[int, int], dict[int, int | None]]:
        """(counted, dropped) for raw `counts` (indexable by pattern index) of the `fired` patterns
        (indexes whose raw count is positive, any order). `counted` maps each counted pattern to its
        count, in declaration order; `dropped` maps each fired pattern that is not counted to the
        pattern that removed it, or None when its count was lowered to nothing."""
        by = self.by
        if not self.any:
            return {i: counts[i] for i in sorted(fired)}, {}
        order = sorted(fired) if self.in_order else sorted(fired, key=self.rank.__getitem__)
        removed: dict[int, int] = {}
        lowered: dict[int, int] = {}
        counted: dict[int, int] = {}
        dropped: dict[int, int | None] = {}
        for i in order:
            if i in removed:
                dropped[i] = removed[i]
                continue
            n = counts[i] - lowered[i] if i in lowered else counts[i]
            if n <= 0:
                dropped[i] = None
                continue
            counted[i] = n
            for j, dec in by[i]:
                if dec is None:
                    if j not in removed:
                        removed[j] = i
                else:
                    lowered[j] = lowered.get(j, 0) + dec * n
        if not self.in_order:
            counted = {i: counted[i] for i in sorted(counted)}
        return counted, dropped


__all__ = ["Exclusions"]
