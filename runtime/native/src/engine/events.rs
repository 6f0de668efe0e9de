//! Events, natively (runtime/game/events.py): an event counted, the phases it enters or leaves (with
//! their own `phase_enter`/`phase_leave` events), the hooks on it (their effects, engine/effects.rs, and
//! the events they emit, nested at most `MAX_DEPTH` deep), then its payments (engine/settle.rs) and the
//! reveals that move (`moves_when`), in the reference's order; the bindings an event carries.
//!
//! Where the reference catches an evaluation error and notes it (`Game.note_error`: the condition is
//! then false, the effect skipped), the native run stops (`Halt::Stop`): the hand is to go back to the
//! reference, so its errors are never written twice. What is not ported — an expression the game-scope
//! lowering refuses (engine/scope.rs: waits and wins until engine/winning.rs), a value the native state
//! does not hold (a fraction in a state) — is `Halt::Refused` with its sentence, never another result.

use std::sync::Arc;

pub use super::event_rules::{EffOp, Effect, On, Program, Target};
use super::rng::Rng;
pub use super::scope::slot;
use super::scope::{ReadingAt, WinQuestions, WinReading, BOUND};
use super::state::{get, get_at, put_at, HandState, Value};
use super::table::Table;
use super::values::{hand_wilds, Bound, Ev};
use crate::program::V;

/// Events raised by events (emit, phase triggers) nest at most this deep (records.py `MAX_DEPTH`).
pub const MAX_DEPTH: usize = 16;

/// Why a native run did not finish.
#[derive(Debug)]
pub enum Halt {
    /// The reference notes an error here (what it notes it about): the hand goes back to the reference.
    Stop(String),
    /// Not ported (a sentence): counted, never compared.
    Refused(String),
}

pub type H<T> = Result<T, Halt>;

pub(super) fn refused(what: &str) -> Halt {
    Halt::Refused(format!("the native engine does not execute {what} yet"))
}

/// The bindings of one event (the reference's `bind` dict): per slot of `scope::BOUND`, the value the
/// event binds (`Some(V::None)`: bound to none; None: not bound, the game's base value is read), and
/// whether it is one win's event (`ONE_WIN`).
#[derive(Clone)]
pub struct Bind {
    /// (a fixed array, not a vector: an event's bindings are made and dropped at every event)
    pub given: [Option<V>; BOUND.len()],
    pub one_win: bool,
    /// The win of the moment: `self_drawn` where the event binds it, and its reading (None: the event
    /// has none; Err(why): it has one not found natively — an expression reading it is refused).
    pub win: WinBind,
}

/// What an event binds of the win of the moment (`self_drawn`, `reading`).
#[derive(Clone, Default)]
pub struct WinBind {
    pub self_drawn: Option<bool>,
    pub reading: Option<Result<Arc<WinReading>, &'static str>>,
}

impl Bind {
    pub fn new() -> Bind {
        const UNBOUND: Option<V> = None;
        Bind { given: [UNBOUND; BOUND.len()], one_win: false, win: WinBind::default() }
    }

    pub fn get(&self, slot: usize) -> Option<&V> {
        self.given[slot].as_ref()
    }

    pub fn set(&mut self, name: &str, v: V) {
        if let Some(i) = BOUND.iter().position(|b| *b == name) {
            self.given[i] = Some(v);
        }
    }
}

impl Default for Bind {
    fn default() -> Self {
        Bind::new()
    }
}

/// No bindings (a reveal's condition, a fee): one made once, lent at every event.
pub fn unbound() -> &'static Bind {
    static NONE: std::sync::OnceLock<Bind> = std::sync::OnceLock::new();
    NONE.get_or_init(Bind::new)
}

pub(super) const B_ACTOR: usize = slot("actor");
pub(super) const B_WINNER: usize = slot("winner");

/// A seat a binding holds: Ok(None) for none, a stop for anything else (the reference reads `.vars` or
/// `.index` of it and raises).
pub(super) fn seat_of(v: Option<&V>, what: &str) -> H<Option<usize>> {
    match v {
        None | Some(V::None) => Ok(None),
        Some(V::Seat(s)) => Ok(Some(*s as usize)),
        Some(_) => Err(Halt::Stop(format!("`{what}` is not a seat"))),
    }
}

