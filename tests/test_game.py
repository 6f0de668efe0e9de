"""The game engine (runtime/game): complete bot games with invariants checked after every move, and
rigged-wall scenarios for claims, kongs, robbing, exhaustive draws, payments and observations."""
from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction

import pytest
from conftest import ROOT
from paili import load
from paili.runtime.game import PASS, Game, GameError, IllegalMove, Move
from paili.runtime.game.bots import GreedyBot, RandomBot, play
from paili.runtime.game.log import ReplayError, lines, replay
from paili.runtime.game.session import Session
from paili.runtime.game.simulate import simulate

_RULES: dict = {}


def flow_unsupported(r):
    from paili.runtime.game import flow

    return flow.unsupported(r.ir)


def rules(name: str):
    if name not in _RULES:
        _RULES[name] = load(ROOT / "rules" / f"{name}.pai")
    return _RULES[name]


def names(r, text: str) -> tuple[str, ...]:
    """Tile notation -> tile names (the form moves use)."""
    return tuple(r.notation.parse(text))


def move(g: Game, seat: int, action: str, tiles: str | None = None) -> Move:
    """The legal move of `seat` with this action (and these tiles, when given)."""
    want = names(g.rules, tiles) if tiles else None
    for m in g.legal_moves(seat):
        if m.action == action and (want is None or sorted(m.tiles) == sorted(want)):
            return m
    raise AssertionError(f"seat {seat} has no legal {action} {tiles or ''}: {list(map(str, g.legal_moves(seat)))}")


def discard(g: Game, seat: int, tile: str) -> None:
    g.apply(seat, Move("discard", names(g.rules, tile)))


# ---------------------------------------------------------------------- complete games

@pytest.mark.parametrize("variant", ["baijindao", "baicheng"])
def test_random_bot_games_keep_every_invariant(variant):
    summary = simulate(rules(variant), 200, seed=1, bots="random")
    assert summary["invariant_violations"] == 0, summary["violations"]
    assert summary["wins"] >= 1
    assert summary["draws"] >= 1
    assert summary["event_counts"]["exhaust"] == summary["draws"]
    assert summary["event_counts"]["hand_end"] == 200


@pytest.mark.parametrize("variant", ["baijindao", "baicheng"])
def test_greedy_bots_win_often_and_payments_balance(variant):
    r = rules(variant)
    wins = 0
    for seed in range(30):
        g = Game(r, {}, seed)
        res = play(g, [GreedyBot(seed + i) for i in range(g.n)])
        assert not g.violations and not g.errors
        fees = Fraction(str(res["fees"]))
        assert sum(Fraction(str(d)) for d in res["deltas"]) + fees == 0
        paid = sum(Fraction(str(p["amount"])) for p in res["payments"])
        assert fees == sum(Fraction(str(p["fee"])) for p in res["payments"]) and (paid > 0) == bool(res["payments"])
        wins += bool(res["winners"])
    assert wins >= 10


def test_same_seed_same_game():
    r = rules("baicheng")
    a = Game(r, {}, 42)
    b = Game(r, {}, 42)
    play(a, [RandomBot(i) for i in range(4)])
    play(b, [RandomBot(i) for i in range(4)])
    assert a.snapshot() == b.snapshot()


def test_rule_sets_the_engine_cannot_play_are_refused_clearly(tmp_path):
    """A construct games do not execute (the checker's W605) refuses the game, naming it and its place,
    instead of playing the variant wrongly; scoring from the same file still works."""
    from paili.runtime.game import flow

    for v in ("baijindao", "chehuzi", "baicheng", "longyan"):
        assert flow.unsupported(rules(v).ir) == []
    text = (ROOT / "rules" / "chehuzi.pai").read_text(encoding="utf-8")
    lines_before = text.count("\n")
    f = tmp_path / "no_draw.pai"
    f.write_text(text + "restrict 不摸 { actions [draw]; when wall_left < 3 }\n", encoding="utf-8")
    r = load(f)
    where = rf"\(.*no_draw.pai:{lines_before + 1}:1\)"
    with pytest.raises(GameError, match=rf"does not execute `restrict 不摸` on `draw` {where}"):
        Game(r, {}, 0)


