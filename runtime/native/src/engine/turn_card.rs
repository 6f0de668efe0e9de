//! Turned cards natively (runtime/game/claims.py `_s_turn_card`, `_s_tile_window`): in a rule set whose
//! actions `reveal` opens, a card drawn is not taken into the hand; it lies face up on the drawer's pile
//! while it is offered, first to the drawer alone (its melds with the card), then, turned over, to every
//! seat at once; claimed into a meld, or into the claimant's hand by a plain action; unclaimed it stays.
//! A win on it (by its drawer, self-drawn; by another seat, claimed with no discarder) is settled as any
//! win (engine/win.rs), the drawer its source.

use super::claims::{after_claim, claimed_wins, rank_claims};
use super::offers::Act;
use super::win::win_of;
use super::course::{not_ported, Cx};
use super::offer_decisions::{drawn_card_offers, turned_offers};
use super::steps::{Bound, Offer, Out, Res, Step, Val};

fn tile_window(kind: &'static str, event: &'static str, s: usize, t: usize, offers: Vec<(usize, Vec<Offer>)>) -> Step {
    Step::TileWindow { at: 0, kind, event, s, t, offers, answers: None, order: Vec::new(), i: 0, c: None }
}

/// `_s_turn_card`: the next (seat, how), or none (nothing claimed, or the hand ended).
pub fn turn_card(cx: &mut Cx, f: &mut Step, v: Val) -> Res<Out> {
    let Step::TurnCard { at, s, t, i } = f else { unreachable!() };
    let s = *s;
    let mut v = v;
    loop {
        match *at {
            0 => {
                let Some(k) = cx.draw(s, "head")? else {
                    *at = 99;
                    return Ok(Out::Call(Step::Exhaust { at: 0 }));
                };
                let seat = &mut cx.h.st.seats[s];
                if let Some(x) = seat.hand.iter().position(|&y| y == k) {
                    seat.hand.remove(x);
                }
                seat.discards.push(k);
                seat.drawn = None;
                seat.changed();
                cx.h.st.turn += 1;
                *t = Some(k);
                *i = 0;
                *at = 1;
            }
            1 => {
                if *i >= 2 {
                    *at = 3;
                    continue;
                }
                *at = 2;
                let ev = ["draw", "turn"][*i];
                if let Some(c) = cx.event(ev, &Bound::at(Some(s), Some(*t)))? {
                    return Ok(Out::Call(c));
                }
            }
            2 => {
                if cx.h.st.finished {
                    return Ok(Out::Done(Val::Next(None)));
                }
                *i += 1;
                *at = 1;
            }
            3 => {
                *at = 5;
                let k = t.expect("drawn at 0");
                if !cx.h.st.seats[s].auto {
                    let own = cx.offers(|c| drawn_card_offers(c, s, k))?;
                    if !own.is_empty() {
                        *at = 4;
                        return Ok(Out::Call(tile_window("self", "draw", s, k, own)));
                    }
                }
            }
            4 => {
                if matches!(v, Val::Next(Some(_))) || cx.h.st.finished {
                    return Ok(Out::Done(std::mem::replace(&mut v, Val::None)));
                }
                *at = 5;
            }
            5 => {
                *at = 6;
                if let Some(c) = cx.event("reveal", &Bound::at(Some(s), Some(*t)))? {
                    return Ok(Out::Call(c));
                }
            }
            6 => {
                if cx.h.st.finished {
                    return Ok(Out::Done(Val::Next(None)));
                }
                let k = t.expect("drawn at 0");
                let offers = cx.offers(|c| turned_offers(c, s, k))?;
                if offers.is_empty() {
                    return Ok(Out::Done(Val::Next(None)));
                }
                *at = 7;
                return Ok(Out::Call(tile_window("window", "reveal", s, k, offers)));
            }
            7 => return Ok(Out::Done(std::mem::replace(&mut v, Val::None))),
            _ => return Ok(Out::Done(Val::Next(None))),
        }
        v = Val::None;
    }
}

