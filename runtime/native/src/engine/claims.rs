//! Claim windows and taking an action, natively (runtime/game/claims.py `_s_window_resolve`, `_s_claim`,
//! `_rank_claims`, `_order_key`, `_after_claim`; turn.py `_s_answers`, `_s_take`): the step functions the
//! driver of engine/steps.rs runs for a discard claimed into a meld or answered with a plain action. A win
//! claimed, a follow-up, an action with a choice or a selection stop the hand by name (not ported yet).

use super::offers::{Act, Mv, Of};
use super::steps::{Ask, Bound, Next, Offer, Out, Res, Step, Val};
use super::course::{answer, bound, not_ported, pick, Cx};
use super::state::Meld;
use super::events::slot;
use crate::program::V;

/// `_window_resolve`: the step asking the seats with offers on tile t of seat s, resolving by priority.
pub fn window_resolve(kind: &'static str, event: &'static str, s: usize, t: usize, offers: Vec<(usize, Vec<Offer>)>, extra: Bound) -> Step {
    Step::WindowResolve {
        at: 0,
        kind,
        event,
        s,
        t,
        offers,
        extra,
        answers: None,
        tile: None,
        order: Vec::new(),
        i: 0,
        claims: None,
    }
}

/// `_s_answers`: a compulsory option is taken unasked when nothing else the seat is offered ranks
/// higher; otherwise the seat chooses, without `pass` when something compulsory is among its options.
pub fn answers(cx: &mut Cx, f: &mut Step, v: Val) -> Res<Out> {
    let Step::Answers { at, kind, offers, event, s, t, answers } = f else { unreachable!() };
    let level = |o: &Of| o.action.map(|i| cx.e.o.rules.actions[i].level);
    if *at == 0 {
        let mut got: Vec<(usize, Offer)> = Vec::new();
        let mut ask: Vec<(usize, Vec<Mv>)> = Vec::new();
        for (c, ms) in offers.iter() {
            let comp = ms.iter().find(|(_, o)| o.compulsory);
            match comp {
                Some(p) if ms.iter().filter_map(|(_, o)| level(o)).min().is_none_or(|m| level(&p.1).unwrap_or(0) <= m) => {
                    got.push((*c, p.clone()));
                }
                Some(_) => ask.push((*c, ms.iter().map(|(m, _)| m.clone()).collect())),
                None => {
                    let c = *c;
                    ask.push((c, cx.offers(|x| x.with_pass(c, ms))?));
                }
            }
        }
        ask.retain(|(_, ms)| !ms.is_empty());
        if ask.is_empty() {
            return Ok(Out::Done(Val::Picked(got)));
        }
        *answers = Some(got);
        *at = 1;
        return Ok(Out::Ask(Ask { kind, options: ask, event: (*event).to_owned(), actor: Some(*s), tile: *t, own: false }));
    }
    let mut got = answers.take().unwrap_or_default();
    if let Val::Answers(a) = &v {
        for (c, _) in a {
            let ms = offers.iter().find(|(x, _)| x == c).map(|(_, ms)| ms.as_slice()).unwrap_or(&[]);
            let p = pick(ms, &answer(&v, *c));
            match got.iter_mut().find(|(x, _)| x == c) {
                Some(e) => e.1 = p,
                None => got.push((*c, p)),
            }
        }
    }
    Ok(Out::Done(Val::Picked(got)))
}

/// `Game.distance`: seat s's place in play order after seat r (r itself last).
pub(super) fn distance(cx: &Cx, r: usize, s: usize) -> usize {
    let n = cx.e.t.n as i64;
    let d = ((s as i64 - r as i64) * cx.e.t.step).rem_euclid(n) as usize;
    if d == 0 {
        cx.e.t.n
    } else {
        d
    }
}