def test_a_meld_opened_by_an_action_is_made_from_the_seats_own_tiles(tmp_path):
    """An action with `forms` opened by another action's name is offered right after it, with melds of
    the seat's own tiles, and is made as offered (no claim of the event's tile)."""
    text = (ROOT / "rules" / "baijindao.pai").read_text(encoding="utf-8")
    f = tmp_path / "pung_then_kong.pai"
    f.write_text(text + "action 碰后暗杠 { on 碰; by self; forms 暗杠 }\n", encoding="utf-8")
    r = load(f)
    assert flow_unsupported(r) == []
    dealer = "南1m4m7m2m5m8m3m6m发西北白"
    g = Game(r, {}, 11, dealer=0, wall=[dealer + "南南9m9m9m9m1m2m3m4m5m东中" + "中"])
    discard(g, 0, "南")
    g.apply(1, move(g, 1, "碰"))
    assert {m.action for m in g.legal_moves(1)} == {"碰后暗杠", "pass"}
    g.apply(1, move(g, 1, "碰后暗杠"))
    kinds = [(m.kind, "".join(t.name for t in m.tiles)) for m in g.st.seats[1].melds]
    assert kinds == [("碰", "南南南"), ("暗杠", "九万" * 4)] and not g.errors
    assert g.current_seats() == [1] and {m.action for m in g.legal_moves(1)} == {"discard"}


def test_a_continuation_a_decision_cannot_make_is_refused(tmp_path):
    """`then replace` on an action opened by another action's name would interrupt that action's own
    continuation: W605, and games are refused."""
    text = (ROOT / "rules" / "baijindao.pai").read_text(encoding="utf-8")
    f = tmp_path / "pung_then_replace.pai"
    f.write_text(text + "action 碰后补 { on 碰; by self; forms 暗杠; then replace }\n", encoding="utf-8")
    with pytest.raises(GameError, match="`then replace` of `action 碰后补`, opened by `碰`"):
        Game(load(f), {}, 0)


def test_unknown_option_is_refused():
    with pytest.raises(GameError, match="not a room option"):
        Game(rules("baicheng"), {"没有这个选项": True}, 0)


# ---------------------------------------------------------------------- the deal

def test_deal_gives_the_dealer_the_extra_tile():
    g = Game(rules("baicheng"), {}, 3)
    sizes = [len(s.hand) + sum(len(m.tiles) for m in s.melds) for s in g.st.seats]
    assert len(g.st.seats[g.st.dealer].hand) >= 14 or g.st.seats[g.st.dealer].melds
    assert sorted(sizes)[-1] >= 14
    assert g.st.reveals["宝牌"] is not None  # flipped from the tail, still in the wall
    assert len(g.st.pinned) == 1


# ---------------------------------------------------------------------- illegal moves

def test_an_illegal_move_is_refused_and_changes_nothing():
    g = Game(rules("baijindao"), {}, 5)
    for _ in range(7):  # play into the hand
        s = g.current_seats()[0]
        g.apply(s, g.legal_moves(s)[-1])
    before = json.dumps(g.snapshot(), ensure_ascii=False, sort_keys=True)
    seat = g.current_seats()[0]
    other = 1 - seat
    held = {t.name for t in g.st.seats[seat].hand}
    missing = next(k.name for k in g.cat.kinds if k.name not in held)
    for who, mv in ((other, g.legal_moves(seat)[0]), (seat, Move("discard", (missing,))),
                    (seat, Move("碰", ())), (seat, Move("no such action"))):
        with pytest.raises(IllegalMove) as exc:
            g.apply(who, mv)
        assert "\n" not in str(exc.value)
    assert json.dumps(g.snapshot(), ensure_ascii=False, sort_keys=True) == before
    play(g, [RandomBot(1), RandomBot(2)])
    with pytest.raises(IllegalMove, match="over"):
        g.apply(0, PASS)


# ---------------------------------------------------------------------- rigged walls
# Hands are dealt in play order from the dealer (seat 0 here): the dealer's 13, the next seat's 13, …,
# then the dealer's extra tile; the tiles after that are the draws.

def rig(variant: str, hands: list[str], extra: str, draws: str = "", tail: str = "", **kw) -> Game:
    return Game(rules(variant), {}, 11, dealer=0, wall=["".join(hands) + extra + draws],
                tail=[tail] if tail else None, **kw)


# 风雷白城: seat 3's hand wins on 2s (111m 567p 789s 234s 55m); seat 2's too in the second case.
BC_DEALER = "2s3m6m8m2p4p8p6s8s7m3p4m6p"
BC_PUNG = "2s2s3m6m8m2p4p8p6s8s7m3p4m"
BC_PLAIN = "3m6m8m2p4p8p6s8s7m3p4m7p7s"
BC_WIN = "111m567p789s55m34s"
BC_WIN2 = "999p567m789s55p34s"


