//! Pattern programs: every pattern's `enabled`, `when` and `count` (and the quantities they read),
//! lowered once, at load, from the JSON rule set into a tree of enums with every name resolved to a
//! slot, and evaluated per reading into raw pattern counts — no Python callback.
//!
//! The semantics are the reference's (runtime/evaluate.py and runtime/scoring.py `ReadingEvaluator`):
//! `True == 1`, tiles equal by the kind they play as, groups by identity, numbers exact (integers and
//! fractions, here i64 rationals), `none` unequal to everything but `none` and never ordered, binders
//! kept in one environment per reading (an inner comprehension's binder is not restored, as in the
//! reference's dict), a pattern name read while that pattern is being counted is 0 (the reference's
//! re-entry guard). Wherever the reference would raise (a value it cannot use, a division by zero, a
//! number past its size) or a value leaves what this evaluator holds (an i64 overflow, a string
//! iterated over, a list ordered), evaluation stops with `Stop::Bail` and the caller lets the reference
//! evaluate that reading: the native result is only ever the reference's result.
//!
//! A rule set whose patterns this lowering does not take (a game function, patterns that read each
//! other in a cycle, a malformed node) is `Error::NotCovered` at load; a pattern that reads a unit (its
//! count depends on the other patterns' final counts) is left to the Python side (`python_owned`).

use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value as J;

use crate::catalog::Catalog;
use crate::Error;

// ------------------------------------------------------------------ values

#[derive(Clone, Debug)]
pub enum V {
    None,
    Bool(bool),
    Int(i64),
    Rat(i64, i64), // reduced, denominator > 1
    Str(Arc<str>),
    Tile(u32), // kind << 2 | wild << 1 | physical joker
    Group(u16),
    List(Arc<Vec<V>>),
}

#[derive(Debug)]
pub enum Stop {
    Bail,           // the reference evaluates this reading
    NeedWaits,      // call again with the hand's waits
    NeedShapeWaits, // call again with the hand's shape waits
}

type R<T> = Result<T, Stop>;

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// A rational from i128 parts, normalised (whole -> Int); out of i64 -> Bail.
fn rat(n: i128, d: i128) -> R<V> {
    if d == 0 {
        return Err(Stop::Bail);
    }
    let (mut n, mut d) = if d < 0 { (-n, -d) } else { (n, d) };
    let g = gcd(n, d);
    if g > 1 {
        n /= g;
        d /= g;
    }
    let n64 = i64::try_from(n).map_err(|_| Stop::Bail)?;
    if d == 1 {
        return Ok(V::Int(n64));
    }
    let d64 = i64::try_from(d).map_err(|_| Stop::Bail)?;
    Ok(V::Rat(n64, d64))
}

impl V {
    pub(crate) fn truthy(&self) -> bool {
        match self {
            V::None => false,
            V::Bool(b) => *b,
            V::Int(i) => *i != 0,
            V::Rat(n, _) => *n != 0,
            V::Str(s) => !s.is_empty(),
            V::Tile(_) | V::Group(_) => true,
            V::List(l) => !l.is_empty(),
        }
    }

    /// (numerator, denominator) of a number (bools are 0/1), None otherwise.
    fn num(&self) -> Option<(i128, i128)> {
        match self {
            V::Bool(b) => Some((*b as i128, 1)),
            V::Int(i) => Some((*i as i128, 1)),
            V::Rat(n, d) => Some((*n as i128, *d as i128)),
            _ => None,
        }
    }
}

fn kind_of(code: u32) -> u32 {
    code >> 2
}

pub fn equal(a: &V, b: &V) -> bool {
    match (a, b) {
        (V::None, V::None) => true,
        (V::Str(x), V::Str(y)) => x == y,
        (V::Tile(x), V::Tile(y)) => kind_of(*x) == kind_of(*y),
        (V::Group(x), V::Group(y)) => x == y, // identities
        (V::List(x), V::List(y)) => x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| equal(p, q)),
        _ => match (a.num(), b.num()) {
            (Some((p, q)), Some((r, s))) => p * s == r * q,
            _ => false,
        },
    }
}

/// Python's ordering of two values, None where Python raises (or where lists would be compared).
pub fn order(a: &V, b: &V) -> Option<Ordering> {
    match (a.num(), b.num()) {
        (Some((p, q)), Some((r, s))) => Some((p * s).cmp(&(r * q))),
        _ => match (a, b) {
            (V::Str(x), V::Str(y)) => Some(x.as_bytes().cmp(y.as_bytes())), // UTF-8 order is code point order
            _ => None,
        },
    }
}

fn floor_div(n: i128, d: i128) -> i128 {
    let q = n / d;
    if n % d != 0 && ((n < 0) != (d < 0)) {
        q - 1
    } else {
        q
    }
}

// ------------------------------------------------------------------ lowered expressions

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum B {
    Melds,
    Groups,
    Pairs,
    Pair,
    Runs,
    Triplets,
    Kongs,
    Exposed,
    Tiles,
    Hand,
    WinTile,
    WinGroup,
    Form,
    Suits,
    Menqing,
    Flowers,
    SelfDrawn,
    Waits,
    ShapeWaits,
}
const N_BUILTINS: usize = 19;

fn builtin(name: &str) -> Option<B> {
    Some(match name {
        "melds" => B::Melds,
        "groups" => B::Groups,
        "pairs" => B::Pairs,
        "pair" => B::Pair,
        "runs" => B::Runs,
        "triplets" => B::Triplets,
        "kongs" => B::Kongs,
        "exposed" => B::Exposed,
        "tiles" => B::Tiles,
        "hand" => B::Hand,
        "win_tile" => B::WinTile,
        "win_group" => B::WinGroup,
        "form" => B::Form,
        "suits" => B::Suits,
        "menqing" => B::Menqing,
        "flowers" => B::Flowers,
        "self_drawn" => B::SelfDrawn,
        "waits" => B::Waits,
        "shape_waits" => B::ShapeWaits,
        _ => return None,
    })
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Func {
    Len,
    Distinct,
    Abs,
    Floor,
    Max,
    Min,
    Cn,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum CompFn {
    Count,
    Any,
    All,
    Filter,
    Sum,
    Max,
    Min,
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Op {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Pow,
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Cmp {
    Eq,
    Ne,
    In,
    NotIn,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Debug)]
pub(crate) enum Node {
    Const(V),
    List(Vec<Node>),
    Builtin(B),
    Setting(usize),
    Binder(usize),
    Pattern(usize),
    Quantity(usize),
    Unit(usize), // a unit's value: read only when scoring (score.rs), after the units are known
    Attr(Box<Node>, usize), // a field id
    Call(Func, Vec<Node>),
    // `eq`: the value V of `count/any(x in L: x.F == V)` over a reading list, which the reference
    // evaluates once even when L is empty (it looks V up in a tally of L): evaluated here too, so
    // that an error in V is the reference's error whatever L holds.
    Comp { func: CompFn, slots: Vec<usize>, src: Box<Node>, body: Box<Node>, eq: Option<Box<Node>> },
    Not(Box<Node>),
    Neg(Box<Node>),
    And(Box<Node>, Box<Node>),
    Or(Box<Node>, Box<Node>),
    Arith(Op, Box<Node>, Box<Node>),
    Compare(Vec<Cmp>, Vec<Node>),
    If(Box<Node>, Box<Node>, Box<Node>),
}

// Group fields, by field id (the first ids; tile fields follow).
const GROUP_FIELDS: [&str; 17] = [
    "kind", "size", "tiles", "tile", "suit", "rank", "start", "end", "run", "triplet", "kong", "pair", "exposed",
    "concealed", "value", "wilds", "has_win",
];
const F_RUN: usize = 8;
const F_TRIPLET: usize = 9;
const F_WILD: &str = "wild";
const F_JOKER: &str = "joker";

struct Lowering<'a> {
    kinds: HashMap<&'a str, usize>, // kind name -> catalog index
    kind_joker: Vec<bool>,
    patterns: HashMap<String, usize>,
    quantities: HashMap<String, usize>,
    settings: Vec<String>,
    binders: HashMap<String, usize>,
    fields: Vec<String>,
    // what the expression being lowered reads
    reads_patterns: Vec<usize>,
    reads_quantities: Vec<usize>,
    reads_unit: bool,
    units: HashMap<String, usize>,
    reads_units: Vec<usize>,
}

fn nc(what: String) -> Error {
    Error::NotCovered(format!("the native pattern programs do not take {what}"))
}

fn txt<'j>(m: &'j serde_json::Map<String, J>, key: &str) -> Result<&'j str, Error> {
    m.get(key).and_then(J::as_str).ok_or_else(|| nc("a malformed expression".into()))
}

