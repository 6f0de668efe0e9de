"""The signature search of a hand holding wildcards: the observation sites a form's readings are told apart
by (`runtime/observe.py`), kept on the rule set, and the hand's splits one per signature
(`runtime/signatures.py`), with the shared groups of their readings (docs/architecture.md, "Hands with
wildcards"). A part of `HandReadings` (runtime/hand_readings.py), which reads the splits."""
from __future__ import annotations

from .decompose import SplitLimit
from .hand import HandError
from .ir import nodes as ir
from .limits import LIMIT_SENTENCE
from .observe import Observer, Unobservable, varying_refs
from .reading import Group, RTile
from .signatures import memo_held, signature_splits
from .tiles import TileInfo

# Observers a rule set keeps (one per form, purpose and context seen, each with its own tables).
OBSERVERS_KEPT = 256
# What the kept observers' memos may hold together (`memo_held`: states, witnesses, joins) before the least
# recently used are started afresh. A bound on the observers and one on each memo's states did not bound
# the bytes (a state's table can hold 100,000 entries; 256 memos of 50,000 states grew a long native run
# by hundreds of MB); this one does, every table of a memo growing with what it counts. Some 130-180
# bytes a unit natively (30-45 MB at the bound, several times that in the reference): about what 2,000
# hands of the bundled paper-card variant with random bots leave (its efficiency bots' waits reach it in
# 100), 20,000 of a bundled gold-wildcard mahjong; 1,000,000 let the paper-card variant's RSS pass the
# old bounds' by 50 MB at 6,000 hands (BENCHMARKS.md). The native search keeps the same bound, counted
# alike (src/signatures/search.rs `MEMO_HELD`): the work a question is charged depends on the memos'
# hits, so both must start the same memos afresh at the same question.
MEMO_HELD = 250_000


class KeptObservers(dict):
    """A rule set's observers (`Rules.observers`), least recently used first, with what their memos hold
    together (`held`, kept up to date by `HandSignatures.signature_found`, which alone grows them) and
    its bound `limit` (`MEMO_HELD`; a test may lower it); `cleared` counts the memos started afresh to
    stay within it."""

    def __init__(self, limit: int = MEMO_HELD):
        super().__init__()
        self.limit = limit
        self.held = 0
        self.cleared = 0

    def recent(self, key):
        """The observer kept under `key`, marked as the most recently used (moved to the end)."""
        obs = self.pop(key, None)
        if obs is not None:
            self[key] = obs
        return obs

    def keep(self, key, obs) -> None:
        """Keep a new observer, the least recently used one dropped past `OBSERVERS_KEPT` (a context's
        values change from hand to hand, while the observers most hands ask stay)."""
        while len(self) >= OBSERVERS_KEPT:
            old = self.pop(next(iter(self)))
            self.held -= memo_held(old.memo)
        self[key] = obs

    def make_room(self) -> None:
        """Past the bound, start memos afresh, the least recently used first, until it holds again (as
        src/signatures/search.rs `Kept::make_room`: same order, same counts)."""
        if self.held <= self.limit:
            return
        for obs in list(self.values()):
            if self.held <= self.limit:
                break
            h = memo_held(obs.memo)
            if h:
                obs.memo.clear()
                self.held -= h
                self.cleared += 1


def _hashable(v):
    """A context value as part of a cache key."""
    if isinstance(v, list | tuple):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _hashable(x)) for k, x in v.items()))
    return v


