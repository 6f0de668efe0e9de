//! The hand's course natively (runtime/game/turn.py `_s_hand`, `_s_play_turn`; claims.py
//! `_s_after_discard`; events.py `_s_declines`; the hand's start in engine/opening.rs): the step functions the
//! driver of engine/steps.rs runs, and its registry (`step`). What is not ported yet stops the hand with a sentence naming the step (docs/engine-native.md,
//! steps 7 and 8), never a different course.

use super::course::{answer, bound, not_ported, pick, pick_at, Cx, OPENING_EVENTS};
use super::offer_decisions::claim_offers;
use super::offers::{Act, NO_BIND};
use super::steps::{Ask, Bound, Out, Res, Step, TurnEnd, Val};

/// One step function call (the registry of steps.py): the step resumed with `v`.
pub fn step(cx: &mut Cx, f: &mut Step, v: Val) -> Res<Out> {
    match f {
        Step::Hand { .. } => hand(cx, f, v),
        Step::StartWins { .. } => super::opening::start_wins(cx, f, v),
        Step::Together { .. } => super::opening::together(cx, f, v),
        Step::StartDecisions { .. } => super::opening::start_decisions(cx, f, v),
        Step::PlayTurn { .. } => play_turn(cx, f, v),
        Step::AfterDiscard { .. } => after_discard(cx, f, v),
        Step::AddedKong { .. } => super::claims::added_kong(cx, f, v),
        Step::Declines { .. } => declines(cx, f),
        Step::Answers { .. } => super::claims::answers(cx, f, v),
        Step::WindowResolve { .. } => super::claims::window_resolve_step(cx, f, v),
        Step::Claim { .. } => super::claims::claim(cx, f),
        Step::Take { .. } => super::claims::take(cx, f),
        Step::Exhaust { .. } => super::ending::exhaust(cx, f),
        Step::TurnCard { .. } => super::turn_card::turn_card(cx, f, v),
        Step::TileWindow { .. } => super::turn_card::tile_window_step(cx, f, v),
        Step::Follow { .. } => super::claims::follow(cx, f, v),
        Step::Event { .. } => super::window::event(cx, f),
        Step::Window { .. } => super::window::window(cx, f, v),
        Step::HandEnd { .. } => super::ending::hand_end(cx, f),
        Step::Win { .. } => super::win::win(cx, f),
    }
}

