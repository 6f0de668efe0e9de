"""Tampered game logs: replay refuses every change that matters, with a sentence naming the line, never a
traceback (issue 12, point 2).

    python bench/fuzz_logs.py [--logs 10000] [--seed 1]

Logs of seeded bot sessions (two hands each, every bundled variant) are mutated — a line dropped,
duplicated, swapped or cut; a field removed, added or set to another value (wrong JSON types, floats for
ints, huge numbers, another tile or action, another result number); an unknown line type; a different
`hands`; an edited result — and replayed. Outcomes per case:

- `refused`: a ReplayError whose message starts with `line N:` (or names the log as a whole);
- `equivalent`: replay succeeded and the mutated log is exactly the log of the replayed session
  (the mutation changed nothing replay could tell apart, e.g. a decision number removed, an equal
  value written another way, two identical lines swapped) — not tampering;
- `accepted`: replay succeeded although the log differs from what the replay produces (a failure);
- `traceback`: any other exception (a failure).

The suite runs a seeded sample (tests/test_untrusted_play.py).
"""
from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from paili import load  # noqa: E402
from paili.runtime.game.bots import RandomBot  # noqa: E402
from paili.runtime.game.log import ReplayError, lines, replay  # noqa: E402
from paili.runtime.game.session import Session  # noqa: E402

VARIANTS = ("baicheng", "baijindao", "chehuzi", "longyan")
POOL = [None, True, False, 0, 1, -1, 1.0, 2.5, 10 ** 9, 10 ** 30, "", "x", "0", [], [1], {}, {"a": 1},
        "__import__('os').system('true')", "{{ 7*7 }}", "/etc/passwd", "rules/../../x.json"]


def base_logs(variants=VARIANTS, sessions: int = 2, hands: int = 2, seed: int = 1) -> list[tuple[str, list[dict]]]:
    """(variant, log lines as read back from a file) of seeded bot sessions."""
    out = []
    for v in variants:
        rules = load(ROOT / "rules" / f"{v}.pai")
        for k in range(sessions):
            s = Session(rules, {}, seed=seed * 100 + k, hands=hands)
            s.play(_bots(rules))
            out.append((v, json.loads(json.dumps(lines(s, v), ensure_ascii=False))))
    return out


def _bots(rules):
    from paili.runtime.game.flow import Game

    n = Game(rules, {}, 0, check=False).n
    return [RandomBot(i) for i in range(n)]


