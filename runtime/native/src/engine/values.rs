//! Evaluating game-scope expressions (lowered by engine/scope.rs) on a hand's state under the bindings
//! of the moment, with the reference's semantics (runtime/evaluate.py over runtime/game/scope.py
//! `GameEnv` and runtime/game/values.py): seats compared by identity (here by index), tiles by kind (the
//! tile of the moment carries `wild` as `Game.tv` gives it; a hand's, a discard's, a reveal's tile does
//! not), a seat's field its own state or phase first, then the field the game works it out for.
//!
//! Wherever the reference raises (an `EVAL_ERRORS` it catches: the condition is then false, the effect
//! skipped, a sentence written into `Game.errors`), evaluation stops (`Stop::Bail`) instead: the hand
//! then goes back to the reference, so its errors are never written twice.

use std::sync::Arc;

use super::scope::{GameScope, ReadingAt, SeatField, WinQuestions, B_TILE, G, READING_GROUPS};
use super::state::{get_at, HandState, Value};
use super::table::Table;
use crate::program::{
    apply, arith, compare, finish, floor_div, group_fields, kind_of, next_combination, order, rat, CompFn, Func, Group,
    Node, Op, Stop, GROUP_FIELDS, V,
};

type R<T> = Result<T, Stop>;

mod calls; // the game functions (`visible_count`, `next`, `after`, `held`, the questions)
mod bounded; // `len(Q) OP n` of a wait question Q, walked only as far as the comparison needs
pub(in crate::engine) use bounded::wait_len_holds;
mod truth; // a condition's truth read without the values it compares built and dropped

const BUDGET: u64 = 1_000_000; // node evaluations per expression; past it the reference evaluates it
const MAX_MELDS: usize = 256; // melds of one seat a group identity can name

/// One evaluation: the scope, the table and the state it reads, the bindings of the moment.
pub struct Ev<'a> {
    sc: &'a GameScope,
    t: &'a Table,
    st: &'a HandState,
    wins: &'a dyn WinQuestions,
    bound: Bound<'a>,
    tile: Option<V>, // the tile of the moment with its `wild` as `Game.tv` sets it (None: not a tile)
    binders: Vec<V>, // (made at the first comprehension: most expressions have none)
    budget: u64,
    hand_wild: &'a [bool], // per kind: a wildcard in the hand (`hand_wilds`, worked out once per state)
    /// `self_drawn` where the moment binds it (`Game.env(self_drawn=…)`, or the game's base once the
    /// hand's first win is scored): read before the reading's, as the environment's keys come first.
    pub self_drawn: Option<bool>,
    /// The reading of the win of the moment (the reading-scope names read from it).
    pub reading: ReadingAt<'a>,
    /// Why the last evaluation was declined (a reading of a win not found natively), None: it was not.
    pub declined: Option<&'static str>,
}

/// The bindings of the moment, by slot of `scope::BOUND`: a vector the caller made, or the event's own
/// bindings over the game's base values, read in place (not merged into a new vector per evaluation).
pub enum Bound<'a> {
    Owned(Vec<V>),
    Slice(&'a [V]),
    /// (the bound value per slot, None: the base's; slots past the base's length are unbound)
    Over(&'a [Option<V>], &'a [V]),
}

impl Bound<'_> {
    fn get(&self, i: usize) -> Option<&V> {
        match self {
            Bound::Owned(v) => v.get(i),
            Bound::Slice(v) => v.get(i),
            Bound::Over(given, base) => match (given.get(i), base.get(i)) {
                (_, None) => None,
                (Some(Some(v)), _) => Some(v),
                (_, d) => d,
            },
        }
    }
}

/// The kinds that are wildcards in a hand under this state (`Game._update_wilds`: a wildcard's tiles
/// name a kind, else a reveal holding one; the scope `win_tile` ones are not).
pub fn hand_wilds(t: &Table, st: &HandState) -> Vec<bool> {
    let mut out = vec![false; t.names.len()];
    // (the declarations' names resolved once: `Table::wild_decls`)
    for ((tiles, _), &(named, in_hand)) in t.rules.wilds.iter().zip(&t.wild_decls) {
        if !in_hand {
            continue;
        }
        let kind = match named {
            Some(i) => Some(i),
            None => match super::state::get(&st.reveals, tiles) {
                Some(Value::Tile(i)) => Some(*i),
                _ => None,
            },
        };
        if let Some(k) = kind {
            out[k] = true;
        }
    }
    out
}

