"""The semantic checks of a rule set rebuilt from JSON (`runtime/ir/serialize.py` runs them).

A compiled rule set was checked when it was compiled, but the file may have been edited since (or
written by hand): after the schema (the shape of every value), this re-runs what can be re-run on a
resolved rule set — declarations and duplicates, cross references, cycles — and checks that every
resolved name refers to something the rule set declares (a builtin of the language, a binder of an
enclosing comprehension, a declared pattern, option, meld kind, …), and that every expression has the
types the compiler would have given it (`runtime/ir/typecheck.py`), and that no game rule reads the
winning reading or the score, or changes the winner's state, where there is none (`runtime/ir/places.py`).
Name resolution itself is not run again (its input is source text); the rule set's own examples and
warnings are the compiler's business.

The first error is one sentence naming the JSON path of the node it is about.
"""
from __future__ import annotations

import dataclasses

from .. import limits as L
from . import expr as E
from . import vocab as V
from .limitcheck import check_expressions, check_ruleset
from .passes import Findings, RuleSetPasses
from .places import check_places
from .span import Span
from .typecheck import first_mismatch

# Categories whose names the checker's symbol table holds: a reference to one must name a declared item.
_DECLARED = ("pattern", "quantity", "unit", "meld", "form", "suit", "tile", "reveal", "option", "context",
             "flowerclass", "table")
_BUILTINS = set(V.READING_BUILTINS) | set(V.GAME_BUILTINS) | {"t"}


def _walk(obj, path: str, spans: dict, out: list) -> None:
    """Every IR node with its JSON path (parents first); the first path of each span is remembered."""
    if isinstance(obj, Span):
        return
    if dataclasses.is_dataclass(obj):
        sp = getattr(obj, "span", None)
        if sp is not None and sp not in spans:
            spans[sp] = path
        out.append((obj, path))
        for f in dataclasses.fields(obj):
            v = getattr(obj, f.name)
            if isinstance(v, (tuple, list)) or dataclasses.is_dataclass(v):
                _walk(v, f"{path}.{f.name}", spans, out)
    elif isinstance(obj, (tuple, list)):
        for i, x in enumerate(obj):
            _walk(x, f"{path}[{i}]", spans, out)


def _names(e: E.Expr, path: str, bound: tuple[str, ...], out: list) -> None:
    """(Name, path, binders in scope) of every name of an expression."""
    if isinstance(e, E.Name):
        out.append((e, path, bound))
    inner = bound + tuple(e.binders) if isinstance(e, E.Comp) else bound  # a comprehension's binders: its body's
    for name, x in E.named_children(e):
        _names(x, f"{path}.{name}", inner if name == "body" else bound, out)


def check(rs) -> str | None:
    """The first semantic error of a loaded rule set as one sentence, or None."""
    spans: dict = {}
    nodes: list = []
    _walk(rs, "ruleset", spans, nodes)
    for node, path in nodes:
        if isinstance(node, E.Compare) and len(node.ops) != len(node.operands) - 1:
            return f"{path}: a comparison with {len(node.ops)} operators needs {len(node.ops) + 1} operands"
        if isinstance(node, E.Comp) and not node.binders:
            return f"{path}: a comprehension needs at least one binder"
        if isinstance(node, E.Call) and node.func in _ARITY and len(node.args) != _ARITY[node.func]:
            return f"{path}: `{node.func}` takes {_ARITY[node.func]} argument(s), got {len(node.args)}"
    # where a finding points: a node's own span object names its path (spans alike in value are told apart)
    paths = {id(n.span): p for n, p in reversed(nodes) if isinstance(getattr(n, "span", None), Span)}
    # the stated limits of depth, size and number literals, before any pass that recurses into expressions
    diags = Findings()
    if not check_expressions(rs, diags, point=_own_span):
        return _first_error(diags, paths, spans)
    ch = RuleSetPasses(rs, diags)
    ch.declare()
    ch.cross_refs()
    ch.cycles()
    problem = _first_error(diags, paths, spans)
    if problem:
        return problem
    declared = ch.sym.by_category
    sym = ch.sym
    # every field a value of the language can have (tiles, melds, seats, the table, declared attributes):
    # a field outside them has no value anywhere, so it can only be a mistake (or an edit of the file)
    fields = (set(V.TILE_FIELDS) | set(V.MELD_FIELDS) | set(V.SEAT_BUILTIN_FIELDS) | set(sym.tile_attrs)
              | set(sym.player_fields) | set(sym.table_fields) | {a for s in rs.tiles.suits for a in s.attrs}
              | {a for k in rs.tiles.kinds for a in k.attrs} | {m.name for m in rs.melds})
    for obj, path in nodes:  # a number or a condition of a declaration is not written as a tile, text or list
        for fname in _SETUP_SLOTS.get(type(obj).__name__, ()):
            e = getattr(obj, fname, None)
            if isinstance(e, _NOT_IN_SETUP):
                return f"{path}.{fname}: a {type(e).__name__} cannot be this number or condition"
    sizes = _size_problem(rs)
    if sizes:
        return sizes
    for node, path in nodes:
        if isinstance(node, E.Attr) and isinstance(node.obj, (E.Num, E.Str, E.Bool, E.NoneLit, E.ListLit)):
            return f"{path}.obj: a {type(node.obj).__name__} has no fields"
        if isinstance(node, E.Attr) and node.name not in fields:
            return f"{path}.name: no value of the language has the field {node.name[:40]!r}"
    roots = [(n, p) for n, p in nodes if isinstance(n, E.Expr)]
    inner = {id(x) for n, _ in roots for x in E.walk(n) if x is not n}
    for node, path in roots:
        if id(node) in inner:
            continue  # reached through its root expression (with the binders in scope there)
        found: list = []
        _names(node, path, (), found)
        for name, npath, bound in found:
            cat, sep, what = name.ref.partition(":")
            if not sep:
                continue  # an unresolved name (an example's expected pattern list): data, never evaluated as a name
            if cat == "builtin" and what not in _scope_builtins(npath):
                return f"{npath}.ref: unknown builtin {what[:40]!r} (or not one of this place)"
            if cat == "binder" and what not in bound:
                return f"{npath}.ref: {what[:40]!r} is not bound by an enclosing comprehension"
            if cat in _DECLARED and what not in declared.get(cat, {}):
                return f"{npath}.ref: the rule set declares no {cat} {what[:40]!r}"
    # every name refers to something declared: now the types, as the compiler infers them
    problem = first_mismatch(rs, sym, [(n, p) for n, p in roots if id(n) not in inner])
    if problem:
        return problem
    # what each game rule's place can see, the winning reading and the score (E510), and which seats its
    # effects can change there (E511), as the compiler checks them (runtime/ir/places.py)
    check_places(rs, diags)
    problem = _first_error(diags, paths, spans)
    if problem:
        return problem
    # and the limits that need a checked rule set (arithmetic, work per reading, tiles, table, wildcards)
    check_ruleset(rs, diags, point=_own_span)
    return _first_error(diags, paths, spans)


