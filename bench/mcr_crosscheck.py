"""Cross-check of rules/guobiao.pai against an independent MCR implementation (PyMahjongGB).

    python bench/mcr_crosscheck.py [--hands 100000] [--seed 1] [--json] [--limit 50] [--speed]

Random winning hands — concealed and with exposed melds (chows, pungs, exposed and concealed kongs),
self-drawn or not, every situation flag (和绝张, 海底, 杠上 / 抢杠), random seat and prevalent wind and
0–8 flowers — are scored by paili (`rules/guobiao.pai`, with the room option 起和番 = 0 so that hands
below the 8-fan minimum are compared too) and by `MahjongGB.MahjongFanCalculator`. Two things are
compared: the total fan (flowers included), and the multiset of fans. PyMahjongGB's names are mapped to
the rule file's (NAME_MAP below); every other name is the same in both.

Hands below 8 fans (flowers not counted) are also scored with the default 8-fan minimum, and must be
refused with a reason (`minimum_errors`).

The script prints the agreement rate and every disagreement (hand, flags, both results). Each remaining
disagreement is explained in docs/guobiao-differences.md; `classify()` names the documented difference a
disagreement belongs to (tests/test_guobiao.py requires every disagreement of its sample to be one).

How hands are drawn (`random_hand`): 78% four groups and a pair, from a random palette of suits (one,
two or three), with or without honors, and (15% of these) a narrow palette of ranks, with a random share
of chows, pungs and kongs, each group exposed with a random probability; 1% the same with four kongs;
7% seven pairs; 4% 组合龙 with a group and a pair; 4% 全不靠 / 七星不靠; 3% 十三幺; 2% 九莲宝灯; 1% 一色
/ 三色双龙会. The winning tile is one of the concealed tiles; flags, winds and flowers are drawn
independently.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from paili import load  # noqa: E402

SUITS = {"m": "W", "s": "T", "p": "B"}
HONORS = ["东", "南", "西", "北", "中", "发", "白"]
GB_HONOR = {"东": "F1", "南": "F2", "西": "F3", "北": "F4", "中": "J1", "发": "J2", "白": "J3"}
WINDS = ["东", "南", "西", "北"]
FLOWERS = ["春", "夏", "秋", "冬", "梅", "兰", "竹", "菊"]
ORPHANS = ["1m", "9m", "1s", "9s", "1p", "9p"] + HONORS
# Rank palettes that make the rank-range fans likely (全大, 全中, 全小, 大于五, 小于五, 全双刻, 全带五, 清幺九).
RANK_SETS = [[7, 8, 9], [4, 5, 6], [1, 2, 3], [6, 7, 8, 9], [1, 2, 3, 4], [2, 4, 6, 8], [3, 4, 5, 6, 7], [1, 9]]

# PyMahjongGB's fan names -> the rule file's pattern names (the others are spelled the same).
NAME_MAP = {"独听・边张": "边张", "独听・嵌张": "坎张", "独听・单钓": "单钓将"}

# Fan values, to turn PyMahjongGB's (value × count, name) into counts.
VALUES = {
    88: "大四喜 大三元 绿一色 九莲宝灯 四杠 连七对 十三幺",
    64: "清幺九 小四喜 小三元 字一色 四暗刻 一色双龙会",
    48: "一色四同顺 一色四节高",
    32: "一色四步高 三杠 混幺九",
    24: "七对 七星不靠 全双刻 清一色 一色三同顺 一色三节高 全大 全中 全小",
    16: "清龙 三色双龙会 一色三步高 全带五 三同刻 三暗刻",
    12: "全不靠 组合龙 大于五 小于五 三风刻",
    8: "花龙 推不倒 三色三同顺 三色三节高 无番和 妙手回春 海底捞月 杠上开花 抢杠和",
    6: "碰碰和 混一色 三色三步高 五门齐 全求人 双暗杠 双箭刻",
    5: "明暗杠",
    4: "全带幺 不求人 双明杠 和绝张",
    2: "箭刻 圈风刻 门风刻 门前清 平和 四归一 双同刻 双暗刻 暗杠 断幺",
    1: "一般高 喜相逢 连六 老少副 幺九刻 明杠 缺一门 无字 边张 坎张 单钓将 自摸 花牌",
}
VALUE_OF = {name: v for v, names in VALUES.items() for name in names.split()}


# ---------------------------------------------------------------------------------------- hands

def gb(t: str) -> str:
    return GB_HONOR[t] if t in GB_HONOR else SUITS[t[1]] + t[0]


class Drawer:
    """Draws tiles without exceeding four copies of any kind."""

    def __init__(self, rnd: random.Random):
        self.rnd = rnd
        self.left = Counter({f"{r}{s}": 4 for s in "msp" for r in range(1, 10)} | {h: 4 for h in HONORS})

    def take(self, tiles: list[str]) -> bool:
        need = Counter(tiles)
        if any(self.left[t] < n for t, n in need.items()):
            return False
        self.left -= need
        return True


def random_hand(rnd: random.Random) -> dict | None:
    """One random winning hand, or None when the draw failed (the caller draws again)."""
    d = Drawer(rnd)
    shape = rnd.choices(["standard", "kongs", "pairs", "knitted", "honors_knitted", "orphans", "gates", "dragons"],
                        [78, 1, 7, 4, 4, 3, 2, 1])[0]
    packs: list[tuple[str, list[str]]] = []  # (kind, tiles) of exposed melds and concealed kongs
    concealed: list[str] = []
    suits = rnd.choice([["m"], ["s"], ["p"], ["m", "s"], ["m", "p"], ["s", "p"], ["m", "s", "p"],
                        ["m", "s", "p"], ["m", "s", "p"]])
    honors = HONORS if rnd.random() < 0.7 else []
    ranks = list(range(1, 10)) if rnd.random() < 0.85 else rnd.choice(RANK_SETS)
    pool = [f"{r}{s}" for s in suits for r in ranks] + honors
    starts = [r for r in ranks if r + 2 in ranks and r + 1 in ranks]

    def group(kind: str) -> list[str] | None:
        for _ in range(30):
            if kind == "chow" and starts:
                s = rnd.choice(suits)
                r = rnd.choice(starts)
                g = [f"{r}{s}", f"{r + 1}{s}", f"{r + 2}{s}"]
            else:
                t = rnd.choice(pool)
                g = [t] * {"kong": 4, "pair": 2}.get(kind, 3)
            if d.take(g):
                return g
        return None

    if shape in ("standard", "kongs"):
        p_chow, p_expose = rnd.random(), rnd.choice([0.0, 0.0, 0.2, 0.4, 0.7])
        p_kong = 0.12 if shape == "standard" else 1.0
        for _ in range(4):
            kind = "chow" if shape == "standard" and starts and rnd.random() < p_chow else (
                "kong" if rnd.random() < p_kong else "pung")
            g = group(kind)
            if g is None:
                return None
            if kind == "kong":
                packs.append(("明杠" if rnd.random() < 0.55 else "暗杠", g))
            elif rnd.random() < p_expose:
                packs.append(("吃" if kind == "chow" else "碰", g))
            else:
                concealed += g
        pair = group("pair")
        if pair is None:
            return None
        concealed += pair
    elif shape == "pairs":
        for _ in range(7):
            for _ in range(30):
                t = rnd.choice(pool)
                if d.take([t, t]):
                    concealed += [t, t]
                    break
            else:
                return None
    elif shape == "dragons":  # 一色双龙会 / 三色双龙会: two 123 and two 789, a pair of 5
        a, b, c = rnd.sample("msp", 3)
        chows = [a, a, a, a] if rnd.random() < 0.5 else [b, b, c, c]
        for i, s in enumerate(chows):
            g = [f"{r}{s}" for r in ((1, 2, 3) if i % 2 == 0 else (7, 8, 9))]
            d.take(g)
            if rnd.random() < 0.3:
                packs.append(("吃", g))
            else:
                concealed += g
        concealed += [f"5{a}", f"5{a}"]
    elif shape == "orphans":
        concealed = ORPHANS + [rnd.choice(ORPHANS)]
    elif shape == "gates":
        s = rnd.choice("msp")
        concealed = [f"{r}{s}" for r in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9)] + [f"{rnd.randint(1, 9)}{s}"]
    else:
        order = rnd.sample("msp", 3)
        knitted = [f"{r}{s}" for s, start in zip(order, (1, 2, 3)) for r in (start, start + 3, start + 6)]
        if shape == "honors_knitted":
            concealed = rnd.sample(knitted + HONORS, 14)
        else:
            if not d.take(knitted):
                return None
            concealed = list(knitted)
            suits, pool = ["m", "s", "p"], [f"{r}{s}" for s in "msp" for r in range(1, 10)] + HONORS
            starts = list(range(1, 8))
            kind = rnd.choice(["chow", "pung", "pung", "kong"])
            g = group(kind)
            pair = group("pair")
            if g is None or pair is None:
                return None
            if kind == "kong":
                packs.append(("明杠" if rnd.random() < 0.5 else "暗杠", g))
            elif rnd.random() < 0.3:
                packs.append(("吃" if kind == "chow" else "碰", g))
            else:
                concealed += g
            concealed += pair
    win = rnd.choice(concealed)
    concealed.remove(win)
    self_drawn = rnd.random() < 0.4
    return {
        "concealed": concealed, "packs": packs, "win": win, "self_drawn": self_drawn,
        "fourth": rnd.random() < 0.1, "kong": rnd.random() < 0.1, "last": rnd.random() < 0.1,
        "seat": rnd.randrange(4), "round": rnd.randrange(4),
        "flowers": rnd.sample(FLOWERS, rnd.choice([0, 0, 0, 1, 2, 3, 8])),
    }


def describe(h: dict) -> str:
    melds = " ".join(f"{k}:{''.join(t)}" for k, t in h["packs"])
    flags = [n for n, on in (("自摸", h["self_drawn"]), ("绝张", h["fourth"]), ("杠", h["kong"]),
                             ("海底", h["last"])) if on]
    return (f"hand {''.join(h['concealed'])} {''.join(h['flowers'])} | melds {melds or '-'} | win {h['win']} | "
            f"门风{WINDS[h['seat']]} 圈风{WINDS[h['round']]} {' '.join(flags)}")


# ---------------------------------------------------------------------------------------- scoring

def gb_packs(h: dict):
    out = []
    for kind, tiles in h["packs"]:
        if kind == "吃":
            out.append(("CHI", gb(sorted(tiles, key=lambda t: t[0])[1]), 1))
        elif kind == "碰":
            out.append(("PENG", gb(tiles[0]), 1))
        else:
            out.append(("GANG", gb(tiles[0]), 0 if kind == "暗杠" else 1))
    return tuple(out)


def score_gb(h: dict) -> tuple[int, Counter]:
    from MahjongGB import MahjongFanCalculator

    res = MahjongFanCalculator(gb_packs(h), tuple(gb(t) for t in h["concealed"]), gb(h["win"]), len(h["flowers"]),
                               h["self_drawn"], h["fourth"], h["kong"], h["last"], h["seat"], h["round"])
    fans: Counter = Counter()
    total = 0
    for value, name in res:
        name = NAME_MAP.get(name, name)
        total += value
        fans[name] += value // VALUE_OF[name]
    return total, +fans


def paili_args(h: dict, minimum: bool = False):
    ctx = {"圈风": WINDS[h["round"]], "门风": WINDS[h["seat"]], "和绝张": h["fourth"], "海底": h["last"],
           "杠上": h["kong"] and h["self_drawn"], "抢杠": h["kong"] and not h["self_drawn"]}
    if not minimum:
        ctx["起和番"] = 0
    melds = [f"{k}:{''.join(t)}" for k, t in h["packs"]]
    return " ".join(h["concealed"] + h["flowers"]), melds, h["win"], h["self_drawn"], ctx


def score_paili(rules, h: dict, minimum: bool = False):
    res = rules.score(*paili_args(h, minimum))
    fans: Counter = Counter()
    for f in res.fans:
        fans[f.pattern] += f.count
    return res, res.total, +fans


# ---------------------------------------------------------------------------------------- differences

def classify(gb_total: int, gb_fans: Counter, total: int, fans: Counter) -> str | None:
    """The documented difference (an id of docs/guobiao-differences.md) a disagreement belongs to, or
    None when it is none of them (a new disagreement: a bug to fix or a difference to document)."""
    if total == gb_total and fans != gb_fans:
        return "tie"  # two readings of one total; PyMahjongGB and paili keep different ones
    return None


def fmt(fans: Counter) -> str:
    order = sorted(fans.items(), key=lambda x: (-VALUE_OF.get(x[0], 0), x[0]))
    return " ".join(f"{n}×{c}" if c > 1 else n for n, c in order)


def run(n: int, seed: int, rules=None, limit: int | None = None, out=sys.stdout, quiet: bool = False,
        versus=None) -> dict:
    """`versus`: a second loading of the rule set (say on the Python backend) that must give every hand
    (and its 8-fan-minimum scoring) the same `to_json()` as `rules` (`backend_differences`)."""
    rules = rules or load(ROOT / "rules" / "guobiao.pai")
    rnd = random.Random(seed)
    hands = []
    while len(hands) < n:
        h = random_hand(rnd)
        if h is None:
            continue
        try:
            gb_total, gb_fans = score_gb(h)
        except Exception:
            continue  # not a win for PyMahjongGB (cannot happen for these shapes; kept as a guard)
        hands.append((h, gb_total, gb_fans))
    agree = 0
    disagreements = []
    minimum_errors = []
    backend_differences = []
    seen: set[str] = set()
    t0 = time.perf_counter()
    for h, gb_total, gb_fans in hands:
        seen.update(gb_fans)
        res, total, fans = score_paili(rules, h)
        if res.win and total == gb_total and fans == gb_fans:
            agree += 1
        else:
            disagreements.append({"hand": describe(h), "pymahjonggb": {"total": gb_total, "fans": fmt(gb_fans)},
                                  "paili": {"total": total, "fans": fmt(fans), "win": res.win,
                                            "reading": res.evaluation.reading.describe() if res.evaluation else ""},
                                  "difference": classify(gb_total, gb_fans, total, fans)})
        if versus is not None and versus.score(*paili_args(h)).to_json() != res.to_json():
            backend_differences.append(describe(h))
        base = gb_total - len(h["flowers"])
        if base < 8:
            res8 = rules.score(*paili_args(h, minimum=True))
            if res8.win or not res8.reason:
                minimum_errors.append(describe(h))
            if versus is not None and versus.score(*paili_args(h, minimum=True)).to_json() != res8.to_json():
                backend_differences.append(f"{describe(h)} (8-fan minimum)")
    elapsed = time.perf_counter() - t0
    summary = {"hands": n, "seed": seed, "agree": agree, "rate": agree / n if n else 1.0,
               "disagreements": len(disagreements), "minimum_errors": len(minimum_errors),
               "undocumented": sum(1 for d in disagreements if d["difference"] is None),
               "paili_seconds": round(elapsed, 2), "fans_seen": len(seen),
               "fans_never_seen": sorted(set(VALUE_OF) - seen)}
    if versus is not None:
        summary["backend"] = rules.backend
        summary["versus_backend"] = versus.backend
        summary["backend_differences"] = len(backend_differences)
        st = rules.stats()
        summary["native_waits"] = st["native_waits"]
        summary["native_wait_fallbacks"] = st["native_wait_fallbacks"]
        summary["native_score_fallbacks"] = st["native_score_fallbacks"]
    if not quiet:
        for d in disagreements[:limit]:
            print(json.dumps(d, ensure_ascii=False), file=out)
        for m in minimum_errors[:limit]:
            print(f"minimum not applied: {m}", file=out)
        for m in backend_differences[:limit]:
            print(f"backends differ: {m}", file=out)
    return {"summary": summary, "disagreements": disagreements, "minimum_errors": minimum_errors,
            "backend_differences": backend_differences}


def speed(n: int, seed: int, rules=None) -> dict:
    """Hands per second for paili and PyMahjongGB on the same random hands (best of three passes)."""
    rules = rules or load(ROOT / "rules" / "guobiao.pai")
    rnd = random.Random(seed)
    hands = []
    while len(hands) < n:
        h = random_hand(rnd)
        if h is not None:
            hands.append(h)
    from MahjongGB import MahjongFanCalculator

    gb_args = [(gb_packs(h), tuple(gb(t) for t in h["concealed"]), gb(h["win"]), len(h["flowers"]), h["self_drawn"],
                h["fourth"], h["kong"], h["last"], h["seat"], h["round"]) for h in hands]
    p_args = [paili_args(h) for h in hands]

    def timed(fn):
        best = None
        for _ in range(3):
            t = time.perf_counter()
            fn()
            dt = time.perf_counter() - t
            best = dt if best is None or dt < best else best
        return n / best

    def run_gb():
        for a in gb_args:
            try:
                MahjongFanCalculator(*a)
            except Exception:
                pass

    t = time.perf_counter()
    for a in p_args:
        rules.score(*a)
    cold = n / (time.perf_counter() - t)
    paili = timed(lambda: [rules.score(*a) for a in p_args])
    return {"hands": n, "paili_per_s": round(paili), "paili_cold_per_s": round(cold),
            "pymahjonggb_per_s": round(timed(run_gb)), "ratio": round(paili / timed(run_gb), 4)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=int, default=None, help="print at most this many disagreements")
    ap.add_argument("--json", action="store_true", help="print the summary as JSON")
    ap.add_argument("--speed", action="store_true", help="measure scoring speed instead (paili and PyMahjongGB)")
    ap.add_argument("--versus-python", action="store_true",
                    help="score on the native backend and require the Python backend's identical JSON for every hand")
    args = ap.parse_args(argv)
    if args.speed:
        print(json.dumps(speed(args.hands, args.seed), ensure_ascii=False))
        return 0
    rules = versus = None
    if args.versus_python:
        rules = load(ROOT / "rules" / "guobiao.pai", backend="native")
        versus = load(ROOT / "rules" / "guobiao.pai", backend="python")
    out = run(args.hands, args.seed, rules=rules, limit=args.limit, versus=versus)
    s = out["summary"]
    if args.json:
        print(json.dumps(s, ensure_ascii=False))
    else:
        print(f"{s['agree']} of {s['hands']} hands agree ({100 * s['rate']:.3f}%); {s['disagreements']} "
              f"disagreement(s), {s['undocumented']} not documented; minimum not applied: {s['minimum_errors']}; "
              f"paili scoring {s['paili_seconds']} s; {s['fans_seen']} of {len(VALUE_OF)} fans occur"
              + (f" (never: {' '.join(s['fans_never_seen'])})" if s["fans_never_seen"] else ""))
        if versus is not None:
            print(f"{s['backend']} against {s['versus_backend']}: {s['backend_differences']} hand(s) whose JSON "
                  f"differs; native waits {s['native_waits']:,}, left to the reference {s['native_wait_fallbacks']:,}; "
                  f"hands left to the Python scorer {s['native_score_fallbacks']:,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
