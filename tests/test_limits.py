"""The stated limits (docs/language.md §40, runtime/limits.py): each exceeded limit is refused with its own
diagnostic at the construct (or one sentence for a hand), before any unbounded work; what compiles runs."""
import pytest
from paili.dsl.compiler import compile_text
from paili.runtime import limits as L
from paili.runtime.hand import HandError
from paili.runtime.rules import Rules
from test_diagnostics import BASE

SCORE = "score = 番 * 2 ^ 加倍次数"
WHEN = "when 加倍次数 > 0"
HAND = ("111m 222m 333m 东东东 5m", "5m")  # 碰碰和 (6 番) in BASE


def codes(src: str):
    res = compile_text(src, "case.pai")
    return res, [(d.code, d.span.line) for d in res.diagnostics if d.is_error]


def one_error(src: str, code: str, line: int):
    res, errs = codes(src)
    assert not res.ok
    assert errs and all(c == code for c, _ in errs), errs
    assert errs[0][1] == line, errs
    assert "E900" not in res.render()
    return res


def test_base_compiles_and_scores():
    res, errs = codes(BASE)
    assert res.ok and not errs
    assert Rules(res.ruleset).score(HAND[0], [], HAND[1]).score == 6


def test_rule_file_size():
    res = one_error(BASE + "#" * L.MAX_RULE_FILE_BYTES, "E701", 1)
    assert f"{L.MAX_RULE_FILE_BYTES:,}" in res.render()


@pytest.mark.parametrize("text", ["1" + "0" * 5000, "1" * 31, "0." + "0" * 40 + "1"])
def test_number_literal_digits(text):
    one_error(BASE.replace(SCORE, f"score = 番 * {text}"), "E702", 30)


@pytest.mark.parametrize("digit", ["\U0001d7d8", "\u0663", "\uff11"])  # 𝟘, Arabic-Indic 3, fullwidth 1
def test_a_number_is_written_in_ascii_digits(digit):
    """Other scripts' digits are not digits of the language (Python's int() would read them, the JSON
    format's numbers would not): an unexpected character where they are written."""
    one_error(BASE.replace(SCORE, f"score = 番 * 2{digit}"), "E102", 30)


def test_range_with_a_huge_bound_is_a_diagnostic_not_a_traceback():
    one_error(BASE.replace("range 0..8", "range 1..1" + "0" * 5000), "E702", 12)


def test_constant_exponent_and_power():
    res = one_error(BASE.replace(SCORE, "score = 番 * 2 ^ 1000000000"), "E702", 30)
    assert "30:17" in res.render()  # at the exponent
    one_error(BASE.replace(SCORE, "score = 番 * 10 ^ 200"), "E702", 30)  # 201 digits


@pytest.mark.parametrize("expr", ["0 ^ -1", "番 / 0", "番 // (1 - 1)", "番 % 0"])
def test_constant_division_by_zero(expr):
    one_error(BASE.replace(SCORE, f"score = {expr}"), "E707", 30)


def test_expression_depth_and_a_long_or_chain():
    chain = " or ".join(f"加倍次数 > {i}" for i in range(201))
    one_error(BASE.replace(WHEN, f"when {chain}"), "E703", 27)
    one_error(BASE.replace(SCORE, "score = " + "-" * 3000 + "番"), "E703", 30)
    # 60 terms are within the limit, compile, and run
    chain = " or ".join(f"加倍次数 == {i}" for i in range(1, 61))
    res, errs = codes(BASE.replace(WHEN, f"when {chain}"))
    assert res.ok, errs
    r = Rules(res.ruleset).score(HAND[0], [], HAND[1], context={"加倍次数": 3})
    assert r.score == (6 + 6) * 8


def test_nested_comprehensions_and_blocks():
    nested = "any(t in tiles: " * 25 + "t.rank > 0" + ")" * 25
    one_error(BASE.replace(WHEN, f"when {nested}"), "E703", 27)
    one_error(BASE + "section 深 { " * 40 + "}" * 40 + "\n", "E703", 31 + 1)


def test_expression_size_with_quantities_written_out():
    qs = "quantity q0 = 加倍次数 + 2\n" + "".join(f"quantity q{i} = q{i - 1} * q{i - 1}\n" for i in range(1, 40))
    res = one_error(BASE.replace(SCORE, qs + "score = 番 * q39"), "E704", 30 + 9)
    assert len([d for d in res.diagnostics if d.code == "E704"]) == 1  # the first link over the limit only


def test_work_per_reading_of_nested_comprehensions():
    six = "".join(f"any(t{i} in tiles: " for i in range(6)) + " + ".join(f"t{i}.rank" for i in range(6)) + \
        " == 100" + ")" * 6
    res = one_error(BASE.replace(WHEN, f"when {six}"), "E705", 27)
    assert f"{L.MAX_COMP_WORK:,}" in res.render()
    # two nested comprehensions over the tiles are well within the limit
    two = "any(a in tiles: any(b in tiles: a.rank + b.rank == 18))"
    res, errs = codes(BASE.replace(WHEN, f"when {two}"))
    assert res.ok, errs


