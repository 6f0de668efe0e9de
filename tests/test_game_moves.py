"""Moves as values: a decision never offers two equal moves, a meld move names its kind when its action
forms several kinds, and a move written without the kind (older logs) still replays."""
from __future__ import annotations

import dataclasses
import json
from collections import Counter

import pytest
from conftest import RULES
from paili.dsl.compiler import compile_text
from paili.runtime.game import Game, IllegalMove, Move
from paili.runtime.game.bots import MixedBot, RandomBot
from paili.runtime.game.log import lines, replay
from paili.runtime.game.session import Session
from paili.runtime.rules import Rules
from test_game import rules


@pytest.mark.parametrize("path", RULES, ids=lambda p: p.stem)
def test_legal_moves_never_holds_two_equal_moves(path):
    """Property over seeded games of every bundled variant: at every decision the legal moves are
    pairwise distinct (equal moves would be one answer standing for two different melds)."""
    r = rules(path.stem)
    decisions = 0
    for seed in range(6):
        g = Game(r, {}, seed)
        bots = [(MixedBot if (seed + i) % 2 else RandomBot)(seed * 7 + i) for i in range(len(g.st.seats))]
        while not g.is_over():
            s = g.current_seats()[0]
            ms = g.legal_moves(s)
            twice = [str(m) for m, k in Counter(ms).items() if k > 1]
            assert twice == [], f"{path.stem} seed {seed}: offered twice: {twice}"
            decisions += 1
            g.apply(s, bots[s].choose(g, s, ms))
        assert g.violations == []
    assert decisions > 100  # the property was checked on real play, not on a few opening moves


def test_a_move_round_trips_through_json_with_its_meld_kind():
    m = Move("吃", ("1小", "2小", "3小"), None, "一二三")
    assert Move.from_json(json.loads(json.dumps(m.to_json()))) == m
    assert m.to_json()["meld"] == "一二三" and str(m) == "吃 1小2小3小 [一二三]"
    assert "meld" not in Move("碰", ("1小",) * 3).to_json()  # single-kind actions write what they always wrote


def test_a_stamped_move_keeps_every_field_and_takes_the_decision():
    """`Move.stamped` names each field (for speed): it must stay what `dataclasses.replace` gives."""
    m = Move("吃", ("1小", "2小", "3小"), 3, "一二三")
    got = m.stamped(7)
    assert got == dataclasses.replace(m, decision=7) and got.decision == 7 and m.decision is None
    assert [getattr(got, f.name) for f in dataclasses.fields(Move)] == \
        [getattr(m, f.name) for f in dataclasses.fields(Move)][:-1] + [7]


def _strip_meld(log: list[dict]) -> list[dict]:
    out = []
    for e in log:
        if e.get("type") == "move":
            e = {**e, "move": {k: v for k, v in e["move"].items() if k != "meld"}}
        out.append(e)
    return out


def test_a_log_written_before_moves_named_their_kind_still_replays():
    """Older logs have no `meld` key: a move without it stands for the one legal move with the same action
    and tiles."""
    r = rules("chehuzi")
    s = Session(r, {"王数": 0}, 3, 2)
    s.play([RandomBot(1), RandomBot(2), RandomBot(3)])
    log = json.loads(json.dumps(lines(s), ensure_ascii=False))
    old = _strip_meld(log)
    assert any("meld" in e["move"] for e in log if e["type"] == "move")  # the sample has named moves
    again = replay(old, r)
    assert [h["result"] for h in again.played] == [h["result"] for h in s.played]


TWO_KINDS = '''
variant twokinds "两种" {}
tiles { suit 万 { code "m"; ranks 1..9; copies 4 } }
table { players 2; hand 4 }
meld 顺 { shape run 3; exposed true }
meld 一二三 { shape ranks [1, 2, 3]; exposed true }
meld 对 { shape same 2; pair true; hand true }
win 和 { melds 2; pairs 1 }
unit 番 sum
pattern 和 { value 1 番; when true }
score = 番
action 吃 { on discard; by next; forms [顺, 一二三]; then discard }
'''


def test_a_move_without_its_kind_is_refused_when_two_kinds_of_equal_value_are_offered():
    """Only the player can tell two kinds of equal value apart: both are offered, each naming its kind,
    and the unnamed move is refused."""
    r = Rules(compile_text(TWO_KINDS, "twokinds.pai").ruleset)
    # seat 0 (the dealer) throws 1m; seat 1 holds 2m 3m: 1m2m3m is a 顺 and an 一二三, neither with a value
    g = Game(r, {}, 1, dealer=0, wall="1m5m6m9m" "2m3m7m8m" "9m")
    g.apply(0, Move("discard", ("1万",)))
    chi = sorted(str(m) for m in g.legal_moves(1) if m.action == "吃")
    assert chi == ["吃 1万2万3万 [一二三]", "吃 1万2万3万 [顺]"]
    with pytest.raises(IllegalMove):
        g.apply(1, Move("吃", ("1万", "2万", "3万")))
    g.apply(1, Move("吃", ("1万", "2万", "3万"), None, "一二三"))
    assert [m.kind for m in g.st.seats[1].melds] == ["一二三"]


def test_of_two_kinds_the_one_the_rules_value_most_is_the_only_move():
    """With a value on one kind, the same tiles are offered once, as that kind."""
    text = TWO_KINDS.replace("shape ranks [1, 2, 3]; exposed true", "shape ranks [1, 2, 3]; exposed true; value 3")
    r = Rules(compile_text(text, "twokinds.pai").ruleset)
    g = Game(r, {}, 1, dealer=0, wall="1m5m6m9m" "2m3m7m8m" "9m")
    g.apply(0, Move("discard", ("1万",)))
    assert [str(m) for m in g.legal_moves(1) if m.action == "吃"] == ["吃 1万2万3万 [一二三]"]
    g.apply(1, Move("吃", ("1万", "2万", "3万")))  # the kind left out: the one legal move of these tiles
    assert [m.kind for m in g.st.seats[1].melds] == ["一二三"]


def test_paili_play_lists_the_meld_kind():
    from paili.runtime.game.play import move_text

    assert move_text(Move("吃", ("1小", "2小", "3小"), None, "一二三")) == "吃 1小2小3小 [一二三]"
