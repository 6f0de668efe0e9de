//! Events and their effects, natively (runtime/game/events.py): the state changes of effects (`set`,
//! `add`, `remove`, `clear`, `emit`, `roll`, `give`) on their targets, the phases an event enters or
//! leaves (with their own `phase_enter`/`phase_leave` events), the hooks on an event (effects, events
//! they emit, nested at most `MAX_DEPTH` deep), then its payments (engine/settle.rs) and the reveals that
//! move (`moves_when`), in the reference's order.
//!
//! Where the reference catches an evaluation error and notes it (`Game.note_error`: the condition is
//! then false, the effect skipped), the native run stops (`Halt::Stop`): the hand is to go back to the
//! reference, so its errors are never written twice. What is not ported — an expression the game-scope
//! lowering refuses (engine/scope.rs: waits and wins until engine/winning.rs), a value the native state
//! does not hold (a fraction in a state) — is `Halt::Refused` with its sentence, never another result.

use std::sync::Arc;

use serde_json::{json, Value as J};

pub use super::event_rules::{EffOp, Effect, Program, Target};
use super::rng::Rng;
use super::scope::{ReadingAt, WinQuestions, WinReading, BOUND};
use super::state::{get, put, HandState, Value};
use super::table::Table;
use super::values::{hand_wilds, Bound, Ev};
use crate::program::{arith, kind_of, Op, V};

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

fn refused(what: &str) -> Halt {
    Halt::Refused(format!("the native engine does not execute {what} yet"))
}

