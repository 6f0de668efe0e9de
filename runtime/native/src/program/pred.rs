//! Conditions compiled once: the connectives, single comparisons and binders' fields of the pattern
//! programs, resolved into a compact form of their own (`Pred`, `Opd`) that evaluates on the values
//! where they lie, whole numbers as plain integers, without building a value per node.
//!
//! The tree walk (eval.rs) charges the budget node by node and makes a value per node; a condition
//! such as `n.suit == m.suit and n.rank == m.rank + d` inside nested comprehensions is most of what a
//! reading evaluates. Here such a condition is one node of the lowered tree (`Node::Pred`), made after
//! the lowering and the memo marks (mod.rs `Program::build`), and evaluated with the nodes it charges
//! counted as it goes, then charged at once (`Eval::run_pred`). The count is the walk's, node for node,
//! up to where it stops: every stop inside a condition is `Bail` (it reads no pattern, quantity, unit,
//! builtin or waits, and builds nothing that is kept), so charging the same nodes after the evaluation
//! rather than during it gives the same outcome and leaves the same budget — where the walk ran out of
//! budget, the charge runs out too (the budget left 0, `Bail`); where it stopped on a value, the nodes
//! counted to there are the ones the walk charged before stopping.
//!
//! Only what `truth` (eval.rs) takes node by node is compiled: `and`, `or`, `not`, a single comparison
//! of operands `static_nodes` (operands.rs) takes (charged 1 + their nodes before they are computed,
//! as `comparison` does), a binder's field, a binder or a constant as a truth.

use std::borrow::Cow;

use super::*;

/// A condition, compiled.
#[derive(Debug)]
pub(crate) enum Pred {
    And(Box<Pred>, Box<Pred>),
    Or(Box<Pred>, Box<Pred>),
    Not(Box<Pred>),
    /// a single comparison
    Cmp(Box<Compared>),
    /// a binder's field as a truth: (binder slot, field id)
    Field(usize, usize),
    /// a field of a field … of a binder as a truth: (binder slot, field ids in turn)
    Path(usize, Vec<usize>),
    /// a binder as a truth
    Binder(usize),
    /// a constant's truth
    Const(bool),
    /// a comprehension's truth
    Loop(Box<Looped>),
    /// an operand's truth (a reading's builtin or setting, their fields, `len` of a reading list),
    /// with the builtins it reads (a mask by `B`)
    Value(Box<Opd>, u32),
    /// a part that does not compile, evaluated by the tree walk (the nodes counted before it charged
    /// first, so the walk starts from the budget it would have had)
    Walk(Box<Node>),
}

/// `count`, `any` or `all` of one or more binders (their combinations, as eval.rs `comp`) over a
/// reading list, a binder's list field, a constant or any other source, with a body that compiles,
/// neither remembered (memo.rs) nor answered from a tally (an `eq`).
#[derive(Debug)]
pub(crate) struct Looped {
    memo: Option<Box<Memo>>,
    func: CompFn,
    slots: Vec<usize>,
    src: Src,
    body: Pred,
}

#[derive(Debug)]
enum Src {
    Builtin(B),
    Field(usize, usize),
    Const(V),
    /// a source the walk evaluates (after the comprehension's own node)
    Walk(Box<Node>),
}

/// A single comparison: its operands, the nodes they charge and when. `comparison` (eval.rs) charges
/// two `static_nodes` operands at once before computing them (`at_once`); any other pair is evaluated
/// by `eval`, node by node, the left operand first.
#[derive(Debug)]
pub(crate) struct Compared {
    op: Cmp,
    a: Opd,
    b: Opd,
    n: u64,
    at_once: bool,
    loops: bool, // an operand is a comprehension or walked: evaluated node by node, owned
    builtins: u32, // the builtins the operands read (a mask by `B`), made before they are read
}

