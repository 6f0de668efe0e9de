//! The hand's course natively (runtime/game/turn.py `_s_hand`, `_s_play_turn`; opening.py's steps while
//! they ask nothing; claims.py `_s_after_discard` while no seat can claim; events.py `_event`,
//! `_s_declines`; setup.py `_draw`, `_flower_effects`): the step functions the driver of engine/steps.rs
//! runs. What is not ported yet stops the hand with a sentence naming the step (docs/engine-native.md,
//! steps 7 and 8), never a different course.

use pyo3::Python;

use super::event_rules::Program;
use super::events::{Bind as EvBind, Halt, Run, H};
use super::offer_decisions::{claim_offers, start_win_offers, together_offers};
use super::offers::{Ctx, Mv, Offers, Why, NO_BIND};
use super::rng::Rng;
use super::state::HandState;
use super::steps::{Ask, Bound, Offer, Out, Res, Step, TurnEnd, Val};
use super::table::Table;
use super::winning::{StateWins, Winning};
use crate::hand::HandCtx;
use crate::program::V;

/// The events whose decisions the engine's own steps ask (engine_limits.py `ENGINE_OFFERED`).
const ENGINE_OFFERED: [&str; 8] = ["turn", "draw", "reveal", "discard", "added_kong", "win_offer", "deal", "opening"];
/// The events of the hand's start whose decisions come before the turns (turn.py `OPENING_EVENTS`).
const OPENING_EVENTS: [&str; 2] = ["deal", "opening"];

/// What a hand is played with: the table, the event program, the legal moves' program, the win
/// machinery (with the whole-hand scoring the Python side handed over, when it did).
pub struct Eng<'a> {
    pub t: &'a Table,
    pub p: &'a Program,
    pub o: &'a Offers,
    pub w: &'a Winning,
    pub end: &'a super::ending::EndRules,
    pub hand: Option<(Python<'a>, &'a HandCtx<'a>)>,
}

/// The hand's state beside its continuation: the state, its generator, the moves made so far.
pub struct Hand {
    pub st: HandState,
    pub rng: Rng,
    pub moves: usize,
}

pub struct Cx<'e, 'a> {
    pub e: &'e Eng<'a>,
    pub h: &'e mut Hand,
}

pub fn not_ported(step: &str, what: &str) -> String {
    format!("the native hand does not play the step `{step}` ({what}) yet")
}

fn why(w: Why) -> String {
    match w {
        Why::Stop => "the native hand stopped where the reference notes an error (the hand goes back to it)".into(),
        Why::Refused(s) => s,
    }
}

fn halt(h: Halt) -> String {
    match h {
        Halt::Stop(w) => format!("the native hand stopped where the reference notes an error ({w})"),
        Halt::Refused(w) => w,
    }
}

pub(super) fn tile_v(t: &Table, k: Option<usize>) -> V {
    k.map_or(V::None, |k| V::Tile(((k as u32) << 2) | (t.cat.kinds[k].category == "joker") as u32))
}

/// The bindings of an event of the turn: the actor and the tile (None: not bound).
pub(super) fn ev_bind(t: &Table, actor: Option<usize>, tile: Option<Option<usize>>) -> EvBind {
    bound(t, &Bound { actor, tile, discarder: None, robbed: None })
}

/// A step's bindings as an event's.
pub(super) fn bound(t: &Table, b: &Bound) -> EvBind {
    let seat = |s: Option<usize>| s.map_or(V::None, |s| V::Seat(s as u16));
    let mut e = EvBind::new();
    if let Some(a) = b.actor {
        e.set("actor", V::Seat(a as u16));
    }
    if let Some(k) = b.tile {
        e.set("tile", tile_v(t, k));
    }
    if let Some(d) = b.discarder {
        e.set("discarder", seat(d));
    }
    if let Some(r) = b.robbed {
        e.set("robbed", seat(r));
    }
    e
}

impl Cx<'_, '_> {
    /// The legal moves' work on the state as it is now: `f` with a `Ctx`; a win question the native
    /// machinery declines stops the hand by name.
    pub(super) fn offers<T>(&mut self, f: impl FnOnce(&Ctx) -> Result<T, Why>) -> Res<T> {
        let e = self.e;
        let wins: StateWins = e.w.on(e.t, &self.h.st, e.hand);
        let c = Ctx::new(e.o, e.t, &self.h.st, &wins);
        let got = f(&c);
        if let Some(w) = wins.take_declined() {
            return Err(format!("a win question the native machinery declines ({w})"));
        }
        let offered = c.offered_wins.take();
        let got = got.map_err(why)?;
        // the `win_offer` event of each seat offered a win (`_win_moves`), after its moves are worked out
        for (s, k) in offered {
            let b = ev_bind(e.t, Some(s), Some(k));
            self.events(|r| r.hooks_only("win_offer", &b, None))?;
        }
        Ok(got)
    }

