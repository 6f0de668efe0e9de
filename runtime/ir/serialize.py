"""Versioned JSON for compiled rule sets: `{"format": "paili-ruleset", "version": 2, "ruleset": …}`.

Every IR node is written as an object with its class under "_"; sequences are lists and load back
as tuples; spans are compact lists (a field named `span` or `…_span` holds one, `…_spans` a tuple of
them). Loading needs only the standard library and this package (runtime/ir/: no Lark, no compiler).

A loaded file is data from anyone: before anything reads it, it is validated against the format's JSON
Schema (`runtime/ir/schema/ruleset-v2.schema.json`, made by `dsl/ruleset_schema.py`, checked by the small
validator of `runtime/ir/jsonvalidate.py`), and the rebuilt rule set goes through the semantic passes
that need no source (`runtime/ir/check.py`). A bad file is refused with one sentence naming the JSON path.
"""
from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

from .. import limits as L
from . import expr as E
from . import nodes as ir
from .span import Span

_CLASSES: dict[str, type] = {}
for _mod in (ir, E):
    for _name in dir(_mod):
        _obj = getattr(_mod, _name)
        if isinstance(_obj, type) and dataclasses.is_dataclass(_obj):
            _CLASSES[_name] = _obj


class FormatError(ValueError):
    pass


SCHEMA_FILE = Path(__file__).parent / "schema" / f"ruleset-v{ir.VERSION}.schema.json"
_SCHEMA: dict | None = None


def schema() -> dict:
    """The shipped JSON Schema of the format (read once)."""
    global _SCHEMA
    if _SCHEMA is None:
        _SCHEMA = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return _SCHEMA


def _no_constant(name: str):
    raise FormatError(f"not JSON: {name} is not a JSON number")


def to_data(obj: Any) -> Any:
    # A compiled rule set carries no path of the machine that built it: source files by their name only.
    if isinstance(obj, Span):
        return [_file_name(obj.file), obj.line, obj.col, obj.end_line, obj.end_col]
    if isinstance(obj, ir.RuleSet) and obj.source:
        obj = dataclasses.replace(obj, source=_file_name(obj.source))
    if dataclasses.is_dataclass(obj):
        out: dict[str, Any] = {"_": type(obj).__name__}
        for f in dataclasses.fields(obj):
            v = getattr(obj, f.name)
            if f.default is not dataclasses.MISSING and v == f.default and f.name != "span":
                continue  # defaults are implied; keeps the JSON small and readable
            out[f.name] = to_data(v)
        return out
    if isinstance(obj, (tuple, list)):
        return [to_data(x) for x in obj]
    return obj


def _file_name(path: str) -> str:
    return path.replace("\\", "/").rsplit("/", 1)[-1]


def _class_of(cls_name: Any):
    """The IR class a node names (`_`), or a FormatError naming what it named."""
    cls = _CLASSES.get(cls_name) if isinstance(cls_name, str) else None
    if cls is None:
        raise FormatError(f"unknown node type {cls_name!r}")
    return cls


def _made(cls, cls_name: str, kwargs: dict) -> Any:
    """The node built from its fields; fields the class does not take are a FormatError."""
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise FormatError(f"bad {cls_name}: {exc}") from None


def from_data(data: Any, key: str = "") -> Any:
    if isinstance(data, dict):
        cls_name = data.get("_")
        cls = _class_of(cls_name or "")
        kwargs = {}
        for k, v in data.items():
            if k == "_":
                continue
            if k == "span" or k.endswith("_span"):
                kwargs[k] = _span(v)
            elif k.endswith("_spans") and isinstance(v, list):
                kwargs[k] = tuple(_span(x) for x in v)
            else:
                kwargs[k] = from_data(v, k)
        return _made(cls, cls_name, kwargs)
    if isinstance(data, list):
        return tuple(from_data(x) for x in data)
    return data


def _tuples(v: list) -> tuple:
    return tuple([_tuples(x) if type(x) is list else x for x in v])


def _node(data: dict) -> Any:
    """`from_data` of one object whose values are already read (the JSON reader's `object_hook`: nodes
    are made as the text is read, innermost first, with no second walk over the parsed document). An
    object without a class (the document's own) is left as it is."""
    cls_name = data.get("_")
    if cls_name is None:
        return data
    cls = _class_of(cls_name)
    kwargs = {}
    for k, v in data.items():
        if k == "_":
            continue
        if k == "span" or k.endswith("_span"):
            kwargs[k] = _span(v)
        elif type(v) is list:
            kwargs[k] = tuple(_span(x) for x in v) if k.endswith("_spans") else _tuples(v)
        else:
            kwargs[k] = v
    return _made(cls, cls_name, kwargs)


