//! The hand's start natively (runtime/game/opening.py `_s_start_wins`, `_s_together`,
//! `_s_start_decisions`): the wins the deal or the opening offers to every seat at once, resolved like a
//! claim window; the decisions asked together (nothing applied until all have answered, the tiles they
//! give delivered once every answer's effects have run); and each seat's own decisions before the first
//! turn (melds, plain decisions, pass; asked again after each).

use super::course::{answer, bound, not_ported, tile_v, Cx, ENGINE_OFFERED};
use super::events::Bind as EvBind;
use super::offer_decisions::{start_win_offers, together_offers};
use super::offers::{Act, Mv, NO_BIND};
use super::steps::{Ask, Bound, Offer, Out, Res, Step, Taken, Val};
use crate::program::V;

/// The step asking the seats with offers at an opening event (`_window_ask`): the `answers` step.
fn window_ask(cx: &Cx, event: &'static str, offers: &[(usize, Vec<Offer>)]) -> Step {
    Step::Answers { at: 0, kind: "deal", offers: offers.to_vec(), event, s: cx.h.st.dealer, t: None, answers: None }
}

/// `_window_answers`: the answers kept, walked in seat order from the dealer.
fn window_answers(cx: &Cx, v: Val, answers: &mut Option<Vec<(usize, Offer)>>, order: &mut Vec<usize>, i: &mut usize, step: &str) -> Res<()> {
    let Val::Picked(got) = v else {
        return Err(not_ported(step, "a window answered otherwise"));
    };
    let dealer = cx.h.st.dealer;
    *order = got.iter().map(|(c, _)| *c).collect();
    order.sort_by_key(|&c| super::claims::distance(cx, dealer, c));
    *answers = Some(got);
    *i = 0;
    Ok(())
}

/// `_window_declines`: each answering seat's declines in the window's order (None: all have run).
fn window_declines(cx: &Cx, offers: &[(usize, Vec<Offer>)], answers: &[(usize, Offer)], order: &[usize], i: &mut usize) -> Option<Step> {
    while *i < order.len() {
        let c = order[*i];
        *i += 1;
        let ms = offers.iter().find(|(x, _)| *x == c).map(|(_, ms)| ms.as_slice()).unwrap_or(&[]);
        let mv = &answers.iter().find(|(x, _)| *x == c).expect("an answer per seat").1 .0;
        if let Some(d) = cx.declines(ms, mv, Bound::at(Some(c), None)) {
            return Some(d);
        }
    }
    None
}

/// `_s_start_wins`.
pub fn start_wins(cx: &mut Cx, f: &mut Step, mut v: Val) -> Res<Out> {
    let Step::StartWins { at, event, offers, answers, order, i, claims } = f else { unreachable!() };
    let event = *event;
    loop {
        match *at {
            0 => {
                let dealer = cx.h.st.dealer;
                let found = cx.offers(|c| start_win_offers(c, event, dealer))?;
                if found.is_empty() {
                    return Ok(Out::Done(Val::None));
                }
                let ask = window_ask(cx, event, &found);
                *offers = Some(found);
                *at = 1;
                return Ok(Out::Call(ask));
            }
            1 => {
                window_answers(cx, std::mem::replace(&mut v, Val::None), answers, order, i, "start_wins")?;
                *at = 2;
            }
            2 => {
                let (o, a) = (offers.as_deref().expect("offered at 0"), answers.as_deref().expect("answered at 1"));
                if let Some(d) = window_declines(cx, o, a, order, i) {
                    return Ok(Out::Call(d));
                }
                *i = 0;
                *claims = Some(Vec::new());
                *at = 3;
            }
            3 => {
                let got = answers.as_ref().expect("answered at 1");
                let cl = claims.as_mut().expect("set at 2");
                while *i < order.len() {
                    let c = order[*i];
                    *i += 1;
                    let (mv, o) = got.iter().find(|(x, _)| *x == c).expect("an answer per seat").1.clone();
                    if mv.action == Act::PASS || o.action.is_none() {
                        continue;
                    }
                    if !o.win {
                        // an `instead_of` choice: applied, counts as a pass
                        return Ok(Out::Call(Step::Take { at: 0, s: c, offer: (mv, o), bind: Bound::at(Some(c), None) }));
                    }
                    cl.push((c, (mv, o)));
                }
                if cl.is_empty() {
                    return Ok(Out::Done(Val::None));
                }
                let dealer = cx.h.st.dealer;
                super::claims::rank_claims(cx, cl, dealer);
                let infos = super::claims::claimed_wins(cx, cl)
                    .iter()
                    .map(|x| super::win::win_of(cx, x, None, None, false))
                    .collect::<Res<Vec<_>>>()?;
                *at = 4;
                return Ok(Out::Call(Step::Win { at: 0, infos, source: None, i: 0 }));
            }
            _ => return Ok(Out::Done(Val::None)),
        }
        v = Val::None;
    }
}

/// A value as the continuation writes it (`plain_local`): a tile by name, a seat by number, a list item by item.
fn plain_value(cx: &Cx, v: &V) -> serde_json::Value {
    use serde_json::json;
    match v {
        V::Tile(c) => json!(cx.e.t.names[crate::program::kind_of(*c) as usize]),
        V::Seat(s) => json!({ "seat": s }),
        V::Int(i) => json!(i),
        V::Bool(b) => json!(b),
        V::Str(s) => json!(s.to_string()),
        V::Rat(n, d) => json!(format!("{n}/{d}")),
        V::List(items) => serde_json::Value::Array(items.iter().map(|x| plain_value(cx, x)).collect()),
        _ => serde_json::Value::Null,
    }
}

