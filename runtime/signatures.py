"""The splits of a hand holding wildcards, one per signature: the dynamic programme that scores a
four-wildcard hand in one pass instead of one split at a time (docs/architecture.md, "Hands with
wildcards: one reading per signature"). It runs over the placements of `runtime/decompose.py`
(`Decomposer.packed_choices`) and asks its structure whether a state can be split at all."""
from __future__ import annotations

from .backend import NativeStructure, native_module
from .decompose import Decomposer, SplitLimit

_DIGIT = 20  # bits of one choice in a `signature_splits` key: more than the groups one state can try
_LOW = (1 << 32) - 1  # the low half of a packed pair of numbers (`signature_splits`)


class SigMemo:
    """What `signature_splits` numbers, kept in the caller's memo (for one observer) with the
    tables that hold the numbers: signatures, groups (spec, slots, winning slot), witnesses (a group and
    the witness of the groups after it; 0 is no group), the join of a part with a signature, the parts
    of placements (`parts`: packed part << 32 | group; `win_parts` by placement << 16 | winning slot),
    and `can_split` of packed counts."""

    LIMIT = 1 << 22  # numbers of one kind before the memo starts afresh (they stay below 2**32)

    def __init__(self, width: int):
        self.width = width  # bits a kind of the packed counts
        self.sigs: list = []
        self.sig_ids: dict = {}
        self.items: list = []
        self.item_ids: dict = {}
        self.wit_item: list[int] = [0]  # witness number -> its group's number (0: none)
        self.wit_next: list[int] = [0]  # witness number -> the witness of the groups after it
        self.joined: dict[int, int] = {}
        self.parts: dict[int, int] = {}
        self.win_parts: dict[int, int] = {}
        self.can: dict = {}
        self.guards: dict[int, int] = {}  # the top bit of every field, by the number of kinds

    def full(self) -> bool:
        return max(len(self.sigs), len(self.wit_item), len(self.joined)) > self.LIMIT

    def guard(self, n_kinds: int) -> int:
        got = self.guards.get(n_kinds)
        if got is None:
            got = self.guards[n_kinds] = sum(1 << (self.width * k + self.width - 1) for k in range(n_kinds))
        return got

    def number(self, sig) -> int:
        got = self.sig_ids.get(sig)
        if got is None:
            got = self.sig_ids[sig] = len(self.sigs)
            self.sigs.append(sig)
        return got

    def item(self, item) -> int:
        got = self.item_ids.get(item)
        if got is None:
            got = self.item_ids[item] = len(self.items)
            self.items.append(item)
        return got

    def join_numbers(self, pid: int, sid: int, jk: int, join) -> int:
        got = self.joined[jk] = self.number(join(self.sigs[pid], self.sigs[sid]))
        return got


