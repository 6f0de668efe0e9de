"""Differential test of the native core (runtime/native/) against the Python reference.

    python bench/native_diff.py [--hands 100000] [--seed 1] [--rules-hands 2000] [RULES...]

For every bundled rule file, bench/rules/joker.pai, bench/rules/shapes.pai (every group shape) and
bench/rules/exprs.pai (every construct of the expression language; or the RULES given), seeded random
hands —
winning, near-winning (a tile taken away or swapped) and holding wildcards, with exposed melds — are
asked of both backends:
- structure: `can_split` for every (melds, pairs) a form allows and a few others, every split of a
  hand without wildcards in order (`splits_plain`), and the kinds that complete the hand with one
  tile less (`completing_kinds`), native tables against runtime/fastwin.py;
- whole rule set: `Rules.wait_tiles` and the full `Rules.score(...).to_json()` of the hand with one of
  its tiles as the winning tile, `load(…, backend="native")` against `load(…, backend="python")`, and
  `Rules.check_win` where the rule set's win check is structural;
- batches (`--batch-hands`): `Rules.score_many` of such hands on both backends, the whole JSON of
  every result (or the sentence of a hand that cannot be scored) compared;
- whole hands in one native call (`--hand-hands`, runtime/nativehand.py): `Rules.score(...).to_json()`
  on both backends (with context values at random), and the native side's own JSON of the result
  (src/hand/json.rs) against it; the hands it handed back are counted;
- waits (`--wait-hands`): near-winning hands (with melds, self-drawn or not, context values): the waits
  and shape waits of the hand without its winning tile (`Scoring.waits_of_hand`, with the work they
  leave), `Rules.wait_tiles`, `Rules.waits` (every wait's score JSON) and the score JSON, native against
  Python; the native wait trials' count and the hands they left to the reference are printed;
- pattern counts (`--count-hands`): every complete reading of such a hand (winning tile placed in
  each group it can complete, with melds, self-drawn or not, context values), the native programs'
  raw count of every pattern against the reference evaluator's (runtime/scoring.py); a reading the
  native programs leave to the reference must be one the reference cannot count either, or is
  reported as a fallback (counted, not a difference).

Prints one line per file and exits 1 on any difference (each is printed, at most 20 a file). The test
suite runs a small seeded sample of the same (tests/test_native.py).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from paili import load  # noqa: E402
from paili.runtime.backend import available  # noqa: E402
from paili.runtime.evaluate import EvalError, compile_expr  # noqa: E402
from paili.runtime.hand import HandError, build_hand  # noqa: E402
from paili.runtime.hand_score import Scoring  # noqa: E402
from paili.runtime.limits import SPLIT_LIMIT  # noqa: E402
from paili.runtime.scoring import ReadingEvaluator  # noqa: E402

FILES = sorted((ROOT / "rules").glob("*.pai")) + [ROOT / "bench" / "rules" / "joker.pai",
                                                  ROOT / "bench" / "rules" / "shapes.pai",
                                                  ROOT / "bench" / "rules" / "exprs.pai"]


def form_targets(rules, dec, n_exposed: int):
    """Every (melds, pairs) the rule set's melds-and-pairs forms ask of the concealed tiles."""
    out = []
    for f, _, _ in rules.forms:
        if f.instant is not None or f.orphans:
            continue
        lo, hi = f.pairs if f.pairs else (0, 0)
        if f.groups is not None:
            if not f.pairs:
                lo, hi = 0, f.groups
            out += [(f.groups - p - n_exposed, p) for p in range(lo, hi + 1) if f.groups - p - n_exposed >= 0]
        else:
            out += [((f.melds or 0) - n_exposed, p) for p in range(lo, hi + 1) if (f.melds or 0) >= n_exposed]
    return list(dict.fromkeys(out))


