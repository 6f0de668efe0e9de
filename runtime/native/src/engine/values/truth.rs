//! A condition read for its truth (`and`, `or`, `not`, an `if`'s test, a seat's flag, a comparison):
//! the same nodes in the same order as `Ev::eval` evaluates them, each charged to the same budget, but
//! no value built and dropped where only its truth is read — a seat's state read where it is held, two
//! seats or two whole numbers compared in place. Whatever is not one of these shapes is evaluated by
//! `eval` and its truth taken, as before.

use super::{Ev, R};
use crate::engine::scope::B_TILE;
use crate::engine::state::Value;
use crate::program::{compare, Cmp, Func, Node, Stop, V};

/// Whether `node` is a `len(...)`, which `bounded_compare` may walk only as far as a comparison needs.
pub(super) fn asks_len(node: &Node) -> bool {
    matches!(node, Node::Call(Func::Len, _))
}

/// `compare(op, a, b)`, with seats, none and whole numbers compared in place (`equal` and `order`
/// answer these the same way).
#[inline]
pub(super) fn compare_fast(op: Cmp, a: &V, b: &V) -> R<bool> {
    match (op, a, b) {
        (Cmp::Eq, V::Seat(x), V::Seat(y)) => Ok(x == y),
        (Cmp::Ne, V::Seat(x), V::Seat(y)) => Ok(x != y),
        (Cmp::Eq, V::Seat(_), V::None) | (Cmp::Eq, V::None, V::Seat(_)) => Ok(false),
        (Cmp::Ne, V::Seat(_), V::None) | (Cmp::Ne, V::None, V::Seat(_)) => Ok(true),
        (_, V::Int(x), V::Int(y)) => Ok(match op {
            Cmp::Eq => x == y,
            Cmp::Ne => x != y,
            Cmp::Lt => x < y,
            Cmp::Le => x <= y,
            Cmp::Gt => x > y,
            Cmp::Ge => x >= y,
            Cmp::In | Cmp::NotIn => return compare(op, a, b),
        }),
        _ => compare(op, a, b),
    }
}

impl Ev<'_> {
    /// One node charged to the budget, as `eval` charges each node it evaluates.
    #[inline]
    fn tick(&mut self) -> R<()> {
        if self.budget == 0 {
            return Err(Stop::Bail);
        }
        self.budget -= 1;
        Ok(())
    }

    /// The binding in slot `i` (the tile of the moment as `Game.tv` gives it).
    #[inline]
    pub(super) fn bound_at(&self, i: usize) -> R<V> {
        match &self.tile {
            Some(t) if i == B_TILE => Ok(t.clone()),
            _ => self.bound.get(i).cloned().ok_or(Stop::Bail),
        }
    }

    /// The binding in slot `i`, borrowed (`bound_at` without the copy).
    #[inline]
    fn bound_ref(&self, i: usize) -> R<&V> {
        match &self.tile {
            Some(t) if i == B_TILE => Ok(t),
            _ => self.bound.get(i).ok_or(Stop::Bail),
        }
    }

    /// `attr(eval(o)?, f)`: a field of a binding read from the binding in place.
    #[inline]
    pub(super) fn attr_of(&mut self, o: &Node, f: usize) -> R<V> {
        if let Node::Bound(i) = o {
            self.tick()?;
            return match self.bound_ref(*i)? {
                V::Seat(s) => self.seat_field(*s as usize, f),
                v => self.attr(v.clone(), f),
            };
        }
        let v = self.eval(o)?;
        self.attr(v, f)
    }

    /// `eval(e)`, a binding read without a call of `eval` for it.
    #[inline]
    pub(super) fn operand(&mut self, e: &Node) -> R<V> {
        match e {
            Node::Bound(i) => {
                self.tick()?;
                self.bound_at(*i)
            }
            _ => self.eval(e),
        }
    }

    /// `eval(e)?.truthy()`.
    pub(super) fn truth(&mut self, e: &Node) -> R<bool> {
        match e {
            Node::And(l, r) => {
                self.tick()?;
                Ok(self.truth(l)? && self.truth(r)?)
            }
            Node::Or(l, r) => {
                self.tick()?;
                Ok(self.truth(l)? || self.truth(r)?)
            }
            Node::Not(o) => {
                self.tick()?;
                Ok(!self.truth(o)?)
            }
            Node::Attr(o, f) => {
                self.tick()?;
                if let Node::Bound(i) = &**o {
                    self.tick()?;
                    return match self.bound_ref(*i)? {
                        V::Seat(s) => self.seat_truth(*s as usize, *f),
                        v => self.attr_truth(v.clone(), *f),
                    };
                }
                let v = self.eval(o)?;
                self.attr_truth(v, *f)
            }
            _ => Ok(self.eval(e)?.truthy()),
        }
    }

    /// `attr(v, f)?.truthy()`, a seat's own state or phase read where the seat holds it.
    fn attr_truth(&self, v: V, f: usize) -> R<bool> {
        match v {
            V::Seat(s) => self.seat_truth(s as usize, f),
            _ => Ok(self.attr(v, f)?.truthy()),
        }
    }

    /// `seat_field(s, f)?.truthy()`, the seat's own state or phase read where it is held.
    fn seat_truth(&self, s: usize, f: usize) -> R<bool> {
        Ok(match self.seat_var(s, f)? {
            Some(Value::None) => false,
            Some(Value::Bool(b)) => *b,
            Some(Value::Int(i)) => *i != 0,
            Some(x) => self.value(x).truthy(),
            None => self.computed_field(s, f)?.truthy(),
        })
    }
}