/// An exact decimal literal ("12", "0.0125", "-3.5") as a value.
fn number(text: &str) -> Result<V, Error> {
    let bad = || nc(format!("the number {text:.40}"));
    let (neg, t) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (int_part, frac) = t.split_once('.').unwrap_or((t, ""));
    if int_part.is_empty() && frac.is_empty() {
        return Err(bad());
    }
    if !int_part.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    if int_part.len() + frac.len() > 36 {
        return Err(bad());
    }
    let digits: String = format!("{int_part}{frac}");
    let n: i128 = if digits.is_empty() { 0 } else { digits.parse().map_err(|_| bad())? };
    let d: i128 = 10i128.checked_pow(frac.len() as u32).ok_or_else(bad)?;
    rat(if neg { -n } else { n }, d).map_err(|_| bad())
}

impl<'a> Lowering<'a> {
    fn field(&mut self, name: &str) -> usize {
        if let Some(i) = self.fields.iter().position(|f| f == name) {
            return i;
        }
        self.fields.push(name.to_owned());
        self.fields.len() - 1
    }

    fn tile(&self, name: &str) -> V {
        match self.kinds.get(name) {
            Some(&i) => V::Tile(((i as u32) << 2) | self.kind_joker[i] as u32),
            None => V::None,
        }
    }

    fn lower(&mut self, e: &J, depth: usize) -> Result<Node, Error> {
        if depth > 200 {
            return Err(nc("an expression nested this deeply".into()));
        }
        let m = match e {
            J::Object(m) => m,
            _ => return Err(nc("a malformed expression".into())),
        };
        let sub = |s: &mut Self, key: &str| -> Result<Node, Error> {
            s.lower(m.get(key).ok_or_else(|| nc("a malformed expression".into()))?, depth + 1)
        };
        let subs = |s: &mut Self, key: &str| -> Result<Vec<Node>, Error> {
            let items = m.get(key).and_then(J::as_array).ok_or_else(|| nc("a malformed expression".into()))?;
            items.iter().map(|x| s.lower(x, depth + 1)).collect()
        };
        let node = txt(m, "_")?;
        Ok(match node {
            "Num" => Node::Const(number(txt(m, "text")?)?),
            "Str" => Node::Const(V::Str(Arc::from(txt(m, "value")?))),
            "Bool" => Node::Const(V::Bool(m.get("value").and_then(J::as_bool).unwrap_or(false))),
            "NoneLit" => Node::Const(V::None),
            "TileLit" => {
                let tiles = m.get("tiles").and_then(J::as_array).ok_or_else(|| nc("a malformed tile literal".into()))?;
                let names: Vec<&str> = tiles.iter().map(|t| t.as_str().unwrap_or("")).collect();
                let single = m.get("single").and_then(J::as_bool).unwrap_or(true);
                if single {
                    Node::Const(names.first().map(|n| self.tile(n)).unwrap_or(V::None))
                } else {
                    Node::Const(V::List(Arc::new(names.iter().map(|n| self.tile(n)).collect())))
                }
            }
            "ListLit" => Node::List(subs(self, "items")?),
            "Name" => {
                let name = txt(m, "name")?;
                let reference = m.get("ref").and_then(J::as_str).unwrap_or("");
                let (cat, rest) = reference.split_once(':').unwrap_or((reference, ""));
                match cat {
                    "tile" => Node::Const(self.tile(name)),
                    "suit" | "meld" | "form" | "flowerclass" => Node::Const(V::Str(Arc::from(name))),
                    "builtin" => match builtin(rest) {
                        Some(b) => Node::Builtin(b),
                        None => return Err(nc(format!("the builtin `{rest:.40}`"))),
                    },
                    "option" | "context" | "reveal" => {
                        let i = match self.settings.iter().position(|s| s == reference) {
                            Some(i) => i,
                            None => {
                                self.settings.push(reference.to_owned());
                                self.settings.len() - 1
                            }
                        };
                        Node::Setting(i)
                    }
                    "binder" => {
                        let n = self.binders.len();
                        Node::Binder(*self.binders.entry(rest.to_owned()).or_insert(n))
                    }
                    "pattern" => match self.patterns.get(rest) {
                        Some(&i) => {
                            self.reads_patterns.push(i);
                            Node::Pattern(i)
                        }
                        None => return Err(nc("an undeclared pattern".into())),
                    },
                    "quantity" => match self.quantities.get(rest) {
                        Some(&i) => {
                            self.reads_quantities.push(i);
                            Node::Quantity(i)
                        }
                        None => return Err(nc("an undeclared quantity".into())),
                    },
                    "unit" => {
                        self.reads_unit = true;
                        match self.units.get(rest) {
                            Some(&j) => {
                                self.reads_units.push(j);
                                Node::Unit(j) // evaluated only when scoring: raw counts leave unit readers out
                            }
                            None => Node::Const(V::None),
                        }
                    }
                    _ => return Err(nc(format!("the name `{:.60}`", reference))),
                }
            }
            "Attr" => {
                let obj = sub(self, "obj")?;
                let f = self.field(txt(m, "name")?);
                Node::Attr(Box::new(obj), f)
            }
            "Call" => {
                let func = match txt(m, "func")? {
                    "len" => Func::Len,
                    "distinct" => Func::Distinct,
                    "abs" => Func::Abs,
                    "floor" => Func::Floor,
                    "max" => Func::Max,
                    "min" => Func::Min,
                    "cn" => Func::Cn,
                    other => return Err(nc(format!("the function `{other:.40}`"))),
                };
                let args = subs(self, "args")?;
                let want = match func {
                    Func::Max | Func::Min => 2,
                    _ => 1,
                };
                if args.len() != want {
                    return Err(nc("a call with this many arguments".into()));
                }
                Node::Call(func, args)
            }
            "Comp" => {
                let func = match txt(m, "func")? {
                    "count" => CompFn::Count,
                    "any" => CompFn::Any,
                    "all" => CompFn::All,
                    "filter" => CompFn::Filter,
                    "sum" => CompFn::Sum,
                    "max" => CompFn::Max,
                    "min" => CompFn::Min,
                    other => return Err(nc(format!("the comprehension `{other:.40}`"))),
                };
                let binders = m.get("binders").and_then(J::as_array).ok_or_else(|| nc("a malformed comprehension".into()))?;
                if binders.is_empty() || binders.len() > 8 {
                    return Err(nc("a comprehension with this many binders".into()));
                }
                let mut slots = Vec::new();
                for b in binders {
                    let b = b.as_str().ok_or_else(|| nc("a malformed comprehension".into()))?;
                    let n = self.binders.len();
                    slots.push(*self.binders.entry(b.to_owned()).or_insert(n));
                }
                if func == CompFn::Filter && slots.len() > 1 {
                    return Err(nc("a filter over combinations".into()));
                }
                let src = sub(self, "source")?;
                let body = sub(self, "body")?;
                let mut eq = None;
                if matches!(func, CompFn::Count | CompFn::Any) && slots.len() == 1 {
                    let bref = format!("binder:{}", binders[0].as_str().unwrap_or(""));
                    let source = m.get("source").unwrap_or(&J::Null);
                    let is_builtin = source.get("_").and_then(J::as_str) == Some("Name")
                        && source.get("ref").and_then(J::as_str).is_some_and(|r| r.starts_with("builtin:"));
                    if is_builtin {
                        if let Some(other) = binder_equality(m.get("body").unwrap_or(&J::Null), &bref) {
                            eq = Some(Box::new(self.lower(other, depth + 1)?));
                        }
                    }
                }
                Node::Comp { func, slots, src: Box::new(src), body: Box::new(body), eq }
            }
            "Unary" => {
                let o = Box::new(sub(self, "operand")?);
                match txt(m, "op")? {
                    "not" => Node::Not(o),
                    "-" => Node::Neg(o),
                    _ => return Err(nc("this unary operator".into())),
                }
            }
            "Binary" => {
                let op = txt(m, "op")?;
                let (l, r) = (Box::new(sub(self, "left")?), Box::new(sub(self, "right")?));
                match op {
                    "and" => Node::And(l, r),
                    "or" => Node::Or(l, r),
                    _ => {
                        let op = match op {
                            "+" => Op::Add,
                            "-" => Op::Sub,
                            "*" => Op::Mul,
                            "/" => Op::Div,
                            "//" => Op::FloorDiv,
                            "%" => Op::Mod,
                            "^" => Op::Pow,
                            _ => return Err(nc("this operator".into())),
                        };
                        Node::Arith(op, l, r)
                    }
                }
            }
            "Compare" => {
                let ops = m.get("ops").and_then(J::as_array).ok_or_else(|| nc("a malformed comparison".into()))?;
                let ops = ops
                    .iter()
                    .map(|o| {
                        Ok(match o.as_str().unwrap_or("") {
                            "==" => Cmp::Eq,
                            "!=" => Cmp::Ne,
                            "in" => Cmp::In,
                            "not in" => Cmp::NotIn,
                            "<" => Cmp::Lt,
                            "<=" => Cmp::Le,
                            ">" => Cmp::Gt,
                            ">=" => Cmp::Ge,
                            _ => return Err(nc("this comparison".into())),
                        })
                    })
                    .collect::<Result<Vec<_>, Error>>()?;
                let operands = subs(self, "operands")?;
                if ops.is_empty() || operands.len() != ops.len() + 1 {
                    return Err(nc("a malformed comparison".into()));
                }
                Node::Compare(ops, operands)
            }
            "If" => Node::If(Box::new(sub(self, "cond")?), Box::new(sub(self, "then")?), Box::new(sub(self, "orelse")?)),
            _ => return Err(nc(format!("a {node:.40} expression"))),
        })
    }
}

