"""Warning W601 (a pattern can never match): the search in dsl/reach_search.py proves what the syntactic
rules in dsl/reach.py cannot, and stays silent whenever a hand could match."""
from conftest import RULES
from paili.dsl import reach_model, reach_plan, reach_search
from paili.dsl.compiler import compile_file, compile_text

BASE = '''
variant reachtest "可达测试" {}
tiles {
  suit 万 { code "m"; ranks 1..9; copies 4 }
  honor 东 { code "1z"; copies 4 }
  honor 中 { code "7z"; copies 4 }
EXTRA_TILES
}
table { players 2; hand 13 }
EXTRA_TOP
meld 顺子 { shape run 3; hand true }
meld 刻子 { shape same 3; hand true }
meld 将 { shape same 2; pair true; hand true }
meld 吃 { shape run 3; exposed true }
meld 碰 { shape same 3; exposed true }
EXTRA_MELDS
win 标准 { melds 4; pairs 1 }
unit 番 sum
PATTERNS
score = 番
'''

# Four runs 123 use every copy of 一万: a pair of 一万 is impossible, a pair of 九万 is not.
ONE_PAIR = "len(runs) == 4 and all(m in runs: m.rank == 1) and pair != none and pair.rank == 1"
NINE_PAIR = "len(runs) == 4 and all(m in runs: m.rank == 1) and pair != none and pair.rank == 9"


def source(patterns: dict[str, str], tiles="", top="", melds="") -> str:
    body = "\n".join(f"pattern {name} {{ value 1 番; when {cond} }}" for name, cond in patterns.items())
    return (BASE.replace("EXTRA_TILES", tiles).replace("EXTRA_TOP", top).replace("EXTRA_MELDS", melds)
            .replace("PATTERNS", body))


def w601(src: str) -> dict[str, str]:
    res = compile_text(src, "reachtest.pai")
    assert res.ok, res.render()
    return {d.message.split("`")[1]: d.message for d in res.diagnostics if d.code == "W601"}


def witness_found(src: str, name: str) -> bool:
    """The search ran within its bounds and found a hand (so its silence is not a give-up)."""
    rs = compile_text(src, "reachtest.pai").ruleset
    world = reach_model.World(rs)
    plan = reach_plan.make_plan(world, rs.pattern(name))
    assert plan is not None and plan.estimate <= reach_model.MAX_ESTIMATE
    return reach_search.Search(world, plan, float("inf")).run() is False


def test_search_proves_a_pattern_the_syntactic_rules_cannot():
    src = source({"一龙一将": ONE_PAIR})
    found = w601(src)
    assert set(found) == {"一龙一将"}
    assert "no winning hand built from the declared tiles satisfies it" in found["一龙一将"]


def test_reachable_pattern_stays_silent():
    src = source({"一龙一将": ONE_PAIR, "一龙九将": NINE_PAIR})
    assert set(w601(src)) == {"一龙一将"}
    assert witness_found(src, "一龙九将")


def test_pattern_depending_on_a_context_flag_stays_silent():
    # impossible under the default (false), possible when the flag is set
    cond = ("len(runs) == 4 and all(m in runs: m.rank == 1) and pair != none "
            "and pair.rank == (if 标志 then 9 else 1)")
    src = source({"看情况": cond}, top="context 标志 bool = false")
    assert w601(src) == {}
    assert witness_found(src, "看情况")


def test_pattern_depending_on_the_winning_tile_stays_silent():
    src = source({"自摸九将": f"self_drawn and win_group != none and win_group.pair and {NINE_PAIR}"})
    assert w601(src) == {}
    assert witness_found(src, "自摸九将")


def test_rule_set_with_wildcards_stays_silent():
    # with a wildcard the pair of 一万 is possible (it stands in for the fifth copy)
    src = source({"一龙一将": ONE_PAIR}, tiles='  joker 王 { copies 4 }', top="wild 王 { tiles 王 }")
    assert w601(src) == {}


def test_shown_kongs_are_part_of_the_search():
    # fifteen tiles need a four-tile group: impossible without kongs, possible with one
    cond = ("len(runs) == 3 and len(pairs) == 1 and pair.tile.honor and all(m in melds: m.rank >= 7 or m.tile.honor)"
            " and len(tiles) == 15")
    assert set(w601(source({"十五张": cond}))) == {"十五张"}
    kong = "meld 明杠 { shape same 4; exposed true; kong true }"
    src = source({"十五张": cond}, melds=kong)
    assert w601(src) == {}
    assert witness_found(src, "十五张")


def test_bundled_rules_warn_exactly_the_impossible_patterns():
    found = {}
    for path in RULES:
        res = compile_file(path)
        found[path.stem] = {d.message.split("`")[1] for d in res.diagnostics if d.code == "W601"}
    assert found.pop("baijindao") == {"全大", "全中", "全小", "双同刻", "全带五", "全双刻", "双色双龙会"}
    assert all(not names for names in found.values()), found
