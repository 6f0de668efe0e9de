//! A hand set up natively, as runtime/game/flow.py (`Game.__init__`) and setup.py (`Setup._setup_hand`)
//! do it, up to the hand's first event: the seeded generator, the dealer, the shuffled wall, the seats
//! and their balances, states (with the values a session carries), phases, context values and reveals;
//! then the task drawn, the reveals of the deal, the deal, and the flowers set aside and replaced (with
//! the effects of the actions that replace them). A construct this port does not execute yet is
//! `Error::NotCovered` naming it: never a different state.

use super::rng::Rng;
use super::rules::{EffectDef, RevealDef};
use super::state::{get, put, HandState, Money, Value};
use super::table::{not_ported, Table};
use crate::expr::Val;
use crate::Error;

pub const DEFAULT_BALANCE: i64 = 1000;
const FLOWER_ROUNDS: usize = 64; // `_flowers_at_deal`: rounds of replacement before it stops

/// `Setup._shuffled_wall` with fixed ends: each tile the notation names, in order, is the first copy
/// of its kind left in the shuffled wall, taken out; the head's go first, the tail's last.
fn fixed_ends(
    t: &Table,
    kind_of: &[usize],
    mut ids: Vec<usize>,
    head: Option<&str>,
    tail: Option<&str>,
) -> Result<Vec<usize>, Error> {
    let notation = crate::notation::Notation::new(&t.rs);
    let mut take = |text: &str| -> Result<Vec<usize>, Error> {
        let decl = notation
            .parse(text)
            .ok_or_else(|| Error::Input("the wall is not tile notation of this rule set".into()))?;
        let mut picked = Vec::with_capacity(decl.len());
        for d in decl {
            let k = t.decl_to_cat[d]
                .ok_or_else(|| Error::Input(format!("the wall names {}, which is not in play", t.rs.kinds[d].name)))?;
            let at = ids.iter().position(|&i| kind_of[i] == k).ok_or_else(|| {
                Error::Input(format!(
                    "the wall asks for more copies of {} than there are",
                    t.names[k]
                ))
            })?;
            picked.push(ids.remove(at));
        }
        Ok(picked)
    };
    let mut first = match head {
        Some(h) => take(h)?,
        None => Vec::new(),
    };
    let last = match tail {
        Some(x) => take(x)?,
        None => Vec::new(),
    };
    first.extend(ids);
    first.extend(last);
    Ok(first)
}

fn seat_out_of(v: &Value, n: usize) -> bool {
    match v {
        Value::Seat(s) => *s >= n,
        Value::List(items) => items.iter().any(|x| seat_out_of(x, n)),
        _ => false,
    }
}

/// A hand and its generator after the setup.
pub struct Setup {
    pub st: HandState,
    pub rng: Rng,
}

/// The arguments of a hand this port takes (the others of `Game` are not ported yet).
pub struct Args {
    pub seed_words: Vec<u32>,
    pub dealer: Option<usize>,
    pub balances: Option<Vec<i64>>,
    /// Values carried from the hand before (`Game.table_values`, `Game.player_values`): only the states
    /// that live for the session take them.
    pub table: Option<Vec<(String, Value)>>,
    pub players: Option<Vec<Vec<(String, Value)>>>,
    /// Tile notation fixing the first and the last tiles of the wall (`Game`'s `wall` and `tail`, for
    /// scenarios; a list of texts is joined without a separator, as the reference joins it).
    pub head: Option<String>,
    pub tail: Option<String>,
}

/// What every hand of one table starts with, whatever its seed: each state's initial value (in
/// `rules.states`' order) and each context setting's value (in `rules.settings`' order of the context
/// ones). They read only the table's settings, so they are evaluated once, not at every hand's setup.
pub struct Initial {
    states: Vec<Value>,
    context: Vec<Value>,
    /// A seat's states and phases, and the table's, as a hand with no values carried puts them.
    seat_vars: Vec<(String, Value)>,
    table_vars: Vec<(String, Value)>,
}

impl Initial {
    /// None where one of them does not evaluate (each hand's setup then evaluates them and fails as
    /// it did).
    pub(super) fn of(t: &Table) -> Option<Initial> {
        let states: Vec<Value> = t.rules.states.iter().map(|sv| initial_of(t, sv).ok()).collect::<Option<_>>()?;
        let context = t.rules.settings.iter().filter(|s| s.role == "context").map(|s| context_of(t, s).ok()).collect::<Option<_>>()?;
        // (the puts of `setup` with nothing carried, in its order: the states, then the phases)
        let (mut seat_vars, mut table_vars) = (Vec::new(), Vec::new());
        for (sv, init) in t.rules.states.iter().zip(&states) {
            put(if sv.scope == "player" { &mut seat_vars } else { &mut table_vars }, &sv.name, init.clone());
        }
        for ph in &t.rules.phases {
            put(if ph.scope == "player" { &mut seat_vars } else { &mut table_vars }, &ph.name, Value::Bool(false));
        }
        Some(Initial { states, context, seat_vars, table_vars })
    }
}

