"""`Rules.score` of a hand given as text, read and scored in one native call (runtime/native/src/batch/
lane.rs): the texts read by the native tables and checked as `build_hand` checks them, the hand scored
as `NativeHands.call` scores it, and the `Hand` then made of the kinds read — the Python notation, the
meld checks and the hand's encoding for the native call are not run again per call.

Only a hand the native batch scorer takes is taken (the same context, `NativeHands.batch_context`):
for any other — a mistake in a text, a tile not in play, a meld the Python side has not taken, waits the
native trials decline, a hand the native scoring hands back — the lane answers None and the caller
reads and scores the hand as before, which says what is wrong, or scores it, and counts it. What the
lane scores is counted as `call` counts it, and its result object is `NativeHands.result`'s: the same
result, the same `Rules.stats()`."""
from __future__ import annotations

from .hand import Hand, HandError, Meld
from .limits import HAND_WORK
from .nativecounts import encode
from .nativehand import NO_READING

LANES_KEPT = 1024  # contexts whose lane a rule set's native hands keep (the table starts over past it)

# runtime/hand_score.py's Scoring, runtime/result.py's ScoreResult and runtime/laneresult.py's LaneEvaluation,
# imported at first use (a native batch never uses the lane) and kept
_LATE: list = []


def _late() -> list:
    from .hand_score import Scoring
    from .laneresult import LaneEvaluation
    from .result import ScoreResult

    _LATE[:] = [Scoring, ScoreResult, LaneEvaluation]
    return _LATE


class LaneCall:
    """The lane of one context, with what a hand it reads needs to become a Python `Hand` and `Scoring`;
    called, it is the callable the lane asks for the waits its trials decline (one object per context,
    not closures per call). `made`: the `Scoring` such a question made for the hand being scored, which
    the call then takes (a hand's waits are never asked while another hand of the lane is scored)."""

    __slots__ = ("lane", "cat", "dec", "env", "rules", "self_drawn", "made", "spent")

    def __init__(self, lane, cat, dec, env):
        self.lane = lane
        self.cat, self.dec, self.env = cat, dec, env
        self.rules = None
        self.self_drawn = False
        self.made = None
        self.spent = 0

    def scoring(self, rules, read: tuple, self_drawn: bool):
        """The hand's `Scoring`, its `Hand` made of the kinds the lane read."""
        concealed, meld_kinds, win_kind, flowers = read
        kinds = self.cat.kinds
        at = kinds.__getitem__
        h = Hand(list(map(at, concealed)), [Meld(k, list(map(at, ts))) for k, ts in meld_kinds],
                 kinds[win_kind] if win_kind >= 0 else None, self_drawn, list(map(at, flowers)))
        return (_LATE or _late())[0](rules, self.cat, self.dec, self.env, h)

    def __call__(self, read: tuple, shape: bool, left: int):  # as `NativeHands.call`'s waits
        sc = self.made
        if sc is None:
            sc = self.made = self.scoring(self.rules, read, self.self_drawn)
        work = sc.work
        work[0] = left
        got = sc.waits_of_hand(shape=shape)
        self.spent += left - work[0]
        return encode(got), work[0]


class Lanes:
    """The lane of each context (by its environment, which contexts keep and only read) of one
    `NativeHands`, made at the context's first hand; None for a context the native batch does not take."""

    def __init__(self, hands, mod):
        self.hands = hands
        self.cls = getattr(mod, "Lane", None)  # (an extension built before the lane has none)
        self.kept: dict[int, tuple] = {}

    def lane(self, rules, cat, dec, env) -> LaneCall | None:
        got = self.kept.get(id(env))
        if got is None or got[0] is not env:
            ctx = self.hands.batch_context(rules, cat, env) if self.cls is not None else None
            lane = None
            if ctx is not None:
                try:
                    lane = LaneCall(self.cls(ctx), cat, dec, env)
                except (ValueError, TypeError):  # a context it cannot hold: the usual path scores its hands
                    lane = None
            if len(self.kept) >= LANES_KEPT:
                self.kept.clear()
            got = self.kept[id(env)] = (env, lane)  # holding the environment keeps its id its own
        return got[1]


def lane_score(rules, env_for: tuple, hand, melds, win, self_drawn):
    """`Rules.score_in(env_for, hand, melds, win, self_drawn)` by the lane (no work list given), or None
    where the usual path must read or score the hand."""
    if self_drawn is not True and self_drawn is not False:  # the native call takes a bool only
        return None
    cat, dec, env = env_for
    if rules.fast is None or len(rules.forms) != len(rules.ir.forms):
        # the lane's batch context scores by every form; a copy winning by some forms alone (`with_forms`)
        # names its forms per call on the usual path
        return None
    hands = rules.native_hands_for(cat, dec)
    if hands is None:
        return None
    lanes = hands.lanes
    if lanes is None:
        lanes = hands.lanes = Lanes(hands, hands.counts.mod)
    call = lanes.lane(rules, cat, dec, env)
    if call is None:
        return None
    call.rules = rules
    call.self_drawn = self_drawn
    try:
        got = call.lane.score(hand, melds, win, self_drawn, call)
    finally:
        made = call.made  # the hand's Scoring, where a question for waits made it
        if made is not None:
            call.made = None
            spent = call.spent
            call.spent = 0
    if got is None:
        return None
    status, left, answered, x, lh = got
    Scoring, ScoreResult, Evaluation = _LATE or _late()
    if status == 0 and made is None and not (melds and rules.wilds):
        # scored, the hand not read by Python yet: its `Hand` and `Scoring` are made when the result is
        # first read beyond its score (a caller reading the score never makes them). A hand with
        # laid-down melds under a rule set with wildcards is made now: `refuse_wild_melds` reads it.
        hands.count_natural()
        if answered:
            hands.count_answered(answered)
        won, considered, rejected, score, total, best = x
        ev = Evaluation((rules, call, self_drawn, left, lh, hands), score, total, best)
        if won:
            return ScoreResult(True, "", ev, considered, rejected)
        return ScoreResult(False, rejected[0].split(": ", 1)[1], ev, 0, rejected)
    if made is None:
        sc = call.scoring(rules, lh.read(), self_drawn)
        spent = 0
    else:
        sc = made
    sc.refuse_wild_melds()  # (a hand the lane takes holds no tile that may be wild: it never refuses)
    # as `NativeHands.call` records the hand it scored or handed back
    hands.count_natural()
    work = sc.work
    found = lh.found()
    hands.keep_waits(sc, found + (answered,))
    spent += found[2]
    if status == 3:
        work[0] = HAND_WORK - spent
        hands.fell_back(x)
        return sc.run(native=False)  # the Python path, as `Scoring.run` goes on when the call hands back
    work[0] = left
    if status == 2:
        raise HandError(x)
    if status == 1:
        hands.last_text = None
        return ScoreResult(False, NO_READING)
    return hands.result(sc, lh.payload())


__all__ = ["LANES_KEPT", "LaneCall", "Lanes", "lane_score"]