def test_claim_priority_a_win_beats_a_pung_of_a_nearer_seat():
    g = rig("baicheng", [BC_DEALER, BC_PUNG, BC_PLAIN, BC_WIN], "白", tail="9m")
    discard(g, 0, "2s")
    assert g.current_seats() == [1, 3]  # seat 2 has nothing to claim and is not asked
    g.apply(1, move(g, 1, "碰"))
    assert not g.is_over()  # decisions are resolved only when every claimant has answered
    g.apply(3, move(g, 3, "胡"))
    res = g.result()
    assert res["winners"] == [3] and res["discarder"] == 0
    assert g.st.seats[1].melds == []  # the pung was not applied
    assert res["scores"][3]["fans"][0]["pattern"] in ("屁胡", "夹胡")
    # every loser pays; the discarder pays double, and the dealer (seat 0, also the discarder) double again
    paid = {p["payer"]: p["amount"] for p in res["payments"] if p["name"] == "胡牌"}
    assert set(paid) == {0, 1, 2} and paid[0] == 4 * paid[1] and paid[1] == paid[2]
    assert not g.violations


def test_several_winners_on_one_discard():
    g = rig("baicheng", [BC_DEALER, BC_PUNG, BC_WIN2, BC_WIN], "白", tail="9m")
    discard(g, 0, "2s")
    assert g.current_seats() == [1, 2, 3]
    g.apply(1, move(g, 1, "碰"))
    g.apply(2, move(g, 2, "胡"))
    g.apply(3, move(g, 3, "胡"))
    res = g.result()
    assert res["winners"] == [2, 3]
    assert {p["payee"] for p in res["payments"]} == {2, 3}
    assert not g.violations


def test_a_pass_lets_the_pung_through():
    g = rig("baicheng", [BC_DEALER, BC_PUNG, BC_PLAIN, BC_WIN], "白", tail="9m")
    discard(g, 0, "2s")
    g.apply(1, move(g, 1, "碰", "2s2s2s"))
    g.apply(3, PASS)
    assert g.current_seats() == [1]
    assert [m.kind for m in g.st.seats[1].melds] == ["碰"]
    assert all(m.action == "discard" for m in g.legal_moves(1))  # after a pung: discard only
    assert g.st.seats[0].discards == []  # the claimed tile left the discards


def test_chow_only_by_the_next_seat():
    dealer = "5m2p3p4p6s7s8s2s3s4s7p8p9p"
    both = "4m6m2p3p6s7s2s3s7p8p8m3m发"
    both2 = "4m6m2p3p6s7s2s3s7p8p8m3m中"
    other = "1p1p5p5p5s5s9s9s1s2m7m9m白"
    g = rig("baicheng", [dealer, both, both2, other], "白", tail="9m")
    discard(g, 0, "5m")
    assert g.current_seats() == [1]
    assert g.legal_moves(2) == []
    chow = move(g, 1, "吃", "4m5m6m")
    g.apply(1, chow)
    assert [m.kind for m in g.st.seats[1].melds] == ["吃"]
    assert g.st.seats[1].melds[0].source == 0


def test_concealed_kong_takes_a_replacement_from_the_tail():
    g = rig("baijindao", ["东东东东123m456m789m", "22m33m44m66m77m88m9m"], "南", tail="5m")
    wall = len(g.st.wall)
    kong = move(g, 0, "暗杠", "东东东东")
    g.apply(0, kong)
    s0 = g.st.seats[0]
    assert [m.kind for m in s0.melds] == ["暗杠"] and not s0.melds[0].exposed
    assert len(g.st.wall) == wall - 1
    assert s0.drawn is not None and s0.drawn.name == names(g.rules, "5m")[0]
    assert g.current_seats() == [0]
    assert g.st.events["kong"] == 1 and g.st.events["暗杠"] == 1 and g.st.events["draw"] == 1
    assert any(m.action == "discard" for m in g.legal_moves(0))


def test_exposed_kong_on_a_discard_then_replacement():
    g = rig("baijindao", ["东123m456m789m南西北", "东东东22m33m44m66m7m"], "白", tail="5m")
    discard(g, 0, "东")
    g.apply(1, move(g, 1, "明杠"))
    s1 = g.st.seats[1]
    assert [m.kind for m in s1.melds] == ["明杠"] and s1.melds[0].exposed
    assert s1.drawn.name == names(g.rules, "5m")[0]
    assert g.current_seats() == [1]