def random_groups(dec, rnd: random.Random, left: list[int], melds: int, pairs: int):
    """Natural groups (slots) of random hand shapes, respecting the copies left; None when stuck."""
    groups = []
    for is_pair, count in ((False, melds), (True, pairs)):
        specs = dec.pair_specs if is_pair else dec.meld_specs
        for _ in range(count):
            for _try in range(40):
                spec = rnd.choice(specs)
                i = rnd.randrange(dec.n)
                if left[i] <= 0:
                    continue
                options = list(dec.placements(spec, i, left, 0))
                if not options:
                    continue
                slots = rnd.choice(options)
                need = {}
                for k, _ in slots:
                    need[k] = need.get(k, 0) + 1
                if all(left[k] >= c for k, c in need.items()):
                    for k, c in need.items():
                        left[k] -= c
                    groups.append((spec, slots))
                    break
            else:
                return None
    return groups


def random_options(rules, rnd: random.Random) -> dict:
    """Room options at random (about half of them): every bool option, and int options with listed
    values or a small range — some change the tile catalog or what is wild."""
    out = {}
    for s in rules.ir.settings:
        if s.role != "option" or rnd.random() < 0.5:
            continue
        if s.type == "bool":
            out[s.name] = rnd.random() < 0.5
        elif s.type == "int" and s.values:
            out[s.name] = rnd.choice([compile_expr(v)({}) for v in s.values])
        elif s.type == "int" and s.range and s.range[1] - s.range[0] <= 8:
            out[s.name] = rnd.randint(*s.range)
    return out


def structural_case(rules, dec, rnd: random.Random, cat=None):
    """(counts of natural tiles, wildcards, exposed melds, targets) of one random hand."""
    cat = cat or rules.catalog_for({})[0]
    left = [k.copies if k.category in ("suited", "honor") else 0 for k in cat.kinds]
    all_targets = form_targets(rules, dec, 0)
    m, p = rnd.choice(all_targets) if all_targets else (4, 1)
    exposed = rnd.randint(0, min(m, 2)) if rnd.random() < 0.4 else 0
    groups = random_groups(dec, rnd, left, m - exposed, p) or []
    counts = [0] * dec.n
    for _, slots in groups:
        for k, _ in slots:
            counts[k] += 1
    cap = dec.fast.cap
    wilds = 0
    roll = rnd.random()
    if cap and roll < 0.5:  # wildcards in place of some tiles
        for _ in range(rnd.randint(1, cap)):
            held = [k for k in range(dec.n) if counts[k]]
            if held:
                counts[rnd.choice(held)] -= 1
                wilds += 1
    elif roll < 0.7:  # a tile swapped for another kind
        held = [k for k in range(dec.n) if counts[k]]
        if held:
            counts[rnd.choice(held)] -= 1
            k = rnd.randrange(dec.n)
            if counts[k] < cat.kinds[k].copies:
                counts[k] += 1
    elif roll < 0.8:  # random tiles
        counts = [0] * dec.n
        for _ in range(sum(len(s) for _, s in groups)):
            k = rnd.randrange(dec.n)
            if counts[k] < min(4, cat.kinds[k].copies):
                counts[k] += 1
    targets = form_targets(rules, dec, exposed)
    extra = [(rnd.randint(0, 5), rnd.randint(0, 2)) for _ in range(2)]
    return counts, wilds, exposed, list(dict.fromkeys(targets + extra))


