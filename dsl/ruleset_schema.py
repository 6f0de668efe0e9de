"""The JSON Schema of the compiled rule set format (`paili compile`), made from the IR's own classes.

The schema is shipped as package data beside its loader (`runtime/ir/schema/ruleset-v2.schema.json`);
a test compares it with what this module makes, so the file and the IR cannot drift apart. Every
node is an object whose class is under "_" and whose fields are the dataclass's fields (no others);
every field's JSON type follows its annotation; the closed vocabularies of the language (operators,
functions, comprehensions, the words of `vocab.py`) are enums, and numbers and references have the
shape the compiler writes. Loading (`runtime/ir/serialize.py`) validates a file against this schema with
the small validator of `runtime/ir/jsonvalidate.py` (the runtime needs no jsonschema package).
"""
from __future__ import annotations

import dataclasses
import json
import types
import typing

from ..runtime.ir import expr as E
from ..runtime.ir import nodes as ir
from ..runtime.ir import vocab as V
from ..runtime.ir.serialize import SCHEMA_FILE
from ..runtime.ir.span import Span

SCHEMA_PATH = SCHEMA_FILE  # shipped beside the loader that reads it (runtime/ir/schema/)

# The categories a resolved name's `ref` may have (`pattern:…`, `builtin:…`; "" when not resolved).
REF_CATEGORIES = ("action", "binder", "builtin", "combine", "context", "example", "flowerclass", "form",
                  "meld", "option", "pattern", "payment", "phase", "quantity", "require", "reveal", "state",
                  "suit", "table", "task", "tile", "unit", "wild", "player")
# Longest decimal text of a number literal: Python refuses to convert longer integers to int, and no
# rule needs one (another limit may be stricter; see docs/language.md).
NUM_MAX_LEN = 4000

# Closed vocabularies per (class, field): the words the compiler can write there.
WORDS: dict[tuple[str, str], tuple[str, ...]] = {
    ("Compare", "ops"): ("==", "!=", "<", "<=", ">", ">=", "in", "not in"),
    ("Binary", "op"): ("and", "or", "+", "-", "*", "/", "//", "%", "^"),
    ("Unary", "op"): ("not", "-"),
    ("Comp", "func"): E.COMPREHENSIONS,
    ("Call", "func"): V.FUNCTIONS,
    ("Setting", "role"): ("option", "context"),
    ("Setting", "type"): V.SETTING_TYPES,
    ("StateVar", "type"): V.STATE_TYPES,
    ("StateVar", "scope"): V.SCOPES,
    ("Phase", "scope"): V.SCOPES,
    ("Shape", "kind"): V.SHAPE_KINDS,
    ("Unit", "combine"): V.UNIT_COMBINE,
    ("Combine", "rule"): V.COMBINE_RULES,
    ("Table", "first_dealer"): V.FIRST_DEALER,
    ("Table", "rotation"): V.ROTATION,
    ("Table", "replacement"): V.WALL_ENDS,
    ("Wild", "scope"): V.WILD_SCOPES,
    ("Reveal", "at"): V.REVEAL_AT,
    ("Effect", "op"): V.EFFECT_OPS,
    ("Action", "by"): V.WHO,
    ("Action", "then"): V.THEN,
    ("Action", "grow"): V.GROW,
    ("Action", "order"): V.ORDER,
    ("Observe", "what"): V.OBSERVE_WHAT,
    ("Cap", "of"): V.CAP_OF,
    ("TileKind", "category"): ("suited", "honor", "flower", "joker"),
    ("Payment", "payer"): V.PAYERS,
    ("Payment", "payee"): V.PAYEES,
}
# What a word of each field is called in an error message (`unknown operator '…'`).
WHAT = {("Compare", "ops"): "operator", ("Binary", "op"): "operator", ("Unary", "op"): "operator",
        ("Comp", "func"): "comprehension", ("Call", "func"): "function"}


def _classes() -> dict[str, type]:
    out: dict[str, type] = {}
    for mod in (ir, E):
        for name in dir(mod):
            obj = getattr(mod, name)
            if isinstance(obj, type) and dataclasses.is_dataclass(obj) and obj.__module__ == mod.__name__:
                out[name] = obj
    return out