def test_robbing_an_added_kong_with_cap_and_fee():
    dealer = "5m5m1m9m东西白发中2m3m7m8m"
    robber = "123m789m46m南南南北5m"
    g = rig("baijindao", [dealer, robber], "东", draws="西北5m", balances=[5, 5])
    discard(g, 0, "东")
    discard(g, 1, "5m")  # drew 西; gives up a 5m
    g.apply(0, move(g, 0, "碰", "5m5m5m"))
    discard(g, 0, "发")
    discard(g, 1, "西")  # drew 北: now waiting on 5m
    assert {m.action for m in g.legal_moves(1)} == {"报听", "立直", "pass"}  # may declare ready
    g.apply(1, PASS)
    g.apply(0, move(g, 0, "补杠"))  # drew the last 5m and adds it to the pung
    assert g.current_seats() == [1]  # the other player may rob it
    assert {m.action for m in g.legal_moves(1)} >= {"胡", "pass"}
    g.apply(1, move(g, 1, "胡"))
    # at the hand's end the winner of a small hand may propose to start the next hand doubled
    assert not g.is_over() and g.current_seats() == [1]
    assert [(m.action, m.choice) for m in g.legal_moves(1)] == [("起始加倍", 2), ("起始加倍", 4),
                                                              ("起始加倍", 8), ("pass", None)]
    g.apply(1, PASS)
    assert g.is_over()
    res = g.result()
    assert res["winners"] == [1] and res["robbed"] == 0 and res["discarder"] == 0
    assert [m.kind for m in g.st.seats[0].melds] == ["碰"]  # the kong was not made
    assert g.st.events["补杠"] == 0 and g.st.events["added_kong"] == 1
    # the win is worth far more than 5: capped by the payer's balance, and the house keeps 1.25%
    assert res["payments"] == [{"name": "胡牌", "event": "hand_end", "payer": 0, "payee": 1, "amount": 5,
                                "fee": "1/16", "amount_exact": "5", "fee_exact": "1/16"}]
    assert res["balances"] == [0, "159/16"]
    assert not g.violations


def test_doubling_instead_of_winning():
    g = rig("baijindao", ["123m456m789m东东东南", "22m33m44m66m77m88m9m"], "南")
    offered = {m.action for m in g.legal_moves(0)}
    assert {"胡", "加倍"} <= offered
    g.apply(0, move(g, 0, "加倍"))
    s0 = g.st.seats[0]
    assert s0.vars["已加倍"] == 1
    assert not g.is_over() and g.current_seats() == [0]
    assert all(m.action not in ("胡", "加倍") for m in g.legal_moves(0))  # the win was declined this turn


def test_exhaustive_draw():
    class Passive:
        def choose(self, game, seat, moves):
            if PASS in moves:
                return PASS
            drawn = game.st.seats[seat].drawn
            ds = [m for m in moves if m.action == "discard"]
            return next((m for m in ds if drawn is not None and m.tiles[0] == drawn.name), ds[0])

    for variant in ("baijindao", "baicheng"):
        g = Game(rules(variant), {}, 9, dealer=0)
        res = play(g, [Passive() for _ in range(g.n)])
        assert res["exhausted"] and res["winners"] == []
        assert len(g.st.wall) <= g.rs.table.exhaust_at
        assert res["events"]["exhaust"] == 1 and res["events"]["hand_end"] == 1
        assert not g.violations and sum(Fraction(str(d)) for d in res["deltas"]) + Fraction(str(res["fees"])) == 0
        if variant == "baijindao":  # `next_dealer = if won then winner else last_drawer`
            assert res["next_dealer"] == g.st.last_drawer
        else:  # the dealer stays after a draw
            assert res["next_dealer"] == 0


# ---------------------------------------------------------------------- observations

def test_observation_hides_other_hands_and_the_wall():
    g = Game(rules("baicheng"), {}, 4)
    for _ in range(10):
        s = g.current_seats()[0]
        g.apply(s, g.legal_moves(s)[0])
    for seat in range(g.n):
        obs = g.observation(seat)
        text = json.dumps(obs, ensure_ascii=False)
        assert "wall" not in {k for k in obs} and "wall_ids" not in text
        assert obs["hand"] == sorted((t.name for t in g.st.seats[seat].hand),
                                     key=lambda n: g.cat.by_name[n].index)
        for other in obs["seats"]:
            assert other["hand_size"] == len(g.st.seats[other["seat"]].hand)
            if other["seat"] != seat:
                assert "hand" not in other and "drawn" not in other
        assert obs["reveals"] == {"宝牌": g.st.reveals["宝牌"].name}


