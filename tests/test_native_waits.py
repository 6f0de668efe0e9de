"""The wait trials in native code (runtime/native/src/waits/, runtime/nativescore.py): for rule sets
without wildcards or stand-ins, the waits and shape waits a hand's patterns read are found in Rust —
inside the native scoring of the hand, with no call back to Python — and must be the reference's; the
other rule sets leave them to the reference, counted. The big run is bench/native_diff.py --wait-hands
and bench/mcr_crosscheck.py --versus-python."""
from __future__ import annotations

import random
import sys

import pytest
from conftest import ROOT
from paili import load
from paili.runtime import backend
from paili.runtime.hand import HandError
from paili.runtime.hand_score import Scoring

sys.path.insert(0, str(ROOT / "bench"))
import mcr_crosscheck  # noqa: E402
import native_diff  # noqa: E402

NOT_BUILT = "the native core is not built here (installed without a Rust toolchain); the Python backend is in use"
needs_native = pytest.mark.skipif(not backend.available(), reason=NOT_BUILT)

NATURAL = ROOT / "tests" / "rules" / "natural_waits.pai"  # every form kind, no wildcards
# rule sets without wildcards or stand-ins: their waits are found natively
NATIVE_WAITS = {"baijindao.pai", "guobiao.pai", "natural_waits.pai"}
FILES = native_diff.FILES + [NATURAL]


@needs_native
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_waits_are_the_references_on_every_rule_file(path):
    nat = load(path, backend="native")
    ref = load(path, backend="python")
    native = path.name in NATIVE_WAITS
    diffs: list[str] = []
    stats = {"waited": 0}
    # seeded near-winning hands with melds: waits, shape waits, the work they leave, Rules.wait_tiles,
    # Rules.waits (each wait's score JSON) and the score JSON, native against Python
    # (the reference's waits of 扯胡子 hands with wildcards take ~0.1 s each: fewer of them)
    size = 300 if native else 40 if path.name == "chehuzi.pai" else 150
    n = native_diff.compare_waits(path, nat, ref, random.Random(f"waits:{path.name}"), size, diffs, stats, full=native)
    assert diffs == []
    assert stats["waited"] >= n // 20  # the sample holds hands that wait
    st = nat.stats()
    if native:
        assert st["waits"] == "native"
        assert st["native_waits"] >= stats["waited"] and st["native_wait_fallbacks"] == 0
    else:  # wildcards: the reference finds them, each counted
        assert st["waits"] == "python"
        assert st["native_waits"] == 0 and st["native_wait_fallbacks"] >= stats["waited"]
    assert st["native_failures"] == 0 and st["native_score_fallbacks"] == 0


@needs_native
@pytest.mark.parametrize("hand, melds", [
    ("1m 2m 3m 8m 9m 1s 2s 3s 8s 9s 东 南 中 9s", []),  # orphans: any of the thirteen
    ("1m 1m 2m 3m 8m 9m 1s 2s 3s 8s 9s 东 南 中", []),  # orphans: the one missing
    ("1m 3m 5m 7m 9m 2s 4s 6s 8s 东 南 中 1s 3s", []),  # the instant form of distinct tiles
    ("5m 5m 5s 5s 1m 2m 3m 7s 8s 9s 东 东 南 南", []),  # the instant form of `tiles 13`
    ("1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m 5m", []),
    ("2s 3s 4s 5s 5s 东 东 东", ["碰:9m9m9m", "暗杠:1s1s1s1s"]),
    ("1m 1m 2m 2m 3m 3m 5s 5s 7s 7s 中 中 9s 9s", []),  # pairs only, concealed
])
def test_waits_of_every_form_kind_are_the_references(hand, melds):
    nat = load(NATURAL, backend="native")
    ref = load(NATURAL, backend="python")
    for self_drawn in (False, True):
        for ctx in ({}, {"门清": True}):
            rest, win = hand.rsplit(" ", 1)  # the waits of the hand without its last tile, won by it
            a = native_diff.wait_answers(nat, rest, melds, win, ctx, self_drawn)
            assert a == native_diff.wait_answers(ref, rest, melds, win, ctx, self_drawn)
            assert a["waits"], a
    assert nat.stats()["native_waits"] > 0 and nat.stats()["native_wait_fallbacks"] == 0


