"""Whole hands in one native call (runtime/native/src/hand/, runtime/nativehand.py): the readings of a hand
of natural tiles enumerated in Rust, scored and chosen there, against the Python backend — the whole
`to_json()` of seeded random hands of every bundled rule file and bench/rules/joker.pai (winning,
near-winning, with melds, self-drawn or not, under room options and context values), and the native
side's own JSON of each result (src/hand/json.rs) against `to_json()`. bench/native_diff.py
`--hand-hands` runs more."""
from __future__ import annotations

import json
import random
import sys

import pytest
from conftest import ROOT
from paili import load
from paili.runtime import backend
from paili.runtime.hand import HandError

sys.path.insert(0, str(ROOT / "bench"))
import hand_speed  # noqa: E402
import mcr_crosscheck  # noqa: E402
import native_diff  # noqa: E402

BY_SIGNATURE = "a hand whose wildcards (of one kind) the reference reads by signature"

NOT_BUILT = "the native core is not built here (installed without a Rust toolchain); the Python backend is in use"
needs_native = pytest.mark.skipif(not backend.available(), reason=NOT_BUILT)
NATURAL = ("baijindao.pai", "guobiao.pai")  # the bundled rule sets without wildcards or stand-ins
# (in the others, a hand whose wildcards the reference reads by signature is handed back, by that
# reason — tests/test_native_wild_hands.py; bench/rules/exprs.pai's patterns divide by zero on purpose,
# so some of its hands are handed back)
# 扯胡子's wildcard hands cost the Python reference about a fifth of a second each (tests/test_native.py)
SAMPLE = {"chehuzi.pai": 15}


@needs_native
@pytest.mark.parametrize("path", native_diff.FILES, ids=lambda p: p.name)
def test_hands_in_one_native_call_are_the_references(path):
    nat, ref = load(path, backend="native"), load(path, backend="python")
    diffs: list = []
    stats: dict = {}
    n = SAMPLE.get(path.name, 300 if path.name in NATURAL else 60)
    checks = native_diff.compare_hands(path, nat, ref, random.Random(f"hands:{path.name}"), n, diffs, stats)
    assert diffs == []
    assert checks > n * 0.9
    if path.name in NATURAL:
        # every hand went through the native call, none handed back, and its own JSON was compared
        assert stats["native_hands"] >= checks * 0.9 and stats["native_hand_fallbacks"] == 0
        assert stats["json"] >= checks * 0.9
    elif path.name != "exprs.pai":  # wildcards or stand-ins: only hands read by signature are handed back
        assert stats["native_hands"] > 0
        assert set(stats["native_hand_reasons"]) <= {BY_SIGNATURE}
        assert stats["native_hand_fallbacks"] == stats["native_wild_fallbacks"]


def winning_guobiao(rnd):
    while True:
        h = mcr_crosscheck.random_hand(rnd)
        if h is not None:
            return mcr_crosscheck.paili_args(h)


@needs_native
@pytest.mark.parametrize("name", NATURAL)
def test_winning_hands_are_scored_without_fallback(name):
    nat = load(ROOT / "rules" / name, backend="native")
    ref = load(ROOT / "rules" / name, backend="python")
    rnd = random.Random(15)
    wins = 0
    for _ in range(150):
        if name == "guobiao.pai":
            args = winning_guobiao(rnd)
        else:
            h = hand_speed.random_winning_hand(rnd)
            w = rnd.randrange(14)
            args = (" ".join(h[:w] + h[w + 1:]), [], h[w], rnd.random() < 0.5, {"加倍次数": rnd.choice([0, 3])})
        got = nat.score(*args).to_json()
        assert json.dumps(got, ensure_ascii=False) == json.dumps(ref.score(*args).to_json(), ensure_ascii=False)
        wins += got["win"]
    stats = nat.stats()
    assert stats["native_hands"] == 150 and stats["native_hand_fallbacks"] == 0
    assert stats["native_failures"] == 0 and stats["native_score_fallbacks"] == 0
    assert wins > 100


@needs_native
def test_a_hand_handed_back_is_scored_in_python_and_counted():
    # a context value past 64 bits: the native side does not take it, the Python path scores the hand
    nat = load(ROOT / "rules" / "baijindao.pai", backend="native")
    ref = load(ROOT / "rules" / "baijindao.pai", backend="python")
    args = ("1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m", [], "5m", True, {"房间倍率": 10 ** 30})
    got = nat.score(*args).to_json()
    assert got == ref.score(*args).to_json() and got["win"]
    assert got["score_exact"].endswith("0" * 30)
    assert nat.stats()["native_hand_fallbacks"] == 1


@needs_native
@pytest.mark.parametrize("name", ["native", "python"])
def test_the_work_limit_refuses_the_same_hand_with_the_same_sentence(name):
    r = load(ROOT / "rules" / "guobiao.pai", backend=name)
    with pytest.raises(HandError, match="more ways to read its wildcards than paili examines"):
        r.score("1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m", [], "5m", work=[10])
    # 白金岛 has no instant form, which any number of tiles may try: five tiles fit none of its forms
    with pytest.raises(HandError, match="holds 6 concealed tiles besides 0 meld"):
        load(ROOT / "rules" / "baijindao.pai", backend=name).score("1m 1m 1m 2m 3m", [], "5m")
    assert r.score("1m 1m 1m 2m 3m", [], "5m").to_json()["reason"] == "the tiles do not form any winning hand of " \
        "this rule set"


@needs_native
def test_labels_with_expressions_are_computed_natively():
    # 白金岛's 加倍 line is labelled 加倍{cn(加倍次数)}次
    nat = load(ROOT / "rules" / "baijindao.pai", backend="native")
    args = ("1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m", [], "5m", False, {"加倍次数": 3})
    got = nat.score(*args).to_json()
    assert "加倍三次" in [f["name"] for f in got["fans"]]
    assert got == load(ROOT / "rules" / "baijindao.pai", backend="python").score(*args).to_json()


@needs_native
def test_the_hand_call_refuses_bad_input_in_one_sentence():
    mod = backend.native_module()
    r = load(ROOT / "rules" / "baijindao.pai", backend="native")
    cat, dec, env = r.env_for({})
    hands = r.native_hands_for(cat, dec)
    settings = hands.counts.scorer.hand_state(env, False, [])[0]
    n = len(cat.kinds)

    def call(concealed, melds=(), win=-1, forms=(0, 1)):
        return hands.hands_native.score(concealed, melds, win, False, settings, (), forms, 1000, lambda s, w: ([], w))
    status, _, why, _ = call([0, 0], win=0)  # three tiles fit no form of 白金岛: the reference's sentence
    assert status == 2 and why.startswith("the hand holds 3 concealed tiles besides 0 meld(s)")
    with pytest.raises(ValueError, match="tile outside the catalog"):
        call([n])
    with pytest.raises(ValueError, match="tile outside the catalog"):
        call([0], win=n)
    with pytest.raises(ValueError, match="a meld must be a tuple"):
        call([0], melds=([],))
    status, _, why, _ = call([0, 0], win=0, forms=(7,))  # a form the rule set does not have: handed back
    assert status == 3 and "form" in why
    with pytest.raises(ValueError, match="the hand setup lacks"):
        mod.Hands(hands.counts.scorer.scorer, dec.structure.tables, {})