/// `_s_hand`.
fn hand(cx: &mut Cx, f: &mut Step, mut v: Val) -> Res<Out> {
    let Step::Hand { at, opening, ev, order, i, nxt, turned } = f else { unreachable!() };
    loop {
        match *at {
            0 => {
                // (the setup, `_setup_hand`, is made when the hand is built: engine/setup.rs)
                *opening = true;
                *ev = 0;
                cx.h.decided = vec![Vec::new(); cx.e.t.n];
                *at = 2;
                if let Some(c) = cx.event("deal", &Bound::none())? {
                    return Ok(Out::Call(c));
                }
            }
            2 => {
                *at = 3;
                if OPENING_EVENTS[*ev] == "opening" {
                    if let Some(c) = cx.event("opening", &Bound::none())? {
                        return Ok(Out::Call(c));
                    }
                }
            }
            3 => {
                *at = 4;
                return Ok(Out::Call(Step::StartWins {
                    at: 0,
                    event: OPENING_EVENTS[*ev],
                    offers: None,
                    answers: None,
                    order: Vec::new(),
                    i: 0,
                    claims: None,
                }));
            }
            4 => {
                *at = 5;
                let st = &cx.h.st;
                if st.finished && !st.exhausted {
                    return Ok(Out::Call(Step::HandEnd { at: 0, bind: None }));
                }
            }
            5 => {
                if cx.h.st.finished {
                    return Ok(Out::Done(Val::None));
                }
                *at = 16;
                return Ok(Out::Call(Step::Together {
                    at: 0,
                    event: OPENING_EVENTS[*ev],
                    offers: None,
                    answers: None,
                    order: Vec::new(),
                    i: 0,
                    taken: None,
                }));
            }
            16 => {
                *order = Some(cx.order_from(cx.h.st.dealer));
                *i = 0;
                *at = 6;
            }
            6 => {
                let o = order.as_ref().expect("set at 16");
                if *i >= o.len() {
                    *ev += 1;
                    *at = if *ev < OPENING_EVENTS.len() { 2 } else { 9 };
                    continue;
                }
                *at = 7;
                return Ok(Out::Call(super::opening::start_decisions_step(OPENING_EVENTS[*ev], o[*i])));
            }
            7 => {
                *at = 8;
                let st = &cx.h.st;
                if st.finished && !st.exhausted {
                    return Ok(Out::Call(Step::HandEnd { at: 0, bind: None }));
                }
            }
            8 => {
                if cx.h.st.finished {
                    return Ok(Out::Done(Val::None));
                }
                *i += 1;
                *at = 6;
            }
            9 => {
                *opening = false;
                *order = None;
                cx.h.decided.clear();
                let d = cx.h.st.dealer;
                *nxt = Some(if cx.in_play(d) { (d, "first") } else { (cx.next_seat(d), "draw") });
                *turned = cx.opens_actions("reveal");
                *at = 10;
            }
            10 => {
                let (s, how) = nxt.expect("set at 9");
                if *turned && how == "draw" {
                    *at = 11;
                    return Ok(Out::Call(Step::TurnCard { at: 0, s, t: None, i: 0 }));
                }
                *at = 12;
                if how == "draw" || how == "replace" {
                    let end = if how == "draw" { "head".to_owned() } else { cx.e.t.rules.table.replacement.clone() };
                    match cx.draw(s, &end)? {
                        None => {
                            *at = 99;
                            return Ok(Out::Call(Step::Exhaust { at: 0 }));
                        }
                        Some(k) => {
                            if let Some(c) = cx.event("draw", &Bound::at(Some(s), Some(Some(k))))? {
                                return Ok(Out::Call(c));
                            }
                        }
                    }
                }
            }
            11 => {
                if cx.h.st.finished {
                    *at = 99;
                    if !cx.h.st.exhausted {
                        return Ok(Out::Call(Step::HandEnd { at: 0, bind: None }));
                    }
                    continue;
                }
                *nxt = Some(match std::mem::replace(&mut v, Val::None) {
                    Val::Next(Some(n)) => n,
                    _ => (cx.next_seat(nxt.expect("set at 9").0), "draw"),
                });
                *at = 10;
            }
            12 => {
                let (s, how) = nxt.expect("set at 9");
                *at = 13;
                if how != "claimed" {
                    cx.h.st.turn += 1;
                    let drawn = cx.h.st.seats[s].drawn;
                    if let Some(c) = cx.event("turn", &Bound::at(Some(s), Some(drawn)))? {
                        return Ok(Out::Call(c));
                    }
                }
            }
            13 => {
                let (s, how) = nxt.expect("set at 9");
                *at = 14;
                return Ok(Out::Call(Step::PlayTurn {
                    at: 0,
                    s,
                    claimed: how == "claimed" || (*turned && how == "first"),
                    allow_win: true,
                    taken: Vec::new(),
                    moves: None,
                    chosen: None,
                    then: None,
                }));
            }
            14 => {
                if cx.h.st.finished {
                    *at = 99;
                    if !cx.h.st.exhausted {
                        return Ok(Out::Call(Step::HandEnd { at: 0, bind: None }));
                    }
                    continue;
                }
                let s = nxt.expect("set at 9").0;
                match std::mem::replace(&mut v, Val::None) {
                    Val::Turn(TurnEnd::Pass) => {
                        *nxt = Some((cx.next_seat(s), "draw"));
                        *at = 10;
                    }
                    Val::Turn(TurnEnd::Goto(n)) => {
                        *nxt = Some(n);
                        *at = 10;
                    }
                    Val::Turn(TurnEnd::Discarded(t)) => {
                        *at = 15;
                        return Ok(Out::Call(Step::AfterDiscard { at: 0, s, t, tile: None, own: None, chosen: None }));
                    }
                    _ => return Err(not_ported("hand", "a turn that ended otherwise")),
                }
            }
            15 => {
                match std::mem::replace(&mut v, Val::None) {
                    Val::Next(Some(n)) => *nxt = Some(n),
                    _ if cx.h.st.finished => *nxt = None,
                    _ => return Err(not_ported("hand", "a claim window that ended otherwise")),
                }
                *at = 10;
                if cx.h.st.finished {
                    *at = 99;
                    if !cx.h.st.exhausted {
                        return Ok(Out::Call(Step::HandEnd { at: 0, bind: None }));
                    }
                }
            }
            _ => return Ok(Out::Done(Val::None)),
        }
        v = Val::None;
    }
}

