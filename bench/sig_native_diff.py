"""The native signature search (runtime/native_search.py, src/signatures/search.rs) against the reference's
(`NativeHands.signature_search_for`): seeded hands holding 2–4 wildcards of one kind, random contexts,
self-drawn or not, for scoring or for the waits, asked of both in the same order (so their observers'
memos live alike); the answers (splits, full enumeration, refusal) and the work left compared.

    python bench/sig_native_diff.py --hands 2000 --seed 1 --variants chehuzi,joker
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from paili import load  # noqa: E402
from paili.runtime.limits import HAND_WORK  # noqa: E402

VARIANTS = {"chehuzi": "rules/chehuzi.pai", "joker": "bench/rules/joker.pai"}


def setup(path: str):
    rules = load(ROOT / path, backend="native")
    settings = rules.settings_env({})
    cat, dec = rules.catalog_for(settings)
    nh = rules.native_hands_for(cat, dec)
    search = nh.signature_search_for(rules, cat, dec, settings)
    return rules, cat, dec, search


def questions(rules, cat, n: int, seed: int):
    """Seeded questions: (env_json, self_drawn, for_waits, form, melds, pairs, naturals, wilds)."""
    rng = random.Random(seed)
    wild = next(k.index for k in cat.kinds if k.category == "joker")
    plain = [k.index for k in cat.kinds if k.category != "joker" for _ in range(k.copies)]
    hand = rules.ir.table.hand
    forms = [(i, f) for i, f in enumerate(rules.ir.forms)]
    ctx = [s.name for s in rules.ir.settings if s.role == "context"]
    reveals = [r.name for r in rules.ir.reveals]
    kinds = [k for k in cat.kinds if k.category != "joker"]
    by = {(k.suit, k.rank): k.index for k in kinds}

    def group() -> list[int]:
        k = rng.choice(kinds)
        run = [by.get((k.suit, k.rank + d)) for d in range(3)]
        if k.suit and None not in run and rng.random() < 0.5:
            return run
        return [k.index] * 3

    for _ in range(n):
        w = rng.randint(2, 4)
        if rng.random() < 0.7:  # a hand made of groups (most of them read), its wildcards in some places
            tiles = [t for _ in range((hand + 1) // 3) for t in group()]
            if (hand + 1) % 3 == 2:
                tiles += [rng.choice(kinds).index] * 2
            rng.shuffle(tiles)
            tiles = tiles[w:]
            if any(tiles.count(k) > cat.kinds[k].copies for k in set(tiles)):
                tiles = rng.sample(plain, hand + 1 - w)  # more of a kind than a game deals
        else:
            tiles = rng.sample(plain, hand + 1 - w)
        win_wild = rng.random() < 0.3
        naturals = [(k, k, False) for k in tiles]
        wilds = [(wild, False) for _ in range(w)]
        if win_wild:
            wilds[-1] = (wild, True)
        else:
            k = naturals[-1][0]
            naturals[-1] = (k, k, True)
        env = [[f"context:{c}", rng.random() < 0.2] for c in ctx]
        env += [[f"reveal:{r}", rng.choice([None, {"t": rng.randrange(len(cat.kinds))}])] for r in reveals]
        fi, f = rng.choice(forms)
        lo, hi = f.pairs if isinstance(f.pairs, tuple) else (f.pairs or 0, f.pairs or 0)
        pairs = rng.randint(lo, hi)
        groups = f.groups if f.groups is not None else (f.melds or 0) + pairs
        for_waits = rng.random() < 0.3
        self_drawn = rng.random() < 0.6
        yield json.dumps(env, ensure_ascii=False), self_drawn, for_waits, fi, groups - pairs, pairs, naturals, wilds


def compare(name: str, hands: int, seed: int) -> dict:
    rules, cat, dec, search = setup(VARIANTS[name])
    ref = search.fallback
    tables = dec.structure.tables
    diff = found = 0
    kinds = {}
    t_nat = t_ref = 0.0
    for q in questions(rules, cat, hands, seed):
        t0 = time.process_time()
        a = search(tables, *q, HAND_WORK)
        t1 = time.process_time()
        b = ref(*q, HAND_WORK)
        t2 = time.process_time()
        t_nat += t1 - t0
        t_ref += t2 - t1
        kinds[b[0]] = kinds.get(b[0], 0) + 1
        found += b[0] == 0 and bool(b[1])
        if json.dumps(a, ensure_ascii=False) != json.dumps(b, ensure_ascii=False):
            diff += 1
            if diff <= 3:
                print("different:", q, a, b, file=sys.stderr)
    answered, declined, why = search.stats()
    return {"variant": name, "hands": hands, "different": diff, "answers": kinds, "with_splits": found,
            "native_answered": answered, "declined": declined, "why": why, "cpu_native": round(t_nat, 3),
            "cpu_reference": round(t_ref, 3)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variants", default="chehuzi,joker")
    args = ap.parse_args(argv)
    bad = 0
    for name in args.variants.split(","):
        r = compare(name, args.hands, args.seed)
        bad += r["different"] > 0 or r["declined"] > 0
        print(json.dumps(r, ensure_ascii=False), flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
