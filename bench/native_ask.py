"""The efficiency bot's questions of the game answered natively (runtime/native/src/engine/winning.rs) against
the Python engine's answers (runtime/game/native_bot.py `SeatOracle`), at every decision of seeded games.

    python bench/native_ask.py [--games 1000] [--seed 1] [--only baijindao,...] [--no-wins]

Each configuration's games are played by efficiency bots (seat i of game seed s seeded s * 31 + i, as
bench/engine_equivalence.py seeds them; game k the k-th seed `simulate` derives from --seed); at every
decision the seat to move is asked its waits, its waits without each kind it holds (by every form and by
the forms that split), whether it wins on each of those waits with that tile given up (claimed and
self-drawn; --no-wins leaves these out) and the copies of each kind in sight, natively on the state read
from the snapshot and by `SeatOracle`. Prints per configuration the questions, the equal answers, the
differences (none allowed: the exit status is 1 otherwise), the questions declined by name (counted,
never compared) and the CPU time of each side.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CONFIGS = {"baijindao": ("baijindao", {}), "baicheng": ("baicheng", {}), "guobiao": ("guobiao", {}),
           "chehuzi": ("chehuzi", {}), "longyan-4": ("longyan", {"人数": 4}), "longyan-2": ("longyan", {"人数": 2}),
           "joker": ("bench/rules/joker", {})}


def main(argv=None) -> int:
    from paili import load
    from paili.runtime.game.bots import BOTS
    from paili.runtime.game.native_ask import AskCheck, AskTally, play_checked
    from paili.runtime.game.simulate import seeds_of

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default=",".join(CONFIGS), help="comma-separated: " + ", ".join(CONFIGS))
    ap.add_argument("--no-wins", action="store_true", help="leave out the questions that score a win")
    args = ap.parse_args(argv)
    bad = 0
    for name in args.only.split(","):
        stem, options = CONFIGS[name]
        rules = load(ROOT / f"{stem}.pai" if "/" in stem else ROOT / "rules" / f"{stem}.pai")
        check = AskCheck(rules, options, wins=not args.no_wins)
        tally = AskTally()
        for _, seed in seeds_of(args.games, args.seed):
            play_checked(rules, options, seed, check, tally, BOTS["efficiency"])
        bad += len(tally.differences)
        print(f"{name}: {args.games} games, {tally.questions:,} questions: {tally.equal:,} equal, "
              f"{len(tally.differences)} different, {sum(tally.declined.values()):,} declined; CPU native "
              f"{tally.native_cpu:.2f} s (state read from JSON included), SeatOracle {tally.python_cpu:.2f} s",
              flush=True)
        for why, n in sorted(tally.declined.items()):
            print(f"  declined ({n:,}): {why}")
        for d in tally.differences[:10]:
            print(f"  different: seat {d[0]} {d[1]}: reference {d[2]}, native {d[3]}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
