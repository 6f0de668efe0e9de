//! The state of one hand as plain data, mirroring runtime/game/state.py: seats (concealed tiles, melds,
//! discards, tiles set aside, player states and phases), the wall of physical tile ids, the table's
//! states and phases, context values, reveals, counters, and the money moved so far; `snapshot` writes
//! it as `HandState.snapshot` does (the same keys and values, so the two compare equal as JSON).
//!
//! Tiles are catalog indices (one per kind); only the wall keeps physical ids, so that a revealed copy
//! that stays in the wall can be told apart from its twins.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::{Deref, DerefMut};

use serde_json::{json, Map, Value as J};

use super::counts::Counts;

/// A value a state, a phase, a context value or a reveal holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    None,
    Bool(bool),
    Int(i64),
    Str(String),
    Tile(usize), // a catalog index
    Seat(usize),
    List(Vec<Value>),
}

impl Value {
    /// Python's `==` on these values: `True == 1`, a list item by item, a tile or a seat by itself.
    pub fn py_eq(&self, other: &Value) -> bool {
        let number = |v: &Value| match v {
            Value::Bool(b) => Some(*b as i64),
            Value::Int(i) => Some(*i),
            _ => None,
        };
        match (self, other) {
            (Value::List(a), Value::List(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.py_eq(y)),
            _ => match (number(self), number(other)) {
                (Some(x), Some(y)) => x == y,
                _ => self == other,
            },
        }
    }

    /// `state.plain`: tiles by name, seats as {"seat": n}, lists item by item.
    pub fn plain(&self, names: &[String]) -> J {
        match self {
            Value::None => J::Null,
            Value::Bool(b) => J::Bool(*b),
            Value::Int(i) => json!(i),
            Value::Str(s) => J::String(s.clone()),
            Value::Tile(t) => J::String(names[*t].clone()),
            Value::Seat(s) => json!({ "seat": s }),
            Value::List(items) => J::Array(items.iter().map(|x| x.plain(names)).collect()),
        }
    }
}

/// An amount of money, exact (a balance, a payment, a fee): a fraction in lowest terms, the denominator
/// positive, as Python's `Fraction` holds one (a whole amount is an int there).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Money {
    pub n: i64,
    pub d: i64,
}

impl Money {
    pub const ZERO: Money = Money { n: 0, d: 1 };

    pub fn whole(n: i64) -> Money {
        Money { n, d: 1 }
    }

    /// n/d in lowest terms (None: d is 0, or a part past 64 bits).
    pub fn new(n: i128, d: i128) -> Option<Money> {
        if d == 0 {
            return None;
        }
        let (n, d) = if d < 0 { (-n, -d) } else { (n, d) };
        let (mut a, mut b) = (n.abs(), d);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        let g = a.max(1);
        Some(Money { n: i64::try_from(n / g).ok()?, d: i64::try_from(d / g).ok()? })
    }

    /// `str(Fraction)`'s text ("7", "-3/2") read back.
    pub fn parse(text: &str) -> Option<Money> {
        let (n, d) = text.split_once('/').unwrap_or((text, "1"));
        let int = |t: &str| -> Option<i128> {
            let digits = t.strip_prefix('-').unwrap_or(t);
            if digits.is_empty() || digits.len() > 19 || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            t.parse().ok()
        };
        Money::new(int(n)?, int(d)?)
    }

    /// `state.plain`: an int when whole, else the fraction's text.
    pub fn plain(&self) -> J {
        if self.d == 1 {
            json!(self.n)
        } else {
            J::String(self.exact())
        }
    }

    /// `money.exact`: the lowest-terms text.
    pub fn exact(&self) -> String {
        if self.d == 1 {
            self.n.to_string()
        } else {
            format!("{}/{}", self.n, self.d)
        }
    }
}

/// A part of the state whose changes are counted: read as the value itself (`Deref`); every mutable
/// access (`DerefMut`, whether or not it then changes anything) moves its mark on. A new or copied part
/// takes marks no other part has had, so an unchanged mark means the very same part, unchanged since:
/// a question that reads only such parts keeps its answer by their marks (engine/moving.rs). Exact by
/// construction: no write reaches the value without moving the mark.
#[derive(Debug)]
pub struct Tracked<T> {
    v: T,
    mark: u64,
}

/// The first mark of a new part: each part counts its changes in a range of 2^32 marks of its own.
fn fresh_marks() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed) << 32
}

impl<T> Tracked<T> {
    pub fn new(v: T) -> Tracked<T> {
        Tracked { v, mark: fresh_marks() }
    }

    /// Where its count of changes stands.
    pub fn mark(&self) -> u64 {
        self.mark
    }
}

