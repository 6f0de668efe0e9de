"""Timing of the hardest hands with wildcards: `waits` and `score` with three and four 王 (扯胡子), and
seeded hands of bench/rules/joker.pai with four and with eight jokers; and (`--score`) the scoring of
many seeded hands holding one, two or four jokers (bench/rules/joker.pai, winning and near-winning,
self-drawn or not), the CPU time of the whole run of each.

    python bench/wild_speed.py [--json] [--score N]

Each figure is one hand's CPU time (seconds, `time.process_time`) and the process's peak memory; "cold"
is the first hand of a freshly loaded rule set (its tables still empty), "warm" a different hand after
it. Results are recorded in BENCHMARKS.md.
"""
from __future__ import annotations

import argparse
import json
import random
import resource
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from paili import Rules, load  # noqa: E402
from paili.dsl.compiler import compile_text  # noqa: E402
from paili.runtime.hand import Hand  # noqa: E402

CHEHUZI = [
    ("waits, four 王 (cold)", "waits", "贰贰六六六七八九七七柒十拾拾二二王王王王", None),
    ("waits, four 王 (warm)", "waits", "贰贰六六六七八九七七柒十拾拾二三王王王王", None),
    ("waits, three 王", "waits", "贰贰贰六六六七八九七七柒十拾拾二二王王王", None),
    ("score, four 王 (王炸王)", "score", "贰贰贰六六六七八九七七柒十拾拾二二王王王", "王"),
]


def timed(fn, *args):
    t = time.process_time()
    out = fn(*args)
    return time.process_time() - t, out


def joker_rules(copies: int) -> Rules:
    text = (ROOT / "bench" / "rules" / "joker.pai").read_text(encoding="utf-8")
    text = text.replace("joker 王 { copies 4 }", f"joker 王 {{ copies {copies} }}")
    res = compile_text(text, f"joker{copies}.pai")
    assert res.ok, res.render()
    return Rules(res.ruleset)


def joker_hands(rules: Rules, jokers: int, n: int, seed: int) -> list[Hand]:
    """13-tile hands: a random winning shape less one tile, `jokers` of its tiles made jokers."""
    rnd = random.Random(seed)
    cat = rules.catalog
    kinds = [k for k in cat.kinds if k.category == "suited"]
    out = []
    while len(out) < n:
        tiles = []
        for _ in range(4):
            k = rnd.choice(kinds)
            if rnd.random() < 0.5 and k.rank <= 7:
                idx = {x.rank: x for x in kinds if x.suit == k.suit}
                tiles += [k, idx[k.rank + 1], idx[k.rank + 2]]
            else:
                tiles += [k, k, k]
        p = rnd.choice(kinds)
        tiles += [p, p]
        if any(tiles.count(t) > 4 for t in tiles):
            continue
        rnd.shuffle(tiles)
        tiles.pop()
        for i in range(jokers):
            tiles[i] = cat.by_name["王"]
        out.append(Hand(tiles, [], None, True))
    return out


def scored_hands(rules: Rules, jokers: int, n: int, seed: int) -> list[Hand]:
    """14-tile hands: a random winning shape, or one with a tile swapped (a third of them), `jokers` of its
    concealed tiles made jokers (the winning tile stays natural), self-drawn half of the time."""
    rnd = random.Random(seed)
    kinds = [k for k in rules.catalog.kinds if k.category == "suited"]
    out = []
    for h in joker_hands(rules, 0, n, seed):
        tiles = list(h.concealed) + [rnd.choice(kinds)]
        if rnd.random() < 1 / 3:
            tiles[rnd.randrange(13)] = rnd.choice(kinds)
        if any(tiles.count(t) > 4 for t in tiles):
            continue
        win = tiles.pop()
        for i in range(jokers):
            tiles[i] = rules.catalog.by_name["王"]
        out.append(Hand(tiles, [], win, rnd.random() < 0.5))
    return out


