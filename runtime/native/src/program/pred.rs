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
    /// a single comparison, its operands and the nodes it charges (itself and its operands')
    Cmp(Cmp, Opd, Opd, u64),
    /// a binder's field as a truth: (binder slot, field id)
    Field(usize, usize),
    /// a binder as a truth
    Binder(usize),
    /// a constant's truth
    Const(bool),
}

/// An operand of a compiled comparison (what `static_nodes` takes).
#[derive(Debug)]
pub(crate) enum Opd {
    Int(i64),
    Const(V),
    Binder(usize),
    Field(usize, usize),
    Arith(Op, Box<Opd>, Box<Opd>),
    Neg(Box<Opd>),
    Call(Func, Box<Opd>, Option<Box<Opd>>),
}

/// The compiled form of a condition whose value `eval` gives as a truth (`and`, `or`, `not`, a
/// comparison), when all of it compiles.
pub(crate) fn root_pred(e: &Node) -> Option<Pred> {
    match e {
        Node::And(..) | Node::Or(..) | Node::Not(_) | Node::Compare(..) => pred_of(e),
        _ => None,
    }
}

fn pred_of(e: &Node) -> Option<Pred> {
    Some(match e {
        Node::And(l, r) => Pred::And(Box::new(pred_of(l)?), Box::new(pred_of(r)?)),
        Node::Or(l, r) => Pred::Or(Box::new(pred_of(l)?), Box::new(pred_of(r)?)),
        Node::Not(o) => Pred::Not(Box::new(pred_of(o)?)),
        Node::Compare(ops, xs) if ops.len() == 1 && xs.len() == 2 => {
            let n = 1 + static_nodes(&xs[0])? + static_nodes(&xs[1])?;
            Pred::Cmp(ops[0], opd_of(&xs[0])?, opd_of(&xs[1])?, n)
        }
        Node::Attr(o, f) => match **o {
            Node::Binder(i) => Pred::Field(i, *f),
            _ => return None,
        },
        Node::Binder(i) => Pred::Binder(*i),
        Node::Const(v) => Pred::Const(v.truthy()),
        _ => return None,
    })
}

/// `static_nodes`'s operands, compiled (None exactly where it is None).
fn opd_of(e: &Node) -> Option<Opd> {
    Some(match e {
        Node::Const(V::Int(n)) => Opd::Int(*n),
        Node::Const(v) => Opd::Const(v.clone()),
        Node::Binder(i) => Opd::Binder(*i),
        Node::Attr(o, f) => match **o {
            Node::Binder(i) => Opd::Field(i, *f),
            _ => return None,
        },
        Node::Arith(op, l, r) => Opd::Arith(*op, Box::new(opd_of(l)?), Box::new(opd_of(r)?)),
        Node::Neg(o) => Opd::Neg(Box::new(opd_of(o)?)),
        Node::Call(f @ (Func::Abs | Func::Floor), args) if args.len() == 1 => Opd::Call(*f, Box::new(opd_of(&args[0])?), None),
        Node::Call(f @ (Func::Max | Func::Min), args) if args.len() == 2 => {
            Opd::Call(*f, Box::new(opd_of(&args[0])?), Some(Box::new(opd_of(&args[1])?)))
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
        Node::List(xs) | Node::Call(_, xs) | Node::Compare(_, xs) | Node::GameCall(_, xs) => xs.iter_mut().for_each(compile_preds),
        Node::Attr(o, _) | Node::Not(o) | Node::Neg(o) => compile_preds(o),
        Node::And(l, r) | Node::Or(l, r) | Node::Arith(_, l, r) => {
            compile_preds(l);
            compile_preds(r);
        }
        Node::If(c, t, f) => {
            compile_preds(c);
            compile_preds(t);
            compile_preds(f);
        }
        Node::Const(_)
        | Node::Builtin(_)
        | Node::Setting(_)
        | Node::Binder(_)
        | Node::Pattern(_)
        | Node::Quantity(_)
        | Node::Unit(_)
        | Node::Bound(_)
        | Node::Game(_)
        | Node::Pred(_) => {}
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
    /// `root`: the nodes already charged for it (eval charges a node when it enters it).
    #[inline]
    pub(super) fn run_pred(&mut self, p: &Pred, root: u64) -> R<bool> {
        let mut n = 0u64;
        let got = self.pred(p, &mut n);
        self.charge_n(n - root)?;
        got
    }

    fn pred(&self, p: &Pred, n: &mut u64) -> R<bool> {
        *n += 1;
        match p {
            Pred::And(l, r) => Ok(self.pred(l, n)? && self.pred(r, n)?),
            Pred::Or(l, r) => Ok(self.pred(l, n)? || self.pred(r, n)?),
            Pred::Not(o) => Ok(!self.pred(o, n)?),
            Pred::Cmp(op, a, b, k) => {
                *n += k - 1;
                // whole numbers and values where they lie, in registers; anything else (arithmetic
                // that is not on whole numbers, a function, a stop) computed again in full
                match (self.quick(a), self.quick(b)) {
                    (Q::Int(x), Q::Int(y)) if !matches!(op, Cmp::In | Cmp::NotIn) => compare_sv(*op, &Sv::Int(x), &Sv::Int(y)),
                    (Q::Ref(x), Q::Ref(y)) => compare(*op, x, y),
                    (Q::Int(x), Q::Ref(y)) => compare(*op, &V::Int(x), y),
                    (Q::Ref(x), Q::Int(y)) => compare(*op, x, &V::Int(y)),
                    _ => {
                        let a = self.opd(a)?;
                        let b = self.opd(b)?;
                        compare_sv(*op, &a, &b)
                    }
                }
            }
            Pred::Field(i, f) => Ok(self.field_ref(&self.binders[*i], Some(*f))?.truthy()),
            Pred::Binder(i) => Ok(self.binders[*i].truthy()),
            Pred::Const(b) => Ok(*b),
        }
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

    /// An operand's value, as `sval` computes it (the same order, the same stops).
    fn opd<'s>(&'s self, o: &'s Opd) -> R<Sv<'s>> {
        Ok(match o {
            Opd::Int(k) => Sv::Int(*k),
            Opd::Const(v) => Sv::Ref(v),
            Opd::Binder(i) => sv(&self.binders[*i]),
            Opd::Field(i, f) => sv(self.field_ref(&self.binders[*i], Some(*f))?),
            Opd::Arith(op, l, r) => {
                let a = self.opd(l)?;
                let b = self.opd(r)?;
                // whole numbers: arith's own path for them (an overflow a stop there too)
                match (op, &a, &b) {
                    (Op::Add, Sv::Int(x), Sv::Int(y)) => Sv::Int(x.checked_add(*y).ok_or(Stop::Bail)?),
                    (Op::Sub, Sv::Int(x), Sv::Int(y)) => Sv::Int(x.checked_sub(*y).ok_or(Stop::Bail)?),
                    (Op::Mul, Sv::Int(x), Sv::Int(y)) => Sv::Int(x.checked_mul(*y).ok_or(Stop::Bail)?),
                    _ => Sv::Own(arith(*op, &a.v(), &b.v())?),
                }
            }
            Opd::Neg(x) => Sv::Own(negate(&self.opd(x)?.v())?),
            Opd::Call(func, a, b) => {
                let a = self.opd(a)?.into_v();
                let b = match b {
                    Some(b) => Some(self.opd(b)?.into_v()),
                    None => None,
                };
                Sv::Own(apply(*func, a, b)?)
            }
        })
    }
}
