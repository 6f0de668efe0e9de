"""A hypothesis state machine plays random legal moves of whole hands and checks, after every step,
the engine's invariants, and that a refused move leaves the state exactly as it was."""
from functools import cache

from conftest import ROOT
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from paili import load
from paili.runtime.game.flow import Game, IllegalMove
from paili.runtime.game.moves import Move


@cache
def rules(stem):
    return load(ROOT / "rules" / f"{stem}.pai")


class PlayHand(RuleBasedStateMachine):
    @initialize(stem=st.sampled_from(["baijindao", "baicheng"]), seed=st.integers(0, 10_000))
    def deal(self, stem, seed):
        self.game = Game(rules(stem), {}, seed)

    @precondition(lambda self: not self.game.is_over())
    @rule(data=st.data())
    def play_a_legal_move(self, data):
        seat = data.draw(st.sampled_from(self.game.current_seats()))
        move = data.draw(st.sampled_from(self.game.legal_moves(seat)))
        self.game.apply(seat, move)

    @precondition(lambda self: not self.game.is_over())
    @rule(data=st.data())
    def a_refused_move_changes_nothing(self, data):
        g = self.game
        acting = g.current_seats()
        idle = [s for s in range(len(g.st.seats)) if s not in acting]
        before = g.snapshot()
        if idle and data.draw(st.booleans()):
            seat, move = data.draw(st.sampled_from(idle)), Move("discard", ("一万",))
        else:
            seat = data.draw(st.sampled_from(acting))
            legal = set(g.legal_moves(seat))
            move = next(m for m in (Move("discard", ("不存在",)), Move("no-such-action"), Move("pass", ("x",)))
                        if m not in legal)
        try:
            g.apply(seat, move)
        except IllegalMove as exc:
            assert str(exc) and "\n" not in str(exc)
        else:
            raise AssertionError(f"{move} by seat {seat} was accepted")
        assert g.snapshot() == before

    @rule(seat=st.integers(0, 3))
    def observations_hide_other_hands(self, seat):
        g = self.game
        seat %= len(g.st.seats)
        obs = repr(g.observation(seat))
        for other in g.st.seats:
            if other is not g.st.seats[seat] and len(other.hand) >= 4:
                hidden = "".join(sorted(t.name for t in other.hand))
                assert hidden not in obs

    @invariant()
    def no_invariant_is_broken(self):
        if hasattr(self, "game"):
            assert self.game.violations == []
            assert self.game.check_invariants() == []


PlayHand.TestCase.settings = settings(max_examples=10, stateful_step_count=40, deadline=None,
                                      derandomize=True, suppress_health_check=[HealthCheck.too_slow])
TestPlayHand = PlayHand.TestCase
