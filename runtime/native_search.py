"""The signature search answered natively for the native game's win questions (runtime/native/src/
signatures/search.rs): the observers of runtime/observe.py ported, so a hand holding several wildcards
of one kind is read without a call back into Python. What the decomposer defines (each tile kind's
placements per shape, each shape's pure-wildcard groups) and the meld values are handed over once; the
reference's search (`NativeHands.signature_search_for`'s) stays beside it for the questions the native
side declines, which it counts (`SigSearch.stats()`)."""
from __future__ import annotations

from .backend import native_module
from .limits import LIMIT_SENTENCE
from .nativecounts import Unencodable, encode


def native_search(rules, cat, dec, settings: dict, fallback):
    """A `SigSearch` over `fallback` (the reference's search), or `fallback` itself where the native core
    does not take the rule set (an older build, a construct the observers' programs do not lower)."""
    mod = native_module()
    make = getattr(mod, "SigSearch", None)
    if make is None:
        return fallback
    specs = dec.meld_specs + dec.pair_specs
    rs = rules.ir
    shapes = [(s.kind, bool(s.is_pair), bool(rs.meld(s.kind).kong), s.size) for s in specs]
    templates = [[[(list(slots), list(nat), nw, fw, list(fn.items())) for slots, nat, nw, fw, fn in dec.templates(s, i)]
                  for s in specs] for i in range(dec.n)]
    targets = [[list(t) for t in dec.wild_targets_for(s)] for s in specs]
    suits = sorted({k.suit for k in cat.kinds if k.suit is not None}) + [None]
    values = []
    for mk in rs.melds:
        for suit in suits:
            v = rules.meld_value(mk, suit) if mk.values else 0  # `HandReadings.group_value`
            try:
                values.append((mk.name, suit, encode(v)))
            except Unencodable:
                continue  # a group of it is declined
    options = {k.split(":", 1)[1]: v for k, v in settings.items() if k.startswith("option:")}
    try:
        return make(rules.ruleset_json(), options, fallback, shapes, len(dec.meld_specs), templates, targets, values,
                    dict(settings), LIMIT_SENTENCE)
    except (mod.NotCovered, mod.NativeError, ValueError, TypeError):
        return fallback


__all__ = ["native_search"]
