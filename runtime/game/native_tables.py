"""The learning environment's calls on native games: many games of one rule set and room options at once
(env.py `Tables`), each one native call over every game's native hand (engine/observe.rs
`EngineObserver.encode_many`, `act_many`, `step_many`), and one game's step with its next arrays written
into rows the caller keeps (env.py `PailiEnv.step`, `act_into`); each with the games' own bookkeeping
after it (`NativeGame.took`)."""
from __future__ import annotations

from .records import IllegalMove
from .refusals import seat_arg


def encode_many(games: list, seats: list[int], layout_json: str):
    """`NativeGame.encoded` of many native games of one rule set and room options in one native call
    (`games` not played on in Python): the observation vectors as float32 bytes [T, D], per action slot the
    index of the legal move it stands for or -1 as int32 bytes [T, A], and per game whether it was encoded
    (false: left zero, for the caller to encode `observation(seat)`)."""
    first = games[0]
    return first.observer(layout_json).encode_many([g.engine_hand for g in games],
                                                   [seat_arg(first.n, s) for s in seats])


def act_many(games: list, seats: list[int], actions: list[int], layout_json: str) -> int | None:
    """The learning environment's action `actions[i]` taken at every game i by seat `seats[i]` (`games`:
    native games of one rule set and room options whose moves go to the native hand alone, `by_number`),
    in one native call (engine/observe.rs `act_many`). Every action is checked first: the position of the
    first that names no legal move is returned and nothing is applied; else None. A move the native hand
    refuses once checked raises `IllegalMove` (the moves before it applied)."""
    first = games[0]
    took, refused, why = first.observer(layout_json).act_many([g.engine_hand for g in games], seats, actions)
    if refused is not None:
        return refused
    for g, seat, t in zip(games, seats, took):
        g.took(seat, t)
    if why is not None:
        raise IllegalMove(why)
    return None


def step_many(games: list, seats: list[int], actions: list[int], layout_json: str, hands: list | None = None):
    """`act_many`, then every game's arrays for the seat it then waits on first, in one native call
    (engine/observe.rs `step_many`; `games` as for `act_many`). The position of the first action that names
    no legal move (nothing applied) and None; else None and (the vectors as float32 bytes [T, D], the
    masks as int8 bytes [T, A], per game the seat it waits on first or -1, per game whether its arrays were
    filled — false: a hand over, stopped, or not answered natively, left zero for the caller). A move the
    native hand refuses once checked raises `IllegalMove` (the moves before it applied). `hands`: the
    games' native hands, where the caller has them at hand."""
    first = games[0]
    took, refused, why, obs, masks, nxt, filled = first.observer(layout_json).step_many(
        hands if hands is not None else [g.engine_hand for g in games], seats, actions)
    if refused is not None:
        return refused, None
    for g, seat, t in zip(games, seats, took):
        g.took(seat, t)
    if why is not None:
        raise IllegalMove(why)
    return None, (obs, masks, nxt, filled)


def act_into(g, seat: int, action: int, observer, obs: bytearray, masks: bytearray, row: int):
    """`NativeGame.act_into` of game `g` (native_views.py): its action taken and the next seat's arrays
    written into row `row` of arrays the caller keeps."""
    return g.act_into(seat, action, observer, obs, masks, row)
