//! Lowering: a rule set's expressions (JSON IR) into `Node` trees with every name resolved to a slot.

use super::*;

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
pub(crate) const N_BUILTINS: usize = 19;
/// Every builtin, in `B` order.
pub(crate) const ALL_B: [B; N_BUILTINS] = [
    B::Melds,
    B::Groups,
    B::Pairs,
    B::Pair,
    B::Runs,
    B::Triplets,
    B::Kongs,
    B::Exposed,
    B::Tiles,
    B::Hand,
    B::WinTile,
    B::WinGroup,
    B::Form,
    B::Suits,
    B::Menqing,
    B::Flowers,
    B::SelfDrawn,
    B::Waits,
    B::ShapeWaits,
];

pub(crate) fn builtin(name: &str) -> Option<B> {
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

impl Cmp {
    /// The comparison of two whole numbers, as `compare` answers them (None: a membership test, which
    /// takes no two numbers — each caller says what that means for it).
    #[inline]
    pub(crate) fn ints(self, a: i64, b: i64) -> Option<bool> {
        Some(match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
            Cmp::In | Cmp::NotIn => return None,
        })
    }
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
    // `memo`: remembered per reading and free binders' values (memo.rs), when it may be
    Comp { func: CompFn, slots: Vec<usize>, src: Box<Node>, body: Box<Node>, eq: Option<Box<Node>>, memo: Option<Box<Memo>> },
    Not(Box<Node>),
    Neg(Box<Node>),
    And(Box<Node>, Box<Node>),
    Or(Box<Node>, Box<Node>),
    Arith(Op, Box<Node>, Box<Node>),
    Compare(Vec<Cmp>, Vec<Node>),
    If(Box<Node>, Box<Node>, Box<Node>),
    // game scope only (engine/scope.rs): a binding of the moment by slot, a value read from the game's
    // state by id, a game function by id; the pattern programs never lower these
    Bound(usize),
    Game(usize),
    GameCall(usize, Vec<Node>),
    // a condition compiled after the lowering (pred.rs): the pattern programs only
    Pred(Box<Pred>),
}

/// What game scope adds to the lowering (engine/scope.rs): its names, fields and functions. Each
/// answers None for what keeps its reading-scope meaning, or the node (or the refusal) it lowers to.
pub(crate) trait GameNames {
    fn name(&mut self, reference: &str) -> Option<Result<Node, Error>>;
    /// A field read from `obj` (the expression's JSON): a refusal by name, or a node of its own.
    fn attr(&mut self, obj: &J, name: &str) -> Option<Result<Node, Error>>;
    /// A game function with its arguments lowered: its id, or a refusal.
    fn call(&mut self, func: &str, args: usize) -> Option<Result<usize, Error>>;
}

// Group fields, by field id (the first ids; tile fields follow).
pub(crate) const GROUP_FIELDS: [&str; 17] = [
    "kind", "size", "tiles", "tile", "suit", "rank", "start", "end", "run", "triplet", "kong", "pair", "exposed",
    "concealed", "value", "wilds", "has_win",
];
pub(crate) const F_RUN: usize = 8;
pub(crate) const F_TRIPLET: usize = 9;
pub(crate) const F_WILD: &str = "wild";
pub(crate) const F_JOKER: &str = "joker";

pub(crate) struct Lowering<'a> {
    pub(crate) kinds: HashMap<&'a str, usize>, // kind name -> catalog index
    pub(crate) kind_joker: Vec<bool>,
    pub(crate) patterns: HashMap<String, usize>,
    pub(crate) quantities: HashMap<String, usize>,
    pub(crate) settings: Vec<String>,
    pub(crate) binders: HashMap<String, usize>,
    pub(crate) fields: Vec<String>,
    // what the expression being lowered reads
    pub(crate) reads_patterns: Vec<usize>,
    pub(crate) reads_quantities: Vec<usize>,
    pub(crate) reads_unit: bool,
    pub(crate) units: HashMap<String, usize>,
    pub(crate) reads_units: Vec<usize>,
    // whether anything lowered reads the hand's waits / shape waits (`Program::reads_waits`)
    pub(crate) reads_waits: [bool; 2],
    pub(crate) game: Option<&'a mut dyn GameNames>, // game scope (engine/scope.rs); None: reading scope
}

