"""The native core (runtime/native/, Rust) against the Python reference, and the backend seam.

The differential tests run a seeded sample of bench/native_diff.py (which runs 100,000 hands a file);
they need the extension module, built by `pip install -e .` where a Rust toolchain exists (CI builds it).
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
from functools import cache

import pytest
from conftest import ROOT
from paili import load
from paili.runtime import backend
from paili.runtime.signatures import memo_size

sys.path.insert(0, str(ROOT / "bench"))
import native_diff  # noqa: E402

NOT_BUILT = "the native core is not built here (installed without a Rust toolchain); the Python backend is in use"
needs_native = pytest.mark.skipif(not backend.available(), reason=NOT_BUILT)

# Structural cases and whole-rule-set cases per file. 扯胡子's wildcard hands (20-tile hands, one block
# of 20 kinds, four kings) cost the Python reference about a fifth of a second each, so it gets fewer.
SAMPLE = {"chehuzi.pai": (40, 12)}
DEFAULT_SAMPLE = (500, 60)


@cache
def rules(path, name):
    return load(path, backend=name)


# ---------------------------------------------------------------- the seam (runs everywhere)


def test_python_backend_is_selected_by_name_and_environment(monkeypatch):
    monkeypatch.setenv("PAILI_BACKEND", "python")
    assert backend.choose() == "python"
    assert backend.choose("python") == "python"
    r = load(ROOT / "bench" / "rules" / "joker.pai")
    assert r.backend == "python" and r.structure_backend == "python"
    monkeypatch.setenv("PAILI_BACKEND", "auto")
    assert backend.choose() == ("native" if backend.available() else "python")


def test_unknown_backend_is_one_sentence(monkeypatch):
    with pytest.raises(backend.BackendError, match="unknown backend 'fast'"):
        backend.choose("fast")
    monkeypatch.setenv("PAILI_BACKEND", "fast")
    p = subprocess.run([sys.executable, "-m", "paili", "score", "baijindao", "--hand", "123m"],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 2 and p.stderr.strip().startswith("paili: unknown backend 'fast'")
    assert "Traceback" not in p.stderr


@pytest.mark.skipif(backend.available(), reason="the native core is built here; this checks a machine without it")
def test_native_backend_asked_for_where_not_built():
    with pytest.raises(backend.BackendError, match="not built"):
        backend.choose("native")


@pytest.mark.parametrize("env", ["python", "auto"])
def test_version_names_the_backend(env):
    p = subprocess.run([sys.executable, "-m", "paili", "--version"], capture_output=True, text=True, cwd=ROOT,
                       env={**__import__("os").environ, "PAILI_BACKEND": env})
    assert p.returncode == 0
    line = p.stdout.strip()
    assert line.startswith("paili ")
    expect = "native" if env == "auto" and backend.available() else "python"
    assert f"backend: {expect} (" in line


# ---------------------------------------------------------------- native against the reference


@needs_native
@pytest.mark.parametrize("path", native_diff.FILES, ids=lambda p: p.name)
def test_native_takes_every_bundled_rule_set(path):
    r = rules(path, "native")
    assert r.structure_backend == "native", r.native_declined
    # the splits without wildcards are enumerated natively too (their groups are the reference's)
    assert r.catalog_for({})[1].structure.split_items


@needs_native
@pytest.mark.parametrize("path", native_diff.FILES, ids=lambda p: p.name)
def test_native_answers_equal_the_reference(path):
    hands, rules_hands = SAMPLE.get(path.name, DEFAULT_SAMPLE)
    checks, diffs, why = native_diff.run_file(path, hands, rules_hands, seed=7)
    assert not why
    assert not diffs, "\n".join(diffs[:10])
    assert checks >= hands


# Hands whose readings' raw pattern counts are compared (扯胡子's wildcard hands have dozens of readings).
COUNT_SAMPLE = {"chehuzi.pai": 40}
DEFAULT_COUNT_SAMPLE = 300


@needs_native
@pytest.mark.parametrize("path", native_diff.FILES, ids=lambda p: p.name)
def test_native_counts_every_bundled_rule_set(path):
    """The pattern programs take every bundled rule set: its patterns are counted natively."""
    r = rules(path, "native")
    assert r.counts_backend == "native", r.native_declined
    assert rules(path, "python").counts_backend == "python"


@needs_native
@pytest.mark.parametrize("path", native_diff.FILES, ids=lambda p: p.name)
def test_native_counts_equal_the_reference(path):
    """Every complete reading of seeded random hands (winning, near-winning, with wildcards and melds,
    self-drawn or not, under context values): each pattern's raw count from the native programs is the
    reference evaluator's, and a reading left to the reference is one the reference cannot count."""
    stats: dict = {}
    n = COUNT_SAMPLE.get(path.name, DEFAULT_COUNT_SAMPLE)
    checks, diffs, why = native_diff.run_file(path, 0, 0, seed=13, count_hands=n, stats=stats)
    assert not why
    assert not diffs, "\n".join(diffs[:10])
    assert stats["readings"] >= 60
    assert stats["needless"] == 0
    if path.name != "exprs.pai":  # the bundled rule sets never divide by zero nor add none
        assert stats["fallbacks"] == 0
    else:  # its failing patterns fail on some hands, and only those are the reference's
        assert 0 < stats["fallbacks"] < stats["readings"]


