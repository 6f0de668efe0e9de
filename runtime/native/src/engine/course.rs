//! The means the hand's steps are played with natively (engine/turn.rs, opening.rs, claims.rs,
//! ending.rs): what a hand is played with (`Eng`), its state beside the continuation (`Hand`), and the
//! engine's own operations on them the reference's `Game` methods make (events.py `_event`, `_declines`;
//! setup.py `_draw`, `_flower_effects`; values.py `next_seat`, `in_play`, `order_from`; the legal moves
//! worked out on the state with the `win_offer` event they raise).

use pyo3::Python;

use super::event_rules::Program;
use super::events::{Bind as EvBind, Halt, Run, H, MAX_DEPTH};
use super::offers::{Act, Ctx, Mv, Offers, Why, NO_BIND};
use super::rng::Rng;
use super::state::HandState;
use super::steps::{Bound, Key, Offer, Res, Step, Val};
use super::table::Table;
use super::winning::{StateWins, TrialParts, Winning};
use crate::hand::HandCtx;
use crate::program::V;

/// The events whose decisions the engine's own steps ask (engine_limits.py `ENGINE_OFFERED`).
pub(super) const ENGINE_OFFERED: [&str; 8] = ["turn", "draw", "reveal", "discard", "added_kong", "win_offer", "deal", "opening"];
/// The events of the hand's start whose decisions come before the turns (turn.py `OPENING_EVENTS`).
pub(super) const OPENING_EVENTS: [&str; 2] = ["deal", "opening"];

/// What a native hand is played with, read once from the rule set under its room options: the table, the
/// event rules, the legal moves' rules, the win questions and the hand's end (`EngineHand`, `EngineSim`).
pub(crate) fn parts(ruleset_json: &str, opts: &super::table::Options) -> Result<(Table, Program, Offers, Winning, super::ending::EndRules), crate::Error> {
    let table = Table::new(ruleset_json, opts)?;
    let winning = Winning::new(&table, ruleset_json);
    let program = Program::new(&table, ruleset_json, &winning)?;
    let offers = Offers::new(&table, ruleset_json, &winning)?;
    let end = super::ending::EndRules::new(&table, ruleset_json, &winning);
    Ok((table, program, offers, winning, end))
}

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
    /// Per seat, the decisions (actions without a meld or a win) it took at the deal or the opening: not
    /// offered to it again (turn.py's `L["decided"]`, shared by `_s_hand` and `_s_start_decisions`).
    pub decided: Vec<Vec<String>>,
    /// Events whose decisions are being asked, nested (`Game.decision_depth`).
    pub depth: usize,
    /// Per seat, its win once taken, as last scored (`Game.infos`).
    pub infos: Vec<Option<super::win::WinI>>,
    /// The game's base values of the bindings (`Game._base`: what the hand's end binds of its first win),
    /// with its `self_drawn` (not a binding's slot).
    pub base: Vec<V>,
    pub base_self_drawn: Option<bool>,
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
    bound(t, &Bound::at(actor, tile))
}

/// A step's bindings as an event's.
pub(super) fn bound(t: &Table, b: &Bound) -> EvBind {
    let seat = |s: Option<usize>| s.map_or(V::None, |s| V::Seat(s as u16));
    let mut e = EvBind::new();
    // the slots by position (scope::BOUND's order), not found by name at every event
    let [actor, tile, _winner, discarder, robbed, ..] = super::scope::BOUND;
    debug_assert_eq!([actor, tile, discarder, robbed], ["actor", "tile", "discarder", "robbed"]);
    if let Some(a) = b.actor {
        e.given[0] = Some(V::Seat(a as u16));
    }
    if let Some(k) = b.tile {
        e.given[1] = Some(tile_v(t, k));
    }
    if let Some(d) = b.discarder {
        e.given[3] = Some(seat(d));
    }
    if let Some(r) = b.robbed {
        e.given[4] = Some(seat(r));
    }
    for k in b.more.iter().flat_map(|m| m.keys.iter()) {
        match k {
            Key::Slot(s, v) => e.given[*s] = Some(v.clone()),
            Key::SelfDrawn(x) => e.win.self_drawn = Some(*x),
            Key::Reading(w) => e.win.reading = Some(w.reading.0.clone()),
            Key::OneWin => e.one_win = true,
            _ => {}
        }
    }
    e
}