def compare_structure(rules, rnd: random.Random, n: int, diffs: list) -> int:
    checks = 0
    for case in range(n):
        options = random_options(rules, rnd) if case % 4 == 3 else {}  # a quarter under other options
        cat, dec = rules.catalog_for(rules.settings_env(options))
        native, reference = dec.structure, dec.fast
        if native is reference:
            diffs.append(f"options {options}: the native core is not used ({rules.native_declined})")
            continue
        counts, wilds, exposed, targets = structural_case(rules, dec, rnd, cat)
        tup = tuple(counts)
        for m, p in targets:
            a = native.can_split(tup, wilds, m, p)
            b = reference.can_split(tup, wilds, m, p)
            checks += 1
            if a != b:
                diffs.append(f"can_split({counts}, wilds={wilds}, melds={m}, pairs={p}) options {options}: "
                             f"native {a}, python {b}")
            if wilds == 0 and native.split_items and sum(counts) <= 20:  # every split, in the reference's order
                a = [[(spec.kind, tuple(slots)) for spec, slots in sp]
                     for sp in native.splits_plain(tup, m, p, SPLIT_LIMIT)]
                b = [[(spec.kind, tuple(slots)) for spec, slots in sp] for sp in reference.splits_plain(tup, m, p)]
                checks += 1
                if a != b[:SPLIT_LIMIT + 1]:
                    diffs.append(f"splits_plain({counts}, melds={m}, pairs={p}) options {options}: native "
                                 f"{len(a)} splits, python {len(b)} (first difference at "
                                 f"{next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))})")
        held = [k for k in range(dec.n) if counts[k]]
        if held:
            less = list(counts)
            less[rnd.choice(held)] -= 1
            a = sorted(native.completing_kinds(tuple(less), wilds, tuple(targets)))
            b = sorted(set(reference.completing_kinds(tuple(less), wilds, tuple(targets))))
            checks += 1
            if a != b:
                diffs.append(f"completing_kinds({less}, wilds={wilds}, targets={targets}): native {a}, python {b}")
    return checks


def tile_text(k) -> str:
    return k.code or k.char


def rules_case(rules, rnd: random.Random):
    """A random hand as text for `Rules` (tiles, melds, context): winning, near-winning or with wildcards,
    under random room options a third of the time."""
    context = random_options(rules, rnd) if rnd.random() < 1 / 3 else {}
    cat, dec = rules.catalog_for(rules.settings_env(context))
    wild_kinds = []
    for w in rules.ir.wilds:
        if w.tiles in cat.by_name:
            wild_kinds.append(cat.by_name[w.tiles])
        elif any(r.name == w.tiles for r in rules.ir.reveals) and rnd.random() < 0.7:
            k = rnd.choice([k for k in cat.kinds if k.category == "suited"])
            context[w.tiles] = tile_text(k)  # as a hand names it (the notation)
            wild_kinds.append(k)
    left = [k.copies if k.category in ("suited", "honor") else 0 for k in cat.kinds]
    targets = form_targets(rules, dec, 0)
    m, p = rnd.choice(targets) if targets else (4, 1)
    groups = random_groups(dec, rnd, left, m, p) or []
    tiles = [cat.kinds[k] for _, slots in groups for k, _ in slots]
    melds = []
    exposed_kinds = [mk for mk in rules.ir.melds if mk.exposed and not mk.hand]
    for spec, slots in groups:
        if spec.is_pair or rnd.random() > 0.2 or len(melds) >= 2:
            continue
        ts = [cat.kinds[k] for k, _ in slots]
        mk = next((x for x in exposed_kinds if rules.meld_matches(x, ts)), None)
        if mk is not None:
            for t in ts:
                tiles.remove(t)
            melds.append(f"{mk.name}:{''.join(tile_text(t) for t in ts)}")
    if tiles and wild_kinds and rnd.random() < 0.5:
        wk = rnd.choice(wild_kinds)
        for _ in range(rnd.randint(1, 3)):
            held = sum(1 for t in tiles if t.name == wk.name)
            if held < wk.copies and tiles:
                tiles[rnd.randrange(len(tiles))] = wk
    if tiles and rnd.random() < 0.3:
        tiles[rnd.randrange(len(tiles))] = rnd.choice([k for k in cat.kinds if k.category in ("suited", "honor")])
    standins = [cat.by_name[x.name] for x in rules.ir.standins if x.name in cat.by_name]
    if tiles and standins and rnd.random() < 0.3:  # a stand-in tile in place of one
        tiles[rnd.randrange(len(tiles))] = rnd.choice(standins)
    if not tiles:
        return None
    rnd.shuffle(tiles)
    if wild_kinds and rnd.random() < 0.2:  # a wildcard as the winning tile (a wildcard of the winning tile's scope)
        tiles[-1] = rnd.choice(wild_kinds)
    win = tiles.pop()
    return " ".join(tile_text(t) for t in tiles), melds, tile_text(win), context, rnd.random() < 0.3