# Hands a file scored by `Rules.score_many` on both backends, in seeded chunks (扯胡子's wildcard hands cost
# the Python reference about a fifth of a second each, so it gets fewer).
# exprs.pai and shapes.pai have hundreds of patterns and shapes each, so they get fewer too. bench/native_diff.py
# --batch-hands runs as many as wanted.
BATCH_CHUNKS = 2
BATCH_SAMPLE = {"chehuzi.pai": 60, "exprs.pai": 100, "shapes.pai": 100}
DEFAULT_BATCH_SAMPLE = 400


@needs_native
@pytest.mark.parametrize("chunk", range(BATCH_CHUNKS))
@pytest.mark.parametrize("path", native_diff.FILES, ids=lambda p: p.name)
def test_score_many_is_the_same_on_both_backends(path, chunk):
    """Seeded random hands (winning, near-winning, holding wildcards, with melds, self-drawn or not, under
    context values and room options) scored in one `score_many` call give the same JSON on both backends
    (win, reason, fans with counts, total, score, quantities, reading, trace; or the same sentence), and
    the same as one `score` call each."""
    n = BATCH_SAMPLE.get(path.name, DEFAULT_BATCH_SAMPLE)
    diffs: list = []
    rnd = random.Random(f"batch:{chunk}:{path.name}")
    scored = native_diff.compare_batch(path, rules(path, "native"), rules(path, "python"), rnd, n, diffs)
    assert not diffs, "\n".join(diffs[:10])
    assert scored >= n * 9 // 10


@needs_native
@pytest.mark.parametrize("path", native_diff.FILES, ids=lambda p: p.name)
def test_examples_score_the_same_on_both_backends(path):
    """Every example and counterexample the rule file writes scores to the same JSON on both backends."""
    from paili.runtime.examples import score_example
    from paili.runtime.hand import HandError

    nat, ref = rules(path, "native"), rules(path, "python")
    examples = [ex for p in ref.ir.patterns for ex in (*p.examples, *p.counterexamples)] + list(ref.ir.examples)
    for ex in examples:
        got = []
        for r in (nat, ref):
            try:
                got.append(score_example(r, ex).to_json())
            except HandError as exc:
                got.append(str(exc))
        assert got[0] == got[1], ex.hand
    # readings counted natively one by one, or hands scored natively whole (runtime/nativescore.py), or
    # hands read and scored in one native call (runtime/nativehand.py)
    n = sum(nc.calls + (nc.scorer.hands if nc.scorer is not None else 0) + (nc.hands.hands if nc.hands else 0)
            for nc in nat._counts.values() if nc is not None)
    assert n or not examples


@needs_native
def test_pattern_programs_refuse_bad_input_in_one_sentence():
    mod = backend.native_module()
    r = rules(ROOT / "rules" / "baijindao.pai", "native")
    nc = r.native_counts_for(r.catalog_for({})[0])
    p = nc.programs
    settings = tuple(None for _ in nc.settings)
    one = ("顺子", (0, 4, 8), 2, 0, 0)
    n = len(r.catalog_for({})[0].kinds)
    assert type(p.raw_counts(settings, False, (), None, None, (one,), None, None, 0, 0, "标准")) is list
    with pytest.raises(ValueError, match="tile code outside the catalog"):
        p.raw_counts(settings, False, (), None, None, (("顺子", (n << 2,), 2, 0, 0),), None, None, 0, 0, "标准")
    with pytest.raises(ValueError, match="identity"):
        p.raw_counts(settings, False, (), None, None, (one[:4] + (3,),), None, None, 0, 0, "标准")
    with pytest.raises(ValueError, match="winning group"):
        p.raw_counts(settings, False, (), None, None, (one,), None, None, 0, 5, "标准")
    with pytest.raises(mod.NotCovered, match="64 bits"):
        p.raw_counts(settings, False, (), None, None, (one[:3] + (10 ** 30, 0),), None, None, 0, 0, "标准")
    with pytest.raises(ValueError, match="unknown tag"):
        p.raw_counts(settings, False, (), None, None, (one[:3] + (("x",), 0),), None, None, 0, 0, "标准")
    js = r.ruleset_json()
    with pytest.raises(mod.NotCovered, match="the function `held`"):
        mod.Patterns(js.replace('"func": "len"', '"func": "held"', 1), {})