/// An operand of a compiled comparison (what `static_nodes` takes, fields of fields of a binder, the
/// reading's builtins and settings and their fields, `len` of a reading list).
#[derive(Debug)]
pub(crate) enum Opd {
    Int(i64),
    Const(V),
    Binder(usize),
    Field(usize, usize),
    Path(usize, Vec<usize>),
    Arith(Op, Box<Opd>, Box<Opd>),
    Neg(Box<Opd>),
    Call(Func, Box<Opd>, Option<Box<Opd>>),
    /// a builtin of the reading (not the waits) and the fields read from it in turn
    Builtin(B, Vec<usize>),
    /// a setting and the fields read from it in turn
    Setting(usize, Vec<usize>),
    /// `len` of a reading list
    Len(B),
    /// a comprehension's value: a comparison's operand only
    Loop(Box<Looped>),
    /// an operand the walk evaluates: a comparison's operand only
    Walk(Box<Node>),
}

/// A builtin a compiled condition may read: made on demand without reading anything that can stop
/// it (the waits are asked for where they are first read, `Stop::NeedWaits`: not here).
fn plain_builtin(b: B) -> bool {
    !matches!(b, B::Waits | B::ShapeWaits)
}

/// A builtin that is always a list.
fn list_builtin(b: B) -> bool {
    matches!(
        b,
        B::Melds | B::Groups | B::Pairs | B::Runs | B::Triplets | B::Kongs | B::Exposed | B::Tiles | B::Hand | B::Suits | B::Flowers
    )
}

/// Whether e, in a truth's place, is compiled as a whole (the connectives, a comparison, a
/// comprehension `looped` takes); its parts that do not compile are walked (`Pred::Walk`).
fn cond_root(e: &Node) -> bool {
    match e {
        Node::And(..) | Node::Or(..) | Node::Not(_) | Node::Compare(..) => true,
        Node::Comp { func: CompFn::Any | CompFn::All, .. } => loopable(e),
        _ => false,
    }
}

fn loopable(e: &Node) -> bool {
    matches!(e, Node::Comp { func: CompFn::Count | CompFn::Any | CompFn::All, slots, eq: None, .. } if !slots.is_empty() && slots.len() <= 8)
}

/// e as a compiled condition (e in a truth's place).
fn pred_own(e: Node) -> Pred {
    match e {
        Node::And(l, r) => Pred::And(Box::new(pred_own(*l)), Box::new(pred_own(*r))),
        Node::Or(l, r) => Pred::Or(Box::new(pred_own(*l)), Box::new(pred_own(*r))),
        Node::Not(o) => Pred::Not(Box::new(pred_own(*o))),
        Node::Compare(ops, xs) if ops.len() == 1 && xs.len() == 2 => {
            // `comparison` charges a single comparison of `static_nodes` operands at once; any other
            // operand is charged node by node by eval before it compares, so the same count, and
            // every stop there is `Bail` too (or the walk's own, where a part is walked)
            let at_once = static_nodes(&xs[0]).is_some() && static_nodes(&xs[1]).is_some();
            let mut it = xs.into_iter();
            let (x0, x1) = (it.next().unwrap_or(Node::Const(V::None)), it.next().unwrap_or(Node::Const(V::None)));
            let side = |x: Node| -> (Opd, u64) {
                if loopable(&x) {
                    match looped_own(x) {
                        Ok(l) => (Opd::Loop(Box::new(l)), 0),
                        Err(x) => (Opd::Walk(Box::new(walked(x))), 0),
                    }
                } else {
                    match opd_own(x) {
                        Ok(o) => o,
                        Err(x) => (Opd::Walk(Box::new(walked(x))), 0),
                    }
                }
            };
            let (a, na) = side(x0);
            let (b, nb) = side(x1);
            let loops = matches!(a, Opd::Loop(_) | Opd::Walk(_)) || matches!(b, Opd::Loop(_) | Opd::Walk(_));
            let builtins = mask(&a) | mask(&b);
            Pred::Cmp(Box::new(Compared { op: ops[0], a, b, n: na + nb, at_once, loops, builtins }))
        }
        Node::Binder(i) => Pred::Binder(i),
        Node::Const(v) => Pred::Const(v.truthy()),
        e @ Node::Comp { .. } if loopable(&e) => match looped_own(e) {
            Ok(l) => Pred::Loop(Box::new(l)),
            Err(e) => Pred::Walk(Box::new(walked(e))),
        },
        e @ (Node::Attr(..) | Node::Builtin(_) | Node::Setting(_) | Node::Call(..)) => match opd_own(e) {
            Ok((Opd::Field(i, f), _)) => Pred::Field(i, f),
            Ok((Opd::Path(i, fs), _)) => Pred::Path(i, fs),
            Ok((o @ (Opd::Builtin(..) | Opd::Setting(..) | Opd::Len(_)), _)) => {
                let m = mask(&o);
                Pred::Value(Box::new(o), m)
            }
            Ok((o, _)) => Pred::Walk(Box::new(walked(opd_node(o)))),
            Err(e) => Pred::Walk(Box::new(walked(e))),
        },
        e => Pred::Walk(Box::new(walked(e))),
    }
}

