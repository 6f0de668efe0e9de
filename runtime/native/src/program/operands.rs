//! Operands that need no environment of their own: constants, binders, binders' fields and arithmetic
//! or number functions of them, computed on the values where they lie (a comparison of two such
//! operands charges their nodes at once: eval.rs `comparison`).

use std::borrow::Cow;

use super::*;

impl Eval<'_, '_> {
    /// The value of an operand `static_nodes` takes, its nodes charged by the caller: borrowed where
    /// it lies, computed where it is arithmetic or a function.
    pub(super) fn sval<'s>(&'s self, e: &'s Node) -> R<Cow<'s, V>> {
        Ok(match e {
            Node::Arith(op, l, r) => {
                let a = self.sval(l)?;
                let b = self.sval(r)?;
                Cow::Owned(arith(*op, &a, &b)?)
            }
            Node::Neg(o) => Cow::Owned(negate(&*self.sval(o)?)?),
            Node::Call(func, args) => {
                let a = self.sval(&args[0])?.into_owned();
                let b = match func {
                    Func::Max | Func::Min => Some(self.sval(&args[1])?.into_owned()),
                    _ => None,
                };
                Cow::Owned(apply(*func, a, b)?)
            }
            _ => Cow::Borrowed(self.peek(e)?),
        })
    }

}

/// The nodes `eval` charges for e when e is built only from constants, binders, binders' fields,
/// arithmetic, negation and the functions of numbers (its every stop a `Bail`); None otherwise.
pub(super) fn static_nodes(e: &Node) -> Option<u64> {
    match e {
        Node::Const(_) | Node::Binder(_) => Some(1),
        Node::Attr(o, _) if matches!(**o, Node::Binder(_)) => Some(1),
        Node::Arith(_, l, r) => Some(1 + static_nodes(l)? + static_nodes(r)?),
        Node::Neg(o) => Some(1 + static_nodes(o)?),
        Node::Call(Func::Abs | Func::Floor, args) if args.len() == 1 => Some(1 + static_nodes(&args[0])?),
        Node::Call(Func::Max | Func::Min, args) if args.len() == 2 => {
            Some(1 + static_nodes(&args[0])? + static_nodes(&args[1])?)
        }
        _ => None,
    }
}

/// `-v` as the reference computes it.
pub(super) fn negate(v: &V) -> R<V> {
    match v {
        V::Bool(b) => Ok(V::Int(-(*b as i64))),
        V::Int(n) => n.checked_neg().map(V::Int).ok_or(Stop::Bail),
        V::Rat(n, d) => n.checked_neg().map(|n| V::Rat(n, *d)).ok_or(Stop::Bail),
        _ => Err(Stop::Bail),
    }
}