/// `_s_play_turn`.
fn play_turn(cx: &mut Cx, f: &mut Step, mut v: Val) -> Res<Out> {
    let Step::PlayTurn { at, s, claimed, allow_win, taken, moves, chosen, then } = f else { unreachable!() };
    let s = *s;
    loop {
        match *at {
            0 => {
                let (cl, aw) = (*claimed, *allow_win);
                let tk: &[super::offers::Mv] = taken;
                // an automatic seat offered nothing discards unasked (`_auto_discard`): its tile is found on
                // the same decision's state where no win was offered (no `win_offer` hook ran in between)
                let (ms, auto_pick) = cx.offers(|c| {
                    let mut ms = c.turn_moves(s, cl, aw)?;
                    // (most turns have taken nothing yet: the moves are then kept as they came)
                    if !tk.is_empty() {
                        ms.retain(|(m, _)| !tk.contains(m));
                    }
                    let pick = if c.st.seats[s].auto && ms.is_empty() && c.offered_wins.borrow().is_empty() {
                        Some(auto_discard(c, s)?)
                    } else {
                        None
                    };
                    Ok((ms, pick))
                })?;
                let comp = ms.iter().find(|(_, o)| o.compulsory).cloned();
                *moves = Some(ms);
                let ms = moves.as_ref().expect("set above");
                let auto = cx.h.st.seats[s].auto;
                if comp.is_none() && auto {
                    if !ms.is_empty() {
                        // an automatic seat is asked only about its wins (no discard among them)
                        *at = 1;
                        let options = cx.offers(|c| c.with_pass(s, ms))?;
                        return Ok(Out::Ask(Ask { kind: "turn", options: vec![(s, options)], event: "turn".into(), actor: Some(s), tile: None, own: false }));
                    }
                    let picked = match auto_pick {
                        Some(k) => k,
                        None => cx.offers(|c| auto_discard(c, s))?,
                    };
                    return match picked {
                        None => Ok(Out::Done(Val::Turn(TurnEnd::Pass))),
                        Some(k) => {
                            cx.discard(s, k);
                            Ok(Out::Done(Val::Turn(TurnEnd::Discarded(k))))
                        }
                    };
                }
                match comp {
                    None => {
                        if ms.is_empty() {
                            return Ok(Out::Done(Val::Turn(TurnEnd::Pass)));
                        }
                        // with a discard among them the moves are asked as offered: left in the step
                        // (`Ask::own`), not copied
                        let own = ms.iter().any(|(m, _)| m.action == Act::DISCARD);
                        let options = if own { Vec::new() } else { cx.offers(|c| c.with_pass(s, ms))? };
                        *at = 3;
                        let drawn = cx.h.st.seats[s].drawn;
                        return Ok(Out::Ask(Ask { kind: "turn", options: vec![(s, options)], event: "turn".into(), actor: Some(s), tile: drawn, own }));
                    }
                    Some(c) => {
                        *chosen = Some(c);
                        *at = 5;
                    }
                }
            }
            1 => {
                // an automatic seat's answer about its wins
                let mv = answer(&v, s);
                let ms = moves.as_ref().expect("asked at 0");
                *chosen = Some(pick(ms, &mv));
                *at = 2;
                let drawn = cx.h.st.seats[s].drawn;
                if let Some(d) = cx.declines(ms, &mv, Bound::turn(s, drawn)) {
                    return Ok(Out::Call(d));
                }
            }
            2 => {
                if chosen.as_ref().is_some_and(|(m, _)| m.action == Act::PASS) {
                    *allow_win = false;
                    *at = 0;
                } else {
                    *at = 5;
                }
            }
            3 => {
                let ms = moves.as_ref().expect("asked at 0");
                let got = match v {
                    Val::Chosen(_, i) if i < ms.len() => pick_at(ms, i),
                    _ => pick(ms, &answer(&v, s)),
                };
                *at = 5;
                let drawn = cx.h.st.seats[s].drawn;
                let d = cx.declines(ms, &got.0, Bound::turn(s, drawn));
                *chosen = Some(got);
                if let Some(d) = d {
                    return Ok(Out::Call(d));
                }
            }
            5 => {
                let (mv, offer) = chosen.as_ref().expect("chosen before 5");
                // (a pass or a discard ends the turn: what it took is read no more)
                if mv.action == Act::PASS {
                    return Ok(Out::Done(Val::Turn(TurnEnd::Pass)));
                }
                if mv.action == Act::DISCARD {
                    let k = mv.tiles[0];
                    cx.discard(s, k);
                    return Ok(Out::Done(Val::Turn(TurnEnd::Discarded(k))));
                }
                if !taken.contains(mv) {
                    taken.push(mv.clone());
                }
                if offer.won.is_some() || offer.win {
                    let w = super::win::win_of(cx, offer, None, None, false)?;
                    *at = 99;
                    return Ok(Out::Call(Step::Win { at: 0, infos: vec![w], source: None, i: 0 }));
                }
                let a = &cx.e.o.rules.actions[offer.action.expect("an action's offer")];
                let drawn = cx.h.st.seats[s].drawn;
                if !a.instead_of.is_empty() {
                    *at = 6;
                    return Ok(Out::Call(Step::Take { at: 0, s, offer: (mv.clone(), offer.clone()), bind: Bound::turn(s, drawn) }));
                }
                if offer.opt.as_ref().is_some_and(|o| o.extends.is_some()) {
                    *at = 7;
                    return Ok(Out::Call(Step::AddedKong { at: 0, s, offer: (mv.clone(), offer.clone()), bind: None }));
                }
                *at = 8;
                return Ok(Out::Call(Step::Take { at: 0, s, offer: (mv.clone(), offer.clone()), bind: Bound::turn(s, drawn) }));
            }
            6 => {
                *allow_win = false;
                *at = 0;
            }
            7 => {
                // the added kong stood (no value) or was robbed
                match std::mem::replace(&mut v, Val::None) {
                    Val::Turn(end) => return Ok(Out::Done(Val::Turn(end))),
                    _ => {
                        let (_, o) = chosen.as_ref().expect("chosen before 7");
                        *then = Some(cx.e.o.rules.actions[o.action.expect("an action's offer")].then.clone());
                        *at = 9;
                    }
                }
            }
            8 => {
                match std::mem::replace(&mut v, Val::None) {
                    Val::Then(x) => *then = Some(x),
                    _ => return Err(not_ported("play_turn", "an action that ended otherwise")),
                }
                *at = 9;
            }
            9 => {
                if cx.h.st.finished {
                    return Ok(Out::Done(Val::Turn(TurnEnd::Over)));
                }
                *at = 0;
                match then.as_deref().unwrap_or("none") {
                    x @ ("replace" | "draw") => {
                        let end = if x == "replace" { cx.e.t.rules.table.replacement.clone() } else { "head".into() };
                        match cx.draw(s, &end)? {
                            None => {
                                *at = 99;
                                return Ok(Out::Call(Step::Exhaust { at: 0 }));
                            }
                            Some(k) => {
                                *claimed = false;
                                *allow_win = true;
                                if let Some(c) = cx.event("draw", &Bound::at(Some(s), Some(Some(k))))? {
                                    return Ok(Out::Call(c));
                                }
                            }
                        }
                    }
                    "discard" => *claimed = true,
                    "next_turn" => return Ok(Out::Done(Val::Turn(TurnEnd::Pass))),
                    "auto" => cx.h.st.seats[s].auto = true,
                    _ => {
                        let seat = &mut cx.h.st.seats[s];
                        if seat.drawn.is_some_and(|d| !seat.hand.contains(&d)) {
                            seat.drawn = None;
                        }
                    }
                }
            }
            99 => {
                // won or exhausted; or won and play goes on (`winners_leave`) from the seat the win says
                return Ok(Out::Done(Val::Turn(match std::mem::replace(&mut v, Val::None) {
                    Val::Next(Some(n)) if !cx.h.st.finished => TurnEnd::Goto(n),
                    _ => TurnEnd::Over,
                })));
            }
            _ => return Err(not_ported("play_turn", "a turn's action and its `then`")),
        }
        v = Val::None;
    }
}

