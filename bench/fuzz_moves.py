"""Hostile moves: the engine refuses each with a short IllegalMove and leaves the state unchanged
(issue 12, point 3).

    python bench/fuzz_moves.py [--moves 100000] [--seed 1]

Seeded bot games of every bundled variant; before each real move, a few hostile attempts: seats of the
wrong type or out of range (1.0, True, -1, players, 10^100, "0", None), values that are not moves or
moves of the wrong types (an int action, a 100 KB action, tiles as a list, a list as the choice), stale
moves (offered at an earlier decision, with their decision number, often equal to a move legal now),
moves of another seat, and plausible moves not offered now (a discard of another tile, an action of
the rule set with other tiles). Outcomes per attempt:

- `refused`: IllegalMove with one short sentence (at most 600 characters, never 40 characters of the
  hostile text in a row), the game's snapshot, decision and move list unchanged;
- `legal`: the attempt was in fact a legal move now (an undecided plausible move that the engine
  offers): applied, and the game goes on from there;
- `accepted`: a move not legal now was applied (a failure);
- `changed`: refused, but the state changed (a failure);
- `traceback`: any other exception (a failure).

Also room options of the wrong type (`GameError` expected). The suite runs a seeded sample
(tests/test_untrusted_play.py).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from paili import load  # noqa: E402
from paili.runtime.game.bots import RandomBot  # noqa: E402
from paili.runtime.game.flow import Game, GameError, IllegalMove  # noqa: E402
from paili.runtime.game.moves import Move  # noqa: E402

VARIANTS = ("baicheng", "baijindao", "chehuzi", "longyan")
HUGE = "x" * 100_000


def _state(g: Game):
    return g.snapshot(), g.decision, len(g.moves), dict(g.answers)


def hostile(g: Game, seat: int, rng: random.Random, stale: list[Move], tiles: list[str]) -> tuple[str, object, object]:
    """(kind, seat, move) of one hostile attempt at the decision now asked."""
    legal = g.legal_moves(seat)
    kind = rng.choice(["seat", "seat", "type", "type", "stale", "stale", "other_seat", "plausible", "plausible"])
    mv = rng.choice(legal)
    if kind == "seat":
        return kind, rng.choice([float(seat), True, False, -1, g.n, 10 ** 100, str(seat), None, [seat], seat + 0.5]), mv
    if kind == "type":
        bad = rng.choice([
            Move(3), Move(None), Move(HUGE), Move(mv.action, list(mv.tiles)), Move(mv.action, (1, 2)),
            Move(mv.action, mv.tiles, [1]), Move(mv.action, (HUGE,)), Move(mv.action, ("1m",) * 1000),
            {"action": mv.action}, mv.action, None, 7, (mv.action, mv.tiles),
            Move(mv.action, mv.tiles, None, decision=1.5), Move(mv.action, mv.tiles, None, 7),
            Move(mv.action, mv.tiles, None, decision=True), Move(mv.action, mv.tiles, float("inf")),
        ])
        return kind, seat, bad
    if kind == "stale" and stale:
        return kind, seat, rng.choice(stale)
    if kind == "other_seat":
        others = [s for s in range(g.n) if s != seat]
        return kind, rng.choice(others), mv
    # plausible: an action of this decision or a discard, with other tiles (stamped or not)
    action = rng.choice([m.action for m in legal] + ["discard", "pass"])
    k = rng.choice([0, 1, 1, 2, 3, 4])
    m = Move(action, tuple(rng.choice(tiles) for _ in range(k)))
    return "plausible", seat, (m.stamped(g.decision) if rng.random() < 0.5 else m)


def _legal_now(g: Game, seat, move) -> bool:
    if not (isinstance(seat, int) and not isinstance(seat, bool)) or not isinstance(move, Move):
        return False
    if not 0 <= seat < g.n or seat not in g.current_seats():
        return False
    if move.decision is not None and move.decision != g.decision:
        return False
    try:
        return move in g.legal_moves(seat)
    except Exception:  # noqa: BLE001
        return False


def attempt(g: Game, seat, move) -> tuple[str, str]:
    before = _state(g)
    legal_now = _legal_now(g, seat, move)
    try:
        g.apply(seat, move)
    except IllegalMove as exc:
        msg = str(exc)
        if _state(g) != before:
            return "changed", msg[:200]
        if len(msg) > 600 or "\n" in msg or "x" * 40 in msg or "1m" * 40 in msg:
            return "bad message", msg[:200]
        return "refused", ""
    except Exception as exc:  # noqa: BLE001 - the point: count any other exception
        return "traceback", f"{type(exc).__name__}: {str(exc)[:200]}"
    return ("legal" if legal_now else "accepted"), f"{seat!r} {str(move)[:80]}"


def fuzz_options(rules, rng: random.Random, counts: Counter, failures: list[str]) -> None:
    for s in rules.ir.settings:
        if s.role != "option":
            continue
        for v in ([1], None, float("inf"), float("nan"), 3.5, {"a": 1}, (1,), 10 ** 400, Fraction(7, 2), object()):
            try:
                Game(rules, {s.name: v}, 1, check=False)
            except GameError:
                counts["options:refused"] += 1
                continue
            except Exception as exc:  # noqa: BLE001
                counts["options:traceback"] += 1
                failures.append(f"option {s.name}={v!r}: {type(exc).__name__}: {str(exc)[:100]}")
                continue
            ok = (s.type == "num" and isinstance(v, (float, Fraction)) and v == v and v not in (float("inf"),)) or (
                s.type in ("int", "seat") and isinstance(v, Fraction) and v.denominator == 1)
            counts["options:" + ("taken" if ok else "accepted")] += 1
            if not ok:
                failures.append(f"option {s.name} ({s.type}) = {v!r} accepted")
    for bad in ([("a", 1)], "x", 3):
        try:
            Game(rules, bad, 1, check=False)
            failures.append(f"options {bad!r} accepted")
        except GameError:
            counts["options:refused"] += 1


def fuzz(n: int, seed: int, variants=VARIANTS, per_decision: int = 3) -> tuple[Counter, list[str]]:
    rng = random.Random(seed)
    counts: Counter = Counter()
    failures: list[str] = []
    rules = {v: load(ROOT / "rules" / f"{v}.pai") for v in variants}
    for r in rules.values():
        fuzz_options(r, rng, counts, failures)
    done = 0
    game_no = 0
    while done < n:
        v = variants[game_no % len(variants)]
        game_no += 1
        r = rules[v]
        g = Game(r, {}, seed * 1000 + game_no, check=True)
        bots = [RandomBot(seed * 7 + i) for i in range(g.n)]
        tiles = sorted({k.name for k in g.cat.kinds})
        stale: list[Move] = []
        steps = 0
        while not g.is_over() and done < n and steps < 2000:
            steps += 1
            seat = g.current_seats()[0]
            for _ in range(per_decision):
                if done >= n or g.is_over():
                    break
                kind, s, mv = hostile(g, seat, rng, stale, tiles)
                outcome, detail = attempt(g, s, mv)
                done += 1
                counts[outcome] += 1
                counts[f"{kind}:{outcome}"] += 1
                if outcome in ("accepted", "changed", "traceback", "bad message") and len(failures) < 20:
                    failures.append(f"{v} game {game_no} decision {g.decision} ({kind}): {outcome} {detail}")
                if outcome == "legal":
                    break  # the attempt was the seat's answer; ask again
            if g.is_over():
                break
            seat = g.current_seats()[0]
            legal = g.legal_moves(seat)
            stale.extend(rng.sample(legal, min(2, len(legal))))
            del stale[:-50]
            g.apply(seat, bots[seat].choose(g, seat, legal))
    return counts, failures


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moves", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    counts, failures = fuzz(args.moves, args.seed)
    t = time.perf_counter() - t0
    main_counts = {k: counts[k] for k in ("refused", "legal", "accepted", "changed", "traceback", "bad message")}
    print(f"{args.moves} hostile moves (seed {args.seed}) in {t:.0f} s: {main_counts}")
    for k in sorted(c for c in counts if ":" in c):
        print(f"  {k} {counts[k]}")
    for f in failures:
        print("  FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