@needs_native
def test_pattern_programs_bound_their_work():
    """A condition of 14^6 body evaluations on a 14-tile reading (more than the compiler allows, as a
    hand-written JSON file could hold) stops the native evaluation, which leaves the reading to the
    reference (0), rather than running without bound."""
    mod = backend.native_module()
    r = rules(ROOT / "bench" / "rules" / "shapes.pai", "native")
    doc = json.loads(r.ruleset_json())
    body = {"_": "Bool", "value": True}
    for b in "abcdef":
        body = {"_": "Comp", "func": "count", "binders": [b], "source": {"_": "Name", "name": "tiles",
                "ref": "builtin:tiles"}, "body": body}
    zero = {"_": "Num", "text": "0"}
    doc["ruleset"]["patterns"][0]["when"] = {"_": "Compare", "ops": [">"], "operands": [body, zero]}
    p = mod.Patterns(json.dumps(doc), {})
    group = ("将", (0, 0), 6, 0, 0)
    groups = tuple(group[:4] + (i,) for i in range(7))  # seven pairs: 14 tiles
    assert p.raw_counts((), False, (), None, None, groups, None, None, 0, 0, "对对") == 0
    doc["ruleset"]["patterns"][0]["when"]["operands"][0] = body["body"]["body"]  # 14^4: within the bound
    p = mod.Patterns(json.dumps(doc), {})
    assert p.raw_counts((), False, (), None, None, groups, None, None, 0, 0, "对对") == [1]


@needs_native
@pytest.mark.parametrize("path", [p for p in native_diff.FILES if p.name != "chehuzi.pai"], ids=lambda p: p.name)
def test_the_sample_is_not_vacuous(path):
    """The random cases hold wins and non-wins, with and without wildcards, and hands with waits."""
    r = rules(path, "native")
    dec = r.catalog_for({})[1]
    rnd = random.Random(3)
    seen = set()
    waits = 0
    for _ in range(300):
        counts, wilds, _, targets = native_diff.structural_case(r, dec, rnd)
        for m, p in targets:
            seen.add((dec.structure.can_split(tuple(counts), wilds, m, p), wilds > 0))
        held = [k for k in range(dec.n) if counts[k]]
        if held:
            less = list(counts)
            less[held[0]] -= 1
            waits += bool(dec.structure.completing_kinds(tuple(less), wilds, tuple(targets)))
    assert (True, False) in seen and (False, False) in seen
    if dec.fast.cap:
        assert (True, True) in seen and (False, True) in seen
    assert waits >= 30