/// The bindings of one event (the reference's `bind` dict): per slot of `scope::BOUND`, the value the
/// event binds (`Some(V::None)`: bound to none; None: not bound, the game's base value is read), and
/// whether it is one win's event (`ONE_WIN`).
#[derive(Clone)]
pub struct Bind {
    pub given: Vec<Option<V>>,
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
        Bind { given: vec![None; BOUND.len()], one_win: false, win: WinBind::default() }
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

pub fn slot(name: &str) -> usize {
    BOUND.iter().position(|b| *b == name).expect("a binding of scope::BOUND")
}

/// A seat a binding holds: Ok(None) for none, a stop for anything else (the reference reads `.vars` or
/// `.index` of it and raises).
fn seat_of(v: Option<&V>, what: &str) -> H<Option<usize>> {
    match v {
        None | Some(V::None) => Ok(None),
        Some(V::Seat(s)) => Ok(Some(*s as usize)),
        Some(_) => Err(Halt::Stop(format!("`{what}` is not a seat"))),
    }
}

/// A value as the state holds it; a fraction or a meld group is not held natively.
pub fn held(v: &V) -> H<Value> {
    Ok(match v {
        V::None => Value::None,
        V::Bool(b) => Value::Bool(*b),
        V::Int(i) => Value::Int(*i),
        V::Rat(..) => return Err(refused("a fractional value in a state")),
        V::Str(s) => Value::Str(s.to_string()),
        V::Tile(c) => Value::Tile(kind_of(*c) as usize),
        V::Seat(s) => Value::Seat(*s as usize),
        V::List(items) => Value::List(items.iter().map(held).collect::<H<_>>()?),
        V::Group(_) => return Err(refused("a meld group in a state")),
    })
}

/// `state.plain` of an evaluated value (a roll's draws).
fn plain(t: &Table, v: &V) -> H<J> {
    Ok(match v {
        V::None => J::Null,
        V::Bool(b) => json!(b),
        V::Int(i) => json!(i),
        V::Rat(n, d) => J::String(format!("{n}/{d}")),
        V::Str(s) => J::String(s.to_string()),
        V::Tile(c) => J::String(t.names[kind_of(*c) as usize].clone()),
        V::Seat(s) => json!({ "seat": s }),
        V::List(items) => J::Array(items.iter().map(|x| plain(t, x)).collect::<H<_>>()?),
        V::Group(_) => return Err(refused("a meld group drawn by a roll")),
    })
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
    wild: Option<Vec<bool>>, // `hand_wilds` of the state, until a reveal changes
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
        if let Some(Err(why)) = self.p.scope.exprs.get(i) {
            return Err(Halt::Refused(why.clone()));
        }
        if self.wild.is_none() {
            self.wild = Some(hand_wilds(self.t, self.st));
        }
        let wild = self.wild.as_deref().unwrap_or(&[]);
        // the event's bindings over the game's base values, read in place
        let mut ev = Ev::on(&self.p.scope, self.t, self.st, wild, self.wins, Bound::Over(&b.given, &self.base));
        ev.self_drawn = b.win.self_drawn.or(self.base_self_drawn);
        ev.reading = ReadingAt::of(&b.win.reading);
        let got = ev.expr(i);
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

    /// `holds` with the stop's subject made only when it stops.
    pub fn holds_with(&mut self, c: Option<usize>, b: &Bind, what: impl FnOnce() -> String) -> H<bool> {
        match c {
            None => Ok(true),
            Some(i) => Ok(self.eval_with(i, b, what)?.truthy()),
        }
    }

    fn tile_v(&self, k: usize) -> V {
        V::Tile(((k as u32) << 2) | self.p.scope.kind_joker[k] as u32)
    }

    fn value_v(&self, v: &Value) -> V {
        match v {
            Value::None => V::None,
            Value::Bool(b) => V::Bool(*b),
            Value::Int(i) => V::Int(*i),
            Value::Str(s) => V::Str(std::sync::Arc::from(s.as_str())),
            Value::Tile(k) => self.tile_v(*k),
            Value::Seat(s) => V::Seat(*s as u16),
            Value::List(items) => V::List(std::sync::Arc::new(items.iter().map(|x| self.value_v(x)).collect())),
        }
    }

    /// `Events._initial`: a state's initial value (of the scope its holder has), else a context value's
    /// default (`Rules.settings_env(None)`: the rule set's, not the room's), else false (a phase).
    fn initial(&self, name: &str, scope: Option<&str>) -> H<Value> {
        let t = self.t;
        if let Some(scope) = scope {
            if let Some(sv) = t.rules.states.iter().find(|s| s.name == name && s.scope == scope) {
                let v = t.eval(&sv.init, None).map_err(|_| refused("clearing a state whose initial value is not a plain one"))?;
                return Ok(match v {
                    crate::expr::Val::None => match sv.ty.as_str() {
                        "bool" => Value::Bool(false),
                        "int" | "num" => Value::Int(0),
                        "tiles" => Value::List(Vec::new()),
                        _ => Value::None,
                    },
                    v => t.value(v).map_err(|_| refused("clearing a state to a tile not in play"))?,
                });
            }
        }
        let setting = t.rules.settings.iter().find(|s| s.name == name);
        match (setting, scope) {
            (Some(s), _) if s.role == "context" => {
                let v = t.eval(&s.default, None).map_err(|_| refused("clearing to a default that is not a plain value"))?;
                t.value(v).map_err(|_| refused("clearing to a tile not in play"))
            }
            (Some(_), _) => Ok(Value::None), // an option is no context value: `settings_env` gives none
            (None, Some(_)) => Ok(Value::Bool(false)),
            (None, None) => Ok(Value::None),
        }
    }

    /// `Events._target`: the holder (Some(seat), or None for the table) of a state target.
    fn seat_target(&self, binding: &str, b: &Bind) -> H<usize> {
        let given = BOUND.iter().position(|x| *x == binding).and_then(|i| b.get(i));
        if let Some(s) = seat_of(given, binding)? {
            return Ok(s);
        }
        if binding == "dealer" {
            return Ok(self.st.dealer);
        }
        if binding == "winner" && !self.st.winners.is_empty() {
            return Ok(self.st.winners[0]);
        }
        Err(Halt::Stop(format!("`{binding}` has no value here")))
    }

    /// `Events._run_effects`: the effects in order; the events they emit.
    pub fn run_effects(&mut self, effects: &[Effect], b: &Bind) -> H<Vec<String>> {
        let mut emitted = Vec::new();
        for ef in effects {
            match ef.op {
                EffOp::Emit => {
                    if let Target::Event(e) = &ef.target {
                        emitted.push(e.clone());
                    }
                    continue;
                }
                EffOp::Give => {
                    self.give(ef, b)?;
                    continue;
                }
                _ => {}
            }
            let what = || format!("effect {:?} {}", ef.op, ef.label);
            // the holder: Some(Some(seat)) a seat's state, Some(None) the table's, None a context value
            let holder: Option<Option<usize>> = match &ef.target {
                Target::Table(_) => Some(None),
                Target::Seat(binding, _) => Some(Some(self.seat_target(binding, b)?)),
                _ => None,
            };
            let name: &str = match &ef.target {
                Target::Table(n) | Target::Seat(_, n) | Target::Context(n) => n,
                _ => return Err(Halt::Stop(what())),
            };
            let value = match ef.value {
                Some(i) => self.eval_with(i, b, what)?,
                None => V::None,
            };
            let cur: Option<Value> = match holder {
                Some(Some(s)) => get(&self.st.seats[s].vars, name).cloned(),
                Some(None) => get(&self.st.table, name).cloned(),
                None => get(&self.st.context, name).cloned(),
            };
            let new: Value = match ef.op {
                EffOp::Roll => self.roll(ef, &value, holder)?,
                EffOp::Set => held(&value)?,
                EffOp::Clear => match holder {
                    Some(h) => self.initial(name, Some(if h.is_none() { "table" } else { "player" }))?,
                    None => self.initial(name, None)?,
                },
                op => match self.added(op, cur.as_ref(), &value)? {
                    Some(v) => v,
                    None => return Err(Halt::Stop(what())),
                },
            };
            match holder {
                None => self.st.put_context(name, new),
                Some(h) => {
                    if new == Value::Bool(true) && cur != Some(Value::Bool(true)) {
                        self.st.tally(format!("state:{name}"), 1); // a flag turning on: tallied
                    }
                    let vars = match h {
                        Some(s) => &mut self.st.seats[s].vars,
                        None => &mut self.st.table,
                    };
                    put(vars, name, new);
                }
            }
        }
        Ok(emitted)
    }

    /// The context statements of `effects` on a trial (runtime/game/win_trial.py `trial_context`): each
    /// `set`/`add`/`remove`/`clear` of a context value applied to this run's state (a copy), in order;
    /// every other effect left out. A statement whose evaluation stops is skipped, as the win itself
    /// would skip it. Whether any value was stored.
    pub fn trial_effects(&mut self, effects: &[Effect], b: &Bind) -> H<bool> {
        let mut changed = false;
        for ef in effects {
            let Target::Context(name) = &ef.target else { continue };
            if !matches!(ef.op, EffOp::Set | EffOp::Add | EffOp::Remove | EffOp::Clear) {
                continue;
            }
            let what = || format!("effect {:?} {}", ef.op, ef.label);
            let value = match ef.value.map(|i| self.eval_with(i, b, what)) {
                None => V::None,
                Some(Ok(v)) => v,
                Some(Err(Halt::Stop(_))) => continue,
                Some(Err(e)) => return Err(e),
            };
            let cur = get(&self.st.context, name).cloned();
            let new = match ef.op {
                EffOp::Set => held(&value)?,
                EffOp::Clear => self.initial(name, None)?,
                op => match self.added(op, cur.as_ref(), &value)? {
                    Some(v) => v,
                    None => continue,
                },
            };
            self.st.put_context(name, new);
            changed = true;
        }
        Ok(changed)
    }

    /// `add`/`remove` of `value` to the current value `cur`: a list gains each item, or loses the first
    /// equal one of each; anything else is `(cur or 0) ± value`, None when that arithmetic fails (the
    /// effect then stops, or a trial skips it).
    fn added(&self, op: EffOp, cur: Option<&Value>, value: &V) -> H<Option<Value>> {
        if let Some(Value::List(items)) = cur {
            let mut new = items.clone();
            let add: Vec<Value> = match held(value)? {
                Value::List(v) => v,
                v => vec![v],
            };
            for x in add {
                if op == EffOp::Add {
                    new.push(x);
                } else if let Some(p) = new.iter().position(|y| y.py_eq(&x)) {
                    new.remove(p);
                }
            }
            return Ok(Some(Value::List(new)));
        }
        let c = cur.map(|v| self.value_v(v)).unwrap_or(V::None);
        let c = if c.truthy() { c } else { V::Int(0) }; // `cur or 0`
        let o = if op == EffOp::Add { Op::Add } else { Op::Sub };
        match arith(o, &c, value) {
            Ok(v) => Ok(Some(held(&v)?)),
            Err(_) => Ok(None),
        }
    }

    /// The hooks on `event` on a trial: each whose condition holds (one that stops is skipped), its
    /// context statements only (`trial_effects`); no phase, payment or emitted event. Whether any value
    /// was stored.
    pub fn trial_hooks(&mut self, event: &str, b: &Bind) -> H<bool> {
        let p = self.p;
        let mut changed = false;
        for h in p.hooks_on.get(event).map(Vec::as_slice).unwrap_or(&[]) {
            if !h.effects.iter().any(|ef| matches!(ef.target, Target::Context(_))) {
                continue;
            }
            match self.holds(h.when, b, "condition") {
                Ok(true) => {}
                Ok(false) | Err(Halt::Stop(_)) => continue,
                Err(e) => return Err(e),
            }
            changed |= self.trial_effects(&h.effects, b)?;
        }
        Ok(changed)
    }

    /// `Events._roll`: `times` items drawn with the hand's generator, summed when more than one, written
    /// into the hand's chance record.
    fn roll(&mut self, ef: &Effect, items: &V, holder: Option<Option<usize>>) -> H<Value> {
        let what = format!("effect roll {}", ef.label);
        let items = match items {
            V::List(l) if !l.is_empty() && !l.iter().any(|x| matches!(x, V::None)) => l.clone(),
            _ => return Err(Halt::Stop(what)),
        };
        let draws: Vec<V> = (0..ef.times)
            .map(|_| items[self.rng.randrange(items.len() as u64) as usize].clone())
            .collect();
        let mut new = draws[0].clone();
        for d in &draws[1..] {
            new = arith(Op::Add, &new, d).map_err(|_| Halt::Stop(what.clone()))?;
        }
        let record = json!({
            "move": self.moves, "target": ef.label, "seat": holder.flatten(),
            "draws": draws.iter().map(|d| plain(self.t, d)).collect::<H<Vec<_>>>()?,
            "value": plain(self.t, &new)?,
        });
        let value = held(&new)?;
        self.st.chance.push(record);
        Ok(value)
    }

    /// `Events._give`: the tiles leave the actor's concealed hand for the receiver's (held back while a
    /// decision asked together is answered); nothing moves when the actor does not hold them all.
    fn give(&mut self, ef: &Effect, b: &Bind) -> H<()> {
        let what = "effect give".to_owned();
        let giver = match b.get(slot("actor")) {
            Some(V::Seat(s)) => *s as usize,
            _ => return Err(Halt::Stop(what)),
        };
        let (Some(vi), Some(ti)) = (ef.value, ef.to) else { return Err(Halt::Stop(what)) };
        let tiles = self.eval(vi, b, &what)?;
        let to = self.eval(ti, b, &what)?;
        let kinds: Vec<usize> = match (&to, &tiles) {
            (V::Seat(_), V::Tile(c)) => vec![kind_of(*c) as usize],
            (V::Seat(_), V::List(items)) => items
                .iter()
                .map(|x| match x {
                    V::Tile(c) => Ok(kind_of(*c) as usize),
                    _ => Err(Halt::Stop(what.clone())),
                })
                .collect::<H<_>>()?,
            _ => return Err(Halt::Stop(what)),
        };
        let V::Seat(to) = to else { return Err(Halt::Stop(what)) };
        let seat = &mut self.st.seats[giver];
        let mut hand = seat.hand.clone();
        for k in &kinds {
            match hand.iter().position(|x| x == k) {
                Some(p) => {
                    hand.remove(p);
                }
                None => return Err(Halt::Stop(what)), // the reference notes that the seat does not hold them
            }
        }
        seat.hand = hand;
        if seat.drawn.is_some_and(|d| !seat.hand.contains(&d)) {
            seat.drawn = None;
        }
        seat.changed();
        match &mut self.transit {
            Some(tr) => tr.push((to as usize, kinds)),
            None => self.deliver(vec![(to as usize, kinds)]),
        }
        Ok(())
    }

    /// `Events._deliver`: the tiles given reach their receivers.
    pub fn deliver(&mut self, transit: Vec<(usize, Vec<usize>)>) {
        let st = &mut self.st;
        for (to, tiles) in transit {
            let dealer = st.dealer;
            let turn = st.turn;
            let seat = &mut st.seats[to];
            seat.hand.extend(&tiles);
            // a dealer that gave its last dealt tile away before its first turn starts that turn with
            // the last tile it received
            if let Some(&last) = tiles.last() {
                if turn == 0 && to == dealer && seat.drawn.is_none_or(|d| !seat.hand.contains(&d)) {
                    seat.drawn = Some(last);
                    st.last_dealt = Some(last);
                }
            }
            st.seats[to].changed();
        }
    }

    /// `Events._phases`: the phases the event enters or leaves (each seen as it was before the event),
    /// then each change with its own event.
    fn phases(&mut self, event: &str, b: &Bind) -> H<()> {
        let actor = seat_of(b.get(slot("actor")), "actor")?;
        let mut changes: Vec<(Option<usize>, usize, bool)> = Vec::new();
        let p = self.p;
        for (k, ph) in p.phases.iter().enumerate() {
            let (enter, leave) = (ph.enter.get(event), ph.leave.get(event));
            if enter.is_none() && leave.is_none() {
                continue;
            }
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
            let cur = get(vars, &ph.name).is_some_and(|v| self.value_v(v).truthy());
            let conds = if cur { leave } else { enter };
            let Some(conds) = conds else { continue };
            let mut fire = false;
            for c in conds {
                if self.holds(*c, b, "condition")? {
                    fire = true;
                    break;
                }
            }
            if fire {
                changes.push((holder, k, !cur));
            }
        }
        for (holder, k, value) in changes {
            let ph = &p.phases[k];
            let vars = match holder {
                Some(s) => &mut self.st.seats[s].vars,
                None => &mut self.st.table,
            };
            put(vars, &ph.name, Value::Bool(value));
            if value {
                self.st.tally(format!("phase_enter:{}", ph.name), 1);
            }
            let mut sub = Bind::new();
            sub.set("actor", if ph.table { V::None } else { actor.map_or(V::None, |a| V::Seat(a as u16)) });
            self.hooks_only(if value { "phase_enter" } else { "phase_leave" }, &sub, None)?;
        }
        Ok(())
    }

    /// `Events._hooks_only`: the phases, hooks and payments of an event (no decisions).
    pub fn hooks_only(&mut self, event: &str, b: &Bind, pay: Deferred) -> H<()> {
        self.hooks(event, b)?;
        self.pay(event, b, pay)?;
        self.depth -= 1;
        Ok(())
    }

    /// The first half of `_hooks_body` (with `_hooks_only`'s depth check): the event counted, its phases,
    /// its hooks with the events they emit. The depth stays raised until `pay` has run (`hooks_only`).
    pub fn hooks(&mut self, event: &str, b: &Bind) -> H<()> {
        if self.depth >= MAX_DEPTH {
            return Err(Halt::Stop(format!("`{event}` emitted inside {MAX_DEPTH} nested events")));
        }
        self.depth += 1;
        self.st.count(event, 1);
        if self.p.phase_events.contains(event) {
            self.phases(event, b)?;
        }
        let p = self.p;
        if let Some(hooks) = p.hooks_on.get(event) {
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
        if self.p.pay.on.contains_key(event) {
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