    /// One run of events on the state (engine/events.rs), the generator and the moves made handed over.
    pub(super) fn events<T>(&mut self, f: impl FnOnce(&mut Run) -> H<T>) -> Res<T> {
        let e = self.e;
        let st = std::mem::replace(&mut self.h.st, HandState::new(0, 0, Vec::new(), Vec::new()));
        let wins: StateWins = e.w.on(e.t, &st, e.hand);
        let mut run = Run::new(e.t, e.p, &wins, st, self.h.rng.clone());
        run.moves = self.h.moves;
        let out = f(&mut run);
        let Run { st, rng, .. } = run;
        self.h.st = st;
        self.h.rng = rng;
        if let Some(w) = wins.take_declined() {
            return Err(format!("a win question the native machinery declines ({w})"));
        }
        out.map_err(halt)
    }

    pub(super) fn opens_actions(&self, event: &str) -> bool {
        self.e.o.rules.actions.iter().any(|a| a.events.iter().any(|x| x == event))
    }

    /// `_event`: phases, hooks, payments; the decisions it opens (not ported: `event`); its deferred payments.
    pub(super) fn event(&mut self, name: &str, b: &EvBind) -> Res<()> {
        self.events(|r| r.hooks_only(name, b, Some(false)))?;
        if !ENGINE_OFFERED.contains(&name) && self.opens_actions(name) {
            return Err(not_ported("event", &format!("the decisions `{name}` opens")));
        }
        if self.e.p.pay.on.contains_key(name) {
            self.events(|r| r.settle(name, b, Some(true)))?;
        }
        Ok(())
    }

    pub(super) fn next_seat(&self, s: usize) -> usize {
        let t = self.e.t;
        let n = t.n as i64;
        let step = |x: usize| ((x as i64 + t.step).rem_euclid(n)) as usize;
        let mut nxt = step(s);
        if t.rules.table.winners_leave {
            while self.h.st.winners.contains(&nxt) && nxt != s {
                nxt = step(nxt);
            }
        }
        nxt
    }

    pub(super) fn in_play(&self, s: usize) -> bool {
        !(self.e.t.rules.table.winners_leave && self.h.st.winners.contains(&s))
    }

    pub(super) fn order_from(&self, start: usize) -> Vec<usize> {
        let n = self.e.t.n as i64;
        (0..n).map(|k| ((start as i64 + self.e.t.step * k).rem_euclid(n)) as usize).collect()
    }

    /// `_draw`: seat s draws from `end` (head | tail); flowers are set aside (their actions' effects run)
    /// and replaced. None: the wall is exhausted.
    pub(super) fn draw(&mut self, s: usize, end: &str) -> Res<Option<usize>> {
        let t = self.e.t;
        let mut end = end.to_owned();
        loop {
            let st = &mut self.h.st;
            if st.wall.len() as i64 <= t.rules.table.exhaust_at {
                return Ok(None);
            }
            let i = if end == "head" {
                0
            } else {
                (0..st.wall.len()).rev().find(|&j| !st.pinned.contains(&st.wall[j])).unwrap_or(st.wall.len() - 1)
            };
            let tid = st.wall.remove(i);
            st.pinned.remove(&tid);
            let k = st.kind_of[tid];
            st.last_drawer = Some(s);
            if t.cat.kinds[k].category == "flower" {
                st.seats[s].aside.push(k);
                self.flower_effects(s, k)?;
                end = t.rules.table.replacement.clone();
                continue;
            }
            let seat = &mut st.seats[s];
            seat.hand.push(k);
            seat.drawn = Some(k);
            seat.changed();
            return Ok(Some(k));
        }
    }

    /// `_flower_effects`: the compulsory actions `draw` opens for a flower set aside run their effects and
    /// raise their name.
    fn flower_effects(&mut self, s: usize, k: usize) -> Res<()> {
        let o = self.e.o;
        for a in o.rules.actions.iter().filter(|a| a.events.iter().any(|x| x == "draw")) {
            if !a.compulsory || !a.forms.is_empty() || a.wins || a.description {
                continue;
            }
            if !self.offers(|c| c.holds(a.when, s, Some(k), NO_BIND, None))? {
                continue;
            }
            let b = ev_bind(self.e.t, Some(s), Some(Some(k)));
            let p = self.e.p;
            if let Some((effects, _)) = p.actions.get(&a.name) {
                self.events(|r| r.run_effects(effects, &b).map(|_| ()))?;
            }
            self.events(|r| r.hooks_only(&a.name, &b, None))?;
        }
        Ok(())
    }