def _read_verified(text: str) -> ir.RuleSet | None:
    """A verified text's rule set read in one pass (`_node`), or None when anything is unexpected (the
    full reading then says what)."""
    try:
        doc = json.loads(text, parse_constant=_no_constant, object_hook=_node)
    except (ValueError, RecursionError):  # FormatError included: the full reading gives the sentence
        return None
    if not isinstance(doc, dict) or doc.get("format") != ir.FORMAT or doc.get("version") != ir.VERSION:
        return None
    rs = doc.get("ruleset")
    return rs if isinstance(rs, ir.RuleSet) else None


def _span(v) -> Span:
    if not (isinstance(v, list) and len(v) == 5):
        raise FormatError("bad span")
    return Span(*v)


def dumps(rs: ir.RuleSet) -> str:
    doc = {"format": ir.FORMAT, "version": ir.VERSION, "ruleset": to_data(rs)}
    return json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=False) + "\n"


def _too_large(size: int) -> FormatError:
    return FormatError(f"the rule set is {size:,} bytes; a compiled rule set has at most "
                       f"{L.MAX_RULESET_JSON_BYTES:,}")


def read_text(path: str | Path) -> str:
    """A compiled rule set's JSON text from a file, refused before it is read when it is over the size
    limit (FormatError; OSError and UnicodeDecodeError as reading gives them)."""
    p = Path(path)
    size = p.stat().st_size
    if size > L.MAX_RULESET_JSON_BYTES:
        raise _too_large(size)
    return p.read_text(encoding="utf-8")


def loads(text: str, semantic: bool = True, verified: bool = False) -> ir.RuleSet:
    """A compiled rule set from its JSON text, validated (FormatError with one sentence otherwise).
    `semantic=False` skips the checker's passes (only for text this process wrote itself); `verified=True`
    skips the schema and the checker both, for a text recorded as having passed them in full (only a
    bundled variant's shipped file whose SHA-256 its index records so: runtime/ir/precompiled.py)."""
    if len(text) * 4 > L.MAX_RULESET_JSON_BYTES:  # (a character is at most 4 bytes of UTF-8)
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > L.MAX_RULESET_JSON_BYTES:
            raise _too_large(size)
    if verified:  # nothing to validate: the nodes are made as the text is read (a start-up's IR, faster)
        rs = _read_verified(text)
        if rs is not None:
            return rs
    try:
        doc = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise FormatError("not JSON this paili reads: nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, and integers too long to convert
        raise FormatError(f"not JSON: {str(exc)[:200]}") from None
    if not isinstance(doc, dict) or doc.get("format") != ir.FORMAT:
        raise FormatError("not a paili rule set (missing \"format\": \"paili-ruleset\")")
    if doc.get("version") != ir.VERSION:
        raise FormatError(f"rule set format version {str(doc.get('version'))[:20]} is not supported (this paili "
                          f"reads version {ir.VERSION}); recompile it with `paili compile`")
    if not verified:  # (the validator is imported only here: a verified text never needs it)
        from .jsonvalidate import SchemaError, validate

        try:
            validate(doc, schema())
        except SchemaError as exc:
            raise FormatError(short_path(str(exc))) from None
        except RecursionError:
            raise FormatError("the rule set is nested too deeply") from None
    try:
        rs = from_data(doc.get("ruleset"))
    except RecursionError:
        raise FormatError("the rule set is nested too deeply") from None
    if not isinstance(rs, ir.RuleSet):
        raise FormatError("the rule set is malformed")
    if semantic and not verified:
        from .check import check

        try:
            problem = check(rs)
        except RecursionError:
            problem = "the rule set is nested too deeply"
        if problem:
            raise FormatError(short_path(problem))
    return rs


_STEP = re.compile(r"\.[^.\[\]:\s]+|\[\d+\]")


def short_path(message: str) -> str:
    """A message that starts with a JSON path, the path written shortly: a run of one to three steps
    repeated (a tree nested deep, `.operand.operand…`) once with its count, `(.operand × 58)`, and a path
    still longer than 200 characters cut in its middle, so that the sentence stays one short line."""
    path, sep, rest = message.partition(": ")
    if not sep or not path.startswith("ruleset") or len(path) <= 80:
        return message
    steps = _STEP.findall(path[len("ruleset"):])
    if "ruleset" + "".join(steps) != path:
        return message  # not a path of this format's steps: left as it is
    out, i = ["ruleset"], 0
    while i < len(steps):
        for n in (1, 2, 3):
            seq = steps[i:i + n]
            reps = 1
            while steps[i + reps * n:i + (reps + 1) * n] == seq:
                reps += 1
            if reps >= 3 and reps * n >= 4:
                out.append(f"({''.join(seq)} × {reps})")
                i += reps * n
                break
        else:
            out.append(steps[i])
            i += 1
    short = "".join(out)
    if len(short) > 200:
        short = short[:100] + "…" + short[-99:]
    return f"{short}{sep}{rest}"
