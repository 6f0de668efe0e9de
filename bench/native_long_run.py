"""Long native runs (issue 17): many seeded hands per variant played by the native engine, with the invariant
violations counted, every seed mechanism looked for and the process's memory followed across the run.

    python bench/native_long_run.py [--games 100000] [--chunk 5000] [--bots random] [--seed 1]
                                    [--runs NAME …] [--out FILE.jsonl] [--markdown]

The runs and the mechanisms are `bench/mechanisms.toml`'s (each bundled variant under room options, 龙岩 at
each player count; per variant the seed's special mechanisms and the summary key that shows each); a
bundled variant the checklist has no run for (国标) may be named too, with no mechanisms to look for. Each run
plays `--games` hands in chunks of `--chunk` with `runtime.game.simulate.play_games` on the native backend
(`paili simulate`'s native path: `EngineSim`, native bots; a hand it hands back is played by the Python
engine and counted) and keeps only counters between chunks (no per-hand list grows in this script), so the
resident set size (RSS, read from /proc/self/statm after each chunk) shows whether the engine's memory stays
flat: the figure after the first chunk (the rule set loaded, the native engine built and warm), a few
between, and at the end. A line of JSON per chunk goes to `--out` (the counts so far), so a run cut short
still leaves its figures. Exit status 1 on any invariant violation, any mechanism never seen, or any hand
handed back.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from declared_mechanisms import check as check_declared  # noqa: E402
from mechanisms import check_runs, load_checklist, run_players  # noqa: E402
from paili import load  # noqa: E402
from paili.runtime.game.native_simulate import NATIVE_BOTS  # noqa: E402
from paili.runtime.game.simulate import play_games, seeds_of  # noqa: E402
from paili.runtime.game.tallies import COUNTERS  # noqa: E402

PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_mb() -> float:
    """The process's resident set size now, in MB (/proc/self/statm)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE / 1e6


def caches(rules, options: dict) -> dict:
    """The signature search's kept observers — the reference's (the rule set's) and the native search's of
    the native game's win questions — and what their memos hold together (`memo_held`, bounded by
    `MEMO_HELD`; `cleared`: memos started afresh to stay within it): caches that grow with the contexts a
    run meets."""
    kept = rules.observers
    out = {"observers": len(kept), "observers_held": kept.held, "observers_cleared": kept.cleared}
    cat, dec = rules.catalog_for(rules.settings_env(options))
    for _, search in rules.native_hands_for(cat, dec).searches.values():
        got = search.kept() if hasattr(search, "kept") else {}
        for k in ("observers", "held", "cleared"):
            out[f"native_{k}"] = out.get(f"native_{k}", 0) + got.get(k, 0)
    return out


class Counts:
    """The tallies of the chunks so far, counters only (no scores or violation sentences kept past 20)."""

    def __init__(self):
        self.games = self.wins = self.draws = self.multiple = self.violations = 0
        self.native_hands = self.native_fallbacks = 0
        self.refused: Counter = Counter()
        self.first_violations: list[str] = []
        for name in COUNTERS:
            setattr(self, name, Counter())

    def add(self, part: dict, games: int) -> None:
        self.games += games
        self.wins += part["wins"]
        self.draws += part["draws"]
        self.multiple += part["multiple"]
        self.violations += len(part["violations"])
        self.first_violations.extend(part["violations"][:20 - len(self.first_violations)])
        for name in COUNTERS:
            getattr(self, name).update(part[name])
        native = part.get("native")
        if native is not None:
            self.native_hands += native["hands"]
            self.native_fallbacks += native["fallbacks"]
            self.refused.update(native["refused"])
        else:  # the whole chunk on the Python path (the native engine does not take the rule set)
            self.native_fallbacks += games

    def summary(self) -> dict:
        """What `mechanisms.check_runs` reads of a simulation summary."""
        return {"games": self.games, "wins": self.wins, "draws": self.draws, "multiple_wins": self.multiple,
                "invariant_violations": self.violations, "event_counts": dict(self.events),
                "pattern_counts": dict(self.patterns), "payment_counts": dict(self.paid),
                "draw_payment_counts": dict(self.draw_paid), "task_counts": dict(self.tasks)}