/// `_order_key`: seat order among claimants of one priority level.
fn order_key(cx: &Cx, o: &Of, s: usize, c: usize) -> usize {
    let a = &cx.e.o.rules.actions[o.action.expect("a claim's action")];
    if a.order == "actor" {
        return ((c as i64 - s as i64) * cx.e.t.step).rem_euclid(cx.e.t.n as i64) as usize;
    }
    let r = if a.order == "dealer" { cx.h.st.dealer } else { s };
    distance(cx, r, c)
}

/// `_rank_claims`' sort: by priority, then `order` from seat s (stable, as Python's sort); the first is taken.
pub(super) fn rank_claims(cx: &Cx, claims: &mut Vec<(usize, Offer)>, s: usize) {
    let keys: Vec<(usize, usize)> = claims
        .iter()
        .map(|(c, (_, o))| (o.action.map_or(0, |a| cx.e.o.rules.actions[a].level), order_key(cx, o, s, *c)))
        .collect();
    let mut idx: Vec<usize> = (0..claims.len()).collect();
    idx.sort_by_key(|&k| keys[k]);
    *claims = idx.into_iter().map(|k| claims[k].clone()).collect();
}

/// `_rank_claims`' wins, the claims ranked and the first a win: its own and, under `multiple`, every
/// other win of its priority that allows `multiple` too.
pub(super) fn claimed_wins<'c>(cx: &Cx, ranked: &'c [(usize, Offer)]) -> Vec<&'c Of> {
    let acts = &cx.e.o.rules.actions;
    let top = &ranked[0].1 .1;
    let ta = &acts[top.action.expect("a win's action")];
    let mut wins = vec![top];
    if ta.multiple {
        for (_, (_, o2)) in ranked.iter().skip(1) {
            let Some(a2) = o2.action.map(|x| &acts[x]) else { continue };
            if o2.win && a2.level == ta.level && a2.multiple {
                wins.push(o2);
            }
        }
    }
    wins
}

/// `_s_window_resolve`.
pub fn window_resolve_step(cx: &mut Cx, f: &mut Step, mut v: Val) -> Res<Out> {
    let Step::WindowResolve { at, kind, event, s, t, offers, extra, answers, tile, order, i, claims } = f else {
        unreachable!()
    };
    let (s, t) = (*s, *t);
    loop {
        match *at {
            0 => {
                *at = 1;
                return Ok(Out::Call(Step::Answers {
                    at: 0,
                    kind,
                    offers: offers.clone(),
                    event,
                    s,
                    t: Some(t),
                    answers: None,
                }));
            }
            1 => {
                let Val::Picked(got) = std::mem::replace(&mut v, Val::None) else {
                    return Err(not_ported("window_resolve", "a window answered otherwise"));
                };
                *order = got.iter().map(|(c, _)| *c).collect();
                order.sort_by_key(|&c| distance(cx, s, c));
                *answers = Some(got);
                *tile = Some(t);
                *i = 0;
                *at = 2;
            }
            2 => {
                let got = answers.as_ref().expect("answered at 1");
                while *i < order.len() {
                    let c = order[*i];
                    *i += 1;
                    let ms = offers.iter().find(|(x, _)| *x == c).map(|(_, ms)| ms.as_slice()).unwrap_or(&[]);
                    let mv = &got.iter().find(|(x, _)| *x == c).expect("an answer per seat").1 .0;
                    let b = Bound { actor: Some(c), tile: Some(*tile), discarder: extra.discarder, robbed: extra.robbed, more: None };
                    if let Some(d) = cx.declines(ms, mv, b) {
                        return Ok(Out::Call(d));
                    }
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
                    if mv.action == Act::PASS {
                        continue;
                    }
                    if !o.win && o.opt.is_none() {
                        let b = Bound { actor: Some(c), tile: Some(*tile), discarder: extra.discarder, robbed: extra.robbed, more: None };
                        return Ok(Out::Call(Step::Take { at: 0, s: c, offer: (mv, o), bind: b }));
                    }
                    cl.push((c, (mv, o)));
                }
                if cl.is_empty() {
                    return Ok(Out::Done(Val::Next(None)));
                }
                rank_claims(cx, cl, s);
                let (c, (mv, o)) = cl[0].clone();
                if o.win {
                    let (d, r) = (extra.discarder.flatten(), extra.robbed.flatten());
                    let infos = claimed_wins(cx, cl).iter().map(|x| super::win::win_of(cx, x, d, r, false)).collect::<Res<Vec<_>>>()?;
                    *at = 99;
                    return Ok(Out::Call(Step::Win { at: 0, infos, source: None, i: 0 }));
                }
                *at = 4;
                return Ok(Out::Call(Step::Claim { at: 0, c, s, offer: (mv, o), t, turned: false, bind: None }));
            }
            _ => return Ok(Out::Done(v)),
        }
        v = Val::None;
    }
}

