"""The runtime's entry point: a loaded rule set that scores hands and lists waits.

    from .rules import load
    rules = load("VARIANT.json")                 # a compiled rule set (paili.load compiles a .pai)
    result = rules.score("123m456m789m东东东白", win="白", self_drawn=True)
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from . import limits
from .backend import choose as choose_backend
from .backend import native_module, native_structure
from .decompose import Decomposer, SplitLimit
from .evaluate import EvalError, compile_expr
from .fastwin import BlockWin
from .hand import Hand, HandError, build_hand, parse_tiles
from .ir import nodes as ir
from .limits import HAND_WORK, READING_WORK, SPLIT_LIMIT
from .nativecounts import NativeCounts, native_counts
from .notation import Notation
from .observe import Observer, Unobservable, varying_refs
from .reading import Group, Reading, RTile
from .scoring import CompiledPatterns, Evaluation, FanLine, LazyEvaluation, ReadingEvaluator
from .tiles import Catalog, TileInfo, setting_defaults


@dataclass
class ScoreResult:
    win: bool
    reason: str = ""
    evaluation: Evaluation | None = None
    readings: int = 0
    rejected: list[str] = field(default_factory=list)

    @property
    def fans(self):
        return self.evaluation.fans if self.evaluation else []

    @property
    def score(self):
        return self.evaluation.score if self.evaluation else 0

    @property
    def total(self):
        return self.evaluation.total if self.evaluation else 0

    def to_json(self) -> dict:
        ev = self.evaluation
        out: dict[str, Any] = {"win": self.win}
        if not self.win:
            out["reason"] = self.reason
        out["fans"] = [{"name": f.name, "value": _plain(f.value), "count": f.count} for f in self.fans]
        out["total"] = _plain(ev.total) if ev else 0
        out["score"] = _plain(ev.score) if ev else 0
        out["quantities"] = {k: _plain(v) for k, v in (ev.quantities.items() if ev else [])}
        out["trace"] = {
            "reading": ev.reading.describe() if ev else "",
            "form": ev.reading.form if ev else "",
            "readings_considered": self.readings,
            "fired": [{"pattern": f.pattern, "unit": f.unit, "count": f.count} for f in self.fans],
            "excluded": [{"pattern": p, "by": by} for p, by in (ev.excluded if ev else [])],
            "units": {k: _plain(v) for k, v in (ev.units.items() if ev else [])},
            "rejected": self.rejected[:10],
        }
        return out


def _short(raw) -> str:
    """A value echoed in an error message, cut to a few dozen characters."""
    text = str(raw) if isinstance(raw, (str, int, float, Fraction)) and not isinstance(raw, bool) else repr(raw)
    return text if len(text) <= 40 else text[:37] + "…"


_NUMBER_TEXT = re.compile(r"-?\d+(\.\d+)?(/\d+)?")


def _setting_number(name: str, raw, whole: bool):
    """A setting's number from text or a Python number: a whole number for int and seat settings, an
    exact decimal or fraction for num ones, within the limits of runtime/limits.py; HandError otherwise."""
    if isinstance(raw, bool) or not isinstance(raw, (str, int, float, Fraction)):
        raise HandError(f"{name} takes a number, not {_short(raw)!r}")
    if isinstance(raw, float) and not math.isfinite(raw):
        raise HandError(f"{name} takes a finite number, not {raw}")
    text = raw.strip() if isinstance(raw, str) else str(raw) if not isinstance(raw, Fraction) else None
    if text is not None:
        if len(text) > limits.MAX_NUMBER_DIGITS + 3 or not _NUMBER_TEXT.fullmatch(text):
            raise HandError(f"{name} takes a number, not '{_short(raw)}'")
        try:
            v = Fraction(text)
        except ZeroDivisionError:
            raise HandError(f"{name} takes a number, not '{_short(raw)}'") from None
    else:
        v = raw
    if limits.too_big(v):
        raise HandError(f"{name} is too large (more than {limits.MAX_VALUE_DIGITS} digits)")
    if whole:
        if v.denominator != 1:
            raise HandError(f"{name} takes a whole number, not {_short(raw)}")
        return int(v)
    return int(v) if v.denominator == 1 else v


# The fewest wildcards whose hands are read by signature: a single one gives few splits, and reading
# each of them is cheaper than finding the signatures.
SIGNATURE_FROM = 2

_LIMIT_SENTENCE = ("this hand has more ways to read its wildcards than paili examines for one hand "
                   f"({HAND_WORK:,} work units: a table entry or a split read is one, a reading scored "
                   f"{READING_WORK}; or {SPLIT_LIMIT:,} splits when every split is read)")


def _hashable(v):
    """A context value as part of a cache key."""
    if isinstance(v, list | tuple):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _hashable(x)) for k, x in v.items()))
    return v


def _plain(v):
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else float(v)
    if isinstance(v, TileInfo):
        return v.name
    return v


class Rules:
    def __init__(self, rs: ir.RuleSet, backend: str | None = None, ruleset_json: str | None = None):
        """`backend`: 'native', 'python' or 'auto' (None: the PAILI_BACKEND environment variable, see
        runtime/backend.py); `ruleset_json`: the rule set's JSON text when the caller has it (the native
        core reads nothing else; without it the IR is serialised once, when the native core is first
        needed)."""
        self.ir = rs
        self.backend = choose_backend(backend)
        self._ruleset_json = ruleset_json
        self.native_declined = ""  # why the native core does not take this rule set (empty: it does)
        self.notation = Notation.from_kinds(rs.tiles.kinds)
        self.patterns = CompiledPatterns(rs)
        self._catalogs: dict[tuple, tuple[Catalog, Decomposer]] = {}
        self._counts: dict[int, NativeCounts | None] = {}  # by id of a catalog kept in _catalogs
        self.catalog = self.catalog_for({})[0]
        self._requires = [(q, compile_expr(q.expr), compile_expr(q.unless) if q.unless is not None else None)
                          for q in rs.requires]
        # A requirement that depends on the waits (a minimum value that counts a wait pattern) cannot
        # decide what the hand waits on: the waits apply every other requirement.
        reads_waits = _reads_waits(rs)
        # Nor does one declared `waits false` (how the tile is won, e.g. only by self-draw): waits are the
        # tiles that complete the hand, however they come.
        self._wait_requires = [x for x in self._requires if x[0].decides_waits
                               and not any(reads_waits(e) for e in (x[0].expr, x[0].unless) if e is not None)]
        self._forms = [(f, compile_expr(f.instant) if f.instant is not None else None,
                        compile_expr(f.pair_when) if f.pair_when is not None else None) for f in rs.forms]
        self._wilds = [(w, compile_expr(w.active) if w.active is not None else None) for w in rs.wilds]
        self._standins = [(s, compile_expr(s.plays), compile_expr(s.unless) if s.unless is not None else None)
                          for s in rs.standins]
        self._settings = {s.name: s for s in rs.settings}
        self._reveals = {r.name for r in rs.reveals}
        from .fastscore import build

        # the generated reading evaluator (runtime/fastscore.py)
        self.fast = build(rs, self._requires, self._wait_requires)

    # ------------------------------------------------------------------ settings

    def catalog_for(self, settings: dict) -> tuple[Catalog, Decomposer]:
        key = tuple(sorted((k, str(v)) for k, v in settings.items() if k.startswith("option:")))
        if key not in self._catalogs:
            options = {k: v for k, v in settings.items() if k.startswith("option:")}
            try:
                cat = Catalog(self.ir, options)
            except (limits.LimitError, EvalError) as exc:
                raise HandError(f"the tiles cannot be set up under these room options: {exc}") from None
            held = self.max_wilds(cat)
            if held > limits.MAX_WILDS_HELD:
                raise HandError(f"under these room options a hand could hold {held} wildcards; the limit is "
                                f"{limits.MAX_WILDS_HELD}")
            dec = Decomposer(self.ir, cat)
            dec.attach_fast(BlockWin(dec, self.max_wilds(cat)))
            if self.backend == "native":
                structure, why = native_structure(self.ruleset_json(), options, cat, dec)
                if structure is not None:
                    dec.attach_structure(structure)
                else:
                    self.native_declined = why
                counts, why = native_counts(self.ruleset_json(), options, cat, native_module(), self.patterns)
                self._counts[id(cat)] = counts
                if counts is None and why not in self.native_declined:
                    self.native_declined = "; ".join(x for x in (self.native_declined, f"patterns: {why}") if x)
            self._catalogs[key] = (cat, dec)
        return self._catalogs[key]

    def ruleset_json(self) -> str:
        """The versioned JSON of this rule set (the native core's input)."""
        if self._ruleset_json is None:
            from .ir.serialize import dumps

            self._ruleset_json = dumps(self.ir)
        return self._ruleset_json

    @property
    def structure_backend(self) -> str:
        """'native' when the native core answers this rule set's win checks and waits, else 'python'."""
        dec = self.catalog_for({})[1]
        return getattr(dec.structure, "name", "python")

    @property
    def counts_backend(self) -> str:
        """'native' when the native core counts this rule set's patterns, else 'python'."""
        cat = self.catalog_for({})[0]
        return "native" if self._counts.get(id(cat)) is not None else "python"

    def native_counts_for(self, cat: Catalog) -> NativeCounts | None:
        """The native pattern programs bound to this catalog (None: the Python evaluators count)."""
        return self._counts.get(id(cat))

    def max_wilds(self, cat: Catalog) -> int:
        """The most wildcards one hand can hold under this catalog (bounds the per-block tables)."""
        n = 0
        for w in self.ir.wilds:
            if w.scope == "win_tile":
                n += 1
            elif w.tiles in cat.by_name:
                n += cat.by_name[w.tiles].copies
            else:  # a revealed tile: any kind's copies
                n += max((k.copies for k in cat.kinds), default=0)
        return n

    def settings_env(self, values: dict[str, Any] | None) -> dict:
        """`--set NAME=VALUE` values (strings or Python values) -> the expression environment."""
        base = self.__dict__.get("_default_env")
        if base is None:
            base = setting_defaults(self.ir)
            lookup = {"tile-lookup": lambda name: self.catalog.by_name.get(name)}
            for st in self.ir.settings:  # tile defaults ('东') need the catalog
                key = f"{st.role}:{st.name}"
                if st.type == "tile" and base.get(key) is None and st.default is not None:
                    try:
                        base[key] = compile_expr(st.default)(lookup)
                    except (EvalError, KeyError, TypeError):
                        pass
            for r in self._reveals:
                base[f"reveal:{r}"] = None
            self.__dict__["_default_env"] = base
        env = dict(base)
        for name, raw in (values or {}).items():
            s = self._settings.get(name)
            if s is not None:
                env[f"{s.role}:{name}"] = self._convert(s, raw)
            elif name in self._reveals:
                env[f"reveal:{name}"] = self._tile_value(name, raw)
            else:
                names = sorted(list(self._settings) + list(self._reveals))
                raise HandError(f"unknown name '{name}' in --set (this rule set knows: {', '.join(names)})")
        return env

    def _convert(self, s: ir.Setting, raw):
        name = s.name
        if s.type == "bool":
            if isinstance(raw, bool):
                v = raw
            elif str(raw).lower() in ("true", "1", "yes", "是"):
                v = True
            elif str(raw).lower() in ("false", "0", "no", "否"):
                v = False
            else:
                raise HandError(f"{name} takes true or false, not '{_short(raw)}'")
        elif s.type in ("int", "num", "seat"):
            v = _setting_number(name, raw, whole=s.type != "num")
            if s.range and not s.range[0] <= v <= s.range[1]:
                raise HandError(f"{name} must be within {s.range[0]}..{s.range[1]}, not {v}")
            if s.values:
                allowed = [compile_expr(x)({}) for x in s.values]
                if v not in allowed:
                    raise HandError(f"{name} must be one of {', '.join(map(str, allowed))}, not {v}")
        elif s.type == "tile":
            v = self._tile_value(name, raw)
        else:
            v = raw
        return v

    def _tile_value(self, name: str, raw):
        if raw is None or isinstance(raw, TileInfo):
            return raw
        tiles = parse_tiles(self.notation, self.catalog, str(raw), name)
        if len(tiles) != 1:
            raise HandError(f"{name} takes one tile, not '{raw}'")
        return tiles[0]

    # ------------------------------------------------------------------ scoring

    def _env_for(self, context: dict[str, Any] | None):
        """(catalog, decomposer, expression environment) for a context; the no-context case is cached."""
        if not context:
            got = self.__dict__.get("_plain_env")
            if got is None:
                env = self.settings_env(None)
                cat, dec = self.catalog_for(env)
                got = self.__dict__["_plain_env"] = (cat, dec, self._retile(env, cat))
            return got
        env = self.settings_env(context)
        cat, dec = self.catalog_for(env)
        return cat, dec, self._retile(env, cat)

    def score(self, hand: str | Hand, melds: list[str] | None = None, win: str | None = None,
              self_drawn: bool = False, context: dict[str, Any] | None = None, *,
              work: list[int] | None = None) -> ScoreResult:
        """The hand's best score. `work`, when given, is the one-item list of work units the scoring may
        use (limits.HAND_WORK by default); it is left holding what was not used."""
        cat, dec, env = self._env_for(context)
        h = hand if isinstance(hand, Hand) else build_hand(self, hand, melds, win, self_drawn, cat)
        sc = Scoring(self, cat, dec, env, h)
        if work is not None:
            sc.work = work
        sc.refuse_wild_melds()
        return sc.run()

    def waits(self, hand: str | Hand, melds: list[str] | None = None, self_drawn: bool = False,
              context: dict[str, Any] | None = None, *,
              work: list[int] | None = None) -> list[tuple[TileInfo, ScoreResult]]:
        """Every tile kind whose draw (or claim) wins, with its best score — a wildcard tile too. Every
        trial tile draws on one work limit (`work`, as for `score`)."""
        env = self.settings_env(context)
        cat, dec = self.catalog_for(env)
        env = self._retile(env, cat)
        h = hand if isinstance(hand, Hand) else build_hand(self, hand, melds, None, self_drawn, cat)
        self_drawn = h.self_drawn
        # The kinds that pass the waits' necessary tests, each then scored in full: a kind is a wait
        # exactly when its full score wins (winning meets every requirement the waits apply).
        base = Scoring(self, cat, dec, env, h)
        if work is not None:
            base.work = work
        base.refuse_wild_melds()
        kinds = base.wait_kinds(candidates=True)
        # Drawing a wildcard tile may win too (it then plays as whatever completes the hand); the
        # natural waits above never hold it, as the tile plays as itself there.
        held = Counter(t.name for t in h.all_tiles())
        for k in self._wild_kinds(cat, env):
            if k not in kinds and held[k.name] < k.copies:
                kinds.append(k)
        out = []
        for k in sorted(kinds, key=lambda k: k.index):
            h2 = Hand(h.concealed, h.melds, k, self_drawn, h.flowers)
            sc = Scoring(self, cat, dec, env, h2)
            sc.work = base.work  # one limit for the whole question, every trial tile together
            res = sc.run()
            if res.win:
                out.append((k, res))
        return out

    def _derived(self) -> dict:
        """What each pattern, quantity and unit name reads: the expressions that define it."""
        got = self.__dict__.get("_derived_v")
        if got is None:
            rs = self.ir
            got = {}
            for p in rs.patterns:
                got[f"pattern:{p.name}"] = [p.when, p.count, p.enabled, p.value]
                got.setdefault(f"unit:{p.unit}", []).extend([p.when, p.count, p.enabled, p.value])
            for q in rs.quantities:
                got[f"quantity:{q.name}"] = [q.expr]
            self.__dict__["_derived_v"] = got
        return got

    def _wild_kinds(self, cat: Catalog, env: dict) -> list[TileInfo]:
        """The tile kinds a `wild` names under this context (fixed, or the value of a reveal)."""
        out = []
        for w, _ in self._wilds:
            kind = cat.by_name.get(w.tiles)
            if kind is None:
                v = env.get(f"reveal:{w.tiles}")
                kind = cat.by_name.get(v.name) if v is not None else None
            if kind is not None and kind not in out:
                out.append(kind)
        return out

    def check_win(self, counts, wilds: int = 0, melds: int = 0, context: dict[str, Any] | None = None) -> bool:
        """Fast win check of a concealed hand given as counts per tile kind (in catalog order) plus a
        number of wildcards, with `melds` exposed melds. Structural only when the rule set has no
        requirements or special forms; otherwise it falls back to full readings."""
        if context:
            cat, dec = self.catalog_for(self.settings_env(context))
        else:  # the common case, asked millions of times: no settings to read
            fast = self.__dict__.get("_check_fast")
            if fast is not None and fast[0] is self._forms:  # a copy with fewer forms asks again
                return fast[1](counts, wilds, melds)
            cat, dec = self.catalog_for({})
        if self._structural_only:
            if not context:
                fn = self._structural_check(dec)
                self.__dict__["_check_fast"] = (self._forms, fn)
                return fn(counts, wilds, melds)
            targets = self._win_targets(self._forms, melds, sum(counts) + wilds)
            return dec.can_split_any(counts, wilds, targets) if targets else False
        tiles = [k for k in cat.kinds for _ in range(counts[k.index])]
        joker = next((k for k in cat.kinds if k.category == "joker"), None)
        if wilds and joker is None:
            raise HandError("this rule set has no fixed joker to stand for the wildcards")
        tiles += [joker] * wilds
        h = Hand(tiles[:-1], [], tiles[-1], True)
        return self.score(h, context=context).win

    @staticmethod
    def _win_targets(forms, melds: int, n: int) -> list[tuple[int, int]]:
        """The (melds, pairs) of concealed tiles that `check_win`'s forms accept for n tiles."""
        out = []
        for f, _, _ in forms:
            if f.concealed and melds:
                continue
            lo, hi = f.pairs if f.pairs else (0, 0)
            for p in range(lo, hi + 1):
                m = (f.melds or 0) - melds
                if m >= 0 and 3 * m + 2 * p == n:
                    out.append((m, p))
        return list(dict.fromkeys(out))

    def _structural_check(self, dec):
        """`check_win` without a context as one function: the form targets by (melds, tiles), then one
        question to the structure backend (the native tables directly when they answer)."""
        forms = self._forms
        targets_of: dict[tuple[int, int], list] = {}
        s = dec.structure
        tables = getattr(s, "tables", None)
        declined = getattr(s, "declined", ())
        cap = s.cap if s is not None else -1
        slow = dec.can_split_any

        def check(counts, wilds: int, melds: int) -> bool:
            key = (melds, sum(counts) + wilds)
            targets = targets_of.get(key)
            if targets is None:
                targets = targets_of[key] = self._win_targets(forms, melds, key[1])
            if not targets:
                return False
            if tables is not None and wilds <= cap:
                try:
                    return tables.can_split_any(counts, wilds, targets)
                except declined:  # the seam decides: the reference answers, a native error is counted
                    pass
            return slow(counts, wilds, targets)
        return check

    @property
    def _plain_waits(self) -> bool:
        """No requirement decides the waits and every form is melds and pairs: waits by structure."""
        got = self.__dict__.get("_plain_waits_v")  # (the forms it was computed for, the answer)
        if got is None or got[0] is not self._forms:  # a copy of the rules with fewer forms asks again
            got = self.__dict__["_plain_waits_v"] = (self._forms, not self._wait_requires and all(
                f.instant is None and not f.orphans and f.pair_when is None and not f.tiles
                for f, _, _ in self._forms))
        return got[1]

    @property
    def _structural_only(self) -> bool:
        """Only melds-and-pairs forms of three-tile melds, and no requirements: a win is a pure split."""
        v = self.__dict__.get("_structural")
        if v is None:
            dec = self.catalog_for({})[1]
            v = not self._requires and all(
                f.instant is None and not f.orphans and f.pair_when is None and f.groups is None and not f.tiles
                for f, _, _ in self._forms) and all(s.size == 3 for s in dec.meld_specs)
            self.__dict__["_structural"] = v
        return v

    def wait_tiles(self, hand: str, melds: list[str] | None = None, self_drawn: bool = False,
                   context: dict[str, Any] | None = None) -> list[TileInfo]:
        """The tile kinds that complete the hand (without scoring each)."""
        env = self.settings_env(context)
        cat, dec = self.catalog_for(env)
        env = self._retile(env, cat)
        h = build_hand(self, hand, melds, None, self_drawn, cat)
        return Scoring(self, cat, dec, env, h).wait_kinds()

    def _retile(self, env: dict, cat: Catalog) -> dict:
        """Tile values must be the catalog's own objects (same options)."""
        env = dict(env)
        for k, v in env.items():
            if isinstance(v, TileInfo):
                env[k] = cat.by_name.get(v.name)
        env["tile-lookup"] = lambda name: cat.by_name.get(name)
        return env

    # ------------------------------------------------------------------ meld checks for input

    def meld_matches(self, mk: ir.MeldKind, tiles: list[TileInfo]) -> bool:
        s = mk.shape
        size_ok = len(tiles) == s.size or (mk.grows and s.size < len(tiles) <= s.size + mk.grow_limit)
        if not size_ok:
            return False
        if s.kind == "same":
            return all(t.name == tiles[0].name for t in tiles)
        if s.kind in ("run", "ranks"):
            if tiles[0].suit is None or any(t.suit != tiles[0].suit for t in tiles):
                return False
            ranks = sorted(t.rank for t in tiles)
            if s.kind == "run":
                return all(b == a + 1 for a, b in zip(ranks, ranks[1:]))
            return ranks == sorted(s.ranks)
        if s.kind == "tiles":
            base = Counter(s.tiles)
            got = Counter(t.name for t in tiles)
            if len(tiles) > s.size:  # grown: the shape's tiles plus further ones of the same
                return all(got[k] >= n for k, n in base.items()) and set(got) <= set(base)
            return got == base
        if s.kind == "same_rank":
            if any(t.suit is None or t.rank != tiles[0].rank for t in tiles):
                return False
            return not s.mixed or len({t.suit for t in tiles}) > 1
        return False

    def shape_text(self, mk: ir.MeldKind) -> str:
        s = mk.shape
        return {"same": f"{s.size} identical tiles", "run": f"{s.size} consecutive tiles of one suit",
                "ranks": f"the ranks {', '.join(map(str, s.ranks))} of one suit",
                "tiles": "exactly " + "".join(s.tiles),
                "same_rank": f"{s.size} tiles of one rank" + (" from more than one suit" if s.mixed else "")}[s.kind]


class Scoring:
    """One scoring run: a hand under one context."""

    def __init__(self, rules: Rules, cat: Catalog, dec: Decomposer, env: dict, hand: Hand,
                 natural_win: bool = False):
        self.natural_win = natural_win  # a wait trial: the trial tile is never a wildcard
        self.rules = rules
        self.rs = rules.ir
        self.cat = cat
        self.dec = dec
        self.env = env
        self.hand = hand
        self._waits = None
        self._shape_waits = None
        # The work this hand may still take (limits.HAND_WORK), shared by every Scoring that answers the
        # same question of it: the trial tiles of its waits, and the waits its patterns read.
        self.work = [HAND_WORK]
        # What the readings are for: "score" (everything scoring reads), or "waits" (only the
        # requirements that decide the waits): the signatures of hands with wildcards observe that.
        self.purpose = "score"
        self._native = None  # (native counts, what the hand's readings share) once first asked for

    # ------------------------------------------------------------------ which tiles are wild

    def _base_env(self) -> dict:
        env = dict(self.env)
        env["builtin:self_drawn"] = self.hand.self_drawn
        return env

    def classify(self, hand: Hand, standins: bool = True) -> tuple[list[RTile], list[RTile]]:
        """Concealed tiles (winning tile included) -> (natural tiles, wild tiles). With `standins`
        false (a form that declares `standins false`), stand-in tiles are just themselves."""
        env = self._base_env()
        env["builtin:win_tile"] = hand.win
        standin: dict[str, TileInfo] = {}
        for s, plays, unless in self.rules._standins if standins else ():
            try:
                target = plays(env)
                if target is not None and not (unless and unless(env)):
                    standin[s.name] = self.cat.by_name.get(target.name)
            except (EvalError, KeyError):
                continue
        wild_hand: set[str] = set()
        wild_win: set[str] = set()
        for w, kind in self._active_wilds(env):
            (wild_win if w.scope == "win_tile" else wild_hand).add(kind.name)
        naturals: list[RTile] = []
        wilds: list[RTile] = []
        tiles = [(t, False) for t in hand.concealed] + ([(hand.win, True)] if hand.win is not None else [])
        for t, is_win in tiles:
            if (t.name in wild_hand or (is_win and t.name in wild_win)) and not (is_win and self.natural_win):
                wilds.append(RTile(t, t, True, is_win))
            elif t.name in standin:
                naturals.append(RTile(standin[t.name], t, False, is_win))
            else:
                naturals.append(RTile(t, t, False, is_win))
        return naturals, wilds

    def _active_wilds(self, env: dict) -> list[tuple[ir.Wild, TileInfo]]:
        """Each wildcard declaration in force in this context, with the tile kind it makes wild."""
        out = []
        for w, active in self.rules._wilds:
            kind = self.cat.by_name.get(w.tiles)
            if kind is None:
                v = env.get(f"reveal:{w.tiles}")
                kind = self.cat.by_name.get(v.name) if v is not None else None
            if kind is None:
                continue
            try:
                if active is not None and not active(env):
                    continue
            except (EvalError, KeyError):
                continue
            out.append((w, kind))
        return out

    def refuse_wild_melds(self) -> None:
        """A laid-down meld of a kind a hand wildcard may not join (`no_meld`) cannot hold that wildcard:
        such a hand cannot occur, so it is refused (HandError) rather than scored."""
        if not self.hand.melds or not self.rules._wilds:
            return
        for w, kind in self._active_wilds(self._base_env()):
            if w.scope != "hand" or not w.no_meld:
                continue
            for m in self.hand.melds:
                if m.kind in w.no_meld and any(t.name == kind.name for t in m.tiles):
                    raise HandError(f"the meld {m.kind}:{''.join(t.name for t in m.tiles)} holds {kind.name}, "
                                    f"a wildcard ({w.name}), which never joins a {m.kind}")

    # ------------------------------------------------------------------ readings

    def exposed_groups(self, hand: Hand) -> list[Group]:
        out = []
        for m in hand.melds:
            mk = self.rs.meld(m.kind)
            tiles = [RTile(t) for t in m.tiles]
            out.append(Group(m.kind, tiles, exposed=mk.exposed, concealed=not mk.exposed, is_pair=mk.pair,
                             is_kong=mk.kong, value=self.group_value(mk, tiles), declared=True))
        return out

    def group_value(self, mk, tiles):
        if not mk.values:
            return 0
        suit = tiles[0].kind.suit if tiles else None
        cache = self.rules.__dict__.setdefault("_group_values", {})
        key = (mk.name, suit)
        if key not in cache:
            chosen = next((v for v in mk.values if v.suit == suit), None) or next(
                (v for v in mk.values if not v.suit), None)
            cache[key] = compile_expr(chosen.value)({}) if chosen else 0
        return cache[key]

    def readings(self, hand: Hand, only: set[str] | None = None) -> tuple[list[Reading], str]:
        """Every reading under every form (or only the forms named in `only`), and why there is none
        when the list is empty. Each reading is charged to the hand's work (`self.work`): whoever asks
        for readings scores or tests them."""
        if not self.rules._wilds and not self.rules._standins:
            got = self._readings_natural(hand, only)
        else:
            got = self._readings_wild(hand, only)
        self._spend(len(got[0]) * READING_WORK)
        return got

    def _spend(self, units: int) -> None:
        work = self.work
        work[0] -= units
        if work[0] < 0:
            raise HandError(_LIMIT_SENTENCE)

    def _readings_wild(self, hand: Hand, only: set[str] | None) -> tuple[list[Reading], str]:
        classified = {True: self.classify(hand)}
        exposed = self.exposed_groups(hand)
        budget = self.work  # table entries the decomposition spends of the hand's work
        out: list[Reading] = []
        fits_any = False
        for form, instant, pair_when in self.rules._forms:
            if only is not None and form.name not in only:
                continue
            if form.standins not in classified:
                classified[form.standins] = self.classify(hand, form.standins)
            naturals, wilds = classified[form.standins]
            win_rtile = next((t for t in naturals + wilds if t.is_win), None)
            all_tiles = naturals + wilds + [t for g in exposed for t in g.tiles]
            concealed_n = len(naturals) + len(wilds)
            if form.tiles is not None and concealed_n + sum(len(g.tiles) for g in exposed) not in (
                    form.tiles, self.rs.table.hand + 1):
                continue  # a form with `tiles N` also wins with N tiles (e.g. before one's own draw)
            if form.concealed and any(g.exposed for g in exposed):
                continue
            if instant is not None:
                fits_any = True
                r = Reading(form.name, list(exposed), all_tiles, naturals + wilds, win_rtile, None)
                if self._eval_bool(instant, r, ("instant", form.name)):
                    out.append(r)
                continue
            if form.orphans:
                fits_any |= concealed_n == sum(1 for k in self.cat.kinds if k.attrs.get(form.orphans)) + 1
                r = self._orphans(form, naturals, wilds, exposed, all_tiles, win_rtile)
                if r is not None:
                    out.append(r)
                continue
            for m, p in self._targets(form, len(exposed)):
                if not self._sizes_fit(concealed_n, m, p):
                    continue
                fits_any = True
                counts = [0] * self.dec.n
                for t in naturals:
                    counts[t.kind.index] += 1
                if not self.dec.can_split(tuple(counts), len(wilds), m, p):
                    continue
                if len(wilds) >= SIGNATURE_FROM:
                    got = self._signature_readings(form, m, p, counts, naturals, wilds, exposed, all_tiles, hand,
                                                   pair_when, budget)
                    if got is not None:
                        out.extend(got)
                        continue
                try:
                    splits = self.dec.splits(counts, len(wilds), m, p, limit=min(SPLIT_LIMIT, max(budget[0], 0)))
                except SplitLimit:
                    raise HandError(_LIMIT_SENTENCE) from None
                self._spend(len(splits))
                for split in splits:
                    out.extend(self._readings_of(form, split, naturals, wilds, exposed, all_tiles, hand, pair_when))
        if not fits_any:
            return [], "count"
        return out, ""

    def _readings_natural(self, hand: Hand, only: set[str] | None) -> tuple[list[Reading], str]:
        """`readings` for a rule set without wildcards or stand-ins: every tile is itself, so splits
        come straight from the tile counts and groups from the shared cache."""
        exposed = self.exposed_groups(hand) if hand.melds else []
        win = hand.win
        counts = [0] * self.dec.n
        for t in hand.concealed:
            counts[t.index] += 1
        if win is not None:
            counts[win.index] += 1
        concealed_n = len(hand.concealed) + (win is not None)
        key = tuple(counts)
        has_exposed = any(g.exposed for g in exposed)
        naturals = None
        out: list[Reading] = []
        fits_any = False
        dec = self.dec
        tcache = dec.__dict__.setdefault("_form_targets", {})  # (form, exposed melds, tiles) -> (melds, pairs)
        for form, instant, pair_when in self.rules._forms:
            if only is not None and form.name not in only:
                continue
            if form.tiles is not None and concealed_n + sum(len(g.tiles) for g in exposed) not in (
                    form.tiles, self.rs.table.hand + 1):
                continue
            if form.concealed and has_exposed:
                continue
            if instant is not None or form.orphans:
                if naturals is None:
                    # natural tiles never change once made, so one object per kind (and winning flag)
                    # serves every hand
                    rt = dec.__dict__.setdefault("_rtiles", {})
                    base = self.__dict__.get("_naturals_base")  # set by `wait_kinds` for its trials
                    if base is not None and base[0] is hand.concealed:
                        naturals = list(base[1])
                    else:
                        naturals = []
                        for t in hand.concealed:
                            x = rt.get((t.index, False))
                            if x is None:
                                x = rt[(t.index, False)] = RTile(t)
                            naturals.append(x)
                        self.__dict__["_naturals_base"] = (hand.concealed, list(naturals))
                    if win is not None:
                        x = rt.get((win.index, True))
                        if x is None:
                            x = rt[(win.index, True)] = RTile(win, win, False, True)
                        naturals.append(x)
                win_rtile = naturals[-1] if win is not None else None
                all_tiles = naturals + [t for g in exposed for t in g.tiles]
                if instant is not None:
                    fits_any = True
                    r = Reading(form.name, list(exposed), all_tiles, list(naturals), win_rtile, None)
                    if self._eval_bool(instant, r, ("instant", form.name)):
                        out.append(r)
                    continue
                oc = dec.__dict__.setdefault("_orphan_counts", {})
                n_orphans = oc.get(form.orphans)
                if n_orphans is None:
                    n_orphans = oc[form.orphans] = sum(1 for k in self.cat.kinds if k.attrs.get(form.orphans))
                fits_any |= concealed_n == n_orphans + 1
                r = self._orphans(form, naturals, [], exposed, all_tiles, win_rtile)
                if r is not None:
                    out.append(r)
                continue
            tk = (form.name, len(exposed), concealed_n)
            targets = tcache.get(tk)
            if targets is None:
                targets = tcache[tk] = [(m, p) for m, p in self._targets(form, len(exposed))
                                        if self._sizes_fit(concealed_n, m, p)]
            for m, p in targets:
                fits_any = True
                if not dec.can_split(key, 0, m, p):
                    continue
                for split in dec.splits(counts, 0, m, p):
                    out.extend(self._readings_plain(form, split, win, exposed, hand, pair_when))
        if not fits_any:
            return [], "count"
        # The tile counts of the hand (`hand`: concealed and winning tile; `tiles`: with the melds), from
        # which per-hand summaries of those lists are made (runtime/fastscore.py).
        every = list(counts)
        for g in exposed:
            for t in g.tiles:
                every[t.kind.index] += 1
        shared: dict = {"counts:hand": counts, "counts:tiles": every}
        for r in out:
            r.shared = shared
        return out, ""

    def _targets(self, form: ir.WinForm, n_exposed: int):
        lo, hi = form.pairs if form.pairs else (0, 0)
        if form.groups is not None:
            if not form.pairs:
                lo, hi = 0, form.groups
            for p in range(lo, hi + 1):
                m = form.groups - p - n_exposed
                if m >= 0:
                    yield m, p
        else:
            for p in range(lo, hi + 1):
                m = (form.melds or 0) - n_exposed
                if m >= 0:
                    yield m, p

    def _sizes_fit(self, n: int, m: int, p: int) -> bool:
        from .decompose import sum_fits

        sizes = self.dec.__dict__.get("_sizes")
        if sizes is None:
            sizes = self.dec.__dict__["_sizes"] = (tuple(sorted({s.size for s in self.dec.meld_specs})) or (3,),
                                                   tuple(sorted({s.size for s in self.dec.pair_specs})) or (2,))
        return sum_fits(n, m, sizes[0], p, sizes[1])

    def _cached_group(self, kind: str, slots: tuple, win_pos: int, concealed: bool) -> Group:
        """Groups of natural tiles are immutable: one object per (kind, tiles, winning position,
        concealment) serves every reading of every hand, and keeps its memoised fields."""
        cache = self.dec.__dict__.setdefault("_group_cache", {})
        key = (kind, slots, win_pos, concealed)
        g = cache.get(key)
        if g is None:
            kinds = self.cat.kinds
            tiles = [RTile(kinds[idx], None, False, j == win_pos) for j, (idx, _) in enumerate(slots)]
            mk = self.rs.meld(kind)
            g = Group(kind, tiles, exposed=False, concealed=concealed, is_pair=mk.pair, is_kong=mk.kong,
                      value=self.group_value(mk, tiles), has_win=win_pos >= 0)
            g.f = g.all_fields()  # a plain dict: read often, and this group never changes
            cache[key] = g
        return g

    def _readings_plain(self, form, split, win, exposed, hand, pair_when):
        """Readings of a split with no wildcards and no stand-ins, from cached groups. A split's items
        are the block tables' own tuples, kept for the life of the rule set, so their groups are found
        by the item's identity (checked) instead of hashing its slots each time."""
        cache = self.dec.__dict__.setdefault("_item_groups", {})
        groups = []
        info = []
        for item in split:
            got = cache.get(id(item))
            if got is None or got[0] is not item:
                spec, slots = item
                got = (item, self._cached_group(spec.kind, tuple(slots), -1, True), tuple(i for i, _ in slots))
                if isinstance(slots, tuple):
                    cache[id(item)] = got
            groups.append(got[1])
            info.append(got)
        if win is None:
            r = Reading(form.name, exposed + groups, None, None, None, None)
            return [r] if self._pairs_allowed(r, pair_when) else []
        out = []
        seen = set()
        widx = win.kind.index if isinstance(win, RTile) else win.index
        wcache = self.dec.__dict__.setdefault("_win_groups", {})
        shape: dict = {}
        for gi, (item, g, idxs) in enumerate(info):
            if widx not in idxs:
                continue
            if id(g) in seen:  # an identical group (the same cached object) was tried already
                continue
            seen.add(id(g))
            spec, slots = item
            concealed = hand.self_drawn or spec.is_pair  # completed by a claimed tile: not concealed
            ti = idxs.index(widx)
            wkey = (id(item), widx, concealed)
            got = wcache.get(wkey)
            if got is None or got[0] is not item:
                got = (item, self._cached_group(spec.kind, tuple(slots), ti, concealed))
                if isinstance(slots, tuple):
                    wcache[wkey] = got
            wg = got[1]
            gs = exposed + groups[:gi] + [wg] + groups[gi + 1:]
            r = Reading(form.name, gs, None, None, wg.tiles[ti], wg)
            r.shape = shape
            if self._pairs_allowed(r, pair_when):
                out.append(r)
        return out

    def _signature_readings(self, form, m, p, counts, naturals, wilds, exposed, all_tiles, hand, pair_when,
                            budget) -> list[Reading] | None:
        """The readings of a hand holding wildcards under one form and (melds, pairs): one per signature
        (`runtime/observe.py`), the first of each in the order `splits` and `_readings_of` find them
        (`Decomposer.signature_splits`), so the best reading and its trace are the ones full
        enumeration gives. None when the hand's wildcards are of several kinds (each tile's identity
        then matters) or a site cannot be evaluated on a group: full enumeration decides."""
        phys = {t.physical.name for t in wilds}
        if len(phys) != 1:
            return None
        win = next((t for t in naturals + wilds if t.is_win), None)
        obs = self._observer(form, win, wilds[0].physical)
        if obs is None:
            return None
        kinds = self.cat.kinds
        wild_phys = wilds[0].physical
        self_drawn = hand.self_drawn
        rs = self.rs

        def part(spec, slots, wp):
            key = (spec.kind, slots, wp)
            got = obs._contrib.get(key)
            if got is not None:
                return got
            tiles = [RTile(kinds[idx], wild_phys if wild else kinds[idx], wild) for idx, wild in slots]
            mk = rs.meld(spec.kind)
            g = Group(spec.kind, tiles, exposed=False, concealed=True, is_pair=spec.is_pair, is_kong=mk.kong,
                      value=self.group_value(mk, tiles))
            if wp >= 0:
                tiles[wp].is_win = True
                g.has_win = True
                if not self_drawn and not g.is_pair:
                    g.concealed = False
            return obs.contribution(g, wp >= 0, key)

        wkey = None if win is None else (("wild",) if win.wild else ("nat", win.kind.index))
        memo = obs.memo
        if len(memo) > 50_000:  # kept across hands, bounded
            memo.clear()
        try:
            found = self.dec.signature_splits(counts, len(wilds), m, p, wkey, part, obs.join, obs.unit, memo,
                                              budget)
        except Unobservable:
            return None
        except SplitLimit:
            raise HandError(_LIMIT_SENTENCE) from None
        out = []
        if any(t.physical is not t.kind for t in naturals):  # stand-ins: their identity is restored
            for _, groups, win_gi in found:
                out.extend(self._readings_of(form, groups, naturals, wilds, exposed, all_tiles, hand, pair_when,
                                             only_gi=win_gi))
            return out
        # Otherwise each group is what its slots say: groups are shared, like the natural ones
        # (`_cached_group`), the wildcards' physical tile being part of the key.
        cache = self.dec.__dict__.setdefault("_wild_group_cache", {})
        for _, groups, win_gi in found:
            gs = list(exposed)
            wg = None
            for gi, (spec, slots) in enumerate(groups):
                slots = tuple(slots)
                wp = -1
                if gi == win_gi:
                    wp = next(j for j, (idx, wild) in enumerate(slots)
                              if (wild if win.wild else (not wild and idx == win.kind.index)))
                conc = wp < 0 or self_drawn or spec.is_pair
                ck = (spec.kind, slots, wp, conc, wild_phys.name)
                g = cache.get(ck)
                if g is None:
                    if len(cache) > 100_000:
                        cache.clear()
                    tiles = [RTile(kinds[idx], wild_phys if wild else kinds[idx], wild, j == wp)
                             for j, (idx, wild) in enumerate(slots)]
                    mk = rs.meld(spec.kind)
                    g = Group(spec.kind, tiles, exposed=False, concealed=conc, is_pair=spec.is_pair,
                              is_kong=mk.kong, value=self.group_value(mk, tiles), has_win=wp >= 0)
                    g.f = g.all_fields()  # a plain dict: this group never changes
                    cache[ck] = g
                if wp >= 0:
                    wg = g
                gs.append(g)
            r = Reading(form.name, gs, None, None, wg.tiles[next(j for j, t in enumerate(wg.tiles) if t.is_win)]
                        if wg is not None else None, wg)
            if self._pairs_allowed(r, pair_when):
                out.append(r)
        return out

    def _observer(self, form: ir.WinForm, win: RTile | None, wild_phys: TileInfo):
        """The observation sites of a form under this hand's shared values (`runtime/observe.py`),
        kept on the rule set by those values."""
        const = self._base_env()
        const["builtin:form"] = form.name
        win_wild = win is not None and win.wild
        if win is not None and not win.wild:
            const["builtin:win_tile"] = win
        shared = tuple(sorted((k, _hashable(v)) for k, v in const.items()
                              if k not in ("tile-lookup", "builtin:win_tile")))
        key = (self.purpose, form.name, win_wild, None if win is None or win_wild else win.sig, wild_phys.name,
               shared)
        cache = self.rules.__dict__.setdefault("_observers", {})
        key0 = (self.purpose, form.name, win_wild, wild_phys.name, shared)  # observers that never read a natural win
        obs = cache.get(key0)
        if obs is not None:
            return obs
        obs = cache.get(key)
        if obs is None:
            if len(cache) > 64:  # one per context seen; each keeps its own tables
                cache.clear()
            rs = self.rs
            if self.purpose == "waits":
                roots = [x for q, _, _ in self.rules._wait_requires if not q.forms or form.name in q.forms
                         for x in (q.expr, q.unless)]
            else:
                roots = [x for pt in rs.patterns for x in (pt.when, pt.count, pt.enabled, pt.value)]
                roots += [q.expr for q in rs.quantities]
                roots += [x for q in rs.requires if not q.forms or form.name in q.forms for x in (q.expr, q.unless)]
                if rs.score is not None:
                    roots += [rs.score.expr, rs.score.best, rs.score.total]
            roots.append(form.pair_when)
            obs = Observer([x for x in roots if x is not None], self.rules._derived(), const,
                           varying_refs(win_wild), exact=not rs.combines)
            obs.memo = {}
            cache[key0 if not obs.uses_win else key] = obs
        return obs

    def _readings_of(self, form, split, naturals, wilds, exposed, all_tiles, hand, pair_when, only_gi=None):
        if not wilds and all(t.physical is t.kind for t in naturals):
            win = next((t for t in naturals if t.is_win), None)
            return self._readings_plain(form, split, win, exposed, hand, pair_when)
        kinds = self.cat.kinds
        wild_phys = [t.physical for t in wilds]
        groups: list[Group] = []
        wi = 0
        nat_pool: dict[str, list[RTile]] = {}
        for t in naturals:
            nat_pool.setdefault(t.kind.name, []).append(t)
        # Natural tiles of one kind are interchangeable except the winning tile; place ordinary ones
        # first and the winning tile wherever each reading puts it (below).
        for spec, slots in split:
            tiles = []
            for idx, wild in slots:
                k = kinds[idx]
                if wild:
                    phys = wild_phys[wi] if wi < len(wild_phys) else k
                    wi += 1
                    tiles.append(RTile(k, phys, True))
                else:
                    tiles.append(RTile(k, k, False))
            mk = self.rs.meld(spec.kind)
            groups.append(Group(spec.kind, tiles, exposed=False, concealed=True, is_pair=spec.is_pair,
                                is_kong=mk.kong, value=self.group_value(mk, tiles)))
        # restore the physical identity of stand-in tiles (a tile playing as another)
        for g in groups:
            for j, t in enumerate(g.tiles):
                if not t.wild:
                    pool = nat_pool.get(t.kind.name)
                    if pool:
                        src = pool.pop()
                        if src.physical is not t.physical:
                            g.tiles[j] = RTile(t.kind, src.physical, False)
        win = next((t for t in naturals + wilds if t.is_win), None)
        all_groups = exposed + groups
        base_tiles = [t for g in all_groups for t in g.tiles]
        hand_tiles = [t for g in groups for t in g.tiles]
        if win is None:
            r = Reading(form.name, all_groups, base_tiles, hand_tiles, None, None)
            return [r] if self._pairs_allowed(r, pair_when) else []
        out = []
        seen = set()
        for gi, g in enumerate(groups):
            if only_gi is not None and gi != only_gi:
                continue
            for ti, t in enumerate(g.tiles):
                if t.wild != win.wild or (not t.wild and t.kind.name != win.kind.name) or \
                        (t.wild and t.physical.name != win.physical.name):
                    continue
                sig = (g.kind, tuple(repr(x) for x in g.tiles))
                if sig in seen:
                    break
                seen.add(sig)
                new_groups = [Group(x.kind, [RTile(y.kind, y.physical, y.wild) for y in x.tiles], x.exposed,
                                    x.concealed, x.is_pair, x.is_kong, x.value) for x in groups]
                wg = new_groups[gi]
                wg.tiles[ti].is_win = True
                wg.has_win = True
                if not hand.self_drawn and not wg.is_pair:
                    wg.concealed = False  # completed by a claimed tile: not concealed
                gs = exposed + new_groups
                r = Reading(form.name, gs, [t for x in gs for t in x.tiles], [t for x in new_groups for t in x.tiles],
                            wg.tiles[ti], wg)
                if self._pairs_allowed(r, pair_when):
                    out.append(r)
                break
        return out

    def _pairs_allowed(self, r: Reading, pair_when) -> bool:
        if pair_when is None or not any(g.is_pair for g in r.groups):
            return True
        return self._eval_bool(pair_when, r, ("pair_when", r.form))

    def _orphans(self, form, naturals, wilds, exposed, all_tiles, win_rtile):
        if exposed:
            return None
        cache = self.dec.__dict__.setdefault("_orphan_kinds", {})
        got = cache.get(form.orphans)
        if got is None:
            need = [k for k in self.cat.kinds if k.attrs.get(form.orphans)]
            got = cache[form.orphans] = (need, {k.name for k in need})
        need, need_names = got
        have = Counter(t.kind.name for t in naturals)
        if any(name not in need_names for name in have):
            return None
        missing = sum(1 for k in need if have[k.name] == 0)
        extra = sum(n - 1 for n in have.values() if n > 1)
        if extra > 1 or missing + max(0, 1 - extra) != len(wilds):
            return None
        tiles = naturals + wilds
        return Reading(form.name, [], all_tiles, tiles, win_rtile, None)

    # ------------------------------------------------------------------ evaluation

    def reading_env(self, r: Reading) -> dict:
        env = self._base_env()
        groups = r.groups
        melds = [g for g in groups if not g.is_pair]
        pairs = [g for g in groups if g.is_pair]
        env.update({
            "builtin:melds": melds, "builtin:groups": groups, "builtin:pairs": pairs,
            "builtin:pair": pairs[0] if pairs else None,
            "builtin:runs": [g for g in melds if g.is_run],
            "builtin:triplets": [g for g in melds if g.field("triplet")],
            "builtin:kongs": [g for g in melds if g.is_kong],
            "builtin:exposed": [g for g in groups if g.exposed],
            "builtin:tiles": r.tiles, "builtin:hand": r.hand, "builtin:win_tile": r.win_tile,
            "builtin:form": r.form, "builtin:win_group": r.win_group,
            "builtin:suits": sorted({t.kind.suit for t in r.tiles if t.kind.suit}),
            "builtin:menqing": not any(g.exposed for g in groups),
            "builtin:flowers": self._flowers(),
        })
        return env

    def _flowers(self) -> list[RTile]:
        f = self.__dict__.get("_flower_tiles")
        if f is None:
            f = self.__dict__["_flower_tiles"] = [RTile(t) for t in self.hand.flowers]
        return f

    def _eval_bool(self, fn, r: Reading, key: tuple[str, str] | None = None) -> bool:
        fast = self.rules.fast
        name = fast.form_fns.get(key) if fast is not None and key is not None else None
        if name is not None:
            try:
                return fast.eval_form(self, r, name)
            except HandError:  # the hand's work limit
                raise
            except Exception:  # noqa: BLE001 - the reference decides every unusual case
                fast.fallbacks += 1
        return self._eval_bool_reference(fn, r)

    def _eval_bool_reference(self, fn, r: Reading) -> bool:
        ev = ReadingEvaluator(self.rules.patterns, self.reading_env(r), r, self.waits_of_hand)
        try:
            return bool(fn(ev.env))
        except EvalError:
            return False

    def wait_kinds(self, shape: bool = False, candidates: bool = False) -> list[TileInfo]:
        """Tile kinds that complete the hand (winning tile removed); never one whose copies are all held,
        unless `shape` (the hand's shape alone decides: `shape_waits`). With `candidates`, the kinds
        that pass the necessary tests (by structure) without reading the hand: a superset the caller
        decides by scoring each."""
        h = self.hand
        held = [0] * len(self.cat.kinds)
        for t in h.concealed:
            held[t.index] += 1
        for m in h.melds:
            for t in m.tiles:
                held[t.index] += 1
        for t in h.flowers:
            held[t.index] += 1
        out = []
        rules = self.rules
        plain = None
        if rules._plain_waits:
            plain = self._plain_wait_check()
        # Otherwise readings decide, but only a kind that completes a melds-and-pairs form by structure
        # (a necessary condition) needs them for those forms; the other forms (instant, orphans, `tiles N`)
        # build no splits and are tried for every kind. (Not with stand-ins: a trial tile may play as another.)
        split_forms = {f.name for f, _, _ in rules._forms if f.instant is None and not f.orphans and not f.tiles}
        structural = None
        if plain is None and split_forms and not rules._standins:
            structural = self._plain_wait_check(split_forms)
        exposed = any(self.rs.meld(m.kind).exposed for m in h.melds)
        size = len(h.concealed) + 1 + sum(len(m.tiles) for m in h.melds)
        others = [f for f, _, _ in rules._forms if f.name not in split_forms and not (f.concealed and exposed)
                  and not (f.orphans and h.melds) and not (f.tiles and size not in (f.tiles, self.rs.table.hand + 1))]
        if not rules._wilds and not rules._standins:
            # every tile is itself: an orphans form needs every held tile to have its attribute, so a
            # held tile without it rules the form out whatever tile is added
            others = [f for f in others if not f.orphans or all(t.attrs.get(f.orphans) for t in h.concealed)]
        for k in self.cat.kinds:
            if k.category == "flower" or (held[k.index] >= k.copies and not shape):
                continue
            if plain is not None:
                if plain(k):
                    out.append(k)
                continue
            only = None
            if structural is not None and not structural(k):
                only = {f.name for f in others if not f.orphans or k.attrs.get(f.orphans)}
                if not only:
                    continue
            if candidates:
                out.append(k)
                continue
            trial = Hand(h.concealed, h.melds, k, h.self_drawn, h.flowers)
            sub = type(self)(self.rules, self.cat, self.dec, self.env, trial, natural_win=True)
            sub.purpose = "waits"  # its readings only decide the waits' requirements
            sub.work = self.work
            base = self.__dict__.get("_naturals_base")
            if base is not None:
                sub._naturals_base = base  # the trials share the hand's concealed tiles
            rs, _ = sub.readings(trial, only)
            if base is None and "_naturals_base" in sub.__dict__:
                self._naturals_base = sub._naturals_base
            if any(sub.requirements_ok(r, for_waits=True)[0] for r in rs):
                out.append(k)
        return out

    def _plain_wait_check(self, forms: set[str] | None = None):
        """Which kinds complete the hand by structure alone under the melds-and-pairs forms (`forms`:
        only these), from the block tables without building readings. With no requirements and only
        such forms, that is exactly the waits."""
        rules = self.rules
        h = self.hand
        counts = [0] * self.dec.n
        if not rules._wilds and not rules._standins:  # every tile is itself
            for t in h.concealed:
                counts[t.index] += 1
            w = 0
        else:
            naturals, wilds = self.classify(Hand(h.concealed, h.melds, None, h.self_drawn))
            for t in naturals:
                counts[t.kind.index] += 1
            w = len(wilds)
        n_exposed = len(h.melds)
        concealed_n = len(h.concealed) + 1
        has_exposed = any(self.rs.meld(m.kind).exposed for m in h.melds)
        tkey = (id(rules._forms), forms is None or frozenset(forms), n_exposed, concealed_n, has_exposed)
        cache = rules.__dict__.setdefault("_wait_targets", {})
        got = cache.get(tkey)
        if got is not None and got[0] is rules._forms:
            targets = got[1]
        else:
            targets = [(m, p, f.concealed) for f, _, _ in rules._forms if forms is None or f.name in forms
                       for m, p in self._targets(f, n_exposed) if self._sizes_fit(concealed_n, m, p)]
            targets = tuple((m, p) for m, p, conc in targets if not (conc and has_exposed))
            cache[tkey] = (rules._forms, targets)
        dec = self.dec
        if dec.structure is not None and w <= dec.structure.cap:
            good = set(dec.structure.completing_kinds(counts, w, targets))
            return lambda k: k.index in good

        def check(k: TileInfo) -> bool:
            counts[k.index] += 1
            try:
                return any(dec.can_split(counts, w, m, p) for m, p in targets)
            finally:
                counts[k.index] -= 1
        return check

    def waits_of_hand(self, shape: bool = False):
        """`waits` (or with `shape`, `shape_waits`) of the hand without its winning tile, computed once."""
        if shape:
            if self._shape_waits is None:
                self._shape_waits = self.wait_kinds(shape=True) if self.hand.win is not None else []
            return self._shape_waits
        if self._waits is None:
            self._waits = self.wait_kinds() if self.hand.win is not None else []
        return self._waits

    def evaluator(self, r: Reading) -> ReadingEvaluator:
        ev = ReadingEvaluator(self.rules.patterns, self.reading_env(r), r, self.waits_of_hand)
        raw = self.native_raw(r)
        if raw is not None:  # the same counts the reference would find (runtime/nativecounts.py)
            names = self.rules.patterns.pattern_names
            owned = self._native[0].owned
            ev.given_counts({names[i]: n for i, n in enumerate(raw) if i not in owned})
        return ev

    def native_raw(self, r: Reading) -> list[int] | None:
        """Every pattern's raw count of a complete reading from the native core, or None (not built,
        not taken, or this reading left to the Python evaluators). Only when scoring: a wait trial's
        requirements read little, which the reference evaluator finds lazily."""
        if not r.complete or self.purpose != "score":
            return None
        got = self._native
        if got is None:
            nc = self.rules.native_counts_for(self.cat)
            got = self._native = (nc, nc.hand_state(self.env, self.hand.self_drawn, self._flowers())
                                   if nc is not None else None)
        nc, state = got
        if state is None:
            return None
        return nc.counts(self.waits_of_hand, state, r)

    def requirements_ok(self, r: Reading, ev: ReadingEvaluator | None = None,
                        for_waits: bool = False) -> tuple[bool, str]:
        """Whether reading r meets every requirement of its form (and the first reason it does not).
        For a wait trial (`for_waits`), requirements that depend on the waits themselves are left out."""
        requires = self.rules._wait_requires if for_waits else self.rules._requires
        if not requires:
            return True, ""
        fast = self.rules.fast
        if for_waits and ev is None and fast is not None and fast.wait_req_fn is not None:
            try:
                bad = fast.wait_requirements(self, r)
                if bad < 0:
                    return True, ""
                q = requires[bad][0]
                return False, q.reason or f"the hand does not meet 「{q.name}」"
            except HandError:  # the hand's work limit
                raise
            except Exception:  # noqa: BLE001 - the reference decides every unusual case
                fast.fallbacks += 1
        ev = ev or self.evaluator(r)
        for q, fn, unless in requires:
            if q.forms and r.form not in q.forms:
                continue
            try:
                if fn(ev.env):
                    continue
                if unless is not None and unless(ev.env):
                    continue
            except EvalError:
                pass
            return False, q.reason or f"the hand does not meet 「{q.name}」"
        return True, ""

    def run(self) -> ScoreResult:
        readings, why = self.readings(self.hand)
        if why == "count":
            n = len(self.hand.concealed) + (1 if self.hand.win is not None else 0)
            raise HandError(f"the hand holds {n} concealed tiles besides {len(self.hand.melds)} meld(s), which no "
                            f"winning form of this rule set can use (a full hand is {self.rs.table.hand} tiles "
                            f"plus the winning tile)")
        if not readings:
            return ScoreResult(False, "the tiles do not form any winning hand of this rule set")
        if self.rules.fast is not None:
            return self._run_fast(readings)
        return self._run_reference(readings)

    def _run_fast(self, readings: list[Reading]) -> ScoreResult:
        """Each reading by the generated evaluator (runtime/fastscore.py); a reading it cannot take
        (groups that do not hold all its tiles, or anything unusual while evaluating) by the reference.
        The same choice as `_run_reference`: the highest (best, score), the first found on ties."""
        fast = self.rules.fast
        ns = fast.bind(self.cat)
        vec = fast.pre.group_vector
        best = None  # ("fast", reading, result) or ("ref", Evaluation)
        best_key = None
        rejected: list[str] = []
        considered = 0
        refused: list = []
        for r in readings:
            res = None
            if r.complete:
                try:
                    pv = 0
                    try:
                        for g in r.groups:
                            pv += g._pv  # kept on the group by the prefilter
                    except AttributeError:
                        pv = 0
                        for g in r.groups:
                            pv += vec(g)
                    res = fast.evaluate(self, r, ns, pv, self._native_fast(r))
                except HandError:  # the hand's work limit, met by the waits a pattern reads
                    raise
                except Exception:  # noqa: BLE001 - the reference decides every unusual case
                    fast.fallbacks += 1
                    res = None
            if res is None:
                ev, ok, e = self._by_reference(r, rejected)
                if not ok:
                    refused.append((None, ev))
                    continue
                considered += 1
                if e is not None and (best_key is None or (e.best, e.score) > best_key):
                    best, best_key = (None, e), (e.best, e.score)
                continue
            if res[6] is not None:
                rejected.append(f"{r.describe()}: {res[6]}")
                refused.append((r, res))
                continue
            considered += 1
            key = (res[0], res[1])
            if best_key is None or key > best_key:
                best, best_key = (r, res), key
        if best is None:
            reason = rejected[0].split(": ", 1)[1] if rejected else "no reading could be scored"
            chosen, chosen_key = None, None
            for r, x in refused:
                if r is None:
                    try:
                        e = x.evaluate()
                    except EvalError:
                        continue
                    key, got = (e.best, e.score), (None, e)
                else:
                    key, got = (x[0], x[1]), (r, x)
                if chosen_key is None or key > chosen_key:
                    chosen, chosen_key = got, key
            return ScoreResult(False, reason, self._evaluation_of(chosen) if chosen else None, 0, rejected)
        return ScoreResult(True, "", self._evaluation_of(best), considered, rejected)

    def _native_fast(self, r: Reading):
        """(raw counts, fired patterns) of reading r from the native core for the generated scorer, or
        None. The generated scorer counts a pattern that reads a unit itself, from the others."""
        raw = self.native_raw(r)
        if raw is None:
            return None
        fast = self.rules.fast
        if self._native[0].owned != ([fast.unit_reader] if fast.unit_reader is not None else []):
            return None
        return raw, [i for i, n in enumerate(raw) if n]

    def _evaluation_of(self, chosen) -> Evaluation:
        r, x = chosen
        if r is None:
            return x
        fast = self.rules.fast
        bst, score, total, units, final, value, _ = x
        fans = []
        ref = None
        meta = fast.fan_meta
        for i in sorted(final):
            label, name, unit = meta[i]
            if label is None:  # a label with expressions: the reference environment computes it
                ref = ref or self.evaluator(r)
                label = ref.label(fast.patterns[i])
            fans.append(FanLine(label, name, value(i), final[i], unit))
        return LazyEvaluation(r, fans, dict(zip(fast.unit_order, units)), score, total, bst,
                              lambda: self.evaluator(r))

    def _by_reference(self, r: Reading, rejected: list[str]) -> tuple[ReadingEvaluator, bool, Evaluation | None]:
        """One reading by the reference evaluator: (its evaluator, whether it meets the requirements, its
        evaluation or None when evaluating it failed). Why a reading is rejected goes into `rejected`."""
        ev = self.evaluator(r)  # one environment serves the requirements and the patterns
        ok, reason = self.requirements_ok(r, ev)
        if not ok:
            rejected.append(f"{r.describe()}: {reason}")
            return ev, False, None
        try:
            return ev, True, ev.evaluate()
        except EvalError as exc:
            rejected.append(f"{r.describe()}: {exc}")
            return ev, True, None

    def _run_reference(self, readings: list[Reading]) -> ScoreResult:
        best: Evaluation | None = None
        best_key = None
        rejected = []
        considered = 0
        refused: list[ReadingEvaluator] = []  # readings that fail a requirement
        for r in readings:
            ev, ok, e = self._by_reference(r, rejected)
            if not ok:
                refused.append(ev)
                continue
            considered += 1
            if e is not None and (best_key is None or (e.best, e.score) > best_key):
                best, best_key = e, (e.best, e.score)
        if best is None:
            reason = rejected[0].split(": ", 1)[1] if rejected else "no reading could be scored"
            return ScoreResult(False, reason, self._best_refused(refused), 0, rejected)
        return ScoreResult(True, "", best, considered, rejected)

    @staticmethod
    def _best_refused(refused) -> Evaluation | None:
        """For a hand that fails only a requirement (say a minimum score), what its best reading
        would score: the result then still shows the patterns and the total it falls short with."""
        best, best_key = None, None
        for ev in refused:
            try:
                e = ev.evaluate()
            except EvalError:
                continue
            key = (e.best, e.score)
            if best_key is None or key > best_key:
                best, best_key = e, key
        return best


def _reads_waits(rs: ir.RuleSet):
    """A test: does an expression read `waits`, directly or through patterns, quantities or units?"""
    from .ir import expr as E

    patterns = {p.name: p for p in rs.patterns}
    quantities = {q.name: q for q in rs.quantities}
    memo: dict[str, bool] = {}

    def deps(ref: str) -> list:
        cat, _, name = ref.partition(":")
        if cat == "pattern" and name in patterns:
            p = patterns[name]
            return [p.when, p.count, p.enabled, p.value]
        if cat == "quantity" and name in quantities:
            return [quantities[name].expr]
        if cat == "unit":
            return [e for p in rs.patterns if p.unit == name for e in (p.when, p.count, p.enabled, p.value)]
        return []

    def ref_reads(ref: str) -> bool:
        if ref in ("builtin:waits", "builtin:shape_waits"):
            return True
        if ref not in memo:
            memo[ref] = False  # a cycle is reported by the compiler; here it only ends the walk
            memo[ref] = any(reads(e) for e in deps(ref) if e is not None)
        return memo[ref]

    def reads(e) -> bool:
        return any(ref_reads(n.ref) for n in E.walk(e) if isinstance(n, E.Name) and n.ref)

    return reads


def load(path: str | Path, backend: str | None = None) -> Rules:
    """Load a compiled `.json` rule set (validated, never executed; the compiler is not needed).
    A `.pai` rule file needs the compiler: `paili.load` reads both.
    `backend`: 'native', 'python' or 'auto' (None: the PAILI_BACKEND environment variable)."""
    p = Path(path)
    if p.suffix != ".json":
        raise ValueError(f"{p.name}: the runtime loads compiled .json rule sets; a rule file is compiled by "
                         f"paili.load (or `paili compile`)")
    from .ir.serialize import loads

    text = p.read_text(encoding="utf-8")
    return Rules(loads(text), backend, text)
