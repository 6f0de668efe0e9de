"""Engine equivalence: record seeded logged games with one engine, check another against them.

    python bench/engine_equivalence.py record DIR [--games 1000] [--seed 1] [--bots random] [--configs …]
    python bench/engine_equivalence.py check DIR [--limit N] [--configs …] [--ignore-added-keys K,…]
    python bench/engine_equivalence.py native-setup [--games 1000] [--seed 1] [--configs …]
    python bench/engine_equivalence.py native-scope [--games 1000] [--seed 1] [--configs …]
    python bench/engine_equivalence.py native-offers [--games 1000] [--seed 1] [--configs …] [--native-wins]
    python bench/engine_equivalence.py native-events [--games 1000] [--seed 1] [--configs …]
    python bench/engine_equivalence.py native-play [--games 1000] [--seed 1] [--configs …] [--rules PATH,…]

`record` plays, for each configuration (every bundled variant; 龙岩 at each player count), `--games`
hands the way `paili simulate` does (game k's seed is the k-th draw of random.Random(seed), seat i's bot
is seeded game_seed * 31 + i) and writes per game the log exactly as `paili simulate --log` writes it
(`CONFIG/game-NNNNN.jsonl`) and beside it the state record (`.state.json`): a digest of the state after
every applied move, the final state and the result with its payments. States are compared as the
fields of `Game.snapshot()` the engine had when the record was made (`STATE_KEYS`), so a later engine
may add fields to its snapshot.

`check` (with the engine now on the import path) replays every recorded log (`log.replay`, what
`paili replay LOG` runs; the command itself on the first `--cli` logs of each configuration) and plays
every game again from its seed: the log must be byte-identical, and
so must every per-move state digest, the final state and the result. Exit status 1 on any difference.
`record` plays the games on the Python engine (the reference) unless `--backend` says otherwise; `check`
on `--backend`, else `PAILI_BACKEND` (unset or `auto`: the native backend, runtime/game/native_game.py,
as `Game` plays by default), and prints how many hands went on in Python, by reason (`engine_fallbacks`).

`native-setup` checks the native engine as far as it is ported (docs/engine-native.md): for each
configuration (and the extra ones of `SETUP_CONFIGS`) and each game seed `record` would use, the state the
native engine reaches after the setup (`runtime/game/native.py`) must equal the Python engine's at the same
point (`Game.setup_state`); a setup the port refuses (`NotCovered`, naming the construct) is counted apart,
never compared. It prints the setup's speed in CPU time: the native engine's (`setup_many`: the hands set
up, nothing returned) and the Python engine's (`Game.setup_state`, its snapshot included).

`native-scope` checks the native game scope (docs/engine-native.md, step 2): each configuration's games are
played as `record` plays them, and at every decision point (and the end) the state is read natively from
`HandState.snapshot()` (and written back: it must be the same) and every game-scope expression of the rule
set is evaluated under the bindings of the moment for each seat (runtime/game/native_scope.py) by the
reference and natively: the values must be equal, or the reference must raise where the native side
stops. Expressions the native lowering refuses (`NotCovered`, by name) are counted, never compared; so
are the evaluations in which a win or wait question is declined on that state (engine/winning.rs, step 5:
"declined: WHY").

`native-offers` checks the native legal moves (docs/engine-native.md, step 6): each configuration's games
are played as `record` plays them, and at every decision the options of every seat asked must equal the
reference's (`Game.pending`: the same moves in the same order), worked out natively from the state
(`HandState.snapshot()`) and the decision (read from the reference's pending step), the wins asked of the
reference's winning machinery (runtime/game/native_offers.py). Decisions the native side does not take
(a construct not ported, named) are counted, never compared; so are those where it stops (the reference
raised there).

`native-events` checks the native events and settlement (docs/engine-native.md, step 3): each
configuration's games are played as `record` plays them by a `Game` whose event seams are probed
(runtime/game/native_events.py): at every event's phases, hooks and payments, every event's deferred
payments and every action's effects the reference runs, the same run is made natively on the state before
it (read from `HandState.snapshot()`, with the hand's generator), and the state after it, the generator,
the events emitted and the tiles in transit must be the reference's; or the reference must note an error
where the native run stops. Runs that need what the port refuses are counted by sentence, never compared.

`native-play` checks the hand played natively (docs/engine-native.md, steps 4 and 7): each configuration's
games are played as `record` plays them, and beside each the native hand (`EngineHand`, set up from the same
seed) is driven by the same moves (runtime/game/native_play.py); at its first decision and after every move
its state (`HandState.snapshot`), its continuation (the JSON of `steps.continuation`, as text) and the
decision it asks must be the reference's. A game's comparison stops at the native hand's first refusal (a
step not ported, named): counted by sentence, so the counts say how far the port reaches. `--rules PATH,…`
adds rule files of elsewhere (e.g. tests/rules/xuezhan.pai), each with its default options, named by their
stem (only those when `--configs` is not given).

`record --replay` also replays every log it writes (on the recording's backend); `check --replay-only`
only replays the logs (and `paili replay` on the first `--cli`), on the backend asked: with both, every
log is replayed on both backends. `record` and `check` take the configurations of `SETUP_CONFIGS` too
(other option sets of 龙岩, bench/rules/joker.pai) when named in `--configs`.

`--ignore-added-keys K,…` is for a recording made before the engine wrote some keys: every dict key
named K (or, for `*SUFFIX`, ending in SUFFIX) is dropped, at any depth, from the logs, states and
results on both sides before they are compared (the recorded digests hold no such key, so the new
states are digested without them). Nothing else is loosened: a key the record has and the new engine
lacks, or any other value, is still a difference.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from paili import load
from paili.runtime.game import log as gamelog
from paili.runtime.game.bots import BOTS
from paili.runtime.game.log import ReplayError, replay
from paili.runtime.game.session import Session

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = {  # name -> (rule file stem, room options)
    "baijindao": ("baijindao", {}),
    "baicheng": ("baicheng", {}),
    "chehuzi": ("chehuzi", {}),
    "guobiao": ("guobiao", {}),
    "longyan-4": ("longyan", {"人数": 4}),
    "longyan-3": ("longyan", {"人数": 3}),
    "longyan-2": ("longyan", {"人数": 2}),
}
# `native-setup` checks these too: options and rule files `record` does not play
SETUP_CONFIGS = {
    "longyan-4-no-dots": ("longyan", {"人数": 4, "有筒子": False}),
    "longyan-2-no-dots": ("longyan", {"人数": 2, "有筒子": False}),
    "longyan-3-scores": ("longyan", {"人数": 3, "底分": 3, "平胡分": 2, "七对分": 5, "单游分": 7, "双游分": 12,
                                     "三游分": 25, "明杠分": 2, "补杠分": 0, "暗杠分": 3, "花杠分": 1}),
    "joker": ("bench/rules/joker", {}),
}
ALL_CONFIGS = {**CONFIGS, **SETUP_CONFIGS}  # `record` and `check` take any of these when named


def rules_of(stem: str):
    """The rule set of a configuration's stem: a bundled variant, or a path under the repository."""
    return load(ROOT / (stem + ".pai")) if "/" in stem else load(stem)