/// A compiled operand back as the node it came from (a truth's operand that `Pred::Value` does not
/// take: walked as written).
fn opd_node(o: Opd) -> Node {
    match o {
        Opd::Int(n) => Node::Const(V::Int(n)),
        Opd::Const(v) => Node::Const(v),
        Opd::Binder(i) => Node::Binder(i),
        Opd::Field(i, f) => Node::Attr(Box::new(Node::Binder(i)), f),
        Opd::Path(i, fs) => fs.into_iter().fold(Node::Binder(i), |n, f| Node::Attr(Box::new(n), f)),
        Opd::Arith(op, l, r) => Node::Arith(op, Box::new(opd_node(*l)), Box::new(opd_node(*r))),
        Opd::Neg(x) => Node::Neg(Box::new(opd_node(*x))),
        Opd::Call(f, a, b) => Node::Call(f, std::iter::once(opd_node(*a)).chain(b.map(|b| opd_node(*b))).collect()),
        Opd::Builtin(b, fs) => fs.into_iter().fold(Node::Builtin(b), |n, f| Node::Attr(Box::new(n), f)),
        Opd::Setting(i, fs) => fs.into_iter().fold(Node::Setting(i), |n, f| Node::Attr(Box::new(n), f)),
        Opd::Len(b) => Node::Call(Func::Len, vec![Node::Builtin(b)]),
        Opd::Loop(_) | Opd::Walk(_) => Node::Const(V::None), // never: opd_own makes neither
    }
}

/// The builtins an operand reads, a mask by `B`.
fn mask(o: &Opd) -> u32 {
    match o {
        Opd::Builtin(b, _) | Opd::Len(b) => 1 << (*b as u32),
        Opd::Arith(_, l, r) => mask(l) | mask(r),
        Opd::Neg(x) => mask(x),
        Opd::Call(_, a, b) => mask(a) | b.as_ref().map_or(0, |b| mask(b)),
        _ => 0,
    }
}

/// A node the walk evaluates, its own parts compiled where they compile.
fn walked(mut e: Node) -> Node {
    compile_children(&mut e);
    e
}

/// A comprehension `run_loop` evaluates as eval.rs `comp` does (e: `loopable`), or e back.
fn looped_own(e: Node) -> Result<Looped, Node> {
    let Node::Comp { func, slots, src, body, eq: None, memo } = e else { return Err(e) };
    let src = match *src {
        Node::Builtin(b) if plain_builtin(b) => Src::Builtin(b),
        Node::Attr(o, f) if matches!(*o, Node::Binder(_)) => match *o {
            Node::Binder(i) => Src::Field(i, f),
            _ => return Err(Node::Const(V::None)), // never
        },
        Node::Const(v) => Src::Const(v),
        other => Src::Walk(Box::new(walked(other))),
    };
    Ok(Looped { memo, func, slots, src, body: pred_own(*body) })
}

/// A binder and the fields read from it in turn (`x.a.b`: x, [a]; the last field is the caller's).
fn path(e: &Node) -> Option<(usize, Vec<usize>)> {
    match e {
        Node::Binder(i) => Some((*i, Vec::new())),
        Node::Attr(o, f) => {
            let (i, mut fs) = path(o)?;
            fs.push(*f);
            Some((i, fs))
        }
        _ => None,
    }
}