/// The conjuncts of `a and b and …`.
fn conjuncts<'j>(e: &'j J, out: &mut Vec<&'j J>) {
    if e.get("_").and_then(J::as_str) == Some("Binary") && e.get("op").and_then(J::as_str) == Some("and") {
        if let (Some(l), Some(r)) = (e.get("left"), e.get("right")) {
            conjuncts(l, out);
            conjuncts(r, out);
            return;
        }
    }
    out.push(e);
}

/// `len(waits) == 1` and the like (runtime/fastscore.py `_late`): reads the waits, which cost a
/// search of their own, and cannot raise (lengths compared to numbers).
fn late(e: &J) -> bool {
    fn walk(e: &J, waits: &mut bool) -> bool {
        let Some(m) = e.as_object() else { return false };
        match m.get("_").and_then(J::as_str) {
            Some("Num") => true,
            Some("Name") => {
                let r = m.get("ref").and_then(J::as_str).unwrap_or("");
                *waits |= r == "builtin:waits" || r == "builtin:shape_waits";
                r == "builtin:waits" || r == "builtin:shape_waits"
            }
            Some("Call") => {
                let args = m.get("args").and_then(J::as_array);
                m.get("func").and_then(J::as_str) == Some("len")
                    && args.is_some_and(|a| a.len() == 1 && a.iter().all(|x| walk(x, waits)))
            }
            Some("Compare") => m.get("operands").and_then(J::as_array).is_some_and(|a| a.iter().all(|x| walk(x, waits))),
            _ => false,
        }
    }
    let mut waits = false;
    walk(e, &mut waits) && waits
}

fn mentions(e: &J, reference: &str) -> bool {
    match e {
        J::Object(m) => {
            if m.get("_").and_then(J::as_str) == Some("Name") && m.get("ref").and_then(J::as_str) == Some(reference) {
                return true;
            }
            m.iter().any(|(k, v)| k != "span" && mentions(v, reference))
        }
        J::Array(a) => a.iter().any(|v| mentions(v, reference)),
        _ => false,
    }
}

/// runtime/evaluate.py `binder_equality`: `x == V`, `x.F == V` or either way round, V not reading x,
/// gives V.
fn binder_equality<'j>(c: &'j J, reference: &str) -> Option<&'j J> {
    if c.get("_").and_then(J::as_str) != Some("Compare") {
        return None;
    }
    let ops = c.get("ops")?.as_array()?;
    if ops.len() != 1 || ops[0].as_str() != Some("==") {
        return None;
    }
    let operands = c.get("operands")?.as_array()?;
    let (a, b) = (operands.first()?, operands.get(1)?);
    let (item, other) = match (mentions(a, reference), mentions(b, reference)) {
        (true, false) => (a, b),
        (false, true) => (b, a),
        _ => return None,
    };
    if item.get("_").and_then(J::as_str) == Some("Name") && item.get("ref").and_then(J::as_str) == Some(reference) {
        return Some(other); // `x == V`: the item itself
    }
    if item.get("_").and_then(J::as_str) == Some("Attr") {
        let obj = item.get("obj")?;
        if obj.get("_").and_then(J::as_str) == Some("Name") && obj.get("ref").and_then(J::as_str) == Some(reference) {
            return Some(other);
        }
    }
    None
}

// ------------------------------------------------------------------ the program of a rule set

struct Pat {
    enabled: Option<Node>,
    when: Option<Node>,
    count: Option<Node>,
}

pub struct Program {
    pats: Vec<Pat>,
    pub python_owned: Vec<bool>, // patterns that read units: counted by the Python side
    quantities: Vec<Node>,
    pub settings: Vec<String>, // the setting references read, by slot
    n_binders: usize,
    // per field id: group field index (< GROUP_FIELDS.len()) or a tile field
    n_group_fields: usize,
    tile_fields: Vec<Vec<Option<V>>>, // per kind, per field id
    f_wild: usize,
    f_joker: usize,
    kind_rank: Vec<i64>,
    kind_suit: Vec<Option<Arc<str>>>,
    pub fields: Vec<String>, // every field name the programs read, by field id
    pub kinds: Vec<String>,  // the catalog's kind names, in order
    // The reference's prefilter (runtime/prefilter.py), given by the Python side: per pattern, tests
    // (field, op, k) on the reading's packed counts; a pattern failing one counts 0 unevaluated.
    pub prefilter: Vec<Vec<(usize, u8, i64)>>,
    // values, requirements and the score formula lowered (score.rs), or why they are not
    pub scoring: Result<Scoring, String>,
}

pub(crate) struct Requirement {
    pub forms: Vec<Arc<str>>,
    pub expr: Node,
    pub unless: Option<Node>,
}

/// What scoring a reading reads after the raw counts: each pattern's value, the requirements in
/// order, the score's expressions; the one pattern that reads a unit and the units it reads.
pub(crate) struct Scoring {
    pub values: Vec<Node>,
    pub requires: Vec<Requirement>,
    pub score: Option<Node>,
    pub total: Option<Node>,
    pub best: Option<Node>,
    pub reader: Option<usize>,
    pub reader_units: Vec<usize>,
}

