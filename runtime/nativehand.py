"""Whole hands in one native call (runtime/native/src/hand/): for a hand without wildcards or stand-ins in
play (every hand of a rule set that has none), the native core enumerates its readings from its tile
counts and melds (the port of runtime/hand_readings.py `_readings_natural`, in its order, charged to the
same work; a rule set with wildcards charges each split too, as its `_readings_wild` does), scores each
and chooses the one that counts; this module hands the hand over and builds the result object of that
one reading (a Python `Reading` is made for it alone).

The seam of principle 3 once more: a hand the native side does not finish (a value it does not hold, a
program stopping on a value, a hand the block tables do not take) comes back as a fallback, counted
(`Rules.stats()["native_hand_fallbacks"]`), and is scored by the Python path as before; so is a hand
holding a wildcard or stand-in in play (not counted as a fallback). The waits a pattern reads are found
in the same call by the native wait trials (runtime/native/src/waits/) where the rule set has them;
otherwise, or for a hand they decline, they are asked of the Python side (`Scoring.waits_of_hand`, which
counts the declined ones), once per hand.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING

from .evaluate import EvalError
from .fans import unmet_reason
from .hand import HandError, Meld
from .ir.nodes import LABEL_SLOT
from .ir.wilds import wilds_needed
from .limits import HAND_WORK, LIMIT_SENTENCE, MAX_HAND_TILES, MAX_MELDS, MAX_TILE_TEXT, READING_WORK, SPLIT_LIMIT
from .native_search import native_search
from .nativecounts import MISSING, NativeCounts, Unencodable, encode, tile_code
from .nativescore import result_of
from .reading import Group, Reading, RTile

if TYPE_CHECKING:
    from .result import ScoreResult

# The result objects and the Python readings are imported when a hand is first scored here, not by a
# native batch, whose driver writes each result itself (runtime/batch.py); kept here once imported (an
# import statement run per call costs a scored hand about a microsecond each).
_LATE: dict = {}


def _score_result():
    got = _LATE.get("ScoreResult")
    if got is None:
        from .result import ScoreResult

        got = _LATE["ScoreResult"] = ScoreResult
    return got

NO_READING = "the tiles do not form any winning hand of this rule set"


def _bytes(v: int | None) -> bytes | None:
    return None if v is None else v.to_bytes((v.bit_length() + 7) // 8, "little")


def signature_answer(sc, form, m: int, p: int, counts: list, naturals: list, wilds: list, hand, work: list):
    """One signature search (`Scoring.signature_found`) answered as the native side reads it: (0, the
    splits as [([(kind, slots)], winning group)], work left), (1, None, work left) when none is found, or
    (2, the HandError's sentence, work left)."""
    try:
        found = sc.signature_found(form, m, p, counts, naturals, wilds, hand, work)
    except HandError as exc:
        return 2, str(exc), work[0]
    if found is None:
        return 1, None, work[0]
    return 0, [([(spec.kind, list(slots)) for spec, slots in groups], win_gi)
               for _, groups, win_gi in found], work[0]


class NativeHands:
    """The native scoring of whole hands of one rule set under one catalog."""

    name = "native"

    def __init__(self, hands, counts: NativeCounts, items: list, wild_rules: bool, tables=None):
        self.hands_native = hands
        self.tables = tables  # the native tables of the catalog (they read a hand's tile text in a batch)
        # a rule set with wildcards or stand-ins: its hands are read as the reference's `_readings_wild`
        # reads them (charging splits too); one holding wildcards or stand-ins in play is given to the
        # native side with its tiles classified (`classified`)
        self.wild_rules = wild_rules
        self.not_natural = 0  # hands holding wildcards or stand-ins in play (read natively or handed back)
        self.wild_fallbacks = 0  # of those, hands handed back to the Python path
        self._wild_hand = False  # whether the hand being scored holds wildcards or stand-ins in play
        self._classes: tuple = (None, {})  # (the Scoring, its `classify` by `standins`) of the last hand
        self.plain_forms = False  # whether some form says `standins false` (set by `native_hands`)
        self.counts = counts
        self.items = items  # the (spec, slots) item of each split group of the native tables
        self.hands = 0
        self.fallbacks = 0  # hands handed back to the Python path
        self.reasons: dict[str, int] = {}  # why, for the record (bench/native_diff.py prints them)
        self._melds: dict[tuple, tuple] = {}  # (meld kind, tile kinds) -> the meld as the native side takes it
        self._forms: dict[int, tuple] = {}  # id of a rules' forms list -> (that list, form positions)
        self.last_text: str | None = None  # the native JSON of the last hand with no reading (`json_text`)
        self.lanes = None  # the lanes of `Rules.score` calls (runtime/nativelane.py), made at the first
        self.searches: dict = {}  # the native signature searches of the game's win questions, by decomposer and room

    def _meld(self, sc, m) -> tuple:
        return self.encode_meld(sc.rules, m)

    def encode_meld(self, rules, m) -> tuple:
        """A laid-down meld (already checked) as the native side takes it, recorded for its loops too."""
        key = (m.kind, tuple([t.index for t in m.tiles]))
        got = self._melds.get(key)
        if got is None:
            mk = rules.ir.meld(m.kind)
            tiles = [RTile(t) for t in m.tiles]
            v = rules.meld_value(mk, tiles[0].kind.suit if tiles else None) if mk.values else 0  # Scoring.group_value
            try:
                ev = encode(v)
            except Unencodable:
                ev = MISSING
            vec = None
            pre = self.counts.prefilter
            if pre is not None:
                g = Group(m.kind, tiles, exposed=mk.exposed, concealed=not mk.exposed, is_pair=mk.pair,
                          is_kong=mk.kong, value=v, declared=True)
                try:
                    vec = pre.vector(g, True)
                except (EvalError, KeyError, TypeError):  # as NativeCounts.encode: no prefilter then
                    vec = None
            if len(self._melds) > 10_000:
                self._melds.clear()
            got = self._melds[key] = (m.kind, key[1], bool(mk.exposed), bool(mk.pair), bool(mk.kong), ev, _bytes(vec))
            self.hands_native.add_meld(got)  # for a loop in Rust over many hands (`Hands::known_meld`)
        return got

    def form_positions(self, rules) -> tuple:
        """The positions of the forms `rules` win by among the rule set's forms."""
        return self._form_positions(rules)

    def batch_context(self, rules, cat, env) -> tuple | None:
        """What the native batch driver needs to score hands of one context itself (runtime/native/src/
        batch/native.rs): (Hands, Tables, settings not self-drawn, settings self-drawn, a new meld's check, form
        positions, work, which kinds are flowers, the tile text, meld and tile limits, which kinds a line
        must not hold, whether splits are charged); None when its hands all go to the Python path (a
        setting that cannot be handed over). In a rule set with wildcards or stand-ins only a line holding
        no tile of a kind that may be wild or stand in under this context is taken (then no tile is wild
        or a stand-in, whatever the conditions say: `classify` finds none, as `call` requires), its
        splits charged as `call` charges them."""
        if self.tables is None:
            return None
        states = [self.counts.scorer.hand_state(env, sd, []) for sd in (False, True)]
        if states[0] is None or states[1] is None:
            return None
        flowers = [k.category == "flower" for k in cat.kinds] if cat.has_flowers else [False] * len(cat.kinds)
        held_back = [False] * len(cat.kinds)
        if self.wild_rules:
            for i in maybe_not_natural(rules.ir, cat, env):
                held_back[i] = True
        return (self.hands_native, self.tables, states[0][0], states[1][0],
                lambda kind, kinds: self.batch_meld(rules, cat, kind, kinds),
                list(self._form_positions(rules)), HAND_WORK, flowers, MAX_TILE_TEXT, MAX_MELDS, MAX_HAND_TILES,
                held_back, self.wild_rules)

    def batch_counts(self) -> tuple[int, int, int]:
        """What the native batch loop has scored with these tables: (hands, handed back, waits questions
        the native trials answered)."""
        return self.hands_native.batch_counts()

    def count_batch(self, before: tuple[int, int, int]) -> None:
        """The hands the native batch loop scored since `before` (`batch_counts()`) counted as the hands
        of `score` are (`Rules.stats()`: native_hands, native_hand_fallbacks, native_waits). A line it
        handed back is not counted here: the line scorer scores it again through `score`, which counts
        it (and its waits) once, natively or handed back."""
        hands, back, waits = (a - b for a, b in zip(self.batch_counts(), before))
        self.hands += hands - back
        self.counts.scorer.wait_calls += waits

    def batch_meld(self, rules, cat, kind: str, kinds: list) -> bool:
        """A meld a batch line lays down, its kind's name stripped and its tiles read by the native side
        (catalog indexes): recorded when it is one runtime/hand.py `build_hand` takes; False if not (the
        line then goes to the reference, which says why)."""
        return self.checked_meld(rules, cat, kind, kinds) is not None

    def checked_meld(self, rules, cat, kind: str, kinds: list) -> tuple | None:
        """`batch_meld`'s check: the meld as the native side takes it (`encode_meld`, recorded), or None."""
        mk = rules.ir.meld(kind)
        if mk is None or mk.pair:
            return None
        tiles = [cat.kinds[i] for i in kinds]
        if not rules.meld_matches(mk, tiles):
            return None
        return self.encode_meld(rules, Meld(kind, tiles))

    def _form_positions(self, rules) -> tuple:
        got = self._forms.get(id(rules.forms))
        if got is None or got[0] is not rules.forms:
            every = rules.ir.forms
            got = self._forms[id(rules.forms)] = (rules.forms, tuple(every.index(f) for f, _, _ in rules.forms))
        return got[1]

    def score(self, sc) -> ScoreResult | None:
        """The result of the hand `sc` (a Scoring) scores, or None when the Python path must score it."""
        got = self.call(sc, False)
        return got if got is None or isinstance(got, _score_result()) else self.result(sc, got)

    def json_text(self, sc) -> str | None:
        """The native side's own JSON of the hand's result (src/hand/json.rs, what `ScoreResult.to_json()`
        gives), or None when it hands the hand or its JSON back to the Python side (for the tests)."""
        got = self.call(sc, True)
        if got is None:
            return None
        if isinstance(got, _score_result()):
            return self.last_text
        return got[17] if isinstance(got[17], str) else None

    def call(self, sc, want_json: bool):
        """One native call for the hand: what it scored (the payload), a ScoreResult with no reading,
        or None (handed back); a refusal is raised."""
        h = sc.hand
        wild = groups = signatures = None
        self._wild_hand = False
        if self.wild_rules:
            naturals, wilds = self.classify(sc, True)
            if wilds or any(t.physical is not t.kind for t in naturals):
                from . import hand_readings  # (read each time: a setting the tests change)

                self.not_natural += 1
                self._wild_hand = True
                plays = classified(naturals, wilds)
                # without stand-ins, only for a rule set with a form that lets stand-ins be themselves
                wild = (classified(*self.classify(sc, False)) if self.plain_forms else plays, plays,
                        hand_readings.SIGNATURE_FROM)
                groups = self.group_info(sc)
                signatures = self.signature_search(sc)
        self.hands += 1
        # the flowers as the catalog's tiles: a natural tile's code is its kind's (no reading tiles made)
        state = self.counts.scorer.hand_state(sc.env, h.self_drawn, h.flowers)
        if state is None:
            return self.fell_back("a setting that cannot be handed over")
        melds = tuple(self._meld(sc, m) for m in h.melds)
        work = sc.work
        start = work[0]
        if not -(1 << 63) <= start < 1 << 63:  # the native side counts work in 64 bits
            return self.fell_back("a work budget past 64 bits")
        spent = [0]

        def waits(shape: bool, left: int):
            work[0] = left
            got = sc.waits_of_hand(shape=shape)
            spent[0] += left - work[0]
            return encode(got), work[0]

        try:
            status, left, got, found = self.hands_native.score(
                [t.index for t in h.concealed], melds, h.win.index if h.win is not None else -1, h.self_drawn,
                state[0], state[2], self._form_positions(sc.rules), start, waits, want_json, self.wild_rules,
                wild, groups, signatures)
        except self.counts.declined as exc:  # a value past 64 bits, or an internal error (counted)
            if isinstance(exc, self.counts.mod.NativeError):
                self.counts.failures += 1
            work[0] = start - spent[0]
            return self.fell_back(str(exc))
        self.keep_waits(sc, found)
        spent[0] += found[2]
        if status == 3:
            work[0] = start - spent[0]
            return self.fell_back(got)
        work[0] = left
        if status == 2:
            raise HandError(got)
        if status == 1:
            self.last_text = got
            return _score_result()(False, NO_READING)
        return got

    def count_natural(self) -> None:
        """A hand holding no wildcard or stand-in in play scored here (runtime/nativelane.py), counted
        as `call` counts it."""
        self._wild_hand = False
        self.hands += 1

    def keep_waits(self, sc, found: tuple) -> None:
        """The waits the native wait trials found for the hand, kept with it (the Python side never finds
        them again: a result's lazy evaluation, or the hand handed back, reads them), and counted."""
        self.count_waits(found)
        self.give_waits(sc, found)

    def count_waits(self, found: tuple) -> None:
        """The native wait trials' answers counted (`keep_waits` without the hand's `Scoring`)."""
        if found[3]:
            self.counts.scorer.wait_calls += found[3]

    def count_answered(self, answered: int) -> None:
        """`count_waits` of the number of questions the native wait trials answered."""
        self.counts.scorer.wait_calls += answered

    @staticmethod
    def give_waits(sc, found: tuple) -> None:
        """The waits the native wait trials found kept with the hand's `Scoring` (`keep_waits`'s first part)."""
        waits, shape_waits = found[0], found[1]
        kinds = sc.cat.kinds
        if waits is not None:
            sc.set_waits([kinds[i] for i in waits], False)
        if shape_waits is not None:
            sc.set_waits([kinds[i] for i in shape_waits], True)

    def classify(self, sc, standins: bool) -> tuple:
        """`sc.classify(sc.hand, standins)`, made once per hand (the call, its callbacks and the chosen
        reading's `Reading` read it; a tile's classification never changes within one hand)."""
        last, got = self._classes
        if last is not sc:
            got = {}
            self._classes = (sc, got)
        x = got.get(standins)
        if x is None:
            x = got[standins] = sc.classify(sc.hand, standins)
        return x

    def group_info(self, sc):
        """What the native readings of a hand holding wildcards or stand-ins ask of a group they form
        (src/hand/wild.rs): (its value, its prefilter vector), as `NativeCounts.encode` gives them."""
        return self.group_info_for(sc.rules, sc.cat)

    def group_info_for(self, rules, cat):
        """`group_info` for any hand of `rules` under `cat`: a group's value depends on its meld kind and
        tiles alone (`HandReadings.group_value`), so the native game's win questions ask it too
        (runtime/game/native_scope.py `set_scoring`)."""
        kinds = cat.kinds
        pre = self.counts.prefilter

        def info(kind: str, tiles: list, concealed: bool, has_win: bool):
            mk = rules.ir.meld(kind)
            ts = [RTile(kinds[k], kinds[p], w, iw) for k, p, w, iw in tiles]
            v = rules.meld_value(mk, ts[0].kind.suit if ts else None) if mk.values else 0  # `group_value`
            try:
                ev = encode(v)
            except Unencodable:
                ev = MISSING
            vec = None
            if pre is not None:
                g = Group(kind, ts, exposed=False, concealed=concealed, is_pair=mk.pair, is_kong=mk.kong, value=v,
                          has_win=has_win)
                try:
                    vec = pre.vector(g, False)
                except (EvalError, KeyError, TypeError):  # as NativeCounts.encode: no prefilter then
                    vec = None
            return ev, _bytes(vec)
        return info

    def signature_search(self, sc):
        """The reference's signature search for the native readings (src/hand/wild.rs): (form position,
        melds, pairs, work left) -> (0, the splits as (groups as (meld kind, slots), the group holding the
        winning tile or -1), work left), (1, None, work left) where full enumeration decides, or (2, the
        refusal, work left). Its observers and their memos are the reference's own, so the signatures,
        the work charged and what later hands find in the memos are the same on both backends."""
        h = sc.hand
        forms = sc.rs.forms

        def ask(fi: int, m: int, p: int, left: int):
            form = forms[fi]
            naturals, wilds = self.classify(sc, form.standins)
            counts = [0] * sc.dec.n
            for t in naturals:
                counts[t.kind.index] += 1
            work = sc.work
            work[0] = left
            return signature_answer(sc, form, m, p, counts, naturals, wilds, h, work)
        return ask

    def signature_search_for(self, rules, cat, dec, settings: dict):
        """`signature_search` for the native game's win questions (engine/winning/wild.rs), which have no
        `Scoring` of the hand: (the scoring environment's context and reveal values as JSON — [[name,
        value]], a tile as {"t": kind} —, self-drawn, for the waits, form position, melds, pairs, the
        natural tiles (kind, physical, winning), the wildcards (physical, winning), work left) -> as
        `signature_search`'s. The environment is `Winning._score_env`'s (`settings`, the room's, with
        those values over them); the search, its observers and their memos are the reference's."""
        from .hand import Hand
        from .hand_score import Scoring

        kinds = cat.kinds

        def value(v):
            if isinstance(v, dict):
                return kinds[v["t"]]
            return [value(x) for x in v] if isinstance(v, list) else v

        def ask(env_json: str, self_drawn: bool, for_waits: bool, fi: int, m: int, p: int, naturals: list,
                wilds: list, left: int):
            env = dict(settings)
            for name, v in json.loads(env_json):
                env[name] = value(v)
            sc = Scoring(rules, cat, dec, rules.retile(env, cat), Hand([], [], None, self_drawn))
            if for_waits:
                sc.purpose = "waits"  # as `Scoring.wait_kinds` sets it for its trials
            nat = [RTile(kinds[k], kinds[ph], False, w) for k, ph, w in naturals]
            wl = [RTile(kinds[ph], kinds[ph], True, w) for ph, w in wilds]
            counts = [0] * dec.n
            for t in nat:
                counts[t.kind.index] += 1
            return signature_answer(sc, rules.ir.forms[fi], m, p, counts, nat, wl, sc.hand, [left])
        # the native search (runtime/native_search.py) with `ask` for what it declines: one per decomposer
        # and room, kept, so its observers serve every game of the rule set as the reference's do
        key = (id(dec), tuple(sorted((k, repr(v)) for k, v in settings.items())))
        got = self.searches.get(key)
        if got is None or got[0] is not dec:
            got = self.searches[key] = (dec, native_search(rules, cat, dec, settings, ask))
        return got[1]

    def fell_back(self, why: str) -> None:
        self.fallbacks += 1
        self.reasons[why] = self.reasons.get(why, 0) + 1
        self.wild_fallbacks += self._wild_hand
        return None

    def reading(self, sc, form: int, groups: list, listed: bool, win_kind: int) -> Reading:
        """The Python reading of the chosen one: its groups the shared cached ones (as
        `HandReadings.readings` makes them), or for an instant or orphans form its tiles listed."""
        h = sc.hand
        f = sc.rs.forms[form]
        exposed = sc.exposed_groups(h) if h.melds else []
        win = h.win
        if listed and self.wild_rules:  # as `_readings_wild` lists them: natural tiles, then wildcards
            naturals, wilds = self.classify(sc, f.standins)
            tiles = naturals + wilds
            win_rtile = next((t for t in tiles if t.is_win), None)
            all_tiles = tiles + [t for g in exposed for t in g.tiles]
            return Reading(f.name, list(exposed) if f.instant is not None else [], all_tiles, tiles, win_rtile, None)
        if listed:
            pieces = sc.dec.pieces
            naturals = [pieces.natural_tile(t) for t in h.concealed]
            if win is not None:
                naturals.append(pieces.natural_tile(win, True))
            win_rtile = naturals[-1] if win is not None else None
            all_tiles = naturals + [t for g in exposed for t in g.tiles]
            return Reading(f.name, list(exposed) if f.instant is not None else [], all_tiles, naturals, win_rtile, None)
        gs = []
        wg = wt = None
        built = []  # the groups of a hand holding wildcards or stand-ins (`_readings_of` makes them)
        for a, pos, concealed in groups:
            if pos == -2:
                gs.append(exposed[a])
                continue
            if pos == -4:  # a group of a signature reading: the reference's shared object
                kind, tiles = a
                slots = tuple((k, w) for k, _, w, _ in tiles)
                wp = next((j for j, x in enumerate(tiles) if x[3]), -1)
                wild_phys = self.classify(sc, f.standins)[1][0].physical
                g = sc.signature_group(kind, sc.rs.meld(kind).pair, slots, wp, wild_phys, h.self_drawn)
                if wp >= 0:
                    wg, wt = g, g.tiles[wp]
                gs.append(g)
                continue
            if pos == -3:
                kind, tiles = a
                mk = sc.rs.meld(kind)
                kinds = sc.cat.kinds
                ts = [RTile(kinds[k], kinds[p], w, iw) for k, p, w, iw in tiles]
                g = Group(kind, ts, exposed=False, concealed=concealed, is_pair=mk.pair, is_kong=mk.kong,
                          value=sc.group_value(mk, ts), has_win=any(t.is_win for t in ts))
                for t in ts:
                    if t.is_win:
                        wg, wt = g, t
                gs.append(g)
                built.append(g)
                continue
            spec, slots = self.items[a]
            g = sc.cached_group(spec.kind, slots, pos, concealed)
            if pos >= 0:
                wg, wt = g, g.tiles[pos]
            gs.append(g)
        if built:
            return Reading(f.name, gs, [t for g in gs for t in g.tiles], [t for g in built for t in g.tiles], wt, wg)
        r = Reading(f.name, gs, None, None, wt, wg)
        r.shape = {}
        return r

    def result(self, sc, got: tuple, rules=None) -> ScoreResult:
        """The result object of the hand `sc` scores (with `rules` given, `sc` is a function that makes
        the hand's `Scoring`, as `result_of` takes it) from what the native call gave."""
        (form, win, considered, rejected, groups, listed, _, win_kind, final, values, units, score, total,
         best, trace, quantities, _, _json, labels) = got
        # the Python reading is made when the result is first read beyond its score
        if rules is None:
            return result_of(sc, lambda: self.reading(sc, form, groups, listed, win_kind), win, considered,
                             rejected, final, values, units, score, total, best, trace, quantities, labels)
        return result_of(sc, lambda: self.reading(sc(), form, groups, listed, win_kind), win, considered, rejected,
                         final, values, units, score, total, best, trace, quantities, labels, rules)


def maybe_not_natural(rs, cat, env: dict) -> set[int]:
    """The kinds (catalog indexes) a tile of which may be wild or a stand-in under this context: every
    wildcard's kind (named, or its reveal's value in `env`) and every stand-in's, whatever their
    conditions (`HandReadings.classify` narrows these down by them)."""
    out = set()
    for w in rs.wilds:
        kind = cat.by_name.get(w.tiles)
        if kind is None:
            v = env.get(f"reveal:{w.tiles}")
            kind = cat.by_name.get(v.name) if v is not None else None
        if kind is not None:
            out.add(kind.index)
    for s in rs.standins:
        kind = cat.by_name.get(s.name)
        if kind is not None:
            out.add(kind.index)
    return out


def classified(naturals: list, wilds: list) -> tuple:
    """A hand's tiles as `HandReadings.classify` gives them, as the native readings take them."""
    return ([(t.kind.index, t.physical.index, t.is_win) for t in naturals],
            [(t.physical.index, t.is_win) for t in wilds])


def native_hands(rules, cat, dec, counts: NativeCounts | None, mod) -> tuple[NativeHands | None, str]:
    """The native scoring of whole hands for one catalog, or None and the reason."""
    if counts is None or counts.scorer is None:
        return None, "the native scoring is not used"
    fast = rules.pattern_lines()  # the names the results are made of (not the generated code)
    if fast is None:
        return None, "the generated scorer does not take this rule set"
    structure = dec.structure
    if not getattr(structure, "split_items", False) or not hasattr(mod, "Hands"):
        return None, "the native tables do not enumerate this rule set's splits"
    rs = rules.ir
    pre = counts.prefilter
    setup = hand_setup(rules, cat, dec, pre, fast)
    setup["form_instant_wilds"] = instant_wilds(rs)
    try:
        hands = mod.Hands(counts.scorer.scorer, structure.tables, setup)
    except (mod.NotCovered, mod.NativeError, ValueError, TypeError) as exc:
        return None, f"the native core refused the hand setup: {exc}"
    out = NativeHands(hands, counts, structure.items, bool(rules.ir.wilds or rules.ir.standins), structure.tables)
    out.plain_forms = any(not f.standins for f in rs.forms)
    return out, ""


def instant_wilds(rs) -> list[int]:
    """The fewest wildcards each form's `instant` condition holds with (0: not instant, or it says
    nothing of them), for the game's exact shortcuts on the native side (src/engine/winning/shortcut.rs);
    not part of `hand_setup`, which a batch setup records, as a batch hand takes no such shortcut."""
    return [wilds_needed(f.instant) if f.instant is not None else 0 for f in rs.forms]


def hand_setup(rules, cat, dec, pre, fast) -> dict:
    """What the native `Hands` takes besides its programs and tables (plain data: the batch setup of
    runtime/batchsetup.py records it)."""
    rs = rules.ir

    def vector(g) -> bytes | None:
        if pre is None:
            return None
        try:
            return _bytes(pre.vector(g, False))
        except (EvalError, KeyError, TypeError):
            return None

    split_groups = []
    for spec, slots in dec.structure.items:
        mk = rs.meld(spec.kind)
        kinds = [k for k, _ in slots]
        tiles = [RTile(cat.kinds[k]) for k in kinds]
        v = rules.meld_value(mk, tiles[0].kind.suit if tiles else None) if mk.values else 0
        try:
            ev = encode(v)
        except Unencodable:
            ev = MISSING
        variants = [Group(spec.kind, tiles, exposed=False, concealed=conc, is_pair=mk.pair, is_kong=mk.kong, value=v,
                          has_win=has_win) for has_win, conc in ((False, True), (True, True), (True, False))]
        split_groups.append((spec.kind, kinds, bool(mk.pair), bool(mk.kong), ev, *[vector(g) for g in variants]))
    return {
        "kind_names": [k.name for k in cat.kinds],
        "kind_codes": [k.notation_code for k in cat.kinds],
        "tile_codes": [tile_code(k) for k in cat.kinds],
        "forms": [(f.name, f.groups, f.melds, tuple(f.pairs) if f.pairs else None, f.tiles, bool(f.concealed),
                   [k.index for k in cat.with_attr(f.orphans)] if f.orphans else None, f.instant is not None)
                  for f in rs.forms],
        "meld_sizes": list(dec.sizes[0]),
        "pair_sizes": list(dec.sizes[1]),
        "table_hand": rs.table.hand,
        "split_groups": split_groups,
        "prefilter": pre is not None,
        "reasons": [unmet_reason(q) for q, _, _ in rules.requires],
        "limit_sentence": LIMIT_SENTENCE,
        "reading_work": READING_WORK,
        "split_limit": SPLIT_LIMIT,
        "pattern_names": [m[1] for m in fast.fan_meta],
        "tally_names": list(fast.tally.names),
        "labels": [m[0] for m in fast.fan_meta],
        "label_texts": [LABEL_SLOT.split(p.label)[::2] if m[0] is None and p.label_exprs else None
                        for p, m in zip(fast.patterns, fast.fan_meta)],
        "units": [m[2] for m in fast.fan_meta],
        "combine_names": [c[0].name for c in fast.tally.combines],
        "unit_order": list(fast.unit_order),
        "quantity_names": list(fast.quantity_names),
        "form_standins": [bool(f.standins) for f in rs.forms],
        "meld_kinds": [(m.name, bool(m.pair), bool(m.kong)) for m in rs.melds],
    }


__all__ = ["NativeHands", "hand_setup", "maybe_not_natural", "native_hands", "NO_READING"]
