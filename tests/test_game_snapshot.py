"""Clones and snapshots (docs/engine.md, "Snapshots and clones"): a game cloned at a move plays on exactly
as the original, a snapshot restores to the same state, a clone is independent of its original, and a
tampered snapshot is refused with one sentence."""
import json
import random
from functools import cache

import pytest
from paili import bundled, load
from paili.runtime.game import Game, IllegalMove, Move, SnapshotError
from paili.runtime.game import snapshot as snapshots
from paili.runtime.game.bots import BOTS

# (variant, room options): every bundled variant, 龙岩 at each of its player counts
TABLES = [(v, {}) for v in bundled() if v != "longyan"] + [("longyan", {"人数": n}) for n in (4, 3, 2)]
IDS = [v + "".join(f"-{x}" for x in o.values()) for v, o in TABLES]


@cache
def rules(stem):
    return load(stem)


def played(stem, options, seed):
    """A whole hand played by seeded mixed bots: its result, its final snapshot and its moves in order."""
    return _played(stem, tuple(options.items()), seed)


@cache
def _played(stem, options, seed):
    g = Game(rules(stem), dict(options), seed)
    players = [BOTS["mixed"](seed * 31 + i) for i in range(g.n)]
    while not g.is_over():
        seat = g.current_seats()[0]
        g.apply(seat, players[seat].choose(g, seat, g.legal_moves(seat)))
    return g.result(), g.snapshot(), list(g.moves)


def finish(g, moves):
    for seat, mv in moves:
        g.apply(seat, mv)
    return g


def upto(stem, options, seed, moves, k, backend=None):
    return finish(Game(rules(stem), options, seed, backend=backend), moves[:k])


@pytest.mark.parametrize("stem,options", TABLES, ids=IDS)
@pytest.mark.parametrize("seed", [3, 41])
def test_a_clone_plays_on_as_the_original(stem, options, seed):
    result, final, moves = played(stem, options, seed)
    k = random.Random(seed).randrange(len(moves))  # the move to clone at
    g = upto(stem, options, seed, moves, k)
    c = g.clone()
    assert c is not g and c.st is not g.st and c.st.seats[0] is not g.st.seats[0]
    assert c.snapshot() == g.snapshot()
    assert c.current_seats() == g.current_seats() and c.legal_moves(c.current_seats()[0]) == \
        g.legal_moves(g.current_seats()[0])
    finish(c, moves[k:])
    assert c.is_over()
    assert c.result() == result
    assert c.snapshot() == final  # the same moves, the same state: log and payments included


@pytest.mark.parametrize("stem,options", TABLES, ids=IDS)
def test_playing_a_clone_leaves_the_original_alone(stem, options):
    seed = 3
    result, _, moves = played(stem, options, seed)
    k = len(moves) // 2
    g = upto(stem, options, seed, moves, k)
    before = json.dumps(g.snapshot(), ensure_ascii=False, sort_keys=True)
    c = g.clone()
    finish(c, moves[k:])
    c.st.seats[0].hand.clear()  # even a change by hand to the clone's state
    c.st.table["x"] = 1
    assert json.dumps(g.snapshot(), ensure_ascii=False, sort_keys=True) == before
    finish(g, moves[k:])
    assert g.result() == result


