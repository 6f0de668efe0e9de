//! An action's `when` answered without an evaluation set up, where it is a chain of the actor's own
//! flags ending in one wait question's length compared with a whole number: `not actor.F and … and
//! len(actor.waits) > 0` (a declaration a seat may make when its hand is ready). Such a guard is asked
//! at every discard of a seat not yet declared; its evaluation's set-up (the twelve bindings, the
//! evaluator made and dropped) and the comparison's (the question's arguments as a vector) cost about
//! as much as the not-ready check that mostly answers it.
//!
//! The conjuncts are read left to right, as the evaluator reads them: a flag is the seat's own state
//! where it holds a flag, a whole number or none (anything else, or a field it does not hold: the whole
//! condition is evaluated as before — nothing has been asked yet, so that is the same); the first false
//! answers false. The wait question is then asked as `bounded_compare` asks it (`wait_len_holds`: the
//! same `ask_len`, else the whole list), the seat's own state of that name excepted (evaluated as
//! before), and a question declined natively refuses the decision as `Ctx::eval_with` does.

use super::{Ctx, Why, B_ACTOR, R};
use crate::engine::scope::{GameScope, Question, SeatField};
use crate::engine::guard::under_nots;
use crate::engine::state::{get_at, Value};
use crate::engine::values::wait_len_holds;
use crate::program::{Cmp, Func, Node, V};

/// The flags (leftmost first) and the wait comparison that make up a whole condition.
pub(in crate::engine) struct ReadyGuard {
    /// (`not`s applied an odd number of times, the field id of the actor's flag).
    flags: Vec<(bool, usize)>,
    /// The field id asking the question, the question, the comparison, its whole number, and whether
    /// the length stands on the left.
    field: usize,
    q: Question,
    op: Cmp,
    n: i64,
    left: bool,
}

/// The guard of expression `e`, where the whole condition has the shape.
pub(in crate::engine) fn ready_guard(sc: &GameScope, e: usize) -> Option<ReadyGuard> {
    let Some(Ok(whole)) = sc.exprs.get(e) else { return None };
    // the conjuncts down the left: the last (rightmost) is the comparison, the others flags
    let (mut node, last) = match whole {
        Node::And(l, r) => (Some(&**l), &**r),
        other => (None, other),
    };
    let (field, q, op, n, left) = wait_compare(sc, last)?;
    let mut flags = Vec::new();
    while let Some(c) = node {
        let (c, rest) = match c {
            Node::And(l, r) => (&**r, Some(&**l)),
            other => (other, None),
        };
        flags.push(actor_flag(c)?);
        node = rest;
    }
    flags.reverse();
    Some(ReadyGuard { flags, field, q, op, n, left })
}

/// `not … actor.F`: (negated, F).
fn actor_flag(node: &Node) -> Option<(bool, usize)> {
    let (negated, node) = under_nots(node);
    match node {
        Node::Attr(o, f) if matches!(**o, Node::Bound(B_ACTOR)) => Some((negated, *f)),
        _ => None,
    }
}

/// `len(actor.waits) OP n` or `n OP len(actor.waits)` (either wait field), n a whole-number constant.
fn wait_compare(sc: &GameScope, node: &Node) -> Option<(usize, Question, Cmp, i64, bool)> {
    let Node::Compare(ops, operands) = node else { return None };
    let ([op], [a, b]) = (ops.as_slice(), operands.as_slice()) else { return None };
    if !matches!(op, Cmp::Eq | Cmp::Ne | Cmp::Lt | Cmp::Le | Cmp::Gt | Cmp::Ge) {
        return None;
    }
    let asked = |x: &Node| -> Option<(usize, Question)> {
        let Node::Call(Func::Len, args) = x else { return None };
        let [Node::Attr(o, f)] = args.as_slice() else { return None };
        if !matches!(**o, Node::Bound(B_ACTOR)) {
            return None;
        }
        match sc.seat_fields.get(*f) {
            Some(SeatField::Ask(q @ (Question::Waits | Question::GroupWaits))) => Some((*f, *q)),
            _ => None,
        }
    };
    let int = |x: &Node| match x {
        Node::Const(V::Int(n)) => Some(*n),
        _ => None,
    };
    match (asked(a), asked(b)) {
        (Some((f, q)), None) => Some((f, q, *op, int(b)?, true)),
        (None, Some((f, q))) => Some((f, q, *op, int(a)?, false)),
        _ => None,
    }
}

impl Ctx<'_> {
    /// The guard's answer for `seat`, or None where the condition is to be evaluated as before.
    pub(super) fn ready_guarded(&self, g: &ReadyGuard, seat: usize) -> Option<R<bool>> {
        let sc = &self.o.scope;
        let vars = &self.st.seats.get(seat)?.vars;
        let own = |f: usize| get_at(vars, sc.var_hint[f], &sc.fields[f]);
        let mut got = Ok(true);
        for &(negated, f) in &g.flags {
            let held = match own(f)? {
                Value::None => false,
                Value::Bool(b) => *b,
                Value::Int(i) => *i != 0,
                _ => return None,
            };
            if held == negated {
                got = Ok(false);
                break;
            }
        }
        if matches!(got, Ok(true)) {
            if own(g.field).is_some() {
                return None; // the seat's own state of that name, not the question
            }
            got = wait_len_holds(self.wins, self.st, g.q, &[V::Seat(seat as u16)], g.op, g.n, g.left);
        }
        // as after an evaluation: a question not answered natively on this state refuses the decision,
        // never another value
        if let Some(why) = self.wins.take_declined() {
            return Some(Err(Why::Refused(format!("a win or wait question declined natively ({why})"))));
        }
        Some(got.map_err(|_| Why::Stop))
    }
}