def signature_splits(dec: Decomposer, counts: list[int], wilds: int, melds: int, pairs: int, win, part, join,
                     unit, memo: dict, budget: list[int]):
    """The splits of a hand that holds wildcards, one per **signature** (`runtime/observe.py`): what
    scoring can observe of a reading. Readings of equal signature score alike, so only the first
    of each (in the order `splits` would find them, the winning tile placed as `Scoring` places it)
    is returned, as (signature, groups, index of the group holding the winning tile).

    A dynamic programme over the same search as `Decomposer.splits`: a state is (the natural tiles left,
    wildcards left, melds and pairs left, whether the winning tile is still to be placed), and its
    value is a table from the signature of the groups still to come to the first way of forming
    them. States recur across splits (and across hands: `memo` is kept by the caller for one
    observer, and a state whose winning tile is placed does not depend on which tile it is), so
    the work is polynomial in the states and the distinct signatures rather than exponential in
    the wildcards. `win` is None, ("nat", kind index) or ("wild",). `part(spec,
    slots, win_pos)` is the signature part of one group; `join(a, b)` joins parts, a first; `unit`
    is the part of no group. `budget[0]` counts down the table entries made; at 0 `SplitLimit` is
    raised (never a silent truncation).

    Keys: the order in which `splits` and `Scoring` find readings is lexicographic in the choices
    made at each depth (an index over shapes and placements), then the depth of the group holding
    the winning tile; keys are those tuples, relative to the state (written as integers, see
    `merge`), so the smallest key of a signature is its first reading. A natural tile's state is
    only entered when the structure says it can be split (`options`).

    The inner loop is a table merge (some 100,000 entries for the trial tiles of a four-wildcard
    `waits`), so everything it touches is a small integer (`SigMemo`): signatures, parts and
    groups are numbered once per memo, a join is computed once per (part, signature) pair of
    numbers, an entry is its key and the number of its witness (a chain of groups in one list),
    and tile counts are one integer (`packed_templates`), so taking a group's natural tiles is one
    subtraction and whether they are held one test of the fields' top bits. A table is then a
    dict of integers, which the garbage collector does not track: a table of tuples made the
    collector's full passes over the growing memo cost as much as the programme itself.

    Where the native tables answer `can_split` (runtime/backend.py `NativeStructure`), the native
    core runs this same programme (runtime/native/src/signatures/), asking this module for what the
    rule set defines: a tile's placements (`Decomposer.templates`), a shape's pure-wildcard groups,
    the number of a part, of a join (once per pair of numbers) and of the unit. Its states, merges,
    keys, witnesses and the work counted are these, so the results are; what it does not take (more
    than 64 kinds or 7 tiles of a kind, a choice past its key's digits) this function runs."""
    width = max(8, max(counts, default=0).bit_length() + 1)
    sm = memo.get("numbers")
    nm = memo.get("native")
    if sm is None or sm.width != width or sm.full() or (nm is not None and nm.numbered > SigMemo.LIMIT):
        memo.clear()  # numbers and packed counts of another width would be read wrongly
        sm = memo["numbers"] = SigMemo(width)
    structure = dec.structure
    if isinstance(structure, NativeStructure) and wilds <= structure.cap and max(counts, default=0) <= 7:
        got = _native(dec, structure, counts, wilds, melds, pairs, win, part, join, unit, memo, sm, budget)
        if got is not None:
            return got
    return _reference(dec, counts, wilds, melds, pairs, win, part, join, unit, memo, sm, budget)


def memo_held(memo: dict) -> int:
    """What an observer's memo holds, as the bound on the kept observers counts it (runtime/
    hand_signatures.py `MEMO_HELD`): its states (with its lists of options and pure-wildcard states),
    its witnesses and its joins, the reference's and the native memo's alike (src/signatures/mod.rs
    `Memo::held` counts the same), so every backend starts memos afresh after the same questions. Every
    other table of a memo grows with these: a state's table entries each made a witness, a state's
    options and the tiles it tried are bounded by the rule set's placements, the signatures numbered by
    the joins and parts."""
    sm = memo.get("numbers")
    if sm is None:  # nothing asked yet, or started afresh
        return 0
    nm = memo.get("native")
    own = len(memo) - 1 + len(sm.wit_item) - 1 + len(sm.joined)  # less "numbers" and the empty witness
    return own if nm is None else own - 1 + nm.held


def memo_size(memo: dict) -> int:
    """The entries an observer's memo holds, counted as the reference's (the native memo's too), so
    that the caller starts it afresh after the same hands on every backend."""
    nm = memo.get("native")
    return len(memo) if nm is None else len(memo) - 1 + nm.entries


def _native(dec, structure, counts, wilds, melds, pairs, win, part, join, unit, memo, sm, budget):
    """The programme in the native core, or None when it does not take this hand (the reference
    then runs from the same budget)."""
    mod = native_module()
    specs = dec.meld_specs + dec.pair_specs
    nm = memo.get("native")
    if nm is None:
        make = getattr(mod, "SigMemo", None)  # None: an extension built before the native search
        if make is None:
            return None
        try:
            nm = make(dec.n, specs, len(dec.meld_specs), [s.is_pair for s in specs], [s.size for s in specs])
        except mod.NotCovered:
            return None
        memo["native"] = nm
    sigs = sm.sigs
    number = sm.number

    def templates(i: int) -> list:
        return [[(slots, nat, nw, fw, tuple(fn.items())) for slots, nat, nw, fw, fn in dec.templates(spec, i)]
                for spec in specs]

    def targets(s: int) -> list:
        return [tuple(slots) for slots in dec.wild_targets_for(specs[s])]

    wild_win = win is not None and win[0] == "wild"
    win_kind = win[1] if win is not None and win[0] == "nat" else -1
    code = 0 if win is None else 1 if wild_win else 2 + win_kind
    try:
        got = nm.run(structure.tables, counts, wilds, melds, pairs, win_kind, wild_win, win is not None, code,
                     sigs, budget, lambda spec, slots, wp: number(part(spec, slots, wp)),
                     lambda a, b: number(join(sigs[a], sigs[b])), lambda: number(unit), templates, targets)
    except structure.declined as exc:  # the native memo has started afresh if it had begun
        structure.fell_back(exc)
        return None
    if got is None:
        raise SplitLimit
    return got


