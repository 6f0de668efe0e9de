"""A bounded exhaustive search behind warning W601: "this pattern can never match".

`dsl/reach.py` proves impossibility from a few syntactic shapes. What it cannot prove, this module
tries by brute force: it enumerates every winning reading the runtime could build from the declared
tiles — every multiset of groups a winning form asks for, from the hand-formable meld shapes and from
every meld kind a hand may show as a meld, within the tile copies — and evaluates the pattern on each
with the runtime itself (`runtime.scoring.ReadingEvaluator`). When none satisfies it, that is a proof.

A claim must be a proof, so the search is conservative:
- it gives up (claims nothing) for rule sets whose readings it does not model: wildcards that can be in
  play, stand-in tiles, winning forms decided by an `instant` condition, and tile catalogs that depend
  on room options;
- it gives up for a pattern that depends on a setting it cannot enumerate (a tile, a reveal, an
  unbounded number); bool settings and small closed value sets are tried one by one;
- every choice the runtime could make differently is tried: where the winning tile sits (or no winning
  tile at all), self-drawn or not, which pair is `pair` when there are several;
- the conditions used to prune (the conjuncts of `when` that restrict single groups or tiles, or the
  number of groups of a kind) are necessary conditions of the pattern, so pruning never hides a
  witness; every surviving hand is evaluated exactly;
- the work is bounded: a pattern whose candidate space is too large, or whose search runs past the
  node or reading bounds, gets no claim.
"""
from __future__ import annotations

from ..runtime.ir import expr as E
from ..runtime.ir import nodes as ir
from .reach_model import (
    MAX_ESTIMATE,
    MAX_NODES,
    MAX_READINGS,
    MAX_TOTAL_NODES,
    WIN_BUILTINS,
    WIN_FIELDS,
    Cand,
    Found,
    GiveUp,
    World,
    modelled,
)
from .reach_plan import Plan, Target, constraint_of, group_count, make_plan

# ---------------------------------------------------------------------------- the search


