"""Hands in play against the rules' scoring: waits, the exact shortcuts that reject a hand that cannot be
ready or win, scoring a win, the win a seat could make now, the winner's bindings and task factor.

A part of `Game` (runtime/game/flow.py); the model is docs/engine.md."""
from __future__ import annotations

from collections import Counter

from ..hand import Hand, HandError, Meld
from ..hand_score import Scoring
from ..ir.wilds import wilds_needed
from ..result import ScoreResult
from ..rules import Rules
from ..tiles import TileInfo, kind_counts
from .records import (
    EVAL_ERRORS,
    WinInfo,
)
from .state import GMeld, Seat


class Winning:
    """The winning steps of `Game`."""

    __slots__ = ()  # the fields are `Game`'s (runtime/game/flow.py)

    def waits(self, seat: Seat, groups: bool = False) -> list[TileInfo]:
        """The kinds the seat's concealed hand waits on; with `groups`, only by the forms that split the
        hand into melds and pairs (`group_waits`: not by an `instant` or `orphans` form)."""
        if groups and not self._group_forms_differ():
            groups = False
        key = (seat.version, self._ctx_version)
        memo = seat.memo
        cached = memo.group_waits if groups else memo.waits
        if cached is not None and cached[0] == key:
            return cached[1]
        if self.shortcuts and self._not_ready(seat.hand, seat.melds, seat):
            kinds = []
        else:
            kinds = self._waits_of(seat, list(seat.hand), groups)
        if groups:
            memo.group_waits = (key, kinds)
        else:
            memo.waits = (key, kinds)
        return kinds

    def _group_forms_differ(self) -> bool:
        return len(self.prog.group_forms) != len(self.rules.forms)

    def waits_without(self, seat: Seat | None, tile, groups: bool = False) -> list[TileInfo]:
        """What the seat's concealed hand would wait on after giving up one `tile` (with `groups`: by the
        forms that split the hand into melds and pairs only)."""
        if seat is None or tile is None:
            return []
        name = tile.kind.name if isinstance(getattr(tile, "kind", None), TileInfo) else tile.name
        hand = list(seat.hand)
        for i, t in enumerate(hand):
            if t.name == name:
                del hand[i]
                break
        else:
            return []
        return self._waits_of(seat, hand, groups and self._group_forms_differ())

    def _waits_of(self, seat: Seat, concealed: list[TileInfo], groups: bool = False) -> list[TileInfo]:
        if self.shortcuts and self._not_ready(concealed, seat.melds):
            return []
        only = self.prog.group_forms if groups else ()
        env = self._score_env()
        h = self.hand_of(seat, concealed, None, False)
        try:
            sc = Scoring(self.rules, self.cat, self.dec, env, h)
            # The scoring runtime's waits (Scoring.wait_kinds): by structure from the block tables when no
            # requirement decides them and every form is melds and pairs; otherwise kind by kind, each
            # first put to the engine's cheap necessary test, then tried in full, requirements included.
            plain = sc.plain_wait_check() if self.rules.plain_waits and not groups else None
            held = Counter(t.name for t in h.all_tiles())
            kinds = []
            for k in self.cat.kinds:
                if k.category == "flower" or held[k.name] >= k.copies:
                    continue
                if plain is not None:
                    if plain(k):
                        kinds.append(k)
                    continue
                if not self._could_win(h.concealed, seat.melds, k, False, only):
                    continue
                trial = self.hand_of(seat, h.concealed, k, False)
                sub = Scoring(self.rules, self.cat, self.dec, env, trial, natural_win=True)
                sub.work = sc.work  # one work limit for all the trial tiles
                rs, _ = sub.readings(trial, set(only) if only else None)
                if any(sub.requirements_ok(r, for_waits=True)[0] for r in rs):
                    kinds.append(k)
        except (HandError, *EVAL_ERRORS):
            kinds = []
        return kinds

    def _free_names(self) -> set[str]:
        """Kinds that may play as another kind in a hand: the hand's wildcards and the stand-ins."""
        c = self._free
        if c is None or c[0] is not self._hand_wild:
            c = self._free = (self._hand_wild, self._hand_wild | {s.name for s in self.rs.standins})
        return c[1]

    def _unmendable(self, tiles: list[TileInfo]) -> int:
        """How many tiles these tiles lack, at least, to split into groups (runtime/fastwin.py), beyond
        those of them that may play as another (wildcards, stand-ins): 0 when they might be complete,
        capped at 3. Every group lies in one block. A tile that plays as another — a wildcard, a
        stand-in, or just itself — joins one block; so a hand with d more unsplittable blocks than such
        tiles needs d more tiles. Where a wildcard may play any tile of any hand group, a block needing
        k wildcards at least (its option sets) counts k."""
        counts, f = kind_counts(tiles, self.dec.n, self._free_names())
        fast = self.dec.fast
        bad = fast.unsplit_blocks(counts, f + 3)
        if len(bad) - f >= 2 or not bad:
            return len(bad) - f
        if self._wildcards_play_anything():
            return min(3, fast.deficit(counts, f + 3) - f)
        return len(bad) - f

    def _wildcards_play_anything(self) -> bool:
        """Whether a wildcard may stand for any (non-flower) kind in any hand group: then a tile in a
        split can always be swapped for a wildcard, and block deficits (`BlockWin.deficit`) bound how
        many tiles a hand lacks."""
        v = self._wild_any
        if v is None:
            dec = self.dec
            v = dec.fast.cap > 0 and all(dec.wild_ok[k.index] for k in self.cat.kinds if k.category != "flower") \
                and not (dec.no_wild_kinds & {sp.kind for sp in dec.specs})
            self._wild_any = v
        return v

    def _natural_blocks(self) -> int:
        """How many blocks hold a kind that is not a wildcard or stand-in: `_unmendable` counts no other,
        so it never exceeds this (a shortcut that needs more is not worth its lookups)."""
        free = self._free_names()
        c = self._nat_blocks
        if c is None or c[0] is not free:
            kinds = self.cat.kinds
            n = sum(1 for blk in self.dec.fast.blocks if any(kinds[k].name not in free for k in blk))
            c = self._nat_blocks = (free, n)
        return c[1]

    def _seat_unmendable(self, seat: Seat) -> int:
        """`_unmendable` of the seat's concealed tiles, kept until they change."""
        free = self._free_names()
        c = seat.memo.unmendable
        if c is None or c[0] != seat.version or c[1] is not free:  # `is`: a freed set's id may be reused
            c = seat.memo.unmendable = (seat.version, free, self._unmendable(seat.hand))
        return c[2]

    def _hopeless(self, seat: Seat, tile: TileInfo, in_hand: bool, forms: tuple[str, ...]) -> bool:
        """An exact shortcut before `_could_win`: the seat's concealed tiles with the winning tile (among
        them when `in_hand`, else beside them) cannot be split into groups, whatever the forms ask.
        A tile added beside them supplies at most one missing tile (`_unmendable`). Forms that build no
        split (instant, orphans) are never short-cut."""
        fast = self.dec.fast
        if fast is None or self._special_forms(forms):
            return False
        if in_hand and tile.name in self._win_wild and tile.name not in self._free_names():
            return False  # a wildcard only as the winning tile: rare, and not bounded by deficits
        need = 1 if in_hand else 2
        if need > self._natural_blocks() and not self._wildcards_play_anything():
            return False
        return self._seat_unmendable(seat) >= need

    def _special_forms(self, forms: tuple[str, ...]) -> bool:
        c = self._special
        v = c.get(forms)
        if v is None:
            v = c[forms] = any((f.instant is not None or f.orphans) and (not forms or f.name in forms)
                               for f, _, _ in self.rules.forms)
        return v

    def _not_ready(self, concealed: list[TileInfo], melds: list[GMeld], seat: Seat | None = None) -> bool:
        """An exact shortcut for most hands that wait on nothing: one more tile mends at most one block
        (`_unmendable`; of `seat`'s hand, kept per version, when the concealed tiles are its hand), so a
        hand short by two blocks is completed by no single tile — unless a form that builds no split
        could still be completed (`_no_special_win`)."""
        if self.dec.fast is None or not (self._natural_blocks() >= 2 or self._wildcards_play_anything()):
            return False
        if (self._seat_unmendable(seat) if seat is not None else self._unmendable(concealed)) < 2:
            return False
        return not self._special_forms(()) or self._no_special_win(concealed, melds)

    def _no_special_win(self, concealed: list[TileInfo], melds: list[GMeld]) -> bool:
        """No form that builds no split is completed by one more tile, by the necessary tests of
        `_could_win`: an orphans form needs no melds and every tile that is not free to have its
        attribute; an instant form needs at least `_instant_wilds` wildcards, and one tile adds at most one."""
        free = self._free_names()
        for f, _, _ in self.rules.forms:
            if f.orphans:
                if not melds and all(t.attrs.get(f.orphans) for t in concealed if t.name not in free):
                    return False
            elif f.instant is not None:
                if sum(1 for t in concealed if t.name in free) + 1 >= self._instant_wilds((f.name,)):
                    return False
        return True

    def hand_of(self, seat: Seat, concealed: list[TileInfo], win: TileInfo | None, self_drawn: bool) -> Hand:
        """A seat's hand as scoring takes it (its melds, and the flowers it set aside)."""
        h = Hand(concealed, [Meld(m.kind, list(m.tiles)) for m in seat.melds], win, self_drawn)
        if hasattr(h, "flowers"):
            h.flowers = [t for t in seat.aside if t.category == "flower"]
        return h

    def _score_env(self) -> dict:
        c = self._score_env_cache
        if c is not None and c[0] == self._ctx_version:
            return c[1]
        env = dict(self.settings)
        for k, v in self.st.context.items():
            env[f"context:{k}"] = v
        for k, v in self.st.reveals.items():
            env[f"reveal:{k}"] = v
        env = self.rules.retile(env, self.cat)
        self._score_env_cache = (self._ctx_version, env)
        return env

    def _rules_for(self, forms: tuple[str, ...]) -> Rules:
        r = self._forms_rules.get(forms)
        if r is None:  # the rule set owns which of its caches depend on the forms
            r = self._forms_rules[forms] = self.rules.with_forms(forms)
        return r

    def _precheck_targets(self):
        """A cheap test that rejects hands that cannot win under any reading, form by form: split forms
        by the block tables (wildcards and stand-ins counted as free tiles), `orphans` forms by their
        tiles' attribute, `instant` forms by scoring under those forms alone."""
        return {"instant": tuple(f.name for f, _, _ in self.rules.forms if f.instant is not None)}

    def _could_win(self, concealed: list[TileInfo], melds: list[GMeld], win: TileInfo | None,
                   self_drawn: bool, forms: tuple[str, ...] = ()) -> bool:
        dec = self.dec
        counts = [0] * dec.n
        wilds = 0
        free = self._free_names()
        naturals = []
        for t in concealed:
            if t.name in free:
                wilds += 1
            else:
                counts[t.index] += 1
                naturals.append(t)
        if win is not None:
            if win.name in free or (win.name in self._win_wild):
                wilds += 1
            else:
                counts[win.index] += 1
                naturals.append(win)
        n = len(concealed) + (1 if win is not None else 0)
        has_exposed = any(m.exposed for m in melds)
        key = (n, len(melds), has_exposed, forms)
        plan = self._target_cache.get(key)
        if plan is None:
            probe = Scoring(self.rules, self.cat, dec, {}, Hand([], [], None, False))
            targets, orphans = [], []
            for f, _, _ in self.rules.forms:
                if (forms and f.name not in forms) or (f.concealed and has_exposed) or f.instant is not None:
                    continue
                if f.orphans:
                    need = sum(1 for k in self.cat.kinds if k.attrs.get(f.orphans))
                    if not melds and n == need + 1:
                        orphans.append(f.orphans)
                    continue
                targets.extend((m, p) for m, p in probe.form_targets(f, len(melds)) if probe.sizes_fit(n, m, p))
            plan = self._target_cache[key] = (list(dict.fromkeys(targets)), orphans)
        targets, orphans = plan
        tup = tuple(counts)
        fast = dec.fast
        if targets and dec.structure is not fast and wilds <= dec.structure.cap:
            if dec.can_split_any(tup, wilds, targets):  # the native core: one call for every target
                return True
        elif targets and fast is not None and wilds <= fast.cap:  # one block lookup for every target
            sid = fast.hand_id(tup) if wilds else fast.hand_id0(tup)
            if any(fast.fits(sid, wilds, m, p) for m, p in targets):
                return True
        elif any(dec.can_split(tup, wilds, m, p) for m, p in targets):
            return True
        if any(all(t.attrs.get(attr) for t in naturals) for attr in orphans):
            return True
        instant = self._instant_of.get(forms)
        if instant is None:
            instant = self._instant_of[forms] = tuple(x for x in self._precheck["instant"] if not forms or x in forms)
        if instant:
            if self.shortcuts and wilds < self._instant_wilds(instant):
                return False  # every instant form asks for more wildcards than the hand could hold
            h = Hand(list(concealed), [Meld(m.kind, list(m.tiles)) for m in melds], win, self_drawn)
            try:
                res = Scoring(self._rules_for(instant), self.cat, dec, self._score_env(), h).run()
            except (HandError, *EVAL_ERRORS):
                return False
            return res.win
        return False

    def _instant_wilds(self, names: tuple[str, ...]) -> int:
        """The fewest wildcards a hand must hold for one of these instant forms to hold (`wilds_needed`)."""
        c = self._instant_need
        got = c.get(names)
        if got is None:
            got = c[names] = min((wilds_needed(f.instant) for f, _, _ in self.rules.forms if f.name in names),
                                 default=0)
        return got

    def score(self, seat: Seat, win: TileInfo | None, self_drawn: bool, concealed: list[TileInfo] | None = None,
              forms: tuple[str, ...] = ()) -> tuple[ScoreResult | None, Scoring | None]:
        conc = list(seat.hand) if concealed is None else concealed
        if not self._could_win(conc, seat.melds, win, self_drawn, forms):
            return None, None
        rules = self._rules_for(forms) if forms else self.rules
        h = self.hand_of(seat, conc, win, self_drawn)
        sc = Scoring(rules, self.cat, self.dec, self._score_env(), h)
        try:
            res = sc.run()
        except (HandError, *EVAL_ERRORS):
            return None, None
        return res, sc

    def _win_info(self, s: int, mode: str, tile: TileInfo | None, forms: tuple[str, ...] = (),
                  discarder: int | None = None, robbed: int | None = None, action: str | None = None) -> WinInfo | None:
        """Whether seat s wins now. mode: drawn (the tile is in the hand, self-drawn), claimed (the tile
        is not in the hand), none (the hand as it stands), best_wait (the best tile the hand waits on).
        With the `action` that would take it, the win as that action would score it (runtime/game/
        win_trial.py): a hand that scores on the context of the moment, won or not, is tried."""
        if action is not None and self.trial_statements(action):
            found = self._win_found(s, mode, tile, forms, discarder, robbed, keep=True)
            return None if found is None else self.win_on_trial(found, action)
        return self._win_found(s, mode, tile, forms, discarder, robbed)

    def _win_found(self, s: int, mode: str, tile: TileInfo | None, forms: tuple[str, ...] = (),
                   discarder: int | None = None, robbed: int | None = None, keep: bool = False) -> WinInfo | None:
        """`_win_info` on the context of the moment; with `keep`, a hand that scores but does not win is
        kept too (not for `best_wait`, which picks among the waits that win)."""
        seat = self.st.seats[s]
        if self.shortcuts and tile is not None and mode in ("drawn", "claimed", "revealed") and \
                self._hopeless(seat, tile, mode == "drawn", forms):
            return None
        # (the discarder and the robbed seat are part of the win found: the same tile claimed again from
        # another seat's discard is another win)
        key = (s, seat.version, self._ctx_version, mode, tile.name if tile else None, forms, discarder, robbed, keep)
        if key in self._win_cache:
            return self._win_cache[key]
        info = None
        if mode == "drawn" and tile is not None:
            conc = list(seat.hand)
            conc.remove(tile)
            res, sc = self.score(seat, tile, True, conc, forms)
            if res is not None and (res.win or keep and res.evaluation is not None):
                info = WinInfo(s, tile, True, conc, res, sc)
        elif mode == "revealed" and tile is not None:  # own turned card: self-drawn, not in the hand
            res, sc = self.score(seat, tile, True, list(seat.hand), forms)
            if res is not None and (res.win or keep and res.evaluation is not None):
                info = WinInfo(s, tile, True, list(seat.hand), res, sc)
        elif mode == "claimed" and tile is not None:
            res, sc = self.score(seat, tile, False, list(seat.hand), forms)
            if res is not None and (res.win or keep and res.evaluation is not None):
                info = WinInfo(s, tile, False, list(seat.hand), res, sc, discarder, robbed)
        elif mode == "none":
            rules = self._rules_for(forms) if forms else self.rules
            h = self.hand_of(seat, list(seat.hand), None, False)
            sc = Scoring(rules, self.cat, self.dec, self._score_env(), h)
            try:
                res = sc.run()
            except (HandError, *EVAL_ERRORS):
                res = None
            if res is not None and (res.win or keep and res.evaluation is not None):
                info = WinInfo(s, None, False, list(seat.hand), res, sc)
        elif mode == "best_wait":
            best = None
            for conc, kinds in self._wait_hands(seat):
                for k in kinds:
                    res, sc = self.score(seat, k, False, conc, forms)
                    if res is not None and res.win and (best is None or
                                                        (res.evaluation.best, res.score) > (best[0].evaluation.best,
                                                                                            best[0].score)):
                        best = (res, sc, k, conc)
            if best is not None:
                info = WinInfo(s, best[2], False, best[3], best[0], best[1])
        if info is not None:
            info.scored_at = self._ctx_version
        if len(self._win_cache) > 512:
            self._win_cache.clear()
        self._win_cache[key] = info
        return info

    def win_offered(self, s: int, mode: str, tile: TileInfo | None, forms: tuple[str, ...] = (),
                    discarder: int | None = None, robbed: int | None = None,
                    action: str | None = None) -> WinInfo | None:
        """`_win_info` for a caller outside the engine's steps: the native legal moves' check
        (runtime/game/native_offers.py) asks the reference's winning machinery through it."""
        return self._win_info(s, mode, tile, tuple(forms), discarder, robbed, action)

    def best_win(self, seat: Seat | int | None, self_drawn: bool) -> WinInfo | None:
        """The best win the seat's concealed hand, as it stands, could make on a tile it waits on
        (`seat.waits`), self-drawn or on a discard, under the context of the moment; None when no wait
        wins that way (its `tile`, `result.score` and `result.fans` are the game functions' `best_tile`,
        `best_score`, `best_fans`). Best as `win_tile best_wait` chooses: by the score's `best`, then the
        score (the first wait in catalog order on a tie). Scoring every wait is one question of the
        hand: the trials share one work limit (limits.HAND_WORK); a hand over it raises its one-sentence
        HandError. `seat` is a Seat or, from the Python API, a seat number."""
        if type(seat) is int and 0 <= seat < len(self.st.seats):
            seat = self.st.seats[seat]
        if not isinstance(seat, Seat):
            return None
        self_drawn = bool(self_drawn)
        key = (seat.version, self._ctx_version, self_drawn)
        cache = seat.memo.best_win
        if key in cache:
            return cache[key]
        conc = list(seat.hand)
        env = self._score_env()
        work = None
        best = None
        for k in self.waits(seat):
            if not self._could_win(conc, seat.melds, k, self_drawn):
                continue
            sc = Scoring(self.rules, self.cat, self.dec, env, self.hand_of(seat, conc, k, self_drawn))
            if work is None:
                work = sc.work
            sc.work = work
            res = sc.run()
            if res.win and (best is None or (res.evaluation.best, res.score) > (best.result.evaluation.best,
                                                                                best.result.score)):
                best = WinInfo(seat.index, k, self_drawn, conc, res, sc)
        if len(cache) > 8:
            cache.clear()
        cache[key] = best
        return best

    def best_score(self, seat: Seat | None, self_drawn: bool):
        """`best_score(S, B)`: the score of the seat's best win on a wait (0 when it has none)."""
        info = self.best_win(seat, self_drawn)
        return info.result.score if info is not None else 0

    def best_fans(self, seat: Seat | None, self_drawn: bool) -> list[str]:
        """`best_fans(S, B)`: the patterns the best win scores (their declared names), in the result's order."""
        info = self.best_win(seat, self_drawn)
        return list(dict.fromkeys(f.pattern for f in info.result.fans)) if info is not None else []

    def best_tile(self, seat: Seat | None, self_drawn: bool) -> TileInfo | None:
        """`best_tile(S, B)`: the wait the best win is made on (none when there is none)."""
        info = self.best_win(seat, self_drawn)
        return self.tv(info.tile) if info is not None else None

    def _wait_hands(self, seat: Seat) -> list[tuple[list[TileInfo], list[TileInfo]]]:
        """The concealed hands a `best_wait` win may wait with, each with its waits: the hand as it
        stands, or — for the dealer still holding its extra dealt tile — the hand without each distinct
        tile it could give up (the tile is not really discarded)."""
        st = self.st
        if not (seat.index == st.dealer and self.rs.table.dealer_extra and st.last_dealt in seat.hand):
            return [(list(seat.hand), self.waits(seat))]
        out = []
        for name in dict.fromkeys(t.name for t in seat.hand):
            conc = list(seat.hand)
            conc.remove(next(t for t in conc if t.name == name))
            out.append((conc, self._waits_of(seat, conc)))
        return out

    def winner_binding(self, w: int) -> dict:
        info = self.infos.get(w)
        st = self.st
        b = {"winner": st.seats[w]}
        if info is not None:
            b.update(score=info.result.score, self_drawn=info.self_drawn, discarder=self.seat_of(info.discarder),
                     robbed=self.seat_of(info.robbed), task_factor=self._task_factor(info),
                     reading=info.reading_env(self))
        return b

    def _task_factor(self, info: WinInfo):
        st = self.st
        for t, factor, when in self.prog.tasks:
            if t.name != st.task:
                continue
            env = info.reading_env(self)
            try:
                if env is not None and when(env):
                    return factor(self.setup_env)
            except EVAL_ERRORS as exc:
                self.note_error(f"task {t.name}: {exc}")
        return 1
