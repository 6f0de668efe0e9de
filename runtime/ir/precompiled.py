"""The compiled JSON of the bundled rule files, shipped beside them (`rules/compiled/`), so that loading a
bundled variant needs neither the compiler nor Lark, and takes a fraction of compiling it.

`rules/compiled/index.json` names, for each bundled rule file, the SHA-256 of the source it was compiled
from, with the format version of the compiled files. A compiled file is used only when its source's
hash and the format version match (`load_bundled`); anything else — a rule file edited since, another
format version, a missing or unreadable file — returns None and the caller compiles the source. The
files are written by `paili docs` in a source checkout, and `paili docs --check` fails when one is stale
(`dsl/precompile.py`); nothing writes them at run time.

Validating a compiled file in full (its schema and the checker's passes: `serialize.loads`) takes longer
than everything else a one-hand command does, and gives the same answer each time for the same bytes. So
`paili docs` records, under `validated`, the SHA-256 of each compiled file it has validated in full; a
shipped file whose bytes have that hash is loaded without validating it again (`loads(verified=True)`),
any other — edited, or not recorded — is validated in full as before. This covers only the package's own
files, found by a bundled variant's name, which are as trusted as its code: a .json file given by path is
always validated in full (dsl/cli_args.py, runtime/rules.py `load`).
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


def _index() -> dict:
    try:
        doc = json.loads(INDEX.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(doc, dict) or doc.get("format") != INDEX_FORMAT or doc.get("version") != ir.VERSION:
        return {}
    return doc


def _hashes(doc: dict, key: str) -> dict:
    got = doc.get(key)
    return {k: v for k, v in got.items() if isinstance(v, str)} if isinstance(got, dict) else {}


def read_index() -> dict:
    """{stem: source hash} of the shipped compiled files of this format version ({} if none)."""
    return _hashes(_index(), "sources")


def read_validated() -> dict:
    """{stem: SHA-256 of the compiled file} of the shipped files `paili docs` validated in full."""
    return _hashes(_index(), "validated")


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
    doc = _index()
    want = _hashes(doc, "sources").get(stem)
    try:
        if want is None or source_hash(path.read_bytes()) != want:
            return None
        data = (COMPILED_DIR / f"{stem}.json").read_bytes()
        text = data.decode("utf-8")
        verified = _hashes(doc, "validated").get(stem) == source_hash(data)
        return loads(text, verified=verified), text
    except (OSError, UnicodeDecodeError, FormatError):
        return None