@needs_native
@pytest.mark.parametrize("name", ["guobiao.pai", "baijindao.pai"])
def test_a_hand_asked_again_is_answered_as_the_reference(name):
    """The native tables keep the last hand's option set for the next question on the same counts, and
    per block the sets with one more tile of each kind (the completing kinds): one hand asked for every
    target twice, hands alternated, a hand's waits asked again after others — every answer the
    reference's (runtime/fastwin.py)."""
    path = ROOT / "rules" / name
    r = rules(path, "native")
    dec = r.catalog_for({})[1]
    nat, ref = dec.structure, rules(path, "python").catalog_for({})[1].structure
    rnd = random.Random(11)
    cases = []
    for _ in range(150):
        counts, _, _, targets = native_diff.structural_case(r, dec, rnd)
        cases.append((tuple(counts), tuple(targets)))
    fits = waits = 0
    for i, (counts, targets) in enumerate(cases):
        for counts2, targets2 in (cases[i], cases[i // 2], cases[i]):
            for m, p in targets2 + targets2:
                got = nat.can_split(counts2, 0, m, p)
                assert got == ref.can_split(counts2, 0, m, p), (counts2, m, p)
                fits += got
        held = [k for k in range(dec.n) if counts[k]]
        if held:
            less = list(counts)
            less[held[-1]] -= 1
            for _ in range(2):
                got = nat.completing_kinds(tuple(less), 0, targets)
                assert list(got) == list(ref.completing_kinds(tuple(less), 0, targets)), (less, targets)
            waits += bool(got)
    assert fits >= 50 and waits >= 30  # not vacuous: wins and waits among the cases


# ---------------------------------------------------------------- from the rules, not from the program


@needs_native
def test_four_wildcards_complete_what_a_seed_sentence_says():
    """bench/rules/joker.pai: 王牌可以代替任何牌 — four jokers stand for any four tiles of a hand of four
    melds and a pair; a hand whose natural tiles need more than four stays a non-win."""
    r = rules(ROOT / "bench" / "rules" / "joker.pai", "native")
    cat, dec = r.catalog_for({})
    idx = {k.code: k.index for k in cat.kinds if k.code}

    def counts(codes):
        c = [0] * len(cat.kinds)
        for code in codes.split():
            c[idx[code]] += 1
        return c

    # three runs and an honor triplet: two jokers are the pair
    assert r.check_win(counts("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z"), 2, 0)
    # 1m_3m, 5p_7p take one each, 9s9s and 1z1z one each as triplets, 2z2z is the pair: exactly four
    assert r.check_win(counts("1m 3m 5p 7p 9s 9s 1z 1z 2z 2z"), 4, 0)
    # three lone honors need at least one joker each besides 1m_3m and 5p_7p: more than four
    assert not r.check_win(counts("1m 3m 5p 7p 9s 1z 1z 2z 3z 4z"), 4, 0)
    # waits: 1m2m3m 4p5p6p 7s8s9s 1z1z1z 5z waits on 5z alone (a pair), with no joker
    waits = dec.structure.completing_kinds(tuple(counts("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 5z")), 0, ((4, 1),))
    assert [cat.kinds[i].code for i in waits] == ["5z"]


@needs_native
def test_catalog_follows_room_options():
    """龙岩 有筒子=false leaves out the 筒 suit; 扯胡子 王数=0 has no king: the native catalog is the Python one."""
    for path, options in ((ROOT / "rules" / "longyan.pai", {"option:有筒子": False}),
                          (ROOT / "rules" / "chehuzi.pai", {"option:王数": 0}),
                          (ROOT / "rules" / "chehuzi.pai", {"option:王数": 2})):
        r = rules(path, "native")
        cat, dec = r.catalog_for(options)
        assert dec.structure.name == "native", r.native_declined
        assert dec.structure.tables.kinds() == [(k.name, k.copies) for k in cat.kinds]
    short = rules(ROOT / "rules" / "longyan.pai", "native").catalog_for({"option:有筒子": False})[0]
    assert not any(k.suit == "筒" for k in short.kinds)


# ---------------------------------------------------------------- safety


@needs_native
def test_bad_input_is_one_sentence_never_a_panic():
    mod = backend.native_module()
    text = (ROOT / "rules" / "baijindao.pai")
    js = rules(text, "native").ruleset_json()
    with pytest.raises(ValueError, match="not valid JSON"):
        mod.Tables("{", {}, 0)
    with pytest.raises(ValueError, match="format version 99"):
        mod.Tables(js.replace('"version": 2', '"version": 99', 1), {}, 0)
    with pytest.raises(ValueError, match="not a valid paili rule set"):
        mod.Tables(json.dumps({"format": "paili-ruleset", "version": 2, "ruleset": {}}), {}, 0)
    t = mod.Tables(js, {}, 0)
    n = len(t.kinds())
    with pytest.raises(ValueError, match="tile kinds, but this catalog has"):
        t.can_split([1, 2, 3], 0, 4, 1)
    with pytest.raises(ValueError, match="cannot be negative"):
        t.can_split([-1] * n, 0, 4, 1)
    with pytest.raises(ValueError, match="cannot be negative"):
        t.can_split(tuple([-1] * n), 0, 4, 1)
    for bad in ([1.5] * n, tuple([1.5] * n), ("1",) * n):
        with pytest.raises(ValueError, match="must be a whole number"):
            t.can_split(bad, 0, 4, 1)
    with pytest.raises(mod.NotCovered, match="wildcards"):
        t.can_split([0] * n, 3, 1, 0)
    with pytest.raises(mod.NotCovered):
        t.can_split([9] + [0] * (n - 1), 0, 3, 0)
    # a panic inside the core is NativeError with one sentence, and the tables still answer after it
    before = t.can_split([3] + [0] * (n - 1), 0, 1, 0)
    with pytest.raises(mod.NativeError, match="^the native core failed: a panic on this input$"):
        t._panic_for_test()
    assert t.can_split([3] + [0] * (n - 1), 0, 1, 0) == before is True
    # the seam answers what the tables do not take with the reference: the same answer either way
    nat, ref = rules(text, "native"), rules(text, "python")
    assert nat.check_win([3] + [0] * (n - 1), 3, 0) == ref.check_win([3] + [0] * (n - 1), 3, 0)
    assert nat.catalog_for({})[1].structure.failures == 0


# ---------------------------------------------------------------- notation and the copies check


@needs_native
@pytest.mark.parametrize("path", native_diff.FILES, ids=lambda p: p.name)
def test_notation_equals_the_reference(path):
    """Random text over the rule set's own codes and characters, digits, letters, commas, white space and
    stray characters: the native notation reads the same tiles as runtime/notation.py, and refuses
    exactly the text it refuses (the sentence is then the Python one)."""
    from paili.runtime.hand import HandError, build_hand, parse_tiles

    r = rules(path, "native")
    cat, dec = r.catalog_for({})
    tables = dec.structure.tables
    alphabet = sorted({k.code for k in cat.kinds if k.code} | {k.char for k in cat.kinds if k.char})
    pieces = alphabet + list("0123456789mpsz ,，x\t\u3000") + ["\x1c", "10", "  "]
    rnd = random.Random(11)
    valid = invalid = over = 0
    for _ in range(3000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 16)))
        if rnd.random() < 0.1:  # one tile written more often than it has copies, now and then
            text += " " + rnd.choice(alphabet) * rnd.randint(3, 6)
        try:
            expect = [k.index for k in parse_tiles(r.notation, cat, text, "hand")]
        except HandError:
            expect = None
        assert tables.parse(text) == expect, repr(text)
        valid += expect is not None
        invalid += expect is None
        if expect is not None:  # the copies check of a hand, as build_hand makes it
            try:
                build_hand(r, text, None, None, False, cat)
                fits = True
            except HandError as exc:
                assert "only" in str(exc) and "exist" in str(exc)
                fits = False
            counts = tables.tile_counts([text])
            assert (counts is not None) == fits, repr(text)
            over += not fits
            if counts is not None:
                assert list(counts) == [expect.count(i) for i in range(len(cat.kinds))]
    assert valid > 300 and invalid > 300 and over > 0