/// The last of tile t on seat s's discards, taken off them.
fn take_discard(cx: &mut Cx, s: usize, t: usize) -> Res<()> {
    let d = &mut cx.h.st.seats[s].discards;
    match d.iter().rposition(|&x| x == t) {
        Some(i) => {
            d.remove(i);
            Ok(())
        }
        None => Err(not_ported("claim", "a claimed tile that is not on the discards")),
    }
}

fn remove_from_hand(cx: &mut Cx, s: usize, tiles: &[usize]) -> Res<()> {
    let hand = &mut cx.h.st.seats[s].hand;
    for &x in tiles {
        match hand.iter().position(|&y| y == x) {
            Some(i) => {
                hand.remove(i);
            }
            None => return Err(not_ported("take", "a meld from tiles the hand does not hold")),
        }
    }
    Ok(())
}

/// The effects of an action, each event they emit run as a hook.
fn effects(cx: &mut Cx, name: &str, b: &Bound) -> Res<()> {
    let eb = bound(cx.e.t, b);
    let p = cx.e.p;
    if let Some((effs, _)) = p.actions.get(name) {
        if !effs.is_empty() {
            let emitted = cx.events(|r| r.run_effects(effs, &eb))?;
            for e in emitted {
                cx.events(|r| r.hooks_only(&e, &eb, None))?;
            }
        }
    }
    Ok(())
}

/// `_s_claim`: seat c claims tile t from seat s's discards into a meld.
pub fn claim(cx: &mut Cx, f: &mut Step) -> Res<Out> {
    let Step::Claim { at, c, s, offer, t, turned, bind } = f else { unreachable!() };
    let (c, s, t) = (*c, *s, *t);
    let e = cx.e;
    let a = &e.o.rules.actions[offer.1.action.expect("a claim's action")];
    loop {
        match *at {
            0 => {
                let opt = offer.1.opt.clone().expect("a claim's meld");
                let mk = cx.e.o.rules.kind(&opt.kind);
                take_discard(cx, s, t)?;
                remove_from_hand(cx, c, &opt.from_hand)?;
                let exposed = mk.is_some_and(|k| k.exposed);
                let claimant = &mut cx.h.st.seats[c];
                let meld = Meld { kind: opt.kind.clone(), tiles: opt.tiles.clone(), exposed, source: Some(s), claimed: Some(t) };
                match opt.extends {
                    Some(x) if x < claimant.melds.len() => claimant.melds[x] = meld,
                    Some(_) => return Err(not_ported("claim", "a meld extended that the seat does not have")),
                    None => claimant.melds.push(meld),
                }
                claimant.drawn = None;
                claimant.changed();
                cx.h.st.seats[s].changed();
                let b = Bound { actor: Some(c), tile: Some(Some(t)), discarder: Some(if *turned { None } else { Some(s) }), robbed: None, more: None };
                effects(cx, &a.name, &b)?;
                *bind = Some(b);
                *at = 1;
                if let Some(c) = cx.event("claim", bind.as_ref().expect("set above"))? {
                    return Ok(Out::Call(c));
                }
            }
            1 => {
                *at = 2;
                if let Some(c) = cx.event(&a.name, bind.as_ref().expect("set at 0"))? {
                    return Ok(Out::Call(c));
                }
            }
            2 => {
                *at = 3;
                let kind = &offer.1.opt.as_ref().expect("a claim's meld").kind;
                if cx.e.o.rules.kind(kind).is_some_and(|k| k.kong) {
                    if let Some(c) = cx.event("kong", bind.as_ref().expect("set at 0"))? {
                        return Ok(Out::Call(c));
                    }
                }
            }
            3 => {
                if cx.h.st.finished {
                    return Ok(Out::Done(Val::Next(None)));
                }
                *at = 4;
                return Ok(Out::Call(follow_step(c, &a.name, Some(t))));
            }
            _ => {
                if cx.h.st.finished {
                    return Ok(Out::Done(Val::Next(None)));
                }
                return Ok(Out::Done(Val::Next(Some(after_claim(cx, &a.then, c, s)))));
            }
        }
    }
}