/// `event` counted once (by its index where the rule set knows it: `on`).
pub fn count(st: &mut HandState, p: &Program, event: &str, on: On) {
    match on.id {
        Some(i) => st.events.count_at(&p.event_names, i, 1),
        None => st.count(event, 1),
    }
}

/// Which payments an event makes (`settle.settle`'s `deferred`): those without `after` (Some(false)),
/// only those with it (Some(true)), all (None).
pub type Deferred = Option<bool>;

/// One run of events on a hand's state: the state, the hand's generator, what the reference's `Game`
/// holds beside them that events read (the moves made so far, for the chance record; the tiles given
/// inside a decision asked together, not yet delivered; each winner's bindings once scored).
pub struct Run<'a> {
    pub t: &'a Table,
    pub p: &'a Program,
    pub wins: &'a dyn WinQuestions,
    pub st: &'a mut HandState, // the hand's state, borrowed (not moved in and out per run)
    pub rng: &'a mut Rng, // the hand's generator, borrowed (not copied per run: 2.5 KB)
    pub base: Vec<V>, // per slot of `scope::BOUND`: the game's value when an event does not bind it
    pub moves: usize,
    pub transit: Option<Vec<(usize, Vec<usize>)>>,
    pub winners: Option<Vec<Vec<(usize, V)>>>, // `Game.winner_binding` of each winner, in `st.winners` order
    pub winner_wins: Vec<Option<WinBind>>, // ... and its win (None: the binding has none), in the same order
    pub base_self_drawn: Option<bool>, // `self_drawn` among the game's base values (the hand's first win, scored)
    depth: usize,
    pub(super) wild: Option<Vec<bool>>, // `hand_wilds` of the state, until a reveal changes
}