/// `_auto_discard`: the drawn tile if it may be discarded, else the first held that may (None: none may).
fn auto_discard(c: &super::offers::Ctx, s: usize) -> Result<Option<usize>, super::offers::Why> {
    let seat = &c.st.seats[s];
    if let Some(d) = seat.drawn.filter(|d| seat.hand.contains(d)) {
        if !c.restricted("discard", s, Some(d))? {
            return Ok(Some(d));
        }
    }
    for &k in &seat.hand {
        if !c.restricted("discard", s, Some(k))? {
            return Ok(Some(k));
        }
    }
    Ok(None)
}

/// `_s_after_discard`: the discard's event; the discarder's own declarations (not ported); the others'
/// claims (the claim window is step 8: ported while no seat is offered one).
fn after_discard(cx: &mut Cx, f: &mut Step, v: Val) -> Res<Out> {
    let Step::AfterDiscard { at, s, t, tile, own, chosen } = f else { unreachable!() };
    let (s, t) = (*s, *t);
    // the claims worked out with the own declarations at 1 (none offered), taken at 5 in the same call
    let mut ready = None;
    loop {
        match *at {
            0 => {
                *tile = Some(t);
                *at = 1;
                if let Some(c) = cx.event("discard", &Bound::at(Some(s), Some(Some(t))))? {
                    return Ok(Out::Call(c));
                }
            }
            1 => {
                if cx.h.st.finished {
                    return Ok(Out::Done(Val::Next(None)));
                }
                *at = 5;
                if !cx.h.st.seats[s].auto {
                    // the own declarations, and where there are none the others' claims on the same state
                    // (nothing is asked or changed between the two): one decision's work for both
                    let (found, claims) = cx.offers(|c| {
                        let mut found = Vec::new();
                        for &i in c.offerable("discard").iter() {
                            if c.o.rules.actions[i].by == "self" {
                                found.extend(c.action_moves(i, s, Some(t), None, NO_BIND)?);
                            }
                        }
                        let claims = if found.is_empty() { Some(claim_offers(c, s, t, false)?) } else { None };
                        Ok((found, claims))
                    })?;
                    ready = claims;
                    if !found.is_empty() {
                        let comp = found.iter().find(|(_, o)| o.compulsory).cloned();
                        *own = Some(found);
                        match comp {
                            None => {
                                *at = 2;
                                let ms = own.as_ref().expect("set above");
                                let options = cx.offers(|c| c.with_pass(s, ms))?;
                                return Ok(Out::Ask(Ask {
                                    kind: "self",
                                    options: vec![(s, options)],
                                    event: "discard".into(),
                                    actor: Some(s),
                                    tile: Some(t),
                                    own: false,
                                }));
                            }
                            Some(c) => {
                                *chosen = Some(c);
                                *at = 3;
                            }
                        }
                    }
                }
            }
            2 => {
                let mv = answer(&v, s);
                let ms = own.as_ref().expect("asked at 1");
                *chosen = Some(pick(ms, &mv));
                *at = 3;
            }
            3 => {
                *at = 4;
                let ms = own.as_ref().expect("offered at 1");
                let mv = chosen.as_ref().expect("chosen before 3").0.clone();
                if let Some(d) = cx.declines(ms, &mv, Bound::turn(s, *tile)) {
                    return Ok(Out::Call(d));
                }
            }
            4 => {
                *at = 5;
                let (mv, o) = chosen.clone().expect("chosen before 4");
                if mv.action != Act::PASS {
                    return Ok(Out::Call(Step::Take { at: 0, s, offer: (mv, o), bind: Bound::turn(s, *tile) }));
                }
            }
            5 => {
                let offers = match ready.take() {
                    Some(o) => o,
                    None => cx.offers(|c| claim_offers(c, s, t, false))?,
                };
                if offers.is_empty() {
                    return Ok(Out::Done(Val::Next(Some((cx.next_seat(s), "draw")))));
                }
                *at = 6;
                return Ok(Out::Call(super::claims::window_resolve("claim", "discard", s, t, offers, Bound {
                    actor: None,
                    tile: None,
                    discarder: Some(Some(s)),
                    robbed: None,
                    more: None,
                })));
            }
            _ => {
                if cx.h.st.finished {
                    return Ok(Out::Done(Val::Next(None)));
                }
                return Ok(Out::Done(match v {
                    Val::Next(Some(n)) => Val::Next(Some(n)),
                    _ => Val::Next(Some((cx.next_seat(s), "draw"))),
                }));
            }
        }
    }
}

/// `_s_declines`.
fn declines(cx: &mut Cx, f: &mut Step) -> Res<Out> {
    let Step::Declines { moves, chosen, bind, i, done } = f else { unreachable!() };
    while *i < moves.len() {
        let o = &moves[*i].1;
        *i += 1;
        let Some(ai) = o.action else { continue };
        let id = cx.e.o.act(ai);
        if id == *chosen || done.contains(&id) || o.compulsory {
            continue;
        }
        done.push(id);
        let name = cx.e.o.rules.actions[ai].name.clone();
        let b = bound(cx.e.t, bind);
        let p = cx.e.p;
        if let Some((_, decline)) = p.actions.get(&name) {
            if !decline.is_empty() {
                let emitted = cx.events(|r| r.run_effects(decline, &b))?;
                for e in emitted {
                    cx.events(|r| r.hooks_only(&e, &b, None))?;
                }
            }
        }
        cx.h.st.tally(format!("decline:{name}"), 1);
        if let Some(c) = cx.event("decline", bind)? {
            return Ok(Out::Call(c));
        }
    }
    Ok(Out::Done(Val::None))
}