/// `_s_tile_window`: the seats with offers on the turned card answer; resolved by priority, then order.
pub fn tile_window_step(cx: &mut Cx, f: &mut Step, v: Val) -> Res<Out> {
    let Step::TileWindow { at, kind, event, s, t, offers, answers, order, i, c } = f else { unreachable!() };
    let (s, t) = (*s, *t);
    let mut v = v;
    loop {
        match *at {
            0 => {
                *at = 1;
                return Ok(Out::Call(Step::Answers { at: 0, kind, offers: offers.clone(), event, s, t: Some(t), answers: None }));
            }
            1 => {
                let Val::Picked(got) = std::mem::replace(&mut v, Val::None) else {
                    return Err(not_ported("tile_window", "a window answered otherwise"));
                };
                let n = cx.e.t.n as i64;
                let step = cx.e.t.step;
                *order = got.iter().map(|(x, _)| *x).collect();
                order.sort_by_key(|&x| ((x as i64 - s as i64) * step).rem_euclid(n));
                *answers = Some(got);
                *i = 0;
                *at = 2;
            }
            2 => {
                let got = answers.as_ref().expect("answered at 1");
                while *i < order.len() {
                    let x = order[*i];
                    *i += 1;
                    let ms = offers.iter().find(|(y, _)| *y == x).map(|(_, ms)| ms.as_slice()).unwrap_or(&[]);
                    let mv = &got.iter().find(|(y, _)| *y == x).expect("an answer per seat").1 .0;
                    let b = Bound { actor: Some(x), tile: Some(Some(t)), discarder: Some(None), robbed: None, more: None };
                    if let Some(d) = cx.declines(ms, mv, b) {
                        return Ok(Out::Call(d));
                    }
                }
                // the claims, in the order the answers came
                let mut claims: Vec<(usize, Offer)> =
                    got.iter().filter(|(_, (mv, o))| mv.action != Act::PASS && o.action.is_some()).cloned().collect();
                if claims.is_empty() {
                    return Ok(Out::Done(Val::Next(None)));
                }
                rank_claims(cx, &mut claims, s);
                let (x, (mv, o)) = claims[0].clone();
                if o.win {
                    // no seat discarded it: the drawer is the tile's source
                    let infos = claimed_wins(cx, &claims).into_iter().map(|x| win_of(cx, x, None, None, true)).collect::<Res<Vec<_>>>()?;
                    *at = 99;
                    return Ok(Out::Call(Step::Win { at: 0, infos, source: Some(s), i: 0 }));
                }
                if o.opt.is_some() {
                    *at = 4;
                    return Ok(Out::Call(Step::Claim { at: 0, c: x, s, offer: (mv, o), t, turned: true, bind: None }));
                }
                // a plain action: the card goes into the claimant's hand
                let giver = &mut cx.h.st.seats[s];
                match giver.discards.iter().rposition(|&y| y == t) {
                    Some(p) => {
                        giver.discards.remove(p);
                    }
                    None => return Err(not_ported("tile_window", "a turned card that is not on the pile")),
                }
                giver.changed();
                let claimant = &mut cx.h.st.seats[x];
                claimant.hand.push(t);
                claimant.drawn = Some(t);
                claimant.changed();
                *c = Some(x);
                *at = 3;
                let b = Bound { actor: Some(x), tile: Some(Some(t)), discarder: Some(None), robbed: None, more: None };
                return Ok(Out::Call(Step::Take { at: 0, s: x, offer: (mv, o), bind: b }));
            }
            3 => {
                if cx.h.st.finished {
                    return Ok(Out::Done(Val::Next(None)));
                }
                let then = match std::mem::replace(&mut v, Val::None) {
                    Val::Then(x) => x,
                    _ => return Err(not_ported("tile_window", "an action that ended otherwise")),
                };
                let x = c.expect("set at 2");
                return Ok(Out::Done(Val::Next(Some(after_claim(cx, &then, x, s)))));
            }
            _ => return Ok(Out::Done(std::mem::replace(&mut v, Val::None))),
        }
    }
}