impl<'a> Ev<'a> {
    /// An evaluation on `st` (`hand_wild`: `hand_wilds(t, st)`); `bound` by slot of `scope::BOUND` (the
    /// tile of the moment by kind, its `wild` set here as `Game.tv` sets it).
    pub fn new(
        sc: &'a GameScope,
        t: &'a Table,
        st: &'a HandState,
        hand_wild: &'a [bool],
        wins: &'a dyn WinQuestions,
        bound: Vec<V>,
    ) -> Ev<'a> {
        Ev::on(sc, t, st, hand_wild, wins, Bound::Owned(bound))
    }

    /// `new` with the bindings borrowed (no vector made per evaluation).
    pub fn on(
        sc: &'a GameScope,
        t: &'a Table,
        st: &'a HandState,
        hand_wild: &'a [bool],
        wins: &'a dyn WinQuestions,
        bound: Bound<'a>,
    ) -> Ev<'a> {
        let tile = match bound.get(B_TILE) {
            Some(V::Tile(c)) => {
                let k = kind_of(*c) as usize;
                let wild = hand_wild.get(k).copied().unwrap_or(false);
                Some(V::Tile((*c & !2) | ((wild as u32) << 1)))
            }
            _ => None,
        };
        Ev {
            sc,
            t,
            st,
            wins,
            bound,
            tile,
            binders: Vec::new(),
            budget: BUDGET,
            hand_wild,
            self_drawn: None,
            reading: ReadingAt::Unbound,
            declined: None,
        }
    }

    /// Expression `i` of the scope: its value, or `Stop::Bail` where the reference raises (or the
    /// expression was refused at lowering).
    pub fn expr(&mut self, i: usize) -> R<V> {
        self.budget = BUDGET;
        self.declined = None;
        match self.sc.exprs.get(i) {
            Some(Ok(node)) => self.eval(node),
            _ => Err(Stop::Bail),
        }
    }

    /// A part of an expression of the scope (`node`), evaluated as `expr` evaluates a whole one.
    pub fn part(&mut self, node: &Node) -> R<V> {
        self.budget = BUDGET;
        self.declined = None;
        self.eval(node)
    }

    fn tile(&self, k: usize) -> V {
        V::Tile(((k as u32) << 2) | self.sc.kind_joker[k] as u32)
    }

    fn tiles(&self, ks: &[usize]) -> V {
        V::List(Arc::new(ks.iter().map(|&k| self.tile(k)).collect()))
    }

    fn value(&self, v: &Value) -> V {
        match v {
            Value::None => V::None,
            Value::Bool(b) => V::Bool(*b),
            Value::Int(i) => V::Int(*i),
            Value::Str(s) => V::Str(Arc::from(s.as_str())),
            Value::Tile(k) => self.tile(*k),
            Value::Seat(s) => V::Seat(*s as u16),
            Value::List(items) => V::List(Arc::new(items.iter().map(|x| self.value(x)).collect())),
        }
    }

    fn seats(&self, idx: impl Iterator<Item = usize>) -> V {
        V::List(Arc::new(idx.map(|s| V::Seat(s as u16)).collect()))
    }

    fn in_play(&self, s: usize) -> bool {
        !(self.t.rules.table.winners_leave && self.st.winners.contains(&s))
    }

    /// A reading-scope name (`GameEnv.__missing__`'s last resort): the bound `self_drawn` first, then the
    /// reading of the win of the moment; none raises in the reference (KeyError).
    fn reading(&mut self, j: usize) -> R<V> {
        if let Some(b) = self.self_drawn.filter(|_| self.sc.reading_names.get(j).is_some_and(|r| r == "builtin:self_drawn")) {
            return Ok(V::Bool(b));
        }
        let why = match self.reading {
            ReadingAt::Unbound => return Err(Stop::Bail),
            ReadingAt::Given(r) => match r.values.get(j) {
                Some(Ok(v)) => return Ok(v.clone()),
                Some(Err(why)) => why,
                None => "a name the reading was not worked out for",
            },
            ReadingAt::Unknown(why) => why,
        };
        self.declined = Some(why);
        Err(Stop::Bail)
    }

    /// Game value `gi` of the scope (`G`); a state's, a context or a reveal value looked for where the
    /// setup puts it first (`GameScope::game_hints`).
    fn game(&self, gi: usize) -> R<V> {
        let st = self.st;
        let hint = self.sc.game_hints[gi];
        Ok(match &self.sc.games[gi] {
            G::Dealer => V::Seat(st.dealer as u16),
            G::Players => V::Int(self.t.n as i64),
            G::WallLeft => V::Int(st.wall.len() as i64),
            G::Turn => V::Int(st.turn),
            G::Round => V::Int(1 + floor_div((st.turn - 1).max(0) as i128, st.n as i128) as i64),
            G::LastDrawer => st.last_drawer.map_or(V::None, |s| V::Seat(s as u16)),
            G::Won => V::Bool(!st.winners.is_empty()),
            G::Winners => self.seats(st.winners.iter().copied()),
            G::FirstWinners => self.seats(st.first_winners.iter().copied()),
            G::InPlay => self.seats((0..st.n).filter(|&s| self.in_play(s))),
            G::TableVar(name) => self.value(get_at(&st.table, hint, name).ok_or(Stop::Bail)?),
            G::Context(name) => match get_at(&st.context, hint, name) {
                Some(v) => self.value(v),
                None => self.setting(&format!("context:{name}"))?,
            },
            G::Reveal(name) => match get_at(&st.reveals, hint, name) {
                Some(v) => self.value(v),
                // `Rules.settings_env` gives every declared reveal none until it is turned (a declared
                // reveal has a hint: its place among them)
                None if hint != usize::MAX => V::None,
                None => return Err(Stop::Bail),
            },
            G::Reading(_) => return Err(Stop::Bail), // evaluated by `reading`
        })
    }

    fn setting(&self, reference: &str) -> R<V> {
        self.t.settings.get(reference).and_then(|v| super::scope::val_to_v(self.t, v)).ok_or(Stop::Bail)
    }

    fn meld_kind(&self, name: &str) -> Option<&super::rules::MeldDef> {
        self.t.rules.melds.iter().find(|m| m.name == name)
    }

    /// Seat s's melds as reading groups (`Game.meld_groups`): the kind's exposure, pair and kong, the
    /// tiles as plain tiles; an identity per (seat, meld).
    fn meld_group(&self, s: usize, j: usize) -> R<Group> {
        let m = self.st.seats.get(s).and_then(|x| x.melds.get(j)).ok_or(Stop::Bail)?;
        let mk = self.meld_kind(&m.kind).ok_or(Stop::Bail)?; // the reference: no such kind raises
        Ok(Group {
            kind: Arc::from(m.kind.as_str()),
            tiles: Arc::new(m.tiles.iter().map(|&k| self.tile(k)).collect()),
            exposed: mk.exposed,
            concealed: !mk.exposed,
            pair: mk.pair,
            kong: mk.kong,
            has_win: false,
            value: V::Int(0),
            ident: (s * MAX_MELDS + j) as u16,
        })
    }

    /// A group by identity: a seat's meld, or (from `READING_GROUPS` on) a group of the win's reading.
    fn group(&self, g: u16) -> R<Group> {
        if g >= READING_GROUPS {
            return match self.reading {
                ReadingAt::Given(r) => r.groups.get((g - READING_GROUPS) as usize).cloned().ok_or(Stop::Bail),
                _ => Err(Stop::Bail),
            };
        }
        self.meld_group(g as usize / MAX_MELDS, g as usize % MAX_MELDS)
    }

    /// `Seat.f`'s first place: the seat's own state or phase of that name (where the declarations put
    /// it, else anywhere), None where the seat holds none (the field is then one the game works out).
    fn seat_var(&self, s: usize, f: usize) -> R<Option<&'a Value>> {
        let seat = self.st.seats.get(s).ok_or(Stop::Bail)?;
        Ok(get_at(&seat.vars, self.sc.var_hint[f], &self.sc.fields[f]))
    }

    fn seat_field(&self, s: usize, f: usize) -> R<V> {
        match self.seat_var(s, f)? {
            Some(v) => Ok(self.value(v)),
            None => self.computed_field(s, f),
        }
    }

    /// A seat field the seat does not hold itself (`Game.seat_field`).
    fn computed_field(&self, s: usize, f: usize) -> R<V> {
        let seat = &self.st.seats[s];
        Ok(match self.sc.seat_fields[f] {
            SeatField::Hand => self.tiles(&seat.hand),
            SeatField::Melds => {
                if seat.melds.len() > MAX_MELDS || self.st.n * MAX_MELDS > READING_GROUPS as usize {
                    return Err(Stop::Bail);
                }
                for j in 0..seat.melds.len() {
                    self.meld_group(s, j)?;
                }
                V::List(Arc::new((0..seat.melds.len()).map(|j| V::Group((s * MAX_MELDS + j) as u16)).collect()))
            }
            SeatField::Concealed => V::Bool(!seat.melds.iter().any(|m| m.exposed)),
            SeatField::Dealer => V::Bool(s == self.st.dealer),
            SeatField::Wilds => V::Int(seat.hand.iter().filter(|&&k| self.hand_wild[k]).count() as i64),
            SeatField::Balance => rat(seat.balance.n as i128, seat.balance.d as i128)?,
            SeatField::Discards => self.tiles(&seat.discards),
            SeatField::Ready => V::Bool(seat.ready),
            SeatField::Seat => V::Int(s as i64),
            SeatField::InPlay => V::Bool(self.in_play(s)),
            SeatField::Ask(q) => self.wins.ask(self.st, q, &[V::Seat(s as u16)])?,
            SeatField::Unknown => return Err(Stop::Bail),
        })
    }

    fn tile_field(&self, code: u32, f: usize) -> R<V> {
        if f == self.sc.f_wild {
            return Ok(V::Bool(code & 2 != 0));
        }
        if f == self.sc.f_joker {
            return Ok(V::Bool(code & 1 != 0));
        }
        let row = self.sc.tile_fields.get(kind_of(code) as usize).ok_or(Stop::Bail)?;
        row.get(f).cloned().flatten().ok_or(Stop::Bail)
    }

    fn attr(&self, v: V, f: usize) -> R<V> {
        match v {
            V::None => Ok(V::None),
            V::Tile(c) => self.tile_field(c, f),
            V::Group(g) if f < GROUP_FIELDS.len() => {
                let grp = self.group(g)?;
                Ok(group_fields(&self.sc.kind_rank, &self.sc.kind_suit, &grp).swap_remove(f))
            }
            V::Seat(s) => self.seat_field(s as usize, f),
            _ => Err(Stop::Bail),
        }
    }

    #[inline(never)] // (kept out of `eval`: a smaller frame for every node)
    fn call(&mut self, func: Func, args: &[Node]) -> R<V> {
        let a = self.eval(&args[0])?;
        let b = match func {
            Func::Max | Func::Min => Some(self.eval(&args[1])?),
            _ => None,
        };
        apply(func, a, b)
    }

    /// A comprehension over the combinations of its source's items (itertools.combinations order), the
    /// binders written into one environment as the reference's dict holds them.
    #[inline(never)]
    fn comp(&mut self, func: CompFn, slots: &[usize], src: &Node, body: &Node) -> R<V> {
        let items = match self.eval(src)? {
            v if !v.truthy() => Arc::new(Vec::new()),
            V::List(l) => l,
            _ => return Err(Stop::Bail),
        };
        let (k, n) = (slots.len(), items.len());
        let mut count: i64 = 0;
        let mut total = V::Int(0);
        let mut best: Option<V> = None;
        let mut kept: Vec<V> = Vec::new();
        if k > n {
            return finish(func, count, (0, 1), best, kept);
        }
        if self.binders.len() < self.sc.n_binders {
            self.binders.resize(self.sc.n_binders, V::None);
        }
        let mut idx: Vec<usize> = (0..k).collect();
        loop {
            for (s, &i) in slots.iter().zip(&idx) {
                self.binders[*s] = items[i].clone();
            }
            let v = self.eval(body)?;
            match func {
                CompFn::Count => count += v.truthy() as i64,
                CompFn::Any if v.truthy() => return Ok(V::Bool(true)),
                CompFn::All if !v.truthy() => return Ok(V::Bool(false)),
                CompFn::Filter if v.truthy() => kept.push(items[idx[0]].clone()),
                CompFn::Sum => {
                    v.num().ok_or(Stop::Bail)?;
                    total = arith(Op::Add, &total, &v)?;
                }
                CompFn::Max | CompFn::Min => {
                    best = Some(match best.take() {
                        None => v,
                        Some(b) => {
                            let ord = order(&v, &b).ok_or(Stop::Bail)?;
                            let take = if func == CompFn::Max { ord.is_gt() } else { ord.is_lt() };
                            if take {
                                v
                            } else {
                                b
                            }
                        }
                    });
                }
                _ => {}
            }
            if !next_combination(&mut idx, n) {
                return match func {
                    CompFn::Sum => Ok(total),
                    _ => finish(func, count, (0, 1), best, kept),
                };
            }
        }
    }

    fn eval(&mut self, e: &Node) -> R<V> {
        if self.budget == 0 {
            return Err(Stop::Bail);
        }
        self.budget -= 1;
        match e {
            Node::Const(v) => Ok(v.clone()),
            Node::List(items) => {
                let mut out = Vec::with_capacity(items.len());
                for i in items {
                    out.push(self.eval(i)?);
                }
                Ok(V::List(Arc::new(out)))
            }
            Node::Setting(i) => self.sc.settings.get(*i).cloned().flatten().ok_or(Stop::Bail),
            Node::Binder(i) => Ok(self.binders.get(*i).cloned().unwrap_or(V::None)),
            Node::Bound(i) => self.bound_at(*i),
            Node::Game(g) => match self.sc.games[*g] {
                G::Reading(j) => self.reading(j),
                _ => self.game(*g),
            },
            Node::GameCall(f, args) => self.game_call(self.sc.calls[*f], args),
            Node::Attr(o, f) => self.attr_of(o, *f),
            Node::Call(func, args) => self.call(*func, args),
            Node::Comp { func, slots, src, body, eq, .. } => {
                let v = self.comp(*func, slots, src, body)?;
                if let Some(e) = eq {
                    self.eval(e)?; // the reference looks the value up even in an empty source
                }
                Ok(v)
            }
            Node::Not(o) => Ok(V::Bool(!self.truth(o)?)),
            Node::Neg(o) => match self.eval(o)? {
                V::Bool(b) => Ok(V::Int(-(b as i64))),
                V::Int(n) => n.checked_neg().map(V::Int).ok_or(Stop::Bail),
                V::Rat(n, d) => n.checked_neg().map(|n| V::Rat(n, d)).ok_or(Stop::Bail),
                _ => Err(Stop::Bail),
            },
            Node::And(l, r) => Ok(V::Bool(self.truth(l)? && self.truth(r)?)),
            Node::Or(l, r) => Ok(V::Bool(self.truth(l)? || self.truth(r)?)),
            Node::Arith(op, l, r) => {
                let a = self.eval(l)?;
                let b = self.eval(r)?;
                arith(*op, &a, &b)
            }
            Node::Compare(ops, operands) => {
                if let ([op], [a, b]) = (ops.as_slice(), operands.as_slice()) {
                    if !truth::asks_len(a) && !truth::asks_len(b) {
                        let a = self.operand(a)?;
                        return Ok(V::Bool(truth::compare_fast(*op, &a, &self.operand(b)?)?));
                    }
                    if let Some(v) = self.bounded_compare(*op, a, b)? {
                        return Ok(v);
                    }
                }
                let mut left = self.eval(&operands[0])?;
                for (op, o) in ops.iter().zip(&operands[1..]) {
                    let right = self.eval(o)?;
                    if !compare(*op, &left, &right)? {
                        return Ok(V::Bool(false));
                    }
                    left = right;
                }
                Ok(V::Bool(true))
            }
            Node::If(c, t, f) => {
                if self.truth(c)? {
                    self.eval(t)
                } else {
                    self.eval(f)
                }
            }
            // reading-scope nodes: the game-scope lowering refuses the names that make them
            Node::Builtin(_) | Node::Pattern(_) | Node::Quantity(_) | Node::Unit(_) => Err(Stop::Bail),
            // the pattern programs' compiled conditions: never made for game scope
            Node::Pred(_) => Err(Stop::Bail),
        }
    }
}

