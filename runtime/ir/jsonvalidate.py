"""A small JSON Schema validator (the subset `dsl/ruleset_schema.py` writes), standard library only.

A game server loads compiled rule sets without the jsonschema package, so loading validates with this.
It understands: type, const, enum, pattern, maxLength, properties, required, additionalProperties
(false), items, prefixItems, minItems, maxItems, $ref (to #/$defs/…), anyOf and title (what a value is
called in a message). An `anyOf` of node definitions is decided by the object's "_" (its class), so an
error names the field that is wrong rather than every alternative. The first error is reported as one
sentence naming its JSON path: `ruleset.patterns[3].when.ops[0]: unknown operator '=== '`.
"""
from __future__ import annotations

import re
from typing import Any

from .describe import kind, short

_TYPE_WORDS = {"object": "an object", "array": "a list", "string": "text", "integer": "a whole number",
               "boolean": "true or false", "null": "null", "number": "a number"}


class SchemaError(ValueError):
    """The first place a document does not match its schema (the message names the JSON path)."""


def _is(v: Any, t: str) -> bool:
    if t == "object":
        return isinstance(v, dict)
    if t == "array":
        return isinstance(v, list)
    if t == "string":
        return isinstance(v, str)
    if t == "integer":
        return type(v) is int  # not bool, not 1.0: a seat, a count or a rank is written as an integer
    if t == "boolean":
        return type(v) is bool
    if t == "null":
        return v is None
    if t == "number":
        return type(v) in (int, float)
    raise ValueError(f"schema type {t!r} is not supported")


class Validator:
    def __init__(self, schema: dict):
        self.root = schema
        self._patterns: dict[str, re.Pattern] = {}

    def validate(self, doc: Any) -> None:
        self._check(doc, self.root, "")

    def _def(self, ref: str) -> dict:
        if not ref.startswith("#/$defs/"):
            raise ValueError(f"schema $ref {ref!r} is not supported")
        return self.root["$defs"][ref[len("#/$defs/"):]]

    def _node_alternatives(self, alts: list[dict]) -> dict[str, dict] | None:
        """For an anyOf of node definitions: class name -> definition (None if it is not one)."""
        out = {}
        for a in alts:
            if "$ref" not in a:
                return None
            d = self._def(a["$ref"])
            name = d.get("properties", {}).get("_", {}).get("const")
            if name is None:
                return None
            out[name] = d
        return out

    def _check(self, v: Any, s: dict, path: str) -> None:  # noqa: C901 - one branch per keyword
        where = path or "the file"
        if "$ref" in s:
            self._check(v, self._def(s["$ref"]), path)
            return
        if "anyOf" in s:
            self._any_of(v, s, path)
            return
        if "const" in s and v != s["const"]:
            raise SchemaError(f"{where}: expected {short(s['const'])}, got {short(v)}")
        if "enum" in s:
            if not isinstance(v, str) or v not in s["enum"]:
                raise SchemaError(f"{where}: unknown {s.get('title', 'word')} {short(v)}")
            return
        t = s.get("type")
        if t is not None:
            ts = t if isinstance(t, list) else [t]
            if not any(_is(v, x) for x in ts):
                want = " or ".join(_TYPE_WORDS.get(x, x) for x in ts)
                raise SchemaError(f"{where}: expected {want}, got {kind(v)}")
        if isinstance(v, str):
            if "maxLength" in s and len(v) > s["maxLength"]:
                raise SchemaError(f"{where}: {s.get('title', 'text')} too long ({len(v)} characters, at most "
                                  f"{s['maxLength']})")
            if "pattern" in s:
                pat = self._patterns.get(s["pattern"])
                if pat is None:
                    pat = self._patterns[s["pattern"]] = re.compile(s["pattern"])
                if not pat.search(v):
                    raise SchemaError(f"{where}: not a valid {s.get('title', 'value')}: {short(v)}")
        elif isinstance(v, list):
            prefix = s.get("prefixItems", [])
            if "minItems" in s and len(v) < s["minItems"] or "maxItems" in s and len(v) > s["maxItems"]:
                lo, hi = s.get("minItems"), s.get("maxItems")
                n = str(lo) if lo == hi else f"{lo or 0} to {hi}" if hi is not None else f"at least {lo}"
                raise SchemaError(f"{where}: expected {n} items, got {len(v)}")
            items = s.get("items", True)
            for i, x in enumerate(v):
                sub = prefix[i] if i < len(prefix) else items
                if sub is False:
                    raise SchemaError(f"{where}: expected at most {len(prefix)} items, got {len(v)}")
                if sub is not True:
                    self._check(x, sub, f"{path}[{i}]")
        elif isinstance(v, dict):
            props = s.get("properties", {})
            for k in s.get("required", ()):
                if k not in v:
                    raise SchemaError(f"{where}: missing field {short(k)}")
            for k, x in v.items():
                sub = props.get(k)
                if sub is None:
                    if s.get("additionalProperties", True) is False:
                        raise SchemaError(f"{where}: unknown field {short(k)}")
                    continue
                self._check(x, sub, f"{path}.{k}" if path else k)

    def _any_of(self, v: Any, s: dict, path: str) -> None:
        where = path or "the file"
        alts = s["anyOf"]
        if v is None and any(a.get("type") == "null" for a in alts):
            return
        alts = [a for a in alts if a.get("type") != "null"]
        if len(alts) == 1:
            self._check(v, alts[0], path)
            return
        nodes = self._node_alternatives(alts)
        if nodes is None:  # plain alternatives (none written by the rule set schema today): first that fits
            first = None
            for a in alts:
                try:
                    self._check(v, a, path)
                    return
                except SchemaError as exc:
                    first = first or exc
            raise first or SchemaError(f"{where}: no alternative fits")
        what = s.get("title", "node")
        if not isinstance(v, dict):
            raise SchemaError(f"{where}: expected {what} (an object with \"_\"), got {kind(v)}")
        cls = v.get("_")
        d = nodes.get(cls) if isinstance(cls, str) else None
        if d is None:
            raise SchemaError(f"{where}: unknown {what} node type {short(cls)}")
        self._check(v, d, path)


_CACHE: dict[int, Validator] = {}


def validate(doc: Any, schema: dict) -> None:
    val = _CACHE.get(id(schema))
    if val is None:
        val = _CACHE[id(schema)] = Validator(schema)
    val.validate(doc)