def test_copies_ranks_players_and_wildcards():
    res = one_error(BASE.replace("copies 4", "copies 100000000"), "E706", 5)
    assert len(res.diagnostics) == 1  # one error for the suit, not one per rank
    res, errs = codes(BASE.replace("ranks 1..9", "ranks 1..100000000"))  # refused before 10^8 kinds are made
    assert errs[0] == ("E706", 5)  # (the suit is kept with one rank, so its tiles' uses are errors too)
    one_error(BASE.replace("players 2", "players 100000"), "E706", 10)
    wild = BASE.replace('honor 中 { code "7z"; attrs 箭 }', 'honor 中 { code "7z"; attrs 箭 }\n  joker 王 { copies 9 }')
    one_error(wild + "wild 王 { tiles 王 }\n", "E706", 33)
    res, errs = codes(wild.replace("copies 9 }", "copies 8 }") + "wild 王 { tiles 王 }\n")
    assert res.ok, errs


@pytest.mark.parametrize("score, value", [
    ("番 * 2 ^ (加倍次数 * 100)", None),            # 2^800 at 加倍次数 8: past 100 digits, the reading is rejected
    ("番 * 2 ^ (加倍次数 * 10)", (6 + 2 * 8) * 2 ** 80),  # 碰碰和 6 + 加倍 2×8
])
def test_power_at_run_time_is_bounded(score, value):
    res, errs = codes(BASE.replace(SCORE, f"score = {score}"))
    assert res.ok, errs
    r = Rules(res.ruleset).score(HAND[0], [], HAND[1], context={"加倍次数": 8})
    if value is None:
        assert not r.win and any("digits" in x for x in r.rejected)
    else:
        assert r.win and r.score == value


def test_chained_products_cannot_grow_without_bound():
    qs = "quantity q0 = 加倍次数 + 10\n" + "".join(f"quantity q{i} = q{i - 1} * q{i - 1}\n" for i in range(1, 9))
    res, errs = codes(BASE.replace(SCORE, qs + "score = 番 * q8"))
    assert res.ok, errs
    r = Rules(res.ruleset).score(HAND[0], [], HAND[1])  # 10^256: past the 100-digit limit
    assert not r.win and any("digits" in x for x in r.rejected)


def test_hand_text_and_size_limits():
    rules = Rules(compile_text(BASE, "case.pai").ruleset)
    with pytest.raises(HandError, match="characters long"):
        rules.score("1m" * 50_000_000, [], "5m")
    with pytest.raises(HandError, match="melds given"):
        rules.score("5m", ["碰:111m"] * 40, "5m")
    with pytest.raises(HandError, match="must be text"):
        rules.score(["1m"], [], "5m")


@pytest.mark.parametrize("score", [
    "番 + floor(if self_drawn then 1 else none)",
    "番 + len(if self_drawn then tiles else none)",
    "番 + sum(t in tiles: if t.honor then none else 1)",
    "番 + max(t in tiles: if t.honor then none else 1)",
    "番 + count(t in tiles: t in (if self_drawn then tiles else none))",
    "番 * (加倍次数 - 3) ^ (0 - 1)",
    "番 % (加倍次数 - 3)",
])
def test_none_and_zero_at_run_time_reject_the_reading(score):
    """What compiles runs: a value the operation cannot use rejects the reading (§32.1), never a traceback."""
    res, errs = codes(BASE.replace(SCORE, f"score = {score}"))
    assert res.ok, errs
    rules = Rules(res.ruleset)
    r = rules.score(HAND[0], [], HAND[1], False, {"加倍次数": 3})
    assert not r.win and r.rejected and "\n" not in r.reason


def test_labels_count_past_99_in_digits():
    res, errs = codes(BASE.replace('label "加倍{cn(加倍次数)}次"', 'label "加倍{cn(加倍次数 * 100)}次"'))
    assert res.ok, errs
    r = Rules(res.ruleset).score(HAND[0], [], HAND[1], context={"加倍次数": 3})
    assert "加倍300次" in {f.name for f in r.fans}


def test_copies_from_an_expression_are_set_up_under_the_default_options():
    one_error(BASE.replace("copies 4", "copies = if 清一色 then 4 else 100000"), "E706", 4)


