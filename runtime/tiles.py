"""The tile catalog of a rule set under given option values: which kinds exist, how many copies,
and every attribute of every kind (declared flags and computed `attr` definitions)."""
from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dc_field

from .evaluate import compile_expr
from .ir import nodes as ir
from .limits import MAX_COPIES, MAX_KINDS, LimitError


@dataclass(eq=False)
class TileInfo:
    """One tile kind as expressions see it (`t.rank`, `t.风`, …). Compared by kind name."""

    name: str
    index: int
    category: str
    suit: str | None
    rank: int
    copies: int
    glyph: str
    char: str
    code: str
    attrs: dict[str, bool] = dc_field(default_factory=dict)
    f: dict = dc_field(default_factory=dict)  # every field by name, filled by the catalog

    @property
    def sig(self) -> str:
        return self.name

    @property
    def notation_code(self) -> str:
        """How the rule set's notation writes this kind: its code (`5m`, `1z`), else its character (东, 王)."""
        return self.code or self.char

    def fill_fields(self, attr_names) -> None:
        self.f = {a: self.attrs.get(a, False) for a in attr_names}
        for name in ("kind", "suit", "rank", "honor", "flower", "joker", "wild", "name"):
            self.f[name] = self.field(name)

    def field(self, name: str):
        match name:
            case "kind":
                return self
            case "suit":
                return self.suit
            case "rank":
                return self.rank
            case "honor":
                return self.category == "honor"
            case "flower":
                return self.category == "flower"
            case "joker":
                return self.category == "joker"
            case "wild":
                return False
            case "name":
                return self.name
        return self.attrs.get(name, False)

    def __eq__(self, other):
        return isinstance(other, TileInfo) and other.name == self.name

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return f"<{self.name}>"


def kind_counts(tiles, n: int, free) -> tuple[list[int], int]:
    """The tiles as counts per kind index (`n` kinds), those whose name is in `free` (the wildcards, or
    every tile that may play as another) counted apart: (counts, how many free)."""
    counts = [0] * n
    f = 0
    for t in tiles:
        if t.name in free:
            f += 1
        else:
            counts[t.index] += 1
    return counts, f


def setting_defaults(rs: ir.RuleSet) -> dict:
    """`option:NAME` / `context:NAME` -> default value (tile defaults left as None)."""
    from .evaluate import compile_expr as _c

    env: dict = {"tile-lookup": lambda name: None}
    out = {}
    for s in rs.settings:
        try:
            out[f"{s.role}:{s.name}"] = _c(s.default)(env)
        except Exception:  # a default that needs tiles is resolved once the catalog exists
            out[f"{s.role}:{s.name}"] = None
    return out


class Catalog:
    def __init__(self, rs: ir.RuleSet, settings: dict | None = None):
        self.rs = rs
        env = dict(setting_defaults(rs))
        env.update(settings or {})
        env["tile-lookup"] = lambda name: self.by_name.get(name)
        self.env = env
        kinds: list[TileInfo] = []
        for k in rs.tiles.kinds:
            if k.enabled is not None and not compile_expr(k.enabled)(env):
                continue
            copies = int(compile_expr(k.copies)(env))
            if copies <= 0:
                continue
            if copies > MAX_COPIES:  # a wall of that many tiles could not be held (docs/language.md §40)
                raise LimitError(f"{copies} copies of {k.name} under these room options; the limit is {MAX_COPIES}")
            attrs = {a: True for a in k.attrs}
            kinds.append(TileInfo(k.name, len(kinds), k.category, k.suit or None, k.rank, copies, k.glyph, k.char,
                                  k.code, attrs))
        if len(kinds) > MAX_KINDS:
            raise LimitError(f"{len(kinds)} tile kinds under these room options; the limit is {MAX_KINDS}")
        self.kinds = kinds
        self.by_name = {k.name: k for k in kinds}
        attr_names = {a for k in rs.tiles.kinds for a in k.attrs} | {a.name for a in rs.tiles.attrs}
        for k in kinds:
            k.fill_fields(attr_names)
        # Computed attributes, in order (one may use an earlier one).
        for a in rs.tiles.attrs:
            fn = compile_expr(a.expr)
            for k in kinds:
                env["builtin:t"] = k
                k.attrs[a.name] = k.f[a.name] = bool(fn(env))
        env.pop("builtin:t", None)
        self.has_flowers = any(k.category == "flower" for k in kinds)
        self._with_attr: dict[str, tuple[TileInfo, ...]] = {}  # `with_attr` by attribute

    def with_attr(self, attr: str) -> tuple[TileInfo, ...]:
        """The kinds in play that have attribute `attr`, in catalog order."""
        got = self._with_attr.get(attr)
        if got is None:
            got = self._with_attr[attr] = tuple(k for k in self.kinds if k.attrs.get(attr))
        return got

    def count(self, pred) -> int:
        return sum(k.copies for k in self.kinds if pred(k))