@needs_native
def test_a_rule_set_loaded_on_one_thread_scores_on_others():
    # A game server loads its rule sets once and answers from a pool of worker threads (`paili serve`'s
    # plain endpoints run on one): the native pattern programs must be usable from any thread, and give
    # the same answer there (they once refused with a panic: the class was bound to the loading thread).
    import threading

    r = load("guobiao", backend="native")
    assert r.backend == "native"
    here = r.score("123m456m789m123s5s", [], "5s", False, {}).total
    got: list = []

    def work():
        try:
            got.append(r.score("123m456m789m123s5s", [], "5s", False, {}).total)
        except BaseException as exc:  # noqa: BLE001 - a panic is a BaseException; the test reports it
            got.append(repr(exc))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [here] * 4


def _kept(r) -> dict:
    """What a rule set keeps across hands for the signature search: each observer's memo size."""
    return {k: memo_size(o.memo) for k, o in r.observers.items()}


@needs_native
def test_the_differential_run_keeps_both_backends_state_in_step():
    # The work a wildcard hand is charged depends on the signature memos earlier hands left. After
    # bench/native_diff.py's batch part, which scores its first hands once more on the native side,
    # the work of `waits_of_hand` differed: the native rule set's observers (a bounded cache, started
    # afresh past 64) had been started afresh at another hand. The harness now scores those hands once
    # more on both sides, so both rule sets keep the same observers with memos of the same size.
    path = ROOT / "rules" / "longyan.pai"
    nat, ref = load(path, backend="native"), load(path, backend="python")
    rnd = random.Random("1:longyan.pai")
    diffs: list = []
    native_diff.compare_batch(path, nat, ref, rnd, 300, diffs)  # enough contexts to start the cache afresh
    assert _kept(nat) and _kept(nat) == _kept(ref)
    native_diff.compare_hands(path, nat, ref, rnd, 40, diffs, {})
    assert _kept(nat) == _kept(ref)
    assert diffs == []