impl<'a> Lowering<'a> {
    /// A lowering over one catalog: its kinds by name, no pattern, quantity, unit, setting or binder
    /// known yet (the caller adds the rule set's), game names for game scope or None for reading scope.
    pub(crate) fn new(cat: &'a Catalog, game: Option<&'a mut dyn GameNames>) -> Self {
        Lowering {
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
            units: HashMap::new(),
            reads_units: Vec::new(),
            reads_waits: [false, false],
            game,
        }
    }
}

pub(crate) fn nc(what: String) -> Error {
    Error::NotCovered(format!("the native pattern programs do not take {what}"))
}

pub(crate) fn txt<'j>(m: &'j serde_json::Map<String, J>, key: &str) -> Result<&'j str, Error> {
    m.get(key).and_then(J::as_str).ok_or_else(|| nc("a malformed expression".into()))
}

/// An exact decimal literal ("12", "0.0125", "-3.5") as a value.
pub(crate) fn number(text: &str) -> Result<V, Error> {
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

    pub(crate) fn lower(&mut self, e: &J, depth: usize) -> Result<Node, Error> {
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
            "ListLit" => {
                // a list of constants is a constant: evaluating it cannot fail, so it is built once here
                // rather than on every evaluation
                let items = subs(self, "items")?;
                if items.iter().all(|x| matches!(x, Node::Const(_))) {
                    Node::Const(V::List(Arc::new(
                        items.into_iter().map(|x| if let Node::Const(v) = x { v } else { V::None }).collect(),
                    )))
                } else {
                    Node::List(items)
                }
            }
            "Name" => {
                let name = txt(m, "name")?;
                let reference = m.get("ref").and_then(J::as_str).unwrap_or("");
                if let Some(done) = self.game.as_mut().and_then(|g| g.name(reference)) {
                    return done;
                }
                let (cat, rest) = reference.split_once(':').unwrap_or((reference, ""));
                match cat {
                    "tile" => Node::Const(self.tile(name)),
                    "suit" | "meld" | "form" | "flowerclass" => Node::Const(V::Str(Arc::from(name))),
                    "builtin" => match builtin(rest) {
                        Some(b) => {
                            self.reads_waits[0] |= matches!(b, B::Waits);
                            self.reads_waits[1] |= matches!(b, B::ShapeWaits);
                            Node::Builtin(b)
                        }
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
                let fname = txt(m, "name")?;
                let obj_j = m.get("obj").unwrap_or(&J::Null);
                if let Some(done) = self.game.as_mut().and_then(|g| g.attr(obj_j, fname)) {
                    return done;
                }
                let obj = sub(self, "obj")?;
                let f = self.field(fname);
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
                    other => {
                        let n = m.get("args").and_then(J::as_array).map_or(0, Vec::len);
                        return match self.game.as_mut().and_then(|g| g.call(other, n)) {
                            Some(id) => Ok(Node::GameCall(id?, subs(self, "args")?)),
                            None => Err(nc(format!("the function `{other:.40}`"))),
                        };
                    }
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
                Node::Comp { func, slots, src: Box::new(src), body: Box::new(body), eq, memo: None }
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
pub(crate) fn conjuncts<'j>(e: &'j J, out: &mut Vec<&'j J>) {
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
pub(crate) fn late(e: &J) -> bool {
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

pub(crate) fn mentions(e: &J, reference: &str) -> bool {
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
pub(crate) fn binder_equality<'j>(c: &'j J, reference: &str) -> Option<&'j J> {
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