def _leaf_paths(o, path=()):
    yield path
    if isinstance(o, dict):
        for k, v in o.items():
            yield from _leaf_paths(v, path + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield from _leaf_paths(v, path + (i,))


def _set_in(o, path, value):
    for k in path[:-1]:
        o = o[k]
    o[path[-1]] = value


def _del_in(o, path):
    for k in path[:-1]:
        o = o[k]
    if isinstance(o, dict):
        del o[path[-1]]
    else:
        o.pop(path[-1])


def mutate(log: list[dict], rng: random.Random) -> tuple[str, list]:
    """One tampering of a log: (what was done, the mutated lines)."""
    d = copy.deepcopy(log)
    kind = rng.choice(["drop", "dup", "swap", "cut", "value", "value", "value", "delete", "add", "unknown",
                       "hands", "result", "move_tile", "move_action", "seat", "type"])
    i = rng.randrange(len(d))
    if kind == "drop":
        del d[i]
    elif kind == "dup":
        d.insert(i, copy.deepcopy(d[i]))
    elif kind == "swap":
        j = rng.randrange(len(d))
        d[i], d[j] = d[j], d[i]
    elif kind == "cut":
        d = d[:i]
    elif kind == "value":
        paths = [p for p in _leaf_paths(d[i]) if p]
        _set_in(d[i], rng.choice(paths), copy.deepcopy(rng.choice(POOL)))
    elif kind == "delete":
        paths = [p for p in _leaf_paths(d[i]) if p]
        _del_in(d[i], rng.choice(paths))
    elif kind == "add":
        d[i][rng.choice(["extra", "rules", "_", "balances", "type2"])] = rng.choice(POOL)
    elif kind == "unknown":
        d.insert(i, {"type": rng.choice(["note", "Move", "", "exec"]), "hand": 1})
    elif kind == "hands":
        d[0]["hands"] = rng.choice([0, 1, 3, 10 ** 9, -2, 2.0, "2", None])
    elif kind == "result":
        res = [e for e in d if e.get("type") == "result"]
        if res:
            e = rng.choice(res)["result"]
            key = rng.choice(sorted(e))
            v = e[key]
            e[key] = (v + 1) if type(v) is int else ([] if v else [0]) if isinstance(v, list) else rng.choice(POOL)
    elif kind in ("move_tile", "move_action"):
        moves = [e for e in d if e.get("type") == "move"]
        if moves:
            e = rng.choice(moves)["move"]
            if kind == "move_tile":
                tiles = [t for x in d if x.get("type") == "move" for t in x["move"].get("tiles", [])]
                e["tiles"] = [rng.choice(tiles)] if tiles else ["1m"]
            else:
                e["action"] = rng.choice(["pass", "discard", "胡", "x", ""])
    elif kind == "seat":
        moves = [e for e in d if e.get("type") == "move"]
        if moves:
            e = rng.choice(moves)
            e["seat"] = rng.choice([e["seat"] + 1, e["seat"] - 1, float(e["seat"]), True, str(e["seat"]), 99])
    elif kind == "type":
        d[i]["type"] = rng.choice(["session", "hand", "move", "result"])
    return kind, d


# What a logged move may leave out (or write as null) and still stand for the move the engine would log:
# the decision it answers (a move without one answers the decision now asked) and the meld kind when the
# action, tiles and choice fit one legal move only (runtime/game/flow.py; logs from before moves named it),
# and the codes of its tiles (logs from before moves carried them; when given they must be the tiles' codes).
OPTIONAL_MOVE_KEYS = ("decision", "meld", "codes")


def _same_line(mutated, again) -> bool:
    """Whether a (mutated) log line is the line the replayed session writes, up to `OPTIONAL_MOVE_KEYS`."""
    if not (isinstance(mutated, dict) and mutated.get("type") == "move" and isinstance(mutated.get("move"), dict)
            and isinstance(again, dict) and again.get("type") == "move"):
        return mutated == again
    if {k: v for k, v in mutated.items() if k != "move"} != {k: v for k, v in again.items() if k != "move"}:
        return False
    m, a = mutated["move"], again["move"]
    given = {k: v for k, v in m.items() if not (k in OPTIONAL_MOVE_KEYS and v is None)}
    return all(k in a and a[k] == v for k, v in given.items()) and all(
        k in given or k in OPTIONAL_MOVE_KEYS for k in a)


def run_case(rules, log: list) -> tuple[str, str]:
    """(outcome, detail) of replaying one (tampered) log."""
    try:
        s = replay(log, rules)
    except ReplayError as exc:
        msg = str(exc)
        ok = msg.startswith("line ") or msg.startswith("the log") or msg.startswith("give the rules")
        return ("refused" if ok and "\n" not in msg else "bad message"), msg
    except Exception as exc:  # noqa: BLE001 - the point: count any other exception
        return "traceback", f"{type(exc).__name__}: {str(exc)[:200]}"
    head = log[0]
    again = json.loads(json.dumps(lines(s, head["rules"]), ensure_ascii=False))
    # the mutated log must be the replayed session's log (equal values; what a move may omit, omitted)
    if len(again) == len(log) and all(_same_line(e, a) for e, a in zip(log, again)):
        return "equivalent", ""
    return "accepted", ""


def fuzz(n: int, seed: int, variants=VARIANTS, sessions: int = 2) -> tuple[Counter, list[str]]:
    rng = random.Random(seed)
    bases = base_logs(variants, sessions=sessions, seed=seed)
    rules = {v: load(ROOT / "rules" / f"{v}.pai") for v in variants}
    counts: Counter = Counter()
    failures: list[str] = []
    for k in range(n):
        v, log = bases[k % len(bases)]
        kind, bad = mutate(log, rng)
        outcome, detail = run_case(rules[v], bad)
        counts[outcome] += 1
        counts[f"{kind}:{outcome}"] += 1
        if outcome in ("accepted", "traceback", "bad message") and len(failures) < 20:
            failures.append(f"case {k} ({v}, {kind}): {outcome} {detail}")
    return counts, failures


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--logs", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    counts, failures = fuzz(args.logs, args.seed)
    t = time.perf_counter() - t0
    main_counts = {k: counts[k] for k in ("refused", "equivalent", "accepted", "traceback", "bad message")}
    print(f"{args.logs} tampered logs (seed {args.seed}) in {t:.0f} s: {main_counts}")
    for k in sorted(c for c in counts if ":" in c):
        print(f"  {k} {counts[k]}")
    for f in failures:
        print("  FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