def _expr_classes(classes: dict[str, type]) -> list[str]:
    return sorted(n for n, c in classes.items() if issubclass(c, E.Expr) and c is not E.Expr)


def _type_schema(t, owner: str, fname: str, classes: dict[str, type]) -> dict:  # noqa: C901 - one case per form
    origin = typing.get_origin(t)
    args = typing.get_args(t)
    if origin in (typing.Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        inner = [_type_schema(a, owner, fname, classes) for a in rest]
        if len(rest) < len(args):
            inner.append({"type": "null"})
        return inner[0] if len(inner) == 1 else {"anyOf": inner}
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": _type_schema(args[0], owner, fname, classes)}
        return {"type": "array", "prefixItems": [_type_schema(a, owner, fname, classes) for a in args],
                "items": False, "minItems": len(args), "maxItems": len(args)}
    if t is Span:
        return {"$ref": "#/$defs/span"}
    if t is E.Expr:
        return {"$ref": "#/$defs/Expr"}
    if isinstance(t, type) and t.__name__ in classes:
        return {"$ref": f"#/$defs/{t.__name__}"}
    if t is bool:
        return {"type": "boolean"}
    if t is int:
        return {"type": "integer"}
    if t is str:
        words = WORDS.get((owner, fname))
        if words is not None:
            out = {"enum": list(words)}
            if (owner, fname) in WHAT:
                out["title"] = WHAT[(owner, fname)]
            return out
        if (owner, fname) == ("Num", "text"):
            return {"type": "string", "pattern": r"^[0-9]+(\.[0-9]+)?$", "maxLength": NUM_MAX_LEN,
                    "title": "number"}
        if (owner, fname) == ("Name", "ref"):
            return {"type": "string", "pattern": "^$|^(" + "|".join(REF_CATEGORIES) + "):", "title": "reference"}
        return {"type": "string"}
    raise TypeError(f"no JSON form for {owner}.{fname}: {t!r}")


def build_schema() -> dict:
    classes = _classes()
    defs: dict[str, dict] = {
        "span": {"type": "array", "prefixItems": [{"type": "string"}] + [{"type": "integer"}] * 4,
                 "items": False, "minItems": 5, "maxItems": 5, "title": "span [file, line, col, end_line, end_col]"},
        "Expr": {"anyOf": [{"$ref": f"#/$defs/{n}"} for n in _expr_classes(classes)], "title": "expression"},
    }
    for name in sorted(classes):
        cls = classes[name]
        if cls is E.Expr or cls is ir.Node:
            continue
        hints = typing.get_type_hints(cls, vars(ir) | vars(E) | {"Span": Span})
        props: dict[str, dict] = {"_": {"const": name}}
        required = ["_"]
        for f in dataclasses.fields(cls):
            props[f.name] = _type_schema(hints[f.name], name, f.name, classes)
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                required.append(f.name)
        defs[name] = {"type": "object", "properties": props, "required": required, "additionalProperties": False}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://paili.invalid/schema/ruleset-v{ir.VERSION}.schema.json",
        "title": f"paili compiled rule set, format version {ir.VERSION}",
        "description": "Written by `paili compile`; loaded by runtime.rules.load and runtime.ir.serialize.loads, which "
                       "validate a file against this schema before anything else reads it.",
        "type": "object",
        "properties": {
            "format": {"const": ir.FORMAT},
            "version": {"const": ir.VERSION},
            "ruleset": {"$ref": "#/$defs/RuleSet"},
        },
        "required": ["format", "version", "ruleset"],
        "additionalProperties": False,
        "$defs": defs,
    }


def schema_text() -> str:
    return json.dumps(build_schema(), ensure_ascii=False, indent=1, sort_keys=True) + "\n"


if __name__ == "__main__":  # python -m paili.dsl.ruleset_schema: rewrite the shipped file
    SCHEMA_PATH.parent.mkdir(exist_ok=True)
    SCHEMA_PATH.write_text(schema_text(), encoding="utf-8")
    print(f"wrote {SCHEMA_PATH}")