def test_an_observe_rule_shows_the_other_hand_after_declaring_ready():
    g = rig("baijindao", ["123m456m789m东东东南", "22m33m44m66m77m88m9m"], "西")
    discard(g, 0, "西")
    g.apply(0, move(g, 0, "报听"))
    assert g.st.seats[0].auto
    seen = g.observation(0)["seats"][1]
    assert sorted(seen["hand"]) == sorted(t.name for t in g.st.seats[1].hand)
    assert "hand" not in g.observation(1)["seats"][0]


# ---------------------------------------------------------------------- sessions and logs

def test_session_carries_balances_dealer_and_table_states():
    s = Session(rules("baijindao"), {}, seed=7, hands=4)
    bots = [GreedyBot(1), GreedyBot(2)]
    prev = None
    while (g := s.new_hand()) is not None:
        if prev is not None:
            assert [str(x.balance) for x in g.st.seats] == [str(b) for b in prev["balances"]]
            assert g.st.dealer == prev["next_dealer"]
        play(g, bots)
        prev = s.finish(g)
    assert len(s.played) == 4


def test_log_replays_to_the_identical_state():
    s = Session(rules("baicheng"), {}, seed=3, hands=2)
    s.play([RandomBot(i) for i in range(4)])
    log = json.loads(json.dumps(lines(s, "rules/baicheng.pai"), ensure_ascii=False))
    again = replay(log, rules("baicheng"))
    assert [h["result"] for h in again.played] == [h["result"] for h in s.played]
    bad = [dict(e) for e in log]
    last_move = max(i for i, e in enumerate(bad) if e["type"] == "move")
    bad[last_move] = {**bad[last_move], "move": {"action": "discard", "tiles": ["没有这张牌"]}}
    with pytest.raises(ReplayError):
        replay(bad, rules("baicheng"))


def test_a_decision_at_the_hand_end_and_its_answer():
    """起始加倍 by the winner is answered by the loser: accepted, the hand's payment is given up and the
    next hand starts doubled (a table state carried by the session)."""
    dealer = "5m5m1m9m东西白发中2m3m7m8m"
    robber = "123m789m46m南南南北5m"
    g = rig("baijindao", [dealer, robber], "东", draws="西白北5m")
    discard(g, 0, "东")
    discard(g, 1, "5m")
    g.apply(0, PASS)  # no pung this time: seat 0 draws 白
    discard(g, 0, "发")
    discard(g, 1, "西")
    g.apply(1, PASS)
    discard(g, 0, "5m")  # drew the last 5m and throws it: seat 1 wins on it
    g.apply(1, move(g, 1, "胡"))
    g.apply(1, Move("起始加倍", (), 4))
    assert g.current_seats() == [0] and {m.action for m in g.legal_moves(0)} == {"应答起始加倍", "pass"}
    g.apply(0, move(g, 0, "应答起始加倍"))
    assert g.is_over()
    res = g.result()
    assert res["winners"] == [1] and res["discarder"] == 0 and res["payments"] == []
    assert res["events"]["应答起始加倍"] == 1
    assert g.table_values()["下局起始加倍"] == 4


def test_a_win_at_the_deal():
    g = rig("baicheng", [BC_WIN, BC_PLAIN, BC_PUNG, BC_DEALER], "2s", tail="9m")
    assert g.current_seats() == [0]
    assert {m.action for m in g.legal_moves(0)} == {"天胡", "pass"}
    g.apply(0, move(g, 0, "天胡"))
    res = g.result()
    assert res["winners"] == [0] and res["scores"][0]["self_drawn"] and res["scores"][0]["tile"] == "二条"
    assert res["next_dealer"] == 0


def test_a_revealed_tile_moves_when_its_copies_are_seen():
    g = rig("baicheng", [BC_DEALER, BC_PUNG, BC_PLAIN, BC_WIN], "白", tail="8m9m")
    st = g.st
    nine = g.cat.by_name[names(g.rules, "9m")[0]]
    assert st.reveals["宝牌"] == nine and len(st.pinned) == 1
    g._moves_reveals()
    assert st.reveals["宝牌"] == nine  # one copy seen (the flipped one): it stays
    st.seats[1].discards += [nine, nine]  # two more copies in the open: three of four seen
    g._moves_reveals()
    assert st.reveals["宝牌"] == nine  # the rule moves it only when all four copies are visible
    st.seats[1].discards += [nine]  # the last copy in the open
    g._moves_reveals()
    assert st.reveals["宝牌"].name == names(g.rules, "8m")[0]  # the next tile from the tail
    assert len(st.pinned) == 2  # the first copy stays in the wall, passed over by replacements
    st.seats[1].discards = st.seats[1].discards[:-3]


