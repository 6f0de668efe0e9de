"""The per-call path of `Rules.score` (issue 15's in-process target): each distinct context's environment
kept by the rule set (runtime/contexts.py), a hand's text read by the native tables (`Tables.parse`, the
Python notation for text with a mistake), and the native result made lazily (its reading and fan lines
built when first read) — each giving exactly what the Python path gives."""
from __future__ import annotations

import json
import random
import sys

import pytest
from conftest import ROOT
from paili import load
from paili.runtime import backend
from paili.runtime.contexts import CONTEXTS_KEPT
from paili.runtime.hand import HandError, build_hand

sys.path.insert(0, str(ROOT / "bench"))
import mcr_crosscheck  # noqa: E402

NOT_BUILT = "the native core is not built here (installed without a Rust toolchain); the Python backend is in use"
needs_native = pytest.mark.skipif(not backend.available(), reason=NOT_BUILT)
GUOBIAO = ROOT / "rules" / "guobiao.pai"
BAIJINDAO = ROOT / "rules" / "baijindao.pai"
BACKENDS = ["python", pytest.param("native", marks=needs_native)]


def answer(r, *args):
    try:
        return json.dumps(r.score(*args).to_json(), ensure_ascii=False)
    except ValueError as exc:
        return f"{type(exc).__name__}: {exc}"


def gb_hands(n: int, seed: int) -> list:
    rnd = random.Random(seed)
    out = []
    while len(out) < n:
        h = mcr_crosscheck.random_hand(rnd)
        if h is not None:
            out.append(mcr_crosscheck.paili_args(h))
    return out


@pytest.mark.parametrize("name", BACKENDS)
def test_a_context_given_again_is_the_same_environment(name):
    r = load(GUOBIAO, backend=name)
    a = r.env_for({"门风": "南", "圈风": "东", "海底": True})
    b = r.env_for({"门风": "南", "圈风": "东", "海底": True})
    assert a is b
    assert a[2]["context:门风"].name == "南"
    # True == 1, but a different value of the setting: its own entry, converted on its own
    c = r.env_for({"门风": "南", "圈风": "东", "海底": 1})
    assert c is not a and c[2]["context:海底"] is True
    # the environment a caller asks for by settings_env is its own to change
    env = r.settings_env({"门风": "南"})
    env["context:门风"] = None
    assert r.env_for({"门风": "南"})[2]["context:门风"].name == "南"


@pytest.mark.parametrize("name", BACKENDS)
def test_a_refused_context_is_refused_every_time_and_an_unusual_one_still_answers(name):
    r = load(GUOBIAO, backend=name)
    hand = "1m2m3m 4m5m6m 7m8m9m 1p2p3p 9s"
    for _ in range(3):
        with pytest.raises(HandError, match="门风"):
            r.score(hand, None, "9s", False, {"门风": "X"})
        with pytest.raises(HandError, match="unknown option or context name 'nope'"):
            r.score(hand, None, "9s", False, {"nope": 1})
    # a value that cannot be a key (a list) is built for the call alone, and refused as before
    with pytest.raises(HandError, match="门风"):
        r.env_for({"门风": ["南"]})
    want = answer(load(GUOBIAO, backend="python"), hand, None, "9s", True, {"门风": "北"})
    assert answer(r, hand, None, "9s", True, {"门风": "北"}) == want


@pytest.mark.parametrize("name", BACKENDS)
def test_the_kept_environments_are_bounded(name):
    r = load(BAIJINDAO, backend=name)
    front = r.contexts.front  # the native core's table in front of `envs` (None on the Python backend)
    assert (front is not None) == (name == "native")
    for k in range(CONTEXTS_KEPT + 5):
        r.env_for({"房间倍率": k})  # an int setting without a range: every k a distinct context
        assert len(r.contexts.envs) <= CONTEXTS_KEPT
        assert front is None or len(front) <= CONTEXTS_KEPT
    assert r.env_for({"房间倍率": CONTEXTS_KEPT + 4}) is r.env_for({"房间倍率": CONTEXTS_KEPT + 4})


