//! The hand's start natively (runtime/game/opening.py `_s_start_wins`, `_s_together`,
//! `_s_start_decisions`): the wins the deal or the opening offers and the decisions asked together (ported
//! while none is offered: a win taken and decisions answered together are not ported yet), and each
//! seat's own decisions before the first turn (melds, plain decisions, pass; asked again after each).

use super::course::{answer, not_ported, Cx};
use super::offer_decisions::{start_win_offers, together_offers};
use super::offers::{Mv, NO_BIND};
use super::steps::{Ask, Bound, Offer, Out, Res, Step, Val};

/// `_s_start_wins`.
pub fn start_wins(cx: &mut Cx, f: &mut Step) -> Res<Out> {
    let Step::StartWins { event } = f else { unreachable!() };
    let event = *event;
    let dealer = cx.h.st.dealer;
    let offers = cx.offers(|c| start_win_offers(c, event, dealer))?;
    if offers.is_empty() {
        return Ok(Out::Done(Val::None));
    }
    Err(not_ported("start_wins", &format!("the wins `{event}` offers")))
}

/// `_s_together`.
pub fn together(cx: &mut Cx, f: &mut Step) -> Res<Out> {
    let Step::Together { event } = f else { unreachable!() };
    let event = *event;
    let dealer = cx.h.st.dealer;
    let decided = cx.h.decided.clone();
    let offers = cx.offers(|c| together_offers(c, event, dealer, &decided))?;
    if offers.is_empty() {
        return Ok(Out::Done(Val::None));
    }
    Err(not_ported("together", &format!("the decisions `{event}` asks together")))
}

pub fn start_decisions_step(event: &'static str, s: usize) -> Step {
    Step::StartDecisions { at: 0, event, s, acts: Vec::new(), taken: Vec::new(), melded: false, moves: None, chosen: None }
}

/// `_s_start_decisions`.
pub fn start_decisions(cx: &mut Cx, f: &mut Step, mut v: Val) -> Res<Out> {
    let Step::StartDecisions { at, event, s, acts, taken, melded, moves, chosen } = f else { unreachable!() };
    let (event, s) = (*event, *s);
    loop {
        match *at {
            0 => {
                if !cx.in_play(s) {
                    return Ok(Out::Done(Val::None));
                }
                let found = cx.offers(|c| {
                    Ok(c.actions_on(event)
                        .into_iter()
                        .filter(|&i| {
                            let a = &c.o.rules.actions[i];
                            !a.together
                                && (c.by_ok(&a.by, s, Some(s))
                                    || (matches!(a.by.as_str(), "dealer" | "non_dealer" | "any") && c.by_ok(&a.by, s, None)))
                        })
                        .collect::<Vec<usize>>())
                })?;
                if found.is_empty() {
                    return Ok(Out::Done(Val::None));
                }
                *acts = found;
                taken.clear();
                *melded = false;
                *at = 1;
            }
            1 => {
                let (m, list) = (*melded, acts.clone());
                let decided = cx.h.decided.get(s).cloned().unwrap_or_default();
                let ms: Vec<Offer> = cx.offers(|c| {
                    let mut ms = if m { c.win_moves(s, event, None, Some(s), &Default::default())? } else { Vec::new() };
                    for &i in &list {
                        ms.extend(c.action_moves(i, s, None, None, NO_BIND)?);
                    }
                    Ok(ms
                        .into_iter()
                        .filter(|(mv, o)| {
                            let again = o.compulsory && taken.contains(mv);
                            let decided_again = !o.meld
                                && !o.win
                                && o.action.is_some_and(|i| decided.contains(&c.o.rules.actions[i].name));
                            !(again || decided_again)
                        })
                        .collect())
                })?;
                if ms.is_empty() {
                    return Ok(Out::Done(Val::None));
                }
                let comp = ms.iter().find(|(_, o)| o.compulsory).cloned();
                *moves = Some(ms);
                if let Some(c) = comp {
                    if !taken.contains(&c.0) {
                        taken.push(c.0.clone());
                    }
                    *chosen = Some(c);
                    *at = 3;
                    continue;
                }
                *at = 2;
                let ms = moves.as_ref().expect("set above");
                let options = cx.offers(|c| c.with_pass(s, ms))?;
                return Ok(Out::Ask(Ask { kind: "deal", options: vec![(s, options)], event: event.into(), actor: Some(s), tile: None }));
            }
            2 => {
                let mv = answer(&v, s);
                let ms = moves.as_ref().expect("asked at 1");
                *chosen = Some(
                    ms.iter().find(|(m, _)| *m == mv).cloned().unwrap_or_else(|| (Mv::plain("pass", Vec::new()), super::offers::NO_OFFER)),
                );
                *at = 3;
            }
            3 => {
                *at = 4;
                let ms = moves.as_ref().expect("offered at 1");
                let mv = chosen.as_ref().expect("chosen before 3").0.clone();
                let b = Bound { actor: Some(s), tile: None, discarder: None, robbed: None, more: None };
                if let Some(d) = cx.declines(ms, &mv, b) {
                    return Ok(Out::Call(d));
                }
            }
            4 => {
                let (mv, offer) = chosen.clone().expect("chosen before 4");
                if mv.action == "pass" {
                    return Ok(Out::Done(Val::None));
                }
                if offer.win {
                    let w = super::win::win_of(cx, &offer, None, None, false)?;
                    *at = 99;
                    return Ok(Out::Call(Step::Win { at: 0, infos: vec![w], source: None, i: 0 }));
                }
                if offer.opt.is_none() {
                    let name = cx.e.o.rules.actions[offer.action.expect("an action's offer")].name.clone();
                    if let Some(d) = cx.h.decided.get_mut(s) {
                        if !d.contains(&name) {
                            d.push(name);
                        }
                    }
                }
                *at = 5;
                let b = Bound { actor: Some(s), tile: None, discarder: None, robbed: None, more: None };
                return Ok(Out::Call(Step::Take { at: 0, s, offer: (mv, offer), bind: b }));
            }
            5 => {
                *melded = true;
                if cx.h.st.finished {
                    return Ok(Out::Done(Val::None));
                }
                *at = 1;
                if matches!(&v, Val::Then(x) if x == "replace") {
                    let end = cx.e.t.rules.table.replacement.clone();
                    match cx.draw(s, &end)? {
                        None => {
                            *at = 99;
                            return Ok(Out::Call(Step::Exhaust { at: 0 }));
                        }
                        Some(k) => {
                            if s == cx.h.st.dealer {
                                cx.h.st.last_dealt = Some(k);
                            }
                            if let Some(c) = cx.event("draw", &Bound::at(Some(s), Some(Some(k))))? {
                                return Ok(Out::Call(c));
                            }
                        }
                    }
                }
            }
            _ => return Ok(Out::Done(Val::None)),
        }
        v = Val::None;
    }
}
