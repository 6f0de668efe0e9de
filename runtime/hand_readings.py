"""Every reading of one hand: wildcards and stand-ins classified, the hand split under each winning form
(melds and pairs, groups, orphans, instant forms), by signature when it holds several wildcards
(docs/architecture.md, "Hands with wildcards")."""
from __future__ import annotations

from collections import Counter

from .decompose import Decomposer, SplitLimit
from .evaluate import EvalError
from .hand import Hand, HandError
from .hand_signatures import LIMIT_SENTENCE, HandSignatures
from .ir import nodes as ir
from .limits import HAND_WORK, READING_WORK, SPLIT_LIMIT
from .reading import Group, Reading, RTile
from .tiles import Catalog, TileInfo

# The fewest wildcards whose hands are read by signature: a single one gives few splits, and reading
# each of them is cheaper than finding the signatures.
SIGNATURE_FROM = 2



class HandReadings(HandSignatures):
    """Every reading of one hand under one context: wildcards and stand-ins classified, the hand split
    under each winning form (melds and pairs, groups, orphans, instant forms), by signature when it holds
    several wildcards (the signature search: `HandSignatures`, runtime/hand_signatures.py). `Scoring`
    (runtime/hand_score.py) scores the readings."""

    def __init__(self, rules, cat: Catalog, dec: Decomposer, env: dict, hand: Hand,
                 natural_win: bool = False):
        self.natural_win = natural_win  # a wait trial: the trial tile is never a wildcard
        self.rules = rules
        self.rs = rules.ir
        self.cat = cat
        self.dec = dec
        self.env = env
        self.hand = hand
        self._waits = None
        self._shape_waits = None
        # The work this hand may still take (limits.HAND_WORK), shared by every Scoring that answers the
        # same question of it: the trial tiles of its waits, and the waits its patterns read.
        self.work = [HAND_WORK]
        # What the readings are for: "score" (everything scoring reads), or "waits" (only the
        # requirements that decide the waits): the signatures of hands with wildcards observe that.
        self.purpose = "score"
        self._native = None  # (native counts, what the hand's readings share) once first asked for
        self._flower_tiles: list[RTile] | None = None  # `flower_tiles`, made on first use
        # (the concealed tiles, their natural reading tiles): the wait trials of a hand (`wait_kinds`)
        # share the hand's concealed tiles, so its first trial's list serves the others
        self.naturals_base: tuple | None = None

    # ------------------------------------------------------------------ which tiles are wild

    def base_env(self) -> dict:
        env = dict(self.env)
        env["builtin:self_drawn"] = self.hand.self_drawn
        return env

    def classify(self, hand: Hand, standins: bool = True) -> tuple[list[RTile], list[RTile]]:
        """Concealed tiles (winning tile included) -> (natural tiles, wild tiles). With `standins`
        false (a form that declares `standins false`), stand-in tiles are just themselves."""
        env = self.base_env()
        env["builtin:win_tile"] = hand.win
        standin: dict[str, TileInfo] = {}
        for s, plays, unless in self.rules.standins if standins else ():
            try:
                target = plays(env)
                if target is not None and not (unless and unless(env)):
                    standin[s.name] = self.cat.by_name.get(target.name)
            except (EvalError, KeyError):
                continue
        wild_hand: set[str] = set()
        wild_win: set[str] = set()
        for w, kind in self._active_wilds(env):
            (wild_win if w.scope == "win_tile" else wild_hand).add(kind.name)
        naturals: list[RTile] = []
        wilds: list[RTile] = []
        tiles = [(t, False) for t in hand.concealed] + ([(hand.win, True)] if hand.win is not None else [])
        for t, is_win in tiles:
            if (t.name in wild_hand or (is_win and t.name in wild_win)) and not (is_win and self.natural_win):
                wilds.append(RTile(t, t, True, is_win))
            elif t.name in standin:
                naturals.append(RTile(standin[t.name], t, False, is_win))
            else:
                naturals.append(RTile(t, t, False, is_win))
        return naturals, wilds

    def _active_wilds(self, env: dict) -> list[tuple[ir.Wild, TileInfo]]:
        """Each wildcard declaration in force in this context, with the tile kind it makes wild."""
        out = []
        for w, active in self.rules.wilds:
            kind = self.cat.by_name.get(w.tiles)
            if kind is None:
                v = env.get(f"reveal:{w.tiles}")
                kind = self.cat.by_name.get(v.name) if v is not None else None
            if kind is None:
                continue
            try:
                if active is not None and not active(env):
                    continue
            except (EvalError, KeyError):
                continue
            out.append((w, kind))
        return out

    def refuse_wild_melds(self) -> None:
        """A laid-down meld of a kind a hand wildcard may not join (`no_meld`) cannot hold that wildcard:
        such a hand cannot occur, so it is refused (HandError) rather than scored."""
        if not self.hand.melds or not self.rules.wilds:
            return
        for w, kind in self._active_wilds(self.base_env()):
            if w.scope != "hand" or not w.no_meld:
                continue
            for m in self.hand.melds:
                if m.kind in w.no_meld and any(t.name == kind.name for t in m.tiles):
                    raise HandError(f"the meld {m.kind}:{''.join(t.name for t in m.tiles)} holds {kind.name}, "
                                    f"a wildcard ({w.name}), which never joins a {m.kind}")

    # ------------------------------------------------------------------ readings

    def exposed_groups(self, hand: Hand) -> list[Group]:
        out = []
        for m in hand.melds:
            mk = self.rs.meld(m.kind)
            tiles = [RTile(t) for t in m.tiles]
            out.append(Group(m.kind, tiles, exposed=mk.exposed, concealed=not mk.exposed, is_pair=mk.pair,
                             is_kong=mk.kong, value=self.group_value(mk, tiles), declared=True))
        return out

    def group_value(self, mk, tiles):
        if not mk.values:
            return 0
        return self.rules.meld_value(mk, tiles[0].kind.suit if tiles else None)

    def readings(self, hand: Hand, only: set[str] | None = None) -> tuple[list[Reading], str]:
        """Every reading under every form (or only the forms named in `only`), and why there is none
        when the list is empty. Each reading is charged to the hand's work (`self.work`): whoever asks
        for readings scores or tests them."""
        if not self.rules.wilds and not self.rules.standins:
            got = self._readings_natural(hand, only)
        else:
            got = self._readings_wild(hand, only)
        self._spend(len(got[0]) * READING_WORK)
        return got

    def _spend(self, units: int) -> None:
        work = self.work
        work[0] -= units
        if work[0] < 0:
            raise HandError(LIMIT_SENTENCE)

    def _readings_wild(self, hand: Hand, only: set[str] | None) -> tuple[list[Reading], str]:
        classified = {True: self.classify(hand)}
        exposed = self.exposed_groups(hand)
        budget = self.work  # table entries the decomposition spends of the hand's work
        out: list[Reading] = []
        fits_any = False
        for form, instant, pair_when in self.rules.forms:
            if only is not None and form.name not in only:
                continue
            if form.standins not in classified:
                classified[form.standins] = self.classify(hand, form.standins)
            naturals, wilds = classified[form.standins]
            win_rtile = next((t for t in naturals + wilds if t.is_win), None)
            all_tiles = naturals + wilds + [t for g in exposed for t in g.tiles]
            concealed_n = len(naturals) + len(wilds)
            if form.tiles is not None and concealed_n + sum(len(g.tiles) for g in exposed) not in (
                    form.tiles, self.rs.table.hand + 1):
                continue  # a form with `tiles N` also wins with N tiles (e.g. before one's own draw)
            if form.concealed and any(g.exposed for g in exposed):
                continue
            if instant is not None:
                fits_any = True
                r = Reading(form.name, list(exposed), all_tiles, naturals + wilds, win_rtile, None)
                if self._eval_bool(instant, r, ("instant", form.name)):
                    out.append(r)
                continue
            if form.orphans:
                fits_any |= concealed_n == len(self.cat.with_attr(form.orphans)) + 1
                r = self._orphans(form, naturals, wilds, exposed, all_tiles, win_rtile)
                if r is not None:
                    out.append(r)
                continue
            for m, p in self.form_targets(form, len(exposed)):
                if not self.sizes_fit(concealed_n, m, p):
                    continue
                fits_any = True
                counts = [0] * self.dec.n
                for t in naturals:
                    counts[t.kind.index] += 1
                if not self.dec.can_split(tuple(counts), len(wilds), m, p):
                    continue
                if len(wilds) >= SIGNATURE_FROM:
                    got = self._signature_readings(form, m, p, counts, naturals, wilds, exposed, all_tiles, hand,
                                                   pair_when, budget)
                    if got is not None:
                        out.extend(got)
                        continue
                try:
                    splits = self.dec.splits(counts, len(wilds), m, p, limit=min(SPLIT_LIMIT, max(budget[0], 0)))
                except SplitLimit:
                    raise HandError(LIMIT_SENTENCE) from None
                self._spend(len(splits))
                for split in splits:
                    out.extend(self._readings_of(form, split, naturals, wilds, exposed, all_tiles, hand, pair_when))
        if not fits_any:
            return [], "count"
        return out, ""

    def _readings_natural(self, hand: Hand, only: set[str] | None) -> tuple[list[Reading], str]:
        """`readings` for a rule set without wildcards or stand-ins: every tile is itself, so splits
        come straight from the tile counts and groups from the shared cache."""
        exposed = self.exposed_groups(hand) if hand.melds else []
        win = hand.win
        counts = [0] * self.dec.n
        for t in hand.concealed:
            counts[t.index] += 1
        if win is not None:
            counts[win.index] += 1
        concealed_n = len(hand.concealed) + (win is not None)
        key = tuple(counts)
        has_exposed = any(g.exposed for g in exposed)
        naturals = None
        out: list[Reading] = []
        fits_any = False
        dec = self.dec
        pieces = dec.pieces
        tcache = pieces.form_targets
        for form, instant, pair_when in self.rules.forms:
            if only is not None and form.name not in only:
                continue
            if form.tiles is not None and concealed_n + sum(len(g.tiles) for g in exposed) not in (
                    form.tiles, self.rs.table.hand + 1):
                continue
            if form.concealed and has_exposed:
                continue
            if instant is not None or form.orphans:
                if naturals is None:
                    # natural tiles never change once made, so one object per kind (and winning flag)
                    # serves every hand
                    base = self.naturals_base  # given by `wait_kinds` to its trials
                    if base is not None and base[0] is hand.concealed:
                        naturals = list(base[1])
                    else:
                        naturals = [pieces.natural_tile(t) for t in hand.concealed]
                        self.naturals_base = (hand.concealed, list(naturals))
                    if win is not None:
                        naturals.append(pieces.natural_tile(win, True))
                win_rtile = naturals[-1] if win is not None else None
                all_tiles = naturals + [t for g in exposed for t in g.tiles]
                if instant is not None:
                    fits_any = True
                    r = Reading(form.name, list(exposed), all_tiles, list(naturals), win_rtile, None)
                    if self._eval_bool(instant, r, ("instant", form.name)):
                        out.append(r)
                    continue
                fits_any |= concealed_n == len(self.cat.with_attr(form.orphans)) + 1
                r = self._orphans(form, naturals, [], exposed, all_tiles, win_rtile)
                if r is not None:
                    out.append(r)
                continue
            tk = (form.name, len(exposed), concealed_n)
            targets = tcache.get(tk)
            if targets is None:
                targets = tcache[tk] = [(m, p) for m, p in self.form_targets(form, len(exposed))
                                        if self.sizes_fit(concealed_n, m, p)]
            for m, p in targets:
                fits_any = True
                if not dec.can_split(key, 0, m, p):
                    continue
                for split in dec.splits(counts, 0, m, p):
                    out.extend(self._readings_plain(form, split, win, exposed, hand, pair_when))
        if not fits_any:
            return [], "count"
        # The tile counts of the hand (`hand`: concealed and winning tile; `tiles`: with the melds), from
        # which per-hand summaries of those lists are made (runtime/fastscore.py).
        every = list(counts)
        for g in exposed:
            for t in g.tiles:
                every[t.kind.index] += 1
        shared: dict = {"counts:hand": counts, "counts:tiles": every}
        for r in out:
            r.shared = shared
        return out, ""

    def form_targets(self, form: ir.WinForm, n_exposed: int):
        lo, hi = form.pairs if form.pairs else (0, 0)
        if form.groups is not None:
            if not form.pairs:
                lo, hi = 0, form.groups
            for p in range(lo, hi + 1):
                m = form.groups - p - n_exposed
                if m >= 0:
                    yield m, p
        else:
            for p in range(lo, hi + 1):
                m = (form.melds or 0) - n_exposed
                if m >= 0:
                    yield m, p

    def sizes_fit(self, n: int, m: int, p: int) -> bool:
        from .decompose import sum_fits

        sizes = self.dec.sizes
        return sum_fits(n, m, sizes[0], p, sizes[1])

    def cached_group(self, kind: str, slots: tuple, win_pos: int, concealed: bool) -> Group:
        """Groups of natural tiles are immutable: one object per (kind, tiles, winning position,
        concealment) serves every reading of every hand, and keeps its memoised fields."""
        cache = self.dec.pieces.groups
        key = (kind, slots, win_pos, concealed)
        g = cache.get(key)
        if g is None:
            kinds = self.cat.kinds
            tiles = [RTile(kinds[idx], None, False, j == win_pos) for j, (idx, _) in enumerate(slots)]
            mk = self.rs.meld(kind)
            g = Group(kind, tiles, exposed=False, concealed=concealed, is_pair=mk.pair, is_kong=mk.kong,
                      value=self.group_value(mk, tiles), has_win=win_pos >= 0)
            g.f = g.all_fields()  # a plain dict: read often, and this group never changes
            cache[key] = g
        return g

    def _readings_plain(self, form, split, win, exposed, hand, pair_when):
        """Readings of a split with no wildcards and no stand-ins, from cached groups. A split's items
        are the block tables' own tuples, kept for the life of the rule set, so their groups are found
        by the item's identity (checked) instead of hashing its slots each time."""
        cache = self.dec.pieces.item_groups
        groups = []
        info = []
        for item in split:
            got = cache.get(id(item))
            if got is None or got[0] is not item:
                spec, slots = item
                got = (item, self.cached_group(spec.kind, tuple(slots), -1, True), tuple(i for i, _ in slots))
                if isinstance(slots, tuple):
                    cache[id(item)] = got
            groups.append(got[1])
            info.append(got)
        if win is None:
            r = Reading(form.name, exposed + groups, None, None, None, None)
            return [r] if self._pairs_allowed(r, pair_when) else []
        out = []
        seen = set()
        widx = win.kind.index if isinstance(win, RTile) else win.index
        wcache = self.dec.pieces.win_groups
        shape: dict = {}
        for gi, (item, g, idxs) in enumerate(info):
            if widx not in idxs:
                continue
            if id(g) in seen:  # an identical group (the same cached object) was tried already
                continue
            seen.add(id(g))
            spec, slots = item
            concealed = hand.self_drawn or spec.is_pair  # completed by a claimed tile: not concealed
            ti = idxs.index(widx)
            wkey = (id(item), widx, concealed)
            got = wcache.get(wkey)
            if got is None or got[0] is not item:
                got = (item, self.cached_group(spec.kind, tuple(slots), ti, concealed))
                if isinstance(slots, tuple):
                    wcache[wkey] = got
            wg = got[1]
            gs = exposed + groups[:gi] + [wg] + groups[gi + 1:]
            r = Reading(form.name, gs, None, None, wg.tiles[ti], wg)
            r.shape = shape
            if self._pairs_allowed(r, pair_when):
                out.append(r)
        return out

    def _signature_readings(self, form, m, p, counts, naturals, wilds, exposed, all_tiles, hand, pair_when,
                            budget) -> list[Reading] | None:
        """The readings of a hand holding wildcards under one form and (melds, pairs): one per signature
        (`runtime/observe.py`), the first of each in the order `splits` and `_readings_of` find them
        (`runtime/signatures.py`), so the best reading and its trace are the ones full
        enumeration gives. None when the hand's wildcards are of several kinds (each tile's identity
        then matters) or a site cannot be evaluated on a group: full enumeration decides."""
        found = self.signature_found(form, m, p, counts, naturals, wilds, hand, budget)
        if found is None:
            return None
        out = []
        if any(t.physical is not t.kind for t in naturals):  # stand-ins: their identity is restored
            for _, groups, win_gi in found:
                out.extend(self._readings_of(form, groups, naturals, wilds, exposed, all_tiles, hand, pair_when,
                                             only_gi=win_gi))
            return out
        # Otherwise each group is what its slots say: groups are shared, like the natural ones
        # (`cached_group`), the wildcards' physical tile being part of the key.
        win = next((t for t in naturals + wilds if t.is_win), None)
        wild_phys = wilds[0].physical
        for _, groups, win_gi in found:
            gs = list(exposed)
            wg = None
            for gi, (spec, slots) in enumerate(groups):
                slots = tuple(slots)
                wp = -1
                if gi == win_gi:
                    wp = next(j for j, (idx, wild) in enumerate(slots)
                              if (wild if win.wild else (not wild and idx == win.kind.index)))
                g = self.signature_group(spec.kind, spec.is_pair, slots, wp, wild_phys, hand.self_drawn)
                if wp >= 0:
                    wg = g
                gs.append(g)
            r = Reading(form.name, gs, None, None, wg.tiles[next(j for j, t in enumerate(wg.tiles) if t.is_win)]
                        if wg is not None else None, wg)
            if self._pairs_allowed(r, pair_when):
                out.append(r)
        return out

    def _readings_of(self, form, split, naturals, wilds, exposed, all_tiles, hand, pair_when, only_gi=None):
        if not wilds and all(t.physical is t.kind for t in naturals):
            win = next((t for t in naturals if t.is_win), None)
            return self._readings_plain(form, split, win, exposed, hand, pair_when)
        kinds = self.cat.kinds
        wild_phys = [t.physical for t in wilds]
        groups: list[Group] = []
        wi = 0
        nat_pool: dict[str, list[RTile]] = {}
        for t in naturals:
            nat_pool.setdefault(t.kind.name, []).append(t)
        # Natural tiles of one kind are interchangeable except the winning tile; place ordinary ones
        # first and the winning tile wherever each reading puts it (below).
        for spec, slots in split:
            tiles = []
            for idx, wild in slots:
                k = kinds[idx]
                if wild:
                    phys = wild_phys[wi] if wi < len(wild_phys) else k
                    wi += 1
                    tiles.append(RTile(k, phys, True))
                else:
                    tiles.append(RTile(k, k, False))
            mk = self.rs.meld(spec.kind)
            groups.append(Group(spec.kind, tiles, exposed=False, concealed=True, is_pair=spec.is_pair,
                                is_kong=mk.kong, value=self.group_value(mk, tiles)))
        # restore the physical identity of stand-in tiles (a tile playing as another)
        for g in groups:
            for j, t in enumerate(g.tiles):
                if not t.wild:
                    pool = nat_pool.get(t.kind.name)
                    if pool:
                        src = pool.pop()
                        if src.physical is not t.physical:
                            g.tiles[j] = RTile(t.kind, src.physical, False)
        win = next((t for t in naturals + wilds if t.is_win), None)
        all_groups = exposed + groups
        base_tiles = [t for g in all_groups for t in g.tiles]
        hand_tiles = [t for g in groups for t in g.tiles]
        if win is None:
            r = Reading(form.name, all_groups, base_tiles, hand_tiles, None, None)
            return [r] if self._pairs_allowed(r, pair_when) else []
        out = []
        seen = set()
        for gi, g in enumerate(groups):
            if only_gi is not None and gi != only_gi:
                continue
            for ti, t in enumerate(g.tiles):
                if t.wild != win.wild or (not t.wild and t.kind.name != win.kind.name) or \
                        (t.wild and t.physical.name != win.physical.name):
                    continue
                sig = (g.kind, tuple(repr(x) for x in g.tiles))
                if sig in seen:
                    break
                seen.add(sig)
                new_groups = [Group(x.kind, [RTile(y.kind, y.physical, y.wild) for y in x.tiles], x.exposed,
                                    x.concealed, x.is_pair, x.is_kong, x.value) for x in groups]
                wg = new_groups[gi]
                wg.tiles[ti].is_win = True
                wg.has_win = True
                if not hand.self_drawn and not wg.is_pair:
                    wg.concealed = False  # completed by a claimed tile: not concealed
                gs = exposed + new_groups
                r = Reading(form.name, gs, [t for x in gs for t in x.tiles], [t for x in new_groups for t in x.tiles],
                            wg.tiles[ti], wg)
                if self._pairs_allowed(r, pair_when):
                    out.append(r)
                break
        return out

    def _pairs_allowed(self, r: Reading, pair_when) -> bool:
        if pair_when is None or not any(g.is_pair for g in r.groups):
            return True
        return self._eval_bool(pair_when, r, ("pair_when", r.form))

    def _orphans(self, form, naturals, wilds, exposed, all_tiles, win_rtile):
        if exposed:
            return None
        need = self.cat.with_attr(form.orphans)
        need_names = {k.name for k in need}
        have = Counter(t.kind.name for t in naturals)
        if any(name not in need_names for name in have):
            return None
        missing = sum(1 for k in need if have[k.name] == 0)
        extra = sum(n - 1 for n in have.values() if n > 1)
        if extra > 1 or missing + max(0, 1 - extra) != len(wilds):
            return None
        tiles = naturals + wilds
        return Reading(form.name, [], all_tiles, tiles, win_rtile, None)

    # ------------------------------------------------------------------ evaluation
