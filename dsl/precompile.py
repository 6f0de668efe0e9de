"""Writes and checks the compiled JSON of the bundled rule files that ships beside them (`rules/compiled/`,
read by `runtime/ir/precompiled.py`): one `<stem>.json` per bundled rule file, as `paili compile` writes
it, and `index.json` with the SHA-256 of each source and the format version, and under `validated` the
SHA-256 of each compiled file that passed the loader's full validation here (the loader then skips it for
those very bytes: runtime/ir/precompiled.py).

`paili docs` refreshes them in a source checkout (the package root holds pyproject.toml); an installed
package is never written to. `paili docs --check` lists every file that is missing, differs from what the
compiler gives now (the source or the compiler changed) or is left over, so a stale compiled file cannot
land. A stale one in an installed package is harmless anyway: its hash does not match, so the source is
compiled.
"""
from __future__ import annotations

import json
from pathlib import Path

from ..runtime.batchrecord import dumps_setup, record
from ..runtime.batchsetup import INDEX_KEY, SETUP_SUFFIX, sha
from ..runtime.ir import nodes as ir
from ..runtime.ir.precompiled import COMPILED_DIR, INDEX, INDEX_FORMAT, source_hash
from .cli_args import ROOT, bundled_rules


def expected() -> dict[Path, str]:
    """{path: text} of every file rules/compiled/ should hold (a file that does not compile is left out:
    its own error is reported by the pages)."""
    from ..runtime.ir.serialize import FormatError, dumps, loads
    from .compiler import compile_file

    out: dict[Path, str] = {}
    sources: dict[str, str] = {}
    validated: dict[str, str] = {}
    for f in bundled_rules():
        res = compile_file(f)
        if not res.ok:
            continue
        text = dumps(res.ruleset)
        out[COMPILED_DIR / f"{f.stem}.json"] = text
        sources[f.stem] = source_hash(f.read_bytes())
        try:  # validated in full, as any file is loaded: recorded only when it passes
            loads(text)
        except FormatError:
            continue
        validated[f.stem] = source_hash(text.encode("utf-8"))
    index = {"format": INDEX_FORMAT, "version": ir.VERSION, "sources": sources, "validated": validated}
    index[INDEX_KEY] = _batch_setups(out, validated)
    out[INDEX] = json.dumps(index, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    return out


def _batch_setups(out: dict[Path, str], validated: dict[str, str]) -> dict[str, str]:
    """Adds to `out` the recorded setup of each validated variant's native batch (runtime/batchsetup.py)
    and returns {stem: its SHA-256}. Without the native core here the shipped setups are kept as they
    are (they cannot be made, nor checked, without it)."""
    from ..runtime.backend import native_module

    if native_module() is None:
        kept = {}
        try:
            old = json.loads(INDEX.read_text(encoding="utf-8")).get(INDEX_KEY, {})
        except (OSError, ValueError, AttributeError):
            old = {}
        for stem in validated:
            p = COMPILED_DIR / f"{stem}{SETUP_SUFFIX}"
            if stem in old and p.is_file():
                out[p] = p.read_text(encoding="utf-8")
                kept[stem] = old[stem]
        return kept
    texts = {p.stem: t for p, t in out.items() if p.stem in validated and p.name == f"{p.stem}.json"}
    got = {}
    for stem, text in expected_setups(texts).items():
        out[COMPILED_DIR / f"{stem}{SETUP_SUFFIX}"] = text
        got[stem] = source_hash(text.encode("utf-8"))
    return got


def expected_setups(texts: dict[str, str]) -> dict[str, str]:
    """{stem: setup text} for the bundled variants (stem -> compiled text) whose batches are native."""
    from ..runtime.backend import native_module
    from ..runtime.ir.serialize import loads
    from ..runtime.rules import Rules

    out = {}
    if native_module() is None:
        return out
    for stem, text in sorted(texts.items()):
        rules = Rules(loads(text), "native", text)
        got = record(rules, sha(text.encode("utf-8")))
        if got is not None:
            out[stem] = dumps_setup(got)
    return out


def _present() -> set[Path]:
    return set(COMPILED_DIR.glob("*.json")) if COMPILED_DIR.is_dir() else set()


def stale() -> list[str]:
    """One line per compiled file that is missing, out of date or left over."""
    want = expected()
    lines = []
    for path, text in want.items():
        try:
            same = path.read_text(encoding="utf-8") == text
        except (OSError, UnicodeDecodeError):
            same = False
        if not same:
            lines.append(f"{shown(path)} is {'out of date' if path.exists() else 'missing'}")
    lines += [f"{shown(p)} has no bundled rule file" for p in sorted(_present() - set(want))]
    return lines


def writable() -> bool:
    """Whether this package is a source checkout (an installed one is never written to)."""
    return (ROOT / "pyproject.toml").is_file()


def write() -> list[Path]:
    """Writes the files that differ, removes those left over; the paths changed."""
    want = expected()
    COMPILED_DIR.mkdir(exist_ok=True)
    changed = []
    for path, text in want.items():
        try:
            if path.read_text(encoding="utf-8") == text:
                continue
        except (OSError, UnicodeDecodeError):
            pass
        path.write_text(text, encoding="utf-8")
        changed.append(path)
    for p in sorted(_present() - set(want)):
        p.unlink()
        changed.append(p)
    return changed


def shown(path: Path) -> str:
    """A path as a message shows it: relative to the package root."""
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)