impl<T> Deref for Tracked<T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        &self.v
    }
}

impl<T> DerefMut for Tracked<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        self.mark += 1;
        &mut self.v
    }
}

impl<T: Clone> Clone for Tracked<T> {
    /// A copy is a new part: marks of its own (its changes never pass for the original's).
    fn clone(&self) -> Tracked<T> {
        Tracked::new(self.v.clone())
    }
}

impl<T: Default> Default for Tracked<T> {
    fn default() -> Tracked<T> {
        Tracked::new(T::default())
    }
}

impl<T> From<T> for Tracked<T> {
    fn from(v: T) -> Tracked<T> {
        Tracked::new(v)
    }
}

impl<T: PartialEq> PartialEq for Tracked<T> {
    fn eq(&self, other: &Tracked<T>) -> bool {
        self.v == other.v
    }
}

impl<T: PartialEq> PartialEq<Tracked<Vec<T>>> for Vec<T> {
    fn eq(&self, other: &Tracked<Vec<T>>) -> bool {
        *self == other.v
    }
}

impl<'a, T> IntoIterator for &'a Tracked<T>
where
    &'a T: IntoIterator,
{
    type Item = <&'a T as IntoIterator>::Item;
    type IntoIter = <&'a T as IntoIterator>::IntoIter;
    fn into_iter(self) -> Self::IntoIter {
        (&self.v).into_iter()
    }
}

impl<'a, T> IntoIterator for &'a mut Tracked<T>
where
    &'a mut T: IntoIterator,
{
    type Item = <&'a mut T as IntoIterator>::Item;
    type IntoIter = <&'a mut T as IntoIterator>::IntoIter;
    fn into_iter(self) -> Self::IntoIter {
        (&mut **self).into_iter()
    }
}

#[derive(Clone)]
pub struct Meld {
    pub kind: String,
    pub tiles: Vec<usize>,
    pub exposed: bool,
    pub source: Option<usize>,
    pub claimed: Option<usize>,
}

#[derive(Clone)]
pub struct Seat {
    pub hand: Vec<usize>,
    // (what others see of the seat: their changes counted, `HandState::seen_marks`)
    pub melds: Tracked<Vec<Meld>>,
    pub discards: Tracked<Vec<usize>>,
    pub aside: Tracked<Vec<usize>>,
    pub vars: Vec<(String, Value)>, // player states and phases, in declaration order
    pub drawn: Option<usize>,
    pub auto: bool,
    pub ready: bool,
    pub balance: Money,
    pub version: u64,
}

impl Seat {
    pub fn new() -> Seat {
        Seat {
            hand: Vec::new(),
            melds: Tracked::default(),
            discards: Tracked::default(),
            aside: Tracked::default(),
            vars: Vec::new(),
            drawn: None,
            auto: false,
            ready: false,
            balance: Money::ZERO,
            version: 0,
        }
    }

    pub fn changed(&mut self) {
        self.version += 1;
    }
}

/// Values by name in insertion order (a Python dict): a name set again keeps its place.
pub fn put(vars: &mut Vec<(String, Value)>, name: &str, v: Value) {
    match vars.iter_mut().find(|(k, _)| k == name) {
        Some(slot) => slot.1 = v,
        None => vars.push((name.to_owned(), v)),
    }
}

pub fn get<'a>(vars: &'a [(String, Value)], name: &str) -> Option<&'a Value> {
    vars.iter().find(|(k, _)| k == name).map(|(_, v)| v)
}

/// Where `name` is in `vars`: at `hint` (where the setup puts it, found when the rules were read), else
/// searched (a holder whose values came in another order: a state read back, a carried session).
pub fn position(vars: &[(String, Value)], hint: usize, name: &str) -> Option<usize> {
    match vars.get(hint) {
        Some((k, _)) if same_name(k, name) => Some(hint),
        _ => vars.iter().position(|(k, _)| k == name),
    }
}

/// `a == b`, a name of up to 16 bytes (most: a few CJK characters) compared as two overlapping words
/// in place of a call of `memcmp`.
#[inline]
fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if (8..=16).contains(&n) {
        let word = |x: &[u8], at: usize| u64::from_le_bytes(x[at..at + 8].try_into().unwrap_or([0; 8]));
        return word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8);
    }
    a == b
}

/// `get` looking at `hint` first (`position`).
pub fn get_at<'a>(vars: &'a [(String, Value)], hint: usize, name: &str) -> Option<&'a Value> {
    position(vars, hint, name).map(|i| &vars[i].1)
}