def guobiao_sample(seed: int, monkeypatch, *asked: str):
    """国标 on the native backend, 150 seeded hands (bench/mcr_crosscheck.py's) and the reference's score
    JSON of each; then the `Scoring` methods named in `asked` fail the test if they are called."""
    nat = load(ROOT / "rules" / "guobiao.pai", backend="native")
    ref = load(ROOT / "rules" / "guobiao.pai", backend="python")
    rnd = random.Random(seed)
    hands = []
    while len(hands) < 150:
        h = mcr_crosscheck.random_hand(rnd)
        if h is not None:
            hands.append(mcr_crosscheck.paili_args(h))
    want = [ref.score(*a).to_json() for a in hands]

    def refused(self, *args, **kwargs):
        raise AssertionError("the waits were asked of the Python side")
    for name in asked:
        monkeypatch.setattr(Scoring, name, refused)
    return nat, hands, want


@needs_native
def test_guobiao_hands_are_scored_without_calling_the_python_waits(monkeypatch):
    nat, hands, want = guobiao_sample(7, monkeypatch, "wait_kinds")  # the Python wait trials
    assert [nat.score(*a).to_json() for a in hands] == want
    st = nat.stats()
    assert st["native_waits"] > 30  # the hands' patterns read their waits (单钓将, 边张, 嵌张, …)
    assert st["native_score_fallbacks"] == 0 and st["native_wait_fallbacks"] == 0


@needs_native
def test_guobiao_hands_in_one_native_call_find_their_waits_there(monkeypatch):
    # src/hand/ asks its waits of the native trials (src/waits/hand.rs): no waits question reaches Python,
    # neither the reference's trials nor the callback into the native ones
    nat, hands, want = guobiao_sample(8, monkeypatch, "wait_kinds", "native_waits")
    assert [nat.score(*a).to_json() for a in hands] == want
    st = nat.stats()
    assert st["native_hands"] == 150 and st["native_hand_fallbacks"] == 0
    assert st["native_waits"] > 30 and st["native_wait_fallbacks"] == 0


@needs_native
@pytest.mark.parametrize("name", ["guobiao", "natural_waits"])
def test_the_work_limit_ends_the_wait_trials_where_the_reference_does(name):
    path = NATURAL if name == "natural_waits" else ROOT / "rules" / f"{name}.pai"
    nat = load(path, backend="native")
    ref = load(path, backend="python")
    hand, win = ("1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 1s 5s 5s", "5s") if name == "natural_waits" else \
        ("1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m", "5m")
    ctx = {"起和番": 0} if name == "guobiao" else {}

    def outcome(r, work):
        try:
            return r.score(hand, [], win, False, ctx, work=[work]).to_json()
        except HandError as exc:
            return str(exc)
    outcomes = [outcome(nat, w) for w in range(0, 1200, 20)]
    assert outcomes == [outcome(ref, w) for w in range(0, 1200, 20)]
    assert isinstance(outcomes[0], str) and isinstance(outcomes[-1], dict)  # refused below the limit, then scored
    assert nat.stats()["native_waits"] > 0