def test_a_clone_copies_every_declared_field_and_shares_no_mutable_memo():
    """A game's fields, its memos among them, are declared (`Game.__slots__`): nothing undeclared can be
    hung on it, and a clone copies each field. What a clone shares with its original is only what is
    made from the rule set alone; a memo of values that never change is a copy of the dict, and every
    other memo and each seat's memo is the clone's own."""
    _, _, moves = played("longyan", {"人数": 4}, 3)
    g = upto("longyan", {"人数": 4}, 3, moves, len(moves) // 2, backend="python")  # the reference's fields
    fields = snapshots.fields(Game)
    assert len(set(fields)) == len(fields) and snapshots.SHARED | snapshots.CACHES <= set(fields)
    assert {"_visible", "_free", "_last_rescore", "_wild_tiles", "_ranks", "_win_cache"} <= set(fields)
    with pytest.raises(AttributeError):
        g._undeclared_memo = {}
    assert g.st.seats[0].memo.meld_opts is not None or g.st.seats[0].memo.avail is not None  # filled by play
    c = g.clone()
    for k in fields:
        mine, theirs = getattr(c, k), getattr(g, k)
        if k in snapshots.SHARED:
            assert mine is theirs, k
        elif k in snapshots.CACHES:
            assert mine is not theirs and mine == theirs, k
        elif isinstance(theirs, (dict, list, set)) and theirs:
            assert mine is not theirs, k
    for seat, twin in zip(c.st.seats, g.st.seats):
        assert seat.memo is not twin.memo and seat.memo.meld_opts is None and seat.memo.waits is None
    assert c._free is None or c._free[0] is c._hand_wild  # a memo keyed by identity follows its key
    finish(c, moves[len(moves) // 2:])
    assert c.snapshot() == played("longyan", {"人数": 4}, 3)[1]


def test_the_program_and_its_indexes_are_the_rule_sets():
    """The compiled game program is declared on the rule set and shared by its games; its indexes (win
    actions by situation, the forms that split a hand into groups) are made when it is built."""
    r = rules("guobiao")
    a, b = Game(r, {}, 1), Game(r, {}, 2)
    assert a.prog is b.prog is r.game_program
    assert set(a.prog.win_actions) == {"self", "discard", "added_kong", "reveal", "deal", "opening"}
    assert a.prog.win_actions["discard"] and all(x.wins for xs in a.prog.win_actions.values() for x in xs)
    assert a.prog.group_forms == tuple(f.name for f in r.ir.forms if f.instant is None and not f.orphans)


@pytest.mark.parametrize("stem,options", TABLES, ids=IDS)
def test_restore_of_a_snapshot_round_trips(stem, options):
    seed = 41
    result, _, moves = played(stem, options, seed)
    for k in (0, len(moves) // 3, len(moves) - 1, len(moves)):
        g = upto(stem, options, seed, moves, k)
        snap = g.snapshot()
        text = json.dumps(snap, ensure_ascii=False)  # a snapshot is JSON and survives the trip
        assert json.loads(text) == snap
        assert snap["format"] == "paili.game" and snap["version"] == 1
        r = Game.restore(rules(stem), json.loads(text))
        assert r.snapshot() == snap
        assert r.decision == g.decision and r.current_seats() == g.current_seats()
        finish(r, moves[k:])
        assert r.result() == result


def test_restore_keeps_the_setup_of_the_hand():
    """A hand made with carried balances, a fixed dealer, a rigged wall and require_decision restores
    with each of them (the restored game refuses a move without a decision as the original does)."""
    r = rules("baijindao")
    g = Game(r, {}, 5, dealer=1, balances=[900, 1100], wall=["111m"], require_decision=True)
    legal = g.legal_moves(g.current_seats()[0])
    g.apply(g.current_seats()[0], legal[0])
    back = Game.restore(r, json.loads(json.dumps(g.snapshot())))
    assert back.st.dealer == 1 and [s.balance for s in back.st.seats] == [900, 1100]
    dealer = back.st.seats[1]  # the rigged head of the wall went to the dealer: three 一万, one perhaps discarded
    assert [t.name for t in dealer.hand + dealer.discards].count("一万") >= 3
    seat = back.current_seats()[0]
    with pytest.raises(IllegalMove, match="requires each move to say which decision"):
        back.apply(seat, Move(back.legal_moves(seat)[0].action, back.legal_moves(seat)[0].tiles))


def _tampered():
    _, _, moves = played("baicheng", {}, 3)
    g = upto("baicheng", {}, 3, moves, 30)
    base = json.loads(json.dumps(g.snapshot()))

    def change(f):
        s = json.loads(json.dumps(base))
        f(s)
        return s

    def swap_wall(s):
        s["wall"][0], s["wall"][-1] = s["wall"][-1], s["wall"][0]
        if s["wall"][0] == base["wall"][0]:
            s["wall"][0] = "一万" if s["wall"][0] != "一万" else "二万"

    def illegal_move(s):
        s["history"][5][1] = {"action": "discard", "tiles": ["不是牌"]}

    return base, {
        "a tile of the wall": swap_wall,
        "a balance": lambda s: s["seats"][0].__setitem__("balance", 5000),
        "a payment": lambda s: s["payments"].append({"name": "x", "event": "x", "payer": 0, "payee": 1,
                                                     "amount": 1, "fee": 0}),
        "an illegal move": illegal_move,
        "a move of another seat": lambda s: s["history"][0].__setitem__(0, (s["history"][0][0] + 1) % 4),
        "a seat number": lambda s: s["history"][0].__setitem__(0, 99),
        "a move that is not one": lambda s: s["history"][0].__setitem__(1, ["discard"]),
        "the seed": lambda s: s["setup"].__setitem__("seed", s["setup"]["seed"] + 1),
        "a seed that is text": lambda s: s["setup"].__setitem__("seed", "7"),
        "an unknown setup field": lambda s: s["setup"].__setitem__("code", "print(1)"),
        "a room option": lambda s: s["setup"]["options"].__setitem__("__import__", "os"),
        "a carried value that is not one": lambda s: s["setup"].__setitem__("table", {"x": {"code": "1"}}),
        "the version": lambda s: s.__setitem__("version", 2),
        "the variant": lambda s: s.__setitem__("variant", "baijindao"),
        "the history": lambda s: s.__setitem__("history", "moves"),
        "too many moves": lambda s: s.__setitem__("history", [[0, {"action": "pass"}]] * 20_001),
        "a value JSON cannot hold": lambda s: s.__setitem__("errors", [object()]),
        "a key that is not text": lambda s: s.__setitem__(7, "seven"),
    }, change


def test_a_tampered_snapshot_is_refused_with_one_sentence():
    base, cases, change = _tampered()
    r = rules("baicheng")
    assert Game.restore(r, base).snapshot() == base  # untouched, it restores
    for what, f in cases.items():
        with pytest.raises(SnapshotError) as e:
            Game.restore(r, change(f))
        msg = str(e.value)
        assert msg and "\n" not in msg and len(msg) < 300 and "Traceback" not in msg, what
    for junk in (None, [], "snapshot", {"format": "paili.game"}):
        with pytest.raises(SnapshotError):
            Game.restore(r, junk)


def _reaches(obj, target, seen=None, depth=0) -> bool:
    """Whether `target` can be reached from `obj` through attributes, dicts, lists, tuples and sets."""
    seen = set() if seen is None else seen
    if obj is target:
        return True
    if id(obj) in seen or depth > 12 or isinstance(obj, (str, int, float, bool, type(None))):
        return False
    seen.add(id(obj))
    if isinstance(obj, dict):
        items = list(obj.keys()) + list(obj.values())
    elif isinstance(obj, (list, tuple, set, frozenset)):
        items = list(obj)
    else:
        items = list(getattr(obj, "__dict__", {}).values())
        items += [getattr(obj, k) for k in getattr(type(obj), "__slots__", ()) if hasattr(obj, k)]
    return any(_reaches(x, target, seen, depth + 1) for x in items)


@pytest.mark.parametrize("stem,options", TABLES, ids=IDS)
def test_a_seat_is_plain_data_with_no_reference_to_its_game(stem, options):
    """Seats hold their tiles, melds and states; what expressions compute from them (`actor.waits`,
    `actor.melds`, …) the game works out, so no seat reaches the game."""
    _, _, moves = played(stem, options, 3)
    g = upto(stem, options, 3, moves, len(moves) // 2)
    for seat in g.st.seats:
        assert not _reaches(seat, g)
        assert not hasattr(seat, "game")


# every place a hand of a bundled variant waits (docs/engine.md, "Snapshots and clones": the step that asks
# and the kind of decision), and seeded hands of mixed bots that reach each of them
WAIT_POINTS = {("play_turn", "turn"), ("answers", "claim"), ("answers", "rob"), ("answers", "deal"),
               ("answers", "window"), ("after_discard", "self"), ("window", "window"), ("start_decisions", "deal")}
WAIT_SEEDS = {"baijindao": [1], "baicheng": [1, 6], "chehuzi": [1], "guobiao": [1], "longyan-4": [4, 7],
              "longyan-3": [1], "longyan-2": [7]}


def test_a_clone_taken_at_every_wait_point_plays_on_as_the_original():
    reached = set()
    for (stem, options), name in zip(TABLES, IDS):
        for seed in WAIT_SEEDS.get(name, [1]):
            result, final, moves = played(stem, options, seed)
            g = Game(rules(stem), options, seed)
            for k, (seat, mv) in enumerate(moves):
                point = (g.snapshot()["continuation"][-1]["step"], g.pending.kind)
                if point not in reached:
                    reached.add(point)
                    c = g.clone()
                    finish(c, moves[k:])
                    assert c.result() == result and c.snapshot() == final, (name, seed, point)
                g.apply(seat, mv)
    assert reached >= WAIT_POINTS, f"not reached: {sorted(WAIT_POINTS - reached)}"


def test_a_snapshot_carries_the_continuation():
    """While a decision is asked the snapshot holds the pending steps, outermost first: the hand, then
    the step that asks, with its locals as JSON (the seat to move, its offers); none once the hand is
    over. A continuation that the moves do not lead to is refused."""
    r = rules("guobiao")
    _, final, moves = played("guobiao", {}, 3)
    g = Game(r, {}, 3)
    snap = g.snapshot()
    steps = snap["continuation"]
    assert steps[0]["step"] == "hand" and steps[-1]["step"] == "play_turn"
    assert steps[-1]["locals"]["s"] == g.current_seats()[0] == g.st.dealer
    assert json.loads(json.dumps(snap, ensure_ascii=False)) == snap
    k = 0
    while g.pending.kind != "claim":  # up to a discard that another seat may claim
        finish(g, moves[k:k + 1])
        k += 1
    steps = g.snapshot()["continuation"]
    assert [s["step"] for s in steps[-3:]] == ["after_discard", "window_resolve", "answers"]
    assert moves[k - 1][1].action == "discard" and steps[-1]["locals"]["t"] == moves[k - 1][1].tiles[0]
    assert final["continuation"] == [] and final["over"]
    tampered = json.loads(json.dumps(g.snapshot()))
    tampered["continuation"][-1]["at"] += 1
    with pytest.raises(SnapshotError, match="continuation"):
        Game.restore(r, tampered)
