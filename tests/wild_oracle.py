"""A test oracle for hands holding wildcards: the full enumeration of readings, and random hands.

`FullScoring` is the runtime's scoring with the signature decomposition switched off: every split
of the hand (`Decomposer.splits`) is read and scored, as paili did before signatures. The
differential tests (tests/test_wild_decompose.py) and `bench/wild_crosscheck.py` compare it with
`Scoring` on seeded random hands.
"""
from __future__ import annotations

import random

from paili.runtime.hand import Hand, HandError
from paili.runtime.hand_score import Scoring
from paili.runtime.rules import Rules


class FullScoring(Scoring):
    """Scoring by reading every split (the reference the signatures must agree with)."""

    def _signature_readings(self, *args, **kwargs):
        return None


def outcome(rules: Rules, hand: Hand, context: dict | None, full: bool) -> dict:
    """What a score says, as comparable data (or the error sentence)."""
    cat, dec, env = rules.env_for(context)
    cls = FullScoring if full else Scoring
    try:
        res = cls(rules, cat, dec, env, hand).run()
    except HandError as exc:
        return {"error": str(exc)}
    ev = res.evaluation
    out = {"win": res.win, "reason": res.reason}
    if ev is not None:
        out.update(score=ev.score, best=ev.best, total=ev.total, reading=ev.reading.describe(),
                   form=ev.reading.form, fans=[(f.pattern, f.count, f.value) for f in ev.fans],
                   quantities=dict(ev.quantities))
    return out


def random_hand(rules: Rules, rnd: random.Random, wilds: int, wild_name: str, context: dict | None = None,
                self_drawn: bool | None = None, near: bool = True, wild_wins: bool = False) -> Hand | None:
    """A random concealed hand of the first melds-and-pairs form's size, built from groups the rule
    set's hand shapes can form (so it often wins), with `wilds` of its tiles replaced by the tile
    `wild_name`; the winning tile is one of its tiles. With `near` false, the tiles are drawn at random
    instead. With `wild_wins`, the winning tile is one of the wildcards (a wildcard that is wild only as
    the winning tile). None when the copies do not allow it."""
    cat, dec, _ = rules.env_for(context)
    form = next(f for f, inst, _ in rules.forms if inst is None and not f.orphans)
    targets = [t for t in Scoring(rules, cat, dec, {}, Hand([])) .form_targets(form, 0)]
    m, p = rnd.choice(targets)
    left = {k.name: k.copies for k in cat.kinds}
    left[wild_name] = left.get(wild_name, 0) - wilds
    if left[wild_name] < 0:
        return None
    by_name = cat.by_name
    tiles: list = []
    if near:
        for want, specs in ((m, dec.meld_specs), (p, dec.pair_specs)):
            for _ in range(want):
                for _attempt in range(30):
                    spec = rnd.choice(specs)
                    options = list(dec._wild_targets_all(spec))
                    if not options:
                        continue
                    group = [cat.kinds[idx] for idx, _ in rnd.choice(options)]
                    if all(left[t.name] >= sum(1 for x in group if x.name == t.name) for t in group):
                        for t in group:
                            left[t.name] -= 1
                        tiles += group
                        break
                else:
                    return None
    else:
        size = rules.ir.table.hand + 1
        pool = [k for k in cat.kinds if k.category in ("suited", "honor") for _ in range(left[k.name])]
        tiles = rnd.sample(pool, size)
    if len(tiles) < wilds + 1:
        return None
    idx = rnd.sample(range(len(tiles)), wilds)
    for i in idx:
        tiles[i] = by_name[wild_name]
    rnd.shuffle(tiles)
    if wild_wins and wilds:
        tiles.remove(by_name[wild_name])
        tiles.append(by_name[wild_name])
    win = tiles.pop()
    return Hand(tiles, [], win, rnd.random() < 0.8 if self_drawn is None else self_drawn)


def full_waits(rules: Rules, hand: Hand, context: dict | None) -> list[tuple[str, object]]:
    """Every kind whose addition wins by full enumeration, with its score (the waits' definition)."""
    from collections import Counter

    cat, dec, env = rules.env_for(context)
    held = Counter(t.name for t in hand.all_tiles())
    out = []
    for k in cat.kinds:
        if k.category == "flower" or held[k.name] >= k.copies:
            continue
        h2 = Hand(hand.concealed, hand.melds, k, hand.self_drawn, hand.flowers)
        try:
            res = FullScoring(rules, cat, dec, env, h2).run()
        except HandError:
            continue
        if res.win:
            out.append((k.name, res.score))
    return out