class Search:
    def __init__(self, world: World, plan: Plan, node_budget: int):
        self.w = world
        self.plan = plan
        self.node_budget = min(node_budget, MAX_NODES)
        self.nodes = 0
        self.readings = 0
        self.hands = 0
        self.win_sensitive = bool(plan.refs & WIN_BUILTINS or plan.fields & WIN_FIELDS)
        self.uses_pair = "builtin:pair" in plan.refs
        from ..runtime.evaluate import EvalError
        from ..runtime.scoring import ReadingEvaluator

        self.EvalError, self.ReadingEvaluator = EvalError, ReadingEvaluator
        from ..runtime.hand import Hand

        self.probe = world.Scoring(world.rules, world.cat, world.dec, world.env, Hand([], [], None, False))
        self.envs = []
        for ctx in plan.contexts:
            env = dict(world.env)
            env.update(ctx)
            self.envs.append(env)

    # ---------------------------------------------------------------- driver

    def run(self) -> bool:
        """True when no reading satisfies the pattern (raises GiveUp when the bounds are hit)."""
        try:
            for t in self.plan.targets:
                self._target(t)
            for f in self.plan.orphan_forms:
                self._orphans(f)
        except Found:
            return False
        return True

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.node_budget:
            raise GiveUp

    def _target(self, t: Target) -> None:
        counts = self.plan.counts
        J = len(counts)
        used = [0] * len(self.w.copies)
        copies = self.w.copies
        cur_mn = [0] * J
        cur_mx = [0] * J
        chosen: list[Cand] = []
        slots = t.sa + t.sb
        Ap = [c for c in t.A if c.is_pair]
        Am = [c for c in t.A if not c.is_pair]

        def add(c: Cand) -> bool:
            ok = True
            for i, n in c.need:
                used[i] += n
                if used[i] > copies[i]:
                    ok = False
            for j in range(J):
                cur_mn[j] += c.mn[j]
                cur_mx[j] += c.mx[j]
            chosen.append(c)
            if ok:
                left = slots - len(chosen)
                for j, k in enumerate(counts):
                    if cur_mn[j] > k.hi or cur_mx[j] + left < k.lo:
                        return False
            return ok

        def undo(c: Cand) -> None:
            for i, n in c.need:
                used[i] -= n
            for j in range(J):
                cur_mn[j] -= c.mn[j]
                cur_mx[j] -= c.mx[j]
            chosen.pop()

        def rec_b(start: int, left: int) -> None:
            if left == 0:
                rec_ap(0, t.sa)
                return
            for i in range(start, len(t.B)):
                self._tick()
                c = t.B[i]
                if add(c):
                    rec_b(i, left - 1)
                undo(c)

        def rec_ap(start: int, left: int) -> None:
            if self._pairs_ok(chosen):
                rec_am(0, left)
            for i in range(start, len(Ap)):
                if left == 0:
                    break
                self._tick()
                c = Ap[i]
                if add(c):
                    rec_ap(i, left - 1)
                undo(c)

        def rec_am(start: int, left: int) -> None:
            if left == 0:
                self._complete(t.form, chosen)
                return
            for i in range(start, len(Am)):
                self._tick()
                c = Am[i]
                if add(c):
                    rec_am(i, left - 1)
                undo(c)

        rec_b(0, t.sb)

    # ---------------------------------------------------------------- checks on partial and full hands

    def _pair_orders(self, pairs: list) -> list:
        """Each group that could be `pair` (the first pair) in the runtime's order, first."""
        if len(pairs) < 2:
            return [pairs]
        shown = [g for g in pairs if g.shown]
        firsts = shown if shown else pairs
        out, seen = [], set()
        for f in firsts:
            if f.sig in seen:
                continue
            seen.add(f.sig)
            rest = list(pairs)
            rest.remove(f)
            out.append([f] + rest)
        return out

    def _pairs_ok(self, chosen: list) -> bool:
        if not self.plan.pair_checks:
            return True
        pairs = [c for c in chosen if c.is_pair]
        shown = [c for c in pairs if c.shown]
        ordered = shown + [c for c in pairs if not c.shown]
        G = self.w.Group
        for order in self._pair_orders(ordered):
            gs = [c.plain(G) for c in order]
            env = dict(self.w.env)
            env["builtin:pairs"] = gs
            env["builtin:pair"] = gs[0] if gs else None
            if self._all(self.plan.pair_checks, env):
                return True
        return False

    def _all(self, checks, env) -> bool:
        for fn in checks:
            try:
                if not fn(env):
                    return False
            except self.EvalError:
                return False
        return True

    def _groups(self, chosen: list) -> tuple[list, list]:
        """(shown melds in order, hand groups) as fresh Group objects."""
        G, T = self.w.Group, self.w.RTile
        shown = [c.group(T, G) for c in chosen if c.shown]
        hand = [c.group(T, G) for c in chosen if not c.shown]
        return shown, hand

    def _orders(self, shown: list, hand: list) -> list[list]:
        """Group lists to evaluate: one, or one per possible first pair."""
        gs = shown + hand
        if not self.uses_pair:
            return [gs]
        pairs = [g for g in gs if g.is_pair]
        if len(pairs) < 2:
            return [gs]
        firsts = [g for g in pairs if g in shown] or pairs
        out, seen = [], set()
        for f in firsts:
            key = (f.kind, tuple(t.kind.index for t in f.tiles))
            if key in seen:
                continue
            seen.add(key)
            out.append([f] + [g for g in gs if g is not f])
        return out

    def _complete(self, form: ir.WinForm, chosen: list) -> None:
        self.hands += 1
        from ..runtime.reading import Reading

        if self.plan.struct_checks:
            # Conditions on the groups alone: the state without the winning tile will do.
            G = self.w.Group
            shown = [c.plain(G) for c in chosen if c.shown]
            hand = [c.plain(G) for c in chosen if not c.shown]
            hand_tiles = [t for g in hand for t in g.tiles]
            for gs in self._orders(shown, hand):
                r = Reading(form.name, gs, [t for g in gs for t in g.tiles], hand_tiles, None, None)
                if self._all(self.plan.struct_checks, self.probe.reading_env(r)):
                    break
            else:
                return
        shown, hand = self._groups(chosen)
        self._exact(form, shown, hand)

    def _scoring(self, env, shown, hand_groups, win, self_drawn):
        from ..runtime.hand import Hand, Meld

        concealed = [t.kind for g in hand_groups for t in g.tiles]
        if win is not None:
            concealed.remove(win)
        h = Hand(concealed, [Meld(g.kind, [t.kind for t in g.tiles]) for g in shown], win, self_drawn)
        return self.w.Scoring(self.w.rules, self.w.cat, self.w.dec, env, h)

    def _placements(self, hand: list):
        """(win kind, index of the group holding it) for every distinct place; (None, None) first."""
        yield None, None
        if not self.win_sensitive:
            return
        seen = set()
        for gi, g in enumerate(hand):
            sig = (g.kind, tuple(t.kind.index for t in g.tiles))
            for t in g.tiles:
                if (sig, t.kind.index) in seen:
                    continue
                seen.add((sig, t.kind.index))
                yield t.kind, gi

    def _exact(self, form, shown, hand) -> None:
        from ..runtime.reading import Reading

        G, T = self.w.Group, self.w.RTile
        name = self.plan.pattern.name
        for win, gi in self._placements(hand):
            for sd in (False, True) if self.win_sensitive else (False,):
                hg = hand
                wt = wg = None
                if win is not None:
                    hg = [G(x.kind, [T(y.kind) for y in x.tiles], x.exposed, x.concealed, x.is_pair, x.is_kong,
                            x.value) for x in hand]
                    wg = hg[gi]
                    wt = next(y for y in wg.tiles if y.kind.index == win.index)
                    wt.is_win = True
                    wg.has_win = True
                    if not sd and not wg.is_pair:
                        wg.concealed = False
                for env in self.envs:
                    for gs in self._orders(shown, hg):
                        self.readings += 1
                        if self.readings > MAX_READINGS:
                            raise GiveUp
                        sc = self._scoring(env, shown, hg, win, sd)
                        r = Reading(form.name, gs, [t for g in gs for t in g.tiles], [t for g in hg for t in g.tiles],
                                    wt, wg)
                        ev = self.ReadingEvaluator(self.w.rules.patterns, sc.reading_env(r), r, sc.waits_of_hand)
                        try:
                            n = ev.raw_count(name)
                        except self.EvalError:
                            n = 0
                        if n > 0:
                            raise Found

    def _orphans(self, form: ir.WinForm) -> None:
        """Readings of a thirteen-orphans-like form: each marked kind once, one of them twice, no melds."""
        from ..runtime.reading import Reading

        T = self.w.RTile
        need = [k for k in self.w.cat.kinds if k.attrs.get(form.orphans)]
        if not need:
            return
        for dup in need:
            if dup.copies < 2:
                continue
            self._tick()
            self.hands += 1
            kinds = sorted(need + [dup], key=lambda k: k.index)
            for win in [None] + (need if self.win_sensitive else []):
                for sd in (False, True) if self.win_sensitive else (False,):
                    tiles = [T(k) for k in kinds]
                    wt = None
                    if win is not None:
                        wt = next(t for t in tiles if t.kind.index == win.index)
                        wt.is_win = True
                    for env in self.envs:
                        self.readings += 1
                        if self.readings > MAX_READINGS:
                            raise GiveUp
                        concealed = [t.kind for t in tiles]
                        if win is not None:
                            concealed.remove(win)
                        from ..runtime.hand import Hand

                        sc = self.w.Scoring(self.w.rules, self.w.cat, self.w.dec, env, Hand(concealed, [], win, sd))
                        r = Reading(form.name, [], tiles, tiles, wt, None)
                        ev = self.ReadingEvaluator(self.w.rules.patterns, sc.reading_env(r), r, sc.waits_of_hand)
                        try:
                            n = ev.raw_count(self.plan.pattern.name)
                        except self.EvalError:
                            n = 0
                        if n > 0:
                            raise Found