/// A state's initial value: its `init` evaluated on the settings, or its type's empty value.
fn initial_of(t: &Table, sv: &super::rules::StateDef) -> Result<Value, Error> {
    Ok(match t.eval(&sv.init, None)? {
        Val::None => match sv.ty.as_str() {
            "bool" => Value::Bool(false),
            "int" | "num" => Value::Int(0),
            "tiles" => Value::List(Vec::new()),
            _ => Value::None,
        },
        v => t.value(v)?,
    })
}

/// A context setting's value as the settings hold it (none where they do not).
fn context_of(t: &Table, s: &super::rules::SettingDef) -> Result<Value, Error> {
    t.value(t.settings.get(&format!("context:{}", s.name)).cloned().unwrap_or(Val::None))
}

pub fn setup(t: &Table, args: &Args) -> Result<Setup, Error> {
    let tb = &t.rules.table;
    let n = t.n;
    if let Some(d) = args.dealer {
        if d >= n {
            return Err(Error::Input(format!(
                "dealer {d} is not a seat of this game (seats 0 to {})",
                n - 1
            )));
        }
    }
    if let Some(b) = &args.balances {
        if b.len() != n {
            return Err(Error::Input(format!("balances gives {} values for {n} seats", b.len())));
        }
    }
    // (only the values of states that live for the session reach here: `mod.rs` takes no other)
    let carried = args
        .table
        .iter()
        .flatten()
        .chain(args.players.iter().flat_map(|p| p.iter().take(n)).flatten());
    if carried.into_iter().any(|(_, v)| seat_out_of(v, n)) {
        return Err(Error::Input(
            "a carried state names a seat the table does not have".into(),
        ));
    }
    let mut rng = Rng::from_words(&args.seed_words);
    let dealer = match args.dealer {
        Some(d) => d,
        None if tb.first_dealer == "owner" => 0,
        None => rng.randrange(n as u64) as usize,
    };
    let kind_of: Vec<usize> = t
        .cat
        .kinds
        .iter()
        .enumerate()
        .flat_map(|(i, k)| std::iter::repeat_n(i, k.copies.max(0) as usize))
        .collect();
    let deal = n as i64 * tb.hand + tb.dealer_extra; // within i64: every term is at most MAX_TABLE_SIZE
    if (kind_of.len() as i64) < deal {
        return Err(Error::Input(format!(
            "the wall has {} tiles and the deal needs {deal} ({n} players × {}, and {} more for the dealer)",
            kind_of.len(),
            tb.hand,
            tb.dealer_extra
        )));
    }
    let mut wall: Vec<usize> = (0..kind_of.len()).collect();
    rng.shuffle(&mut wall);
    if args.head.is_some() || args.tail.is_some() {
        wall = fixed_ends(t, &kind_of, wall, args.head.as_deref(), args.tail.as_deref())?;
    }
    let mut st = HandState::new(n, dealer, kind_of, wall);
    for (i, seat) in st.seats.iter_mut().enumerate() {
        seat.balance = Money::whole(args.balances.as_ref().map_or(DEFAULT_BALANCE, |b| b[i]));
    }
    match &t.initial {
        // no values carried from a hand before: every seat's states and phases, and the table's, are the
        // table's own, put in the same order once (`Initial::vars`) and copied
        Some(i) if args.table.is_none() && args.players.is_none() => {
            for seat in st.seats.iter_mut() {
                seat.vars = i.seat_vars.clone();
            }
            st.table = i.table_vars.clone();
        }
        _ => {
            for (si, sv) in t.rules.states.iter().enumerate() {
                let session = sv.lives == "session";
                let init = match &t.initial {
                    Some(i) => i.states[si].clone(),
                    None => initial_of(t, sv)?,
                };
                if sv.scope == "player" {
                    for (i, seat) in st.seats.iter_mut().enumerate() {
                        let carried = args
                            .players
                            .as_ref()
                            .filter(|_| session)
                            .and_then(|p| p.get(i))
                            .and_then(|c| get(c, &sv.name));
                        put(
                            &mut seat.vars,
                            &sv.name,
                            carried.cloned().unwrap_or_else(|| init.clone()),
                        );
                    }
                } else {
                    let carried = args.table.as_ref().filter(|_| session).and_then(|c| get(c, &sv.name));
                    put(&mut st.table, &sv.name, carried.cloned().unwrap_or(init));
                }
            }
            for ph in &t.rules.phases {
                if ph.scope == "player" {
                    for seat in st.seats.iter_mut() {
                        put(&mut seat.vars, &ph.name, Value::Bool(false));
                    }
                } else {
                    put(&mut st.table, &ph.name, Value::Bool(false));
                }
            }
        }
    }
    for (ci, s) in t.rules.settings.iter().filter(|s| s.role == "context").enumerate() {
        let v = match &t.initial {
            Some(i) => i.context[ci].clone(),
            None => context_of(t, s)?,
        };
        st.put_context(&s.name, v);
    }
    for r in &t.rules.reveals {
        st.put_reveal(&r.name, Value::None);
    }
    let mut g = Setup { st, rng };
    g.setup_hand(t)?;
    Ok(g)
}

