"""Recording the setup of a native batch (runtime/batchsetup.py reads and verifies it): made once by the
reference's own code when the compiled files are written (dsl/precompile.py), as tagged JSON — tuples
and bytes as `{"(": [...]}` and `{"b": hex}` objects, which runtime/batchsetup.py `loads_setup` reads
back. Apart from the reading side so that a batch's start-up does not compile it.
"""
from __future__ import annotations

import json
from itertools import combinations_with_replacement
from math import comb

from .batchsetup import SETUP_FORMAT, SETUP_VERSION

MELD_CANDIDATES = 200_000  # tile lists one meld size may try when the melds are recorded
MELDS_RECORDED = 4_000  # below the native meld memo (runtime/native/src/hand/binding.rs MELD_MEMO)


def _tagged(v):
    if isinstance(v, tuple):
        return {"(": [_tagged(x) for x in v]}
    if isinstance(v, bytes):
        return {"b": v.hex()}
    if isinstance(v, list):
        return [_tagged(x) for x in v]
    if isinstance(v, dict):
        return {k: _tagged(x) for k, x in v.items()}
    return v


def dumps_setup(setup: dict) -> str:
    return json.dumps(_tagged(setup), ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"


def record(rules, compiled_sha: str) -> dict | None:
    """The setup of a native batch of `rules` (loaded from the compiled text whose hash is
    `compiled_sha`), made by the reference's code; None when its batches are not scored natively."""
    from .backend import native_module
    from .batch import Batch, native_context
    from .nativehand import hand_setup
    from .quickcontext import context_table

    mod = native_module()
    if rules.backend != "native" or mod is None or not hasattr(mod, "run_batch"):
        return None
    batch = Batch(rules)
    ctx = native_context(rules, batch)({})
    if ctx is None:
        return None
    cat, dec, _env = rules.env_for(None)
    nc = rules.native_counts_for(cat)
    tables = dec.structure.tables
    hands = nc.hands
    return {
        "format": SETUP_FORMAT, "version": SETUP_VERSION, "compiled": compiled_sha,
        "cap": dec.fast.cap, "tests": nc.prefilter_tests,
        "kinds": tables.kinds(), "wild_ok": tables.wild_ok(), "split_groups": tables.split_groups(),
        "blocks": tables.blocks(), "kind_names": [k.name for k in cat.kinds],
        "hands": hand_setup(rules, cat, dec, nc.prefilter, rules.pattern_lines()),
        "context": [list(ctx[2]), list(ctx[3]), *ctx[5:]],
        "melds": meld_entries(rules, cat, hands),
        "contexts": context_table(rules, nc.scorer.settings, cat),
    }


def meld_entries(rules, cat, hands) -> list:
    """Every meld the reference takes with its tiles in catalog order (each meld kind but pairs, each
    size it may have), as the native side takes it; at most MELDS_RECORDED."""
    out: list = []
    n = len(cat.kinds)
    for mk in rules.ir.melds:
        if mk.pair:
            continue
        top = mk.shape.size + (mk.grow_limit if mk.grows else 0)
        for size in range(mk.shape.size, top + 1):
            if comb(n + size - 1, size) > MELD_CANDIDATES:
                continue
            for ks in combinations_with_replacement(range(n), size):
                got = hands.checked_meld(rules, cat, mk.name, list(ks))
                if got is not None:
                    out.append(got)
                    if len(out) >= MELDS_RECORDED:
                        return out
    return out


__all__ = ["MELDS_RECORDED", "MELD_CANDIDATES", "dumps_setup", "meld_entries", "record"]