def score_run(n: int) -> dict:
    """CPU time of `Rules.score` over n seeded hands for one, two and four jokers (after one warm-up
    pass over the first 50), and how the native side took them."""
    out = {}
    rules = load(ROOT / "bench" / "rules" / "joker.pai")
    for jokers in (1, 2, 4):
        hands = scored_hands(rules, jokers, n, seed=jokers)
        for h in hands[:50]:
            rules.score(h)
        t = time.process_time()
        wins = sum(rules.score(h).win for h in hands)
        out[f"jokers_{jokers}"] = {"hands": len(hands), "wins": wins, "cpu_s": round(time.process_time() - t, 3)}
    st = rules.stats()
    out["joker_native_wild_hands"] = st.get("native_wild_hands")
    out["joker_native_wild_fallbacks"] = st.get("native_wild_fallbacks")
    # the bundled rule files with wildcards or stand-ins: bench/native_diff.py's seeded hands (winning,
    # near-winning, wildcards and stand-ins in place of tiles, melds, context values), every one timed
    import native_diff
    for name in ("longyan.pai", "chehuzi.pai", "baicheng.pai"):
        rules = load(ROOT / "rules" / name)
        rnd = random.Random(f"wild_speed:{name}")
        cases = [c for c in (native_diff.hands_case(rules, rnd) for _ in range(n)) if c is not None]

        def score_all(cases=cases, rules=rules):
            wins = 0
            for hand, melds, win, context, self_drawn in cases:
                try:
                    wins += rules.score(hand, melds, win, self_drawn, context).win
                except ValueError:  # a hand the rule set refuses (the same on both backends)
                    pass
            return wins
        score_all(cases[:50])
        t = time.process_time()
        wins = score_all()
        st = rules.stats()
        out[name] = {"hands": len(cases), "wins": wins, "cpu_s": round(time.process_time() - t, 3),
                     "native_wild_hands": st.get("native_wild_hands"),
                     "native_wild_fallbacks": st.get("native_wild_fallbacks")}
    return out


def run() -> dict:
    out: dict = {"chehuzi": [], "joker": []}
    t0 = time.process_time()
    che = load(ROOT / "rules" / "chehuzi.pai")
    out["chehuzi_load_s"] = time.process_time() - t0
    for label, what, hand, win in CHEHUZI:
        if what == "waits":
            s, got = timed(che.waits, hand, None, True)
            out["chehuzi"].append({"hand": label, "cpu_s": round(s, 3), "waits": len(got)})
        else:
            s, got = timed(che.score, hand, None, win, True)
            out["chehuzi"].append({"hand": label, "cpu_s": round(s, 3), "score": got.score})
    for copies, jokers in ((4, 4), (8, 8)):
        rules = joker_rules(copies)
        hands = joker_hands(rules, jokers, 10, seed=copies)
        times = []
        for h in hands:
            s, got = timed(rules.waits, h)
            times.append(s)
        out["joker"].append({"jokers": jokers, "hands": len(hands), "first_cpu_s": round(times[0], 3),
                             "max_cpu_s": round(max(times), 3), "mean_cpu_s": round(sum(times) / len(times), 3)})
    out["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--score", type=int, default=0, help="time only the scoring of N seeded hands per joker count")
    args = ap.parse_args(argv)
    if args.score:
        got = score_run(args.score)
        print(json.dumps(got, ensure_ascii=False) if args.json else "\n".join(f"{k}: {v}" for k, v in got.items()))
        return 0
    out = run()
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print(f"扯胡子 load {out['chehuzi_load_s']:.2f} s")
    for row in out["chehuzi"]:
        extra = f"{row['waits']} waits" if "waits" in row else f"score {row['score']}"
        print(f"  {row['hand']:<24} {row['cpu_s']:>7.3f} s   {extra}")
    for row in out["joker"]:
        print(f"joker.pai, {row['jokers']} jokers: waits of {row['hands']} hands: first {row['first_cpu_s']:.3f} s, "
              f"mean {row['mean_cpu_s']:.3f} s, max {row['max_cpu_s']:.3f} s")
    print(f"peak memory {out['peak_rss_mb']} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
