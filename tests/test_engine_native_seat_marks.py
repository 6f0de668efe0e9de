"""A seat's kept wait answers across the moves of one native hand (runtime/native/src/engine/winning/
seat_memo.rs): the entries are kept for the seat's melds and tiles set aside, compared by their marks
(state.rs `Tracked`) once found equal, so a meld laid down — which moves the mark — drops the answers
kept for the melds before. 风雷白城 hands with efficiency bots, which claim and ask the waits of the hand
they keep at every draw (`听牌`), are played move by move beside the reference: an answer kept across a
meld it missed would set `听牌` (and the scoring that reads it) otherwise, a different state."""
from __future__ import annotations

from conftest import ROOT, native_engine_only
from native_lockstep import lockstep, seeded_bots
from paili import load
from paili.runtime.game.native_play import PlayCheck

pytestmark = native_engine_only()

CLAIMS = {"吃", "碰", "明杠", "宝明杠"}


def test_kept_waits_follow_the_melds_a_seat_lays_down_in_play():
    check = PlayCheck(load(ROOT / "rules/baicheng.pai", backend="native"), {})
    crossed = 0  # draws of a seat after it laid down a claimed meld: its kept entries crossed a change
    for seed in (2, 5):
        melded: set[int] = set()
        for g, _p, seat, _moves, mv in lockstep(check, seed, seeded_bots("efficiency", seed)):
            if mv.action in CLAIMS:
                melded.add(seat)
            elif seat in melded and g.st.seats[seat].drawn is not None:
                crossed += 1
    assert crossed >= 5