/// `put` looking at `hint` first (`position`).
pub fn put_at(vars: &mut Vec<(String, Value)>, hint: usize, name: &str, v: Value) {
    match position(vars, hint, name) {
        Some(i) => vars[i].1 = v,
        None => vars.push((name.to_owned(), v)),
    }
}

#[derive(Clone)]
pub struct Payment {
    pub name: String,
    pub event: String,
    pub payer: Option<usize>,
    pub payee: Option<usize>,
    pub amount: Money,
    pub fee: Money,
}

#[derive(Clone)]
pub struct HandState {
    pub n: usize,
    pub dealer: usize,
    pub kind_of: Vec<usize>, // physical tile id -> catalog index
    pub wall: Vec<usize>,    // physical ids; index 0 is the head, the last is the tail
    pub seats: Vec<Seat>,
    pub pinned: Tracked<BTreeSet<usize>>, // revealed copies that stay in the wall
    pub out: Tracked<Vec<usize>>,         // copies taken out of play or set aside by reveals
    pub table: Vec<(String, Value)>,
    pub context: Vec<(String, Value)>,
    pub reveals: Vec<(String, Value)>,
    pub reveal_ids: Tracked<BTreeMap<String, Vec<usize>>>,
    pub reveal_ids_known: bool, // false: read from a snapshot that did not give them (engine/snapshot.rs)
    pub task: String,
    pub turn: i64,
    pub last_drawer: Option<usize>,
    pub last_dealt: Option<usize>,
    pub winners: Vec<usize>,
    pub discarder: Option<usize>,
    pub robbed: Option<usize>,
    pub exhausted: bool,
    pub finished: bool,
    pub first_winners: Vec<usize>,
    pub over: bool,
    pub next_dealer: Option<usize>,
    pub payments: Vec<Payment>,
    pub fees: Money,
    pub deltas: Vec<Money>,
    pub events: Counts, // (by index for the names the rule set knows: engine/counts.rs)
    pub chance: Vec<J>, // every `roll` of the hand, as the reference writes it (kept as it was read)
    /// Which context and reveal values this state holds: a number no other values had, taken afresh at
    /// every change of `context` or `reveals` (`values_changed`; a copy keeps it, holding the same
    /// values). `Winning::on` keeps what it works out of those values by it, so an unchanged state is
    /// not compared value by value at every question. Whoever writes either list calls `values_changed`.
    pub values_id: u64,
    /// Per moving reveal (`Program::moving`'s order), the marks (`seen_marks`) of the state on which its
    /// `moves_when` was last asked and was false (empty: none kept): engine/moving.rs.
    pub unmoved: Vec<Vec<u64>>,
    /// Per kept condition (`Program::keeps`), the values its kept part read when last found false (None:
    /// none kept): engine/kept.rs.
    pub kept_false: Vec<Option<Vec<Option<Value>>>>,
}