/// A reading's builtin or setting and the fields read from it in turn.
fn base_path(e: &Node) -> Option<(Opd, u64)> {
    match e {
        Node::Builtin(b) if plain_builtin(*b) => Some((Opd::Builtin(*b, Vec::new()), 1)),
        Node::Setting(i) => Some((Opd::Setting(*i, Vec::new()), 1)),
        Node::Attr(o, f) => {
            let (mut o, n) = base_path(o)?;
            match &mut o {
                Opd::Builtin(_, fs) | Opd::Setting(_, fs) => fs.push(*f),
                _ => return None,
            }
            Some((o, n + 1))
        }
        _ => None,
    }
}

/// An operand compiled, with the nodes `eval` charges for it: `static_nodes`'s operands, fields of
/// fields of a binder (one node a field, as eval charges `Attr` of what is not a binder), builtins and
/// settings and their fields, `len` of a reading list; or the node back.
fn opd_own(e: Node) -> Result<(Opd, u64), Node> {
    match opd_of(&e) {
        Some(o) => Ok(o),
        None => Err(e),
    }
}

fn opd_of(e: &Node) -> Option<(Opd, u64)> {
    Some(match e {
        Node::Const(V::Int(n)) => (Opd::Int(*n), 1),
        Node::Const(v) => (Opd::Const(v.clone()), 1),
        Node::Binder(i) => (Opd::Binder(*i), 1),
        Node::Builtin(_) | Node::Setting(_) => base_path(e)?,
        Node::Attr(o, f) => match path(o) {
            Some((i, fs)) if fs.is_empty() => (Opd::Field(i, *f), 1),
            Some((i, mut fs)) => {
                fs.push(*f);
                let n = fs.len() as u64;
                (Opd::Path(i, fs), n)
            }
            None => base_path(e)?,
        },
        Node::Arith(op, l, r) => {
            let ((a, na), (b, nb)) = (opd_of(l)?, opd_of(r)?);
            (Opd::Arith(*op, Box::new(a), Box::new(b)), 1 + na + nb)
        }
        Node::Neg(o) => {
            let (a, n) = opd_of(o)?;
            (Opd::Neg(Box::new(a)), 1 + n)
        }
        Node::Call(Func::Len, args) if args.len() == 1 && matches!(args[0], Node::Builtin(b) if list_builtin(b)) => {
            let Node::Builtin(b) = args[0] else { return None };
            (Opd::Len(b), 2)
        }
        Node::Call(f @ (Func::Abs | Func::Floor), args) if args.len() == 1 => {
            let (a, n) = opd_of(&args[0])?;
            (Opd::Call(*f, Box::new(a), None), 1 + n)
        }
        Node::Call(f @ (Func::Max | Func::Min), args) if args.len() == 2 => {
            let ((a, na), (b, nb)) = (opd_of(&args[0])?, opd_of(&args[1])?);
            (Opd::Call(*f, Box::new(a), Some(Box::new(b))), 1 + na + nb)
        }
        _ => return None,
    })
}

/// Replaces every condition of e that compiles by its `Node::Pred`, outermost first. The body of a
/// comprehension answered from a tally (an `eq`) stays as lowered: eval.rs reads its shape.
pub(crate) fn compile_preds(e: &mut Node) {
    if cond_root(e) {
        let owned = std::mem::replace(e, Node::Const(V::None));
        *e = Node::Pred(Box::new(pred_own(owned)));
        return;
    }
    compile_children(e);
}

/// `compile_preds` on e's parts (e itself stays).
fn compile_children(e: &mut Node) {
    match e {
        Node::Comp { src, body, eq, .. } => {
            compile_preds(src);
            if let Some(q) = eq.as_deref_mut() {
                compile_preds(q);
            } else {
                compile_preds(body);
            }
        }
        _ => super::memo::children_mut(e).into_iter().for_each(compile_preds),
    }
}

/// An operand's value: a whole number, a value where it lies, or one computed.
enum Sv<'s> {
    Int(i64),
    Ref(&'s V),
    Own(V),
}

impl Sv<'_> {
    fn v(&self) -> Cow<'_, V> {
        match self {
            Sv::Int(n) => Cow::Owned(V::Int(*n)),
            Sv::Ref(v) => Cow::Borrowed(v),
            Sv::Own(v) => Cow::Borrowed(v),
        }
    }

    fn truthy(&self) -> bool {
        match self {
            Sv::Int(n) => *n != 0,
            Sv::Ref(v) => v.truthy(),
            Sv::Own(v) => v.truthy(),
        }
    }

    fn into_v(self) -> V {
        match self {
            Sv::Int(n) => V::Int(n),
            Sv::Ref(v) => v.clone(),
            Sv::Own(v) => v,
        }
    }
}