def drawn(make, rules, rnd: random.Random, n: int):
    """The cases `make(rules, rnd)` draws in `n` tries (a try that draws None is passed over)."""
    for _ in range(n):
        case = make(rules, rnd)
        if case is not None:
            yield case


def case_diff(path: Path, case, a, b, what: str = "hand") -> str:
    """The line that reports a case whose answers differ: its hand, then each side's as JSON (cut)."""
    hand, melds, win, context, self_drawn = case
    return (f"{path.name}: {what} {hand!r} melds {melds} win {win} context {context} self_drawn {self_drawn}: "
            f"native {json.dumps(a, ensure_ascii=False)[:300]} python {json.dumps(b, ensure_ascii=False)[:300]}")


def compare_rules(path: Path, nat, ref, rnd: random.Random, n: int, diffs: list) -> int:
    checks = 0
    for case in drawn(rules_case, ref, rnd, n):
        hand, melds, win, context, self_drawn = case

        def ask(r, hand=hand, melds=melds, win=win, context=context, self_drawn=self_drawn):
            try:
                waits = [k.name for k in r.wait_tiles(hand, melds, self_drawn, context)]
                score = r.score(hand, melds, win, self_drawn, context).to_json()
                return waits, score
            except ValueError as exc:  # an invalid hand (more copies than exist): the same sentence
                return str(exc), None
        a, b = ask(nat), ask(ref)
        checks += 1
        if a != b:
            diffs.append(case_diff(path, case, a, b))
    if ref._structural_only:
        dec = ref.catalog_for({})[1]
        for _ in range(n):
            counts, wilds, exposed, _ = structural_case(ref, dec, rnd)
            a, b = nat.check_win(counts, wilds, exposed), ref.check_win(counts, wilds, exposed)
            checks += 1
            if a != b:
                diffs.append(f"{path.name}: check_win({counts}, {wilds}, {exposed}): native {a}, python {b}")
    return checks


def random_context(rules, rnd: random.Random, cat) -> dict:
    """Context values at random (about half of them): flags, tiles (winds), small numbers."""
    out = {}
    for st in rules.ir.settings:
        if st.role != "context" or rnd.random() < 0.5:
            continue
        if st.type == "bool":
            out[st.name] = rnd.random() < 0.5
        elif st.type == "tile":
            out[st.name] = rnd.choice([k for k in cat.kinds if k.category == "honor"] or cat.kinds).name
        elif st.type == "int" and st.values:
            out[st.name] = rnd.choice([compile_expr(v)({}) for v in st.values])
        elif st.type == "int" and st.range and st.range[1] - st.range[0] <= 8:
            out[st.name] = rnd.randint(*st.range)
    return out


def hands_case(rules, rnd: random.Random):
    """`rules_case` with context values at random besides the room options."""
    case = rules_case(rules, rnd)
    if case is None:
        return None
    hand, melds, win, context, self_drawn = case
    try:
        cat = rules.catalog_for(rules.settings_env(context))[0]
    except ValueError:  # a context the rule set refuses: the hand is asked as it is
        return case
    return hand, melds, win, {**random_context(rules, rnd, cat), **context}, self_drawn


