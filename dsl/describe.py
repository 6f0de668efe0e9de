"""A rule set described as data: what `paili describe --json` prints and the service's
GET /api/variants/{variant} answers (the names `--set` and the API's `set` take, room options with
their defaults, the patterns)."""
from __future__ import annotations


def describe_json(rules) -> dict:
    from ..runtime.evaluate import compile_expr
    from ..runtime.result import plain_value

    rs = rules.ir
    env = {"tile-lookup": lambda n: n}
    return {
        "variant": rs.variant.id, "title": rs.variant.title,
        "options": [{"name": s.name, "type": s.type, "default": plain_value(compile_expr(s.default)(env))}
                    for s in rs.settings if s.role == "option"],
        "context": [{"name": s.name, "type": s.type, "default": plain_value(compile_expr(s.default)(env))}
                    for s in rs.settings if s.role == "context"] + [{"name": r.name, "type": "tile",
                                                                    "default": None} for r in rs.reveals],
        "patterns": [{"name": p.name, "unit": p.unit} for p in rs.patterns],
        "exhaust_word": rs.table.exhaust_word,  # the variant's word for a drawn hand (`table { exhaust_word }`)
        "seat_names": list(rs.table.seat_names),  # the seats' names from the dealer on (`table { seat_names }`)
    }