# ---------------------------------------------------------------------------- entry


def _worth_planning(p: ir.Pattern) -> bool:
    """A pattern with nothing to prune with has a candidate space far beyond the bounds: skip it cheaply."""
    for c in E.conjuncts(p.when):
        if constraint_of(c) is not None:
            return True
    return p.count is not None and group_count(p.count) is not None


def search_reasons(rs: ir.RuleSet, cat, patterns: list[ir.Pattern],
                   budget: int = MAX_TOTAL_NODES) -> dict[str, str]:
    """pattern name -> why it can never match, for the patterns the search proves impossible."""
    todo = [p for p in patterns if _worth_planning(p)]
    if not todo or not modelled(rs, cat):
        return {}
    try:
        world = World(rs)
    except Exception:
        return {}
    plans = []
    for p in todo:
        try:
            plan = make_plan(world, p)
        except Exception:
            continue
        if plan is not None and plan.estimate <= MAX_ESTIMATE:
            plans.append(plan)
    plans.sort(key=lambda pl: pl.estimate)
    out: dict[str, str] = {}
    spent = 0
    for plan in plans:
        if spent >= budget:
            break
        s = Search(world, plan, budget - spent)
        try:
            impossible = s.run()
        except GiveUp:
            spent += s.nodes
            continue
        except Exception:  # a reading the runtime cannot evaluate: no proof
            spent += s.nodes
            continue
        spent += s.nodes
        if impossible:
            if s.hands:
                out[plan.pattern.name] = (f"no winning hand built from the declared tiles satisfies it "
                                          f"(searched {s.hands} candidate hand{'s' if s.hands != 1 else ''})")
            else:
                out[plan.pattern.name] = ("no winning hand built from the declared tiles satisfies it (every "
                                          "candidate hand runs out of tile copies or breaks a condition on its "
                                          "groups or tiles)")
    return out