def _own_span(span: Span) -> Span:
    return span


def _first_error(diags: Findings, paths: dict, spans: dict) -> str | None:
    """The first error found, as one sentence naming the JSON path of the node it is about."""
    errors = [d for d in diags.items if d.code.startswith("E")]
    if not errors:
        return None
    d = errors[0]
    where = paths.get(id(d.span)) or spans.get(d.span, "ruleset")
    msg = " ".join(d.message.split())  # one line, however the names in it are written
    if len(msg) > 160:
        msg = msg[:157] + "…"
    return f"{where}: {msg} ({d.code})"


def _const_int(e) -> int | None:
    if isinstance(e, E.Num) and e.text.isdigit() and len(e.text) <= L.MAX_NUMBER_DIGITS:
        return int(e.text)
    return None


def _size_problem(rs) -> str | None:
    """The compiler's size limits of the tiles and the table (E706, runtime/limits.py) on constants."""
    t = rs.tiles
    if len(t.kinds) > L.MAX_KINDS:
        return f"ruleset.tiles.kinds: {len(t.kinds)} tile kinds; the limit is {L.MAX_KINDS}"
    for where, items in (("suits", t.suits), ("kinds", t.kinds)):
        for i, x in enumerate(items):
            c = _const_int(x.copies)
            if isinstance(x.copies, E.Num) and (c is None or c > L.MAX_COPIES):
                return f"ruleset.tiles.{where}[{i}].copies: a tile kind has at most {L.MAX_COPIES} copies"
    players = _const_int(rs.table.players)
    if isinstance(rs.table.players, E.Num) and (players is None or players > L.MAX_TABLE_SIZE):
        return f"ruleset.table.players: at most {L.MAX_TABLE_SIZE} players"
    if not 0 < rs.table.hand <= L.MAX_TABLE_SIZE:
        return f"ruleset.table.hand: a hand of 1 to {L.MAX_TABLE_SIZE} tiles"
    return None


# Declaration fields the compiler types as a number or a condition of the setup scope (dsl/checker.py).
_SETUP_SLOTS = {"Suit": ("copies", "enabled"), "TileKind": ("copies", "enabled"), "Table": ("players",),
                "Fee": ("rate",), "Task": ("factor",)}
_NOT_IN_SETUP = (E.TileLit, E.Str, E.ListLit, E.NoneLit)

_READING_PLACES = ("ruleset.patterns", "ruleset.quantities", "ruleset.requires", "ruleset.score", "ruleset.forms",
                   "ruleset.combines", "ruleset.units")


def _scope_builtins(path: str) -> set[str]:
    """The builtins an expression at this JSON path may read (the checker's scopes, dsl/resolve.py): a
    tile attribute only `t`, the tile and setting declarations none, the reading rules the reading's."""
    if path.startswith("ruleset.tiles.attrs"):
        return {"t"}
    if path.startswith(("ruleset.tiles", "ruleset.settings")):
        return set()
    if path.startswith(_READING_PLACES) and ".examples[" not in path and ".counterexamples[" not in path:
        return set(V.READING_BUILTINS)
    return _BUILTINS


# Functions of a fixed number of arguments (the checker's signatures, dsl/resolve.py FUNC_SIGS).
_ARITY = {"len": 1, "distinct": 1, "abs": 1, "floor": 1, "max": 2, "min": 2, "cn": 1, "visible_count": 1,
          "next": 1, "after": 2, "held": 2, "waits_without": 2, "group_waits_without": 2, "best_score": 2,
          "best_fans": 2, "best_tile": 2}