# the snapshot fields the record was made with (the first engine's `Game.snapshot()`)
STATE_KEYS = ("dealer", "wall", "wall_ids", "pinned", "out", "seats", "table", "context", "reveals", "task",
              "turn", "last_drawer", "winners", "discarder", "robbed", "exhausted", "over", "next_dealer",
              "payments", "fees", "deltas", "events", "pending", "answers", "moves", "errors")


def state_view(game) -> dict:
    """The compared state: the recorded snapshot fields (a seat number as a key is written as JSON writes it)."""
    snap = game.snapshot()
    return {k: snap[k] for k in STATE_KEYS}


def as_json(view: dict):
    return json.loads(json.dumps(view, ensure_ascii=False, default=str))


def key_filter(names: list[str]):
    """A predicate: is this dict key one of the named added keys (`*SUFFIX` for a suffix)?"""
    exact = {n for n in names if not n.startswith("*")}
    suffixes = tuple(n[1:] for n in names if n.startswith("*"))
    return lambda key: key in exact or (bool(suffixes) and isinstance(key, str) and key.endswith(suffixes))


def without_keys(value, ignored):
    """`value` (JSON data) with every dict key `ignored` accepts dropped, at any depth."""
    if isinstance(value, dict):
        return {k: without_keys(v, ignored) for k, v in value.items() if not ignored(k)}
    if isinstance(value, (list, tuple)):  # a tuple is written as a list, as json.dumps writes it
        return [without_keys(v, ignored) for v in value]
    return value