/// A value as the differential checks compare it (JSON; bench/engine_equivalence.py `canon` writes the
/// reference's the same way): numbers and true/false as themselves, a fraction {"rat": [n, d]}, text
/// {"str": s}, a tile {"tile": name, "wild": w}, a seat {"seat": i}, a meld group {"group": [kind, tile
/// names, exposed, concealed, pair, kong]}, lists item by item.
pub fn canon(ev: &Ev, v: &V) -> serde_json::Value {
    use serde_json::json;
    match v {
        V::None => serde_json::Value::Null,
        V::Bool(b) => json!(b),
        V::Int(i) => json!(i),
        V::Rat(n, d) => json!({"rat": [n, d]}),
        V::Str(s) => json!({"str": &**s}),
        V::Tile(c) => json!({"tile": ev.t.names[kind_of(*c) as usize], "wild": c & 2 != 0}),
        V::Seat(s) => json!({"seat": s}),
        V::Group(g) => match ev.group(*g) {
            Ok(grp) => json!({"group": [&*grp.kind, grp.tiles.iter().map(|t| match t {
                V::Tile(c) => ev.t.names[kind_of(*c) as usize].clone(), _ => String::new() }).collect::<Vec<_>>(),
                grp.exposed, grp.concealed, grp.pair, grp.kong]}),
            Err(_) => serde_json::Value::Null,
        },
        V::List(items) => serde_json::Value::Array(items.iter().map(|x| canon(ev, x)).collect()),
    }
}
