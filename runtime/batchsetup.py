"""The recorded setup of a native batch: what the native batch driver asks of the Python side for a bundled
variant, made once by the reference's own code (runtime/batchrecord.py) and shipped beside the variant's
compiled JSON (`rules/compiled/<stem>.batch.json`), so that `paili score VARIANT --batch FILE --json` reaches
the native driver without making the IR's objects or a `Rules` (runtime/quickbatch.py).

What is recorded is plain data, all of it what the reference hands the native core today: the prefilter
tests of the patterns (`NativeCounts.prefilter_tests`), the hand setup of `Hands` (runtime/nativehand.py
`hand_setup`: each split group's value and prefilter vectors, the forms, the names), the empty context's
settings and limits (`NativeHands.batch_context`), the laid-down melds of every meld kind the reference
takes with tiles in catalog order (`NativeHands.checked_meld`), and each plain context setting's
conversion (runtime/quickcontext.py). The native core still builds its tables and programs from the JSON
itself; the recorded kinds, split groups and blocks are checked against them at each start.

Trust: a setup is used only for a bundled variant whose source, compiled file and setup all have the
hashes `rules/compiled/index.json` records (`paili docs` writes them, `paili docs --check` fails when one
is stale, tests/test_batch_startup.py checks the shipped setups are what the reference makes now); any
other file, a tampered one included, takes today's path, which validates it and refuses it with its
sentence. Nothing here is executed: tuples and bytes are tagged JSON objects (`{"(": [...]}`, `{"b": hex}`).
"""
from __future__ import annotations

from pathlib import Path

from .ir.version import VERSION

SETUP_FORMAT = "paili-batch-setup"
SETUP_VERSION = 1
INDEX_KEY = "batch_setups"  # in rules/compiled/index.json: {stem: SHA-256 of its setup file}
RULES_DIR = Path(__file__).resolve().parent.parent / "rules"
COMPILED_DIR = RULES_DIR / "compiled"
SETUP_SUFFIX = ".batch.json"


def setup_path(stem: str) -> Path:
    return COMPILED_DIR / f"{stem}{SETUP_SUFFIX}"


def sha(data: bytes) -> str:
    # SHA-256 from the interpreter's own module where it has one (`_sha256`; `_sha2` from Python 3.12):
    # `hashlib` loads OpenSSL's library first, about 10 M instructions, more than hashing the three files
    # costs. The same function, so the same digests (tests/test_batch_startup.py). Imported here: the
    # quick batch hashes natively (`verified`) and needs none of them.
    try:
        from _sha256 import sha256
    except ImportError:
        try:
            from _sha2 import sha256
        except ImportError:
            from hashlib import sha256
    return sha256(data).hexdigest()


# ---------------------------------------------------------------------------------- the tagged JSON

def _untag(d: dict):
    if len(d) == 1:
        if "(" in d and isinstance(d["("], list):
            return tuple(d["("])
        if "b" in d and isinstance(d["b"], str):
            return bytes.fromhex(d["b"])
    return d


def loads_setup(text: str) -> dict:
    import json  # (here: the quick batch reads its setup natively, `verified`)

    got = json.loads(text, object_hook=_untag)
    if not isinstance(got, dict) or got.get("format") != SETUP_FORMAT or got.get("version") != SETUP_VERSION:
        raise ValueError("not a batch setup of this version")
    return got


# ---------------------------------------------------------------------------------- the verified files

def bundled(stem: str) -> tuple[bytes, dict] | str:
    """(compiled file's bytes, setup) of a bundled variant whose source, compiled file and setup have the
    hashes the index records; else why not (one sentence). The bytes go to the native core as they are
    (it checks they are UTF-8): decoded to a str here they cost a few milliseconds of each start-up."""
    import json

    try:
        index = json.loads((COMPILED_DIR / "index.json").read_text(encoding="utf-8"))
        source = (RULES_DIR / f"{stem}.pai").read_bytes()
        if not isinstance(index, dict) or index.get("format") != "paili-compiled-rules":
            return "the compiled index is not readable"
        if index.get("version") != VERSION:  # (as runtime/ir/precompiled.py reads the index)
            return "the compiled files are of another format version"
        if index.get("sources", {}).get(stem) != sha(source):
            return "the rule file changed since it was compiled"
        data = (COMPILED_DIR / f"{stem}.json").read_bytes()
        compiled = sha(data)
        if index.get("validated", {}).get(stem) != compiled:
            return "the compiled file is not the one validated"
        raw = setup_path(stem).read_bytes()
        if index.get(INDEX_KEY, {}).get(stem) != sha(raw):
            return "the batch setup is not the one recorded"
        setup = loads_setup(raw.decode("utf-8"))
        if setup.get("compiled") != compiled:
            return "the batch setup was recorded for another compiled file"
        return data, setup
    except (OSError, ValueError, AttributeError, TypeError):
        return "the compiled files are not readable"


def verified(mod, stem: str) -> tuple[bytes, dict] | str:
    """`bundled(stem)` read and checked by the native core where it has the step (the same files, hashes,
    sentences and setup objects: tests/test_batch_startup.py), so that a quick batch's start-up neither
    imports nor runs `json` and the interpreter's SHA-256; else `bundled` itself."""
    native = getattr(mod, "batch_verified_setup", None)
    if native is None:
        return bundled(stem)
    paths = (COMPILED_DIR / "index.json", RULES_DIR / f"{stem}.pai", COMPILED_DIR / f"{stem}.json", setup_path(stem))
    return native(paths, (stem, VERSION, INDEX_KEY, SETUP_FORMAT, SETUP_VERSION))


def native_parts(mod, text: bytes | str, setup: dict):
    """(Tables, Hands) the native core builds from the compiled JSON with the recorded setup, or why not:
    its catalog, split groups and blocks must be the recorded ones (the reference's when recorded)."""
    try:
        tables = mod.Tables(text, {}, setup["cap"])
        if (tables.kinds() != setup["kinds"] or tables.wild_ok() != setup["wild_ok"]
                or tables.split_groups() != setup["split_groups"] or tables.blocks() != setup["blocks"]):
            return "the native tables differ from the recorded ones"
        # the check the reference's split groups passed when recorded (backend.py `attach_split_items`):
        # the items are what a Python caller of `splits_plain` gets back, which nothing here is
        tables.set_split_items(list(setup["split_groups"]))
        scorer = mod.Scorer(text, {})
        if scorer.kinds() != setup["kind_names"]:
            return "the native catalog differs from the recorded one"
        scorer.set_prefilter(setup["tests"])
        hands = mod.Hands(scorer, tables, setup["hands"])
        for m in setup["melds"]:
            hands.add_meld(m)
    except (mod.NotCovered, mod.NativeError, ValueError, TypeError, KeyError) as exc:
        return f"the native core refused the recorded setup: {exc}"
    return tables, hands


__all__ = ["INDEX_KEY", "SETUP_FORMAT", "SETUP_SUFFIX", "SETUP_VERSION", "bundled", "loads_setup", "native_parts",
           "setup_path", "sha", "verified"]
