"""Moves, seats and logs from clients are data (issue 12, points 2 and 3).

Seats are ints of the game, moves are typed, every offered move carries the decision it answers so a
stale one is refused, and nothing is half-applied (docs/engine.md, "API"). Replay fails closed: the
rules come from the caller or the bundled file of the log's stem, every line's shape, the number of
hands and every result are checked, and any difference is one sentence naming the line.
"""
from __future__ import annotations

import json
import sys
from fractions import Fraction

import pytest
from conftest import ROOT
from paili import load
from paili.runtime.game.bots import RandomBot
from paili.runtime.game.flow import Game, GameError, IllegalMove
from paili.runtime.game.log import ReplayError, lines, replay
from paili.runtime.game.moves import Move
from paili.runtime.game.session import Session

sys.path.insert(0, str(ROOT / "bench"))


@pytest.fixture(scope="module")
def baicheng():
    return load(ROOT / "rules" / "baicheng.pai")


@pytest.fixture(scope="module")
def logged(baicheng):
    s = Session(baicheng, {}, seed=3, hands=2)
    s.play([RandomBot(i) for i in range(4)])
    return json.loads(json.dumps(lines(s, "baicheng"), ensure_ascii=False))


def _refused(g: Game, seat, move, match: str) -> str:
    before = (g.snapshot(), g.decision, len(g.moves))
    with pytest.raises(IllegalMove, match=match) as got:
        g.apply(seat, move)
    assert (g.snapshot(), g.decision, len(g.moves)) == before  # nothing half-applied
    return str(got.value)


# ------------------------------------------------------------------ point 3: typed seats and moves

def test_a_float_or_bool_seat_is_refused_and_the_game_goes_on(baicheng):
    g = Game(baicheng, {}, 5)
    seat = g.current_seats()[0]
    move = g.legal_moves(seat)[0]
    _refused(g, float(seat), move, "a seat is a whole number")
    _refused(g, bool(seat), move, "a seat is a whole number")
    _refused(g, -1, move, "seat -1 is not a seat of this game")
    _refused(g, g.n, move, f"seat {g.n} is not a seat of this game")
    msg = _refused(g, 10 ** 5000, move, "a very large number")
    assert len(msg) < 100
    g.apply(seat, move)  # the game was not bricked: the real move applies
    assert g.decision >= 2


def test_observation_and_legal_moves_refuse_a_seat_that_is_not_one(baicheng):
    g = Game(baicheng, {}, 5)
    with pytest.raises(IllegalMove):
        g.observation(-1)  # not the last seat's concealed hand
    with pytest.raises(IllegalMove):
        g.observation(1.0)
    with pytest.raises(IllegalMove):
        g.legal_moves("0")
    assert g.observation(0)["decision"] == g.decision == 1


def test_moves_of_the_wrong_type_are_refused_with_a_short_sentence(baicheng):
    g = Game(baicheng, {}, 5)
    seat = g.current_seats()[0]
    mv = g.legal_moves(seat)[0]
    huge = "炸" * 100_000
    cases = [
        (Move(3), "action is text"),
        (Move(None), "action is text"),
        (Move(mv.action, list(mv.tiles)), "tiles are a tuple"),
        (Move(mv.action, (1,)), "tiles are a tuple"),
        (Move(mv.action, mv.tiles, [1]), "choice is a number or text"),
        ({"action": mv.action}, "a move is a Move"),
        ("discard", "a move is a Move"),
        (Move(huge), "too long"),
        (Move("discard", (huge,)), "not a legal move"),
    ]
    for bad, match in cases:
        msg = _refused(g, seat, bad, match)
        assert len(msg) < 600 and "炸" * 40 not in msg


def test_a_stale_move_is_refused_even_when_an_equal_move_is_legal_again(baicheng):
    """A move carries its decision; answering an earlier decision with it is refused although the same
    move value is on offer now (a pass, a discard of the same kind)."""
    g = Game(baicheng, {}, 11)
    bots = [RandomBot(i) for i in range(g.n)]
    offered: dict[tuple[int, Move], Move] = {}
    for _ in range(400):
        if g.is_over():
            break
        seat = g.current_seats()[0]
        legal = g.legal_moves(seat)
        assert all(m.decision == g.decision for m in legal)
        for m in legal:
            old = offered.get((seat, m))
            if old is not None and old.decision != g.decision:
                _refused(g, seat, old, "which is over")
                # without a decision number the same move is an answer to the decision now asked
                assert Move(m.action, m.tiles, m.choice) in legal
                break
        else:
            for m in legal:
                offered[(seat, m)] = m
            g.apply(seat, bots[seat].choose(g, seat, legal))
            continue
        break
    else:
        raise AssertionError("no move was offered twice in 400 decisions")


def test_a_game_may_require_the_decision(baicheng):
    g = Game(baicheng, {}, 5, require_decision=True)
    seat = g.current_seats()[0]
    mv = g.legal_moves(seat)[0]
    _refused(g, seat, Move(mv.action, mv.tiles, mv.choice), "requires each move to say which decision")
    g.apply(seat, mv)


def test_room_options_of_the_wrong_type_are_a_game_error():
    rules = load(ROOT / "rules" / "longyan.pai")
    ints = [s.name for s in rules.ir.settings if s.role == "option" and s.type == "int"]
    assert ints
    for v in ([3], None, float("inf"), 3.5, Fraction(7, 2), {"a": 1}):
        with pytest.raises(GameError, match=f"room option {ints[0]}: takes a whole number"):
            Game(rules, {ints[0]: v}, 1)
    with pytest.raises(GameError, match="by name"):
        Game(rules, [(ints[0], 3)], 1)