impl Cx<'_, '_> {
    /// The legal moves' work on the state as it is now: `f` with a `Ctx`; a win question the native
    /// machinery declines stops the hand by name.
    pub(super) fn offers<T>(&mut self, f: impl FnOnce(&Ctx) -> Result<T, Why>) -> Res<T> {
        let e = self.e;
        let mut wins: StateWins = e.w.on(e.t, &self.h.st, e.hand);
        // each win found carries its reading, which a win's guard may read (`form`, a pattern)
        wins.set_reading_names(&e.o.scope.reading_names);
        // a win whose taking sets context values is tried on a copy before it is offered
        wins.set_trial(TrialParts { p: e.p, end: e.end, base: &self.h.base, base_self_drawn: self.h.base_self_drawn, offer_names: &e.o.scope.reading_names });
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
        // each winner's bindings (`winner_binding`), for the payments made per winner (none before a win:
        // nothing collected)
        let winners = if self.h.st.winners.is_empty() {
            None
        } else {
            let binds: Vec<Vec<(usize, V)>> = self.h.st.winners.iter().map(|&w| self.winner_slots(w)).collect::<Res<_>>()?;
            Some((binds, self.h.st.winners.iter().map(|&w| self.winner_win(w)).collect()))
        };
        let wins: StateWins = e.w.on(e.t, &self.h.st, e.hand);
        let mut run = Run::new(e.t, e.p, &wins, &mut self.h.st, &mut self.h.rng);
        run.moves = self.h.moves;
        // the run reads the base values and leaves them as they are: lent, put back below
        run.base = std::mem::take(&mut self.h.base);
        run.base_self_drawn = self.h.base_self_drawn;
        if let Some((binds, winner_wins)) = winners {
            run.winners = Some(binds);
            run.winner_wins = winner_wins;
        }
        let out = f(&mut run);
        let Run { base, .. } = run;
        self.h.base = base;
        if let Some(w) = wins.take_declined() {
            return Err(format!("a win question the native machinery declines ({w})"));
        }
        out.map_err(halt)
    }

    pub(super) fn opens_actions(&self, event: &str) -> bool {
        self.e.o.rules.actions.iter().any(|a| a.events.iter().any(|x| x == event))
    }

    /// Whether an action `by winner` is among those the event opens.
    pub(super) fn opens_by_winner(&self, event: &str) -> bool {
        self.e.o.rules.actions.iter().any(|a| a.by == "winner" && a.events.iter().any(|x| x == event))
    }

    /// `_event`: phases, hooks, payments; the step asking the decisions it opens (`event`), or its
    /// deferred payments when it opens none.
    pub(super) fn event(&mut self, name: &str, b: &Bound) -> Res<Option<Step>> {
        let p = self.e.p;
        let on = p.on(name); // (one lookup: its hooks, phases, payments and count)
        // (whether it opens decisions reads the rules only: found first, so that the bindings are made,
        // used and dropped in one place)
        let opens = !ENGINE_OFFERED.contains(&name) && self.opens_actions(name);
        let st = &mut self.h.st;
        // an event that sets nothing going, with no winner's bindings to make and no reveal to ask
        // whether it moves, is only counted: no run of events (its bindings, the win questions) made
        let quiet = on.counted_only() && st.winners.is_empty() && super::moving::none_asked(p, self.e.t, st);
        if quiet {
            super::events::count(st, p, name, on);
        } else {
            let eb = bound(self.e.t, b);
            self.events(|r| r.hooks_only_on(name, on, &eb, Some(false)))?;
            if on.pays && !opens {
                self.events(|r| r.settle(name, &eb, Some(true)))?;
            }
        }
        if opens {
            if self.h.depth >= MAX_DEPTH {
                return Err(format!(
                    "the native hand stopped where the reference notes an error (`{name}` raised inside {MAX_DEPTH} nested decisions)"
                ));
            }
            self.h.depth += 1;
            return Ok(Some(Step::Event { at: 0, event: name.to_owned(), bind: b.clone(), turn: None }));
        }
        Ok(None)
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
            // (only when pinned: a mutable touch counts as a change of the seen tiles, `Tracked`)
            if st.pinned.contains(&tid) {
                st.pinned.remove(&tid);
            }
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
        let any = moves
            .iter()
            .any(|(_, o)| o.action.is_some_and(|i| self.e.o.act(i) != chosen.action && !o.compulsory));
        any.then(|| Step::Declines {
            moves: moves.to_vec(),
            chosen: chosen.action,
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
        .unwrap_or_else(|| (Mv::pass(), super::offers::NO_OFFER))
}

/// `pick` of the move at index `i` of `moves` (an answer given as an index): the first move equal to it.
/// The engine's own discards (`NO_OFFER`'s, one a kind) equal no other of them, so only the moves
/// before `i` that are not such are compared.
pub(super) fn pick_at(moves: &[Offer], i: usize) -> Offer {
    let mv = &moves[i].0;
    let own_discard = |(m, o): &Offer| m.action == Act::DISCARD && o.action.is_none();
    let first = if own_discard(&moves[i]) {
        moves[..i].iter().position(|x| !own_discard(x) && x.0 == *mv)
    } else {
        moves[..i].iter().position(|x| x.0 == *mv)
    };
    moves[first.unwrap_or(i)].clone()
}

pub(super) fn answer(v: &Val, s: usize) -> Mv {
    match v {
        Val::Answers(a) => a.iter().find(|(x, _)| *x == s).map(|(_, m)| m.clone()),
        _ => None,
    }
    .unwrap_or_else(Mv::pass)
}

/// A step's bindings as the legal moves take them (`_action_moves`' discarder and robbed seat, and an
/// event window's other bindings: a won hand's, a choice).
pub(super) fn bound_offers(b: &Bound) -> super::offers::Bind {
    let mut o = super::offers::Bind { discarder: b.discarder.flatten(), robbed: b.robbed.flatten(), ..Default::default() };
    for k in b.more.iter().flat_map(|m| m.keys.iter()) {
        match k {
            Key::Slot(s, v) => o.extra.push((*s, v.clone())),
            Key::SelfDrawn(x) => o.self_drawn = Some(*x),
            _ => {} // (a win's reading as the legal moves read it: engine/window.rs)
        }
    }
    o
}