/// A values id no state has had (`HandState::values_id`).
fn fresh_values_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl HandState {
    pub fn new(n: usize, dealer: usize, kind_of: Vec<usize>, wall: Vec<usize>) -> HandState {
        HandState {
            n,
            dealer,
            kind_of,
            wall,
            seats: (0..n).map(|_| Seat::new()).collect(),
            pinned: Tracked::default(),
            out: Tracked::default(),
            table: Vec::new(),
            context: Vec::new(),
            reveals: Vec::new(),
            reveal_ids: Tracked::default(),
            reveal_ids_known: true,
            task: String::new(),
            turn: 0,
            last_drawer: None,
            last_dealt: None,
            winners: Vec::new(),
            discarder: None,
            robbed: None,
            exhausted: false,
            finished: false,
            first_winners: Vec::new(),
            over: false,
            next_dealer: None,
            payments: Vec::new(),
            fees: Money::ZERO,
            deltas: vec![Money::ZERO; n],
            events: Counts::default(),
            chance: Vec::new(),
            values_id: fresh_values_id(),
            unmoved: Vec::new(),
            kept_false: Vec::new(),
        }
    }

    /// What the tiles every seat sees and the context and reveal values stand at: the values id, whether
    /// the reveal ids are known, the marks of the tiles out, the pinned copies, the reveal ids and each
    /// seat's discards, tiles set aside and melds (in that order). Equal marks: none of these changed.
    pub fn seen_marks(&self, out: &mut Vec<u64>) {
        out.clear();
        out.extend([self.values_id, self.reveal_ids_known as u64, self.out.mark(), self.pinned.mark(), self.reveal_ids.mark()]);
        for s in &self.seats {
            out.extend([s.discards.mark(), s.aside.mark(), s.melds.mark()]);
        }
    }

    /// Whether `seen_marks` would give these marks now (nothing it covers changed since they were taken).
    pub fn seen_same(&self, marks: &[u64]) -> bool {
        let [v, k, o, p, r, seats @ ..] = marks else { return false };
        if seats.len() != 3 * self.seats.len()
            || *v != self.values_id
            || *k != self.reveal_ids_known as u64
            || *o != self.out.mark()
            || *p != self.pinned.mark()
            || *r != self.reveal_ids.mark()
        {
            return false;
        }
        self.seats
            .iter()
            .zip(seats.chunks_exact(3))
            .all(|(s, m)| m[0] == s.discards.mark() && m[1] == s.aside.mark() && m[2] == s.melds.mark())
    }

    /// The context or reveal values changed (or may have): a fresh `values_id`.
    pub fn values_changed(&mut self) {
        self.values_id = fresh_values_id();
    }

    /// A context value set (`put` on `context`), the values id renewed — unless the name holds this very
    /// value already (the values are then unchanged, and so is what is kept by their id).
    pub fn put_context(&mut self, name: &str, v: Value) {
        if get(&self.context, name) == Some(&v) {
            return;
        }
        put(&mut self.context, name, v);
        self.values_changed();
    }

    /// A reveal's value set (`put` on `reveals`), the values id renewed unless it holds this value already.
    pub fn put_reveal(&mut self, name: &str, v: Value) {
        if get(&self.reveals, name) == Some(&v) {
            return;
        }
        put(&mut self.reveals, name, v);
        self.values_changed();
    }

    pub fn tally(&mut self, key: String, by: i64) {
        self.events.count(&key, by);
    }

    /// `tally` of a name the caller holds.
    pub fn count(&mut self, key: &str, by: i64) {
        self.events.count(key, by);
    }

    /// `HandState.snapshot`: the full, comparable picture (`names`: the catalog's kind names).
    /// The payments as `snapshot` writes them.
    pub fn payments_json(&self) -> J {
        let seat_no = |s: Option<usize>| s.map(|s| json!(s)).unwrap_or(J::Null);
        J::Array(
            self.payments
                .iter()
                .map(|p| {
                    json!({"name": p.name, "event": p.event, "payer": seat_no(p.payer), "payee": seat_no(p.payee),
                           "amount": p.amount.plain(), "fee": p.fee.plain(), "amount_exact": p.amount.exact(),
                           "fee_exact": p.fee.exact()})
                })
                .collect(),
        )
    }

    pub fn snapshot(&self, names: &[String]) -> J {
        let tiles = |v: &[usize]| J::Array(v.iter().map(|&t| J::String(names[t].clone())).collect());
        let tile = |t: Option<usize>| t.map(|t| J::String(names[t].clone())).unwrap_or(J::Null);
        let seat_no = |s: Option<usize>| s.map(|s| json!(s)).unwrap_or(J::Null);
        let dict = |vars: &[(String, Value)]| {
            J::Object(
                vars.iter()
                    .map(|(k, v)| (k.clone(), v.plain(names)))
                    .collect::<Map<_, _>>(),
            )
        };
        let seats: Vec<J> = self
            .seats
            .iter()
            .map(|s| {
                json!({
                    "hand": tiles(&s.hand), "drawn": tile(s.drawn),
                    "melds": s.melds.iter().map(|m| json!({
                        "kind": m.kind, "tiles": tiles(&m.tiles), "exposed": m.exposed,
                        "source": seat_no(m.source), "claimed": tile(m.claimed)})).collect::<Vec<_>>(),
                    "discards": tiles(&s.discards), "aside": tiles(&s.aside), "vars": dict(&s.vars),
                    "auto": s.auto, "ready": s.ready, "balance": s.balance.plain(),
                })
            })
            .collect();
        let payments = self.payments_json();
        let wall_names: Vec<usize> = self.wall.iter().map(|&i| self.kind_of[i]).collect();
        json!({
            "dealer": self.dealer, "wall": tiles(&wall_names), "wall_ids": self.wall,
            "pinned": self.pinned.iter().collect::<Vec<_>>(), "out": tiles(&self.out), "seats": seats,
            "table": dict(&self.table), "context": dict(&self.context), "reveals": dict(&self.reveals),
            "task": self.task, "turn": self.turn, "last_drawer": seat_no(self.last_drawer),
            "winners": self.winners, "discarder": seat_no(self.discarder), "robbed": seat_no(self.robbed),
            "exhausted": self.exhausted, "finished": self.finished, "first_winners": self.first_winners,
            "over": self.over, "next_dealer": seat_no(self.next_dealer), "payments": payments,
            "fees": self.fees.plain(), "deltas": self.deltas.iter().map(Money::plain).collect::<Vec<_>>(), "events": self.events.to_json(), "chance": self.chance,
        })
    }
}
