"""Payments: who pays whom, how much, and what the house withholds.

For each `payment` on an event that happened and whose `when` holds (evaluated per payer–payee pair,
with `payer` and `payee` bound): every pair the `from` and `to` words give — never a player to
themself — moves `amount` × every `factor` whose `when` holds. Zero amounts are skipped; a negative
amount is paid the other way. A `cap balance` bounds the amount by the payer's (or, `of payee`, the
payee's) balance at that moment, never below zero. Every `fee` withholds its rate of each amount from
what the payee receives; the house keeps it. So the balances always move by the payments' sum minus
the fees: they balance apart from the fee.

Payments whose event concerns a winner (`winner` in `from`/`to`, `each_loser`) are made once per
winner at an event of the hand once its play is over (`hand_end`, `settled` and the decisions they
open), with `winner` and `score` bound to that winner; at the events of one win (the winning action's
name, `win`, what they emit or open) only for that win's winner, even when one tile won for several.
"""
from __future__ import annotations

from fractions import Fraction

from ..evaluate import EvalError
from .records import ONE_WIN
from .state import Payment

_ERRORS = (EvalError, TypeError, KeyError, AttributeError, ValueError, ZeroDivisionError)


def _norm(v):
    if isinstance(v, Fraction) and v.denominator == 1:
        return int(v)
    return v


def payers(game, word: str, b: dict) -> list:
    seats = game.st.seats
    w = b.get("winner")
    match word:
        case "each_loser":
            return [s for s in seats if s is not w and s.index not in game.st.winners] if w is not None else []
        case "discarder":
            return [b["discarder"]] if b.get("discarder") is not None else []
        case "each":
            return list(seats)
        case "robbed":
            return [b["robbed"]] if b.get("robbed") is not None else []
        case "winner":
            return [w] if w is not None else []
        case "actor":
            return [b["actor"]] if b.get("actor") is not None else []
        case "dealer":
            return [seats[game.st.dealer]]
        case "each_in_play":
            return [s for s in seats if game.in_play(s.index)]
    raise ValueError(f"unknown payer word {word}")


def pairs(game, payer_word: str, payee_word: str, b: dict) -> list[tuple]:
    seats = game.st.seats
    if payer_word == "each_other" and payee_word == "each_other":
        return [(p, q) for p in seats for q in seats if p is not q]
    if payer_word == "each_other":
        return [(p, q) for q in payers(game, payee_word, b) for p in seats if p is not q]
    if payee_word == "each_other":
        return [(p, q) for p in payers(game, payer_word, b) for q in seats if p is not q]
    return [(p, q) for p in payers(game, payer_word, b) for q in payers(game, payee_word, b) if p is not q]


def settle(game, event: str, bind: dict, deferred: bool | None = None) -> None:
    """Make the payments on `event` (only those with `after` when deferred is True, only those
    without when False, all when None)."""
    prog = game.prog
    pays = prog.payments_on.get(event)
    if not pays:
        return
    st = game.st
    for p in pays:
        if deferred is not None and bool(p.ir.after) != deferred:
            continue
        per_winner = [bind]
        uses_winner = "winner" in (p.ir.payer, p.ir.payee) or p.ir.payer == "each_loser"
        # The events of one win (its action's name, `win`, what they emit or open) are that winner's
        # alone; an event of the hand once its play is over (`hand_end`, `settled`, their decisions) is
        # every winner's. (While the others play on after a win, `table winners_leave`, an event is no
        # winner's.)
        if uses_winner and st.winners and st.finished and not bind.get(ONE_WIN) and (
                bind.get("winner") is None or len(st.winners) > 1):
            per_winner = [{**bind, **game.winner_binding(w)} for w in st.winners]
        for b in per_winner:
            for payer, payee in pairs(game, p.ir.payer, p.ir.payee, b):
                env = game.env(**{**b, "payer": payer, "payee": payee})
                try:
                    if p.when is not None and not p.when(env):
                        continue
                    amount = p.amount(env)
                    for f in p.factors:
                        if f.when is None or f.when(env):
                            amount = amount * f.value(env)
                except _ERRORS as exc:
                    game.note_error(f"payment {p.name}: {exc}")
                    continue
                amount = _norm(amount)
                if amount < 0:  # a negative amount flows the other way
                    payer, payee, amount = payee, payer, -amount
                transfer(game, p.name, event, payer.index, payee.index, amount)


def transfer(game, name: str, event: str, payer: int, payee: int, amount) -> None:
    if amount == 0:
        return
    st = game.st
    for cap in game.rs.caps:
        bound = st.seats[payer if cap.of == "payer" else payee].balance
        amount = min(amount, max(bound, 0))
    if amount == 0:
        return
    fee = _norm(amount * game.fee_rate) if game.fee_rate else 0
    st.seats[payer].balance = _norm(st.seats[payer].balance - amount)
    st.seats[payee].balance = _norm(st.seats[payee].balance + amount - fee)
    st.deltas[payer] = _norm(st.deltas[payer] - amount)
    st.deltas[payee] = _norm(st.deltas[payee] + amount - fee)
    st.fees = _norm(st.fees + fee)
    st.payments.append(Payment(name, event, payer, payee, amount, fee))
