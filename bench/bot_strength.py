"""How often the efficiency bot wins against greedy and random bots, per variant (and 龙岩 player count).

    python bench/bot_strength.py [--games 400] [--seed 1] [--variants baijindao,baicheng,...]
                                 [--fields efficiency_vs_greedy,...] [--json]

For each table, the bot under test sits at one seat and the field at the others; the seat goes round
(the same number of games at every seat, each seat with its own seeds), so the dealer's edge evens out.
Three fields: efficiency against greedy, greedy against random and efficiency against random (the last two
side by side: the same seeds, only the bot under test differs). Each game is `paili simulate`'s (invariant
checks on, every hand scored); a seat's win rate counts the hands it won (several winners of one hand
each count). `--fields` runs only the fields named (greedy_vs_random does not depend on the efficiency bot,
so it can be run apart); the rows then hold only those.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

FIELDS = [("efficiency_vs_greedy", "efficiency", "greedy"), ("greedy_vs_random", "greedy", "random"),
          ("efficiency_vs_random", "efficiency", "random")]
TABLES = [("baijindao", {}), ("baicheng", {}), ("longyan", {"人数": 4}), ("longyan", {"人数": 3}),
          ("longyan", {"人数": 2}), ("chehuzi", {}), ("guobiao", {})]


def seats_of(rules, options) -> int:
    from paili.runtime.game import Game

    return Game(rules, options, 0).n


def field_rates(rules, options, games: int, seed: int, bot: str, field: str, progress=None) -> dict:
    """Win rates of `bot` at each seat in turn against `field` at the others: the bot's, the field's
    (per seat) and draws, over `games` hands split evenly over the seats."""
    from paili.runtime.game.simulate import simulate

    n = seats_of(rules, options)
    per = max(1, games // n)
    mine = theirs = draws = violations = 0
    for s in range(n):
        names = [field] * n
        names[s] = bot
        r = simulate(rules, per, seed + 7919 * s, names, options, progress=progress)
        mine += r["wins_by_seat"][s]
        theirs += sum(r["wins_by_seat"]) - r["wins_by_seat"][s]
        draws += r["draws"]
        violations += r["invariant_violations"]
    total = per * n
    return {"games": total, "bot": round(mine / total, 4), "bot_margin": round(margin(mine / total, total), 4),
            "field_per_seat": round(theirs / total / (n - 1), 4),
            "draw_rate": round(draws / total, 4), "invariant_violations": violations}


def margin(p: float, n: int) -> float:
    """The half-width of a 95% interval of a win rate p over n hands (normal approximation)."""
    return 1.96 * (p * (1 - p) / n) ** 0.5 if n else 0.0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=400, help="games per table and field (default 400)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--variants", default="", help="comma-separated stems (default: every table)")
    p.add_argument("--fields", default="", help="comma-separated fields (default: all three): "
                   + ", ".join(k for k, _, _ in FIELDS))
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    from paili.dsl.cli_args import load_ruleset
    from paili.runtime.rules import Rules

    wanted = {v for v in args.variants.split(",") if v}
    fields = [f for f in FIELDS if not args.fields or f[0] in args.fields.split(",")]
    if not fields:
        p.error(f"--fields: none of {args.fields!r} is a field ({', '.join(k for k, _, _ in FIELDS)})")
    out = []
    for stem, options in TABLES:
        if wanted and stem not in wanted:
            continue
        rules = Rules(load_ruleset(stem))
        row = {"variant": stem, "options": options, "seats": seats_of(rules, options)}
        for key, bot, field in fields:
            row[key] = field_rates(rules, options, args.games, args.seed, bot, field)
        out.append(row)
        if not args.json:
            opts = " ".join(f"{k}={v}" for k, v in options.items())
            parts = []
            for key, bot, field in fields:
                r = row[key]
                parts.append(f"{bot} {r['bot']:.1%} ± {margin(r['bot'], r['games']):.1%} vs {field} "
                             f"{r['field_per_seat']:.1%} a seat")
            games = row[fields[0][0]]["games"]
            violations = sum(row[k]["invariant_violations"] for k, _, _ in fields)
            print(f"{stem} {opts}: " + "; ".join(parts) + f" ({games} games a field; violations {violations})",
                  flush=True)
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
