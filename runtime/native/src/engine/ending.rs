//! The hand's end when no one has won, natively (runtime/game/ending.py `_s_exhaust`, `_s_hand_end`):
//! the wall run out, the `exhaust`, `hand_end` and `settled` events, the next dealer (`next_dealer`).
//! The end after a win (the winners' bindings, the final scoring) is step 9: refused by name.

use serde_json::Value as J;

use super::scope::{bound_defaults, GameScope, WinQuestions};
use super::steps::{Bound, Out, Res, Step, Val};
use super::table::Table;
use super::course::{not_ported, Cx};
use super::values::{hand_wilds, Ev};
use crate::program::V;

/// What the hand's end evaluates: `next_dealer` (lowered for game scope), if the table declares one.
pub struct EndRules {
    scope: GameScope,
    next_dealer: bool,
}

impl EndRules {
    pub fn new(t: &Table, ruleset_json: &str, wins: &dyn WinQuestions) -> EndRules {
        let doc: J = serde_json::from_str(ruleset_json).unwrap_or(J::Null);
        let e = doc.pointer("/ruleset/table/next_dealer").filter(|x| !x.is_null()).cloned();
        let exprs: Vec<J> = e.into_iter().collect();
        EndRules { next_dealer: !exprs.is_empty(), scope: GameScope::new(t, &exprs, wins) }
    }
}

/// `_s_exhaust`.
pub fn exhaust(cx: &mut Cx, f: &mut Step) -> Res<Out> {
    let Step::Exhaust { at } = f else { unreachable!() };
    match *at {
        0 => {
            let st = &mut cx.h.st;
            st.exhausted = true;
            st.finished = true;
            if !st.winners.is_empty() {
                return Err(not_ported("exhaust", "the wall run out after a win"));
            }
            // (a hand no one drew in binds `actor` to none: the same value as leaving it unbound)
            let b = Bound::at(st.last_drawer, None);
            *at = 1;
            if let Some(c) = cx.event("exhaust", &b)? {
                return Ok(Out::Call(c));
            }
            *at = 2;
            Ok(Out::Call(Step::HandEnd { at: 0 }))
        }
        1 => {
            *at = 2;
            Ok(Out::Call(Step::HandEnd { at: 0 }))
        }
        _ => Ok(Out::Done(Val::None)),
    }
}

/// `_s_hand_end`.
pub fn hand_end(cx: &mut Cx, f: &mut Step) -> Res<Out> {
    let Step::HandEnd { at } = f else { unreachable!() };
    if !cx.h.st.winners.is_empty() {
        return Err(not_ported("hand_end", "the hand's end after a win"));
    }
    if *at == 0 {
        *at = 1;
        if let Some(c) = cx.event("hand_end", &Bound::none())? {
            return Ok(Out::Call(c));
        }
    }
    if *at == 1 {
        *at = 2;
        if let Some(c) = cx.event("settled", &Bound::none())? {
            return Ok(Out::Call(c));
        }
    }
    let e = cx.e;
    let mut nd = cx.h.st.dealer;
    if e.end.next_dealer {
        if let Some(Err(why)) = e.end.scope.exprs.first() {
            return Err(why.clone());
        }
        let st = &cx.h.st;
        let wins = e.w.on(e.t, st, e.hand);
        let wild = hand_wilds(e.t, st);
        let mut ev = Ev::new(&e.end.scope, e.t, st, &wild, &wins, bound_defaults());
        let got = ev.expr(0);
        if let Some(w) = wins.take_declined() {
            return Err(format!("a win question the native machinery declines ({w})"));
        }
        match got {
            Ok(V::Seat(s)) => nd = s as usize,
            Ok(_) => {}
            Err(_) => return Err("the native hand stopped where the reference notes an error (next_dealer)".into()),
        }
    }
    cx.h.st.next_dealer = Some(nd);
    Ok(Out::Done(Val::None))
}
