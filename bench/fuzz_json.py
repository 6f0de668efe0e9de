"""Mutated compiled JSON rule sets: loading refuses what is not a valid rule set with one sentence, and no
text of a file ever runs as code (issue 12, point 1).

    python bench/fuzz_json.py [--cases 10000] [--start 0] [--seed 1] [--budget 60]

Compiled rule sets (a small one written for this, and every bundled variant) are mutated: a value
replaced (wrong JSON types, huge numbers, Python text that would create a sentinel file if it ever ran,
dunder names, format strings, template syntax), a field removed or added, a node's class changed, a
subtree moved elsewhere, a list item duplicated or dropped, or the file edited past one of the stated limits
(`limit`: nested too deep, too large, numbers too long, constant arithmetic that fails, too much work per
reading, too many copies or wildcards; counted as `limit:refused E7xx` by code). Each case is loaded with
`runtime.ir.serialize.loads`; a loaded rule set is built (`runtime.rules.Rules`) and scores a hand and lists
its waits (the small rule set) — what `paili score / waits` do with such a file. Outcomes:

- `refused`: FormatError, one line naming the JSON path;
- `ran`: loaded and scored (or refused the hand with a HandError / EvalError, one sentence);
- `traceback`: any other exception while loading or scoring (a failure);
- `hang`: a case over the time budget (CPU time of the process, `--budget` seconds; a failure);
- `executed`: the sentinel file exists after the case (a failure).

`fuzz(n, seed)` is what the suite's seeded sample calls (tests/test_untrusted_rules.py).
"""
from __future__ import annotations

import argparse
import copy
import json
import random
import re
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from paili.dsl.compiler import compile_file, compile_text  # noqa: E402
from paili.runtime.evaluate import EvalError  # noqa: E402
from paili.runtime.hand import HandError  # noqa: E402
from paili.runtime.ir.serialize import FormatError, dumps, loads  # noqa: E402
from paili.runtime.rules import Rules  # noqa: E402

SMALL = """\
variant demo "示例" { doc "说明" }
tiles {
  suit 万 { code "m"; ranks 1..9; copies 4 }
  honor 东 { code "1z"; attrs 风 }
  attr 幺九 = t.rank in [1, 9] or t.honor
}
table { players 2; hand 13 }
option 清一色 bool = false
context 加倍次数 int = 0 { range 0..8 }
meld 顺子 { shape run 3; hand true }
meld 刻子 { shape same 3; hand true }
meld 将 { shape same 2; pair true; hand true }
meld 碰 { shape same 3; exposed true }
win 标准 { melds 4; pairs 1 }
unit 番 sum
pattern 碰碰和 { value 6 番; when count(m in melds: m.triplet) == 4 and 1 <= len(tiles) <= 18 }
pattern 清一色 { value 24 番; when len(suits) == 1 and all(t in tiles: not t.honor) and option.清一色 }
pattern 加倍 { value = 2 * 加倍次数; unit 番; label "加倍{cn(加倍次数)}次"; when 加倍次数 > 0 }
pattern 大数 { value = max(sum(m in melds: m.rank) // 3, 1); unit 番; when any(m in runs: m.start % 2 == 0) }
quantity 底 = if menqing then 2 else 1
score = 番 * 底 * 2 ^ 加倍次数
"""
HAND = dict(hand="111m 222m 333m 东东东 5m", win="5m", context={"加倍次数": 1})


class Hang(Exception):
    pass


def _payloads(sentinel: Path) -> list:
    cmd = f"open({str(sentinel)!r}, 'w').write('ran')"
    return [
        f"__import__('builtins').exec({cmd!r})", f"x') or {cmd} or ('", f"\") or {cmd} or (\"", f"\n{cmd}\n",
        f"== {cmd} ==", f"({cmd})", f"{cmd} and max", f"builtin:x or {cmd}", "__class__", "__globals__",
        "{0.__class__}", "%s%(x)s", "{{ 7*7 }}", "{% for x in [1] %}{% endfor %}",
    ]


POOL = [None, True, False, 0, 1, -1, 2, 10 ** 6, 10 ** 30, 1.5, "", "x", "9" * 5000, "1" * 50, [], [1], {},
        {"_": "Num", "text": "1"}, {"_": "Nope"}, {"_": "Name", "name": "melds", "ref": "builtin:melds"},
        ["a", 1, 1, 1, 1]]


