"""Mechanism coverage: does every special mechanism of each seed occur when bots play the bundled variants?

    python bench/mechanisms.py [--games 10000] [--workers 2] [--bots mixed] [--seed 1] [--runs NAME …] [--json]
    python bench/mechanisms.py --render REPORT.json     # a saved --json report as Markdown tables

The checklist is data: `bench/mechanisms.toml` lists the runs (each bundled variant under room options;
龙岩 at every player count its `人数` option allows) and, per variant, the mechanisms with the seed
sentence each comes from and the simulation-summary key that shows it (an event count, a pattern in a
winning hand, a payment made, a task completed, a hand with several winners). For each run this plays
`--games` hands with `runtime.game.simulate` and prints every mechanism with its count, then those never
seen. Exit status 1 when a mechanism never occurred or an invariant was violated in any run.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHECKLIST = Path(__file__).resolve().parent / "mechanisms.toml"
_SUMMARY_KEYS = {"event": "event_counts", "pattern": "pattern_counts", "payment": "payment_counts",
                 "draw_payment": "draw_payment_counts", "task": "task_counts"}


def load_checklist(path: Path = CHECKLIST) -> dict:
    """The checklist: {"run": [...], "mechanism": [...]}, each mechanism's runs resolved."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    runs = {r["name"]: r for r in data["run"]}
    for m in data["mechanism"]:
        m.setdefault("runs", [r for r, spec in runs.items() if spec["variant"] == m["variant"]])
        unknown = [r for r in m["runs"] if r not in runs]
        if unknown:
            raise ValueError(f"mechanism {m['name']!r} names unknown runs {unknown}")
    return data


def count(summary: dict, check: str) -> int:
    """How often the summary shows the checked key (see the header of mechanisms.toml)."""
    if check == "multiple_wins":
        return summary.get("multiple_wins", 0)
    kind, _, key = check.partition(":")
    if kind not in _SUMMARY_KEYS or not key:
        raise ValueError(f"unknown check {check!r}")
    table = summary.get(_SUMMARY_KEYS[kind], {})
    if kind == "task" and key == "*":
        return sum(table.values())
    return table.get(key, 0)


def player_counts(rules) -> list[int]:
    """The player counts a rule set allows: the values of the option `table.players` names, or its one
    number."""
    from paili.runtime.ir import expr as ir

    p = rules.ir.table.players
    if isinstance(p, ir.Name):
        s = rules.ir.setting(p.name)
        if s is not None and s.values:
            return sorted(int(v.text) for v in s.values)
    if isinstance(p, ir.Num):
        return [int(p.text)]
    return []


def run_players(rules, options: dict) -> int | None:
    """The player count of a run: the option `table.players` names as set (else its default), or the
    table's number."""
    from paili.runtime.ir import expr as ir

    p = rules.ir.table.players
    if isinstance(p, ir.Num):
        return int(p.text)
    if isinstance(p, ir.Name):
        if p.name in options:
            return int(options[p.name])
        s = rules.ir.setting(p.name)
        if s is not None and isinstance(s.default, ir.Num):
            return int(s.default.text)
    return None


def check_runs(data: dict, summaries: dict[str, dict]) -> dict:
    """Per run: each mechanism checked in it with its count, and the names never seen."""
    out = {}
    for name, summary in summaries.items():
        rows = [{"name": m["name"], "check": m["check"], "count": count(summary, m["check"]),
                 "source": m.get("seed") or m.get("rule")}
                for m in data["mechanism"] if name in m["runs"]]
        out[name] = {"variant": next((r["variant"] for r in data["run"] if r["name"] == name), name),
                     "games": summary["games"], "wins": summary["wins"], "draws": summary["draws"],
                     "invariant_violations": summary["invariant_violations"],
                     "games_per_second": summary.get("games_per_second"), "mechanisms": rows,
                     "missing": [r["name"] for r in rows if r["count"] == 0]}
    return out


