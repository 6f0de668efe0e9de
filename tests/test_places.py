"""The checker refuses what the engine would not do (issue 14, point 8; docs/language.md §38, codes E510 and
E511): a game rule that reads the winning reading or the score at an event where no hand is won, a payment
that can never see a score, an effect on something that cannot change."""
from __future__ import annotations

import json
import re

import pytest
from paili.dsl import cli
from paili.dsl.compiler import compile_text
from paili.runtime.ir.serialize import FormatError, dumps, loads

HEAD = """variant 处 "处" { doc "测试用" }
tiles { suit 万 { code "m"; ranks 1..9 } }
table { players 2; hand 4 }
option 底 int = 1
context 加倍 int = 0
state player 记 int = 0
phase 听中 { scope player; enter discard = actor.记 > 0 }
meld 顺子 { shape run 3; hand true }
meld 将 { shape same 2; pair true; hand true }
meld 碰 { shape same 3; exposed true }
win 平和 { melds 1; pairs 1 }
unit 分 sum
pattern 和 { value 1 分; when true }
quantity 顺数 = len(runs)
score = 分
action 自摸 { on draw; by self; wins true; win_tile drawn; when score > 0 and 顺数 >= 0 }
action 碰 { on discard; by others; forms 碰; then discard }
action 加注 { on win_offer; by any; instead_of 自摸 }
"""
LINE0 = HEAD.count("\n")


def _errors(body: str) -> list[tuple[str, int, int]]:
    res = compile_text(HEAD + body, "处.pai")
    return [(d.code, d.span.line - LINE0, d.span.col) for d in res.diagnostics if d.is_error]


def test_the_head_compiles_and_reads_the_win_where_it_exists():
    assert _errors("") == []
    # after the win: on `win`, `hand_end`, `settled` and the decisions `hand_end` opens
    assert _errors("""payment 胡 { on win; amount = score * 底; when 顺数 > 0 }
on hand_end { when won and form == 平和; set winner.记 = floor(score) }
action 翻倍 { on hand_end; by winner; when score > 1 and 和 > 0 }
payment 翻 { on 翻倍; amount = score }
on 自摸 { when 顺数 > 0; set actor.记 = 1 }
""") == []


@pytest.mark.parametrize("body, name", [
    ("payment 甲 { on discard; from each_other; to actor; amount = score }\n", "score"),
    ("on discard { when 顺数 > 0; set actor.记 = 1 }\n", "顺数"),
    ("on draw { when form == 平和; set actor.记 = 1 }\n", "form"),
    ("action 吃 { on discard; by next; when len(melds) > 0 }\n", "melds"),
    ("phase 好 { scope player; enter discard = 和 > 0 }\n", "和 >"),
    ("payment 乙 { on exhaust; amount = score }\n", "score"),
])
def test_a_read_of_the_win_where_none_is_won_is_an_error_at_its_place(body, name):
    assert _errors(body) == [("E510", 1, body.index(name) + 1)]


def test_a_payment_on_a_decision_instead_of_winning_can_never_see_a_score():
    """The issue's case: a payment on an `instead_of` action (taken instead of winning) or on the winning
    action's own event (before the win is scored) has no score; `score` there was silently 0."""
    res = compile_text(HEAD + "payment 丙 { on 加注; amount = 2 * score }\n", "处.pai")
    [d] = [d for d in res.diagnostics if d.is_error]
    assert d.code == "E510" and "can never see a score" in d.message
    body = "payment 丁 { on 自摸; amount = score }\n"
    assert _errors(body) == [("E510", 1, body.index("score") + 1)]
    body = "action 胡 { on discard; by others; wins true; win_tile claimed; effect { set actor.记 = floor(score) } }\n"
    assert _errors(body) == [("E510", 1, body.index("score") + 1)]


@pytest.mark.parametrize("body, what", [
    ("on discard { set 底 = 2 }\n", "room option"),
    ("on discard { remove actor.hand = tile }\n", "kept by the engine"),
    ("on discard { set actor.听中 = true }\n", "is a phase"),
    ("on discard { set payer.记 = 1 }\n", "no payer"),
    ("on discard { set winner.记 = 1 }\n", "no winner"),
    ("action 吃 { on discard; by next; decline { set winner.记 = 1 } }\n", "no winner"),
])
def test_an_effect_on_something_that_cannot_change_is_an_error(body, what):
    res = compile_text(HEAD + body, "处.pai")
    errors = [d for d in res.diagnostics if d.is_error]
    assert [(d.code, d.span.line - LINE0) for d in errors] == [("E511", 1)]
    assert what in errors[0].message


