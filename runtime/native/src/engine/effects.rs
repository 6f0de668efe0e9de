//! The effects of hooks and actions, natively (runtime/game/events.py `_run_effects`): the state
//! changes (`set`, `add`, `remove`, `clear`, `roll`) on their targets — a seat's or the table's states, the
//! context values — the tiles `give` moves, the events `emit` raises; and a trial's context statements
//! (runtime/game/win_trial.py `trial_context`). The events that run them: engine/events.rs.

use serde_json::{json, Value as J};

use super::event_rules::{EffOp, Effect, Target};
use super::events::{refused, seat_of, Bind, Halt, Run, B_ACTOR, H};
use super::scope::GameScope;
use super::state::{get, get_at, position, Value};
use super::table::Table;
use crate::program::{arith, kind_of, Node, Op, V};

/// Whether `ef` sets a seat's state to that state plus (false) or minus (true) a whole constant, read from
/// the seat its own binding names (`set actor.n = actor.n + 1`): the constant, for `Run::bumped`.
pub fn bump_of(sc: &GameScope, ef: &Effect) -> Option<(bool, i64)> {
    let (EffOp::Set, Target::Seat(_, name), Some(slot), Some(i)) = (ef.op, &ef.target, ef.seat_slot, ef.value) else {
        return None;
    };
    let Some(Ok(Node::Arith(op, l, r))) = sc.exprs.get(i) else { return None };
    let sub = match op {
        Op::Add => false,
        Op::Sub => true,
        _ => return None,
    };
    match (&**l, &**r) {
        (Node::Attr(o, f), Node::Const(V::Int(c))) if matches!(**o, Node::Bound(x) if x == slot) && sc.fields.get(*f).is_some_and(|n| **n == **name) => {
            Some((sub, *c))
        }
        _ => None,
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

impl Run<'_> {
    fn tile_v(&self, k: usize) -> V {
        V::Tile(((k as u32) << 2) | self.p.scope.kind_joker[k] as u32)
    }

    pub(super) fn value_v(&self, v: &Value) -> V {
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

    /// `Events._target`: the seat a seat state's target names (`slot`: its binding's, found once).
    fn seat_target(&self, slot: Option<usize>, binding: &str, b: &Bind) -> H<usize> {
        if let Some(s) = seat_of(slot.and_then(|i| b.get(i)), binding)? {
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
            if ef.bump.is_some() && self.bumped(ef, b) {
                continue;
            }
            let what = || format!("effect {:?} {}", ef.op, ef.label);
            // the holder: Some(Some(seat)) a seat's state, Some(None) the table's, None a context value
            let holder: Option<Option<usize>> = match &ef.target {
                Target::Table(_) => Some(None),
                Target::Seat(binding, _) => Some(Some(self.seat_target(ef.seat_slot, binding, b)?)),
                _ => None,
            };
            let name: &str = match &ef.target {
                Target::Table(n) | Target::Seat(_, n) | Target::Context(n) => n,
                _ => return Err(Halt::Stop(what())),
            };
            // where the holder holds it (found once: the evaluation below changes no state)
            let at = holder.and_then(|h| position(self.vars(h), ef.hint, name));
            let value = match ef.value {
                Some(i) => self.effect_value(i, b, what)?,
                None => V::None,
            };
            let new: Value = match ef.op {
                EffOp::Roll => self.roll(ef, &value, holder)?,
                EffOp::Set => held(&value)?,
                EffOp::Clear => match holder {
                    Some(h) => self.initial(name, Some(if h.is_none() { "table" } else { "player" }))?,
                    None => self.initial(name, None)?,
                },
                op => {
                    let cur = match holder {
                        Some(h) => at.map(|i| &self.vars(h)[i].1),
                        None => get(&self.st.context, name),
                    };
                    match self.added(op, cur, &value)? {
                        Some(v) => v,
                        None => return Err(Halt::Stop(what())),
                    }
                }
            };
            match holder {
                None => self.st.put_context(name, new),
                Some(h) => {
                    // the name found once (where the setup put it, else by a search), read and written there
                    let vars = match h {
                        Some(s) => &mut self.st.seats[s].vars,
                        None => &mut self.st.table,
                    };
                    let on = new == Value::Bool(true);
                    let turned_on = match at {
                        Some(i) => {
                            let was = std::mem::replace(&mut vars[i].1, new);
                            on && was != Value::Bool(true)
                        }
                        None => {
                            vars.push((name.to_owned(), new));
                            on
                        }
                    };
                    if turned_on {
                        self.st.tally(format!("state:{name}"), 1); // a flag turning on: tallied
                    }
                }
            }
        }
        Ok(emitted)
    }

    /// An effect's value (expression `i`): an `and` (`set actor.flag = (actor.other and …)`) whose leading
    /// conjuncts answer it from the bindings (engine/guard.rs) is that answer as a flag, as the evaluator's
    /// `and` gives it, without an evaluation set up; anything else evaluated.
    fn effect_value(&mut self, i: usize, b: &Bind, what: impl FnOnce() -> String) -> H<V> {
        if let Some(Ok(Node::And(..))) = self.p.scope.exprs.get(i) {
            if let Some(known) = self.p.guard_of.get(i).and_then(Option::as_ref).and_then(|g| self.guarded(g, b)) {
                return Ok(V::Bool(known));
            }
        }
        self.eval_with(i, b, what)
    }

    /// A `bump_of` effect done in place where the evaluation would read a whole number from the seat its
    /// binding gives (the event binds it, as a seat in play, and the state holds a number; the sum does
    /// not overflow): the same new value, without setting up an evaluation. False: nothing done, the
    /// effect runs as any other (its refusals and stops are the evaluation's).
    fn bumped(&mut self, ef: &Effect, b: &Bind) -> bool {
        let (Some((sub, c)), Some(slot), Some(i), Target::Seat(_, name)) = (ef.bump, ef.seat_slot, ef.value, &ef.target) else {
            return false;
        };
        // (the evaluation reads the binding over the game's base values: bound there too)
        let s = match (b.given.get(slot), self.base.get(slot)) {
            (Some(Some(V::Seat(s))), Some(_)) if (*s as usize) < self.st.seats.len() => *s as usize,
            _ => return false,
        };
        let Some(Ok(Node::Arith(_, l, _))) = self.p.scope.exprs.get(i) else { return false };
        let Node::Attr(_, f) = &**l else { return false };
        let vars = &mut self.st.seats[s].vars;
        // read where the evaluation reads the field, written where the effect writes its target
        let n = match get_at(vars, self.p.scope.var_hint[*f], name) {
            Some(Value::Int(n)) => *n,
            _ => return false,
        };
        let new = if sub { n.checked_sub(c) } else { n.checked_add(c) };
        let (Some(new), Some(at)) = (new, position(vars, ef.hint, name)) else { return false };
        vars[at].1 = Value::Int(new);
        true
    }

    /// The states of a holder: a seat's, or the table's (None).
    fn vars(&self, holder: Option<usize>) -> &[(String, Value)] {
        match holder {
            Some(s) => &self.st.seats[s].vars,
            None => &self.st.table,
        }
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
        let giver = match b.get(B_ACTOR) {
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
}