def run_one(spec: dict, args, out) -> dict:
    rules = load(ROOT / "rules" / f"{spec['variant']}.pai", backend="native")
    options = dict(spec.get("options", {}))
    seeds = seeds_of(args.games, args.seed)
    counts = Counts()
    rss: list[tuple[int, float]] = [(0, round(rss_mb(), 1))]  # before the first hand: the rule set loaded
    cpu0 = time.process_time()
    t0 = time.perf_counter()
    for b in range(0, args.games, args.chunk):
        chunk = seeds[b:b + args.chunk]
        part = play_games(rules, chunk, args.bots, options)
        counts.add(part, len(chunk))
        rss.append((counts.games, round(rss_mb(), 1)))
        line = {"run": spec["name"], "games": counts.games, "cpu": round(time.process_time() - cpu0, 1),
                "wall": round(time.perf_counter() - t0, 1), "rss_mb": rss[-1][1],
                "python_blocks": sys.getallocatedblocks(),  # the Python heap's objects: flat if only native grows
                **caches(rules, options),
                "violations": counts.violations, "native_hands": counts.native_hands,
                "native_fallbacks": counts.native_fallbacks, "wins": counts.wins, "draws": counts.draws}
        if out is not None:
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
            out.flush()
        print(f"  {spec['name']}: {counts.games:,} games, {line['cpu']} s CPU, RSS {rss[-1][1]} MB, "
              f"{counts.violations} violations, {counts.native_fallbacks} handed back, "
              f"signature memos holding {line.get('native_held', 0) + line['observers_held']:,}",
              file=sys.stderr, flush=True)
    cpu = time.process_time() - cpu0
    summary = counts.summary()
    return {"summary": summary, "rss": rss, "cpu": cpu, "wall": time.perf_counter() - t0,
            "declared": check_declared(rules, summary, run_players(rules, options)),
            "refused": dict(counts.refused.most_common(10)),
            "violations": counts.first_violations, "native_hands": counts.native_hands,
            "native_fallbacks": counts.native_fallbacks}