/// The bindings of an action taken together: the actor, and the choice when it has one.
fn taken_bind(cx: &Cx, x: &Taken) -> EvBind {
    let mut b = bound(cx.e.t, &Bound::at(Some(x.seat), None));
    if let Some((v, _)) = &x.choice {
        b.set("choice", v.clone());
    }
    b
}

/// `_together_effects`: the effects of every answer in `order`, the tiles they give held and delivered
/// once all have run (so each seat gives from the hand it chose from); each taken action with its
/// bindings.
fn together_effects(cx: &mut Cx, order: &[usize], answers: &[(usize, Offer)]) -> Res<Vec<Taken>> {
    let mut taken = Vec::new();
    let mut transit: Vec<(usize, Vec<usize>)> = Vec::new();
    for &c in order {
        let (mv, o) = answers.iter().find(|(x, _)| *x == c).expect("an answer per seat").1.clone();
        let Some(ai) = o.action else { continue };
        if mv.action == Act::PASS {
            continue;
        }
        let a = &cx.e.o.rules.actions[ai];
        let name = a.name.clone();
        if let Some(d) = cx.h.decided.get_mut(c) {
            if !d.contains(&name) {
                d.push(name.clone());
            }
        }
        let choice = if let Some(p) = &mv.choice {
            let v = cx.offers(|x| x.choice_value(ai, c, None, &super::offers::Bind::default(), p))?;
            let v = v.ok_or_else(|| not_ported("together", "a choice that is none of the action's choices"))?;
            Some((v.clone(), plain_value(cx, &v)))
        } else if a.select > 0 {
            let v = V::List(std::sync::Arc::new(mv.tiles.iter().map(|&k| tile_v(cx.e.t, Some(k))).collect()));
            Some((v.clone(), plain_value(cx, &v)))
        } else {
            None
        };
        let x = Taken { action: ai, seat: c, choice };
        let eb = taken_bind(cx, &x);
        let p = cx.e.p;
        if let Some((effects, _)) = p.actions.get(&name) {
            let held = std::mem::take(&mut transit);
            transit = cx.events(|r| {
                r.transit = Some(held);
                let out = (|| {
                    for e in r.run_effects(effects, &eb)? {
                        r.hooks_only(&e, &eb, None)?;
                    }
                    Ok(())
                })();
                let held = r.transit.take().unwrap_or_default();
                out.map(|_| held)
            })?;
        }
        taken.push(x);
    }
    if !transit.is_empty() {
        cx.events(|r| {
            r.deliver(transit);
            Ok(())
        })?;
    }
    Ok(taken)
}

/// `_event` with an action's bindings beside a step's (the choice of an action taken together).
fn taken_event(cx: &mut Cx, name: &str, eb: &EvBind) -> Res<()> {
    cx.events(|r| r.hooks_only(name, eb, Some(false)))?;
    if !ENGINE_OFFERED.contains(&name) && cx.opens_actions(name) {
        return Err(not_ported("together", "the decisions an action taken together opens"));
    }
    if cx.e.p.pay.on.contains_key(name) {
        cx.events(|r| r.settle(name, eb, Some(true)))?;
    }
    Ok(())
}

/// `_s_together`.
pub fn together(cx: &mut Cx, f: &mut Step, mut v: Val) -> Res<Out> {
    let Step::Together { at, event, offers, answers, order, i, taken } = f else { unreachable!() };
    let event = *event;
    loop {
        match *at {
            0 => {
                let dealer = cx.h.st.dealer;
                let decided = cx.h.decided.clone();
                let found = cx.offers(|c| together_offers(c, event, dealer, &decided))?;
                if found.is_empty() {
                    return Ok(Out::Done(Val::None));
                }
                let ask = window_ask(cx, event, &found);
                *offers = Some(found);
                *at = 1;
                return Ok(Out::Call(ask));
            }
            1 => {
                window_answers(cx, std::mem::replace(&mut v, Val::None), answers, order, i, "together")?;
                *at = 2;
            }
            2 => {
                let (o, a) = (offers.as_deref().expect("offered at 0"), answers.as_deref().expect("answered at 1"));
                if let Some(d) = window_declines(cx, o, a, order, i) {
                    return Ok(Out::Call(d));
                }
                let got = answers.clone().expect("answered at 1");
                let ord = order.clone();
                *taken = Some(together_effects(cx, &ord, &got)?);
                *i = 0;
                *at = 3;
            }
            _ => {
                let tk = taken.as_ref().expect("taken at 2");
                if *i >= tk.len() {
                    return Ok(Out::Done(Val::None));
                }
                let x = tk[*i].clone();
                *i += 1;
                let name = cx.e.o.rules.actions[x.action].name.clone();
                let eb = taken_bind(cx, &x);
                taken_event(cx, &name, &eb)?;
            }
        }
        v = Val::None;
    }
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
                return Ok(Out::Ask(Ask { kind: "deal", options: vec![(s, options)], event: event.into(), actor: Some(s), tile: None, own: false }));
            }
            2 => {
                let mv = answer(&v, s);
                let ms = moves.as_ref().expect("asked at 1");
                *chosen = Some(
                    ms.iter().find(|(m, _)| *m == mv).cloned().unwrap_or_else(|| (Mv::pass(), super::offers::NO_OFFER)),
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
                if mv.action == Act::PASS {
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