def _paths(o, p=()):
    yield p
    if isinstance(o, dict):
        for k, v in o.items():
            yield from _paths(v, p + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield from _paths(v, p + (i,))


def _get(o, path):
    for k in path:
        o = o[k]
    return o


def mutate(doc: dict, rng: random.Random, paths: list, payloads: list, classes: list[str]) -> tuple[str, dict]:
    d = copy.deepcopy(doc)
    kind = rng.choice(["value", "value", "payload", "payload", "payload", "delete", "add", "class", "move",
                       "dup", "drop", "limit", "limit"])
    if kind == "limit":
        return kind, _past_a_limit(doc, d, rng, paths)
    path = rng.choice(paths)
    if not path:
        return kind, d
    parent, key = _get(d, path[:-1]), path[-1]
    if kind == "value":
        parent[key] = copy.deepcopy(rng.choice(POOL))
    elif kind == "payload":
        strings = [p for p in paths if p and isinstance(_get(doc, p), str)]
        p = rng.choice(strings)
        _get(d, p[:-1])[p[-1]] = rng.choice(payloads)
    elif kind == "delete":
        if isinstance(parent, dict):
            del parent[key]
        else:
            parent.pop(key)
    elif kind == "add":
        if isinstance(parent, dict):
            parent[rng.choice(["extra", "__class__", "code", "_"])] = rng.choice(payloads + POOL[:6])
        else:
            parent.insert(key, copy.deepcopy(rng.choice(POOL)))
    elif kind == "class":
        nodes = [p for p in paths if isinstance(_get(doc, p), dict) and "_" in _get(doc, p)]
        _get(d, rng.choice(nodes))["_"] = rng.choice(classes + ["Exec", "__import__"])
    elif kind == "move":
        parent[key] = copy.deepcopy(_get(doc, rng.choice(paths)))
    elif kind == "dup":
        lists = [p for p in paths if isinstance(_get(doc, p), list) and _get(doc, p)]
        if lists:
            lst = _get(d, rng.choice(lists))
            lst.append(copy.deepcopy(lst[rng.randrange(len(lst))]))
    elif kind == "drop":
        lists = [p for p in paths if isinstance(_get(doc, p), list) and _get(doc, p)]
        if lists:
            lst = _get(d, rng.choice(lists))
            lst.pop(rng.randrange(len(lst)))
    return kind, d


# Expression node classes (what `_past_a_limit` wraps, widens or nests).
_EXPRS = {"Num", "Str", "Bool", "NoneLit", "TileLit", "Name", "ListLit", "Attr", "Call", "Comp", "Unary", "Binary",
          "Compare", "If"}
# Number texts past a stated limit, or that make a constant operator fail: 31 digits, exponents, zero, a fraction.
_LIMIT_NUMBERS = ["1" * 31, "1" * 30, "1001", "1000000000", "0", "0.5", "200", "65", "9", "300", "600"]


def _past_a_limit(doc: dict, d: dict, rng: random.Random, paths: list) -> dict:
    """A rule set edited past one of the stated limits (runtime/limits.py), as only a hand-written file can
    be: an expression nested 60-300 deep, comprehensions nested 7-12 deep, a list literal of 1,990-2,500
    items, a comprehension ranging over many binders, a number literal set to a value at or past a limit
    (digits, exponents, copies, players, a constant zero divisor). Some of them stay within the limits."""
    exprs = [p for p in paths if p and isinstance(_get(doc, p), dict) and _get(doc, p).get("_") in _EXPRS]
    if not exprs:
        return d
    how = rng.choice(["deep", "comps", "wide", "binders", "number", "number"])
    if how == "number":
        nums = [p for p in exprs if _get(doc, p)["_"] == "Num"]
        # half the time a number where a limit applies: an operand, a tile kind's copies, the players
        telling = [p for p in nums if p[-1] in ("left", "right", "copies", "players")]
        if telling and rng.random() < 0.5:
            nums = telling
        if nums:
            _get(d, rng.choice(nums))["text"] = rng.choice(_LIMIT_NUMBERS)
        return d
    if how == "binders":
        comps = [p for p in exprs if _get(doc, p)["_"] == "Comp"]
        if comps:
            comp = _get(d, rng.choice(comps))
            comp["binders"] = list(comp.get("binders", [])) + [f"x{i}" for i in range(rng.randint(1, 6))]
        return d
    path = rng.choice(exprs)
    node = copy.deepcopy(_get(doc, path))
    span = node.get("span", ["x.pai", 1, 1, 1, 2])
    if how == "deep":
        for _ in range(rng.randint(60, 300)):
            node = {"_": "Unary", "span": span, "op": rng.choice(["-", "not"]), "operand": node}
    elif how == "comps":
        for i in range(rng.randint(7, 12)):
            node = {"_": "Comp", "span": span, "func": rng.choice(["any", "count", "sum"]), "binders": [f"x{i}"],
                    "source": {"_": "Name", "span": span, "name": "tiles", "ref": "builtin:tiles"}, "body": node}
    else:
        node = {"_": "ListLit", "span": span, "items": [copy.deepcopy(node) for _ in range(rng.randint(1990, 2500))]}
    _get(d, path[:-1])[path[-1]] = node
    return d


def _alarm(signum, frame):
    raise Hang()


def run_case(text: str, small: bool, budget: float) -> tuple[str, str]:
    # CPU time, not wall clock: a case starved by other work on the machine is not a hang
    signal.signal(signal.SIGPROF, _alarm)
    signal.setitimer(signal.ITIMER_PROF, budget)
    try:
        try:
            rs = loads(text)
        except FormatError as exc:
            msg = str(exc)
            short = msg if len(msg) <= 200 else msg[:100] + "…" + msg[-99:]  # keeps the code at the end
            return ("refused" if "\n" not in msg and len(msg) < 400 else "bad message"), short
        try:
            rules = Rules(rs)
        except HandError as exc:  # tiles that cannot be set up (copies computed past the limit): one sentence
            return "refused", str(exc)[:200]
        if small:
            try:
                rules.score(**HAND)
                rules.waits(hand=HAND["hand"], context=HAND["context"])
            except (HandError, EvalError):
                pass
        return "ran", ""
    except Hang:
        return "hang", ""
    except RecursionError:
        return "traceback", "RecursionError"
    except Exception as exc:  # noqa: BLE001 - the point: count any other exception
        return "traceback", f"{type(exc).__name__}: {str(exc)[:160]}"
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)


