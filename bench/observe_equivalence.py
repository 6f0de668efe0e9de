"""Observations on the native backend against the reference: seeded games of every configuration played on
both backends with the same random legal moves, and after every move, for every seat, `Game.observation`
and `legal_moves` equal, and the learning environment's arrays (env.py `Layout`: the observation vector and
the action mask, and the legal move each action slot names) filled natively (engine/observe.rs) equal to the
reference observation's encoding; what an onlooker sees equal; the native game's moves taken as the
environment takes them (by action slot, `NativeGame.act_observed`, every other move `native_tables.act_into`
writing them into a row of arrays kept across moves), with the next seat and its arrays filled in the same
call equal to `current_seats` and `encoded` after the move; and the results equal at the end.

    python bench/observe_equivalence.py [--games 50] [--seed 1] [--configs baijindao,longyan:3,…] [--json]

Configurations: every bundled rule file (龙岩 at 4, 3 and 2 players) and bench/rules/joker.pai. Printed per
configuration: games, observations compared, how many differ (must be 0), how many the native side did
not answer (the reference's, counted in `engine_fallbacks`), and how often what the rules' `observe`
declarations show came up (another seat's hand or drawn tile shown, a concealed meld partly shown), so the
sample is seen to reach the hidden-information rules. Exit status 1 on any difference.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CONFIGS = {
    "baijindao": ("rules/baijindao.pai", {}), "baicheng": ("rules/baicheng.pai", {}),
    "longyan": ("rules/longyan.pai", {}), "longyan:3": ("rules/longyan.pai", {"人数": 3}),
    "longyan:2": ("rules/longyan.pai", {"人数": 2}), "chehuzi": ("rules/chehuzi.pai", {}),
    "guobiao": ("rules/guobiao.pai", {}), "joker": ("bench/rules/joker.pai", {}),
}


def compare(rules, options: dict, seeds, encode: bool = True) -> dict:
    """Play each seed on both backends with the same random moves; count what differs."""
    import numpy as np
    from paili.env import ROWS, Layout
    from paili.runtime.game import Game
    from paili.runtime.game.native_tables import act_into

    lay = Layout(rules, options) if encode else None
    rows = None  # the arrays `act_into` writes a row of (made at its first move)
    out = {"games": 0, "observations": 0, "different": 0, "encodings": 0, "encodings_different": 0,
           "onlookers": 0, "onlookers_different": 0, "by_action": 0, "by_rows": 0, "next_arrays": 0,
           "next_different": 0, "results_different": 0, "shown_hand": 0, "shown_drawn": 0, "partly_shown_melds": 0}
    for seed in seeds:
        py = Game(rules, options, seed, backend="python")
        nat = Game(rules, options, seed, backend="native")
        rng = random.Random(seed)
        out["games"] += 1
        while True:
            out["onlookers"] += 1
            out["onlookers_different"] += py.onlooker_observation() != nat.onlooker_observation()
            for s in range(py.n):
                a, b = py.observation(s), nat.observation(s)
                out["observations"] += 1
                if a != b or [str(m) for m in py.legal_moves(s)] != [str(m) for m in nat.legal_moves(s)]:
                    out["different"] += 1
                for seat in a["seats"]:
                    out["shown_hand"] += "hand" in seat
                    out["shown_drawn"] += "drawn" in seat
                    out["partly_shown_melds"] += sum(1 for m in seat["melds"] if m.get("hidden") and m["tiles"])
                if lay is not None:
                    got = nat.encoded(s, lay.json) if hasattr(nat, "encoded") else None
                    if got is not None:
                        out["encodings"] += 1
                        mask = np.zeros(lay.size, dtype=np.int8)
                        if not py.is_over() and s in py.current_seats():
                            mask[list(lay.actions_of(py.legal_moves(s)))] = 1
                        # and each marked slot names the legal move the reference's slot map gives it
                        slots = np.frombuffer(got[2], dtype=np.int32)
                        legal = lay.actions_of(py.legal_moves(s)) if s in py.current_seats() else {}
                        named = [str(m) for m in nat.legal_moves(s)]
                        same = (np.array_equal(np.frombuffer(got[0], dtype=np.float32), lay.encode(a))
                                and np.array_equal(np.frombuffer(got[1], dtype=np.int8), mask)
                                and {x: named[i] for x, i in enumerate(slots) if i >= 0}
                                == {x: str(m) for x, m in legal.items()})
                        out["encodings_different"] += not same
            if py.is_over():
                break
            seat = py.current_seats()[0]
            moves = py.legal_moves(seat)
            move = moves[rng.randrange(len(moves))]
            py.apply(seat, move)
            action = next((x for x, m in lay.actions_of(moves).items() if m is move), None) if lay else None
            if action is not None and getattr(nat, "by_number", lambda: False)():
                # as the environment plays: the move named by its action slot, looked up natively, and the
                # arrays of the seat the game then waits on filled in the same call (`act_observed`; every
                # other move written into a row of arrays kept across moves instead, as a `PailiEnv` step
                # writes them, `native_tables.act_into`): that seat and those arrays as `current_seats` and
                # `encoded` give them after the move
                row = out["by_action"] % ROWS
                if out["by_action"] % 2:
                    if rows is None:
                        rows = (bytearray(ROWS * lay.dim * 4), bytearray(ROWS * lay.size))
                    got = act_into(nat, seat, action, nat.observer(lay.json), rows[0], rows[1], row)
                    assert got is not None, f"action {action} refused"
                    out["by_rows"] += 1
                    vb = lay.dim * 4
                    written = (rows[0][row * vb:(row + 1) * vb], rows[1][row * lay.size:(row + 1) * lay.size])
                    nxt, arrays = got[5], written if got[6] else None
                else:
                    got = nat.act_observed(seat, action, lay.json)
                    assert got is not None, f"action {action} refused"
                    nxt, arrays = got
                out["by_action"] += 1
                seats = nat.current_seats()
                same = nxt == (seats[0] if seats else None)
                if same and arrays is not None:
                    enc = nat.encoded(nxt, lay.json)
                    same = enc is not None and (bytes(enc[0]), bytes(enc[1])) == (bytes(arrays[0]), bytes(arrays[1]))
                    out["next_arrays"] += 1
                out["next_different"] += not same
            else:
                nat.apply(seat, move)
        out["results_different"] += py.result() != nat.result()
    stats = rules.stats()
    out["fallbacks"] = stats.get("engine_fallbacks", 0)
    out["fallback_reasons"] = stats.get("engine_fallback_reasons", {})
    out["mirrors"] = stats.get("engine_mirrors", 0)
    return out


def main(argv=None) -> int:
    import paili

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=50)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--configs", default=",".join(CONFIGS))
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    results = {}
    bad = 0
    for name in [c for c in args.configs.split(",") if c]:
        path, options = CONFIGS[name]
        draw = random.Random(args.seed)
        seeds = [draw.randrange(1 << 31) for _ in range(args.games)]  # as `paili simulate` seeds its games
        r = compare(paili.load(str(ROOT / path)), options, seeds)
        results[name] = r
        bad += (r["different"] + r["encodings_different"] + r["onlookers_different"] + r["results_different"]
                + r["next_different"])
        if not args.json:
            print(f"{name:10s} games {r['games']:4d}  observations {r['observations']:7d}  different {r['different']}  "
                  f"encodings {r['encodings']:7d}  different {r['encodings_different']}  onlookers {r['onlookers']} "
                  f"different {r['onlookers_different']}  moves by action {r['by_action']} ({r['by_rows']} into rows; "
                  f"next seat's arrays "
                  f"{r['next_arrays']}, different {r['next_different']})  results different "
                  f"{r['results_different']}  fallbacks {r['fallbacks']}  "
                  f"mirrors {r['mirrors']}  shown: hand {r['shown_hand']} drawn {r['shown_drawn']} "
                  f"melds {r['partly_shown_melds']}", flush=True)
    if args.json:
        print(json.dumps(results, ensure_ascii=False, indent=2))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