fn lower_scoring(
    rs: &serde_json::Map<String, J>,
    pats_j: &[J],
    lw: &mut Lowering,
    python_owned: &[bool],
    units_read: &[Vec<usize>],
) -> Result<Scoring, Error> {
    let empty = Vec::new();
    let mut values = Vec::new();
    for p in pats_j {
        let e = p.get("value").filter(|v| !v.is_null()).ok_or_else(|| nc("a pattern without a value".into()))?;
        values.push(lw.lower(e, 0)?);
    }
    let mut requires = Vec::new();
    for q in rs.get("requires").and_then(J::as_array).unwrap_or(&empty) {
        let forms = q
            .get("forms")
            .and_then(J::as_array)
            .unwrap_or(&empty)
            .iter()
            .map(|f| f.as_str().map(Arc::from).ok_or_else(|| nc("a malformed requirement".into())))
            .collect::<Result<Vec<_>, Error>>()?;
        let expr = lw.lower(q.get("expr").ok_or_else(|| nc("a requirement without a condition".into()))?, 0)?;
        let unless = match q.get("unless").filter(|v| !v.is_null()) {
            Some(e) => Some(lw.lower(e, 0)?),
            None => None,
        };
        requires.push(Requirement { forms, expr, unless });
    }
    let sc = rs.get("score").filter(|v| !v.is_null());
    let part = |lw: &mut Lowering, k: &str| -> Result<Option<Node>, Error> {
        match sc.and_then(|s| s.get(k)).filter(|v| !v.is_null()) {
            Some(e) => Ok(Some(lw.lower(e, 0)?)),
            None => Ok(None),
        }
    };
    let score = part(lw, "expr")?;
    let total = part(lw, "total")?;
    let best = part(lw, "best")?;
    let reader = python_owned.iter().position(|&x| x);
    Ok(Scoring {
        values,
        requires,
        score,
        total,
        best,
        reader,
        reader_units: reader.map(|k| units_read[k].clone()).unwrap_or_default(),
    })
}

fn opt<'j>(m: &'j serde_json::Map<String, J>, key: &str) -> Option<&'j J> {
    m.get(key).filter(|v| !v.is_null())
}

impl Program {
    pub fn build(text: &str, cat: &Catalog) -> Result<Program, Error> {
        let doc: J = serde_json::from_str(text).map_err(|e| Error::Input(format!("the rule set is not valid JSON ({e})")))?;
        let rs = doc.get("ruleset").and_then(J::as_object).ok_or_else(|| nc("a rule set without patterns".into()))?;
        let empty = Vec::new();
        let pats_j = rs.get("patterns").and_then(J::as_array).unwrap_or(&empty);
        let qs_j = rs.get("quantities").and_then(J::as_array).unwrap_or(&empty);
        let mut lw = Lowering {
            kinds: cat.kinds.iter().enumerate().map(|(i, k)| (k.name.as_str(), i)).collect(),
            kind_joker: cat.kinds.iter().map(|k| k.category == "joker").collect(),
            patterns: HashMap::new(),
            quantities: HashMap::new(),
            settings: Vec::new(),
            binders: HashMap::new(),
            fields: GROUP_FIELDS.iter().map(|s| s.to_string()).collect(),
            reads_patterns: Vec::new(),
            reads_quantities: Vec::new(),
            reads_unit: false,
            units: rs
                .get("units")
                .and_then(J::as_array)
                .unwrap_or(&empty)
                .iter()
                .enumerate()
                .filter_map(|(j, u)| u.get("name").and_then(J::as_str).map(|n| (n.to_owned(), j)))
                .collect(),
            reads_units: Vec::new(),
        };
        for (i, p) in pats_j.iter().enumerate() {
            let name = p.get("name").and_then(J::as_str).ok_or_else(|| nc("a pattern without a name".into()))?;
            lw.patterns.entry(name.to_owned()).or_insert(i);
        }
        for (i, q) in qs_j.iter().enumerate() {
            let name = q.get("name").and_then(J::as_str).ok_or_else(|| nc("a quantity without a name".into()))?;
            lw.quantities.entry(name.to_owned()).or_insert(i);
        }
        // quantities: what each reads directly
        let mut quantities = Vec::new();
        let mut q_pats: Vec<Vec<usize>> = Vec::new();
        let mut q_qs: Vec<Vec<usize>> = Vec::new();
        let mut q_unit: Vec<bool> = Vec::new();
        let mut q_units: Vec<Vec<usize>> = Vec::new();
        for q in qs_j {
            let e = q.get("expr").ok_or_else(|| nc("a quantity without an expression".into()))?;
            lw.reads_patterns.clear();
            lw.reads_quantities.clear();
            lw.reads_unit = false;
            lw.reads_units.clear();
            quantities.push(lw.lower(e, 0)?);
            q_pats.push(std::mem::take(&mut lw.reads_patterns));
            q_qs.push(std::mem::take(&mut lw.reads_quantities));
            q_unit.push(lw.reads_unit);
            q_units.push(std::mem::take(&mut lw.reads_units));
        }
        // through quantities, transitively (a quantity reading itself is refused)
        let nq = quantities.len();
        let mut q_all_pats: Vec<Vec<usize>> = vec![Vec::new(); nq];
        let mut q_all_unit = vec![false; nq];
        let mut q_all_units: Vec<Vec<usize>> = vec![Vec::new(); nq];
        for i in 0..nq {
            let mut seen = vec![false; nq];
            let mut stack = vec![i];
            while let Some(j) = stack.pop() {
                if seen[j] {
                    continue;
                }
                seen[j] = true;
                q_all_pats[i].extend(&q_pats[j]);
                q_all_unit[i] |= q_unit[j];
                q_all_units[i].extend(&q_units[j]);
                for &k in &q_qs[j] {
                    if k == i {
                        return Err(nc("a quantity that reads itself".into()));
                    }
                    stack.push(k);
                }
            }
        }
        // A pattern of a `combine` block counts its combinations (runtime/scoring.py `combos`).
        let mut combined: Vec<&str> = Vec::new();
        for c in rs.get("combines").and_then(J::as_array).unwrap_or(&empty) {
            for n in c.get("patterns").and_then(J::as_array).unwrap_or(&empty) {
                combined.extend(n.as_str());
            }
        }
        let mut pats = Vec::new();
        let mut deps: Vec<Vec<usize>> = Vec::new();
        let mut python_owned = Vec::new();
        let mut units_read: Vec<Vec<usize>> = Vec::new();
        for p in pats_j {
            let p = p.as_object().ok_or_else(|| nc("a malformed pattern".into()))?;
            lw.reads_patterns.clear();
            lw.reads_quantities.clear();
            lw.reads_unit = false;
            lw.reads_units.clear();
            let low = |key: &str, lw: &mut Lowering| -> Result<Option<Node>, Error> {
                opt(p, key).map(|e| lw.lower(e, 0)).transpose()
            };
            let enabled = low("enabled", &mut lw)?;
            // A `when` conjunct that only compares the number of waits goes last: the waits are a search
            // of their own, and the other conjuncts usually decide first. (Pure values: the same result;
            // a moved-up conjunct that raises makes the reference evaluate the reading.)
            let when = match opt(p, "when") {
                None => None,
                Some(e) => {
                    let mut parts = Vec::new();
                    conjuncts(e, &mut parts);
                    let (mut first, last): (Vec<&J>, Vec<&J>) = parts.into_iter().partition(|c| !late(c));
                    first.extend(last);
                    let mut node: Option<Node> = None;
                    for c in first {
                        let n = lw.lower(c, 0)?;
                        node = Some(match node {
                            None => n,
                            Some(prev) => Node::And(Box::new(prev), Box::new(n)),
                        });
                    }
                    node
                }
            };
            let mut count = low("count", &mut lw)?;
            let pname = p.get("name").and_then(J::as_str).unwrap_or("");
            if combined.contains(&pname) {
                match &mut count {
                    Some(Node::Comp { func, eq, .. }) => {
                        *func = CompFn::Count;
                        *eq = None;
                    }
                    _ => return Err(nc("a combine pattern without a comprehension count".into())),
                }
            }
            let mut d = std::mem::take(&mut lw.reads_patterns);
            let mut unit = lw.reads_unit;
            let mut ur = std::mem::take(&mut lw.reads_units);
            for &q in &lw.reads_quantities {
                d.extend(&q_all_pats[q]);
                unit |= q_all_unit[q];
                ur.extend(&q_all_units[q]);
            }
            ur.sort_unstable();
            ur.dedup();
            units_read.push(ur);
            d.sort_unstable();
            d.dedup();
            deps.push(d);
            python_owned.push(unit);
            pats.push(Pat { enabled, when, count });
        }
        // No cycles among the patterns, and none reads a pattern the Python side counts.
        let n = pats.len();
        let mut state = vec![0u8; n];
        fn visit(i: usize, deps: &[Vec<usize>], state: &mut [u8]) -> Result<(), Error> {
            if state[i] == 2 {
                return Ok(());
            }
            if state[i] == 1 {
                return Err(nc("patterns that read each other".into()));
            }
            state[i] = 1;
            for &j in &deps[i] {
                visit(j, deps, state)?;
            }
            state[i] = 2;
            Ok(())
        }
        for i in 0..n {
            visit(i, &deps, &mut state)?;
            if deps[i].iter().any(|&j| python_owned[j]) {
                return Err(nc("a pattern that reads a pattern which reads a unit".into()));
            }
        }
        if python_owned.iter().filter(|&&x| x).count() > 1 {
            return Err(nc("several patterns that read units".into()));
        }
        // what scoring reads after the counts (score.rs): lowered where it can be; else the reason
        let scoring = lower_scoring(rs, pats_j, &mut lw, &python_owned, &units_read).map_err(|e| match e {
            Error::NotCovered(m) | Error::Input(m) | Error::Internal(m) => m,
        });
        // tile fields by field id, per kind: as TileInfo.fill_fields makes them
        let fields = lw.fields.clone();
        let n_fields = fields.len();
        let _ = n_fields;
        let f_wild = fields.iter().position(|f| f == F_WILD);
        let f_joker = fields.iter().position(|f| f == F_JOKER);
        let mut tile_fields = Vec::new();
        for (i, k) in cat.kinds.iter().enumerate() {
            let mut row = Vec::with_capacity(fields.len());
            for f in &fields {
                let v = match f.as_str() {
                    "kind" => Some(V::Tile(((i as u32) << 2) | (k.category == "joker") as u32)),
                    "suit" => Some(k.suit.as_deref().map(|s| V::Str(Arc::from(s))).unwrap_or(V::None)),
                    "rank" => Some(V::Int(k.rank)),
                    "honor" => Some(V::Bool(k.category == "honor")),
                    "flower" => Some(V::Bool(k.category == "flower")),
                    "joker" => Some(V::Bool(k.category == "joker")),
                    "wild" => Some(V::Bool(false)),
                    "name" => Some(V::Str(Arc::from(k.name.as_str()))),
                    other => k.attrs.get(other).map(|b| V::Bool(*b)),
                };
                row.push(v);
            }
            tile_fields.push(row);
        }
        Ok(Program {
            pats,
            python_owned,
            quantities,
            settings: lw.settings,
            n_binders: lw.binders.len(),
            n_group_fields: GROUP_FIELDS.len(),
            tile_fields,
            f_wild: f_wild.unwrap_or(usize::MAX),
            f_joker: f_joker.unwrap_or(usize::MAX),
            kind_rank: cat.kinds.iter().map(|k| k.rank).collect(),
            kind_suit: cat.kinds.iter().map(|k| k.suit.as_deref().map(Arc::from)).collect(),
            fields,
            kinds: cat.kinds.iter().map(|k| k.name.clone()).collect(),
            prefilter: Vec::new(),
            scoring,
        })
    }

