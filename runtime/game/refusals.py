"""Why a move is refused: the checks `Game.apply` makes of a seat and a move before it changes anything,
in their order, with their sentences. One place for both backends (`flow.Game`, runtime/game/native_game.py),
so a move is refused with the same sentence on each."""
from __future__ import annotations

from .arguments import kind_of
from .moves import Move, check_move, describe
from .records import Ask, IllegalMove


def num_text(n: int) -> str:
    return str(n) if n.bit_length() <= 64 else "a very large number"


def seat_arg(n: int, seat) -> int:
    """A seat given by a caller: an int (not a bool, not a float) of a game of n seats; IllegalMove otherwise."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise IllegalMove(f"a seat is a whole number from 0 to {n - 1}, not {kind_of(seat)}")
    if not 0 <= seat < n:
        shown = seat if seat.bit_length() <= 64 else "a very large number"
        raise IllegalMove(f"seat {shown} is not a seat of this game (seats 0 to {n - 1})")
    return int(seat)


def refusal(game, seat: int, move, over: bool, ask: Ask | None) -> tuple[Move, str | None]:
    """`Game.apply`'s checks of a move for seat (already checked), in its order, on `game`'s decision
    (`decision`, `require_decision`, `answers`, `current_seats`), whether the hand is `over` and the
    decision asked: the move to apply (a move without its meld kind stands for the one legal move with
    the same action, tiles and choice) and None, or the sentence refusing it."""
    bad = check_move(move)
    if bad is not None:
        return move, bad
    if over:
        return move, "the hand is over, so no move can be applied"
    if ask is None:
        return move, "no decision is asked now"
    if move.decision is None and game.require_decision:
        return move, ("this game requires each move to say which decision it answers (take the moves "
                      "from legal_moves)")
    if move.decision is not None and move.decision != game.decision:
        return move, (f"`{describe(move)}` answers decision {num_text(move.decision)}, which is over "
                      f"(the decision now asked is {game.decision})")
    if seat not in ask.options or seat in game.answers:
        return move, (f"seat {seat} may not act now (waiting for seat "
                      f"{', '.join(map(str, game.current_seats()))})")
    legal = ask.options[seat]
    if move not in legal and move.meld is None:
        # a move without its meld kind (a log written before moves named it, or a caller that
        # leaves it out) stands for the one legal move with the same action, tiles and choice
        same = [m for m in legal if m.meld is not None and m.without_meld() == move]
        if len(same) == 1:
            move = same[0]
    if move not in legal:
        shown = ", ".join(map(str, legal[:12])) + (f" and {len(legal) - 12} more" if len(legal) > 12 else "")
        return move, f"`{describe(move)}` is not a legal move for seat {seat} now (legal: {shown})"
    return move, None