class Raising:
    """A context value whose hash or comparison raises (a caller's own object)."""

    def __init__(self, on: str):
        self.on = on

    def __hash__(self):
        if self.on == "hash":
            raise ValueError("no hash")
        return 1

    def __eq__(self, other):
        if self.on == "eq":
            raise ValueError("no comparison")
        return self is other


@pytest.mark.parametrize("name", BACKENDS)
def test_a_context_is_kept_by_its_names_order_types_and_values_as_the_key_compares_them(name):
    """What `context_key` keeps apart stays apart, and what it finds is found, with or without the
    native table in front of it: the names in another order, a value of another type, an equal value
    that is another object, a value whose hash or comparison raises (the same error every time)."""
    r = load(BAIJINDAO, backend=name)
    a = r.env_for({"房间倍率": 2, "庄家": True})
    assert r.env_for({"庄家": True, "房间倍率": 2}) is not a  # another order: another key
    assert r.env_for({"房间倍率": 2, "庄家": 1}) is not a  # True == 1, another type
    assert r.env_for({"房间倍率": 2.0, "庄家": True}) is not a
    assert r.env_for({"房间倍率": int("2"), "庄家": bool(1)}) is a
    assert r.env_for({"房间倍率": 2}) is not a
    ref = load(BAIJINDAO, backend="python")

    def outcome(rules, context):
        try:
            return rules.env_for(context)[2]["context:房间倍率"]
        except Exception as e:  # noqa: BLE001 - the error is the comparison's subject
            return type(e).__name__, str(e).split(" at 0x")[0]

    for on in ["hash", "eq"]:
        for _ in range(2):
            context = {"房间倍率": 2, "庄家": Raising(on)}
            assert outcome(r, context) == outcome(ref, context)


BAD_TEXT = ["1m2x", "5m，6m 7m 1z", "0m", "m1", "1m 2", "东东东东东", "  ", "1m2m3m4m5m6m7m8m9m1m2m3m4m5m6m", "春"]


@pytest.mark.parametrize("text", BAD_TEXT)
@pytest.mark.parametrize("path", [GUOBIAO, BAIJINDAO], ids=lambda p: p.stem)
def test_hand_text_read_natively_gives_the_notations_answer(path, text):
    """Text with a mistake, too many copies, flowers or none: the same tiles or the same sentence on
    both backends, in the hand, a meld and the winning tile."""
    nat, ref = load(path, backend="native" if backend.available() else "python"), load(path, backend="python")
    for args in [(text, None, "9m"), ("1m2m3m 4m5m6m 7m8m9m 东东", [f"碰:{text}"], "东"), ("1m1m", None, text)]:
        assert answer(nat, *args) == answer(ref, *args)


@needs_native
def test_the_native_tables_read_the_tiles_the_notation_reads():
    r = load(GUOBIAO, backend="native")
    cat, dec = r.catalog_for({})
    read = dec.structure.tables.parse
    h = build_hand(r, "1m 2m3m，东 春", ["碰:白白白"], "东", False, cat, read)
    assert [t.notation_code for t in h.concealed] == ["1m", "2m", "3m", "1z"]
    assert [t.name for t in h.flowers] == ["春"]
    assert h == build_hand(r, "1m 2m3m，东 春", ["碰:白白白"], "东", False, cat)
    assert read("1m2x") is None  # a mistake: the Python notation says which


@pytest.mark.parametrize("name", BACKENDS)
def test_a_result_read_late_is_the_result_read_at_once(name):
    """The native result makes its reading and fan lines when first read: a result read after other
    hands were scored (the shared group caches used since) is the one read right away."""
    r = load(GUOBIAO, backend=name)
    hands = gb_hands(60, 11)
    at_once = [answer(r, *a) for a in hands]
    results = [r.score(*a) for a in hands]
    assert [json.dumps(x.to_json(), ensure_ascii=False) for x in results] == at_once
    # the score alone first, then the rest
    res = [r.score(*a) for a in hands]
    assert [x.total for x in res] == [json.loads(a)["total"] for a in at_once]
    assert [json.dumps(x.to_json(), ensure_ascii=False) for x in res] == at_once
    assert [[f.pattern for f in x.fans] for x in res] == [[f["pattern"] for f in json.loads(a)["trace"]["fired"]]
                                                           for a in at_once]


