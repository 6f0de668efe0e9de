"""A rule set's settings as a caller gives them — room options and context values by name, text or Python
values — turned into the expression environment a hand is scored in, and each distinct context's
(catalog, decomposer, environment) kept for the life of the rule set.

Why the environments are kept: a server scores hand after hand under a handful of contexts (a seat, a round,
a few situation flags), and converting, validating and re-tiling the same values for
every hand cost as much as a quarter of a hand's scoring. An environment is only ever read (a scoring run
copies it before adding the hand's own values), so one object serves every hand of its context.
"""
from __future__ import annotations

from typing import Any

from .evaluate import EvalError, compile_expr
from .hand import HandError, parse_tiles
from .ir import nodes as ir
from .limits import CONTEXTS_KEPT
from .nativeload import native_module
from .settings import setting_number, short
from .tiles import TileInfo, setting_defaults


def context_key(context: dict) -> tuple:
    """A context as a key: the type is part of it (True == 1 and 1 == 1.0, but they are different values
    of a setting). Hashing it raises TypeError for a value that cannot be a key (a caller's own list or
    object): the table's lookup does, not hashed here too (a tuple's hash is not kept)."""
    values = tuple(context.values())
    return (tuple(context), tuple(map(type, values)), values)  # (names, types, values): three tuples built in C


class Contexts:
    """The settings of one rule set (`Rules.contexts`): values by name -> the expression environment, and
    the environments of the contexts hands are scored under."""

    def __init__(self, rules):
        self.rules = rules
        rs: ir.RuleSet = rules.ir
        self.settings = {s.name: s for s in rs.settings}
        self.reveals = {r.name for r in rs.reveals}
        self.default_env: dict | None = None  # `settings_env` with no values
        self.plain: tuple | None = None  # `env_for` with no context
        self.envs: dict[tuple, tuple] = {}  # `env_for` by `context_key`
        # the native core's front to `envs` (the native backend): a kept context found from the dict
        # itself, without its three-tuple key built and hashed at every call; None: the key alone
        make = getattr(native_module(), "ContextTable", None) if rules.backend == "native" else None
        self.front = make(CONTEXTS_KEPT) if make is not None else None

    def settings_env(self, values: dict[str, Any] | None) -> dict:
        """Room option and context values by name (`context` of score and waits, `--set NAME=VALUE` of the
        command line; strings or Python values) -> the expression environment (a new dict, the caller's)."""
        base = self.default_env
        if base is None:
            rules = self.rules
            base = setting_defaults(rules.ir)
            lookup = {"tile-lookup": lambda name: rules.catalog.by_name.get(name)}
            for st in rules.ir.settings:  # tile defaults ('东') need the catalog
                key = f"{st.role}:{st.name}"
                if st.type == "tile" and base.get(key) is None and st.default is not None:
                    try:
                        base[key] = compile_expr(st.default)(lookup)
                    except (EvalError, KeyError, TypeError):
                        pass
            for r in self.reveals:
                base[f"reveal:{r}"] = None
            self.default_env = base
        env = dict(base)
        for name, raw in (values or {}).items():
            s = self.settings.get(name)
            if s is not None:
                env[f"{s.role}:{name}"] = self.convert(s, raw)
            elif name in self.reveals:
                env[f"reveal:{name}"] = self.tile_value(name, raw)
            else:
                names = sorted(list(self.settings) + list(self.reveals))
                raise HandError(f"unknown option or context name '{name}' (this rule set knows: {', '.join(names)})")
        return env

    def convert(self, s: ir.Setting, raw):
        """One setting's value as the language holds it, or HandError (one sentence)."""
        name = s.name
        if s.type == "bool":
            if isinstance(raw, bool):
                v = raw
            elif str(raw).lower() in ("true", "1", "yes", "是"):
                v = True
            elif str(raw).lower() in ("false", "0", "no", "否"):
                v = False
            else:
                raise HandError(f"{name} takes true or false, not '{short(raw)}'")
        elif s.type in ("int", "num", "seat"):
            v = setting_number(name, raw, whole=s.type != "num")
            if s.range and not s.range[0] <= v <= s.range[1]:
                raise HandError(f"{name} must be within {s.range[0]}..{s.range[1]}, not {v}")
            if s.values:
                allowed = [compile_expr(x)({}) for x in s.values]
                if v not in allowed:
                    raise HandError(f"{name} must be one of {', '.join(map(str, allowed))}, not {v}")
        elif s.type == "tile":
            v = self.tile_value(name, raw)
        elif s.type == "suit":
            v = self.suit_value(name, raw)
            allowed = [compile_expr(x)({}) for x in s.values]
            if allowed and v not in allowed:
                raise HandError(f"{name} must be one of {', '.join(map(str, allowed))}, not {v}")
        else:
            v = raw
        return v

    def suit_value(self, name: str, raw):
        """A suit is its name (as a suit literal evaluates); `none` leaves it unset."""
        if raw is None or (isinstance(raw, str) and raw.lower() == "none"):
            return None
        suits = [x.name for x in self.rules.ir.tiles.suits]
        if not isinstance(raw, str) or raw not in suits:
            raise HandError(f"{name} takes a suit ({', '.join(suits)}), not '{short(raw)}'")
        return raw

    def tile_value(self, name: str, raw):
        if raw is None or isinstance(raw, TileInfo):
            return raw
        rules = self.rules
        tiles = parse_tiles(rules.notation, rules.catalog, str(raw), name)
        if len(tiles) != 1:
            raise HandError(f"{name} takes one tile, not '{raw}'")
        return tiles[0]

    def env_for(self, context: dict[str, Any] | None) -> tuple:
        """(catalog, decomposer, expression environment) for a context, kept per distinct context: the
        same values given again (the same names, types and values) are not converted again. A context
        that is refused is refused every time (nothing is kept for it)."""
        if not context:
            got = self.plain
            if got is None:
                got = self.plain = self.build(None)
            return got
        front = self.front
        if front is not None:
            got = front.get(context)  # (None where it does not hold it: the key below decides)
            if got is not None:
                return got
        key = context_key(context)
        try:
            got = self.envs.get(key)
        except TypeError:  # a value that cannot be a key: built for this call alone
            return self.build(context)
        if got is None:
            got = self.build(context)
            if len(self.envs) >= CONTEXTS_KEPT:
                self.envs.clear()
                if front is not None:
                    front.clear()
            self.envs[key] = got
        if front is not None:
            front.put(context, got)
        return got

    def build(self, context: dict[str, Any] | None) -> tuple:
        env = self.settings_env(context)
        cat, dec = self.rules.catalog_for(env)
        return cat, dec, retile(env, cat)


def retile(env: dict, cat) -> dict:
    """Tile values must be the catalog's own objects (same options): a new environment holding them."""
    env = dict(env)
    for k, v in env.items():
        if isinstance(v, TileInfo):
            env[k] = cat.by_name.get(v.name)
    env["tile-lookup"] = lambda name: cat.by_name.get(name)
    return env


__all__ = ["CONTEXTS_KEPT", "Contexts", "context_key", "retile"]