    /// Field `f` (an index into `fields`) of kind i as the program reads it from a natural tile of
    /// that kind (None: the kind has no such field), for the Python side's check that the native
    /// catalog matches its own.
    pub fn kind_field(&self, i: usize, f: usize) -> Option<V> {
        self.tile_fields.get(i)?.get(f)?.clone()
    }

    pub fn n_kinds(&self) -> usize {
        self.tile_fields.len()
    }
}

// ------------------------------------------------------------------ one reading

pub struct Group {
    pub kind: Arc<str>,
    pub tiles: Arc<Vec<V>>,
    pub exposed: bool,
    pub concealed: bool,
    pub pair: bool,
    pub kong: bool,
    pub has_win: bool,
    pub value: V,
    pub ident: u16,
}

pub struct Reading<'a> {
    pub groups: Vec<Group>,
    pub tiles: Option<Arc<Vec<V>>>, // None: the groups' tiles in order
    pub hand: Option<Arc<Vec<V>>>,
    pub declared: Vec<bool>,
    pub win_tile: V,
    pub win_group: V,
    pub form: V,
    pub self_drawn: bool,
    pub flowers: Arc<Vec<V>>,
    pub waits: Option<V>,
    pub shape_waits: Option<V>,
    pub settings: &'a [Option<V>], // by slot; None: no value here (the reference raises)
    pub packed: Option<&'a [u8]>,  // the prefilter's packed counts (little-endian), when it applies
}

pub(crate) struct Eval<'p, 'r> {
    p: &'p Program,
    r: &'r Reading<'r>,
    builtins: Vec<Option<V>>,
    binders: Vec<V>,
    counts: Vec<Option<i64>>, // raw counts found so far (Some(0) while one is being computed)
    quantities: Vec<Option<V>>,
    gfields: Vec<Vec<V>>, // per group, its fields (GROUP_FIELDS order)
    budget: u64,
    pub(crate) units: Option<Vec<V>>, // the units' values once known (scoring)
}

const BUDGET: u64 = 5_000_000; // node evaluations per reading; past it the reference evaluates it

impl Program {
    /// The raw count of every pattern of the reading (0 for the patterns the Python side counts).
    pub fn raw_counts(&self, r: &Reading) -> Result<Vec<i64>, Stop> {
        let mut ev = Eval::new(self, r);
        ev.all_counts()
    }
}

impl<'p, 'r> Eval<'p, 'r> {
    pub(crate) fn new(p: &'p Program, r: &'r Reading<'r>) -> Eval<'p, 'r> {
        let mut ev = Eval {
            p,
            r,
            builtins: vec![None; N_BUILTINS],
            binders: vec![V::None; p.n_binders],
            counts: vec![None; p.pats.len()],
            quantities: vec![None; p.quantities.len()],
            gfields: Vec::new(),
            budget: BUDGET,
            units: None,
        };
        ev.gfields = r.groups.iter().map(|g| ev.group_fields(g)).collect();
        ev
    }

    /// Every pattern's raw count, the unit reader's 0.
    pub(crate) fn all_counts(&mut self) -> R<Vec<i64>> {
        for i in 0..self.p.pats.len() {
            if self.p.python_owned[i] {
                self.counts[i] = Some(0);
            } else {
                self.pattern(i)?;
            }
        }
        Ok(self.counts.iter().map(|c| c.unwrap_or(0)).collect())
    }