@pytest.mark.parametrize("name", BACKENDS)
def test_melds_given_as_text_are_checked_once_and_answer_the_same_every_time(name):
    """A meld's check is kept by (kind, text, catalog) (runtime/meldshape.py): given again, under another
    context of the same catalog or one the room options change, it answers as the first time —
    refused with the same sentence, or scored as the reference scores it."""
    r, ref = load(GUOBIAO, backend=name), load(GUOBIAO, backend="python")
    hand = "1m2m3m 4p5p6p 7s8s9s 东"
    cases = [(hand, ["碰:白白白"], "东"), (hand, ["碰:白白中"], "东"), (hand, ["吃:1s2s4s"], "东"),
             (hand, ["吃:1s2s3s"], "东"), (hand, ["明杠:2m2m2m2m"], "东")]
    for ctx in (None, {"起和番": 0}, {"圈风": "南", "门风": "西"}):
        for hand_text, melds, win in cases:
            want = answer(ref, hand_text, melds, win, False, ctx)
            for _ in range(2):
                assert answer(r, hand_text, melds, win, False, ctx) == want
    assert "is not a 碰" in answer(r, *cases[1]) and "is not a 吃" in answer(r, *cases[2])
    kept = r.meld_checks.kept
    assert kept and all(type(v) is bool for v in kept.values())
    # the refused ones by their text; a meld the native lane reads (runtime/nativelane.py) is checked by
    # its tiles there (`NativeHands.batch_meld`), so only the Python path keeps the good ones' texts
    good = {("碰", "白白白")} if name == "python" else set()
    assert {k[:2] for k in kept} >= {("碰", "白白中"), ("吃", "1s2s4s")} | good


def test_the_meld_checks_kept_are_bounded(monkeypatch):
    from paili.runtime import meldshape

    monkeypatch.setattr(meldshape, "MELD_CHECKS_KEPT", 3)
    r = load(GUOBIAO, backend="python")
    for text in ["1s2s3s", "2s3s4s", "3s4s5s", "4s5s6s", "1s2s4s"]:
        answer(r, "1m2m3m 4p5p6p 7s8s9s 东", [f"吃:{text}"], "东")
        assert len(r.meld_checks.kept) <= 3
    assert r.meld_checks.kept.get(("吃", "1s2s4s", r.catalog)) is False


@pytest.mark.parametrize("name", BACKENDS)
def test_a_tile_used_too_often_is_named_in_the_hands_order(name):
    """The first tile, in the order hand, melds, flowers, winning tile, of a kind held more often than
    it exists is the one the sentence names, with how many the hand uses."""
    r = load(GUOBIAO, backend=name)
    cases = [(("2m2m2m 3m3m3m3m3m 东东", None, "2m"), "the hand uses 5 of 三万 but only 4 exist"),
             (("2m2m 3m 东东东东东", ["碰:2m2m2m"], "3m"), "the hand uses 5 of 二万 but only 4 exist"),
             (("1m 东", ["碰:白白白", "明杠:白白白白"], "1m"), "the hand uses 7 of 白 but only 4 exist")]
    for args, sentence in cases:
        assert answer(r, *args) == f"HandError: {sentence}"


@pytest.mark.parametrize("name", BACKENDS)
def test_self_drawn_given_as_any_truth_value_is_read_as_the_reference_reads_it(name):
    """`self_drawn=1`, `0`, `None` or any other truth value scores as `True`/`False` would, on either backend
    (the native core takes a bool only: the hand keeps its truth value as a bool)."""
    r = load(BAIJINDAO, backend=name)
    melds = ["碰:222m", "碰:444m"]
    drawn = answer(r, "666m 88m 东东", melds, "8m", True)
    claimed = answer(r, "666m 88m 东东", melds, "8m", False)
    assert drawn != claimed
    for value, same in ((1, drawn), ("yes", drawn), (0, claimed), (None, claimed)):
        assert answer(r, "666m 88m 东东", melds, "8m", value) == same, value
        waits = r.waits("666m 88m 东东", melds, self_drawn=value)
        assert [(t.name, res.score) for t, res in waits] == \
            [(t.name, res.score) for t, res in r.waits("666m 88m 东东", melds, self_drawn=bool(value))]
        assert len(waits) == 2