impl Setup {
    /// `Setup._setup_hand`: the task, the reveals of the deal, the deal, the flowers at the deal.
    fn setup_hand(&mut self, t: &Table) -> Result<(), Error> {
        if !t.rules.tasks.is_empty() {
            let i = self.rng.choice(t.rules.tasks.len());
            self.st.task = t.rules.tasks[i].clone();
        }
        for r in t.rules.reveals.iter().filter(|r| r.at == "deal") {
            // before the first event the context values are their settings, so a condition over settings
            // and tiles reads what the reference reads; one reading anything else is not ported
            if let Some(e) = &r.unless {
                if t.eval(e, None)
                    .map_err(|_| not_ported("a reveal's `unless` condition at the deal that reads the game"))?
                    .truthy()
                {
                    continue;
                }
            }
            self.flip(t, r);
        }
        self.deal(t);
        self.flowers_at_deal(t)
    }

    fn deal(&mut self, t: &Table) {
        let st = &mut self.st;
        for s in t.order_from(st.dealer) {
            for _ in 0..t.rules.table.hand {
                let id = st.wall.remove(0);
                st.seats[s].hand.push(st.kind_of[id]);
            }
        }
        for _ in 0..t.rules.table.dealer_extra {
            let k = st.kind_of[st.wall.remove(0)];
            st.seats[st.dealer].hand.push(k);
            st.last_dealt = Some(k);
        }
        if let Some(k) = st.last_dealt {
            let d = st.dealer;
            st.seats[d].drawn = Some(k);
        }
        for seat in st.seats.iter_mut() {
            seat.changed();
        }
    }

    /// The index a tile is taken from at the tail: the last that is not a revealed copy kept in the wall.
    fn tail_index(&self) -> usize {
        let st = &self.st;
        (0..st.wall.len())
            .rev()
            .find(|&j| !st.pinned.contains(&st.wall[j]))
            .unwrap_or(st.wall.len() - 1)
    }

    fn flowers_at_deal(&mut self, t: &Table) -> Result<(), Error> {
        let tail = t.rules.table.replacement == "tail";
        for _ in 0..FLOWER_ROUNDS {
            let mut found = false;
            for s in t.order_from(self.st.dealer) {
                let flowers: Vec<usize> = self.st.seats[s]
                    .hand
                    .iter()
                    .copied()
                    .filter(|&k| t.cat.kinds[k].category == "flower")
                    .collect();
                for &k in &flowers {
                    found = true;
                    let seat = &mut self.st.seats[s];
                    let at = seat
                        .hand
                        .iter()
                        .position(|&x| x == k)
                        .expect("a flower just seen in the hand");
                    seat.hand.remove(at);
                    seat.aside.push(k);
                    seat.changed();
                    self.flower_effects(t, s, k)?;
                }
                for _ in &flowers {
                    if self.st.wall.len() as i64 <= t.rules.table.exhaust_at {
                        break;
                    }
                    if self.st.wall.is_empty() {
                        // (a negative `exhaust_at`: the reference fails here too)
                        return Err(Error::Input("the wall ran out while flowers were replaced".into()));
                    }
                    let i = if tail { self.tail_index() } else { 0 };
                    let k = self.st.kind_of[self.st.wall.remove(i)];
                    self.st.seats[s].hand.push(k);
                    if s == self.st.dealer && self.st.last_dealt.is_some() {
                        self.st.last_dealt = Some(k);
                        self.st.seats[s].drawn = Some(k);
                    }
                }
                self.st.seats[s].changed();
            }
            if !found {
                return Ok(());
            }
        }
        Ok(())
    }