def _reference(dec, counts, wilds, melds, pairs, win, part, join, unit, memo, sm, budget):
    """`signature_splits` in Python: the reference."""
    specs_m = dec.meld_specs
    specs_p = dec.pair_specs
    wild_win = win is not None and win[0] == "wild"
    win_kind = win[1] if win is not None and win[0] == "nat" else -1
    n_kinds = dec.n
    width = sm.width
    sigs = sm.sigs
    number = sm.number
    jget = sm.joined.get
    joined = sm.join_numbers
    parts = sm.parts
    win_parts = sm.win_parts
    can_memo = sm.can
    item_of = sm.item
    wit_item = sm.wit_item
    wit_next = sm.wit_next
    field = (1 << width) - 1
    guard = sm.guard(n_kinds)
    win_shift = width * win_kind
    # the winning tile in a state's memo key: 0 placed (or none), 1 a wildcard, 2 + its kind
    win_code = 0 if win is None else 1 if wild_win else 2 + win_kind

    def merge(out: dict, c: int, digits: int, pid: int, sub: dict, mode: int, iid: int) -> None:
        # Keys are the choice tuples written as integers, one _DIGIT-bit digit per choice (every key
        # of one table has the same number of digits, the groups still to come, plus one for the
        # depth of the winning group while it is to be placed), so comparing them is comparing the
        # tuples. mode 0: the win is placed already (keys are paths); 1: still to place below (keys
        # end in its relative depth); 2: this group holds it (sub keys are paths). `digits` is the
        # number of digits of the keys of `sub` as they enter `out` below c. An entry is
        # key << 32 | its witness's number; keys of one merge differ, so entries compare as keys.
        budget[0] -= len(sub)
        if budget[0] < 0:
            raise SplitLimit
        get = out.get
        base = c << (_DIGIT * digits)
        jb = pid << 32
        if mode == 1:
            base += 1
        shift = _DIGIT if mode == 2 else 0
        for sid, v in sub.items():
            jk = jb | sid
            s2 = jget(jk)
            if s2 is None:
                s2 = joined(pid, sid, jk, join)
            k2 = base + ((v >> 32) << shift)
            old = get(s2)
            if old is None or k2 < old >> 32:
                out[s2] = (k2 << 32) | len(wit_item)
                wit_item.append(iid)
                wit_next.append(v & _LOW)

    def pure(w: int, m: int, p: int, need: bool) -> dict:
        if need and not wild_win:
            return {}  # a natural winning tile left unplaced
        mk = ("w", w, m, p, win if need else None)
        got = memo.get(mk)
        if got is not None:
            return got
        out: dict = {}
        if m == 0 and p == 0:
            if w == 0 and not need:
                out[number(unit)] = 0  # key 0, witness 0: no group
        elif dec.wild_only_fits(w, m, p):
            c = 0
            for spec in (specs_m if m else specs_p):
                if spec.size > w:
                    continue
                for slots in dec.wild_targets_for(spec):
                    slots = tuple(slots)
                    args = (w - spec.size, m - (not spec.is_pair), p - spec.is_pair)
                    sub = pure(*args, need)
                    if sub:
                        merge(out, c, m + p - 1 + need, number(part(spec, slots, -1)), sub, 1 if need else 0,
                              item_of((spec, slots, -1)))
                    if need and wild_win:
                        sub = pure(*args, False)
                        if sub:
                            merge(out, c, m + p, number(part(spec, slots, 0)), sub, 2, item_of((spec, slots, 0)))
                    c += 1
        memo[mk] = out
        return out

    can_split = dec.can_split
    packed_choices = dec.packed_choices
    if width == 8:
        def unpack(x: int) -> tuple:
            return tuple(x.to_bytes(n_kinds, "little"))
    else:
        def unpack(x: int) -> tuple:
            return tuple((x >> (width * k)) & field for k in range(n_kinds))

    def rec(key: int, i: int, w: int, m: int, p: int, need: bool) -> dict:
        # i: the lowest natural tile left (-1 for none); the state is one `options` found live
        # one integer (not a tuple: made on every call, it would feed the garbage collector);
        # wildcards, melds and pairs are below 2**16 and the win code below 2**10 (limits.py)
        mk = (((((key << 16) | w) << 16 | m) << 16 | p) << 10) | (win_code if need else 0)
        got = memo.get(mk)
        if got is not None:
            return got
        if need and (not (key >> win_shift) & field if win_kind >= 0 else w == 0):
            return {}  # the winning tile can no longer be placed
        if i < 0:  # no natural tile left
            out = pure(w, m, p, need)
            memo[mk] = out
            return out
        out = {}
        digits = m + p - 1 + need
        mode = 1 if need else 0
        for c, (spec, slots, args, pid, fw, fn, pl, iid) in enumerate(options(key, i, w, m, p)):
            sub = rec(*args, need)
            if sub:
                merge(out, c, digits, pid, sub, mode, iid)
            if need:
                wp = fw if wild_win else fn.get(win_kind, -1)
                if wp >= 0:
                    sub = rec(*args, False)
                    if sub:
                        wk = (pl << 16) | wp
                        got = win_parts.get(wk)
                        if got is None:
                            got = win_parts[wk] = (number(part(spec, slots, wp)) << 32) | item_of((spec, slots, wp))
                        merge(out, c, m + p, got >> 32, sub, 2, got & _LOW)
        memo[mk] = out
        return out

    def options(key: int, i: int, w: int, m: int, p: int) -> list:
        """The groups that can hold the lowest natural tile i, in the order `splits` tries them, with
        the state each leaves and its signature part (shared by every placement of the winning
        tile). A group whose remaining tiles cannot be split is left out (its state would only give
        an empty table); the order of those kept is unchanged, which is all the keys compare."""
        ok = ("o", key, w, m, p)
        got = memo.get(ok)
        if got is not None:
            return got
        got = []
        held = key | guard
        for spec, slots, delta, nw, fw, fn, pl in packed_choices(i, width, m > 0, p > 0, w):
            if (held - delta) & guard != guard:
                continue  # a natural member not held
            child = key - delta
            wl = w - nw
            pair = spec.is_pair
            dm = m - (not pair)
            dp = p - pair
            if child:
                ci = ((child & -child).bit_length() - 1) // width
                ck = (child, wl, dm, dp)
                fits = can_memo.get(ck)
                if fits is None:
                    fits = can_memo[ck] = can_split(unpack(child), wl, dm, dp)
                if not fits:
                    continue
            else:
                ci = -1
            pg = parts.get(pl)
            if pg is None:
                pg = parts[pl] = (number(part(spec, slots, -1)) << 32) | item_of((spec, slots, -1))
            got.append((spec, slots, (child, ci, wl, dm, dp), pg >> 32, fw, fn, pl, pg & _LOW))
        memo[ok] = got
        return got

    top_key = sum(c << (width * k) for k, c in enumerate(counts))
    top_i = next((j for j, c in enumerate(counts) if c), -1)
    if top_i >= 0 and not can_split(tuple(counts), wilds, melds, pairs):
        return []
    top = rec(top_key, top_i, wilds, melds, pairs, win is not None)
    items = sm.items
    out = []
    for sid, v in top.items():
        groups = []
        win_gi = -1
        wid = v & _LOW
        while wid:
            spec, slots, wp = items[wit_item[wid]]
            if wp >= 0:
                win_gi = len(groups)
            groups.append((spec, list(slots)))
            wid = wit_next[wid]
        out.append((v >> 32, sigs[sid], groups, win_gi))
    out.sort(key=lambda x: x[0])
    return [(sig, groups, win_gi) for _, sig, groups, win_gi in out]