def compare_hands(path: Path, nat, ref, rnd: random.Random, n: int, diffs: list, stats: dict) -> int:
    """Whole hands scored in one native call (runtime/nativehand.py) against the Python backend: the
    whole `to_json()` of each (key order included), and the native side's own JSON of the result
    (src/hand/json.rs) against it wherever the native side writes it."""
    stats.setdefault("json", 0)
    checks = 0
    for case in drawn(hands_case, ref, rnd, n):
        hand, melds, win, context, self_drawn = case

        def ask(r, hand=hand, melds=melds, win=win, context=context, self_drawn=self_drawn):
            try:
                return r.score(hand, melds, win, self_drawn, context).to_json()
            except ValueError as exc:  # an invalid hand: the same sentence
                return {"error": str(exc)}
        a, b = ask(nat), ask(ref)
        want = json.dumps(b, ensure_ascii=False)
        checks += 1
        if json.dumps(a, ensure_ascii=False) != want:
            diffs.append(case_diff(path, case, a, b))
            continue
        if "error" in b:  # a hand the rule set refuses before scoring it (`Rules.score`): no JSON to compare
            continue
        hands = None
        try:
            cat, dec, env = nat.env_for(context)
            h = build_hand(nat, hand, melds, win, self_drawn, cat)
            hands = nat.native_hands_for(cat, dec)
            text = hands.json_text(Scoring(nat, cat, dec, env, h)) if hands is not None else None
        except ValueError:
            text = None
        if hands is not None:  # the native side scored the hand again: so does the Python side, so that
            # what both keep across hands (the signature search's observers and memos, which decide the
            # work later hands are charged) stays in step
            ask(ref)
        if text is not None:
            stats["json"] += 1
            if text != want:  # the native text is json.dumps(ensure_ascii=False)'s, byte for byte
                diffs.append(f"{path.name}: hand {hand!r} melds {melds} win {win} context {context}: the native "
                             f"JSON {text[:300]} python {want[:300]}")
    st = nat.stats()
    stats["native_hands"] = st["native_hands"]
    stats["native_hand_fallbacks"] = st["native_hand_fallbacks"]
    stats["native_wild_hands"] = st["native_wild_hands"]
    stats["native_wild_fallbacks"] = st["native_wild_fallbacks"]
    stats["native_hand_reasons"] = st["native_hand_reasons"]
    return checks


def outcome_json(x):
    """A `score_many` entry as JSON: the result's, or the sentence that kept the hand from being scored."""
    return {"error": str(x)} if isinstance(x, Exception) else x.to_json()


def compare_batch(path: Path, nat, ref, rnd: random.Random, n: int, diffs: list) -> int:
    """`Rules.score_many` of n seeded hands (winning, near-winning, with wildcards and melds, self-drawn
    or not, under context values): the native backend's JSON against the Python backend's, and the
    first hands against one `Rules.score` call each."""
    cases = list(drawn(rules_case, ref, rnd, n))
    items = [(hand, melds, win, self_drawn, context) for hand, melds, win, context, self_drawn in cases]
    got = [outcome_json(x) for x in nat.score_many(items)]
    want = [outcome_json(x) for x in ref.score_many(items)]
    for item, a, b in zip(items, got, want):
        if a != b:
            diffs.append(f"{path.name}: score_many {item}: native {json.dumps(a, ensure_ascii=False)[:300]} "
                         f"python {json.dumps(b, ensure_ascii=False)[:300]}")
    # Each backend scores these hands once more, so what both keep across hands (the signature search's
    # observers and memos, which decide the work later hands are charged) stays in step.
    for item, a in list(zip(items, got))[:20]:
        try:
            one = nat.score(*item).to_json()
        except ValueError as exc:
            one = {"error": str(exc)}
        if one != a:
            diffs.append(f"{path.name}: score_many {item} differs from score: {a} against {one}")
        try:
            ref.score(*item)
        except ValueError:
            pass
    return len(items)


def wait_answers(r, hand, melds, win, context, self_drawn, full: bool = True):
    """What a hand waits on, on one backend: the waits and shape waits of the hand without its winning
    tile (`Scoring.waits_of_hand`) and the work they leave, `Rules.wait_tiles`, `Rules.waits` (each wait
    with its score's JSON) and the full score's JSON (not with `full` false); a hand refused gives its
    sentence."""
    try:
        cat, dec, env = r.env_for(context)
        sc = Scoring(r, cat, dec, env, build_hand(r, hand, melds, win, self_drawn, cat))
        waits = [k.name for k in sc.waits_of_hand()]
        shape = [k.name for k in sc.waits_of_hand(shape=True)]
        out = {"waits": waits, "shape_waits": shape, "work": sc.work[0]}
        if not full:  # the waits alone
            return out
        out["wait_tiles"] = [k.name for k in r.wait_tiles(hand, melds, self_drawn, context)]
        out["waits_scored"] = [(k.name, x.to_json()) for k, x in r.waits(hand, melds, self_drawn, context)]
        out["score"] = r.score(hand, melds, win, self_drawn, context).to_json()
        return out
    except ValueError as exc:  # HandError included: the same sentence on both
        return {"error": str(exc)}