def test_hostile_moves_seeded_sample():
    """A seeded sample of bench/fuzz_moves.py (which throws 100,000)."""
    import fuzz_moves

    counts, failures = fuzz_moves.fuzz(2000, seed=3)
    assert not failures, failures
    assert counts["refused"] > 1500 and counts["accepted"] == counts["changed"] == counts["traceback"] == 0
    assert counts["stale:refused"] > 100 and counts["options:refused"] > 50


# ------------------------------------------------------------------ point 2: replay fails closed

@pytest.mark.parametrize("tamper,message", [
    (lambda log: log[:-1], r"^line 176: the log ends inside hand 2 \(its result line is missing\)$"),
    (lambda log: log[:1], r"^line 1: the session has 2 hands, the log records 0$"),
    (lambda log: [{**log[0], "hands": 10 ** 9}] + log[1:], r"^line 1: the session has 1000000000 hands"),
    (lambda log: log + [{"type": "note", "text": "hi"}], r"^line 178: unknown line type 'note'$"),
    (lambda log: log[:5] + [{**log[5], "extra": 1}] + log[6:], r"^line 6: a move line has no field 'extra'$"),
    (lambda log: log[:5] + [{**log[5], "seat": 1.0}] + log[6:], r"^line 6: seat is a whole number$"),
    (lambda log: [{**log[0], "variant": "other"}] + log[1:], r"^line 1: the log is of variant 'other'"),
    (lambda log: [{**log[0], "options": {"没有": 1}}] + log[1:], r"^line 1: '没有' is not a room option"),
    (lambda log: log[:1] + log[2:], r"^line 2: a move line outside a hand"),
])
def test_a_tampered_log_is_refused_naming_the_line(baicheng, logged, tamper, message):
    assert len(logged) == 177
    replay(logged, baicheng)  # the untampered log replays
    with pytest.raises(ReplayError, match=message):
        replay(tamper(logged), baicheng)


def test_a_changed_result_or_move_is_refused(baicheng, logged):
    res = max(i for i, e in enumerate(logged) if e["type"] == "result")
    bad = [dict(e) for e in logged]
    bad[res] = {**bad[res], "result": {**bad[res]["result"], "balances": [0, 0, 0, 0]}}
    with pytest.raises(ReplayError, match=rf"^line {res + 1}: hand 2 replays to a different result \(balances"):
        replay(bad, baicheng)
    mv = next(i for i, e in enumerate(logged) if e["type"] == "move" and e["move"].get("decision", 0) > 3)
    bad = [dict(e) for e in logged]
    bad[mv] = {**bad[mv], "move": {**bad[mv]["move"], "decision": 1}}  # a move moved to an earlier decision
    with pytest.raises(ReplayError, match=rf"^line {mv + 1}: hand 1: .* answers decision 1, which is over"):
        replay(bad, baicheng)


def test_a_log_file_that_is_not_json_lines(tmp_path, baicheng, logged):
    f = tmp_path / "log.jsonl"
    f.write_bytes(b"\n".join(json.dumps(e, ensure_ascii=False).encode() for e in logged[:3]) + b"\n{oops\n")
    with pytest.raises(ReplayError, match=r"^line 4: not JSON"):
        replay(f, baicheng)
    f.write_bytes(json.dumps(logged[0]).encode() + b"\n\xff\xfe\n")
    with pytest.raises(ReplayError, match=r"^line 2: not UTF-8 text$"):
        replay(f, baicheng)


def test_replay_command_never_loads_a_rule_file_the_log_names(tmp_path, logged, capsys):
    from paili.dsl.cli_game import main

    good = tmp_path / "good.jsonl"
    good.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in logged), encoding="utf-8")
    assert main(["replay", str(good)]) == 0  # the bundled rule file of the log's stem
    assert "replayed 2 hand(s): identical" in capsys.readouterr().out
    # a path naming a bundled stem: the bundled file is used, the path never opened
    elsewhere = tmp_path / "x" / "baicheng.pai"
    pathed = tmp_path / "pathed.jsonl"
    pathed.write_text("".join(json.dumps({**e, "rules": str(elsewhere)} if e["type"] == "session" else e,
                                         ensure_ascii=False) + "\n" for e in logged), encoding="utf-8")
    assert main(["replay", str(pathed)]) == 0
    # a rule file of its own: refused unless --rules is given
    own = tmp_path / "own.json"
    own.write_text("this file must never be read", encoding="utf-8")
    evil = tmp_path / "evil.jsonl"
    evil.write_text("".join(json.dumps({**e, "rules": str(own)} if e["type"] == "session" else e,
                                       ensure_ascii=False) + "\n" for e in logged), encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(evil)]) == 2
    err = capsys.readouterr().err
    assert "not a bundled variant; give the rules with --rules" in err and "Traceback" not in err
    assert main(["replay", str(evil), "--rules", "baicheng"]) == 0
    # a tampered log: exit status 1 and the line
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in logged[:-1]), encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(cut)]) == 1
    assert capsys.readouterr().err.startswith("error: line 176: the log ends inside hand 2")


def test_tampered_logs_seeded_sample():
    """A seeded sample of bench/fuzz_logs.py (which tampers 10,000 logs)."""
    import fuzz_logs

    counts, failures = fuzz_logs.fuzz(200, seed=5, variants=("baicheng", "chehuzi"), sessions=1)
    assert not failures, failures
    assert counts["refused"] > 150 and counts["accepted"] == counts["traceback"] == 0