def fuzz(n: int, seed: int, bundled: bool = True, budget: float = 60.0, start: int = 0) -> tuple[Counter, list[str]]:
    """Cases start … start + n - 1 of `seed` (a case depends only on the seed and its number, so a long run
    can go in chunks)."""
    from paili.runtime.ir import expr as E
    from paili.runtime.ir import nodes as ir

    counts: Counter = Counter()
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        sentinel = Path(tmp) / "sentinel"
        payloads = _payloads(sentinel)
        small = compile_text(SMALL, "small.pai")
        assert small.ok, small.render()
        bases = [(True, json.loads(dumps(small.ruleset)))]
        if bundled:
            bases += [(False, json.loads(dumps(compile_file(p).ruleset)))
                      for p in sorted((ROOT / "rules").glob("*.pai"))]
        classes = sorted({n for m in (ir, E) for n in dir(m) if isinstance(getattr(m, n), type)})
        prepared = [(sm, doc, list(_paths(doc))) for sm, doc in bases]
        for k in range(start, start + n):
            rng = random.Random(f"{seed}:{k}")
            # most cases on the small rule set (scored); one in five on a bundled one (loaded and built)
            sm, doc, paths = prepared[0] if (not bundled or k % 5) else prepared[1 + (k // 5) % (len(prepared) - 1)]
            kind, bad = mutate(doc, rng, paths, payloads, classes)
            outcome, detail = run_case(json.dumps(bad, ensure_ascii=False), sm, budget)
            if sentinel.exists():
                outcome = "executed"
                sentinel.unlink()
            counts[outcome] += 1
            counts[f"{kind}:{outcome}"] += 1
            code = re.search(r"\((E\d+)\)$", detail) if outcome == "refused" else None
            if code and code.group(1).startswith("E7"):  # refused for a stated limit (runtime/ir/limitcheck.py)
                counts[f"{kind}:refused {code.group(1)}"] += 1
            if outcome not in ("refused", "ran") and len(failures) < 30:
                failures.append(f"case {k} ({'small' if sm else 'bundled'}, {kind}): {outcome} {detail}")
    return counts, failures


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="the number of the first case (to run in chunks)")
    ap.add_argument("--budget", type=float, default=60.0,
                    help="seconds of CPU time per case before it counts as a hang")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    counts, failures = fuzz(args.cases, args.seed, budget=args.budget, start=args.start)
    t = time.perf_counter() - t0
    main_counts = {k: counts[k] for k in ("refused", "ran", "traceback", "hang", "executed", "bad message")}
    print(f"{args.cases} mutated JSON rule sets (cases {args.start}-{args.start + args.cases - 1} of seed {args.seed}) "
          f"in {t:.0f} s: {main_counts}")
    for k in sorted(c for c in counts if ":" in c):
        print(f"  {k} {counts[k]}")
    for f in failures:
        print("  FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