/// `choice_value`: the value a move's choice stands for, evaluated with the step's bindings; a plain choice
/// no value stands for is itself the value (a number, text).
fn choice_value(cx: &mut Cx, i: usize, s: usize, bind: &Bound, plain: &serde_json::Value) -> Res<V> {
    use serde_json::Value as J;
    let b = super::course::bound_offers(bind);
    let (actor, tile) = (bind.actor.unwrap_or(s), bind.tile.flatten());
    if let Some(v) = cx.offers(|c| c.choice_value(i, actor, tile, &b, plain))? {
        return Ok(v);
    }
    match plain {
        J::Number(x) if x.is_i64() => Ok(V::Int(x.as_i64().expect("checked"))),
        J::Bool(x) => Ok(V::Bool(*x)),
        J::String(x) => Ok(V::Str(std::sync::Arc::from(x.as_str()))),
        _ => Err(not_ported("take", "a choice no value of the action stands for")),
    }
}

/// `_after_claim`: where play goes on after a claim, by the action's `then`.
pub(super) fn after_claim(cx: &mut Cx, then: &str, c: usize, s: usize) -> Next {
    match then {
        "replace" => (c, "replace"),
        "draw" => (c, "draw"),
        "next_turn" => (cx.next_seat(c), "draw"),
        "none" => (cx.next_seat(s), "draw"),
        "auto" => {
            cx.h.st.seats[c].auto = true;
            (c, "claimed")
        }
        _ => (c, "claimed"),
    }
}

