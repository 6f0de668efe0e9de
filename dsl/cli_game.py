"""The game commands of the command line: `paili play`, `paili simulate`, `paili replay` (the engine
itself is `runtime/game/`)."""
from __future__ import annotations

import argparse
import json
import sys


def _sets(items: list[str]) -> dict:
    out = {}
    from .cli_args import UsageError

    for s in items or []:
        if "=" not in s:
            raise UsageError(f"--set takes OPTION=VALUE, not {s!r}")
        k, v = s.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def _rules(arg: str):
    """A rule file, a compiled JSON rule set or a bundled variant's stem (dsl.cli.UsageError if not)."""
    from ..runtime.rules import Rules
    from .cli_args import load_ruleset_text

    rs, text = load_ruleset_text(arg)
    return Rules(rs, None, text)


def cmd_simulate(args) -> int:
    from ..runtime.game.flow import GameError
    from ..runtime.game.simulate import simulate
    from .cli_args import UsageError

    if args.games < 1 or args.workers < 1:
        raise UsageError(f"--games and --workers must be at least 1 (got {args.games} and {args.workers})")
    if args.ray is not None and args.workers != 1:
        raise UsageError("--ray or --workers: --ray spreads the games over the cluster's CPUs, --workers over "
                         "this machine's processes")
    rules = _rules(args.rules)
    if args.ray is not None:
        try:
            from ..cluster import simulate_ray
        except ImportError:
            print('error: --ray needs Ray: pip install "paili[ray]"', file=sys.stderr)
            return 2

        def run(progress=None):
            return simulate_ray(rules, args.games, args.seed, args.bots, _sets(args.set), args.ray or None,
                                args.log, args.rules, progress=progress)
    else:
        def run(progress=None):
            return simulate(rules, args.games, args.seed, args.bots, _sets(args.set), args.log, args.rules,
                            workers=args.workers, progress=progress)
    try:
        if args.json or not sys.stderr.isatty():
            summary = run()
        else:  # a progress bar with games/s (on stderr, so the summary stays clean; gone when done)
            with progress_bar("simulating", args.games) as advance:
                summary = run(advance)
    except GameError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=2))
    else:
        print(f"bots: {_bots_text(summary['bots'])}")
        print(f"games {summary['games']}  wins {summary['wins']}  draws {summary['draws']}  "
              f"score_mean {summary['score_mean']}  invariant_violations {summary['invariant_violations']}  "
              f"({summary['games_per_second']} games/s)")
        rates = "  ".join(f"seat {i} {r:.1%}" for i, r in enumerate(summary["win_rate_by_seat"]))
        print(f"win rate by seat: {rates}  draw rate {summary['draw_rate']:.1%}")
        if summary["score_min"] is not None:
            print(f"winning scores: mean {summary['score_mean']}  stdev {summary['score_stdev']}  "
                  f"min {summary['score_min']}  max {summary['score_max']}")
        top = list(summary["pattern_counts"].items())[:12]
        if top:
            print("patterns: " + ", ".join(f"{k} {v}" for k, v in top))
        print("events: " + ", ".join(f"{k} {v}" for k, v in summary["event_counts"].items()))
    return 1 if summary["invariant_violations"] else 0


def _bots_text(bots: list[str]) -> str:
    """`efficiency at every seat`, or each seat's bot: `seat 0 efficiency, seat 1 greedy, …`."""
    if len(set(bots)) == 1:
        return f"{bots[0]} at every seat"
    return ", ".join(f"seat {i} {b}" for i, b in enumerate(bots))


def _rate_column(unit: str):
    """A progress column: items per second so far (`12.3 games/s`); rich is imported only for a bar."""
    from rich.progress import ProgressColumn
    from rich.text import Text

    class Rate(ProgressColumn):
        def render(self, task):
            speed = task.finished_speed or task.speed
            return Text(f"{speed:.1f} {unit}/s" if speed else f"- {unit}/s")
    return Rate()


class progress_bar:
    """`with progress_bar(label, total) as advance:` a transient bar on stderr with the count done, the
    rate (games/s) and the time left; `advance()` counts one item."""

    def __init__(self, label: str, total: int, unit: str = "games"):
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            _rate_column(unit), TimeRemainingColumn(), transient=True, console=_stderr_console())
        self.label, self.total = label, total

    def __enter__(self):
        self.bar.__enter__()
        task = self.bar.add_task(self.label, total=self.total)
        return lambda: self.bar.advance(task)

    def __exit__(self, *exc):
        return self.bar.__exit__(*exc)


def _stderr_console():
    from rich.console import Console

    return Console(stderr=True)