def test_the_new_codes_are_explained(capsys):
    for code in ("E510", "E511"):
        assert cli.main(["explain", code]) == 0
        out = capsys.readouterr().out
        assert out.startswith(code) and "Example" in out


# ---------------------------------------------------------------------------- the same checks on load

def _compiled(body: str) -> dict:
    res = compile_text(HEAD + body, "处.pai")
    assert res.ok, res.render()
    doc = json.loads(dumps(res.ruleset))
    loads(json.dumps(doc, ensure_ascii=False))  # as compiled, the file loads
    return doc


def _refused(doc: dict) -> str:
    with pytest.raises(FormatError) as exc:
        loads(json.dumps(doc, ensure_ascii=False))
    text = str(exc.value)
    assert "\n" not in text
    return text


def test_a_compiled_rule_set_edited_to_read_the_win_where_none_is_won_is_refused_on_load():
    """A compiled JSON rule set is checked as the compiler checks a rule file (issue 12): a payment moved
    to `exhaust` that reads the score, a hook moved to `discard` that reads a quantity, an effect on the
    winner where there is none — each refused with one sentence naming the node's JSON path."""
    doc = _compiled("payment 胡 { on win; amount = score * 底 }\n")
    doc["ruleset"]["payments"][0]["on"] = "exhaust"
    assert re.fullmatch(r"ruleset\.payments\[0\]\.amount\.left: payment `胡` on `exhaust` can never see a score"
                        r".* \(E510\)", _refused(doc))
    doc = _compiled("on win { when 顺数 > 0; set actor.记 = 1 }\n")
    [hook] = doc["ruleset"]["hooks"]
    hook["event"] = "discard"
    assert re.fullmatch(r"ruleset\.hooks\[0\]\.when\.operands\[0\]: `on discard` reads `顺数`, which is a value "
                        r"of the winning hand, but no hand is won there \(E510\)", _refused(doc))
    doc = _compiled("on hand_end { when won; set winner.记 = 1 }\n")
    doc["ruleset"]["hooks"][0]["event"] = "discard"
    assert re.fullmatch(r"ruleset\.hooks\[0\]\.effects\[0\]: `winner\.记`: there is no winner at `on discard` "
                        r"\(E511\)", _refused(doc))


@pytest.mark.parametrize("body, name, what", [
    ("on hand_end { give = ['5m'] { to = dealer } }\n", "give", "there is no actor"),
    ("on draw { give = actor.discards { to = next(actor) } }\n", "actor.discards", "may not hold"),
    ("action 留 { on deal; by any; choices ['12m']; effect { give = choice { to = next(actor) } } }\n", "choice {",
     "may not hold"),
])
def test_a_give_the_engine_could_not_make_is_an_error_at_its_place(body, name, what):
    """`give` moves tiles out of the actor's concealed hand (docs/language.md §27): where there is no
    actor, or of tiles the actor may not hold, the engine would move nothing; the checker says so."""
    res = compile_text(HEAD + body, "处.pai")
    errors = [d for d in res.diagnostics if d.is_error]
    assert [(d.code, d.span.line - LINE0, d.span.col) for d in errors] == [("E511", 1, body.index(name) + 1)]
    assert what in errors[0].message


def test_a_give_of_the_chosen_tiles_or_of_tiles_of_the_hand_compiles():
    assert _errors("action 交 { on deal; by any; select 1; effect { give = choice { to = next(actor) } } }\n"
                   "on draw { give = filter(t in actor.hand: t.rank == 9) { to = next(actor) } }\n"
                   "on discard { give = actor.hand { to = next(actor) } }\n") == []


def test_a_compiled_give_edited_to_tiles_the_actor_may_not_hold_is_refused_on_load():
    doc = _compiled("on draw { give = actor.hand { to = next(actor) } }\n")
    [hook] = doc["ruleset"]["hooks"]
    hook["effects"][0]["value"]["name"] = "discards"
    assert re.fullmatch(r"ruleset\.hooks\[0\]\.effects\[0\]\.value: `give` at `on draw` moves tiles the actor "
                        r"may not hold.* \(E511\)", _refused(doc))