/// `_s_take`: a non-win action applied for seat s (a meld from the hand, or a plain action); its `then`.
pub fn take(cx: &mut Cx, f: &mut Step) -> Res<Out> {
    let Step::Take { at, s, offer, bind } = f else { unreachable!() };
    let s = *s;
    let e = cx.e;
    let a = &e.o.rules.actions[offer.1.action.expect("an action's offer")];
    loop {
        match *at {
            0 => {
                if let Some(plain) = offer.0.choice.clone() {
                    let v = choice_value(cx, offer.1.action.expect("an action's offer"), s, bind, &plain)?;
                    bind.set_slot(slot("choice"), v);
                } else if a.select > 0 {
                    // the tiles chosen, which the move names
                    let t = cx.e.t;
                    let tiles = offer.0.tiles.iter().map(|&k| super::course::tile_v(t, Some(k))).collect();
                    bind.set_slot(slot("choice"), V::List(std::sync::Arc::new(tiles)));
                }
                if let Some(opt) = offer.1.opt.clone() {
                    remove_from_hand(cx, s, &opt.from_hand)?;
                    let exposed = cx.e.o.rules.kind(&opt.kind).is_some_and(|k| k.exposed);
                    let seat = &mut cx.h.st.seats[s];
                    match opt.extends {
                        Some(x) if x < seat.melds.len() => {
                            let old = &seat.melds[x];
                            seat.melds[x] = Meld { kind: opt.kind.clone(), tiles: opt.tiles.clone(), exposed, source: old.source, claimed: old.claimed };
                        }
                        Some(_) => return Err(not_ported("take", "a meld extended that the seat does not have")),
                        None => seat.melds.push(Meld { kind: opt.kind.clone(), tiles: opt.tiles.clone(), exposed, source: None, claimed: None }),
                    }
                    if seat.drawn.is_some_and(|d| !seat.hand.contains(&d)) {
                        seat.drawn = None;
                    }
                    seat.changed();
                    bind.set_tile(Some(opt.key));
                }
                effects(cx, &a.name, bind)?;
                *at = 1;
                if let Some(c) = cx.event(&a.name, bind)? {
                    return Ok(Out::Call(c));
                }
            }
            1 => {
                *at = 2;
                if let Some(opt) = &offer.1.opt {
                    if cx.e.o.rules.kind(&opt.kind).is_some_and(|k| k.kong) {
                        if let Some(c) = cx.event("kong", bind)? {
                            return Ok(Out::Call(c));
                        }
                    }
                }
            }
            2 => {
                *at = 3;
                if a.ready && !cx.h.st.seats[s].ready {
                    cx.h.st.seats[s].ready = true;
                    if let Some(c) = cx.event("ready", bind)? {
                        return Ok(Out::Call(c));
                    }
                }
            }
            3 => {
                *at = 4;
                if !a.follow.is_empty() && !cx.h.st.finished {
                    return Ok(Out::Call(follow_step(s, &a.name, bind.tile.flatten())));
                }
            }
            _ => {
                if a.then == "auto" {
                    cx.h.st.seats[s].auto = true;
                }
                return Ok(Out::Done(Val::Then(a.then.clone())));
            }
        }
    }
}

/// `_s_added_kong`: the tile lies in the open while others may rob it; then the kong stands (its
/// events raised) or the turn goes to the robber (`Val::Turn`).
pub fn added_kong(cx: &mut Cx, f: &mut Step, v: Val) -> Res<Out> {
    let Step::AddedKong { at, s, offer, bind } = f else { unreachable!() };
    let s = *s;
    let e = cx.e;
    let a = &e.o.rules.actions[offer.1.action.expect("an action's offer")];
    let opt = offer.1.opt.clone().expect("an added kong's meld");
    let t = *opt.from_hand.first().ok_or_else(|| not_ported("added_kong", "a meld grown by no tile"))?;
    let mut v = v;
    loop {
        match *at {
            0 => {
                remove_from_hand(cx, s, &[t])?;
                let seat = &mut cx.h.st.seats[s];
                seat.discards.push(t); // in the open while it may be robbed
                if seat.drawn.is_some_and(|d| !seat.hand.contains(&d)) {
                    seat.drawn = None;
                }
                seat.changed();
                let b = Bound { actor: Some(s), tile: Some(Some(t)), discarder: None, robbed: None, more: None };
                effects(cx, &a.name, &b)?;
                *bind = Some(b);
                *at = 1;
                if let Some(c) = cx.event("added_kong", bind.as_ref().expect("set above"))? {
                    return Ok(Out::Call(c));
                }
            }
            1 => {
                let offers = cx.offers(|c| super::offer_decisions::claim_offers(c, s, t, true))?;
                *at = 2;
                if !offers.is_empty() {
                    let extra = Bound { actor: None, tile: None, discarder: Some(Some(s)), robbed: Some(Some(s)), more: None };
                    return Ok(Out::Call(window_resolve("rob", "added_kong", s, t, offers, extra)));
                }
                v = Val::None;
            }
            2 => {
                if cx.h.st.finished {
                    return Ok(Out::Done(Val::Turn(super::steps::TurnEnd::Over)));
                }
                if let Val::Next(Some(n)) = v {
                    return Ok(Out::Done(Val::Turn(super::steps::TurnEnd::Goto(n))));
                }
                // the kong stands
                let exposed = cx.e.o.rules.kind(&opt.kind).is_some_and(|k| k.exposed);
                let seat = &mut cx.h.st.seats[s];
                seat.discards.pop();
                let x = opt.extends.expect("an added kong extends a meld");
                if x >= seat.melds.len() {
                    return Err(not_ported("added_kong", "a meld extended that the seat does not have"));
                }
                let old = &seat.melds[x];
                seat.melds[x] = Meld { kind: opt.kind.clone(), tiles: opt.tiles.clone(), exposed, source: old.source, claimed: old.claimed };
                seat.changed();
                *at = 3;
                if let Some(c) = cx.event(&a.name, bind.as_ref().expect("set at 0"))? {
                    return Ok(Out::Call(c));
                }
                v = Val::None;
            }
            3 => {
                *at = 4;
                if cx.e.o.rules.kind(&opt.kind).is_some_and(|k| k.kong) {
                    if let Some(c) = cx.event("kong", bind.as_ref().expect("set at 0"))? {
                        return Ok(Out::Call(c));
                    }
                }
            }
            _ => return Ok(Out::Done(Val::None)),
        }
    }
}