def markdown(out: dict) -> str:
    """The report as Markdown: one table per variant, a count column per run of it."""
    lines = []
    by_variant: dict[str, list[str]] = {}
    for name, v in out["runs"].items():
        by_variant.setdefault(v.get("variant", name), []).append(name)
    for names in by_variant.values():
        runs = [out["runs"][n] for n in names]
        lines += ["| mechanism | shown by | " + " | ".join(names) + " |",
                  "|---|---|" + "---:|" * len(names)]
        rows: dict[str, dict] = {}
        for n, v in zip(names, runs):
            for r in v["mechanisms"]:
                rows.setdefault(r["name"], {"check": r["check"]})[n] = r["count"]
        for mech, row in rows.items():
            cells = [f"{row[n]:,}" if n in row else "—" for n in names]
            cells = [f"**{c}**" if c == "0" else c for c in cells]
            lines.append(f"| {mech} | `{row['check']}` | " + " | ".join(cells) + " |")
        lines.append("")
        for n, v in zip(names, runs):
            lines.append(f"- {n}: {v['games']:,} hands ({v['wins']:,} won, {v['draws']:,} drawn), "
                         f"{v['invariant_violations']} invariant violations; never seen: "
                         + (", ".join(v["missing"]) if v["missing"] else "none"))
        lines.append("")
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=10_000, help="hands per run (default 10,000)")
    p.add_argument("--workers", type=int, default=2, help="processes per run (default 2)")
    p.add_argument("--bots", default="mixed", help="random | greedy | mixed (default mixed)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--runs", nargs="+", metavar="NAME", help="only these runs of the checklist")
    p.add_argument("--checklist", type=Path, default=CHECKLIST)
    p.add_argument("--json", action="store_true")
    p.add_argument("--render", type=Path, metavar="JSON", help="print a saved --json report as Markdown tables")
    args = p.parse_args(argv)
    if args.render:
        try:
            print(markdown(json.loads(args.render.read_text(encoding="utf-8"))))
        except (OSError, ValueError, KeyError) as exc:
            print(f"error: cannot render {args.render}: {exc}", file=sys.stderr)
            return 2
        return 0

    from paili.dsl.cli_args import UsageError, load_ruleset
    from paili.runtime.game.bots import BOTS
    from paili.runtime.game.flow import GameError
    from paili.runtime.game.simulate import simulate
    from paili.runtime.rules import Rules

    if args.bots not in BOTS:
        p.error(f"--bots must be one of {', '.join(sorted(BOTS))}")
    try:
        data = load_checklist(args.checklist)
    except (OSError, ValueError, tomllib.TOMLDecodeError) as exc:
        print(f"error: cannot read the checklist {args.checklist}: {exc}", file=sys.stderr)
        return 2
    runs = [r for r in data["run"] if not args.runs or r["name"] in args.runs]
    if args.runs and len(runs) != len(set(args.runs)):
        print(f"error: unknown run(s); the checklist has {', '.join(r['name'] for r in data['run'])}",
              file=sys.stderr)
        return 2

    summaries: dict[str, dict] = {}
    notes: list[str] = []
    rules_of: dict[str, Rules] = {}
    for r in runs:
        try:
            rules = rules_of.setdefault(r["variant"], Rules(load_ruleset(r["variant"])))
            t0 = time.perf_counter()
            summaries[r["name"]] = simulate(rules, args.games, seed=args.seed, bots=args.bots,
                                            options=dict(r.get("options", {})), workers=args.workers)
        except (UsageError, GameError) as exc:
            print(f"error: run {r['name']}: {exc}", file=sys.stderr)
            return 2
        print(f"… {r['name']}: {args.games} games in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    # every player count a variant allows has a run (when all of its runs were asked for)
    for variant, rules in rules_of.items():
        counts = player_counts(rules)
        covered = {run_players(rules, r.get("options", {})) for r in data["run"] if r["variant"] == variant}
        if set(counts) - covered:
            notes.append(f"{variant}: no run for {sorted(set(counts) - covered)} players")

    report = check_runs(data, summaries)
    failed = bool(notes) or any(v["missing"] or v["invariant_violations"] for v in report.values())
    if args.json:
        print(json.dumps({"games": args.games, "bots": args.bots, "seed": args.seed, "runs": report,
                          "notes": notes, "ok": not failed}, ensure_ascii=False, indent=2))
    else:
        for name, v in report.items():
            print(f"\n== {name}: {v['games']} games ({v['wins']} won, {v['draws']} drawn), "
                  f"{v['invariant_violations']} invariant violations")
            for row in v["mechanisms"]:
                print(f"  {row['count']:>8}  {row['name']}  [{row['check']}]")
            print("  never seen: " + (", ".join(v["missing"]) if v["missing"] else "none"))
        for n in notes:
            print(f"note: {n}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