    /// The unit reader's raw count with the units known (`self.units`), the others' counts as found;
    /// it reads itself as 0 (the reference's re-entry guard).
    pub(crate) fn owned_count(&mut self, k: usize) -> R<i64> {
        self.counts[k] = None;
        let n = self.pattern(k);
        if n.is_err() {
            self.counts[k] = Some(0);
        }
        n
    }

    /// The combinations a `combine` pattern counts: each the tokens (group identity, occurrence) of
    /// its melds, as runtime/scoring.py `ReadingEvaluator.combos` lists them.
    pub(crate) fn combos(&mut self, i: usize) -> R<Vec<Vec<(u16, u16)>>> {
        let Some(Node::Comp { slots, src, body, .. }) = &self.p.pats[i].count else { return Err(Stop::Bail) };
        let items = match self.eval(src)? {
            v if !v.truthy() => Arc::new(Vec::new()),
            V::List(l) => l,
            _ => return Err(Stop::Bail),
        };
        // tokens: a meld is its object (the group's identity) and its occurrence among the items
        let mut tokens: Vec<(u16, u16)> = Vec::with_capacity(items.len());
        for (j, x) in items.iter().enumerate() {
            let V::Group(g) = x else { return Err(Stop::Bail) };
            let seen = items[..j].iter().filter(|y| matches!(y, V::Group(h) if h == g)).count();
            tokens.push((*g, seen as u16));
        }
        let k = slots.len();
        let n = items.len();
        let mut found = Vec::new();
        if k > n {
            return Ok(found);
        }
        let mut idx: Vec<usize> = (0..k).collect();
        loop {
            for (s, &j) in slots.iter().zip(&idx) {
                self.binders[*s] = items[j].clone();
            }
            if self.eval(body)?.truthy() {
                found.push(idx.iter().map(|&j| tokens[j]).collect());
            }
            let mut j = k;
            loop {
                if j == 0 {
                    return Ok(found);
                }
                j -= 1;
                if idx[j] != j + n - k {
                    break;
                }
            }
            idx[j] += 1;
            for t in j + 1..k {
                idx[t] = idx[t - 1] + 1;
            }
        }
    }

    pub(crate) fn eval_node(&mut self, e: &Node) -> R<V> {
        self.eval(e)
    }

    pub(crate) fn quantity(&mut self, q: usize) -> R<V> {
        self.eval(&Node::Quantity(q))
    }

    pub(crate) fn n_quantities(&self) -> usize {
        self.p.quantities.len()
    }
}

impl<'p, 'r> Eval<'p, 'r> {
    fn pattern(&mut self, i: usize) -> R<i64> {
        if let Some(n) = self.counts[i] {
            return Ok(n);
        }
        self.counts[i] = Some(0); // the reference's guard against re-entry
        if let (Some(packed), Some(tests)) = (self.r.packed, self.p.prefilter.get(i)) {
            for &(f, op, k) in tests {
                if !prefilter_test(packed, f, op, k) {
                    return Ok(0);
                }
            }
        }
        let p = &self.p.pats[i];
        if let Some(e) = &p.enabled {
            if !self.eval(e)?.truthy() {
                return Ok(0);
            }
        }
        if let Some(e) = &p.when {
            if !self.eval(e)?.truthy() {
                return Ok(0);
            }
        }
        let n = match &p.count {
            None => 1,
            Some(e) => match self.eval(e)? {
                // int(): bools are 0/1, fractions truncated toward zero
                V::Bool(b) => b as i64,
                V::Int(n) => n,
                V::Rat(n, d) => n / d,
                _ => return Err(Stop::Bail),
            },
        };
        let n = n.max(0);
        self.counts[i] = Some(n);
        Ok(n)
    }

    fn group_list(&self, keep: impl Fn(&Group) -> bool) -> V {
        V::List(Arc::new(self.r.groups.iter().filter(|g| keep(g)).map(|g| V::Group(g.ident)).collect()))
    }

    fn all_tiles(&self, hand_only: bool) -> Arc<Vec<V>> {
        let mut out = Vec::new();
        for (g, &d) in self.r.groups.iter().zip(&self.r.declared) {
            if !(hand_only && d) {
                out.extend(g.tiles.iter().cloned());
            }
        }
        Arc::new(out)
    }

    fn is_run(&self, g: &Group) -> bool {
        let t = &g.tiles;
        if t.len() < 3 {
            return false;
        }
        let kinds: Vec<usize> = t.iter().map(|x| if let V::Tile(c) = x { kind_of(*c) as usize } else { 0 }).collect();
        let suit = &self.p.kind_suit[kinds[0]];
        if suit.is_none() || kinds.iter().any(|&k| &self.p.kind_suit[k] != suit) {
            return false;
        }
        let mut ranks: Vec<i64> = kinds.iter().map(|&k| self.p.kind_rank[k]).collect();
        ranks.sort_unstable();
        ranks.windows(2).all(|w| w[1] == w[0] + 1)
    }

    fn is_triplet(g: &Group) -> bool {
        let t = &g.tiles;
        t.len() >= 3 && t.iter().all(|x| match (x, &t[0]) {
            (V::Tile(a), V::Tile(b)) => kind_of(*a) == kind_of(*b),
            _ => false,
        })
    }

    fn builtin(&mut self, b: B) -> R<V> {
        if let Some(v) = &self.builtins[b as usize] {
            return Ok(v.clone());
        }
        let r = self.r;
        let v = match b {
            B::Groups => self.group_list(|_| true),
            B::Melds => self.group_list(|g| !g.pair),
            B::Pairs => self.group_list(|g| g.pair),
            B::Pair => match r.groups.iter().find(|g| g.pair) {
                Some(g) => V::Group(g.ident),
                None => V::None,
            },
            B::Runs | B::Triplets => {
                let f = if b == B::Runs { F_RUN } else { F_TRIPLET };
                V::List(Arc::new(
                    r.groups
                        .iter()
                        .zip(&self.gfields)
                        .filter(|(g, fs)| !g.pair && fs[f].truthy())
                        .map(|(g, _)| V::Group(g.ident))
                        .collect(),
                ))
            }
            B::Kongs => self.group_list(|g| !g.pair && g.kong),
            B::Exposed => self.group_list(|g| g.exposed),
            B::Tiles => V::List(match &r.tiles {
                Some(t) => t.clone(),
                None => self.all_tiles(false),
            }),
            B::Hand => V::List(match &r.hand {
                Some(t) => t.clone(),
                None => self.all_tiles(true),
            }),
            B::WinTile => r.win_tile.clone(),
            B::WinGroup => r.win_group.clone(),
            B::Form => r.form.clone(),
            B::Suits => {
                let tiles = match self.builtin(B::Tiles)? {
                    V::List(l) => l,
                    _ => return Err(Stop::Bail),
                };
                let mut suits: Vec<Arc<str>> = Vec::new();
                for t in tiles.iter() {
                    if let V::Tile(c) = t {
                        if let Some(s) = &self.p.kind_suit[kind_of(*c) as usize] {
                            if !s.is_empty() && !suits.iter().any(|x| x == s) {
                                suits.push(s.clone());
                            }
                        }
                    }
                }
                suits.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
                V::List(Arc::new(suits.into_iter().map(V::Str).collect()))
            }
            B::Menqing => V::Bool(!r.groups.iter().any(|g| g.exposed)),
            B::Flowers => V::List(r.flowers.clone()),
            B::SelfDrawn => V::Bool(r.self_drawn),
            B::Waits => match &r.waits {
                Some(w) => w.clone(),
                None => return Err(Stop::NeedWaits),
            },
            B::ShapeWaits => match &r.shape_waits {
                Some(w) => w.clone(),
                None => return Err(Stop::NeedShapeWaits),
            },
        };
        self.builtins[b as usize] = Some(v.clone());
        Ok(v)
    }

