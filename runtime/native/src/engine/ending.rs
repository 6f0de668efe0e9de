//! The hand's end when no one has won, natively (runtime/game/ending.py `_s_exhaust`, `_s_hand_end`):
//! the wall run out, the `exhaust`, `hand_end` and `settled` events, the next dealer (`next_dealer`).
//! After a win (engine/win.rs) the events bind the first winner and `next_dealer` reads the game's base
//! values of the win.

use serde_json::Value as J;

use super::scope::{GameScope, WinQuestions};
use super::win::value_json;
use serde_json::json;
use super::steps::{Bound, Out, Res, Step, Val};
use super::table::Table;
use super::course::{not_ported, Cx};
use super::values::{hand_wilds, Ev};
use crate::program::V;

/// What the hand's end evaluates, lowered for game scope: `next_dealer`, if the table declares one (the
/// first expression), and each task's factor and condition (`Game._task_factor`, read on a win's reading).
pub struct EndRules {
    pub scope: GameScope,
    next_dealer: bool,
    /// `table ends_when` (`winners_leave`: whether the hand ends after a win), its expression index.
    ends_when: Option<usize>,
    pub tasks: Vec<(String, usize, Option<usize>)>, // (name, its factor, its `when`) as expression indices
}

impl EndRules {
    pub fn new(t: &Table, ruleset_json: &str, wins: &dyn WinQuestions) -> EndRules {
        let doc: J = serde_json::from_str(ruleset_json).unwrap_or(J::Null);
        let e = doc.pointer("/ruleset/table/next_dealer").filter(|x| !x.is_null()).cloned();
        let mut exprs: Vec<J> = e.into_iter().collect();
        let next_dealer = !exprs.is_empty();
        let ends_when = doc.pointer("/ruleset/table/ends_when").filter(|x| !x.is_null()).cloned().map(|x| {
            exprs.push(x);
            exprs.len() - 1
        });
        let mut tasks = Vec::new();
        for task in doc.pointer("/ruleset/tasks").and_then(J::as_array).into_iter().flatten() {
            let name = task.get("name").and_then(J::as_str).unwrap_or("").to_owned();
            let factor = exprs.len();
            exprs.push(task.get("factor").cloned().unwrap_or(J::Null));
            let when = task.get("when").filter(|x| !x.is_null()).cloned().map(|w| {
                exprs.push(w);
                exprs.len() - 1
            });
            tasks.push((name, factor, when));
        }
        EndRules { next_dealer, ends_when, scope: GameScope::new(t, &exprs, wins), tasks }
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
            if let Some(&w) = st.first_winners.first().filter(|_| !st.winners.is_empty()) {
                // (`table winners_leave`: the hand was won before the wall ran out)
                let first = cx.h.infos[w].clone().ok_or_else(|| not_ported("exhaust", "a first winner without its win"))?;
                cx.bind_win_values(&first, true)?;
            }
            let st = &cx.h.st;
            // (a hand no one drew in binds `actor` to none: the same value as leaving it unbound)
            let b = Bound::at(st.last_drawer, None);
            *at = 1;
            if let Some(c) = cx.event("exhaust", &b)? {
                return Ok(Out::Call(c));
            }
            *at = 2;
            Ok(Out::Call(Step::HandEnd { at: 0, bind: None }))
        }
        1 => {
            *at = 2;
            Ok(Out::Call(Step::HandEnd { at: 0, bind: None }))
        }
        _ => Ok(Out::Done(Val::None)),
    }
}

/// `_hand_ends_after_win` (`table winners_leave`): the hand ends after a win when fewer than two players
/// are left in it, or when `ends_when` holds (where the reference notes an error the native hand stops).
pub(super) fn ends_after_win(cx: &Cx) -> Res<bool> {
    if (0..cx.e.t.n).filter(|&s| cx.in_play(s)).count() < 2 {
        return Ok(true);
    }
    let e = cx.e;
    let Some(k) = e.end.ends_when else { return Ok(false) };
    if let Some(Err(why)) = e.end.scope.exprs.get(k) {
        return Err(why.clone());
    }
    let st = &cx.h.st;
    let wins = e.w.on(e.t, st, e.hand);
    let wild = hand_wilds(e.t, st);
    let mut ev = Ev::new(&e.end.scope, e.t, st, &wild, &wins, cx.h.base.clone());
    ev.self_drawn = cx.h.base_self_drawn;
    let got = ev.expr(k);
    if let Some(w) = wins.take_declined() {
        return Err(format!("a win question the native machinery declines ({w})"));
    }
    got.map(|v| v.truthy()).map_err(|_| "the native hand stopped where the reference notes an error (ends_when)".into())
}

/// `_s_hand_end`: after a win, its events bind the first winner (`winner_binding`).
pub fn hand_end(cx: &mut Cx, f: &mut Step) -> Res<Out> {
    let Step::HandEnd { at, bind } = f else { unreachable!() };
    let first = cx.h.st.winners.first().copied();
    let wb = match first {
        Some(w) => cx.winner_bound(w)?,
        None => Bound::none(),
    };
    if *at == 0 {
        *bind = Some(match (first, first.and_then(|w| cx.h.infos[w].as_ref())) {
            (Some(w), Some(i)) => json!({"winner": {"seat": w}, "score": value_json(&i.score), "self_drawn": i.self_drawn,
                "discarder": i.discarder.map(|s| json!({"seat": s})), "robbed": i.robbed.map(|s| json!({"seat": s})),
                "task_factor": value_json(&cx.task_factor(i)?), "reading": "(reading)"}),
            (Some(w), None) => json!({"winner": {"seat": w}}),
            _ => json!({}),
        });
        *at = 1;
        if let Some(c) = cx.event("hand_end", &wb)? {
            return Ok(Out::Call(c));
        }
    }
    if *at == 1 {
        *at = 2;
        if let Some(c) = cx.event("settled", &wb)? {
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
        let mut ev = Ev::new(&e.end.scope, e.t, st, &wild, &wins, cx.h.base.clone());
        ev.self_drawn = cx.h.base_self_drawn;
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