def _rss_cells(rss: list) -> str:
    """The RSS figures of a run: before the first hand, after the first chunk, the middle one, the end."""
    first = [x for x in rss if x[0] > 0]
    picks = ([rss[0]] if rss and rss[0][0] == 0 else []) + first[:1] + \
        ([first[len(first) // 2]] if len(first) > 2 else []) + ([first[-1]] if len(first) > 1 else [])
    return " → ".join(f"{mb} ({g:,})" for g, mb in picks)


def markdown(report: dict) -> str:
    """The runs' table: hands, outcome, violations, mechanisms seen (the seed checklist's and the rule
    file's declared ones), RSS along the run, speed."""
    lines = ["| run | bots | hands | won / drawn | native / handed back | invariant violations | "
             "seed mechanisms seen | declared mechanisms seen | "
             "RSS MB (hands): start → first chunk → middle → end | CPU s | hands per CPU s |",
             "|---|---|---:|---|---|---:|---|---|---|---:|---:|"]
    for name, r in report["runs"].items():
        mech = r["mechanisms"]
        dec = [m for m in r.get("declared", []) if m["count"] is not None]
        lines.append(f"| {name} | {r.get('bots', report.get('bots'))} | {r['games']:,} | "
                     f"{r['wins']:,} / {r['draws']:,} | "
                     f"{r['native_hands']:,} / {r['native_fallbacks']:,} | {r['invariant_violations']} | "
                     f"{len(mech) - len(r['missing'])} of {len(mech)} | "
                     f"{len(dec) - len(r.get('declared_missing', []))} of {len(dec)} | {_rss_cells(r['rss'])} | "
                     f"{r['cpu']:,.0f} | {r['games'] / max(r['cpu'], 1e-9):,.0f} |")
    return "\n".join(lines)


def mechanism_tables(report: dict) -> str:
    """Per variant, every mechanism (the seed checklist's, then the rule file's declared ones) with its count
    in each run of the variant; a zero in bold, and the mechanisms no run of the variant showed."""
    lines: list[str] = []
    by_variant: dict[str, list[str]] = {}
    for name, r in report["runs"].items():
        by_variant.setdefault(r.get("variant", name), []).append(name)
    for variant, names in by_variant.items():
        runs = [report["runs"][n] for n in names]
        lines += [f"**{variant}**", "", "| mechanism | shown by | " + " | ".join(names) + " |",
                  "|---|---|" + "---:|" * len(names)]
        rows: dict[tuple, dict] = {}
        for n, r in zip(names, runs):
            for m in r["mechanisms"]:
                rows.setdefault(("seed", m["name"], m["check"]), {})[n] = m["count"]
            for m in r.get("declared", []):
                rows.setdefault(("declared", f"{m['kind']}: {m['name']}", m["check"]), {})[n] = m["count"]
        never = []
        for (source, mech, chk), row in rows.items():
            cells = ["—" if n not in row else "n/a" if row[n] is None else
                     ("**0**" if row[n] == 0 else f"{row[n]:,}") for n in names]
            label = mech if source == "seed" else f"*{mech}*"
            lines.append(f"| {label} | `{chk or 'not in the summary'}` | " + " | ".join(cells) + " |")
            if chk is not None and all(row.get(n, 0) == 0 for n in names if n in row):
                never.append(mech)
        lines += ["", f"Never seen in any run of {variant}: " + (", ".join(never) if never else "none") + ".", ""]
    return "\n".join(lines)


def rechecked(report: dict) -> dict:
    """A saved report's runs checked again from their counts against today's checklist and rule files."""
    data = load_checklist()
    for name, r in report["runs"].items():
        c = r["counts"]
        summary = {"games": r["games"], "wins": r["wins"], "draws": r["draws"],
                   "invariant_violations": r["invariant_violations"], **c, "multiple_wins": c["multiple_wins"]}
        spec = next((x for x in data["run"] if x["name"] == name), {"name": name, "variant": r.get("variant", name)})
        if not any(x["name"] == name for x in data["run"]):
            data["run"].append(spec)
        got = check_runs(data, {name: summary})[name]
        rules = load(ROOT / "rules" / f"{spec['variant']}.pai")
        r.update(variant=spec["variant"], mechanisms=got["mechanisms"], missing=got["missing"],
                 declared=check_declared(rules, summary, run_players(rules, dict(spec.get("options", {})))))
        r["declared_missing"] = [m["name"] for m in r["declared"] if m["count"] == 0]
    return report


def render(paths: list[Path]) -> str:
    """Saved reports (this script's JSON output, one or more files) as Markdown: the runs' table, then the
    mechanism tables, each report checked again against today's checklist."""
    merged: dict = {"runs": {}}
    for path in paths:
        report = rechecked(json.loads(path.read_text(encoding="utf-8")))
        for name, r in report["runs"].items():
            r.setdefault("bots", report.get("bots"))
            merged["runs"][name if r["bots"] == "random" else f"{name} ({r['bots']})"] = r  # random's keep the name
    return markdown(merged) + "\n\n" + mechanism_tables(merged)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=100_000)
    p.add_argument("--chunk", type=int, default=5_000, help="hands per call of play_games (RSS read after each)")
    p.add_argument("--bots", default="random",
                   help="random | greedy | efficiency, or one per seat separated by commas (default random)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--runs", nargs="+", metavar="NAME", help="only these runs of bench/mechanisms.toml")
    p.add_argument("--out", type=Path, help="append a JSON line per chunk (the counts so far) to this file")
    p.add_argument("--markdown", action="store_true", help="print the tables as Markdown (else JSON)")
    p.add_argument("--render", type=Path, nargs="+", metavar="JSON",
                   help="print saved reports (this script's JSON output) as Markdown, checked again; play nothing")
    args = p.parse_args(argv)
    if args.render:
        print(render(args.render))
        return 0
    if any(b.strip() not in NATIVE_BOTS for b in args.bots.split(",")):
        p.error(f"--bots: the native bots are {', '.join(NATIVE_BOTS)}")
    if args.games < 1 or args.chunk < 1:
        p.error("--games and --chunk must be at least 1")
    data = load_checklist()
    named = {r["name"] for r in data["run"]}
    extra = [{"name": n, "variant": n} for n in args.runs or []
             if n not in named and (ROOT / "rules" / f"{n}.pai").is_file()]
    runs = [r for r in data["run"] if not args.runs or r["name"] in args.runs] + extra
    if args.runs and len(runs) != len(set(args.runs)):
        p.error(f"unknown run; the checklist has {', '.join(sorted(named))} (or name a bundled variant)")
    out = open(args.out, "a", encoding="utf-8") if args.out else None
    results = {}
    for spec in runs:
        results[spec["name"]] = run_one(spec, args, out)
    checked = check_runs(data, {n: r["summary"] for n, r in results.items()})
    report = {"games": args.games, "bots": args.bots, "seed": args.seed,
              "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e6, 1),  # (KiB)
              "runs": {}}
    for name, r in results.items():
        c = checked[name]
        report["runs"][name] = {**{k: c[k] for k in ("games", "wins", "draws", "invariant_violations", "missing",
                                                      "mechanisms")},
                                "variant": next(x["variant"] for x in runs if x["name"] == name),
                                "declared": r["declared"],
                                "declared_missing": [m["name"] for m in r["declared"] if m["count"] == 0],
                                "rss": r["rss"], "cpu": round(r["cpu"], 1), "wall": round(r["wall"], 1),
                                "native_hands": r["native_hands"],
                                "native_fallbacks": r["native_fallbacks"], "refused": r["refused"],
                                "violations": r["violations"],
                                "counts": {k: r["summary"][k] for k in ("event_counts", "pattern_counts",
                                                                       "payment_counts", "draw_payment_counts",
                                                                       "task_counts", "multiple_wins")}}
    if out is not None:
        out.write(json.dumps({"report": report}, ensure_ascii=False) + "\n")
        out.close()
    print(markdown(report) + "\n\n" + mechanism_tables(report) if args.markdown
          else json.dumps(report, ensure_ascii=False, indent=2))
    bad = any(r["invariant_violations"] or r["missing"] or r["declared_missing"] or r["native_fallbacks"]
              for r in report["runs"].values())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
