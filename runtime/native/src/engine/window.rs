//! The decisions an event opens outside the turn and the claims, natively (runtime/game/events.py
//! `_s_event`; claims.py `_s_window`): every seat the event's actions are offered to answers at once
//! (a compulsory one taken unasked), then in priority and seat order each seat's declines and its action.
//! An event of a won hand binds the win's values and reading (`Bound::more`); the window reads the event's
//! win, else the hand's first win; the `by winner` decisions of a hand with several winners are asked of
//! each winner in turn (`_winners_in_turn`).

use super::course::{bound_offers, pick, Cx};
use super::offer_decisions::window_offers;
use super::offers::{Act, Mv};
use super::events::slot;
use super::steps::{Ask, Bound, Key, Out, Res, Step, Val};
use crate::program::V;

fn window_step(event: &str, bind: Bound, others: bool) -> Step {
    Step::Window { at: 0, event: event.to_owned(), bind, others, ai: None, offers: None, answers: Vec::new(), order: None, i: 0, cb: None }
}

/// `_winner_turn`: the event's bindings in the k-th winner's turn (that winner's, `WINNER_TURN`).
fn winner_turn(cx: &Cx, bind: &Bound, k: usize) -> Res<Bound> {
    let mut b = bind.clone();
    cx.merge_winner(&mut b, cx.h.st.winners[k])?;
    b.more.get_or_insert_with(Default::default).keys.push(Key::WinnerTurn);
    Ok(b)
}

/// `_s_event`: the event's window (under several winners once the hand is over, its `by winner`
/// decisions in each winner's turn, in the order they won), then its deferred payments.
pub fn event(cx: &mut Cx, f: &mut Step) -> Res<Out> {
    let Step::Event { at, event, bind, turn } = f else { unreachable!() };
    if *at == 0 {
        *at = 1;
        // `_winners_in_turn`: an event of the hand once its play is over (not one win's, not already one
        // winner's turn) with several winners; the event's other decisions in the first turn
        let st = &cx.h.st;
        if st.winners.len() > 1 && st.finished && !bind.one_win() && !bind.winner_turn() && cx.opens_by_winner(event) {
            *turn = Some(0);
            return Ok(Out::Call(window_step(event, winner_turn(cx, bind, 0)?, true)));
        }
        return Ok(Out::Call(window_step(event, bind.clone(), true)));
    }
    if let Some(k) = turn.filter(|&k| k + 1 < cx.h.st.winners.len()) {
        *turn = Some(k + 1);
        return Ok(Out::Call(window_step(event, winner_turn(cx, bind, k + 1)?, false)));
    }
    cx.h.depth = cx.h.depth.saturating_sub(1);
    if cx.e.p.pay.on.contains_key(event.as_str()) {
        let eb = super::course::bound(cx.e.t, bind);
        let name = event.clone();
        cx.events(|r| r.settle(&name, &eb, Some(true)))?;
    }
    Ok(Out::Done(Val::None))
}

fn distance(cx: &Cx, r: usize, s: usize) -> usize {
    let n = cx.e.t.n as i64;
    match ((s as i64 - r as i64) * cx.e.t.step).rem_euclid(n) as usize {
        0 => cx.e.t.n,
        d => d,
    }
}

/// `_s_window`.
pub fn window(cx: &mut Cx, f: &mut Step, v: Val) -> Res<Out> {
    let Step::Window { at, event, bind, others, ai, offers, answers, order, i, cb } = f else { unreachable!() };
    let mut v = v;
    loop {
        match *at {
            0 => {
                *ai = bind.actor;
                let tile = bind.tile.flatten();
                let (ev, a, mut b) = (event.clone(), *ai, bound_offers(bind));
                // the window's reading: the event's win's, else the hand's first win's
                let win = bind.reading().cloned().or_else(|| cx.h.st.winners.first().and_then(|&w| cx.h.infos[w].clone()));
                if let Some(w) = win {
                    b.reading = Some(cx.offers_reading(&w));
                }
                // `by winner` where the event is one winner's (one win's events, a winner's turn): that winner only
                let winner = match (bind.one_win() || bind.winner_turn(), bind.slot(slot("winner"))) {
                    (true, Some(V::Seat(w))) => Some(*w as usize),
                    _ => None,
                };
                let all = *others;
                let found = cx.offers(|c| window_offers(c, &ev, a, tile, all, winner, &b))?;
                if found.is_empty() {
                    return Ok(Out::Done(Val::None));
                }
                let mut ask: Vec<(usize, Vec<Mv>)> = Vec::new();
                answers.clear();
                for (c, ms) in &found {
                    match ms.iter().find(|(_, o)| o.compulsory) {
                        Some(p) => answers.push((*c, p.clone())),
                        None => {
                            let c = *c;
                            ask.push((c, cx.offers(|x| x.with_pass(c, ms))?));
                        }
                    }
                }
                *offers = Some(found);
                *at = 1;
                ask.retain(|(_, ms)| !ms.is_empty());
                v = Val::None;
                if !ask.is_empty() {
                    return Ok(Out::Ask(Ask { kind: "window", options: ask, event: event.clone(), actor: *ai, tile, own: false }));
                }
            }
            1 => {
                let offered = offers.as_ref().expect("offered at 0");
                if let Val::Answers(got) = &v {
                    for (c, mv) in got {
                        let ms = offered.iter().find(|(x, _)| x == c).map(|(_, ms)| ms.as_slice()).unwrap_or(&[]);
                        let p = pick(ms, mv);
                        match answers.iter_mut().find(|(x, _)| x == c) {
                            Some(e) => e.1 = p,
                            None => answers.push((*c, p)),
                        }
                    }
                }
                let r = ai.unwrap_or(cx.h.st.dealer);
                let actions = &cx.e.o.rules.actions;
                let mut o: Vec<usize> = answers.iter().map(|(c, _)| *c).collect();
                let key = |c: usize| {
                    let of = &answers.iter().find(|(x, _)| *x == c).expect("an answer per seat").1 .1;
                    (of.action.map_or(1 << 30, |a| actions[a].level), distance(cx, r, c))
                };
                o.sort_by_key(|&c| key(c));
                *order = Some(o);
                *i = 0;
                *at = 2;
            }
            2 => {
                let o = order.as_ref().expect("ordered at 1");
                if *i >= o.len() {
                    return Ok(Out::Done(Val::None));
                }
                let c = o[*i];
                let mut b = bind.clone();
                b.set_actor(c);
                b.drop_reading();
                *cb = Some(b.clone());
                *at = 3;
                let ms = offers.as_ref().expect("offered at 0").iter().find(|(x, _)| *x == c).map(|(_, ms)| ms.clone()).unwrap_or_default();
                let mv = answers.iter().find(|(x, _)| *x == c).expect("an answer per seat").1 .0.clone();
                if let Some(d) = cx.declines(&ms, &mv, b) {
                    return Ok(Out::Call(d));
                }
            }
            _ => {
                let c = order.as_ref().expect("ordered at 1")[*i];
                *i += 1;
                *at = 2;
                let (mv, o) = answers.iter().find(|(x, _)| *x == c).expect("an answer per seat").1.clone();
                if mv.action != Act::PASS {
                    let b = cb.clone().expect("set at 2");
                    return Ok(Out::Call(Step::Take { at: 0, s: c, offer: (mv, o), bind: b }));
                }
            }
        }
    }
}