@pytest.mark.parametrize("wild_copies, held", [("if 清一色 then 1 else 9", 9), ("if 清一色 then 9 else 1", 1)])
def test_wildcards_counted_with_copies_from_an_expression(wild_copies, held):
    # The checker counts the wildcards with the copies the default options give, as `Rules` does when it
    # sets the tiles up: a file the checker accepts loads (it once passed with the copies unknown, then failed).
    from paili.runtime.rules import Rules

    wild = BASE.replace('honor 中 { code "7z"; attrs 箭 }',
                        f'honor 中 {{ code "7z"; attrs 箭 }}\n  joker 王 {{ copies = {wild_copies} }}')
    src = wild + "wild 王 { tiles 王 }\n"
    if held > 8:
        res = one_error(src, "E706", 33)
        assert f"a hand could hold {held} wildcards; the limit is 8" in res.diagnostics[0].message
    else:
        res, errs = codes(src)
        assert res.ok, errs
        assert Rules(res.ruleset).max_wilds(Rules(res.ruleset).catalog) == held


@pytest.mark.parametrize("change", [("players 2", "players 200"), ("hand 13", "hand 40"), ("copies 4", "copies 0")])
def test_a_game_whose_wall_cannot_deal_is_refused_in_one_sentence(change):
    from paili.runtime.game import Game, GameError

    res, errs = codes(BASE.replace(*change))
    assert res.ok, errs
    with pytest.raises(GameError, match="the wall has .* tiles and the deal needs"):
        Game(Rules(res.ruleset), seed=1)


def test_ir_expressions_are_checked_without_recursion():
    """A rule set's expressions as held in the IR (what a JSON loader rebuilds) are checked by an explicit
    stack: a tree far deeper than Python's recursion limit is reported, not a RecursionError."""
    import dataclasses

    from paili.runtime.ir import expr as E
    from paili.runtime.ir.limitcheck import check_expressions
    from paili.runtime.ir.passes import Findings

    rs = compile_text(BASE, "case.pai").ruleset
    deep = E.Num("1")
    for _ in range(50_000):
        deep = E.Unary("-", deep)
    bad = dataclasses.replace(rs, patterns=(dataclasses.replace(rs.patterns[0], when=deep),) + rs.patterns[1:])
    diags = Findings()
    assert check_expressions(rs, diags) and not diags.items
    assert not check_expressions(bad, diags)
    assert [d.code for d in diags.items] == ["E703"]


@pytest.mark.parametrize("value, count, score", [
    ("10 ^ 60", "10 ^ 20", None),   # (10^60)^(10^20): refused before it is computed
    ("10 ^ 60", "2", None),         # 10^120: past 100 digits
    ("1", "10 ^ 20", 6),            # 1 to any power is 1: 碰碰和 6 × 1
    ("3", "2", 6 * 9),
])
def test_a_product_unit_is_bounded(value, count, score):
    src = BASE.replace(SCORE, "") + f"unit 倍 product\npattern X {{ value = {value}; unit 倍; count = {count} }}\n" \
        "score = 番 * 倍\n"
    res, errs = codes(src.replace("set 加倍次数 = 3; expect score 96", "set 加倍次数 = 0"))
    assert res.ok, errs
    r = Rules(res.ruleset).score(HAND[0], [], HAND[1])
    if score is None:
        assert not r.win and r.rejected
    else:
        assert r.win and r.score == score


def test_a_diagnostic_on_a_long_line_shows_a_window_of_it():
    """Rendering costs the same for any line length: a long line is shown around the column."""
    from paili.dsl.diagnostics import SHOWN_LINE, Diagnostic
    from paili.runtime.ir.span import Span

    line = "a" * 500_000 + "错" + "b" * 500_000
    text = Diagnostic("E101", "unexpected", Span("f.pai", 1, 500_001, 1, 500_002)).render([line])
    shown, caret = text.splitlines()[1:3]
    assert len(shown) < SHOWN_LINE + 20 and "错" in shown
    assert caret.index("^") == shown.index("错")  # under the character, in the window
    assert caret.count("^") == 2


def test_a_rule_file_over_the_limit_is_refused_before_it_is_read(tmp_path):
    from paili.dsl.compiler import compile_file

    f = tmp_path / "big.pai"
    f.write_text(BASE + "#" * L.MAX_RULE_FILE_BYTES, encoding="utf-8")
    res = compile_file(f)
    assert not res.ok and [d.code for d in res.diagnostics] == ["E701"] and res.source == ""


@pytest.mark.parametrize("expr", ["10 ^ 99 * 10 ^ 99", "番 + 10 ^ 60 * 10 ^ 60"])
def test_a_constant_past_100_digits_is_refused(expr):
    one_error(BASE.replace(SCORE, f"score = {expr}"), "E702", 30)


def test_a_winning_form_counts_through_a_bounded_range_of_pairs():
    """Found by bench/fuzz_rules.py: `pairs 0..10^29` compiled and the runtime counted through it."""
    res = one_error(BASE.replace("win 标准 { melds 4; pairs 1 }", "win 标准 { melds 4; pairs 0..100000000000 }"),
                    "E402", 18)
    assert "0..20" in res.render()