@needs_native
def test_the_native_waits_say_why_they_decline_a_hand():
    r = load(ROOT / "rules" / "guobiao.pai", backend="native")
    cat = r.catalog
    scorer = r.native_counts_for(cat).scorer
    assert scorer.waits_declined == ""
    kinds = {k.name: k.index for k in cat.kinds}
    concealed = tuple(kinds[t] for t in "一万 一万 一万 二万 三万 四万 五万 六万 七万 八万 九万 九万 九万".split())
    settings = tuple(("m",) for _ in scorer.settings)
    got = scorer.scorer.waits(settings, False, (), concealed, (), False, 10 ** 6)
    assert got[0] == list(range(9)) and got[0] == [kinds[n + "万"] for n in "一二三四五六七八九"]  # nine waits
    assert 0 < got[1] < 10 ** 6  # the work they took
    assert scorer.scorer.waits(settings, False, (), concealed, (), False, 10) == "the hand's work limit"
    with pytest.raises(ValueError):
        scorer.scorer.waits(settings, False, (), concealed, (("无此牌组", (0, 0, 0)),), False, 10 ** 6)
    wild = load(ROOT / "bench" / "rules" / "joker.pai", backend="native")
    assert wild.native_counts_for(wild.catalog).scorer.waits_declined == "a rule set with wildcards or stand-ins"


@needs_native
@pytest.mark.parametrize("hand, win", [
    ("1m 4m 7m 2s 5s 8s 3p 6p 9p 东 东 东 中", "中"),  # knitted groups: the requirement deciding the waits read
    ("1m 1m 2m 2m 3m 3m 4m 4m 5m 5m 6m 6m 7m", "7m"),  # the winning kind read by several forms and splits
    ("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 5p 5p", "3p"),  # one wait, read by a run's edge
])
def test_the_winning_kinds_trial_taken_from_the_hands_readings_is_the_references(hand, win):
    # src/waits/ takes the trial of the hand's own winning kind from the readings the scoring found
    # (`Own`): the same waits, the same work charged at every limit, as the reference's trials
    nat = load(ROOT / "rules" / "guobiao.pai", backend="native")
    ref = load(ROOT / "rules" / "guobiao.pai", backend="python")
    ctx = {"起和番": 0}

    def outcome(r, work):
        left = [work]
        try:
            return r.score(hand, [], win, False, ctx, work=left).to_json(), left  # the work left
        except HandError as exc:
            return str(exc), None  # (past the limit the two backends leave different negative counts)
    limits = range(0, 1600, 20)
    got = [outcome(nat, w) for w in limits]
    assert got == [outcome(ref, w) for w in limits]
    assert isinstance(got[0][0], str) and isinstance(got[-1][0], dict) and got[-1][0]["win"]
    fresh = load(ROOT / "rules" / "guobiao.pai", backend="native")
    fresh.score(hand, [], win, False, ctx)
    assert fresh.stats()["native_waits"] == 1 and fresh.stats()["native_wait_fallbacks"] == 0  # asked natively


@needs_native
def test_a_work_list_the_wait_trials_use_up_is_left_as_the_reference_leaves_it():
    """A caller's work list that the wait trials run out: the same refusal, and the same work left in the
    list, as the reference's — the trials a native step asked of the Python side and saw fail are charged
    once, not again when the Python scorer asks them itself (runtime/nativescore.py `AskWaits`,
    runtime/nativecounts.py `counts`). Before, 国标's hand below left 80 or 160 units less natively."""
    nat = load(ROOT / "rules" / "guobiao.pai", backend="native")
    ref = load(ROOT / "rules" / "guobiao.pai", backend="python")
    seen = set()
    for start in range(0, 1040, 40):
        got = {}
        for name, rules in (("native", nat), ("python", ref)):
            work = [start]
            try:
                res = rules.score("1m1m2m2m3m3m4m4m5m5m6m6m7m", win="7m", work=work)
                got[name] = ("scored", res.total, work[0])
            except HandError as exc:
                got[name] = ("refused", str(exc), work[0])
        assert got["native"] == got["python"], start
        seen.add(got["python"][0])
    assert seen == {"refused", "scored"}  # budgets on both sides of what the hand needs
    work = [80]
    with pytest.raises(HandError):
        nat.score("1m1m2m2m3m3m4m4m5m5m6m6m7m", win="7m", work=work)
    assert work == [-80]  # the readings (80) then the first wait trial (80) charged once each
