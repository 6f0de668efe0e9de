"""The native game engine (runtime/native/src/engine/), as far as it is ported (docs/engine-native.md):
so far the hand's setup, up to its first event. `setup_state` gives the state it reaches in the form of
`Game.setup_state` (`HandState.snapshot`), which the tests and bench/engine_equivalence.py compare."""
from __future__ import annotations

import json
from pathlib import Path

from ..backend import native_module
from ..rules import Rules, load


class NativeUnavailable(RuntimeError):
    """The native core is not built (the pure-Python install)."""


def table(rules: Rules | str | Path, options: dict | None = None):
    """The native engine's `EngineTable` for a rule set under room options: hands set up from it with
    `.setup(seed, dealer, balances, table, players, wall, tail)` (JSON text of `HandState.snapshot`).
    Raises the native core's `NotCovered` (a ValueError) naming a construct the port does not execute
    yet, and ValueError for options it refuses."""
    mod = native_module()
    if mod is None:
        raise NativeUnavailable("the native core is not built")
    if not isinstance(rules, Rules):
        rules = load(rules)
    return mod.EngineTable(rules.ruleset_json(), options)


def setup_state(rules: Rules | str | Path, options: dict | None = None, seed: int = 0, *,
                dealer: int | None = None, balances: list | None = None, table_values: dict | None = None,
                players: list[dict] | None = None, wall: list[str] | str | None = None,
                tail: list[str] | str | None = None) -> dict:
    """The hand after its setup, computed natively, as `Game.setup_state` gives it (`table_values`: its
    `table`; errors: `table`)."""
    return json.loads(table(rules, options).setup(seed, dealer, balances, table_values, players, wall, tail))