    /// Every field of group g, in GROUP_FIELDS order, as runtime/reading.py `Group.field` gives them.
    fn group_fields(&self, g: &Group) -> Vec<V> {
        let t = &g.tiles;
        let kinds: Vec<usize> = t.iter().map(|x| if let V::Tile(c) = x { kind_of(*c) as usize } else { 0 }).collect();
        let ranks = kinds.iter().map(|&k| self.p.kind_rank[k]);
        // min by kind index: the first of the lowest
        let mut tile: Option<&V> = None;
        for x in t.iter() {
            match (tile, x) {
                (None, _) => tile = Some(x),
                (Some(V::Tile(b)), V::Tile(c)) if kind_of(*c) < kind_of(*b) => tile = Some(x),
                _ => {}
            }
        }
        let rank = V::Int(ranks.clone().min().unwrap_or(0));
        vec![
            V::Str(g.kind.clone()),
            V::Int(t.len() as i64),
            V::List(t.clone()),
            tile.cloned().unwrap_or(V::None),
            match kinds.first() {
                Some(&k) => self.p.kind_suit[k].clone().map(V::Str).unwrap_or(V::None),
                None => V::None,
            },
            rank.clone(),
            rank,
            V::Int(ranks.max().unwrap_or(0)),
            V::Bool(self.is_run(g)),
            V::Bool(Self::is_triplet(g)),
            V::Bool(g.kong),
            V::Bool(g.pair),
            V::Bool(g.exposed),
            V::Bool(g.concealed),
            g.value.clone(),
            V::Int(t.iter().filter(|x| matches!(x, V::Tile(c) if c & 2 != 0)).count() as i64),
            V::Bool(g.has_win),
        ]
    }

    fn group_field(&self, gi: u16, f: usize) -> R<V> {
        self.gfields.get(gi as usize).and_then(|fs| fs.get(f)).cloned().ok_or(Stop::Bail)
    }

    fn tile_field(&self, code: u32, f: usize) -> R<V> {
        if f == self.p.f_wild {
            return Ok(V::Bool(code & 2 != 0));
        }
        if f == self.p.f_joker {
            return Ok(V::Bool(code & 1 != 0));
        }
        let row = self.p.tile_fields.get(kind_of(code) as usize).ok_or(Stop::Bail)?;
        row.get(f).cloned().flatten().ok_or(Stop::Bail) // a field this kind lacks: KeyError in the reference
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
            Node::Builtin(b) => self.builtin(*b),
            Node::Setting(i) => match self.r.settings.get(*i) {
                Some(Some(v)) => Ok(v.clone()),
                _ => Err(Stop::Bail),
            },
            Node::Binder(i) => Ok(self.binders[*i].clone()),
            Node::Pattern(i) => Ok(V::Int(self.pattern(*i)?)),
            Node::Unit(j) => match &self.units {
                Some(u) => u.get(*j).cloned().ok_or(Stop::Bail),
                None => Err(Stop::Bail),
            },
            Node::Quantity(i) => {
                if let Some(v) = &self.quantities[*i] {
                    return Ok(v.clone());
                }
                let v = self.eval(&self.p.quantities[*i])?;
                self.quantities[*i] = Some(v.clone());
                Ok(v)
            }
            Node::Attr(o, f) if matches!(**o, Node::Binder(_)) => {
                let Node::Binder(i) = **o else { return Err(Stop::Bail) };
                match self.binders[i] {
                    V::None => Ok(V::None),
                    V::Tile(c) => self.tile_field(c, *f),
                    V::Group(g) if *f < self.p.n_group_fields => self.group_field(g, *f),
                    _ => Err(Stop::Bail),
                }
            }
            Node::Attr(o, f) => match self.eval(o)? {
                V::None => Ok(V::None),
                V::Tile(c) => self.tile_field(c, *f),
                V::Group(g) if *f < self.p.n_group_fields => self.group_field(g, *f),
                _ => Err(Stop::Bail),
            },
            Node::Call(func, args) => self.call(*func, args),
            Node::Comp { func, slots, src, body, eq } => {
                let v = self.comp(*func, slots, src, body)?;
                if let Some(e) = eq {
                    self.eval(e)?;
                }
                Ok(v)
            }
            Node::Not(o) => Ok(V::Bool(!self.eval(o)?.truthy())),
            Node::Neg(o) => match self.eval(o)? {
                V::Bool(b) => Ok(V::Int(-(b as i64))),
                V::Int(n) => n.checked_neg().map(V::Int).ok_or(Stop::Bail),
                V::Rat(n, d) => n.checked_neg().map(|n| V::Rat(n, d)).ok_or(Stop::Bail),
                _ => Err(Stop::Bail),
            },
            Node::And(l, r) => Ok(V::Bool(self.eval(l)?.truthy() && self.eval(r)?.truthy())),
            Node::Or(l, r) => Ok(V::Bool(self.eval(l)?.truthy() || self.eval(r)?.truthy())),
            Node::Arith(op, l, r) => {
                let a = self.eval(l)?;
                let b = self.eval(r)?;
                arith(*op, &a, &b)
            }
            Node::Compare(ops, operands) => {
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
                if self.eval(c)?.truthy() {
                    self.eval(t)
                } else {
                    self.eval(f)
                }
            }
        }
    }

    fn call(&mut self, func: Func, args: &[Node]) -> R<V> {
        let a = self.eval(&args[0])?;
        match func {
            Func::Len => match &a {
                V::List(l) => Ok(V::Int(l.len() as i64)),
                V::Str(s) => Ok(V::Int(s.chars().count() as i64)),
                _ => Err(Stop::Bail),
            },
            Func::Distinct => match &a {
                V::List(l) => {
                    let mut out: Vec<V> = Vec::new();
                    for x in l.iter() {
                        if !out.iter().any(|y| equal(x, y)) {
                            out.push(x.clone());
                        }
                    }
                    Ok(V::List(Arc::new(out)))
                }
                _ => Err(Stop::Bail),
            },
            Func::Abs => match a {
                V::Bool(b) => Ok(V::Int(b as i64)),
                V::Int(n) => n.checked_abs().map(V::Int).ok_or(Stop::Bail),
                V::Rat(n, d) => n.checked_abs().map(|n| V::Rat(n, d)).ok_or(Stop::Bail),
                _ => Err(Stop::Bail),
            },
            Func::Floor => match a.num() {
                Some((n, d)) => i64::try_from(floor_div(n, d)).map(V::Int).map_err(|_| Stop::Bail),
                None => Err(Stop::Bail),
            },
            Func::Max | Func::Min => {
                let b = self.eval(&args[1])?;
                // Python's max(a, b) keeps a unless b > a; min(a, b) keeps a unless b < a
                let ord = order(&b, &a).ok_or(Stop::Bail)?;
                let take_b = if matches!(func, Func::Max) { ord.is_gt() } else { ord.is_lt() };
                Ok(if take_b { b } else { a })
            }
            Func::Cn => match a {
                V::Bool(b) => Ok(V::Str(Arc::from(cn(b as i64)))),
                V::Int(n) => Ok(V::Str(Arc::from(cn(n)))),
                V::Rat(n, d) => Ok(V::Str(Arc::from(cn(n / d)))),
                _ => Err(Stop::Bail),
            },
        }
    }

    fn comp(&mut self, func: CompFn, slots: &[usize], src: &Node, body: &Node) -> R<V> {
        let items = match self.eval(src)? {
            v if !v.truthy() => Arc::new(Vec::new()), // `src or ()`
            V::List(l) => l,
            _ => return Err(Stop::Bail), // iterating a string or a non-list
        };
        let k = slots.len();
        let n = items.len();
        let mut count: i64 = 0;
        let mut total = (0i128, 1i128);
        let mut best: Option<V> = None;
        let mut kept: Vec<V> = Vec::new();
        if k > n {
            return finish(func, count, total, best, kept);
        }
        let mut idx: Vec<usize> = (0..k).collect();
        loop {
            for (s, &i) in slots.iter().zip(&idx) {
                self.binders[*s] = items[i].clone();
            }
            let v = self.eval(body)?;
            match func {
                CompFn::Count => count += v.truthy() as i64,
                CompFn::Any => {
                    if v.truthy() {
                        return Ok(V::Bool(true));
                    }
                }
                CompFn::All => {
                    if !v.truthy() {
                        return Ok(V::Bool(false));
                    }
                }
                CompFn::Filter => {
                    if v.truthy() {
                        kept.push(items[idx[0]].clone());
                    }
                }
                CompFn::Sum => {
                    let (p, q) = v.num().ok_or(Stop::Bail)?;
                    let (a, b) = total;
                    let num = a.checked_mul(q).and_then(|x| p.checked_mul(b).and_then(|y| x.checked_add(y))).ok_or(Stop::Bail)?;
                    let den = b.checked_mul(q).ok_or(Stop::Bail)?;
                    let g = gcd(num, den).max(1);
                    total = (num / g, den / g);
                    if total.0.abs() > i64::MAX as i128 || total.1 > i64::MAX as i128 {
                        return Err(Stop::Bail);
                    }
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
            }
            // the next combination (itertools.combinations order)
            let mut j = k;
            loop {
                if j == 0 {
                    return finish(func, count, total, best, kept);
                }
                j -= 1;
                if idx[j] != j + n - k {
                    break;
                }
            }
            idx[j] += 1;
            for t in j + 1..k {
                idx[t] = idx[t - 1] + 1;
            }
        }
    }
}