fn follow_step(c: usize, action: &str, t: Option<usize>) -> Step {
    Step::Follow { at: 0, c, action: action.to_owned(), t, k: 0, moves: None, chosen: None }
}

/// `_s_follow`: after an action, its follow-ups are offered to the same seat, repeatedly while one is
/// legal (compulsory ones taken; 16 at most), before the action's `then`.
pub fn follow(cx: &mut Cx, f: &mut Step, v: Val) -> Res<Out> {
    let Step::Follow { at, c, action, t, k, moves, chosen } = f else { unreachable!() };
    let c = *c;
    let e = cx.e;
    let Some(a) = e.o.rules.action(action) else { return Ok(Out::Done(Val::None)) };
    let Some(t) = *t else { return Ok(Out::Done(Val::None)) };
    if a.follow.is_empty() {
        return Ok(Out::Done(Val::None));
    }
    let mut v = v;
    loop {
        match *at {
            0 => {
                if *k >= 16 {
                    return Ok(Out::Done(Val::None));
                }
                *k += 1;
                let names = a.follow.clone();
                let ms: Vec<Offer> = cx.offers(|x| {
                    let mut ms = Vec::new();
                    for name in &names {
                        ms.extend(x.follow_moves(name, c, t)?);
                    }
                    Ok(ms)
                })?;
                if ms.is_empty() {
                    return Ok(Out::Done(Val::None));
                }
                let comp = ms.iter().find(|(_, o)| o.compulsory).cloned();
                *moves = Some(ms);
                if let Some(p) = comp {
                    *chosen = Some(p);
                    *at = 2;
                    continue;
                }
                *at = 1;
                let ms = moves.as_ref().expect("set above");
                let options = cx.offers(|x| x.with_pass(c, ms))?;
                v = Val::None;
                if !options.is_empty() {
                    return Ok(Out::Ask(Ask { kind: "self", options: vec![(c, options)], event: a.name.clone(), actor: Some(c), tile: Some(t), own: false }));
                }
            }
            1 => {
                let ms = moves.as_ref().expect("offered at 0");
                let mv = answer(&v, c);
                *chosen = Some(pick(ms, &mv));
                *at = 2;
                if let Some(d) = cx.declines(ms, &mv, Bound::turn(c, Some(t))) {
                    return Ok(Out::Call(d));
                }
            }
            2 => {
                let (mv, o) = chosen.clone().expect("chosen before 2");
                if mv.action == Act::PASS {
                    return Ok(Out::Done(Val::None));
                }
                *at = 3;
                return Ok(Out::Call(Step::Take { at: 0, s: c, offer: (mv, o), bind: Bound::turn(c, Some(t)) }));
            }
            _ => {
                if cx.h.st.finished {
                    return Ok(Out::Done(Val::None));
                }
                *at = 0;
            }
        }
    }
}