def compare_waits(path: Path, nat, ref, rnd: random.Random, n: int, diffs: list, stats: dict,
                  full: bool = True) -> int:
    """Waits and shape waits of near-winning hands (with melds) on both backends (`wait_answers`)."""
    checks = 0
    for case in drawn(rules_case, ref, rnd, n):
        hand, melds, win, context, self_drawn = case
        a = wait_answers(nat, hand, melds, win, context, self_drawn, full)
        b = wait_answers(ref, hand, melds, win, context, self_drawn, full)
        checks += 1
        stats["waited"] += bool(a.get("waits"))
        if a != b:
            diffs.append(case_diff(path, case, a, b, "waits of hand"))
    st = nat.stats()
    stats["native_waits"] = st["native_waits"]
    stats["native_wait_fallbacks"] = st["native_wait_fallbacks"]
    return checks


def compare_counts(path: Path, nat, rnd: random.Random, n: int, diffs: list, stats: dict) -> int:
    """Raw pattern counts of every complete reading: the native programs against the reference."""
    checks = 0
    names = nat.patterns.pattern_names
    used: dict = {}
    for case in drawn(rules_case, nat, rnd, n):
        hand, melds, win, context, self_drawn = case
        try:
            cat, dec, env = nat.env_for(context)
            h = build_hand(nat, hand, melds, win, self_drawn, cat)
            sc = Scoring(nat, cat, dec, env, h)
            sc.refuse_wild_melds()
            readings, _ = sc.readings(h)
        except (HandError, ValueError):
            continue
        nc = nat.native_counts_for(cat)
        used[id(nc)] = nc
        if nc is None:
            diffs.append(f"{path.name}: context {context}: the native programs are not used ({nat.native_declined})")
            continue
        for r in readings:
            if not r.complete:
                continue
            got = sc.native_raw(r)
            ev = ReadingEvaluator(nat.patterns, sc.reading_env(r), r, sc.waits_of_hand)
            try:
                want = ev.all_raw_counts()
                want = [want.get(x, 0) for x in names]
            except (EvalError, TypeError, ValueError) as exc:
                want = f"error: {exc}"
            checks += 1
            stats["readings"] += 1
            if got is None:
                stats["fallbacks"] += 1
                stats["needless"] += not isinstance(want, str)  # the reference counted it
                continue
            if isinstance(want, str):
                diffs.append(f"{path.name}: {r!r} hand {hand!r} melds {melds} win {win} context {context}: native "
                             f"counted, the reference raised ({want})")
                continue
            bad = [(names[i], a, b) for i, (a, b) in enumerate(zip(got, want)) if a != b and i not in nc.owned]
            if bad:
                diffs.append(f"{path.name}: {r!r} hand {hand!r} melds {melds} win {win} context {context} "
                             f"self_drawn {self_drawn}: (pattern, native, python) {bad[:5]}")
    failures = sum(nc.failures for nc in used.values() if nc is not None)
    if failures:
        diffs.append(f"{path.name}: {failures} internal errors of the native pattern programs")
    return checks


