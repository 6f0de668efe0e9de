"""Scoring one hand: each reading by the generated evaluator or the reference, the requirements, the waits,
and the best reading as a ScoreResult."""
from __future__ import annotations

from .evaluate import EvalError
from .fans import unmet_reason
from .fastscore_context import REFERENCE_DECIDES
from .hand import Hand, HandError
from .hand_readings import HandReadings
from .reading import Reading, RTile
from .result import ScoreResult
from .scoring import Evaluation, FanLine, LazyEvaluation, ReadingEvaluator
from .tiles import TileInfo


class Scoring(HandReadings):
    """One scoring run: a hand under one context (its readings from `HandReadings`), the requirements,
    the waits, and the best reading as a `ScoreResult`."""

    def reading_env(self, r: Reading) -> dict:
        env = self.base_env()
        groups = r.groups
        melds = [g for g in groups if not g.is_pair]
        pairs = [g for g in groups if g.is_pair]
        env.update({
            "builtin:melds": melds, "builtin:groups": groups, "builtin:pairs": pairs,
            "builtin:pair": pairs[0] if pairs else None,
            "builtin:runs": [g for g in melds if g.is_run],
            "builtin:triplets": [g for g in melds if g.field("triplet")],
            "builtin:kongs": [g for g in melds if g.is_kong],
            "builtin:exposed": [g for g in groups if g.exposed],
            "builtin:tiles": r.tiles, "builtin:hand": r.hand, "builtin:win_tile": r.win_tile,
            "builtin:form": r.form, "builtin:win_group": r.win_group,
            "builtin:suits": sorted({t.kind.suit for t in r.tiles if t.kind.suit}),
            "builtin:menqing": not any(g.exposed for g in groups),
            "builtin:flowers": self.flower_tiles(),
        })
        return env

    def flower_tiles(self) -> list[RTile]:
        f = self._flower_tiles
        if f is None:
            f = self._flower_tiles = [RTile(t) for t in self.hand.flowers]
        return f

    def _eval_bool(self, fn, r: Reading, key: tuple[str, str] | None = None) -> bool:
        fast = self.rules.fast
        name = fast.form_fns.get(key) if fast is not None and key is not None else None
        if name is not None:
            try:
                return fast.eval_form(self, r, name)
            except REFERENCE_DECIDES:  # the documented unusual values: the reference decides
                fast.fell_back()
        return self._eval_bool_reference(fn, r)

    def _eval_bool_reference(self, fn, r: Reading) -> bool:
        ev = ReadingEvaluator(self.rules.patterns, self.reading_env(r), r, self.waits_of_hand)
        try:
            return bool(fn(ev.env))
        except EvalError:
            return False

    def wait_kinds(self, shape: bool = False, candidates: bool = False) -> list[TileInfo]:
        """Tile kinds that complete the hand (winning tile removed); never one whose copies are all held,
        unless `shape` (the hand's shape alone decides: `shape_waits`). With `candidates`, the kinds
        that pass the necessary tests (by structure) without reading the hand: a superset the caller
        decides by scoring each."""
        h = self.hand
        held = [0] * len(self.cat.kinds)
        for t in h.concealed:
            held[t.index] += 1
        for m in h.melds:
            for t in m.tiles:
                held[t.index] += 1
        for t in h.flowers:
            held[t.index] += 1
        out = []
        rules = self.rules
        plain = None
        if rules.plain_waits:
            plain = self.plain_wait_check()
        # Otherwise readings decide, but only a kind that completes a melds-and-pairs form by structure
        # (a necessary condition) needs them for those forms; the other forms (instant, orphans, `tiles N`)
        # build no splits and are tried for every kind. (Not with stand-ins: a trial tile may play as another.)
        split_forms = {f.name for f, _, _ in rules.forms if f.instant is None and not f.orphans and not f.tiles}
        structural = None
        if plain is None and split_forms and not rules.standins:
            structural = self.plain_wait_check(split_forms)
        exposed = any(self.rs.meld(m.kind).exposed for m in h.melds)
        size = len(h.concealed) + 1 + sum(len(m.tiles) for m in h.melds)
        others = [f for f, _, _ in rules.forms if f.name not in split_forms and not (f.concealed and exposed)
                  and not (f.orphans and h.melds) and not (f.tiles and size not in (f.tiles, self.rs.table.hand + 1))]
        if not rules.wilds and not rules.standins:
            # every tile is itself: an orphans form needs every held tile to have its attribute, so a
            # held tile without it rules the form out whatever tile is added
            others = [f for f in others if not f.orphans or all(t.attrs.get(f.orphans) for t in h.concealed)]
        for k in self.cat.kinds:
            if k.category == "flower" or (held[k.index] >= k.copies and not shape):
                continue
            if plain is not None:
                if plain(k):
                    out.append(k)
                continue
            only = None
            if structural is not None and not structural(k):
                only = {f.name for f in others if not f.orphans or k.attrs.get(f.orphans)}
                if not only:
                    continue
            if candidates:
                out.append(k)
                continue
            trial = Hand(h.concealed, h.melds, k, h.self_drawn, h.flowers)
            sub = type(self)(self.rules, self.cat, self.dec, self.env, trial, natural_win=True)
            sub.purpose = "waits"  # its readings only decide the waits' requirements
            sub.work = self.work
            sub.naturals_base = self.naturals_base  # the trials share the hand's concealed tiles
            rs, _ = sub.readings(trial, only)
            if self.naturals_base is None:
                self.naturals_base = sub.naturals_base
            if any(sub.requirements_ok(r, for_waits=True)[0] for r in rs):
                out.append(k)
        return out

    def plain_wait_check(self, forms: set[str] | None = None):
        """Which kinds complete the hand by structure alone under the melds-and-pairs forms (`forms`:
        only these), from the block tables without building readings. With no requirements and only
        such forms, that is exactly the waits."""
        rules = self.rules
        h = self.hand
        counts = [0] * self.dec.n
        if not rules.wilds and not rules.standins:  # every tile is itself
            for t in h.concealed:
                counts[t.index] += 1
            w = 0
        else:
            naturals, wilds = self.classify(Hand(h.concealed, h.melds, None, h.self_drawn))
            for t in naturals:
                counts[t.kind.index] += 1
            w = len(wilds)
        n_exposed = len(h.melds)
        concealed_n = len(h.concealed) + 1
        has_exposed = any(self.rs.meld(m.kind).exposed for m in h.melds)
        tkey = (forms is None or frozenset(forms), n_exposed, concealed_n, has_exposed)
        cache = rules.by_forms.wait_targets  # the targets depend on the forms the rules win by
        targets = cache.get(tkey)
        if targets is None:
            targets = [(m, p, f.concealed) for f, _, _ in rules.forms if forms is None or f.name in forms
                       for m, p in self.form_targets(f, n_exposed) if self.sizes_fit(concealed_n, m, p)]
            targets = cache[tkey] = tuple((m, p) for m, p, conc in targets if not (conc and has_exposed))
        dec = self.dec
        if dec.structure is not None and w <= dec.structure.cap:
            good = set(dec.structure.completing_kinds(counts, w, targets))
            return lambda k: k.index in good

        def check(k: TileInfo) -> bool:
            counts[k.index] += 1
            try:
                return any(dec.can_split(counts, w, m, p) for m, p in targets)
            finally:
                counts[k.index] -= 1
        return check

    def waits_of_hand(self, shape: bool = False):
        """`waits` (or with `shape`, `shape_waits`) of the hand without its winning tile, computed once:
        by the native wait trials where they answer (runtime/nativescore.py), else `wait_kinds`."""
        got = self._shape_waits if shape else self._waits
        if got is None:
            got = self.native_waits(shape) if self.hand.win is not None else []
            if got is None:
                got = self.wait_kinds(shape=shape)
            self.set_waits(got, shape)
        return got

    def native_waits(self, shape: bool):
        """`wait_kinds(shape)` from the native wait trials, or None (not built, or this hand declined)."""
        nc = self.rules.native_counts_for(self.cat)
        if nc is None or nc.scorer is None:
            return None
        return nc.scorer.waits(self, shape)

    def set_waits(self, kinds: list, shape: bool) -> None:
        """The waits (or shape waits) of this hand, found elsewhere (the native scoring of the hand)."""
        if shape:
            self._shape_waits = kinds
        else:
            self._waits = kinds

    def evaluator(self, r: Reading) -> ReadingEvaluator:
        ev = ReadingEvaluator(self.rules.patterns, self.reading_env(r), r, self.waits_of_hand)
        raw = self.native_raw(r)
        if raw is not None:  # the same counts the reference would find (runtime/nativecounts.py)
            names = self.rules.patterns.pattern_names
            owned = self._native[0].owned
            ev.given_counts({names[i]: n for i, n in enumerate(raw) if i not in owned})
        return ev

    def native_raw(self, r: Reading) -> list[int] | None:
        """Every pattern's raw count of a complete reading from the native core, or None (not built,
        not taken, or this reading left to the Python evaluators). Only when scoring: a wait trial's
        requirements read little, which the reference evaluator finds lazily."""
        if not r.complete or self.purpose != "score":
            return None
        got = self._native
        if got is None:
            nc = self.rules.native_counts_for(self.cat)
            got = self._native = (nc, nc.hand_state(self.env, self.hand.self_drawn, self.flower_tiles())
                                   if nc is not None else None)
        nc, state = got
        if state is None:
            return None
        return nc.counts(self.waits_of_hand, state, r, self.work)

    def requirements_ok(self, r: Reading, ev: ReadingEvaluator | None = None,
                        for_waits: bool = False) -> tuple[bool, str]:
        """Whether reading r meets every requirement of its form (and the first reason it does not).
        For a wait trial (`for_waits`), requirements that depend on the waits themselves are left out."""
        requires = self.rules.wait_requires if for_waits else self.rules.requires
        if not requires:
            return True, ""
        fast = self.rules.fast
        if for_waits and ev is None and fast is not None and fast.wait_req_fn is not None:
            try:
                bad = fast.wait_requirements(self, r)
                if bad < 0:
                    return True, ""
                q = requires[bad][0]
                return False, unmet_reason(q)
            except REFERENCE_DECIDES:  # the documented unusual values: the reference decides
                fast.fell_back()
        ev = ev or self.evaluator(r)
        for q, fn, unless in requires:
            if q.forms and r.form not in q.forms:
                continue
            try:
                if fn(ev.env):
                    continue
                if unless is not None and unless(ev.env):
                    continue
            except EvalError:
                pass
            return False, unmet_reason(q)
        return True, ""

    def run(self, native: bool = True) -> ScoreResult:
        """The hand's result. `native` false: the native call that scores whole hands has handed this
        hand back already (runtime/nativelane.py), so it is not asked again."""
        if native and self.rules.fast is not None:
            hands = self.rules.native_hands_for(self.cat, self.dec)
            if hands is not None:  # readings and scoring in one native call (runtime/nativehand.py)
                got = hands.score(self)
                if got is not None:
                    return got
        readings, why = self.readings(self.hand)
        if why == "count":
            n = len(self.hand.concealed) + (1 if self.hand.win is not None else 0)
            raise HandError(f"the hand holds {n} concealed tiles besides {len(self.hand.melds)} meld(s), which no "
                            f"winning form of this rule set can use (a full hand is {self.rs.table.hand} tiles "
                            f"plus the winning tile)")
        if not readings:
            return ScoreResult(False, "the tiles do not form any winning hand of this rule set")
        if self.rules.fast is not None:
            nc = self.rules.native_counts_for(self.cat)
            if nc is not None and nc.scorer is not None:  # the whole hand in native code (runtime/nativescore.py)
                got = nc.scorer.score(self, readings)
                if got is not None:
                    return got
            return self._run_fast(readings)
        return self._run_reference(readings)

    def _run_fast(self, readings: list[Reading]) -> ScoreResult:
        """Each reading by the generated evaluator (runtime/fastscore.py); a reading it cannot take
        (groups that do not hold all its tiles, or anything unusual while evaluating) by the reference.
        The same choice as `_run_reference`: the highest (best, score), the first found on ties."""
        fast = self.rules.fast
        ns = fast.bind(self.cat)
        vec = fast.pre.group_vector
        best = None  # ("fast", reading, result) or ("ref", Evaluation)
        best_key = None
        rejected: list[str] = []
        considered = 0
        refused: list = []
        for r in readings:
            res = None
            if r.complete:
                try:
                    pv = 0
                    for g in r.groups:
                        v = g.prefilter_vector  # kept on the group by the prefilter
                        pv += v if v is not None else vec(g)
                    res = fast.evaluate(self, r, ns, pv, self._native_fast(r))
                except REFERENCE_DECIDES:  # the documented unusual values: the reference decides
                    fast.fell_back()
                    res = None
            if res is None:
                ev, ok, e = self._by_reference(r, rejected)
                if not ok:
                    refused.append((None, ev))
                    continue
                considered += 1
                if e is not None and (best_key is None or (e.best, e.score) > best_key):
                    best, best_key = (None, e), (e.best, e.score)
                continue
            if res.failed is not None:
                rejected.append(f"{r.describe()}: {res.failed}")
                refused.append((r, res))
                continue
            considered += 1
            key = (res.best, res.score)
            if best_key is None or key > best_key:
                best, best_key = (r, res), key
        if best is None:
            reason = rejected[0].split(": ", 1)[1] if rejected else "no reading could be scored"
            chosen, chosen_key = None, None
            for r, x in refused:
                if r is None:
                    try:
                        e = x.evaluate()
                    except EvalError:
                        continue
                    key, got = (e.best, e.score), (None, e)
                else:
                    key, got = (x.best, x.score), (r, x)
                if chosen_key is None or key > chosen_key:
                    chosen, chosen_key = got, key
            return ScoreResult(False, reason, self._evaluation_of(chosen) if chosen else None, 0, rejected)
        return ScoreResult(True, "", self._evaluation_of(best), considered, rejected)

    def _native_fast(self, r: Reading):
        """(raw counts, fired patterns) of reading r from the native core for the generated scorer, or
        None. The generated scorer counts a pattern that reads a unit itself, from the others."""
        raw = self.native_raw(r)
        if raw is None:
            return None
        fast = self.rules.fast
        if self._native[0].owned != ([fast.unit_reader] if fast.unit_reader is not None else []):
            return None
        return raw, [i for i, n in enumerate(raw) if n]

    def _evaluation_of(self, chosen) -> Evaluation:
        r, x = chosen
        if r is None:
            return x
        fast = self.rules.fast
        bst, score, total, units, final, value = x.best, x.score, x.total, x.units, x.final, x.value
        fans = []
        ref = None
        meta = fast.fan_meta
        for i in sorted(final):
            label, name, unit = meta[i]
            if label is None:  # a label with expressions: the reference environment computes it
                ref = ref or self.evaluator(r)
                label = ref.label(fast.patterns[i])
            fans.append(FanLine(label, name, value(i), final[i], unit))
        return LazyEvaluation(r, fans, dict(zip(fast.unit_order, units)), score, total, bst,
                              lambda: self.evaluator(r), lambda: fast.quantities_of(x),
                              lambda: fast.excluded_of(x))

    def _by_reference(self, r: Reading, rejected: list[str]) -> tuple[ReadingEvaluator, bool, Evaluation | None]:
        """One reading by the reference evaluator: (its evaluator, whether it meets the requirements, its
        evaluation or None when evaluating it failed). Why a reading is rejected goes into `rejected`."""
        ev = self.evaluator(r)  # one environment serves the requirements and the patterns
        ok, reason = self.requirements_ok(r, ev)
        if not ok:
            rejected.append(f"{r.describe()}: {reason}")
            return ev, False, None
        try:
            return ev, True, ev.evaluate()
        except EvalError as exc:
            rejected.append(f"{r.describe()}: {exc}")
            return ev, True, None

    def _run_reference(self, readings: list[Reading]) -> ScoreResult:
        best: Evaluation | None = None
        best_key = None
        rejected = []
        considered = 0
        refused: list[ReadingEvaluator] = []  # readings that fail a requirement
        for r in readings:
            ev, ok, e = self._by_reference(r, rejected)
            if not ok:
                refused.append(ev)
                continue
            considered += 1
            if e is not None and (best_key is None or (e.best, e.score) > best_key):
                best, best_key = e, (e.best, e.score)
        if best is None:
            reason = rejected[0].split(": ", 1)[1] if rejected else "no reading could be scored"
            return ScoreResult(False, reason, self._best_refused(refused), 0, rejected)
        return ScoreResult(True, "", best, considered, rejected)

    @staticmethod
    def _best_refused(refused) -> Evaluation | None:
        """For a hand that fails only a requirement (say a minimum score), what its best reading
        would score: the result then still shows the patterns and the total it falls short with."""
        best, best_key = None, None
        for ev in refused:
            try:
                e = ev.evaluate()
            except EvalError:
                continue
            key = (e.best, e.score)
            if best_key is None or key > best_key:
                best, best_key = e, key
        return best