pub const PREFILTER_FIELD: usize = 6;

/// One prefilter test: the 6-bit field f of the packed counts against k (op: 0 ==, 1 !=, 2 <, 3 <=,
/// 4 >, 5 >=).
fn prefilter_test(packed: &[u8], f: usize, op: u8, k: i64) -> bool {
    let bit = f * PREFILTER_FIELD;
    let mut v: i64 = 0;
    for j in 0..PREFILTER_FIELD {
        let b = bit + j;
        if packed.get(b / 8).is_some_and(|byte| byte >> (b % 8) & 1 != 0) {
            v |= 1 << j;
        }
    }
    match op {
        0 => v == k,
        1 => v != k,
        2 => v < k,
        3 => v <= k,
        4 => v > k,
        _ => v >= k,
    }
}

fn finish(func: CompFn, count: i64, total: (i128, i128), best: Option<V>, kept: Vec<V>) -> R<V> {
    Ok(match func {
        CompFn::Count => V::Int(count),
        CompFn::Any => V::Bool(false),
        CompFn::All => V::Bool(true),
        CompFn::Filter => V::List(Arc::new(kept)),
        CompFn::Sum => rat(total.0, total.1)?,
        CompFn::Max | CompFn::Min => best.unwrap_or(V::Int(0)),
    })
}

const CN_DIGITS: [&str; 10] = ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九"];

fn cn(n: i64) -> String {
    if !(0..100).contains(&n) {
        return n.to_string();
    }
    if n < 10 {
        return CN_DIGITS[n as usize].to_owned();
    }
    let (tens, ones) = (n / 10, n % 10);
    let mut s = String::new();
    if tens != 1 {
        s.push_str(CN_DIGITS[tens as usize]);
    }
    s.push('十');
    if ones != 0 {
        s.push_str(CN_DIGITS[ones as usize]);
    }
    s
}

pub fn add(a: &V, b: &V) -> R<V> {
    arith(Op::Add, a, b)
}

pub fn mul(a: &V, b: &V) -> R<V> {
    arith(Op::Mul, a, b)
}

/// runtime/evaluate.py `power` (a count as the exponent), bounded as `^` is.
pub fn power(a: &V, n: i64) -> R<V> {
    arith(Op::Pow, a, &V::Int(n))
}

fn arith(op: Op, a: &V, b: &V) -> R<V> {
    if let (V::List(x), V::List(y), Op::Add) = (a, b, op) {
        let mut out = Vec::with_capacity(x.len() + y.len());
        out.extend(x.iter().cloned());
        out.extend(y.iter().cloned());
        return Ok(V::List(Arc::new(out)));
    }
    if let (V::Str(x), V::Str(y), Op::Add) = (a, b, op) {
        return Ok(V::Str(Arc::from(format!("{x}{y}"))));
    }
    let (Some((p, q)), Some((r, s))) = (a.num(), b.num()) else { return Err(Stop::Bail) };
    let mul = |x: i128, y: i128| x.checked_mul(y).ok_or(Stop::Bail);
    match op {
        Op::Add => rat(mul(p, s)?.checked_add(mul(r, q)?).ok_or(Stop::Bail)?, mul(q, s)?),
        Op::Sub => rat(mul(p, s)?.checked_sub(mul(r, q)?).ok_or(Stop::Bail)?, mul(q, s)?),
        Op::Mul => rat(mul(p, r)?, mul(q, s)?),
        Op::Div => {
            if r == 0 {
                return Err(Stop::Bail);
            }
            rat(mul(p, s)?, mul(q, r)?)
        }
        Op::FloorDiv => {
            if r == 0 {
                return Err(Stop::Bail);
            }
            let (n, d) = (mul(p, s)?, mul(q, r)?);
            i64::try_from(floor_div(n, d)).map(V::Int).map_err(|_| Stop::Bail)
        }
        Op::Mod => {
            if r == 0 {
                return Err(Stop::Bail);
            }
            // a - b * floor(a / b), exactly
            let fl = floor_div(mul(p, s)?, mul(q, r)?);
            let bf = (mul(r, fl)?, s); // b * floor
            rat(mul(p, bf.1)?.checked_sub(mul(bf.0, q)?).ok_or(Stop::Bail)?, mul(q, bf.1)?)
        }
        Op::Pow => {
            // int(b): truncated toward zero
            let e = r / s;
            let base_small = q == 1 && (-1..=1).contains(&p);
            if e.abs() > 1000 && !base_small {
                return Err(Stop::Bail);
            }
            if p == 0 && e < 0 {
                return Err(Stop::Bail);
            }
            if base_small {
                return Ok(V::Int(match p {
                    0 => (e == 0) as i64,
                    1 => 1,
                    _ => if e % 2 == 0 { 1 } else { -1 },
                }));
            }
            let (mut n, mut d) = (1i128, 1i128);
            let (bn, bd) = if e < 0 { (q, p) } else { (p, q) };
            for _ in 0..e.abs() {
                n = n.checked_mul(bn).ok_or(Stop::Bail)?;
                d = d.checked_mul(bd).ok_or(Stop::Bail)?;
                if n.abs() > i64::MAX as i128 || d.abs() > i64::MAX as i128 {
                    return Err(Stop::Bail);
                }
            }
            rat(n, d)
        }
    }
}

fn compare(op: Cmp, a: &V, b: &V) -> R<bool> {
    match op {
        Cmp::Eq => Ok(equal(a, b)),
        Cmp::Ne => Ok(!equal(a, b)),
        Cmp::In | Cmp::NotIn => {
            let inside = match (a, b) {
                (_, V::List(items)) => items.iter().any(|x| equal(a, x)),
                (V::Str(x), V::Str(y)) => y.contains(&**x),
                _ => return Err(Stop::Bail),
            };
            Ok(inside == matches!(op, Cmp::In))
        }
        _ => {
            if matches!(a, V::None) || matches!(b, V::None) {
                return Ok(false);
            }
            let ord = order(a, b).ok_or(Stop::Bail)?;
            Ok(match op {
                Cmp::Lt => ord.is_lt(),
                Cmp::Le => ord.is_le(),
                Cmp::Gt => ord.is_gt(),
                _ => ord.is_ge(),
            })
        }
    }
}