/// `Sv` without a value of its own: small enough to be returned in registers.
#[derive(Clone, Copy)]
enum Q<'s> {
    Int(i64),
    Ref(&'s V),
    Slow,
}

#[inline]
fn q(v: &V) -> Q<'_> {
    match v {
        V::Int(n) => Q::Int(*n),
        _ => Q::Ref(v),
    }
}

#[inline]
fn sv(v: &V) -> Sv<'_> {
    match v {
        V::Int(n) => Sv::Int(*n),
        _ => Sv::Ref(v),
    }
}

/// `compare` on operands' values: two whole numbers compared as integers (what `compare` does with
/// them), anything else by `compare`.
fn compare_sv(op: Cmp, a: &Sv, b: &Sv) -> R<bool> {
    if let (Sv::Int(x), Sv::Int(y)) = (a, b) {
        return Ok(match op {
            Cmp::Eq => x == y,
            Cmp::Ne => x != y,
            Cmp::Lt => x < y,
            Cmp::Le => x <= y,
            Cmp::Gt => x > y,
            Cmp::Ge => x >= y,
            Cmp::In | Cmp::NotIn => return compare(op, &V::Int(*x), &V::Int(*y)),
        });
    }
    compare(op, &a.v(), &b.v())
}

impl Eval<'_, '_> {
    /// A compiled condition's truth, the nodes it charges charged after it (see the module's note).
    #[inline]
    pub(super) fn run_pred(&mut self, p: &Pred) -> R<bool> {
        let mut n = 0u64;
        let got = self.pred(p, &mut n);
        self.charge_n(n)?;
        got
    }

    fn pred(&mut self, p: &Pred, n: &mut u64) -> R<bool> {
        *n += 1;
        match p {
            Pred::Loop(l) => {
                *n -= 1; // counted by run_loop
                Ok(self.run_loop(l, n)?.truthy())
            }
            Pred::And(l, r) => Ok(self.pred(l, n)? && self.pred(r, n)?),
            Pred::Or(l, r) => Ok(self.pred(l, n)? || self.pred(r, n)?),
            Pred::Not(o) => Ok(!self.pred(o, n)?),
            Pred::Walk(e) => {
                // the walk charges its own nodes, from the budget it would have had here
                *n -= 1;
                self.charge_n(*n)?;
                *n = 0;
                self.truth(e)
            }
            Pred::Value(o, m) => {
                *n -= 1; // counted by opd
                self.make_builtins(*m);
                Ok(self.opd(o, n)?.truthy())
            }
            Pred::Cmp(c) if c.loops => {
                self.make_builtins(c.builtins);
                // an operand that is a comprehension: each operand's value made in turn, node by node
                let a = self.owned_opd(&c.a, n)?;
                let b = self.owned_opd(&c.b, n)?;
                compare(c.op, &a, &b)
            }
            Pred::Cmp(c) => {
                self.make_builtins(c.builtins);
                let op = c.op;
                if c.at_once {
                    *n += c.n;
                }
                // whole numbers and values where they lie, in registers; anything else (arithmetic
                // that is not on whole numbers, a function, a stop) computed again in full
                let got = match (self.quick(&c.a), self.quick(&c.b)) {
                    (Q::Int(x), Q::Int(y)) if !matches!(op, Cmp::In | Cmp::NotIn) => Some((Sv::Int(x), Sv::Int(y))),
                    (Q::Ref(x), Q::Ref(y)) => Some((Sv::Ref(x), Sv::Ref(y))),
                    (Q::Int(x), Q::Ref(y)) => Some((Sv::Int(x), Sv::Ref(y))),
                    (Q::Ref(x), Q::Int(y)) => Some((Sv::Ref(x), Sv::Int(y))),
                    _ => None,
                };
                match got {
                    Some((a, b)) => {
                        if !c.at_once {
                            *n += c.n;
                        }
                        compare_sv(op, &a, &b)
                    }
                    None if c.at_once => {
                        let a = self.opd(&c.a, &mut 0)?;
                        let b = self.opd(&c.b, &mut 0)?;
                        compare_sv(op, &a, &b)
                    }
                    None => {
                        let a = self.opd(&c.a, n)?;
                        let b = self.opd(&c.b, n)?;
                        compare_sv(op, &a, &b)
                    }
                }
            }
            Pred::Field(i, f) => Ok(self.field_ref(&self.binders[*i], Some(*f))?.truthy()),
            Pred::Path(i, fs) => {
                *n += fs.len() as u64 - 1;
                Ok(self.path_ref(*i, fs)?.truthy())
            }
            Pred::Binder(i) => Ok(self.binders[*i].truthy()),
            Pred::Const(b) => Ok(*b),
        }
    }

