"""The runtime's entry point: a loaded rule set that scores hands and lists waits.

    from .rules import load
    rules = load("VARIANT.json")                 # a compiled rule set (paili.load compiles a .pai)
    result = rules.score("123m456m789m东东东白", win="白", self_drawn=True)
"""
from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import limits
from .backend import choose as choose_backend
from .backend import native_module, native_structure
from .batch import score_many
from .contexts import Contexts, retile
from .decompose import Decomposer
from .engine_counts import EngineCounts
from .evaluate import EvalError, compile_expr
from .fans import PatternLines
from .fastwin import WILD_CAP, BlockWin
from .hand import Hand, HandError, build_hand
from .hand_signatures import KeptObservers
from .ir import nodes as ir
from .meldshape import MeldChecks, meld_matches, shape_text
from .nativecounts import NativeCounts, native_counts
from .nativehand import native_hands
from .nativelane import lane_score
from .nativescore import native_scorer, scoring_programs
from .notation import Notation
from .prefilter import Prefilter
from .rule_reads import catalog_options, expression_reads_waits
from .tiles import Catalog, TileInfo, setting_defaults
from .win_check import native_check, structural_check, win_targets

if TYPE_CHECKING:
    from .fastscore import FastScorer
    from .result import ScoreResult
    from .scoring import CompiledPatterns

# The Python scorers (runtime/hand_score.py, runtime/scoring.py, the generated one) are imported where
# first used: a batch the native core scores whole (runtime/batch.py) needs none of them. `score_in` keeps
# the class it scores with once imported (an import statement per call costs a hand about a microsecond).
_LATE: list = []


def _late():
    from .hand_score import Scoring

    _LATE.append(Scoring)
    return Scoring


@dataclass(eq=False)
class FormAnswers:
    """What a rule set answers from its winning forms, each computed on first use. They depend on the
    forms the rules win by, not only on the rule set: `Rules.with_forms` gives its copy a fresh one."""

    structural: bool | None = None  # `Rules._structural_only`
    plain_waits: bool | None = None  # `Rules.plain_waits`
    check_fast: Callable | None = None  # `check_win` without a context, as one function (native where it can)
    check_slow: Callable | None = None  # the same in Python, for what the native one does not take
    # (forms asked for or True, exposed melds, concealed tiles, any exposed) -> the (melds, pairs) targets
    # of `Scoring.plain_wait_check`
    wait_targets: dict = field(default_factory=dict)