def _bundled_of(ref) -> str | None:
    """The bundled rule file a log names by its stem (`NAME`, or `rules/NAME.pai`: the stem is
    taken, the path never opened), or None."""
    from pathlib import PurePosixPath, PureWindowsPath

    from .cli_args import bundled_rules

    if not isinstance(ref, str) or not ref or len(ref) > 300:
        return None
    stem = PureWindowsPath(PurePosixPath(ref).name).stem
    return next((str(p) for p in bundled_rules() if p.stem == stem), None)


def cmd_replay(args) -> int:
    from ..runtime.game.log import ReplayError, read_numbered, replay

    try:
        entries = read_numbered(args.log)
    except ReplayError as exc:
        print(f"error: {args.log}: {exc}", file=sys.stderr)
        return 1
    head = entries[0][1] if entries else None
    ref = args.rules
    if not ref:
        named = head.get("rules") if isinstance(head, dict) else None
        ref = _bundled_of(named)
        if ref is None:
            shown = repr(named) if isinstance(named, str) and len(named) <= 60 else "no bundled rule file"
            print(f"error: the log names {shown}, which is not a bundled variant; give the rules with --rules "
                  "(a rule file named by a log is never loaded)", file=sys.stderr)
            return 2
    try:
        s = replay([e for _, e in entries], _rules(ref), numbers=[n for n, _ in entries])
    except ReplayError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"replayed {len(s.played)} hand(s): identical")
    return 0


def cmd_play(args) -> int:
    from ..runtime.game.flow import GameError
    from ..runtime.game.play import PlayError, play_terminal

    rules = _rules(args.rules)
    try:
        return play_terminal(rules, _sets(args.set), seat=args.seat, seed=args.seed, hands=args.hands,
                             bots=args.bots, inp=sys.stdin, out=sys.stdout)
    except (GameError, PlayError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


DEFAULT_BOT = "efficiency"  # as runtime.game.simulate.DEFAULT_BOT (not imported here: the parser is built lazily)


def _bots_arg(text: str) -> str:
    """--bots: names of bots, one or one per seat (the seat count is checked when the rules are known)."""
    from ..runtime.game.bots import BOTS

    names = [b.strip() for b in text.split(",")]
    bad = [b for b in names if b not in BOTS]
    if bad or not text.strip():
        raise argparse.ArgumentTypeError(f"unknown bot {bad[0][:40] if bad else text!r}: choose from "
                                         f"{', '.join(BOTS)} (one, or one per seat separated by commas)")
    return ",".join(names)


def add_commands(sub) -> None:
    c = sub.add_parser("play", help="play a seat in the terminal against bots")
    c.add_argument("rules")
    c.add_argument("--seat", type=int, default=0, help="your seat (0 is the first dealer)")
    c.add_argument("--set", action="append", metavar="OPTION=VALUE")
    c.add_argument("--seed", type=int, help="the game's seed (shown at the start; the same seed replays the deal)")
    c.add_argument("--hands", type=int, default=1, help="hands to play, balances carried from one to the next")
    c.add_argument("--bots", choices=["random", "greedy", "mixed", "efficiency"], default="greedy")
    c.set_defaults(func=cmd_play)
    c = sub.add_parser("simulate", help="play many hands with bots and check the engine's invariants")
    c.add_argument("rules")
    c.add_argument("--games", type=int, default=100)
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--bots", type=_bots_arg, default=DEFAULT_BOT, metavar="BOT[,BOT…]",
                   help="one bot for every seat, or one per seat separated by commas (efficiency,greedy,greedy,"
                        "greedy). efficiency (the default): plays for the nearest win by the rule set's forms; "
                        "random: uniform; greedy: wins, pungs and kongs; mixed: greedy with random choices at "
                        "half the decisions that offer more than discards (docs/engine.md)")
    c.add_argument("--set", action="append", metavar="OPTION=VALUE")
    c.add_argument("--json", action="store_true")
    c.add_argument("--log", metavar="DIR")
    c.add_argument("--workers", type=int, default=1,
                   help="spread the games over N processes (the same result as one process for the same seed)")
    c.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="spread the games over a Ray cluster (pip install \"paili[ray]\"): a local instance "
                        "started for the run, or the cluster at ADDRESS (auto, HOST:PORT, ray://HOST:10001); "
                        "the same summary as one process for the same seed")
    c.set_defaults(func=cmd_simulate)
    c = sub.add_parser("replay", help="re-run a JSON-lines game log and check it reaches the same state")
    c.add_argument("log")
    c.add_argument("--rules")
    c.set_defaults(func=cmd_replay)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="paili")
    sub = p.add_subparsers(dest="cmd", required=True)
    add_commands(sub)
    args = p.parse_args(argv)
    from .cli_args import UsageError

    try:
        return args.func(args)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