def run_file(path: Path, hands: int, rules_hands: int, seed: int, count_hands: int = 0,
             stats: dict | None = None, batch_hands: int = 0, hand_hands: int = 0,
             wait_hands: int = 0) -> tuple[int, list[str], str]:
    nat = load(path, backend="native")
    ref = load(path, backend="python")
    if nat.structure_backend != "native":
        return 0, [], f"native core not used: {nat.native_declined}"
    if nat.counts_backend != "native":
        return 0, [], f"native pattern programs not used: {nat.native_declined}"
    rnd = random.Random(f"{seed}:{path.name}")
    diffs: list[str] = []
    stats = stats if stats is not None else {}
    stats.setdefault("readings", 0)
    stats.setdefault("fallbacks", 0)
    stats.setdefault("needless", 0)
    stats.setdefault("waited", 0)
    checks = compare_structure(nat, rnd, hands, diffs)
    checks += compare_rules(path, nat, ref, rnd, rules_hands, diffs)
    checks += compare_counts(path, nat, rnd, count_hands, diffs, stats)
    stats["scored"] = compare_batch(path, nat, ref, rnd, batch_hands, diffs) if batch_hands else 0
    checks += stats["scored"]
    checks += compare_hands(path, nat, ref, rnd, hand_hands, diffs, stats) if hand_hands else 0
    if wait_hands:
        stats["wait_hands"] = compare_waits(path, nat, ref, random.Random(f"{seed}:{path.name}:waits"), wait_hands,
                                            diffs, stats)
        checks += stats["wait_hands"]
    failures = sum(getattr(dec.structure, "failures", 0) for _, dec in nat._catalogs.values())
    if failures:
        diffs.append(f"{path.name}: {failures} native errors answered by the reference")
    return checks, diffs, ""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("rules", nargs="*", help="rule files (default: the bundled ones and bench/rules/joker.pai)")
    ap.add_argument("--hands", type=int, default=100_000, help="structural cases per file")
    ap.add_argument("--rules-hands", type=int, default=2_000, help="whole-rule-set cases per file")
    ap.add_argument("--count-hands", type=int, default=0, help="hands whose readings' raw counts are compared")
    ap.add_argument("--batch-hands", type=int, default=0,
                    help="hands scored by Rules.score_many on both backends, whole JSON compared")
    ap.add_argument("--hand-hands", type=int, default=0,
                    help="hands scored in one native call (runtime/nativehand.py) and by the Python backend, "
                         "whole JSON compared, and the native side's own JSON of each")
    ap.add_argument("--wait-hands", type=int, default=0,
                    help="near-winning hands whose waits, shape waits, Rules.waits and score are compared")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if not available():
        print("the native core is not built (pip install -e . with a Rust toolchain)", file=sys.stderr)
        return 2
    bad = 0
    for path in [Path(p) for p in args.rules] or FILES:
        stats: dict = {}
        checks, diffs, why = run_file(path, args.hands, args.rules_hands, args.seed, args.count_hands, stats,
                                      args.batch_hands, args.hand_hands, args.wait_hands)
        if why:
            print(f"{path.name}: {why}")
            bad += 1
            continue
        extra = f" ({stats['readings']:,} readings counted, {stats['fallbacks']:,} left to the reference, " \
            f"{stats['needless']:,} of them counted there)" if stats.get("readings") else ""
        if stats.get("scored"):
            extra += f" ({stats['scored']:,} hands scored by score_many on both backends)"
        if args.hand_hands:
            extra += (f" ({stats['native_hands']:,} hands scored in one native call, "
                      f"{stats['native_hand_fallbacks']:,} handed back; {stats['json']:,} native JSON compared; "
                      f"holding wildcards or stand-ins {stats['native_wild_hands']:,}, of them handed back "
                      f"{stats['native_wild_fallbacks']:,})")

        if stats.get("wait_hands"):
            extra += f" ({stats['wait_hands']:,} hands' waits compared, {stats['waited']:,} waiting; native wait " \
                f"trials {stats['native_waits']:,}, left to the reference {stats['native_wait_fallbacks']:,})"
        for why, k in sorted(stats.get("native_hand_reasons", {}).items(), key=lambda x: -x[1]):
            extra += f"\n    handed back {k:,}: {why}"
        print(f"{path.name}: {checks:,} checks, {len(diffs)} differences{extra}", flush=True)
        for d in diffs[:20]:
            print("  " + d)
        bad += bool(diffs)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
