"""How long a state lives (`state … { lives hand|session }`, docs/language.md §23): the builder's default,
the checker's word list, the engine at each hand's start, the session, and the page."""
from __future__ import annotations

from conftest import ROOT
from paili.dsl.compiler import compile_text
from paili.runtime.game import Game
from paili.runtime.game.bots import GreedyBot
from paili.runtime.game.session import Session
from paili.runtime.rules import Rules
from test_game import rules

LONGYAN = (ROOT / "rules" / "longyan.pai").read_text(encoding="utf-8")


def _variant(old: str, new: str) -> Rules:
    assert LONGYAN.count(old) == 1
    res = compile_text(LONGYAN.replace(old, new), "longyan-variant.pai")
    assert res.ok, res.render()
    return Rules(res.ruleset)


def test_the_default_is_one_hand_for_player_and_table_states():
    rs = rules("longyan").ir
    assert {s.lives for s in rs.states} == {"hand"}
    lives = {s.name: s.lives for s in rules("guobiao").ir.states}
    assert lives == {"杠后": "hand", "局数": "session"}


def test_an_unknown_lifetime_is_reported_with_its_place():
    text = LONGYAN.replace('state player 过胡 bool = false {', 'state player 过胡 bool = false { lives forever;')
    res = compile_text(text, "x.pai")
    assert not res.ok
    [d] = [d for d in res.diagnostics if d.code == "E204"]
    assert "hand, session" in d.message and d.span.line == text[:text.index("lives forever")].count("\n") + 1


def test_a_session_state_is_carried_and_a_hand_state_is_not():
    """guobiao counts the hands played in a table state that lives for the session (圈风 depends on it)."""
    s = Session(rules("guobiao"), {}, seed=3, hands=3)
    seen = []
    while (g := s.new_hand()) is not None:
        seen.append(g.st.table["局数"])
        from paili.runtime.game.bots import play

        play(g, [GreedyBot(i) for i in range(4)])
        s.finish(g)
    assert seen == [0, 1, 2]


def test_carried_values_reach_only_states_that_live_for_the_session():
    r = rules("longyan")
    g = Game(r, {}, 5, table={"分饼": False, "金限制": {"seat": 1}}, players=[{"过胡": True}] * 4)
    assert g.st.table["分饼"] is True and g.st.table["金限制"] is None
    assert not any(s.vars["过胡"] for s in g.st.seats)
    # the same file with 分饼 and 过胡 declared to live for the session takes the carried values
    r2 = _variant('state player 过胡 bool = false {', 'state player 过胡 bool = false { lives session;')
    g2 = Game(r2, {}, 5, players=[{"过胡": True}, {}, {"过胡": False}, {"过胡": True}])
    assert [s.vars["过胡"] for s in g2.st.seats] == [True, False, False, True]
    assert g2.player_values() == [{"过胡": True}, {"过胡": False}, {"过胡": False}, {"过胡": True}]
    assert g.table_values() == {}


def test_the_page_says_how_long_each_state_lives():
    """The committed pages are current (`paili docs --check`); each documented state says its lifetime (on
    the designer's appendix: what a game remembers is not a rule the player reads)."""
    def facts_before(page: str, doc: str) -> str:  # a state's facts come just before its text
        text = (ROOT / "generated_docs" / page).read_text(encoding="utf-8")
        i = text.index(doc)
        return text[text.rindex("####", 0, i):i]

    assert "只管本局：每局开始时恢复初始值" in facts_before("longyan-design.md", "分饼仍在进行")
    assert "整场保留：带到下一局" in facts_before("guobiao-design.md", "已经打完的局数")


def test_visible_is_for_player_states_only():
    head = LONGYAN
    res = compile_text(head + "state table 公开 int = 0 { visible true }\n", "longyan-variant.pai")
    errors = [d for d in res.diagnostics if d.is_error]
    assert [(d.code, d.span.line) for d in errors] == [("E204", head.count("\n") + 1)]
    assert "player states" in errors[0].message