    /// `_declines`: the step declining every action offered to seat s and not chosen (None: nothing to decline).
    pub(super) fn declines(&self, moves: &[Offer], chosen: &Mv, bind: Bound) -> Option<Step> {
        let names = &self.e.o.rules.actions;
        let any = moves
            .iter()
            .any(|(_, o)| o.action.is_some_and(|i| names[i].name != chosen.action && !o.compulsory));
        any.then(|| Step::Declines {
            moves: moves.to_vec(),
            chosen: chosen.action.clone(),
            bind,
            i: 0,
            done: Vec::new(),
        })
    }

    pub(super) fn discard(&mut self, s: usize, k: usize) {
        let seat = &mut self.h.st.seats[s];
        if let Some(i) = seat.hand.iter().position(|&x| x == k) {
            seat.hand.remove(i);
        }
        seat.discards.push(k);
        seat.drawn = None;
        seat.changed();
    }
}

/// `pick`: the offer behind an answer (the first with an equal move), or a pass.
pub(super) fn pick(moves: &[Offer], mv: &Mv) -> Offer {
    moves
        .iter()
        .find(|(m, _)| m == mv)
        .cloned()
        .unwrap_or_else(|| (Mv::plain("pass", Vec::new()), super::offers::NO_OFFER))
}

pub(super) fn answer(v: &Val, s: usize) -> Mv {
    match v {
        Val::Answers(a) => a.iter().find(|(x, _)| *x == s).map(|(_, m)| m.clone()),
        _ => None,
    }
    .unwrap_or_else(|| Mv::plain("pass", Vec::new()))
}

/// One step function call (the registry of steps.py): the step resumed with `v`.
pub fn step(cx: &mut Cx, f: &mut Step, v: Val) -> Res<Out> {
    match f {
        Step::Hand { .. } => hand(cx, f, v),
        Step::StartWins { event } => {
            let event = *event;
            let dealer = cx.h.st.dealer;
            let offers = cx.offers(|c| start_win_offers(c, event, dealer))?;
            if offers.is_empty() {
                return Ok(Out::Done(Val::None));
            }
            Err(not_ported("start_wins", &format!("the wins `{event}` offers")))
        }
        Step::Together { event } => {
            let event = *event;
            let dealer = cx.h.st.dealer;
            let n = cx.e.t.n;
            let offers = cx.offers(|c| together_offers(c, event, dealer, &vec![Vec::new(); n]))?;
            if offers.is_empty() {
                return Ok(Out::Done(Val::None));
            }
            Err(not_ported("together", &format!("the decisions `{event}` asks together")))
        }
        Step::StartDecisions { event, s } => {
            let (event, s) = (*event, *s);
            if !cx.in_play(s) {
                return Ok(Out::Done(Val::None));
            }
            let acts = cx.offers(|c| {
                Ok(c.actions_on(event)
                    .into_iter()
                    .filter(|&i| {
                        let a = &c.o.rules.actions[i];
                        !a.together
                            && (c.by_ok(&a.by, s, Some(s))
                                || (matches!(a.by.as_str(), "dealer" | "non_dealer" | "any") && c.by_ok(&a.by, s, None)))
                    })
                    .count())
            })?;
            if acts == 0 {
                return Ok(Out::Done(Val::None));
            }
            Err(not_ported("start_decisions", &format!("a seat's decisions at `{event}`")))
        }
        Step::PlayTurn { .. } => play_turn(cx, f, v),
        Step::AfterDiscard { .. } => after_discard(cx, f, v),
        Step::Declines { .. } => declines(cx, f),
        Step::Answers { .. } => super::claims::answers(cx, f, v),
        Step::WindowResolve { .. } => super::claims::window_resolve_step(cx, f, v),
        Step::Claim { .. } => super::claims::claim(cx, f),
        Step::Take { .. } => super::claims::take(cx, f),
        Step::Exhaust { .. } => super::ending::exhaust(cx, f),
        Step::HandEnd { .. } => super::ending::hand_end(cx, f),
    }
}