    /// `Setup._flower_effects`: the actions `draw` opens for a flower set aside run their effects and
    /// raise their name (a name that runs rules of its own — hooks, payments, phases — is not ported).
    fn flower_effects(&mut self, t: &Table, s: usize, k: usize) -> Result<(), Error> {
        for a in &t.rules.flower_actions {
            let holds = match &a.when {
                None => true,
                Some(e) => t.eval(e, Some(k))?.truthy(),
            };
            if !holds {
                continue;
            }
            for ef in &a.effects {
                self.effect(t, ef, s, k)?;
            }
            if t.rules.ruled_events.contains(&a.name) {
                return Err(not_ported(
                    "the hooks, payments or phases of an action that replaces a flower",
                ));
            }
            self.st.tally(a.name.clone(), 1);
        }
        Ok(())
    }

    /// One effect of `Events._run_effects` on a state of the actor or the table: set, add, remove.
    fn effect(&mut self, t: &Table, ef: &EffectDef, s: usize, k: usize) -> Result<(), Error> {
        if !matches!(ef.op.as_str(), "set" | "add" | "remove") {
            return Err(not_ported(&format!("the effect `{}` at the deal", ef.op)));
        }
        let value = match &ef.value {
            Some(e) => t.value(t.eval(e, Some(k))?)?,
            None => Value::None,
        };
        let (scope, name) = match ef.target.as_slice() {
            [scope, name] if scope == "actor" || scope == "table" => (scope.as_str(), name.as_str()),
            _ => {
                return Err(not_ported(
                    "an effect on a target other than a state of the actor or the table",
                ))
            }
        };
        let holder = if scope == "actor" {
            &mut self.st.seats[s].vars
        } else {
            &mut self.st.table
        };
        let cur = get(holder, name).cloned();
        let new = match (ef.op.as_str(), cur.as_ref()) {
            ("set", _) => value,
            (op, Some(Value::List(items))) => {
                let mut new = items.clone();
                let add = match value {
                    Value::List(v) => v,
                    v => vec![v],
                };
                for x in add {
                    if op == "add" {
                        new.push(x);
                    } else if let Some(p) = new.iter().position(|y| y.py_eq(&x)) {
                        new.remove(p);
                    }
                }
                Value::List(new)
            }
            (op, c) => {
                let c = match c {
                    None | Some(Value::None) => 0,
                    Some(Value::Int(x)) => *x,
                    Some(Value::Bool(b)) => *b as i64,
                    _ => return Err(not_ported("arithmetic on a state that is not a number")),
                };
                let v = match value {
                    Value::Int(x) => x,
                    Value::Bool(b) => b as i64,
                    _ => return Err(not_ported("arithmetic with a value that is not a whole number")),
                };
                let r = if op == "add" {
                    c.checked_add(v)
                } else {
                    c.checked_sub(v)
                };
                Value::Int(r.ok_or_else(|| not_ported("a state beyond 64 bits"))?)
            }
        };
        let turned_on = new == Value::Bool(true) && cur != Some(Value::Bool(true));
        put(holder, name, new);
        if turned_on {
            self.st.tally(format!("state:{name}"), 1);
        }
        Ok(())
    }

    /// `Setup._flip` (the free function `flip`, which moving reveals turn again during the hand).
    fn flip(&mut self, t: &Table, r: &RevealDef) {
        flip(&mut self.st, t, r);
    }

}

/// `Setup._flip`: the reveal's tile from its end of the wall (past revealed copies kept in the wall,
/// `offset` tiles in, setting aside the tiles it skips).
pub fn flip(st: &mut HandState, t: &Table, r: &RevealDef) {
    let order: Vec<usize> = if r.source == "tail" {
        (0..st.wall.len()).rev().collect()
    } else {
        (0..st.wall.len()).collect()
    };
    let mut skipped = 0;
    let mut chosen = None;
    let mut aside = Vec::new();
    for j in order {
        let id = st.wall[j];
        if st.pinned.contains(&id) {
            continue;
        }
        if skipped < r.offset {
            skipped += 1;
            continue;
        }
        let k = st.kind_of[id];
        if !r.skip.is_empty() && (t.cat.flag(k, &r.skip) || t.cat.kinds[k].category == r.skip) {
            aside.push(id);
            continue;
        }
        chosen = Some(id);
        break;
    }
    for &id in &aside {
        let at = st.wall.iter().position(|&x| x == id).expect("a wall tile just seen");
        st.wall.remove(at);
        st.out.push(st.kind_of[id]);
    }
    if !aside.is_empty() {
        st.tally(format!("reveal_skip:{}", r.name), aside.len() as i64);
    }
    let Some(id) = chosen else { return };
    st.tally(format!("reveal:{}", r.name), 1);
    st.reveal_ids.entry(r.name.clone()).or_default().push(id);
    if r.removes_copy {
        let at = st.wall.iter().position(|&x| x == id).expect("a wall tile just seen");
        st.wall.remove(at);
        st.out.push(st.kind_of[id]);
    } else {
        st.pinned.insert(id);
    }
    st.put_reveal(&r.name, Value::Tile(st.kind_of[id]));
}
