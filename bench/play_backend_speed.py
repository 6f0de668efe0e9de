"""CPU time of `paili play` sessions on each backend (runtime/game/play.py `play_terminal`): the person at
seat 0 answers every question with its first listed move ("1"), the other seats are bots, every hand's
table, moves and wins are written (to a buffer) as the terminal writes them; seeded sessions of each
configuration, the backends alternated round by round, best of the rounds (CPU by getrusage). Prints the
Python games replayed beside native ones (`engine_mirrors`: the one read the native state does not answer
is the score's make-up shown at a win, `score_values`) and the hands that went on in Python.

    python bench/play_backend_speed.py [--sessions 20] [--hands 2] [--rounds 2] [--bots mixed] [--configs baijindao,…]
"""
from __future__ import annotations

import argparse
import io
import resource
from pathlib import Path

from paili import load
from paili.runtime.game import session as session_module
from paili.runtime.game.play import play_terminal

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = {"baijindao": ("baijindao", {}), "baicheng": ("baicheng", {}), "chehuzi": ("chehuzi", {}),
           "guobiao": ("guobiao", {}), "longyan-4": ("longyan", {"人数": 4}),
           "joker": (str(ROOT / "bench/rules/joker.pai"), {})}


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def play(rules, options: dict, seeds: list[int], hands: int, bots: str, backend: str) -> tuple[float, list[str]]:
    """The CPU time of the sessions on `backend` and what the terminal wrote for each."""
    made = session_module.Session.__init__

    def on_backend(self, *a, **kw):  # every hand of the session on this backend
        kw["backend"] = backend
        made(self, *a, **kw)

    session_module.Session.__init__ = on_backend
    try:
        outs = []
        t0 = cpu()
        for seed in seeds:
            out = io.StringIO()
            play_terminal(rules, options, seat=0, seed=seed, hands=hands, bots=bots, inp=io.StringIO("1\n" * 5000),
                          out=out)
            outs.append(out.getvalue())
        return cpu() - t0, outs
    finally:
        session_module.Session.__init__ = made


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sessions", type=int, default=20)
    ap.add_argument("--hands", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--bots", default="mixed", choices=["random", "greedy", "mixed", "efficiency"])
    ap.add_argument("--configs", default=",".join(CONFIGS))
    args = ap.parse_args()
    bad = 0
    for name in args.configs.split(","):
        stem, options = CONFIGS[name]
        rules = load(stem, backend="native")
        seeds = list(range(1, args.sessions + 1))
        play(rules, options, seeds[:2], args.hands, args.bots, "python")  # warm: programs and tables made once
        play(rules, options, seeds[:2], args.hands, args.bots, "native")
        before = rules.stats()
        times: dict[str, list[float]] = {"python": [], "native": []}
        texts = {}
        for _ in range(args.rounds):
            for backend in ("python", "native"):
                t, texts[backend] = play(rules, options, seeds, args.hands, args.bots, backend)
                times[backend].append(t)
        st = rules.stats()
        same = texts["python"] == texts["native"]
        bad += not same
        py, nat = min(times["python"]), min(times["native"])
        mirrors = (st["engine_mirrors"] - before["engine_mirrors"]) / args.rounds
        fell = (st["engine_fallbacks"] - before["engine_fallbacks"]) / args.rounds
        print(f"{name}: {args.sessions} sessions of {args.hands} hands, {args.bots} bots; terminal text "
              f"{'identical' if same else 'DIFFERENT'}; {mirrors:.0f} Python games beside native ones, {fell:.0f} "
              f"hands on in Python; CPU s (best of {args.rounds}): python {py:.2f}, native {nat:.2f} ({py / nat:.2f}×)",
              flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
