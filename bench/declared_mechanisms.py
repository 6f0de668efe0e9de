"""The mechanisms a rule file declares, read from its IR, and their counts in a simulation summary (issue 17:
"every seed mechanism present in event_counts").

bench/mechanisms.toml is the hand-made checklist (each mechanism with the seed sentence it comes from);
this is its complement, made from the rule file itself so that nothing it declares is left unchecked:

- every action, taken (`event:NAME`), and for an action with `decline { … }` effects, declined
  (`event:decline:NAME`): the declared choices (加倍, 报听, a win given up, …) both ways; an action that
  only restates the engine's own draw or discard step (`program.is_description`: compulsory, on `turn`
  or `draw`, with nothing of its own to do) is never taken as an action, so the engine's step stands
  for it (`event:draw`, `event:discard`);
- every event an effect `emit`s (`event:NAME`);
- every phase entered (`event:phase_enter:NAME`);
- every reveal flipped (`event:reveal:NAME`), passed over (`reveal_skip`, with `skip`) and moved
  (`reveal_move`, with `moves_when`);
- every flag state some effect can turn true (`event:state:NAME`);
- every payment that moved money (`payment:NAME`) and every task completed (`task:NAME`);
- several winners of one tile (`multiple_wins`) where a win claimed by others allows it (`multiple`).

Fees and caps are declared too but the summary has no count of them (a fee is withheld from every payment;
a cap shows only as a smaller amount): they are listed with no check. tests/test_long_run_mechanisms.py
shows a fee in `Game.result()`; a `cap balance` binds only when a balance runs low, which one-hand
sessions at the starting balances (1,000) do not reach, so the scenario tests prove it (test_game.py,
test_game_baijindao.py, test_game_chehuzi.py, and both backends in test_engine_native_events.py).

    python bench/declared_mechanisms.py RULES.pai …       # print each variant's declared mechanisms
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from mechanisms import count  # noqa: E402
from paili.runtime.game.program import is_description  # noqa: E402


def _effects(ir):
    for a in ir.actions:
        yield from a.effects
        yield from a.decline
    for h in ir.hooks:
        yield from h.effects


def _can_turn_true(effect) -> bool:
    from paili.runtime.ir import expr as x

    return effect.op == "set" and not (isinstance(effect.value, x.Bool) and not effect.value.value)


def declared(rules, players: int | None = None) -> list[dict]:
    """The rule set's declared mechanisms, in declaration order: {"kind", "name", "check"} (check None: the
    summary has no count of it). `players`: the run's player count (several winners of one claimed tile
    need three or more)."""
    ir = rules.ir
    out: list[dict] = []

    def add(kind: str, name: str, check: str | None) -> None:
        if not any(m["check"] == check and check is not None for m in out):
            out.append({"kind": kind, "name": name, "check": check})

    for a in ir.actions:
        if is_description(a):
            step = "draw" if a.on == "turn" else "discard"
            add("step", f"{a.name} (the engine's {step})", f"event:{step}")
            continue
        add("action", a.name, f"event:{a.name}")
        if a.decline:
            add("declined", f"{a.name} declined", f"event:decline:{a.name}")
    for ef in _effects(ir):
        if ef.op == "emit":
            add("event", ef.target[0], f"event:{ef.target[0]}")
    for ph in ir.phases:
        add("phase", ph.name, f"event:phase_enter:{ph.name}")
    for r in ir.reveals:
        add("reveal", r.name, f"event:reveal:{r.name}")
        if r.skip:
            add("reveal", f"{r.name} passed over ({r.skip})", f"event:reveal_skip:{r.name}")
        if r.moves_when is not None:
            add("reveal", f"{r.name} moved", f"event:reveal_move:{r.name}")
    flags = {s.name for s in ir.states if s.type == "bool"}
    turned = {ef.target[-1] for ef in _effects(ir) if ef.op == "set" and ef.target and _can_turn_true(ef)}
    for s in ir.states:
        if s.name in flags and s.name in turned:
            add("state", s.name, f"event:state:{s.name}")
    for p in ir.payments:
        add("payment", p.name, f"payment:{p.name}")
    for t in ir.tasks:
        add("task", t.name, f"task:{t.name}")
    if (players is None or players > 2) and any(a.wins and a.multiple and a.win_tile == "claimed"
                                                 for a in ir.actions):
        add("multiple wins", "several winners of one tile", "multiple_wins")
    for f in ir.fees:
        add("fee", f.name, None)
    for c in ir.caps:
        add("cap", f"cap {c.kind} of {c.of}", None)
    return out


def check(rules, summary: dict, players: int | None = None) -> list[dict]:
    """Each declared mechanism with its count in the summary (None where the summary has no count)."""
    return [{**m, "count": None if m["check"] is None else count(summary, m["check"])}
            for m in declared(rules, players)]


def main(argv=None) -> int:
    from paili import load

    for path in argv if argv is not None else sys.argv[1:]:
        rules = load(path)
        print(f"== {Path(path).stem}")
        for m in declared(rules):
            print(f"  {m['kind']:<14} {m['name']}  [{m['check'] or 'not in the summary'}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
