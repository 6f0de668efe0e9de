"""Property tests (hypothesis) of hand evaluation."""
import random
from functools import cache

from conftest import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paili import Rules, load
from paili.dsl.compiler import compile_text

JOKER_RULES = '''
variant jokertest "王牌测试" {}
tiles {
  suit 万 { code "m"; ranks 1..9; copies 4 }
  suit 条 { code "s"; ranks 1..9; copies 4 }
  honor 东 { code "1z" }
  honor 中 { code "7z" }
  joker 王 { copies 4 }
}
table { players 2; hand 13 }
wild 王 { tiles 王 }
meld 顺子 { shape run 3; hand true }
meld 刻子 { shape same 3; hand true }
meld 将 { shape same 2; pair true; hand true }
win 标准 { melds 4; pairs 1 }
unit 番 sum
pattern 和 { value 1 番; when true }
score = 番
'''


@cache
def baijindao():
    return load(ROOT / "rules" / "baijindao.pai")


@cache
def joker_rules():
    res = compile_text(JOKER_RULES, "jokertest.pai")
    assert res.ok, res.render()
    return Rules(res.ruleset)


def winning_hand(rules, rnd: random.Random) -> list[str]:
    """A random standard winning hand (4 groups + a pair) as tile names, respecting copies."""
    kinds = [k for k in rules.catalog.kinds if k.category in ("suited", "honor")]
    left = {k.name: k.copies for k in kinds}
    by_suit = {}
    for k in kinds:
        if k.suit:
            by_suit.setdefault(k.suit, {})[k.rank] = k.name
    tiles = []
    while len(tiles) < 12:
        if rnd.random() < 0.5 and by_suit:
            suit = rnd.choice(sorted(by_suit))
            ranks = by_suit[suit]
            start = rnd.choice([r for r in ranks if r + 2 in ranks])
            group = [ranks[start], ranks[start + 1], ranks[start + 2]]
        else:
            group = [rnd.choice(kinds).name] * 3
        if all(left[t] >= group.count(t) for t in group):
            for t in group:
                left[t] -= 1
            tiles += group
    pair = rnd.choice([k for k, n in left.items() if n >= 2])
    return tiles + [pair, pair]


def text_of(rules, names):
    # write each tile by its code or character; the notation accepts either
    by = rules.catalog.by_name
    return " ".join(by[n].code or by[n].char for n in names)


SEEDS = st.integers(min_value=0, max_value=10**9)
SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(SEEDS)
def test_score_does_not_depend_on_tile_order(seed):
    rules = baijindao()
    rnd = random.Random(seed)
    names = winning_hand(rules, rnd)
    win = names.pop(rnd.randrange(len(names)))
    a = rules.score(text_of(rules, names), None, text_of(rules, [win]))
    shuffled = names[:]
    rnd.shuffle(shuffled)
    b = rules.score(text_of(rules, shuffled), None, text_of(rules, [win]))
    assert a.win and b.win
    assert a.to_json() == b.to_json()


@SETTINGS
@given(SEEDS)
def test_winning_hand_minus_a_tile_waits_on_it(seed):
    rules = baijindao()
    rnd = random.Random(seed)
    names = winning_hand(rules, rnd)
    removed = names.pop(rnd.randrange(len(names)))
    waits = {k.name for k in rules.wait_tiles(text_of(rules, names))}
    assert removed in waits


@SETTINGS
@given(SEEDS)
def test_a_joker_in_place_of_any_tile_keeps_the_win(seed):
    rules = joker_rules()
    rnd = random.Random(seed)
    names = winning_hand(rules, rnd)
    win = names.pop()
    assert rules.score(text_of(rules, names), None, text_of(rules, [win])).win
    i = rnd.randrange(len(names))
    with_joker = names[:i] + ["王"] + names[i + 1:]
    res = rules.score(text_of(rules, with_joker), None, text_of(rules, [win]))
    assert res.win, (names, i)


def test_joker_property_is_not_vacuous():
    """A hand that does not win stays a non-win with a joker that cannot help it twice over."""
    rules = joker_rules()
    res = rules.score("1m 4m 7m 1s 4s 7s 东 中 2m 5m 8m 2s 5s", None, "王")
    assert not res.win


PREFILTER_RULES = JOKER_RULES.replace("wild 王 { tiles 王 }\n", "").replace(
    "pattern 和 { value 1 番; when true }", """
pattern 四刻 { value 2 番; when count(m in melds: m.triplet) == 4 }
pattern 无刻 { value 3 番; when count(m in triplets: m.tile.rank > 0) >= 0 and not any(m in triplets: true) }
pattern 双顺 { value 5 番; count = count(a, b in runs: a.suit == b.suit) }
pattern 总有 { value 7 番; when count(a, b in runs: true) >= 0 }
pattern 全万 { value 11 番; when all(t in tiles: t.suit == 万) }
pattern 七组 { value 13 番; when len(groups) == 5 and len(pairs) <= 1 }""")


@cache
def prefilter_rules():
    res = compile_text(PREFILTER_RULES, "prefilter.pai")
    assert res.ok, res.render()
    return Rules(res.ruleset)


@SETTINGS
@given(SEEDS)
def test_prefilter_never_changes_a_result(seed):
    """Scoring with the exact prefilter equals scoring with it switched off."""
    rules = prefilter_rules()
    rnd = random.Random(seed)
    names = winning_hand(rules, rnd)
    win = names.pop()
    hand, w = text_of(rules, names), text_of(rules, [win])
    with_filter = rules.score(hand, None, w).to_json()
    tests = rules.patterns.prefilter.tests
    saved = dict(tests)
    tests.clear()
    try:
        without = rules.score(hand, None, w).to_json()
    finally:
        tests.update(saved)
    assert with_filter == without
    assert saved  # the rule set really exercises the prefilter
