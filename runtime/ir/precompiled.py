"""The compiled JSON of the bundled rule files, shipped beside them (`rules/compiled/`), so that loading a
bundled variant needs neither the compiler nor Lark, and takes a fraction of compiling it.

`rules/compiled/index.json` names, for each bundled rule file, the SHA-256 of the source it was compiled
from, with the format version of the compiled files. A compiled file is used only when its source's
hash and the format version match (`load_bundled`); anything else — a rule file edited since, another
format version, a missing or unreadable file — returns None and the caller compiles the source. The
files are written by `paili docs` in a source checkout, and `paili docs --check` fails when one is stale
(`dsl/precompile.py`); nothing writes them at run time.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from . import nodes as ir

RULES_DIR = Path(__file__).resolve().parent.parent.parent / "rules"
COMPILED_DIR = RULES_DIR / "compiled"
INDEX = COMPILED_DIR / "index.json"
INDEX_FORMAT = "paili-compiled-rules"


def source_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_index() -> dict:
    """{stem: source hash} of the shipped compiled files of this format version ({} if none)."""
    try:
        doc = json.loads(INDEX.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(doc, dict) or doc.get("format") != INDEX_FORMAT or doc.get("version") != ir.VERSION:
        return {}
    sources = doc.get("sources")
    return {k: v for k, v in sources.items() if isinstance(v, str)} if isinstance(sources, dict) else {}


def bundled_stem(path: Path) -> str | None:
    """The stem of a bundled rule file (rules/<stem>.pai of this package), or None for any other file."""
    try:
        if path.suffix == ".pai" and path.resolve().parent == RULES_DIR:
            return path.stem
    except OSError:
        pass
    return None


def load_bundled(path: Path) -> ir.RuleSet | None:
    """The shipped compiled rule set of a bundled rule file when it was compiled from the source as it is
    now, in this format version (validated on load like any compiled file); None otherwise."""
    got = load_bundled_text(path)
    return None if got is None else got[0]


def load_bundled_text(path: Path) -> tuple[ir.RuleSet, str] | None:
    """`load_bundled` with the compiled file's text, which is the rule set's JSON as `Rules` hands it to
    the native core (`Rules(rs, backend, text)`: not written out again)."""
    from .serialize import FormatError, loads

    stem = bundled_stem(path)
    if stem is None:
        return None
    want = read_index().get(stem)
    try:
        if want is None or source_hash(path.read_bytes()) != want:
            return None
        text = (COMPILED_DIR / f"{stem}.json").read_text(encoding="utf-8")
        return loads(text), text
    except (OSError, UnicodeDecodeError, FormatError):
        return None
