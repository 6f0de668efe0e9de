"""Simulation spread over a Ray cluster: `paili simulate RULES --games N --ray [ADDRESS]` (the extra `ray`:
`pip install -e ".[ray]"`). `import paili` does not import it.

The games are the ones `runtime.game.simulate` plays for the same seed — game k's seed is the k-th draw of
`random.Random(seed)` — cut into contiguous chunks, each chunk a Ray task that plays its games with
`play_games` and returns its tallies; the tallies are merged in game order by the same `summarize` one
process uses, so the summary is the one process's, key for key, except `seconds` and `games_per_second`.
The rule set travels as its compiled JSON (put in the object store once); each worker process builds the
rule set once per JSON text and keeps it for the chunks it plays after.

Without an address a local Ray instance is started for the run and stopped after it (with the machine's
CPUs); with one (`auto`, `HOST:PORT`, `ray://HOST:10001`) the run joins that cluster and leaves it
running. A run inside a Ray session already open (`ray.init` called by the caller) uses that session.
`--log DIR` writes each game's log where its chunk is played (on a cluster: on that node's disk).
"""
from __future__ import annotations

import hashlib
import time
from pathlib import Path

from .runtime.game.simulate import DEFAULT_BOT, play_games, seeds_of, summarize
from .runtime.rules import Rules

_RULES: dict[tuple[str, str], Rules] = {}  # per worker process: (digest of a rule set's JSON, backend) -> rule set


def _rules_of(text: str, backend: str) -> Rules:
    key = (hashlib.sha256(text.encode("utf-8")).hexdigest(), backend)
    got = _RULES.get(key)
    if got is None:
        from .runtime.ir.serialize import loads

        got = _RULES[key] = Rules(loads(text), backend, ruleset_json=text)
    return got


def play_chunk(ruleset_json: str, chunk: list[tuple[int, int]], bots, options, log_dir, rules_ref: str,
               backend: str = "auto") -> dict:
    """One Ray task: the games (index, seed) of a chunk, as `play_games` tallies them, on the caller's backend
    (so the summary is the one process's, the native path's keys too; a node without the native core refuses
    a native run with one sentence rather than summing games played another way)."""
    return play_games(_rules_of(ruleset_json, backend), chunk, bots, options, log_dir, rules_ref)


def simulate_ray(rules: Rules, games: int, seed: int = 0, bots=DEFAULT_BOT, options: dict | None = None,
                 address: str | None = None, log_dir: str | Path | None = None, rules_ref: str = "",
                 progress=None, chunk: int | None = None) -> dict:
    """`runtime.game.simulate.simulate` over Ray (the module's docstring). `chunk`: games per task
    (default: about four tasks per CPU of the cluster, at most 200 games a task)."""
    import ray

    from .runtime.ir.serialize import dumps

    started = False
    if not ray.is_initialized():
        kw = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
        if address:
            ray.init(address=address, **kw)
        else:  # a local instance for this run: a small object store (the tallies are small)
            ray.init(object_store_memory=200 * 1024 * 1024, **kw)
        started = True
    try:
        seeds = seeds_of(games, seed)
        if chunk is None:
            cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
            chunk = max(1, min(200, -(-games // (4 * cpus))))
        chunks = [seeds[i:i + chunk] for i in range(0, games, chunk)]
        task = ray.remote(play_chunk)
        text = ray.put(dumps(rules.ir))
        t0 = time.perf_counter()
        pending = {task.remote(text, c, bots, options, str(log_dir) if log_dir else None, rules_ref, rules.backend): i
                   for i, c in enumerate(chunks)}
        parts: list = [None] * len(chunks)
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                i = pending.pop(ref)
                parts[i] = ray.get(ref)
                if progress is not None:
                    for _ in chunks[i]:
                        progress()
        return summarize(parts, games, bots, time.perf_counter() - t0)
    finally:
        if started:
            ray.shutdown()