def test_flowers_are_replaced_and_the_gold_leaves_play():
    g = Game(rules("longyan"), {}, 2)
    st = g.st
    assert all(t.category != "flower" for s in st.seats for t in s.hand)
    assert sum(len(s.aside) for s in st.seats) == sum(len(s.vars["花牌"]) for s in st.seats)
    gold = st.reveals["金牌"]
    assert gold is not None and gold.category != "flower"
    assert gold in st.out and not st.pinned  # removes_copy: the flipped copy left the wall
    assert g.check_invariants() == []


def test_simulate_command_prints_the_summary_and_logs_replay(tmp_path, capsys):
    from paili.dsl.cli_game import main

    assert main(["simulate", "baijindao", "--games", "3", "--seed", "2", "--json", "--log", str(tmp_path)]) == 0
    summary = json.loads(capsys.readouterr().out)
    for key in ("games", "wins", "draws", "pattern_counts", "event_counts", "score_mean", "invariant_violations"):
        assert key in summary
    assert summary["games"] == 3 and summary["wins"] + summary["draws"] == 3
    logs = sorted(tmp_path.glob("*.jsonl"))
    assert len(logs) == 3
    assert main(["replay", str(logs[0])]) == 0
    assert "identical" in capsys.readouterr().out
    assert main(["simulate", "baijindao", "--games", "1", "--set", "没有=1"]) == 2


def test_simulate_summary_gives_win_rate_by_seat_and_the_spread_of_scores(tmp_path):
    """The summary's per-seat and spread figures agree with the logged hands they summarise."""
    import statistics

    from paili.runtime.game.log import read
    from paili.runtime.game.simulate import simulate

    s = simulate(rules("baijindao"), 12, 4, "greedy", log_dir=tmp_path)
    winners, scores = [], []
    for f in sorted(tmp_path.glob("*.jsonl")):
        end = read(f)[-1]
        winners += end["result"]["winners"]
        scores += [sc["score"] for sc in end["result"]["scores"].values()]
    assert s["wins_by_seat"] == [winners.count(0), winners.count(1)] and sum(s["wins_by_seat"]) >= s["wins"] > 0
    assert s["win_rate_by_seat"] == [round(w / 12, 4) for w in s["wins_by_seat"]]
    assert s["draw_rate"] == round(s["draws"] / 12, 4)
    assert s["score_stdev"] == round(statistics.pstdev(scores), 3)
    assert (s["score_min"], s["score_max"]) == (min(scores), max(scores))


def test_workers_give_the_same_result_as_one_process():
    from paili.runtime.game.simulate import simulate

    one = simulate(rules("baicheng"), 8, 11, "greedy")
    two = simulate(rules("baicheng"), 8, 11, "greedy", workers=2)
    for timing in ("seconds", "games_per_second"):
        one.pop(timing)
        two.pop(timing)
    assert one == two
    assert one["games"] == 8 and one["wins"] + one["draws"] == 8


def test_a_seeded_sample_of_logged_games_replays_identically(tmp_path):
    """A small seeded sample of `bench/replay_logs.py` (which replays 1,000 games)."""
    from paili.runtime.game.log import replay
    from paili.runtime.game.simulate import simulate

    summary = simulate(rules("baicheng"), 30, 5, "greedy", log_dir=tmp_path)
    logs = sorted(tmp_path.glob("*.jsonl"))
    assert len(logs) == 30 and summary["invariant_violations"] == 0
    for log in logs:
        session = replay(log, rules("baicheng"))
        assert len(session.played) == 1


# ---------------------------------------------------------------------- money typed one way (docs/engine.md)

def test_every_amount_of_a_result_has_an_exact_string_twin():
    """白金岛 withholds 1.25% of the payment (爱心奉献): a 3-point win pays the winner 237/80. The plain keys
    keep their mixed values; each `_exact` twin is a lowest-terms string, whole amounts without a slash."""
    g = Game(rules("baijindao"), {}, 7)
    res = play(g, [GreedyBot(7 + i) for i in range(g.n)])
    assert res["winners"] == [1]
    assert res["deltas"] == [-3, "237/80"] and res["deltas_exact"] == ["-3", "237/80"]
    assert res["fees"] == "3/80" and res["fees_exact"] == "3/80"
    assert res["balances"] == [997, "80237/80"] and res["balances_exact"] == ["997", "80237/80"]
    [pay] = res["payments"]
    assert (pay["amount"], pay["amount_exact"], pay["fee"], pay["fee_exact"]) == (3, "3", "3/80", "3/80")
    sc = res["scores"][1]
    assert (sc["score"], sc["score_exact"], sc["total_exact"]) == (3, "3", "3")
    # the winning tile beside its name in the notation's code (docs/engine.md, "Tile codes in results")
    assert (sc["tile"], sc["tile_code"]) == ("二万", "2m")
    assert [f["value_exact"] for f in sc["fans"]] == [str(f["value"]) for f in sc["fans"]]
    assert [s["balance_exact"] for s in g.observation(0)["seats"]] == ["997", "80237/80"]


