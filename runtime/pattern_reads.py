"""What a pattern reads, for the generated scorer (runtime/fastscore.py): the patterns and units it reads
(directly or through quantities), the order that counts each pattern after those it reads, and which
patterns can count differently when only the winning tile's placement changes.
"""
from __future__ import annotations

from .fastscore_names import WIN_FIELDS, WIN_REFS
from .ir import expr as E
from .ir import nodes as ir

# the builtins that are a group or a list of groups, compared by identity
GROUP_REFS = frozenset(f"builtin:{b}" for b in ("pair", "melds", "groups", "pairs", "runs", "triplets", "kongs",
                                                 "exposed"))


def names_read(p: ir.Pattern, category: str, index: dict[str, int], quantities: dict) -> set[int]:
    """Indexes (by `index`) of the names of `category` that p reads, directly or through quantities."""
    seen_q: set[str] = set()
    out: set[int] = set()

    def walk(e):
        for n in E.walk(e) if e is not None else ():
            if isinstance(n, E.Name):
                cat, _, name = n.ref.partition(":")
                if cat == category and name in index:
                    out.add(index[name])
                elif cat == "quantity" and name in quantities and name not in seen_q:
                    seen_q.add(name)
                    walk(quantities[name].expr)
    for e in (p.when, p.count, p.enabled):
        walk(e)
    return out


def after_what_they_read(deps: list[set[int]]) -> list[int]:
    """Every index in declaration order, each after the indexes it reads (`deps[i]`); ValueError when two
    read each other."""
    done: list[int] = []
    state = [0] * len(deps)

    def visit(i):
        if state[i] == 2:
            return
        if state[i] == 1:
            raise ValueError("patterns that read each other")
        state[i] = 1
        for j in sorted(deps[i]):
            visit(j)
        state[i] = 2
        done.append(i)
    for i in range(len(deps)):
        visit(i)
    return done


def by_identity(e: E.Expr) -> bool:
    """A comparison operand that may be a group itself or a list of groups (compared by identity): a
    binder, the pair or a group list, not a field of one."""
    return isinstance(e, E.Name) and (e.ref.startswith("binder:") or e.ref in GROUP_REFS)


def win_bound(patterns: list[ir.Pattern], deps: list[set[int]]) -> list[bool]:
    """Per pattern: whether its count can differ between two readings of one split that place the
    winning tile in different groups. Those readings differ only in the winning tile, the group
    it completes, and that group's `has_win` and `concealed`; a pattern reading none of these (nor
    a pattern or quantity that does) counts the same in both."""
    direct = []
    for p in patterns:
        hit = False
        for e in (p.when, p.count, p.enabled):
            for n in E.walk(e) if e is not None else ():
                if isinstance(n, E.Name) and n.ref in WIN_REFS:
                    hit = True
                elif isinstance(n, E.Attr) and n.name in WIN_FIELDS:
                    hit = True
                elif isinstance(n, E.Name) and n.ref.startswith(("quantity:", "unit:")):
                    hit = True  # conservative: quantities and units read many things
                elif isinstance(n, E.Compare) and any(by_identity(o) for o in n.operands) \
                        and not any(isinstance(o, E.NoneLit) for o in n.operands):
                    # groups compare by identity, and the group holding the winning tile is another
                    # object in each reading of the split (`a == b` over two equal melds)
                    hit = True
        direct.append(hit)
    out = list(direct)
    changed = True
    while changed:
        changed = False
        for i, d in enumerate(deps):
            if not out[i] and any(out[j] for j in d):
                out[i] = changed = True
    return out
