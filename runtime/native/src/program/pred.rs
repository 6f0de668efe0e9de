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
}

/// `count`, `any` or `all` of one binder over a reading list or a binder's list field, with a body
/// that compiles, neither remembered (memo.rs) nor answered from a tally (an `eq`).
#[derive(Debug)]
pub(crate) struct Looped {
    func: CompFn,
    slot: usize,
    src: Src,
    body: Pred,
}

#[derive(Debug)]
enum Src {
    Builtin(B),
    Field(usize, usize),
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
    loops: bool, // an operand is a comprehension (`Opd::Loop`): evaluated node by node, owned
}

/// An operand of a compiled comparison (what `static_nodes` takes, and fields of fields of a binder).
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
    /// a comprehension's value: a comparison's operand only
    Loop(Box<Looped>),
}

/// The compiled form of a condition whose value `eval` gives as a truth (`and`, `or`, `not`, a
/// comparison), when all of it compiles.
pub(crate) fn root_pred(e: &Node) -> Option<Pred> {
    match e {
        Node::And(..) | Node::Or(..) | Node::Not(_) | Node::Compare(..) => pred_of(e),
        // `any` and `all` are truths as eval gives them; a count is a number
        Node::Comp { func: CompFn::Any | CompFn::All, .. } => pred_of(e),
        _ => None,
    }
}

fn pred_of(e: &Node) -> Option<Pred> {
    Some(match e {
        Node::And(l, r) => Pred::And(Box::new(pred_of(l)?), Box::new(pred_of(r)?)),
        Node::Or(l, r) => Pred::Or(Box::new(pred_of(l)?), Box::new(pred_of(r)?)),
        Node::Not(o) => Pred::Not(Box::new(pred_of(o)?)),
        Node::Compare(ops, xs) if ops.len() == 1 && xs.len() == 2 => {
            // `comparison` charges a single comparison of `static_nodes` operands at once; any other
            // operand (a field of a field) is charged node by node by eval before it compares, so the
            // same count, and every stop there is `Bail` too
            let side = |x: &Node| match looped(x) {
                Some(l) => Some((Opd::Loop(Box::new(l)), 0)),
                None => opd_of(x),
            };
            let (a, na) = side(&xs[0])?;
            let (b, nb) = side(&xs[1])?;
            let at_once = static_nodes(&xs[0]).is_some() && static_nodes(&xs[1]).is_some();
            let loops = matches!(a, Opd::Loop(_)) || matches!(b, Opd::Loop(_));
            Pred::Cmp(Box::new(Compared { op: ops[0], a, b, n: na + nb, at_once, loops }))
        }
        Node::Attr(o, f) => match path(o)? {
            (i, fs) if fs.is_empty() => Pred::Field(i, *f),
            (i, mut fs) => {
                fs.push(*f);
                Pred::Path(i, fs)
            }
        },
        Node::Binder(i) => Pred::Binder(*i),
        Node::Const(v) => Pred::Const(v.truthy()),
        Node::Comp { .. } => Pred::Loop(Box::new(looped(e)?)),
        _ => return None,
    })
}

/// A comprehension `run_loop` evaluates as eval.rs `comp` does.
fn looped(e: &Node) -> Option<Looped> {
    let Node::Comp { func, slots, src, body, eq: None, memo: None } = e else { return None };
    if slots.len() != 1 || !matches!(func, CompFn::Count | CompFn::Any | CompFn::All) {
        return None;
    }
    let src = match &**src {
        // the waits are asked for where they are first read (`Stop::NeedWaits`): not in a condition
        Node::Builtin(b) if !matches!(b, B::Waits | B::ShapeWaits) => Src::Builtin(*b),
        Node::Attr(o, f) => match **o {
            Node::Binder(i) => Src::Field(i, *f),
            _ => return None,
        },
        _ => return None,
    };
    Some(Looped { func: *func, slot: slots[0], src, body: pred_of(body)? })
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

/// An operand compiled, with the nodes `eval` charges for it: `static_nodes`'s operands, and fields
/// of fields of a binder (one node a field, as eval charges `Attr` of what is not a binder).
fn opd_of(e: &Node) -> Option<(Opd, u64)> {
    Some(match e {
        Node::Const(V::Int(n)) => (Opd::Int(*n), 1),
        Node::Const(v) => (Opd::Const(v.clone()), 1),
        Node::Binder(i) => (Opd::Binder(*i), 1),
        Node::Attr(o, f) => match path(o)? {
            (i, fs) if fs.is_empty() => (Opd::Field(i, *f), 1),
            (i, mut fs) => {
                fs.push(*f);
                let n = fs.len() as u64;
                (Opd::Path(i, fs), n)
            }
        },
        Node::Arith(op, l, r) => {
            let ((a, na), (b, nb)) = (opd_of(l)?, opd_of(r)?);
            (Opd::Arith(*op, Box::new(a), Box::new(b)), 1 + na + nb)
        }
        Node::Neg(o) => {
            let (a, n) = opd_of(o)?;
            (Opd::Neg(Box::new(a)), 1 + n)
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
    if let Some(p) = root_pred(e) {
        *e = Node::Pred(Box::new(p));
        return;
    }
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
            Pred::Cmp(c) if c.loops => {
                // an operand that is a comprehension: each operand's value made in turn, node by node
                let a = self.owned_opd(&c.a, n)?;
                let b = self.owned_opd(&c.b, n)?;
                compare(c.op, &a, &b)
            }
            Pred::Cmp(c) => {
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
            _ => Ok(self.opd(o, n)?.into_v()),
        }
    }

    /// A comprehension's value as eval.rs `comp` makes it: its node and its source's counted, the
    /// items bound in turn, the body's truth per item; the nodes counted so far charged after each
    /// item, so that a long loop stops where the budget runs out, as the walk's does.
    fn run_loop(&mut self, l: &Looped, n: &mut u64) -> R<V> {
        *n += 2; // the comprehension and its source
        let (own, len) = match &l.src {
            Src::Builtin(b) => match self.ensure_builtin(*b)? {
                v if !v.truthy() => (None, 0), // `src or ()`
                V::List(x) => (None, x.len()),
                _ => return Err(Stop::Bail),
            },
            // a binder's list field: taken once, as eval takes the source once
            Src::Field(i, f) => match self.field_ref(&self.binders[*i], Some(*f))? {
                v if !v.truthy() => (None, 0),
                V::List(x) => (Some(x.clone()), x.len()),
                _ => return Err(Stop::Bail),
            },
        };
        let mut count = 0i64;
        for j in 0..len {
            let x = match (&own, &l.src) {
                (Some(x), _) => x[j].clone(),
                (None, Src::Builtin(b)) => match &self.builtins[*b as usize] {
                    Some(V::List(x)) => x[j].clone(),
                    _ => return Err(Stop::Bail), // never: a list above
                },
                (None, Src::Field(..)) => return Err(Stop::Bail), // never: an empty one has no items
            };
            self.binders[l.slot] = x;
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
        Ok(match l.func {
            CompFn::Any => V::Bool(false),
            CompFn::All => V::Bool(true),
            _ => V::Int(count),
        })
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
            Opd::Loop(_) => return Err(Stop::Bail), // never: `Compared::loops` takes these
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