def test_a_drawn_hand_has_zero_twins():
    g = Game(rules("baijindao"), {}, 2)
    res = play(g, [GreedyBot(2 + i) for i in range(g.n)])
    assert res["winners"] == [] and res["payments"] == []
    assert res["deltas_exact"] == ["0", "0"] and res["fees_exact"] == "0"
    assert res["balances_exact"] == ["1000", "1000"]


def test_a_log_written_before_the_twins_still_replays_and_a_wrong_twin_is_refused():
    from paili.runtime.game.log import strip_added

    r = rules("baijindao")
    session = Session(r, {}, 7, 2)
    session.play([GreedyBot(i) for i in range(2)])
    logged = json.loads(json.dumps(lines(session), ensure_ascii=False))  # as a log file holds it
    old = [dict(e, result=strip_added(e["result"])) if e["type"] == "result" else e for e in logged]
    assert all("deltas_exact" not in e["result"] and "tile_code" not in json.dumps(e["result"])
               for e in old if e["type"] == "result")
    assert len(replay(old, r).played) == 2
    bad = json.loads(json.dumps(logged))
    assert len(replay(bad, r).played) == 2
    last = bad[-1]["result"]
    last["balances_exact"] = ["0"] + last["balances_exact"][1:]
    with pytest.raises(ReplayError, match=rf"line {len(bad)}: hand 2 replays to a different result "
                                          r"\(balances_exact differs\)"):
        replay(bad, r)


def test_simulate_gives_exact_twins_of_its_scores():
    s = simulate(rules("baijindao"), 12, 4, "greedy")
    assert s["score_min_exact"] == str(s["score_min"]) and s["score_max_exact"] == str(s["score_max"])
    assert abs(float(Fraction(s["score_mean_exact"])) - s["score_mean"]) < 0.001


@pytest.mark.parametrize("variant", ["baijindao", "chehuzi", "longyan"])
def test_an_onlooker_never_sees_more_of_a_seat_than_every_player_does(variant):
    """The onlooker's view (observe.py): per seat, concealed tiles shown only where every other player is
    shown them too (扯胡子 turns drawn cards face up to all, 龙岩 shows a concealed kong's top tile to all);
    the rest of the table is what every player sees."""
    shown = Counter()
    for seed in range(3):
        g = Game(rules(variant), {}, seed)
        bots = [GreedyBot(seed + i) for i in range(g.n)]
        while True:
            look = g.onlooker_observation()
            views = [g.observation(v) for v in range(g.n)]
            assert look["seat"] is None and "hand" not in look and "legal_moves" not in look
            for key in ("wall_left", "reveals", "table", "to_act", "dealer", "task"):
                assert look[key] == views[0][key]
            for s, d in enumerate(look["seats"]):
                for v in range(g.n):
                    if v != s:
                        theirs = views[v]["seats"][s]
                        assert all(theirs.get(k) == d[k] for k in ("hand", "drawn") if k in d)
                        assert [m["tiles"] for m in d["melds"]] == [m["tiles"] for m in theirs["melds"]]
                shown.update(k for k in ("hand", "drawn") if k in d)
                shown.update("kong tile" for m in d["melds"] if m.get("hidden") and m["tiles"])
            if g.is_over():
                break
            seat = g.current_seats()[0]
            g.apply(seat, bots[seat].choose(g, seat, g.legal_moves(seat)))
    if variant == "chehuzi":
        assert shown["drawn"] > 0  # 翻牌示众: a drawn card is shown to an onlooker too
    if variant == "baijindao":
        assert not shown  # nothing of a hand is shown to someone who cannot declare ready