class HandSignatures:
    """The signature search, a base class of `HandReadings`: it reads the hand's rules, catalog, decomposer,
    context (`base_env`), purpose and `group_value` from there."""

    def signature_found(self, form, m, p, counts, naturals, wilds, hand, budget) -> list | None:
        """The splits of `HandReadings._signature_readings`, one per signature: (signature, groups, index of the group
        holding the winning tile); None where full enumeration decides. The native readings
        (runtime/nativehand.py) ask for them too, so the observers and their memos are the reference's."""
        phys = {t.physical.name for t in wilds}
        if len(phys) != 1:
            return None
        win = next((t for t in naturals + wilds if t.is_win), None)
        obs = self._observer(form, win, wilds[0].physical)
        if obs is None:
            return None
        kinds = self.cat.kinds
        wild_phys = wilds[0].physical
        self_drawn = hand.self_drawn
        rs = self.rs

        def part(spec, slots, wp):
            key = (spec.kind, slots, wp)
            got = obs.known_contribution(key)
            if got is not None:
                return got
            tiles = [RTile(kinds[idx], wild_phys if wild else kinds[idx], wild) for idx, wild in slots]
            mk = rs.meld(spec.kind)
            g = Group(spec.kind, tiles, exposed=False, concealed=True, is_pair=spec.is_pair, is_kong=mk.kong,
                      value=self.group_value(mk, tiles))
            if wp >= 0:
                tiles[wp].is_win = True
                g.has_win = True
                if not self_drawn and not g.is_pair:
                    g.concealed = False
            return obs.contribution(g, wp >= 0, key)

        wkey = None if win is None else (("wild",) if win.wild else ("nat", win.kind.index))
        kept = self.rules.observers
        kept.make_room()  # kept across hands, bounded together
        memo = obs.memo
        before = memo_held(memo)
        try:
            return signature_splits(self.dec, counts, len(wilds), m, p, wkey, part, obs.join, obs.unit, memo,
                                    budget)
        except Unobservable:
            return None
        except SplitLimit:
            raise HandError(LIMIT_SENTENCE) from None
        finally:
            kept.held += memo_held(memo) - before

    def signature_group(self, kind: str, is_pair: bool, slots: tuple, wp: int, wild_phys: TileInfo,
                        self_drawn: bool) -> Group:
        """A group of a signature reading: shared, like the natural ones (`cached_group`), keyed by its
        slots, winning slot, concealment and the wildcards' physical tile."""
        conc = wp < 0 or self_drawn or is_pair
        cache = self.dec.pieces.wild_groups
        ck = (kind, slots, wp, conc, wild_phys.name)
        g = cache.get(ck)
        if g is None:
            if len(cache) > 100_000:
                cache.clear()
            kinds = self.cat.kinds
            tiles = [RTile(kinds[idx], wild_phys if wild else kinds[idx], wild, j == wp)
                     for j, (idx, wild) in enumerate(slots)]
            mk = self.rs.meld(kind)
            g = Group(kind, tiles, exposed=False, concealed=conc, is_pair=is_pair,
                      is_kong=mk.kong, value=self.group_value(mk, tiles), has_win=wp >= 0)
            g.f = g.all_fields()  # a plain dict: this group never changes
            cache[ck] = g
        return g

    def _observer(self, form: ir.WinForm, win: RTile | None, wild_phys: TileInfo):
        """The observation sites of a form under this hand's shared values (`runtime/observe.py`),
        kept on the rule set by those values."""
        const = self.base_env()
        const["builtin:form"] = form.name
        win_wild = win is not None and win.wild
        if win is not None and not win.wild:
            const["builtin:win_tile"] = win
        shared = tuple(sorted((k, _hashable(v)) for k, v in const.items()
                              if k not in ("tile-lookup", "builtin:win_tile")))
        key = (self.purpose, form.name, win_wild, None if win is None or win_wild else win.sig, wild_phys.name,
               shared)
        cache = self.rules.observers
        key0 = (self.purpose, form.name, win_wild, wild_phys.name, shared)  # observers that never read a natural win
        obs = cache.recent(key0)
        if obs is not None:
            return obs
        obs = cache.recent(key)
        if obs is None:
            rs = self.rs
            if self.purpose == "waits":
                roots = [x for q, _, _ in self.rules.wait_requires if not q.forms or form.name in q.forms
                         for x in (q.expr, q.unless)]
            else:
                roots = [x for pt in rs.patterns for x in (pt.when, pt.count, pt.enabled, pt.value)]
                roots += [q.expr for q in rs.quantities]
                roots += [x for q in rs.requires if not q.forms or form.name in q.forms for x in (q.expr, q.unless)]
                if rs.score is not None:
                    roots += [rs.score.expr, rs.score.best, rs.score.total]
            roots.append(form.pair_when)
            obs = Observer([x for x in roots if x is not None], self.rules.derived(), const,
                           varying_refs(win_wild), exact=not rs.combines)
            obs.memo = {}
            cache.keep(key0 if not obs.uses_win else key, obs)  # one per context seen
        return obs


__all__ = ["LIMIT_SENTENCE", "MEMO_HELD", "OBSERVERS_KEPT", "HandSignatures", "KeptObservers"]
