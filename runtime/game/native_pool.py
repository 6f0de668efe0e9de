"""The native hands a rule set keeps for its games on the native backend (runtime/game/native_game.py), and
what a native game reads of the reference's prepared game.

- `Pool` (on `Rules.engine`): idle native hands (`EngineHand`) by room options — building one reads the rule
  set's JSON and lowers its programs, milliseconds — taken by a game and given back when it is collected;
  and the observers of their hands (engine/observe.rs `EngineObserver`) by room options and layout.
- `Shell`: what `NativeGame` reads of `Game.prepared` (the rule set, settings, catalog, table size, the
  tiles and balances the invariants compare with, the setup's arguments), made once per room options by the
  reference and copied with each later hand's seed: the reference's shuffle and deal are not repeated (the
  native hand sets the hand up from the seed itself).
"""
from __future__ import annotations

import copy
import json

from ..backend import native_module
from .arguments import check_common
from .native_scope import set_scoring

# how many idle native hands a rule set keeps per choice of room options (a game takes one, its end
# gives it back): building one reads the rule set's JSON and lowers its programs
POOL = 8


def typed_options(shell) -> dict:
    """The room options given as the reference read them (`Game.settings`: a number or a truth value given
    as text, as `--set` gives it, as that number or truth value): what the native side takes."""
    return {name: shell.settings.get(f"option:{name}", v) for name, v in shell.options.items()}


def _options_key(shell) -> str:
    return json.dumps(typed_options(shell), sort_keys=True, ensure_ascii=False, default=str)


class Shell:
    """What a native game reads of the reference's game as `Game.prepared` leaves it (the rule set, its
    settings and catalog, the table's size, the tiles and balances the invariants compare with, the setup's
    arguments): the same for every hand of a rule set under the same room options but for the seed, so made
    once by the reference (its checks included) and copied with each later hand's seed. The reference's
    own setup of the hand (its shuffled wall, its dealer) is not made: the native hand sets the hand up
    from the seed itself."""

    __slots__ = ("rules", "rs", "cat", "dec", "settings", "options", "n", "check", "initial_counts",
                 "start_balances", "require_decision", "seed", "setup_args", "prog", "options_key")

    @classmethod
    def of(cls, game_cls, rules, options, seed, kw: dict, pool: Pool) -> Shell:
        """The shell of hand `seed` (`Game(rules, options, seed, **kw)`'s arguments): copied from the one
        made for these room options where only the seed differs from the arguments it was made with, else
        the reference's prepared game (a setup given by argument: a dealer, balances, carried values, a
        wall)."""
        check, require = kw.get("check", True), kw.get("require_decision", False)
        given = any(kw.get(k) is not None for k in ("dealer", "balances", "table", "players", "wall", "tail"))
        try:  # (no options, the usual case of a run of hands: the text `json.dumps` gives, without its encoder)
            key = ("{}" if not options else json.dumps(options, sort_keys=True, ensure_ascii=False), check, require)
        except (TypeError, ValueError):  # options the reference refuses or reads its own way: its checks
            key = None
        made = pool.shells.get(key) if key is not None and not given else None
        if made is None:
            shell = game_cls.prepared(rules, options, seed, kw)
            if key is not None and not given:
                pool.shells[key] = cls.copied(shell)
            return shell
        check_common(rules, options, seed, None, check)  # the seed's check (the rest as when it was made)
        out = object.__new__(cls)
        for name in cls.__slots__:
            setattr(out, name, getattr(made, name))
        out.seed = seed
        out.options = dict(options or {})
        args = dict(made.setup_args)
        args["options"], args["seed"] = copy.deepcopy(out.options) if out.options else {}, seed
        out.setup_args = args
        return out

    @classmethod
    def copied(cls, g) -> Shell:
        out = object.__new__(cls)
        for name in cls.__slots__[:-1]:
            setattr(out, name, getattr(g, name))
        out.options_key = _options_key(g)
        return out

    def tile_code(self, name: str) -> str | None:
        k = self.cat.by_name.get(name)
        return k.notation_code if k is not None else None


class Pool:
    """Idle native hands of one rule set, by room options (kept on `Rules.engine`), and the observers of
    their hands (engine/observe.rs `EngineObserver`), by room options and layout."""

    def __init__(self):
        self.idle: dict[str, list] = {}
        self.observers: dict[tuple[str, str | None], object] = {}
        self.shells: dict[tuple, Shell] = {}  # by room options, `check`, `require_decision` (`Shell.of`)

    def observer(self, shell, hand, layout_json: str | None = None):
        """The observer of hands of these room options (with the environment's layout, when given)."""
        key = (shell.options_key if isinstance(shell, Shell) else _options_key(shell), layout_json)
        got = self.observers.get(key)
        if got is None:
            kinds = shell.cat.kinds
            got = native_module().EngineObserver(hand, shell.rules.ruleset_json(), [k.notation_code for k in kinds],
                                                 [k.name for k in kinds])
            if layout_json is not None:
                got.set_layout(layout_json)
            self.observers[key] = got
        return got

    def take(self, rules, shell):
        key = shell.options_key if isinstance(shell, Shell) else _options_key(shell)
        idle = self.idle.setdefault(key, [])
        if idle:
            return idle.pop(), idle
        hand = native_module().EngineHand(rules.ruleset_json(), typed_options(shell))
        if not set_scoring(hand, shell):
            return None, idle
        return hand, idle

    @staticmethod
    def give_back(idle: list, hand) -> None:
        if len(idle) < POOL:
            idle.append(hand)


def prepare(game_cls, rules, options: dict | None, layout_json: str | None = None) -> bool:
    """Make now what the first native game of `rules` under `options` would make (the shell, one native
    hand — the rule set's JSON read, its programs lowered, its scoring set up: tens of milliseconds — and
    the observer with `layout_json`), the hand left idle in the pool: the learning environment's
    construction, so that its first hand costs what every later hand costs. No game is played or counted;
    false (nothing kept) where the native side does not take the rule set or these options."""
    counts = rules.engine
    if counts.pool is None:
        counts.pool = Pool()
    pool = counts.pool
    try:
        shell = Shell.of(game_cls, rules, options, 0, {}, pool)
        hand, idle = pool.take(rules, shell)
    except ValueError:  # (the first game says why, counted, as it would have)
        return False
    if hand is None:
        return False
    if layout_json is not None:
        pool.observer(shell, hand, layout_json)
    Pool.give_back(idle, hand)
    return True