def test_moves_and_observations_carry_tile_codes_beside_names():
    """docs/engine.md, "Tile codes in results": every key naming tiles has the notation's codes beside it
    (`tiles` → `codes`, `hand` → `hand_codes`, …); 扯胡子's cards are coded by their characters."""
    from paili.runtime.game.moves import MoveError

    r = rules("baijindao")
    g = Game(r, {}, 3)
    assert (g.tile_code("五万"), g.tile_code("东"), g.tile_code("不是牌")) == ("5m", "1z", None)
    assert Move("discard", ("五万",)).to_json(g.tile_code) == {"action": "discard", "tiles": ["五万"], "codes": ["5m"]}
    assert Move("discard", ("五万",)).to_json() == {"action": "discard", "tiles": ["五万"]}  # as before
    assert Move("pass").to_json(g.tile_code) == {"action": "pass"}  # no tiles, no codes
    bots = [GreedyBot(i) for i in range(2)]
    melds = 0
    while not g.is_over():
        seat = g.current_seats()[0]
        g.apply(seat, bots[seat].choose(g, seat, g.legal_moves(seat)))
        o = g.observation(seat)
        assert o["hand_codes"] == [r.catalog.by_name[n].notation_code for n in o["hand"]]
        assert o["drawn_code"] == (g.tile_code(o["drawn"]) if o["drawn"] else None)
        for s in o["seats"] + g.onlooker_observation()["seats"]:
            assert s["discards_codes"] == [g.tile_code(n) for n in s["discards"]]
            assert s["aside_codes"] == [g.tile_code(n) for n in s["aside"]]
            for m in s["melds"]:
                assert m["codes"] == [g.tile_code(n) for n in m["tiles"]]
                melds += bool(m["tiles"])
    assert melds > 0  # some meld was shown, codes and all
    # 扯胡子: cards by their characters; the turned card (醒牌, a reveal every seat sees) too
    c = rules("chehuzi")
    g = Game(c, {}, 0)
    o = g.observation(0)
    assert (o["hand"][:5], o["hand_codes"][:5]) == (["1小", "1小", "2小", "4小", "5小"], ["一", "一", "二", "四", "五"])
    assert (g.tile_code("8大"), o["reveals"], o["reveals_codes"]) == ("捌", {"醒牌": None}, {})
    while g.observation(0)["reveals"].get("醒牌") is None:  # seed 0, the first legal moves: turned at the win
        seat = g.current_seats()[0]
        g.apply(seat, g.legal_moves(seat)[0])
    o = g.observation(0)
    assert (o["reveals"], o["reveals_codes"]) == ({"醒牌": "6大"}, {"醒牌": "陆"})
    # read back: codes that are the tiles' codes are accepted, others refused, never ignored
    assert Move.from_json({"action": "discard", "tiles": ["五万"], "codes": ["5m"]}, Game(r, {}, 0).tile_code) \
        == Move("discard", ("五万",))
    with pytest.raises(MoveError, match=r"^a move's codes \['5p'\] are not the codes of its tiles \['五万'\]$"):
        Move.from_json({"action": "discard", "tiles": ["五万"], "codes": ["5p"]}, Game(r, {}, 0).tile_code)
    with pytest.raises(MoveError, match=r"^a move's codes are a list of tile codes$"):
        Move.from_json({"action": "discard", "tiles": ["五万"], "codes": "5m"}, Game(r, {}, 0).tile_code)
    with pytest.raises(MoveError, match=r"^a move has no field 'codes'$"):  # where no catalog reads them
        Move.from_json({"action": "discard", "tiles": ["五万"], "codes": ["5m"]})


def test_a_logs_moves_carry_codes_and_a_wrong_code_is_refused_naming_its_line():
    r = rules("baijindao")
    session = Session(r, {}, 7, 1)
    session.play([GreedyBot(i) for i in range(2)])
    logged = json.loads(json.dumps(lines(session), ensure_ascii=False))
    moves = [(n, e) for n, e in enumerate(logged, 1) if e["type"] == "move" and "tiles" in e["move"]]
    assert moves and all(e["move"]["codes"] == [r.catalog.by_name[t].notation_code for t in e["move"]["tiles"]]
                         for _, e in moves)
    assert len(replay(logged, r).played) == 1
    # a log written before moves carried codes replays as before
    old = [dict(e, move={k: v for k, v in e["move"].items() if k != "codes"}) if e["type"] == "move" else e
           for e in logged]
    assert len(replay(old, r).played) == 1
    n, e = moves[0]
    e["move"]["codes"] = ["9s"] * len(e["move"]["tiles"])
    with pytest.raises(ReplayError, match=rf"^line {n}: hand 1: a move's codes \['9s'.* are not the codes of its "):
        replay(logged, r)