@dataclass(eq=False)
class Made:
    """What a rule set makes at its first use rather than at load, shared by its `with_forms` copies (a
    copy made before its first use shares what is made after it): a run that scores every hand natively
    (the native batch driver) never makes the Python scorers."""

    fast: FastScorer | None = None  # `Rules.fast`: the generated reading evaluator, or None
    patterns: CompiledPatterns | None = None  # `Rules.patterns`: the reference's closures
    set_aside: bool = False  # `fast` was set to None: every reading goes to the reference
    fast_made: bool = False  # whether `fast` was made (or set)



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
        self.scoring_declined = "not built"  # why whole hands are not scored natively (empty: they are)
        self.hands_declined = "not built"  # why hands are not read and scored in one native call (empty: they are)
        self.notation = Notation.from_kinds(rs.tiles.kinds)
        self._made = Made()
        # The pattern lines of a result (names, units, tally); None when the generated scorer does not
        # take the rule set's units (`fastscore.build` then refuses it too).
        lines = PatternLines(rs)
        self.lines = lines if lines.units_declared else None
        # What the native pattern programs apply before counting (the reference's own tests): made here,
        # apart from the compiled patterns that hold the same, so that the native core needs no closures.
        self.prefilter = Prefilter(rs.patterns)
        self._catalog_reads: tuple | None = None  # `catalog_for`: (options its catalog reads, defaults)
        self._catalogs: dict[tuple, tuple[Catalog, Decomposer]] = {}
        self._counts: dict[int, NativeCounts | None] = {}  # by id of a catalog kept in _catalogs
        self.contexts = Contexts(self)  # the settings, and the environment of each context hands are scored in
        self.catalog = self.catalog_for({})[0]
        self.requires = [(q, compile_expr(q.expr), compile_expr(q.unless) if q.unless is not None else None)
                          for q in rs.requires]
        # A requirement that depends on the waits (a minimum value that counts a wait pattern) cannot
        # decide what the hand waits on: the waits apply every other requirement.
        reads_waits = expression_reads_waits(rs)
        # Nor does one declared `waits false` (how the tile is won, e.g. only by self-draw): waits are the
        # tiles that complete the hand, however they come.
        self.wait_requires = [x for x in self.requires if x[0].decides_waits
                               and not any(reads_waits(e) for e in (x[0].expr, x[0].unless) if e is not None)]
        self.forms = [(f, compile_expr(f.instant) if f.instant is not None else None,
                        compile_expr(f.pair_when) if f.pair_when is not None else None) for f in rs.forms]
        self.wilds = [(w, compile_expr(w.active) if w.active is not None else None) for w in rs.wilds]
        self.standins = [(s, compile_expr(s.plays), compile_expr(s.unless) if s.unless is not None else None)
                          for s in rs.standins]
        # The rule set's own memos (shared by `with_forms` copies: none depends on the forms).
        self._derived: dict | None = None  # `derived`
        self._meld_values: dict[tuple[str, str | None], Any] = {}  # `meld_value` by (meld kind, suit)
        self.meld_checks = MeldChecks()  # the melds given as text checked (`build_hand`)
        # The observation sites of hands with wildcards (runtime/hand_signatures.py `_observer`), by what
        # the readings are for, the form, the winning tile and the context's shared values; their memos
        # bounded together (`KeptObservers.limit`).
        self.observers = KeptObservers()
        self.by_forms = FormAnswers()
        # The game engine's compiled program of this rule set (runtime/game/program.py `program_for`),
        # made by its first game and shared by all of them: declared here, with the rule set it is made
        # from, though this layer knows nothing of what is in it.
        self.game_program: Any = None
        self.engine = EngineCounts()  # its games on the native backend (runtime/game/native_game.py)

    @property
    def fast(self) -> FastScorer | None:
        """The generated reading evaluator (runtime/fastscore.py), made at its first use; None when it
        does not take this rule set. Setting it (None: the reference evaluates every reading) sets it for
        these rules and the copies made from them afterwards."""
        made = self._made
        if not made.fast_made:
            from .fastscore import build

            made.fast = build(self.ir, self.requires, self.wait_requires, self.lines)
            made.fast_made = True
        return made.fast

    @fast.setter
    def fast(self, value: FastScorer | None) -> None:
        self._made = Made(value, self._made.patterns, value is None, True)

    @property
    def patterns(self) -> CompiledPatterns:
        """The reference's closures for every pattern, quantity and the score (runtime/scoring.py), made
        at their first use."""
        got = self._made.patterns
        if got is None:
            from .scoring import CompiledPatterns

            got = self._made.patterns = CompiledPatterns(self.ir, self.prefilter)
        return got

    def pattern_lines(self) -> PatternLines | None:
        """What the native scoring of whole hands needs of the generated scorer without its code (the
        pattern lines, units, quantities): None when there is no generated scorer to hand hands back to
        (`fast` set to None, or a rule set whose units it does not take)."""
        return None if self._made.set_aside else self.lines

    def with_forms(self, names) -> Rules:
        """These rules winning only by the named forms (the engine asks whether a hand wins by some forms
        alone): the compiled patterns, the catalogs and the generated evaluator are shared, and every
        cache that depends on the forms starts empty in the copy."""
        r = copy.copy(self)
        r.forms = [x for x in self.forms if x[0].name in names]
        r.by_forms = FormAnswers()
        return r

    # ------------------------------------------------------------------ settings

    def catalog_for(self, settings: dict) -> tuple[Catalog, Decomposer]:
        reads = self._catalog_reads
        if reads is None:
            reads = self._catalog_reads = (catalog_options(self.ir), {
                k: v for k, v in setting_defaults(self.ir).items() if k.startswith("option:")})
        read, defaults = reads
        # Room options set up the catalog, and everything made from it here and in the native core, only
        # through its tiles' expressions: an option they do not read, or one at its default value (the
        # same type and value), sets up the very catalog its absence does, so one catalog serves them
        # all (the contexts' environments name every option, `check_win` none).
        options = {k: v for k, v in settings.items() if k.startswith("option:") and (read is None or k in read)
                   and not (k in defaults and type(v) is type(defaults[k]) and v == defaults[k])}
        key = tuple(sorted((k, str(v)) for k, v in options.items()))
        if key not in self._catalogs:
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
                free = min(self.max_free(cat), WILD_CAP)
                structure, why = native_structure(self.ruleset_json(), options, cat, dec, free)
                if structure is not None:
                    dec.attach_structure(structure)
                else:
                    self.native_declined = why
                mod = native_module()
                # the scoring programs first: when the core makes them, the pattern programs they hold the
                # like of are made at their first use (`native_counts`)
                made = scoring_programs(self.ruleset_json(), options, cat, mod)
                counts, why = native_counts(self.ruleset_json(), options, cat, mod, self.prefilter,
                                            [p.name for p in self.ir.patterns], made[0])
                if counts is not None:  # whole hands natively, where the generated scorer scores (its labels)
                    counts.scorer, self.scoring_declined = native_scorer(self.ruleset_json(), options, cat, mod,
                                                                         counts, made)
                self._counts[id(cat)] = counts
                if counts is None and why not in self.native_declined:
                    self.native_declined = "; ".join(x for x in (self.native_declined, f"patterns: {why}") if x)
            self._catalogs[key] = (cat, dec)
        return self._catalogs[key]

    def catalog_option_names(self) -> frozenset | None:
        """The room options the catalog's tiles read (`catalog_options`), None when any option may."""
        return catalog_options(self.ir)

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

    def stats(self) -> dict:
        """Which backend answers what for this rule set, and how often each handed work to the reference
        (for `paili score --stats` and benches; keys are added, never renamed):
        `backend`, `structure`, `counts` ('native' or 'python'); `generated` (whether the generated scorer
        takes this rule set); `fallbacks` (readings, form conditions and wait trials it handed to the
        reference for an unusual value, this rule set), `process_fallbacks` (the same over every rule set
        of this process); `native_fallbacks` (readings the native pattern programs left to Python),
        `native_failures` (native structure errors answered by the reference; 0 expected); `scoring`
        ('native' where whole hands are scored in native code, runtime/nativescore.py, else 'python') and
        `native_score_fallbacks` (hands it handed back to the generated scorer); `native_hands` (hands
        scored whole in one native call, readings included: runtime/nativehand.py) and
        `native_hand_fallbacks` (of those, hands it handed back to the Python path; both count the lines
        the native batch driver scores too, runtime/batch.py `NativeContexts`, each hand once: a line the
        driver hands back is counted where the line scorer scores it), `native_wild_hands` (of the
        hands, those holding wildcards or stand-ins in play), `native_wild_fallbacks` (of those, handed back),
        `native_hand_reasons` (why hands were handed back, by reason); `waits` ('native' where the
        wait trials run in native code, runtime/native/src/waits/, else 'python'), `native_waits` (waits and
        shape waits found there) and `native_wait_fallbacks` (those the reference found instead);
        `engine_games` (games asked of the native backend, runtime/game/native_game.py), `engine_fallbacks`
        (of those, hands played on in Python; why: `engine_fallback_reasons`), `engine_mirrors` (Python
        games replayed beside native ones)."""
        from .fastscore import FastScorer

        structures = [dec.structure for _, dec in self._catalogs.values()]
        scorers = [nc.scorer for nc in self._counts.values() if nc is not None and nc.scorer is not None]
        hands = [nc.hands for nc in self._counts.values() if nc is not None and nc.hands is not None]
        return {
            "backend": self.backend, "structure": self.structure_backend, "counts": self.counts_backend,
            "generated": self.fast is not None,
            "fallbacks": self.fast.fallbacks if self.fast is not None else 0,
            "process_fallbacks": FastScorer.process_fallbacks,
            "native_fallbacks": sum(nc.fallbacks for nc in self._counts.values() if nc is not None),
            "native_failures": sum(getattr(s, "failures", 0) for s in structures),
            "scoring": "native" if scorers else "python",
            "native_score_fallbacks": sum(s.fallbacks for s in scorers),
            "native_hands": sum(h.hands for h in hands),
            "native_hand_fallbacks": sum(h.fallbacks for h in hands),
            "native_wild_hands": sum(h.not_natural for h in hands),
            "native_wild_fallbacks": sum(h.wild_fallbacks for h in hands),
            "native_hand_reasons": {k: sum(h.reasons.get(k, 0) for h in hands) for h in hands for k in h.reasons},
            "waits": "native" if any(not s.waits_declined for s in scorers) else "python",
            "native_waits": sum(s.wait_calls for s in scorers),
            "native_wait_fallbacks": sum(s.wait_fallbacks for s in scorers),
            "engine_games": self.engine.games, "engine_fallbacks": self.engine.fallbacks,
            "engine_fallback_reasons": dict(self.engine.reasons), "engine_mirrors": self.engine.mirrors,
        }

    def native_counts_for(self, cat: Catalog) -> NativeCounts | None:
        """The native pattern programs bound to this catalog (None: the Python evaluators count)."""
        return self._counts.get(id(cat))

    def native_hands_for(self, cat: Catalog, dec: Decomposer):
        """The native readings and scoring of whole hands of this catalog (runtime/nativehand.py), built on
        first use (they read the pattern lines), or None (`hands_declined` says why)."""
        nc = self._counts.get(id(cat))
        if nc is None:
            return None
        if not nc.hands_tried:
            nc.hands_tried = True
            nc.hands, self.hands_declined = native_hands(self, cat, dec, nc, native_module())
        return nc.hands

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

    def max_free(self, cat: Catalog) -> int:
        """The most free tiles (wildcards and stand-ins) one hand can hold under this catalog: what the
        engine's win tests treat as free (runtime/game/winning.py `_could_win`), so the native tables that
        answer them natively are built for that many (the reference's own tables keep `max_wilds`)."""
        n = self.max_wilds(cat)
        for s in self.ir.standins:
            if s.name in cat.by_name:
                n += cat.by_name[s.name].copies
        return n

    def settings_env(self, values: dict[str, Any] | None) -> dict:
        """Room option and context values by name (`context` of score and waits, `--set NAME=VALUE` of the
        command line; strings or Python values) -> the expression environment (runtime/contexts.py)."""
        return self.contexts.settings_env(values)

    # ------------------------------------------------------------------ scoring

    def env_for(self, context: dict[str, Any] | None):
        """(catalog, decomposer, expression environment) for a context, kept per distinct context
        (runtime/contexts.py): read it, never change it."""
        return self.contexts.env_for(context)

    def score(self, hand: str | Hand, melds: list[str] | None = None, win: str | None = None,
              self_drawn: bool = False, context: dict[str, Any] | None = None, *,
              work: list[int] | None = None) -> ScoreResult:
        """The hand's best score. `work`, when given, is the one-item list of work units the scoring may
        use (limits.HAND_WORK by default); it is left holding what was not used."""
        return self.score_in(self.contexts.env_for(context), hand, melds, win, self_drawn, work=work)

    def score_in(self, env_for: tuple, hand: str | Hand, melds: list[str] | None = None, win: str | None = None,
                 self_drawn: bool = False, *, work: list[int] | None = None) -> ScoreResult:
        """`score` under a context already turned into `env_for(context)`'s (catalog, decomposer,
        environment) — what a batch of hands under one context shares."""
        cat, dec, env = env_for
        if work is None and not isinstance(hand, Hand):
            got = lane_score(self, env_for, hand, melds, win, self_drawn)  # read and scored in one native call
            if got is not None:
                return got
        Scoring = _LATE[0] if _LATE else _late()
        if not isinstance(hand, Hand):
            tables = getattr(dec.structure, "tables", None)  # the native tables read the notation in one call
            hand = build_hand(self, hand, melds, win, self_drawn, cat, tables.parse if tables is not None else None)
        h = hand
        sc = Scoring(self, cat, dec, env, h)
        if work is not None:
            sc.work = work
        sc.refuse_wild_melds()
        return sc.run()

    def score_many(self, hands) -> list:
        """Many hands scored in one call (runtime/batch.py): each item a dict with the keys of a
        `paili score --batch` line (hand, melds, win, self_drawn, set), a string of tiles, or a tuple
        (hand, melds, win, self_drawn, context) with trailing members optional. Returns one entry per
        item: its ScoreResult, or the HandError or ValueError (one sentence) that kept it from being
        scored — the other items are scored all the same. Each distinct context's environment is
        built once per call; every hand is scored afresh."""
        return score_many(self, hands)

    def waits(self, hand: str | Hand, melds: list[str] | None = None, self_drawn: bool = False,
              context: dict[str, Any] | None = None, *,
              work: list[int] | None = None) -> list[tuple[TileInfo, ScoreResult]]:
        """Every tile kind whose draw (or claim) wins, with its best score — a wildcard tile too. Every
        trial tile draws on one work limit (`work`, as for `score`)."""
        from .hand_score import Scoring

        env = self.settings_env(context)
        cat, dec = self.catalog_for(env)
        env = self.retile(env, cat)
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

    def derived(self) -> dict:
        """What each pattern, quantity and unit name reads: the expressions that define it."""
        got = self._derived
        if got is None:
            rs = self.ir
            got = {}
            for p in rs.patterns:
                got[f"pattern:{p.name}"] = [p.when, p.count, p.enabled, p.value]
                got.setdefault(f"unit:{p.unit}", []).extend([p.when, p.count, p.enabled, p.value])
            for q in rs.quantities:
                got[f"quantity:{q.name}"] = [q.expr]
            self._derived = got
        return got

    def meld_value(self, mk: ir.MeldKind, suit: str | None):
        """The `value` a group of meld kind mk in this suit carries (its suit's line, else the line
        without a suit, else 0)."""
        key = (mk.name, suit)
        got = self._meld_values.get(key, self)
        if got is self:
            chosen = next((v for v in mk.values if v.suit == suit), None) or next(
                (v for v in mk.values if not v.suit), None)
            got = self._meld_values[key] = compile_expr(chosen.value)({}) if chosen else 0
        return got

    def _wild_kinds(self, cat: Catalog, env: dict) -> list[TileInfo]:
        """The tile kinds a `wild` names under this context (fixed, or the value of a reveal)."""
        out = []
        for w, _ in self.wilds:
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
            fast = self.by_forms.check_fast
            if fast is not None:
                try:
                    return fast(counts, wilds, melds)
                except Exception:  # noqa: BLE001 - what the native check does not take: the path below answers
                    return self.by_forms.check_slow(counts, wilds, melds)
            cat, dec = self.catalog_for({})
        if self._structural_only:
            if not context:
                fn = self.by_forms.check_slow = structural_check(self.forms, dec)
                self.by_forms.check_fast = native_check(self.forms, dec) or fn
                return fn(counts, wilds, melds)
            targets = win_targets(self.forms, melds, sum(counts) + wilds)
            return dec.can_split_any(counts, wilds, targets) if targets else False
        tiles = [k for k in cat.kinds for _ in range(counts[k.index])]
        joker = next((k for k in cat.kinds if k.category == "joker"), None)
        if wilds and joker is None:
            raise HandError("this rule set has no fixed joker to stand for the wildcards")
        tiles += [joker] * wilds
        h = Hand(tiles[:-1], [], tiles[-1], True)
        return self.score(h, context=context).win

    @property
    def plain_waits(self) -> bool:
        """No requirement decides the waits and every form is melds and pairs: waits by structure."""
        got = self.by_forms.plain_waits
        if got is None:
            got = self.by_forms.plain_waits = not self.wait_requires and all(
                f.instant is None and not f.orphans and f.pair_when is None and not f.tiles
                for f, _, _ in self.forms)
        return got

    @property
    def _structural_only(self) -> bool:
        """Only melds-and-pairs forms of three-tile melds, and no requirements: a win is a pure split."""
        v = self.by_forms.structural
        if v is None:
            dec = self.catalog_for({})[1]
            v = not self.requires and all(
                f.instant is None and not f.orphans and f.pair_when is None and f.groups is None and not f.tiles
                for f, _, _ in self.forms) and all(s.size == 3 for s in dec.meld_specs)
            self.by_forms.structural = v
        return v

    def wait_tiles(self, hand: str, melds: list[str] | None = None, self_drawn: bool = False,
                   context: dict[str, Any] | None = None) -> list[TileInfo]:
        """The tile kinds that complete the hand (without scoring each)."""
        from .hand_score import Scoring

        env = self.settings_env(context)
        cat, dec = self.catalog_for(env)
        env = self.retile(env, cat)
        h = build_hand(self, hand, melds, None, self_drawn, cat)
        sc = Scoring(self, cat, dec, env, h)
        got = sc.native_waits(False)  # the native wait trials where they answer (the same kinds)
        return sc.wait_kinds() if got is None else got

    def retile(self, env: dict, cat: Catalog) -> dict:
        """Tile values must be the catalog's own objects (same options)."""
        return retile(env, cat)

    # ------------------------------------------------------------------ meld checks for input

    def meld_matches(self, mk: ir.MeldKind, tiles: list[TileInfo]) -> bool:
        return meld_matches(mk, tiles)

    def shape_text(self, mk: ir.MeldKind) -> str:
        return shape_text(mk)


def load(path: str | Path, backend: str | None = None) -> Rules:
    """Load a compiled `.json` rule set (validated, never executed; the compiler is not needed).
    A `.pai` rule file needs the compiler: `paili.load` reads both.
    `backend`: 'native', 'python' or 'auto' (None: the PAILI_BACKEND environment variable)."""
    p = Path(path)
    if p.suffix != ".json":
        raise ValueError(f"{p.name}: the runtime loads compiled .json rule sets; a rule file is compiled by "
                         f"paili.load (or `paili compile`)")
    from .ir.serialize import loads, read_text

    text = read_text(p)
    return Rules(loads(text), backend, text)