/// `_s_hand`.
fn hand(cx: &mut Cx, f: &mut Step, mut v: Val) -> Res<Out> {
    let Step::Hand { at, opening, ev, decided, order, i, nxt, turned } = f else { unreachable!() };
    loop {
        match *at {
            0 => {
                // (the setup, `_setup_hand`, is made when the hand is built: engine/setup.rs)
                *opening = true;
                *ev = 0;
                *decided = vec![Vec::new(); cx.e.t.n];
                *at = 2;
                cx.event("deal", &EvBind::new())?;
            }
            2 => {
                *at = 3;
                if OPENING_EVENTS[*ev] == "opening" {
                    cx.event("opening", &EvBind::new())?;
                }
            }
            3 => {
                *at = 4;
                return Ok(Out::Call(Step::StartWins { event: OPENING_EVENTS[*ev] }));
            }
            4 => {
                *at = 5;
                let st = &cx.h.st;
                if st.finished && !st.exhausted {
                    return Err(not_ported("hand_end", "the hand's end after a win"));
                }
            }
            5 => {
                if cx.h.st.finished {
                    return Ok(Out::Done(Val::None));
                }
                *at = 16;
                return Ok(Out::Call(Step::Together { event: OPENING_EVENTS[*ev] }));
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
                return Ok(Out::Call(Step::StartDecisions { event: OPENING_EVENTS[*ev], s: o[*i] }));
            }
            7 => {
                *at = 8;
                let st = &cx.h.st;
                if st.finished && !st.exhausted {
                    return Err(not_ported("hand_end", "the hand's end after a win"));
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
                decided.clear();
                let d = cx.h.st.dealer;
                *nxt = if cx.in_play(d) { (d, "first") } else { (cx.next_seat(d), "draw") };
                *turned = cx.opens_actions("reveal");
                *at = 10;
            }
            10 => {
                let (s, how) = *nxt;
                if *turned && how == "draw" {
                    return Err(not_ported("turn_card", "a drawn card turned over and offered"));
                }
                *at = 12;
                if how == "draw" || how == "replace" {
                    let end = if how == "draw" { "head".to_owned() } else { cx.e.t.rules.table.replacement.clone() };
                    match cx.draw(s, &end)? {
                        None => {
                            *at = 99;
                            return Ok(Out::Call(Step::Exhaust { at: 0 }));
                        }
                        Some(k) => cx.event("draw", &ev_bind(cx.e.t, Some(s), Some(Some(k))))?,
                    }
                }
            }
            12 => {
                let (s, how) = *nxt;
                *at = 13;
                if how != "claimed" {
                    cx.h.st.turn += 1;
                    let drawn = cx.h.st.seats[s].drawn;
                    cx.event("turn", &ev_bind(cx.e.t, Some(s), Some(drawn)))?;
                }
            }
            13 => {
                let (s, how) = *nxt;
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
                        return Ok(Out::Call(Step::HandEnd { at: 0 }));
                    }
                    continue;
                }
                let s = nxt.0;
                match std::mem::replace(&mut v, Val::None) {
                    Val::Turn(TurnEnd::Pass) => {
                        *nxt = (cx.next_seat(s), "draw");
                        *at = 10;
                    }
                    Val::Turn(TurnEnd::Goto(n)) => {
                        *nxt = n;
                        *at = 10;
                    }
                    Val::Turn(TurnEnd::Discarded(t)) => {
                        *at = 15;
                        return Ok(Out::Call(Step::AfterDiscard { at: 0, s, t, tile: None }));
                    }
                    _ => return Err(not_ported("hand", "a turn that ended otherwise")),
                }
            }
            15 => {
                match std::mem::replace(&mut v, Val::None) {
                    Val::Next(Some(n)) => *nxt = n,
                    _ if cx.h.st.finished => {}
                    _ => return Err(not_ported("hand", "a claim window that ended otherwise")),
                }
                *at = 10;
                if cx.h.st.finished {
                    *at = 99;
                    if !cx.h.st.exhausted {
                        return Ok(Out::Call(Step::HandEnd { at: 0 }));
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
                let ms: Vec<Offer> = cx
                    .offers(|c| c.turn_moves(s, cl, aw))?
                    .into_iter()
                    .filter(|(m, _)| !taken.contains(m))
                    .collect();
                let comp = ms.iter().find(|(_, o)| o.compulsory).cloned();
                *moves = Some(ms);
                let ms = moves.as_ref().expect("set above");
                let auto = cx.h.st.seats[s].auto;
                if comp.is_none() && auto {
                    return Err(not_ported("play_turn", "the turn of a seat that plays automatically"));
                }
                match comp {
                    None => {
                        if ms.is_empty() {
                            return Ok(Out::Done(Val::Turn(TurnEnd::Pass)));
                        }
                        let options = if ms.iter().any(|(m, _)| m.action == "discard") {
                            ms.iter().map(|(m, _)| m.clone()).collect()
                        } else {
                            cx.offers(|c| c.with_pass(s, ms))?
                        };
                        *at = 3;
                        let drawn = cx.h.st.seats[s].drawn;
                        return Ok(Out::Ask(Ask {
                            kind: "turn",
                            options: vec![(s, options)],
                            event: "turn".into(),
                            actor: Some(s),
                            tile: drawn,
                        }));
                    }
                    Some(c) => {
                        *chosen = Some(c);
                        *at = 5;
                    }
                }
            }
            3 => {
                let mv = answer(&v, s);
                let ms = moves.as_ref().expect("asked at 0");
                *chosen = Some(pick(ms, &mv));
                *at = 5;
                let drawn = cx.h.st.seats[s].drawn;
                if let Some(d) = cx.declines(ms, &mv, Bound::turn(s, drawn)) {
                    return Ok(Out::Call(d));
                }
            }
            5 => {
                let (mv, offer) = chosen.clone().expect("chosen before 5");
                if !taken.contains(&mv) {
                    taken.push(mv.clone());
                }
                if mv.action == "pass" {
                    return Ok(Out::Done(Val::Turn(TurnEnd::Pass)));
                }
                if mv.action == "discard" {
                    let k = mv.tiles[0];
                    cx.discard(s, k);
                    return Ok(Out::Done(Val::Turn(TurnEnd::Discarded(k))));
                }
                if offer.won.is_some() || offer.win {
                    return Err(not_ported("win", "a win taken"));
                }
                let a = &cx.e.o.rules.actions[offer.action.expect("an action's offer")];
                let drawn = cx.h.st.seats[s].drawn;
                if !a.instead_of.is_empty() {
                    *at = 6;
                    return Ok(Out::Call(Step::Take { at: 0, s, offer: (mv.clone(), offer.clone()), bind: Bound::turn(s, drawn) }));
                }
                if offer.opt.as_ref().is_some_and(|o| o.extends.is_some()) {
                    return Err(not_ported("added_kong", "a meld upgraded in the turn, which others may rob"));
                }
                *at = 8;
                return Ok(Out::Call(Step::Take { at: 0, s, offer: (mv.clone(), offer.clone()), bind: Bound::turn(s, drawn) }));
            }
            6 => {
                *allow_win = false;
                *at = 0;
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
                                cx.event("draw", &ev_bind(cx.e.t, Some(s), Some(Some(k))))?;
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
                // won or exhausted (a win's `winners_leave` course is not ported: the win is refused)
                return Ok(Out::Done(Val::Turn(TurnEnd::Over)));
            }
            _ => return Err(not_ported("play_turn", "a turn's action and its `then`")),
        }
        v = Val::None;
    }
}

/// `_s_after_discard`: the discard's event; the discarder's own declarations (not ported); the others'
/// claims (the claim window is step 8: ported while no seat is offered one).
fn after_discard(cx: &mut Cx, f: &mut Step, v: Val) -> Res<Out> {
    let Step::AfterDiscard { at, s, t, tile } = f else { unreachable!() };
    let (s, t) = (*s, *t);
    loop {
        match *at {
            0 => {
                *tile = Some(t);
                *at = 1;
                cx.event("discard", &ev_bind(cx.e.t, Some(s), Some(Some(t))))?;
            }
            1 => {
                if cx.h.st.finished {
                    return Ok(Out::Done(Val::Next(None)));
                }
                if !cx.h.st.seats[s].auto {
                    let own = cx.offers(|c| {
                        let mut own = Vec::new();
                        for i in c.offerable("discard") {
                            if c.o.rules.actions[i].by == "self" {
                                own.extend(c.action_moves(i, s, Some(t), None, NO_BIND)?);
                            }
                        }
                        Ok(own)
                    })?;
                    if !own.is_empty() {
                        return Err(not_ported("after_discard", "the discarder's own declarations on its discard"));
                    }
                }
                *at = 5;
            }
            5 => {
                let offers = cx.offers(|c| claim_offers(c, s, t, false))?;
                if offers.is_empty() {
                    return Ok(Out::Done(Val::Next(Some((cx.next_seat(s), "draw")))));
                }
                *at = 6;
                return Ok(Out::Call(super::claims::window_resolve("claim", "discard", s, t, offers, Bound {
                    actor: None,
                    tile: None,
                    discarder: Some(Some(s)),
                    robbed: None,
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
        let name = cx.e.o.rules.actions[ai].name.clone();
        if name == *chosen || done.contains(&name) || o.compulsory {
            continue;
        }
        done.push(name.clone());
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
        cx.event("decline", &b)?;
    }
    Ok(Out::Done(Val::None))
}