impl<'a> Run<'a> {
    pub fn new(t: &'a Table, p: &'a Program, wins: &'a dyn WinQuestions, st: &'a mut HandState, rng: &'a mut Rng) -> Run<'a> {
        Run {
            t,
            p,
            wins,
            st,
            rng,
            base: Vec::new(), // (set by the caller: the game's base values, or their defaults)
            moves: 0,
            transit: None,
            winners: None,
            winner_wins: Vec::new(),
            base_self_drawn: None,
            depth: 0,
            wild: None,
        }
    }

    /// Expression `i` under these bindings: its value, a stop where the reference raises, the refusal
    /// of an expression the lowering refused.
    pub fn eval(&mut self, i: usize, b: &Bind, what: &str) -> H<V> {
        self.eval_with(i, b, || what.to_owned())
    }

    /// `eval` with the stop's subject made only when it stops (an effect's label is formatted per effect
    /// otherwise, on every event).
    pub fn eval_with(&mut self, i: usize, b: &Bind, what: impl FnOnce() -> String) -> H<V> {
        match self.p.scope.exprs.get(i) {
            Some(Err(why)) => return Err(Halt::Refused(why.clone())),
            // a constant (an effect's `set actor.flag = false`): its value, no evaluation set up for it
            Some(Ok(crate::program::Node::Const(v))) => return Ok(v.clone()),
            _ => {}
        }
        self.evaluate(b, |ev| ev.expr(i), what)
    }

    /// A part of an expression of the scope (engine/kept.rs), evaluated as `eval` evaluates a whole one.
    pub(super) fn eval_node(&mut self, node: &crate::program::Node, b: &Bind) -> H<V> {
        self.evaluate(b, |ev| ev.part(node), || "condition".to_owned())
    }

    fn evaluate(&mut self, b: &Bind, run: impl FnOnce(&mut Ev) -> Result<V, crate::program::Stop>, what: impl FnOnce() -> String) -> H<V> {
        // the wildcards the win questions keep for these values, else worked out once for the run
        let wins: &'a dyn WinQuestions = self.wins;
        let wild = match wins.hand_wild(self.st) {
            Some(w) => w,
            None => self.wild.get_or_insert_with(|| hand_wilds(self.t, self.st)).as_slice(),
        };
        // the event's bindings over the game's base values, read in place
        let mut ev = Ev::on(&self.p.scope, self.t, self.st, wild, self.wins, Bound::Over(&b.given, &self.base));
        ev.self_drawn = b.win.self_drawn.or(self.base_self_drawn);
        ev.reading = ReadingAt::of(&b.win.reading);
        let got = run(&mut ev);
        // a question not answered natively on this state: refused, never another value
        let declined = self.wins.take_declined();
        if let Some(why) = ev.declined {
            return Err(Halt::Refused(format!("a reading of a win ({why})")));
        }
        if let Some(why) = declined {
            return Err(Halt::Refused(format!("a win or wait question declined natively ({why})")));
        }
        got.map_err(|_| Halt::Stop(what()))
    }

    /// `Values.condition_holds`: no condition holds.
    pub fn holds(&mut self, c: Option<usize>, b: &Bind, what: &str) -> H<bool> {
        self.holds_with(c, b, || what.to_owned())
    }

    /// `holds` with the stop's subject made only when it stops; a condition whose leading conjuncts
    /// answer it from the bindings (engine/guard.rs), or whose answer is known from what it read before
    /// (engine/kept.rs), not evaluated.
    pub fn holds_with(&mut self, c: Option<usize>, b: &Bind, what: impl FnOnce() -> String) -> H<bool> {
        let Some(i) = c else { return Ok(true) };
        let p = self.p;
        if let Some(known) = p.guard_of.get(i).and_then(Option::as_ref).and_then(|g| self.guarded(g, b)) {
            return Ok(known);
        }
        match self.p.keep_of.get(i).copied().flatten() {
            Some(k) => self.kept_holds(k as usize, i, b, what),
            None => Ok(self.eval_with(i, b, what)?.truthy()),
        }
    }

    /// `Events._phases`: the phases the event enters or leaves (each seen as it was before the event),
    /// then each change with its own event. (`on.id` is known: a phase's trigger is among the names.)
    fn phases(&mut self, on: On, b: &Bind) -> H<()> {
        let actor = seat_of(b.get(B_ACTOR), "actor")?;
        let mut changes: Vec<(Option<usize>, usize, bool)> = Vec::new();
        let p = self.p;
        for x in on.id.map_or(&[][..], |i| &p.phases_of[i]) {
            let ph = &p.phases[x.phase];
            let holder = if ph.table {
                None
            } else if let Some(a) = actor {
                Some(a)
            } else {
                continue;
            };
            let vars = match holder {
                Some(s) => &self.st.seats[s].vars,
                None => &self.st.table,
            };
            let cur = get_at(vars, ph.hint, &ph.name).is_some_and(|v| self.value_v(v).truthy());
            let conds = if cur { &x.leave } else { &x.enter };
            let Some(conds) = conds else { continue };
            let mut fire = false;
            for c in conds {
                if self.holds(*c, b, "condition")? {
                    fire = true;
                    break;
                }
            }
            if fire {
                changes.push((holder, x.phase, !cur));
            }
        }
        for (holder, k, value) in changes {
            let ph = &p.phases[k];
            let vars = match holder {
                Some(s) => &mut self.st.seats[s].vars,
                None => &mut self.st.table,
            };
            put_at(vars, ph.hint, &ph.name, Value::Bool(value));
            if value {
                match ph.entered {
                    Some(i) => self.st.events.count_at(&p.event_names, i, 1),
                    None => self.st.tally(format!("phase_enter:{}", ph.name), 1),
                }
            }
            let mut sub = Bind::new();
            sub.given[B_ACTOR] = Some(if ph.table { V::None } else { actor.map_or(V::None, |a| V::Seat(a as u16)) });
            self.hooks_only(if value { "phase_enter" } else { "phase_leave" }, &sub, None)?;
        }
        Ok(())
    }

    /// `Events._hooks_only`: the phases, hooks and payments of an event (no decisions).
    pub fn hooks_only(&mut self, event: &str, b: &Bind, pay: Deferred) -> H<()> {
        // (one lookup for the hooks, the phases, the payments and the count)
        self.hooks_only_on(event, self.p.on(event), b, pay)
    }

    /// `hooks_only` with what the event sets going found by the caller (`Program::on`).
    pub fn hooks_only_on(&mut self, event: &str, on: On, b: &Bind, pay: Deferred) -> H<()> {
        self.hooks_at(event, on, b)?;
        self.pay_at(event, on, b, pay)?;
        self.depth -= 1;
        Ok(())
    }

    /// The first half of `_hooks_body` (with `_hooks_only`'s depth check): the event counted, its phases,
    /// its hooks with the events they emit. The depth stays raised until `pay` has run (`hooks_only`).
    pub fn hooks(&mut self, event: &str, b: &Bind) -> H<()> {
        self.hooks_at(event, self.p.on(event), b)
    }

    fn hooks_at(&mut self, event: &str, on: On, b: &Bind) -> H<()> {
        if self.depth >= MAX_DEPTH {
            return Err(Halt::Stop(format!("`{event}` emitted inside {MAX_DEPTH} nested events")));
        }
        self.depth += 1;
        count(self.st, self.p, event, on);
        if on.phase {
            self.phases(on, b)?;
        }
        let p = self.p;
        // (`on.hooks`: the event is among the names, its hooks found by its index)
        if let Some(hooks) = on.id.filter(|_| on.hooks).map(|i| &p.hooks_of[i]) {
            for h in hooks {
                if !self.holds(h.when, b, "condition")? {
                    continue;
                }
                for name in self.run_effects(&h.effects, b)? {
                    self.hooks_only(&name, b, None)?;
                }
            }
        }
        Ok(())
    }

    /// The second half of `_hooks_body` (after a win's final scoring, `between`): the payments, then the
    /// reveals that move.
    pub fn pay(&mut self, event: &str, b: &Bind, pay: Deferred) -> H<()> {
        self.pay_at(event, self.p.on(event), b, pay)
    }

    fn pay_at(&mut self, event: &str, on: On, b: &Bind, pay: Deferred) -> H<()> {
        if on.pays {
            self.settle(event, b, pay)?;
        }
        if !self.p.moving.is_empty() {
            self.moves_reveals()?;
        }
        Ok(())
    }

    /// The depth `hooks` raised, lowered for a run that stops after it (the harness's first half).
    pub fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// `Setup._reveals("win")`: each reveal turned at a win, unless its `unless` holds.
    pub fn reveals_at_win(&mut self) -> H<()> {
        let p = self.p;
        for &(ri, unless) in &p.at_win {
            if unless.is_some() && self.holds(unless, unbound(), "condition")? {
                continue;
            }
            if !self.st.reveal_ids_known {
                return Err(refused("a reveal at a win on a state read without its reveal ids"));
            }
            super::setup::flip(self.st, self.t, &self.t.rules.reveals[ri]);
            self.wild = None;
        }
        Ok(())
    }

    /// `Setup._moves_reveals`: a turned reveal whose `moves_when` holds is turned again (at most 8 times
    /// in a row, until it no longer moves).
    fn moves_reveals(&mut self) -> H<()> {
        let p = self.p;
        for (j, &(ri, cond)) in p.moving.iter().enumerate() {
            let r = &self.t.rules.reveals[ri];
            if matches!(get(&self.st.reveals, &r.name), None | Some(Value::None)) {
                continue;
            }
            let mut guard = 0;
            // (asked again only when what it reads changed: engine/moving.rs)
            while guard < 8 && self.moving_holds(j, cond)? {
                let before = get(&self.st.reveals, &r.name).cloned();
                let ids = self.st.reveal_ids.get(&r.name).map_or(0, Vec::len);
                if !self.st.reveal_ids_known {
                    return Err(refused("a reveal moving on a state read without its reveal ids"));
                }
                super::setup::flip(self.st, self.t, r);
                self.wild = None;
                guard += 1;
                if self.st.reveal_ids.get(&r.name).map_or(0, Vec::len) == ids
                    && get(&self.st.reveals, &r.name).cloned() == before
                {
                    break;
                }
                self.st.tally(format!("reveal_move:{}", r.name), 1);
            }
        }
        Ok(())
    }
}
