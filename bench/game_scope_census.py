"""What game-scope expressions of the bundled rule sets read: the census the native engine's game-scope
lowering is planned from (docs/engine-native.md, "Where game-scope expressions are evaluated").

    python bench/game_scope_census.py [--json]

Every expression of the game half of each rule set (actions, hooks, restrictions, phases, payments, the
table, reveals, tasks, fees, observations, states) is walked; each name is listed by what it denotes
(a built-in by name, the others by category: `option:*`, `pattern:*`, …), each call and comprehension by
function, each field by what it is read from (a seat bound by a built-in such as `actor`, or the tile),
each operator — with the rule sets that use it.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections import defaultdict
from pathlib import Path

from paili import load
from paili.runtime.ir import expr as E

ROOT = Path(__file__).resolve().parent.parent
FILES = [*sorted((ROOT / "rules").glob("*.pai")), ROOT / "bench/rules/joker.pai"]
GAME_SECTIONS = ("actions", "hooks", "restricts", "phases", "payments", "table", "reveals", "tasks", "fees",
                 "observes", "states")
NOT_SEATS = ("builtin:tile", "builtin:table", "builtin:choice")  # built-ins whose fields are not a seat's


def expressions(node, out: list) -> None:
    if isinstance(node, E.Expr):
        out.append(node)
    elif dataclasses.is_dataclass(node):
        for f in dataclasses.fields(node):
            expressions(getattr(node, f.name), out)
    elif isinstance(node, (list, tuple)):
        for x in node:
            expressions(x, out)


def census() -> dict[str, dict[str, list[str]]]:
    use: dict[str, dict[str, set]] = defaultdict(lambda: defaultdict(set))
    for path in FILES:
        rs = load(path).ir
        variant = path.stem
        found: list = []
        for section in GAME_SECTIONS:
            expressions(getattr(rs, section), found)
        for e in found:
            for n in E.walk(e):
                if isinstance(n, E.Name):
                    cat = n.ref.split(":")[0]
                    use["names"][n.ref if cat == "builtin" else f"{cat}:*"].add(variant)
                elif isinstance(n, E.Call):
                    use["calls"][n.func].add(variant)
                elif isinstance(n, E.Comp):
                    use["comprehensions"][n.func].add(variant)
                elif isinstance(n, E.Attr) and isinstance(n.obj, E.Name):
                    if n.obj.ref == "builtin:tile":
                        use["tile fields"][n.name].add(variant)
                    elif n.obj.ref.startswith("builtin:") and n.obj.ref not in NOT_SEATS:
                        use["seat fields"][n.name].add(variant)
                elif isinstance(n, (E.Binary, E.Unary)):
                    use["operators"][n.op].add(variant)
    return {k: {name: sorted(v) for name, v in sorted(d.items())} for k, d in use.items()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    c = census()
    if args.json:
        print(json.dumps(c, ensure_ascii=False, indent=1))
        return 0
    for kind, names in c.items():
        print(f"{kind}:")
        for name, variants in names.items():
            print(f"  {name}: {', '.join(variants)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