    /// An operand's value of its own (`Compared::loops`), counted node by node.
    fn owned_opd(&mut self, o: &Opd, n: &mut u64) -> R<V> {
        match o {
            Opd::Loop(l) => self.run_loop(l, n),
            Opd::Walk(e) => {
                self.charge_n(*n)?;
                *n = 0;
                self.eval(e)
            }
            _ => Ok(self.opd(o, n)?.into_v()),
        }
    }

    /// A comprehension's value as eval.rs `comp` makes it: its node and its source's counted, the
    /// items bound in turn, the body's truth per item; the nodes counted so far charged after each
    /// item, so that a long loop stops where the budget runs out, as the walk's does.
    fn run_loop(&mut self, l: &Looped, n: &mut u64) -> R<V> {
        *n += 1; // the comprehension
        if let Some(m) = &l.memo {
            // remembered (memo.rs `memoised`): a value found before charges the nodes it charged then
            if let Some(key) = self.memo_key(m) {
                if let Some((v, cost)) = self.memo_find(m.id, &key) {
                    *n += cost;
                    return Ok(v);
                }
                self.charge_n(*n)?;
                *n = 0;
                let (b0, t0) = (self.budget, self.tally_built);
                let mut k = 0u64;
                let got = self.loop_items(l, &mut k);
                self.charge_n(k)?;
                let v = got?;
                let cost = (b0 - self.budget) - (self.tally_built - t0);
                self.memo_keep(m.id, key, v.clone(), cost);
                return Ok(v);
            }
        }
        self.loop_items(l, n)
    }

    /// A comprehension's source and items (`run_loop`), its own node counted by the caller.
    fn loop_items(&mut self, l: &Looped, n: &mut u64) -> R<V> {
        let (own, len): (Option<Arc<Vec<V>>>, usize) = match &l.src {
            Src::Builtin(b) => {
                *n += 1; // its source
                match self.ensure_builtin(*b)? {
                    v if !v.truthy() => (None, 0), // `src or ()`
                    V::List(x) => (None, x.len()),
                    _ => return Err(Stop::Bail),
                }
            }
            // a binder's list field: taken once, as eval takes the source once
            Src::Field(i, f) => {
                *n += 1;
                match self.field_ref(&self.binders[*i], Some(*f))? {
                    v if !v.truthy() => (None, 0),
                    V::List(x) => (Some(x.clone()), x.len()),
                    _ => return Err(Stop::Bail),
                }
            }
            Src::Const(v) => {
                *n += 1;
                match v {
                    v if !v.truthy() => (None, 0),
                    V::List(x) => (None, x.len()),
                    _ => return Err(Stop::Bail),
                }
            }
            Src::Walk(e) => {
                self.charge_n(*n)?;
                *n = 0;
                match self.eval(e)? {
                    v if !v.truthy() => (None, 0),
                    V::List(x) => {
                        let k = x.len();
                        (Some(x), k)
                    }
                    _ => return Err(Stop::Bail),
                }
            }
        };
        let k = l.slots.len();
        let mut count = 0i64;
        if k == 1 {
            // one binder: the item written in place (a list borrowed beside the binders, not copied)
            let s = l.slots[0];
            macro_rules! each {
                ($list:expr) => {
                    for j in 0..len {
                        let x = match $list {
                            Some(V::List(x)) => x[j].clone(),
                            _ => return Err(Stop::Bail), // never: a list (above)
                        };
                        self.binders[s] = x;
                        let t = self.pred(&l.body, n)?;
                        self.charge_n(*n)?;
                        *n = 0;
                        match (l.func, t) {
                            (CompFn::Any, true) => return Ok(V::Bool(true)),
                            (CompFn::All, false) => return Ok(V::Bool(false)),
                            (CompFn::Count, true) => count += 1,
                            _ => {}
                        }
                    }
                };
            }
            match (&own, &l.src) {
                (Some(x), _) => {
                    let x = V::List(x.clone());
                    each!(Some(&x))
                }
                (None, Src::Builtin(b)) => each!(&self.builtins[*b as usize]),
                (None, Src::Const(c)) => each!(Some(c)),
                _ => {}
            }
        } else if k <= len {
            // the combination's indices, in place (at most 8 binders: lower.rs)
            let mut idx_buf = [0usize; 8];
            let idx = &mut idx_buf[..k];
            for (t, x) in idx.iter_mut().enumerate() {
                *x = t;
            }
            loop {
                for (s, &j) in l.slots.iter().zip(idx.iter()) {
                    self.binders[*s] = self.loop_item(&own, &l.src, j)?;
                }
                let t = self.pred(&l.body, n)?;
                self.charge_n(*n)?;
                *n = 0;
                match (l.func, t) {
                    (CompFn::Any, true) => return Ok(V::Bool(true)),
                    (CompFn::All, false) => return Ok(V::Bool(false)),
                    (CompFn::Count, true) => count += 1,
                    _ => {}
                }
                if !next_combination(idx, len) {
                    break;
                }
            }
        }
        Ok(match l.func {
            CompFn::Any => V::Bool(false),
            CompFn::All => V::Bool(true),
            _ => V::Int(count),
        })
    }