def comparable_log(text: str, ignored) -> list:
    return [without_keys(json.loads(line), ignored) for line in text.splitlines() if line.strip()]


def digest(view: dict) -> str:
    text = json.dumps(view, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def play_one(rules, options: dict, game_seed: int, bots: str, ignored=None, backend=None):
    """One game as `paili simulate` plays it (`Game` on `backend`; None: `PAILI_BACKEND`); returns the
    session, per-move digests and the final state (with `ignored`'s keys dropped from the states when given)."""
    session = Session(rules, options, game_seed, 1, backend=backend)
    g = session.new_hand()
    players = [BOTS[bots](game_seed * 31 + i) for i in range(g.n)]
    digests = []
    while not g.is_over():
        seat = g.current_seats()[0]
        legal = g.legal_moves(seat)
        g.apply(seat, players[seat].choose(g, seat, legal))
        view = state_view(g)
        digests.append(digest(without_keys(view, ignored) if ignored else view))
    final = as_json(state_view(g))
    if ignored:
        final = without_keys(final, ignored)
    session.finish(g)
    return session, digests, final


def log_text(session, rules_ref: str) -> str:
    return "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in gamelog.lines(session, rules_ref))


def seeds(seed: int, games: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.randrange(1 << 31) for _ in range(games)]


def record(args) -> int:
    if args.backend:
        os.environ["PAILI_BACKEND"] = args.backend
    out = Path(args.dir)
    bad = 0
    for name in args.configs:
        stem, options = ALL_CONFIGS[name]
        rules = rules_of(stem)
        failed = []
        d = out / name
        d.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        for k, s in enumerate(seeds(args.seed, args.games)):
            # (the reference records unless a backend is asked: `auto`, the default, plays natively)
            session, digests, final = play_one(rules, options, s, args.bots, backend=args.backend or "python")
            base = d / f"game-{k + 1:05d}"
            base.with_suffix(".jsonl").write_text(log_text(session, stem), encoding="utf-8")
            base.with_suffix(".state.json").write_text(json.dumps(
                {"seed": s, "bots": args.bots, "options": options, "digests": digests, "final": final,
                 "result": session.played[0]["result"]}, ensure_ascii=False, default=str), encoding="utf-8")
            if args.replay:  # `paili replay`'s check (log.replay) of the log just written, on this backend
                try:
                    replay(base.with_suffix(".jsonl"), rules)
                except ReplayError as exc:
                    failed.append(f"{base.name}: replay: {exc}")
            if args.progress and (k + 1) % args.progress == 0:
                print(f"  {name}: {k + 1} games recorded", flush=True)
        (d / "config.json").write_text(json.dumps({"rules": stem, "options": options, "games": args.games,
                                                   "seed": args.seed, "bots": args.bots}, ensure_ascii=False))
        print(f"{name}: {args.games} games in {time.perf_counter() - t0:.1f} s"
              + (f"; replayed from their logs: {args.games - len(failed)} identical, {len(failed)} different"
                 if args.replay else ""), flush=True)
        for x in failed[:10]:
            print("  " + x)
        bad += len(failed)
    return 1 if bad else 0


def check(args) -> int:
    if args.backend:  # games on this backend (runtime/game/native_game.py), `paili replay` below too
        os.environ["PAILI_BACKEND"] = args.backend
    root = Path(args.dir)
    ignored = key_filter(args.ignore_added_keys) if args.ignore_added_keys else None
    bad = 0
    total = 0
    for name in args.configs:
        d = root / name
        if not (d / "config.json").exists():
            print(f"{name}: no record in {d}")
            continue
        conf = json.loads((d / "config.json").read_text(encoding="utf-8"))
        rules = rules_of(conf["rules"])
        logs = sorted(d.glob("game-*.jsonl"))[:args.limit or None]
        engine0 = rules.stats()
        t0 = time.perf_counter()
        c0 = time.process_time()
        diffs: list[str] = []
        for i, path in enumerate(logs):
            if i and i % 100 == 0:
                print(f"  {name}: {i} games checked, {len(diffs)} different", flush=True)
            rec = json.loads(path.with_suffix("").with_suffix(".state.json").read_text(encoding="utf-8"))
            try:
                replay(path, rules)
            except ReplayError as exc:
                diffs.append(f"{path.name}: replay: {exc}")
                continue
            if args.replay_only:
                continue
            session, digests, final = play_one(rules, rec["options"], rec["seed"], rec["bots"], ignored)
            result = json.loads(json.dumps(session.played[0]["result"], ensure_ascii=False))
            new_log, old_log = log_text(session, conf["rules"]), path.read_text(encoding="utf-8")
            if ignored:
                new_log, old_log = comparable_log(new_log, ignored), comparable_log(old_log, ignored)
                result, rec["final"], rec["result"] = (without_keys(x, ignored) for x in
                                                       (result, rec["final"], rec["result"]))
            if new_log != old_log:
                diffs.append(f"{path.name}: the regenerated log differs")
            elif digests != rec["digests"]:
                at = next(i for i, (a, b) in enumerate(zip(digests + [None] * len(rec["digests"]), rec["digests"]))
                          if a != b)
                diffs.append(f"{path.name}: the state after move {at + 1} differs")
            elif final != rec["final"]:
                diffs.append(f"{path.name}: the final state differs")
            elif result != rec["result"]:
                diffs.append(f"{path.name}: the result differs")
        cpu = time.process_time() - c0
        engine = {k: rules.stats()[k] for k in ("engine_games", "engine_fallbacks", "engine_mirrors")}
        engine = {k: v - engine0[k] for k, v in engine.items()}
        reasons = Counter(rules.stats()["engine_fallback_reasons"])
        reasons.subtract(engine0["engine_fallback_reasons"])
        for path in logs[:args.cli]:  # the command itself, as a user runs it, on the first few logs
            extra = ["--rules", str(ROOT / (conf["rules"] + ".pai"))] if "/" in conf["rules"] else []
            run = subprocess.run([sys.executable, "-m", "paili", "replay", str(path), *extra], capture_output=True,
                                 text=True)
            if run.returncode != 0 or "identical" not in run.stdout:
                diffs.append(f"{path.name}: paili replay: {(run.stdout + run.stderr).strip()[:200]}")
        total += len(logs)
        bad += len(diffs)
        print(f"{name}: {len(logs)} games replayed and regenerated in {time.perf_counter() - t0:.1f} s "
              f"({cpu:.1f} s CPU): {len(logs) - len(diffs)} identical, {len(diffs)} different", flush=True)
        if engine["engine_games"]:  # (each game is played twice: replayed from its log, and from its seed)
            print(f"  native backend: {engine['engine_games']} games, {engine['engine_fallbacks']} played on in "
                  f"Python, {engine['engine_mirrors']} Python replays beside a native game", flush=True)
            for why, k in sorted(reasons.items(), key=lambda kv: -kv[1]):
                if k:
                    print(f"    {k} × {why}")
        for x in diffs[:10]:
            print("  " + x)
    print(f"total: {total} games, {bad} different")
    return 1 if bad else 0


def native_setup(args) -> int:
    from paili.runtime.game.flow import Game
    from paili.runtime.game.native import table

    configs = {**CONFIGS, **SETUP_CONFIGS}
    total = bad = refused = 0
    for name in args.configs or list(configs):
        stem, options = configs[name]
        path = ROOT / (stem + ".pai" if "/" in stem else f"rules/{stem}.pai")
        rules = load(path)
        try:
            tab = table(rules, options)
        except ValueError as exc:  # NotCovered is a ValueError: the whole configuration is refused
            print(f"{name}: refused: {exc}")
            refused += args.games
            continue
        different = 0
        py_cpu = 0.0
        for seed in seeds(args.seed, args.games):
            total += 1
            try:
                native = json.loads(tab.setup(seed))
            except ValueError as exc:
                refused += 1
                print(f"{name} seed {seed}: refused: {exc}")
                continue
            cpu = time.process_time()
            python = Game.setup_state(rules, options, seed)
            py_cpu += time.process_time() - cpu
            if native != python:
                different += 1
                print(f"{name} seed {seed}: different")
        bad += different
        cpu = time.process_time()
        tab.setup_many(0, args.games)
        cpu = time.process_time() - cpu
        print(f"{name}: {args.games} setups, {different} different; native {args.games / max(cpu, 1e-9):,.0f} "
              f"setups/s, Python {args.games / max(py_cpu, 1e-9):,.0f} setups/s (CPU time)")
    print(f"total: {total} setups, {bad} different, {refused} refused")
    return 1 if bad else 0


def native_scope(args) -> int:
    """Every game-scope expression of each configuration, at every decision point of its games (played as
    `record` plays them), evaluated by the reference and natively under the bindings of the moment
    (runtime/game/native_scope.py): the differences (none allowed), the expressions refused by name."""
    from paili.runtime.game.native_scope import ScopeCheck, Tally

    configs = {**CONFIGS, **SETUP_CONFIGS}
    total = Tally()
    games = 0
    for name in args.configs or list(configs):
        stem, options = configs[name]
        path = ROOT / (stem + ".pai" if "/" in stem else f"rules/{stem}.pai")
        rules = load(path)
        check = ScopeCheck(rules, options)
        tally = Tally()
        for k, game_seed in enumerate(seeds(args.seed, args.games)):
            session = Session(rules, options, game_seed, 1, backend="python")  # the reference, compared
            g = session.new_hand()
            players = [BOTS[args.bots](game_seed * 31 + i) for i in range(g.n)]
            repeat = args.repeat if k < args.speed_games else 0  # the native evaluator timed on a sample
            while True:
                check.check(g, tally, repeat=repeat)
                if g.is_over():
                    break
                seat = g.current_seats()[0]
                g.apply(seat, players[seat].choose(g, seat, g.legal_moves(seat)))
            games += 1
            if args.progress and (k + 1) % args.progress == 0:
                print(f"{name}: {k + 1} games so far, {tally.states} decision points, "
                      f"{tally.evaluations:,} evaluations: {tally.equal:,} equal, {tally.both_stop:,} both stop, "
                      f"{len(tally.differences)} different, {tally.states_different} states read back different",
                      flush=True)
        refused = check.refused()
        print(f"{name}: {args.games} games, {tally.states} decision points ({tally.states_different} states read "
              f"back different); {len(check.labels)} expressions, {len(check.live)} lowered; "
              f"{tally.evaluations:,} evaluations: {tally.equal:,} equal, {tally.both_stop:,} both stop, "
              f"{len(tally.differences)} different")
        if tally.evaluations:
            print(f"  speed (CPU): reference {tally.evaluations / max(tally.python_cpu, 1e-9):,.0f} evaluations/s; "
                  f"native evaluator {tally.repeat_evaluations / max(tally.repeat_cpu, 1e-9):,.0f}/s "
                  f"(state read once per decision point, {args.repeat} rounds, first {args.speed_games} games), "
                  f"{tally.evaluations / max(tally.native_cpu, 1e-9):,.0f}/s with the JSON state and answers")
        for why, n in sorted(refused.items()):
            print(f"  refused ({n} expressions): {why}")
        for why, n in sorted(tally.declined.items()):
            print(f"  declined ({n} evaluations, not compared): {why}")
        for label, bind, ref, got in tally.differences[:10]:
            print(f"  different: {label} {json.dumps(bind, ensure_ascii=False)}: reference {ref}, native {got}")
        total.add(tally)
    print(f"total: {games} games, {total.states} decision points, {total.evaluations:,} evaluations, "
          f"{len(total.differences)} different, {total.states_different} states read back different, "
          f"{sum(total.declined.values())} declined")
    return 1 if total.differences or total.states_different else 0


def native_offers(args) -> int:
    """The options of every decision of each configuration's games (played as `record` plays them), worked
    out by the reference and natively (runtime/game/native_offers.py): the differences (none allowed), the
    decisions refused by name, the stops, and the CPU time of each side's options."""
    from paili.runtime.game.native_offers import NOT_PORTED, OffersCheck, Tally

    configs = {**CONFIGS, **SETUP_CONFIGS}
    total = Tally()
    games = 0
    for name in args.configs or list(configs):
        stem, options = configs[name]
        path = ROOT / (stem + ".pai" if "/" in stem else f"rules/{stem}.pai")
        rules = load(path)
        check = OffersCheck(rules, options, native_wins=args.native_wins)
        tally = Tally()
        for k, game_seed in enumerate(seeds(args.seed, args.games)):
            session = Session(rules, options, game_seed, 1, backend="python")  # the reference, compared
            g = session.new_hand()
            players = [BOTS[args.bots](game_seed * 31 + i) for i in range(g.n)]
            repeat = args.repeat if k < args.speed_games else 0  # the legal moves' own speed, on a sample
            while not g.is_over():
                check.check(g, tally, repeat=repeat)
                seat = g.current_seats()[0]
                g.apply(seat, players[seat].choose(g, seat, g.legal_moves(seat)))
            games += 1
            if args.progress and (k + 1) % args.progress == 0:
                print(f"{name}: {k + 1} games so far, {tally.decisions} decisions, {tally.compared} compared, "
                      f"{len(tally.differences)} different", flush=True)
        print(f"{name}: {args.games} games, {tally.decisions} decisions: {tally.compared} compared ({tally.seats} "
              f"seats, {tally.moves} moves): {tally.equal} equal, {len(tally.differences)} different; "
              f"{tally.stops} stopped; {sum(tally.refused.values())} refused")
        if args.native_wins:
            print(f"  wins answered natively: {tally.wins_native}, {len(tally.win_differences)} unlike the "
                  f"reference's; declined (the reference answered): {sum(tally.wins_declined.values())}")
            for why, n in sorted(tally.wins_declined.items()):
                print(f"    declined ({n}): {why}")
            for d in tally.win_differences[:10]:
                print(f"    unlike: {d}")
        own = tally.native_cpu - tally.oracle_cpu
        asked = tally.compared + tally.stops + sum(n for why, n in tally.refused.items() if why != NOT_PORTED)
        print(f"  native CPU: {own:.1f} s, {asked and own / asked * 1e6:,.0f} µs a decision (the JSON state read "
              f"and the answer written included; the reference's answers to the win and wait questions, "
              f"{tally.oracle_cpu:.1f} s, left out); the options alone, the state read once "
              f"({args.repeat} rounds, first {args.speed_games} games): "
              f"{tally.repeat_decisions / max(tally.repeat_cpu, 1e-9):,.0f} decisions/s")
        for why, n in sorted(check.refusals().items()):
            print(f"  expression refused at lowering: {why} ({n})")
        for why, n in sorted(tally.refused.items()):
            print(f"  refused ({n} decisions): {why}")
        for decision, ref, got in tally.differences[:10]:
            print(f"  different: {json.dumps(decision, ensure_ascii=False)}: reference "
                  f"{json.dumps(ref, ensure_ascii=False)[:400]}, native {json.dumps(got, ensure_ascii=False)[:400]}")
        total.add(tally)
    print(f"total: {games} games, {total.decisions} decisions, {total.compared} compared, "
          f"{len(total.differences)} different, {total.stops} stopped, {sum(total.refused.values())} refused"
          + (f"; wins: {total.wins_native} native, {len(total.win_differences)} unlike the reference's, "
             f"{sum(total.wins_declined.values())} declined" if args.native_wins else ""))
    return 1 if total.differences or total.win_differences else 0


def native_events(args) -> int:
    """Every event seam of each configuration's games (played as `record` plays them) run natively on the
    state the reference had before it and compared with the reference's after it
    (runtime/game/native_events.py): the differences (none allowed), the runs refused by name."""
    from paili.runtime.game.native_events import EventCheck, EventTally

    configs = {**CONFIGS, **SETUP_CONFIGS}
    total = EventTally()
    games = 0
    for name in args.configs or list(configs):
        stem, options = configs[name]
        path = ROOT / (stem + ".pai" if "/" in stem else f"rules/{stem}.pai")
        check = EventCheck(load(path), options)
        cpu = time.process_time()
        for k, game_seed in enumerate(seeds(args.seed, args.games)):
            check.play(game_seed, lambda g, s=game_seed: [BOTS[args.bots](s * 31 + i) for i in range(g.n)])
            games += 1
            t = check.tally
            if args.progress and (k + 1) % args.progress == 0:
                print(f"{name}: {k + 1} games so far, {sum(t.runs.values()):,} runs: {t.equal:,} equal, "
                      f"{t.both_stop:,} both stop, {len(t.differences)} different", flush=True)
        t = check.tally
        exprs, refused_exprs = check.lowered()
        runs = sum(t.runs.values())
        stages = ", ".join(f"{k} {v:,}" for k, v in sorted(t.runs.items()))
        print(f"{name}: {args.games} games, {runs:,} runs ({stages}); "
              f"{t.equal:,} equal ({t.payments:,} payments), {t.both_stop:,} both stop, "
              f"{sum(t.refused.values()):,} refused, {len(t.differences)} different; "
              f"{exprs} expressions, {refused_exprs} refused at lowering")
        timed, native_cpu = check.speed()
        print(f"  CPU: {time.process_time() - cpu:.1f} s in all (the reference's games with the check); the native "
              f"runs alone, JSON state in and out: {timed / max(native_cpu, 1e-9):,.0f} runs/s "
              f"({timed:,} runs: the first {len(check.sample):,}, 3 rounds)")
        for why, n in t.refused.most_common():
            print(f"  refused ({n:,} runs): {why}")
        for stage, label, what in t.differences[:10]:
            print(f"  different: {stage} {label}: {what}")
        total.add(t)
    print(f"total: {games} games, {sum(total.runs.values()):,} runs, {total.equal:,} equal, "
          f"{total.both_stop:,} both stop, {sum(total.refused.values()):,} refused, "
          f"{len(total.differences)} different")
    return 1 if total.differences else 0


def native_play(args) -> int:
    """Each configuration's games (played as `record` plays them) with the native hand beside them, compared
    at every point (runtime/game/native_play.py): the differences (none allowed), how far the native hand
    plays before its first refusal (by sentence), the games it plays to their end."""
    from paili.runtime.game.native_play import PlayCheck, PlayTally

    configs = {**CONFIGS, **SETUP_CONFIGS}
    paths = {}
    for p in args.rules:  # rule files of elsewhere, by their stem, with their default options
        paths[Path(p).stem] = Path(p).resolve()
        configs[Path(p).stem] = (Path(p).stem, {})
    total = PlayTally()
    for name in args.configs or list(configs):
        stem, options = configs[name]
        path = paths.get(name) or ROOT / (stem + ".pai" if "/" in stem else f"rules/{stem}.pai")
        check = PlayCheck(load(path, backend="native"), options)  # (the win questions' scoring is the native one)
        tally = PlayTally()
        cpu = time.process_time()
        for k, game_seed in enumerate(seeds(args.seed, args.games)):
            check.play(game_seed, lambda g, s=game_seed: [BOTS[args.bots](s * 31 + i) for i in range(g.n)], tally)
            if args.progress and (k + 1) % args.progress == 0:
                print(f"{name}: {k + 1} games so far, {tally.points:,} points equal, {len(tally.differences)} "
                      f"different", flush=True)
        print(f"{name}: {tally.games} games: {tally.points:,} points compared equal ({tally.moves:,} moves played "
              f"natively before the first refusal, {tally.moves / max(tally.games, 1):.1f} a game), "
              f"{tally.over} games played to their end, {len(tally.differences)} different "
              f"(CPU {time.process_time() - cpu:.1f} s, both engines and the comparison)")
        if tally.moves:
            print(f"  CPU of the compared part: the native hand {tally.native_cpu:.2f} s (setup, steps and moves: "
                  f"{tally.native_cpu / tally.moves * 1e6:,.0f} µs a move, the move read from JSON), the reference "
                  f"{tally.reference_cpu:.2f} s ({tally.reference_cpu / tally.moves * 1e6:,.0f} µs a move): "
                  f"{tally.reference_cpu / max(tally.native_cpu, 1e-9):.1f}× less natively")
        for why, n in tally.refused.most_common():
            print(f"  refused ({n} games): {why}")
        for seed, move, what in tally.differences[:10]:
            print(f"  different: game seed {seed}, after move {move}: {what}")
        total.add(tally)
    print(f"total: {total.games} games, {total.points:,} points equal, {total.moves:,} moves played natively, "
          f"{total.over} games played to their end, {len(total.differences)} different")
    return 1 if total.differences else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=["record", "check", "native-setup", "native-scope", "native-offers",
                                     "native-events", "native-play"])
    ap.add_argument("dir", nargs="?", default="")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bots", default="random", choices=sorted(BOTS))
    ap.add_argument("--repeat", type=int, default=5,
                    help="native-scope, native-offers: rounds of the native speed figure")
    ap.add_argument("--progress", type=int, default=0,
                    help="record, native-scope, native-offers: print the counts so far every N games")
    ap.add_argument("--speed-games", type=int, default=100,
                    help="native-scope, native-offers: the games the speed figure is taken on")
    ap.add_argument("--native-wins", action="store_true",
                    help="native-offers: the wins answered natively (engine/winning.rs), each compared with the "
                         "reference's")
    ap.add_argument("--backend", choices=["python", "native"], default="",
                    help="record, check: play the games (and `paili replay`) on this backend (default: record python, "
                         "check PAILI_BACKEND)")
    ap.add_argument("--replay", action="store_true",
                    help="record: replay every log written (log.replay, what `paili replay` runs) on the same backend")
    ap.add_argument("--replay-only", action="store_true",
                    help="check: only replay the logs (log.replay; `paili replay` on the first --cli)")
    ap.add_argument("--limit", type=int, default=0, help="check: only the first N games of each configuration")
    ap.add_argument("--cli", type=int, default=3, help="check: run `python -m paili replay` on the first N logs")
    ap.add_argument("--configs", default=",".join(CONFIGS), help="comma-separated: " + ", ".join(CONFIGS))
    ap.add_argument("--rules", default="", metavar="PATH,…",
                    help="native-play: rule files of elsewhere too (each with its default options, named by its stem; "
                         "only these when --configs is not given)")
    ap.add_argument("--ignore-added-keys", default="", metavar="K,…",
                    help="check: drop these dict keys (`*SUFFIX`: keys ending in SUFFIX) from both sides, for a "
                         "recording made before the engine wrote them")
    args = ap.parse_args(argv)
    given = args.configs != ",".join(CONFIGS)
    args.configs = [c for c in args.configs.split(",") if c]
    args.rules = [p for p in args.rules.split(",") if p]
    if args.rules and args.mode != "native-play":
        print("--rules is for native-play")
        return 2
    args.ignore_added_keys = [k for k in args.ignore_added_keys.split(",") if k]
    native = args.mode in ("native-setup", "native-scope", "native-offers", "native-events", "native-play")
    known = ALL_CONFIGS
    if native and args.configs == list(CONFIGS):
        args.configs = list(known)
    if args.rules:
        missing = [p for p in args.rules if not Path(p).is_file()]
        if missing:
            print(f"no rule file {missing[0]!r}")
            return 2
        stems = [Path(p).stem for p in args.rules]
        args.configs = (args.configs if given else []) + stems
        known = {**known, **{s: None for s in stems}}
    unknown = [c for c in args.configs if c not in known]
    if unknown:
        print(f"unknown configuration {unknown[0]!r} (one of {', '.join(known)})")
        return 2
    if args.mode == "native-setup":
        return native_setup(args)
    if args.mode == "native-scope":
        return native_scope(args)
    if args.mode == "native-offers":
        return native_offers(args)
    if args.mode == "native-events":
        return native_events(args)
    if args.mode == "native-play":
        return native_play(args)
    if not args.dir:
        print(f"{args.mode} needs the directory of the recording")
        return 2
    return record(args) if args.mode == "record" else check(args)


if __name__ == "__main__":
    sys.exit(main())
