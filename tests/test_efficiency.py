"""The distance of a hand to its nearest winning form (runtime/distance.py) and the efficiency bot built on it
(runtime/game/bots.py): distances of known hands, the wanted tiles of a waiting hand are exactly its waits,
the bot's discards and its wins against greedy bots in a seeded sample (bench/bot_strength.py runs 400
games a field)."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from conftest import ROOT
from paili import load
from paili.runtime.distance import FAR, Distance
from paili.runtime.game import Game
from paili.runtime.game.bots import BOTS, EfficiencyBot, GreedyBot
from paili.runtime.game.simulate import seat_bots, simulate
from paili.runtime.hand import parse_tiles

_RULES = {}


def rules(name: str):
    if name not in _RULES:
        _RULES[name] = load(ROOT / "rules" / f"{name}.pai")
    return _RULES[name]


def measure(name: str):
    r = rules(name)
    cat, dec = r.catalog_for({})
    return r, cat, Distance(r.forms, dec)


def counts_of(r, cat, text: str) -> list[int]:
    counts = [0] * len(cat.kinds)
    for t in parse_tiles(r.notation, cat, text, "hand"):
        counts[t.index] += 1
    return counts


@pytest.mark.parametrize("hand, distance, wanted", [
    ("123456789m 11z 22z", 1, "1z 2z"),           # waits on either pair
    ("123456789m 111z 5z", 1, "5z"),              # four melds: the pair's partner
    ("1122334455667m", 1, "1m 4m 7m"),            # by melds and a pair (1, 4) or by seven pairs (7)
    ("11m 22m 33m 44m 55m 66m 7z", 1, "7z"),      # 123 123 456 456 or seven pairs: the single's partner
    # three two-tile runs and seven single honors: shanten 5 (8 - 3 partial runs), six tiles lacking
    ("1m 4m 7m 1z 2z 3z 4z 5z 6z 7z 2m 5m 8m", 6, "3m 6m 9m 1z 2z 3z 4z 5z 6z 7z"),
])
def test_known_hands_have_their_distance(hand, distance, wanted):
    r, cat, dist = measure("baijindao")
    d, kinds = dist.improving(counts_of(r, cat, hand), 0, 0)
    assert d == distance
    if wanted:
        assert [cat.kinds[k].code for k in kinds] == wanted.split()


def test_an_orphans_form_is_measured_by_the_kinds_it_lacks():
    r, cat, dist = measure("longyan")
    thirteen = counts_of(r, cat, "19m 19p 19s 1234567z")
    d, kinds = dist.improving(thirteen, 0, 0)
    assert d == 1 and len(kinds) == 13  # any of the thirteen kinds pairs up
    two_off = counts_of(r, cat, "19m 19p 1s 1234567z 5s")
    assert dist.distance(two_off, 0, 0) == 2
    one_wild = counts_of(r, cat, "19m 19p 1s 1234567z")
    assert dist.distance(one_wild, 1, 0) == 1  # a wildcard fills the missing kind


def test_melds_laid_down_leave_fewer_slots_and_rule_out_concealed_forms():
    r, cat, dist = measure("baijindao")
    # 10 concealed tiles and one meld: 3 melds and a pair to go; seven pairs is out with a meld laid down
    assert [(t.melds, t.pairs) for t in dist.targets(1, 10)] == [(3, 1)]
    assert [(t.melds, t.pairs) for t in dist.targets(0, 13)] == [(4, 1), (0, 7)]
    assert dist.targets(0, 14) == [] and dist.distance([0] * len(cat.kinds), 0, 0) == FAR


def test_wanted_tiles_of_a_waiting_hand_are_exactly_its_waits():
    """Differential against the rule set's own win check: for seeded random hands of a rule set whose wins are
    pure splits, the hand waits (distance 1) exactly when some tile completes it, and the tiles the
    distance says it wants are exactly those tiles."""
    r, cat, dist = measure("baijindao")
    pool = [k.index for k in cat.kinds for _ in range(k.copies)]
    rng = random.Random(5)
    for _ in range(300):
        counts = [0] * len(cat.kinds)
        # a hand near a win: four groups and a pair drawn from the shapes, then one tile dropped
        for k in rng.sample(pool, 13):
            counts[k] += 1
        d, kinds = dist.improving(counts, 0, 0)
        wins = []
        for k in cat.kinds:
            if counts[k.index] < k.copies:
                counts[k.index] += 1
                if r.check_win(counts):
                    wins.append(k.index)
                counts[k.index] -= 1
        assert (d == 1) == bool(wins) and d >= 1
        if d == 1:
            assert kinds == wins

    for _ in range(200):
        counts = Counter()
        while sum(counts.values()) < 14:
            counts = Counter()
            kinds_ = [k.index for k in cat.kinds]
            for _ in range(4):
                k = rng.choice(kinds_)
                if rng.random() < 0.5 and cat.kinds[k].suit and cat.kinds[k].rank <= 7:
                    counts.update([k, k + 1, k + 2])
                else:
                    counts.update([k] * 3)
            counts.update([rng.choice(kinds_)] * 2)
            if any(c > cat.kinds[k].copies for k, c in counts.items()):
                counts = Counter()
        drop = rng.choice(sorted(counts.elements()))
        counts[drop] -= 1
        vec = [counts[k.index] for k in cat.kinds]
        d, kinds = dist.improving(vec, 0, 0)
        wins = []
        for k in cat.kinds:
            if vec[k.index] < k.copies:
                vec[k.index] += 1
                if r.check_win(vec):
                    wins.append(k.index)
                vec[k.index] -= 1
        assert d == 1 and kinds == wins and drop in wins


def deal(name: str, seed: int, dealer_hand: str, other_hand: str, **kw) -> Game:
    """A two-player game whose hands are dealt as given (docs/engine.md: each hand from the wall's head in
    play order from the dealer, then the dealer's extra tile)."""
    r = rules(name)
    cat = r.catalog_for({})[0]
    d = [t.code for t in parse_tiles(r.notation, cat, dealer_hand, "hand")]
    o = [t.code for t in parse_tiles(r.notation, cat, other_hand, "hand")]
    order = d[:13] + o + d[13:]
    return Game(r, {}, seed, wall=" ".join(order), **kw)


def test_the_bot_discards_the_tile_that_keeps_it_waiting():
    g = deal("baijindao", 3, "123456789m 11z 22z 5z", "1199m 3344z 66z 777z")
    seat = g.current_seats()[0]
    assert seat == g.st.dealer and not g.hand_wild_names & {"白", "东", "南"}
    move = EfficiencyBot(1).choose(g, seat, g.legal_moves(seat))
    assert (move.action, move.tiles) == ("discard", ("白",))


def test_the_bot_takes_a_win_when_offered():
    g = deal("baijindao", 3, "123456789m 11z 222z", "1199m 3344z 66z 777z")
    seat = g.current_seats()[0]
    moves = g.legal_moves(seat)
    wins = [m for m in moves if g.prog.actions.get(m.action) is not None and g.prog.actions[m.action].wins]
    assert wins
    assert EfficiencyBot(1).choose(g, seat, moves) == wins[0]


def test_seat_bots_are_named_once_or_per_seat():
    assert seat_bots("efficiency", 3) == ["efficiency"] * 3
    assert seat_bots("efficiency, greedy", 2) == ["efficiency", "greedy"]
    assert "efficiency" in BOTS and BOTS["efficiency"] is EfficiencyBot and issubclass(EfficiencyBot, GreedyBot)
    from paili.runtime.game import GameError

    with pytest.raises(GameError, match="2 bots named for 4 seats"):
        seat_bots("efficiency,greedy", 4)
    with pytest.raises(GameError, match="unknown bot 'clever'"):
        seat_bots("clever", 4)


@pytest.mark.parametrize("variant, games", [("baicheng", 12), ("baijindao", 24), ("chehuzi", 24)])
def test_the_efficiency_bot_wins_more_than_greedy_bots_at_one_table(variant, games):
    """A seeded sample of bench/bot_strength.py: the efficiency bot at seat 1, greedy bots at the others."""
    n = Game(rules(variant), {}, 0).n
    names = ["greedy"] * n
    names[1] = "efficiency"
    s = simulate(rules(variant), games, 3, names)
    assert s["bots"] == names and s["invariant_violations"] == 0
    others = [w for i, w in enumerate(s["wins_by_seat"]) if i != 1]
    assert s["wins_by_seat"][1] > max(others)
    again = simulate(rules(variant), games, 3, names)  # seeded: the same games again
    assert again["wins_by_seat"] == s["wins_by_seat"] and again["event_counts"] == s["event_counts"]


def test_every_bundled_variant_plays_with_efficiency_bots():
    for variant in ("baijindao", "baicheng", "longyan", "guobiao", "chehuzi"):
        s = simulate(rules(variant), 2, 9)
        assert s["bots"][0] == "efficiency" and set(s["bots"]) == {"efficiency"}
        assert s["invariant_violations"] == 0 and s["wins"] + s["draws"] == 2
    s = simulate(rules("longyan"), 2, 9, options={"人数": 2})
    assert s["bots"] == ["efficiency", "efficiency"] and s["invariant_violations"] == 0


def test_simulate_says_which_bots_played_and_shows_no_bar_off_a_terminal(capsys):
    """The summary's first line names the bots; stderr is not a terminal here, so no progress bar."""
    from paili.dsl.cli_game import main

    assert main(["simulate", "baijindao", "--games", "2", "--seed", "1"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0] == "bots: efficiency at every seat" and err == ""
    assert main(["simulate", "baijindao", "--games", "2", "--bots", "greedy,efficiency", "--json"]) == 0
    out, err = capsys.readouterr()
    import json

    assert json.loads(out)["bots"] == ["greedy", "efficiency"] and err == ""
    assert main(["simulate", "baicheng", "--games", "1", "--bots", "greedy,efficiency"]) == 2
    assert "2 bots named for 4 seats" in capsys.readouterr().err


def test_a_ready_shape_without_real_waits_turns_the_bot_to_value():
    """国标 asks 8 fans of a win (a requirement its waits do not see): a hand ready by shape none of whose
    waits would score 8 fans shows it, and the bot plays for value from then on (`gated`): here seat 2
    wins by pungs (碰碰和, 箭刻, 幺九刻); 白金岛 asks nothing more than shape, so it never does."""
    from paili.runtime.game.bots import play

    g = Game(rules("guobiao"), {}, 1)
    players = [EfficiencyBot(10 + i) for i in range(g.n)]
    res = play(g, players)
    assert res["winners"] == [2]
    assert {f["pattern"] for f in res["scores"][2]["fans"]} >= {"碰碰和", "箭刻", "幺九刻"}
    assert [b.gated for b in players] == [True, False, True, True]
    for seed in range(3):
        g = Game(rules("baijindao"), {}, seed)
        players = [EfficiencyBot(seed * 10 + i) for i in range(g.n)]
        play(g, players)
        assert not any(b.gated for b in players)



def test_the_groups_that_score_are_the_valued_shapes_or_else_the_identical_ones():
    """The value mode's measure: 扯胡子 declares 胡息 values on its hand shapes (its plain runs and mixed
    ranks worth 0), 国标 declares none, so its groups of identical tiles count."""
    from paili.runtime.game.group_values import valued_kinds

    assert valued_kinds(Game(rules("chehuzi"), {}, 1).rs) == {"坎", "倾", "一二三", "二七十"}
    assert valued_kinds(Game(rules("guobiao"), {}, 1).rs) == {"刻子"}


def test_every_declared_decision_is_decided_by_the_stated_policy():
    """docs/engine.md, "Bots" (the declared decisions of the bundled variants): on seeded games of every
    bundled variant — the efficiency bot at seat 0, mixed bots (which make the offers greedy never makes:
    起始加倍, claims of every kind) at the others — each decision of the efficiency seat follows the
    stated policy: a win offered is taken, or given up only for a discard while it holds a wildcard (the
    游金 rule); an `instead_of` alternative to a win (加倍) never; a ready declaration (报听, 立直) exactly
    when its waits have READY_LIVE live tiles, the first offered; a hand-end choice (起始加倍) and an
    answer to another seat's decision (应答起始加倍) are passed. Every kind is met in the sample."""
    from paili.runtime.game.bots import READY_LIVE, MixedBot
    from paili.runtime.game.moves import PASS

    class Proposer(MixedBot):  # mixed, but it always makes a hand-end choice offered (起始加倍): the answer comes
        def choose(self, game, seat, moves):
            chosen = [m for m in moves if (a := game.prog.actions.get(m.action)) is not None and a.ir.choices]
            return chosen[0] if chosen else super().choose(game, seat, moves)

    seen = Counter()
    for variant, options, games in (("baijindao", {}, 14), ("longyan", {}, 12), ("chehuzi", {}, 3),
                                    ("baicheng", {}, 2), ("guobiao", {}, 2)):
        for gi in range(games):
            g = Game(rules(variant), options, 40 + gi)
            bots = [EfficiencyBot(gi)] + [Proposer(gi * 7 + s) for s in range(1, g.n)]
            prog = g.prog
            while not g.is_over():
                seat = g.current_seats()[0]
                moves = g.legal_moves(seat)
                move = bots[seat].choose(g, seat, moves)
                if seat == 0:
                    acts = {m.action: prog.actions.get(m.action) for m in moves}
                    wins = [m for m in moves if acts[m.action] is not None and acts[m.action].wins]
                    s = g.st.seats[0]
                    if wins:
                        if move in wins:
                            seen["win taken"] += 1
                        else:
                            assert move.action == "discard" and any(t.name in g.hand_wild_names for t in s.hand)
                            seen[f"{variant}: win given up to wait on any tile"] += 1
                    for name, a in acts.items():
                        if a is None:
                            continue
                        if a.ir.instead_of:
                            assert move.action != name
                            seen[f"{variant}: {name} ({a.ir.instead_of} taken instead)"] += 1
                        elif not wins and not a.forms and not a.wins and (a.ir.ready or a.ir.then == "auto"):
                            live = sum(max(0, k.copies - g.visible_count(k) - sum(t.name == k.name for t in s.hand))
                                       for k in g.waits(s))
                            ready = [m for m in moves if (b := acts[m.action]) is not None and not b.forms
                                     and not b.wins and (b.ir.ready or b.ir.then == "auto")]
                            assert (move == ready[0]) == (live >= READY_LIVE)
                            seen[f"{variant}: {name} {'declared' if move.action == name else 'not declared'}"] += 1
                        elif a.ir.choices or a.ir.on in prog.actions:
                            assert PASS in moves and move == PASS
                            seen[f"{variant}: {name} passed"] += 1
                g.apply(seat, move)
    assert seen["win taken"] > 10, seen
    for kind in ("baijindao: 加倍 (胡 taken instead)", "baijindao: 报听 declared", "baijindao: 报听 not declared",
                 "baijindao: 起始加倍 passed", "baijindao: 应答起始加倍 passed",
                 "longyan: win given up to wait on any tile"):
        assert seen[kind] > 0, (kind, seen)


def test_a_bot_reused_across_rule_sets_plays_each_as_a_fresh_bot_would():
    """An efficiency bot's state (`gated`, its memo of winning waits keyed by tiles, the native policy's
    memo keyed by catalog indices) belongs to one rule set: the same bots alternating between 国标's and
    白金岛's games (国标 turns some to value, 白金岛 never) choose every move a fresh bot per rule set does."""
    from paili.runtime.game.bots import play

    def moves(game, bots):
        seen = []

        class Logged:
            def __init__(self, bot):
                self.bot = bot

            def choose(self, game, seat, legal):
                m = self.bot.choose(game, seat, legal)
                seen.append((seat, m))
                return m

        play(game, [Logged(b) for b in bots])
        return seen

    names = ["guobiao", "baijindao"]
    shared = [EfficiencyBot(i) for i in range(4)]
    fresh = {name: [EfficiencyBot(i) for i in range(4)] for name in names}
    played = 0
    for seed in (1, 2):
        for name in names:
            a, b = Game(rules(name), {}, seed), Game(rules(name), {}, seed)
            assert moves(a, shared[:a.n]) == moves(b, fresh[name][:b.n])
            played += 1
    assert played == 4 and any(b.gated for b in fresh["guobiao"])


def test_a_bot_keeps_its_state_for_at_most_eight_rule_sets_and_forgets_the_first_made():
    """Past `STATES` rule sets the state made first is dropped: that rule set starts afresh (its `gated`
    and memo gone), while the others keep theirs; asking again for a kept one gives the same state."""
    from types import SimpleNamespace

    from paili.runtime.game.bot_state import STATES, RuleSetStates

    states = RuleSetStates()
    games = [SimpleNamespace(rs=object(), dec=object()) for _ in range(STATES + 1)]
    made = []
    for g in games[:STATES]:
        st = states.of(g)
        st.gated = True
        st.wins["seen"] = 1.0
        made.append(st)
    assert [states.of(g) for g in games[:STATES]] == made  # kept, one per rule set and catalog
    states.of(games[STATES])  # the ninth: the first made is dropped
    assert len(states.by_id) == STATES
    again = states.of(games[0])
    assert again is not made[0] and not again.gated and again.wins == {}
    assert states.of(games[2]) is made[2] and made[2].gated  # the second made was dropped by the first's return
    assert states.of(games[1]) is not made[1]
    same_rs_other_catalog = SimpleNamespace(rs=games[3].rs, dec=object())
    assert states.of(same_rs_other_catalog) is not made[3]