    /// Item j of a loop's items: its own list, a reading list in the builtins' cache, a constant's.
    #[inline(always)]
    fn loop_item(&self, own: &Option<Arc<Vec<V>>>, src: &Src, j: usize) -> R<V> {
        Ok(match (own, src) {
            (Some(x), _) => x[j].clone(),
            (None, Src::Builtin(b)) => match &self.builtins[*b as usize] {
                Some(V::List(x)) => x[j].clone(),
                _ => return Err(Stop::Bail), // never: a list (loop_items)
            },
            (None, Src::Const(V::List(x))) => x[j].clone(),
            _ => return Err(Stop::Bail), // never: an empty one has no items
        })
    }

    /// Every builtin of mask m made (none of them can stop: `plain_builtin`), so that the operands
    /// read them where they lie.
    #[inline]
    fn make_builtins(&mut self, m: u32) {
        if m == 0 {
            return;
        }
        for b in ALL_B {
            if m & (1 << (b as u32)) != 0 && self.builtins[b as usize].is_none() {
                let _ = self.ensure_builtin(b);
            }
        }
    }

    /// A setting's value, as eval reads `Setting` (a stop where it has none).
    fn setting_ref(&self, i: usize) -> R<&V> {
        match self.r.settings.get(i) {
            Some(Some(v)) => Ok(v),
            _ => Err(Stop::Bail),
        }
    }

    /// A builtin's or setting's fields in turn, where they lie (as eval reads `Attr` of a value).
    fn base_ref<'s>(&'s self, o: &'s Opd) -> R<&'s V> {
        let (mut v, fs) = match o {
            Opd::Builtin(b, fs) => (self.builtins[*b as usize].as_ref().ok_or(Stop::Bail)?, fs),
            Opd::Setting(i, fs) => (self.setting_ref(*i)?, fs),
            _ => return Err(Stop::Bail),
        };
        for &f in fs {
            v = self.field_ref(v, Some(f))?;
        }
        Ok(v)
    }

    /// `x.a.b…` of binder x, where it lies: each field read as eval reads `Attr` of a value (none's
    /// field none; a tile's or group's field; a stop for any other value or a field it lacks).
    fn path_ref(&self, i: usize, fs: &[usize]) -> R<&V> {
        let mut v = &self.binders[i];
        for &f in fs {
            v = self.field_ref(v, Some(f))?;
        }
        Ok(v)
    }

    /// An operand's value when it is a whole number (as `opd` computes it) or a value where it lies;
    /// `Q::Slow` where `opd` must compute it (it reads nothing that changes: computing it again gives
    /// the same value or the same stop).
    #[inline]
    fn quick<'s>(&'s self, o: &'s Opd) -> Q<'s> {
        match o {
            Opd::Int(k) => Q::Int(*k),
            Opd::Const(v) => q(v),
            Opd::Binder(i) => q(&self.binders[*i]),
            Opd::Field(i, f) => match self.field_ref(&self.binders[*i], Some(*f)) {
                Ok(v) => q(v),
                Err(_) => Q::Slow,
            },
            Opd::Path(i, fs) => match self.path_ref(*i, fs) {
                Ok(v) => q(v),
                Err(_) => Q::Slow,
            },
            Opd::Builtin(..) | Opd::Setting(..) => match self.base_ref(o) {
                Ok(v) => q(v),
                Err(_) => Q::Slow,
            },
            Opd::Len(b) => match &self.builtins[*b as usize] {
                Some(V::List(l)) => Q::Int(l.len() as i64),
                _ => Q::Slow,
            },
            Opd::Arith(op, l, r) => match (self.quick(l), self.quick(r)) {
                (Q::Int(x), Q::Int(y)) => match op {
                    Op::Add => x.checked_add(y).map_or(Q::Slow, Q::Int),
                    Op::Sub => x.checked_sub(y).map_or(Q::Slow, Q::Int),
                    Op::Mul => x.checked_mul(y).map_or(Q::Slow, Q::Int),
                    _ => Q::Slow,
                },
                _ => Q::Slow,
            },
            _ => Q::Slow,
        }
    }

    /// An operand's value, as `sval` computes it (the same order, the same stops), each node counted
    /// into n as `eval` charges it, before its operands.
    fn opd<'s>(&'s self, o: &'s Opd, n: &mut u64) -> R<Sv<'s>> {
        Ok(match o {
            Opd::Int(k) => {
                *n += 1;
                Sv::Int(*k)
            }
            Opd::Const(v) => {
                *n += 1;
                Sv::Ref(v)
            }
            Opd::Binder(i) => {
                *n += 1;
                sv(&self.binders[*i])
            }
            Opd::Field(i, f) => {
                *n += 1;
                sv(self.field_ref(&self.binders[*i], Some(*f))?)
            }
            Opd::Path(i, fs) => {
                *n += fs.len() as u64;
                sv(self.path_ref(*i, fs)?)
            }
            Opd::Arith(op, l, r) => {
                *n += 1;
                let a = self.opd(l, n)?;
                let b = self.opd(r, n)?;
                // whole numbers: arith's own path for them (an overflow a stop there too)
                match (op, &a, &b) {
                    (Op::Add, Sv::Int(x), Sv::Int(y)) => Sv::Int(x.checked_add(*y).ok_or(Stop::Bail)?),
                    (Op::Sub, Sv::Int(x), Sv::Int(y)) => Sv::Int(x.checked_sub(*y).ok_or(Stop::Bail)?),
                    (Op::Mul, Sv::Int(x), Sv::Int(y)) => Sv::Int(x.checked_mul(*y).ok_or(Stop::Bail)?),
                    _ => Sv::Own(arith(*op, &a.v(), &b.v())?),
                }
            }
            Opd::Neg(x) => {
                *n += 1;
                Sv::Own(negate(&self.opd(x, n)?.v())?)
            }
            Opd::Builtin(_, fs) | Opd::Setting(_, fs) => {
                *n += 1 + fs.len() as u64;
                sv(self.base_ref(o)?)
            }
            Opd::Len(b) => {
                *n += 2;
                match &self.builtins[*b as usize] {
                    Some(V::List(l)) => Sv::Int(l.len() as i64),
                    _ => return Err(Stop::Bail), // never: made as a list before
                }
            }
            Opd::Loop(_) | Opd::Walk(_) => return Err(Stop::Bail), // never: `Compared::loops` takes these
            Opd::Call(func, a, b) => {
                *n += 1;
                let a = self.opd(a, n)?.into_v();
                let b = match b {
                    Some(b) => Some(self.opd(b, n)?.into_v()),
                    None => None,
                };
                Sv::Own(apply(*func, a, b)?)
            }
        })
    }
}
