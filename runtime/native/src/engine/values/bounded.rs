//! `len(Q) OP n` where Q is one of a seat's wait questions (`waits`, `group_waits`, `waits_without`,
//! `group_waits_without`) and n a value read in one step (a constant, a setting, a game value): the
//! question is asked for its length only as far as the comparison needs it (`WinQuestions::ask_len`:
//! the kinds walked in the same order, stopped as soon as the waits found and the kinds left decide
//! it — at the first kind that does not complete for "waits on every kind" (`== n`, `< n`) — where that
//! answer is also the empty list's (what a walk past the work limit answers in the reference: `> 0`
//! decided at the first wait is not, and walks on). The comparison's answer is the whole list's; the nodes are evaluated in the same order and
//! counted against the same budget, and wherever the shape is not met exactly (a seat's own state of
//! that name, a number that is no whole number, a question the implementation walks only in full)
//! the value is worked out in full.

use super::{Ev, R};
use crate::engine::scope::{Question, SeatField, WinQuestions, G, GF};
use crate::engine::state::HandState;
use crate::program::{apply, compare, Cmp, Func, Node, Stop, V};

/// The nodes a bounded comparison evaluates at most (the comparison's own is counted by `eval`): it is
/// only taken with that many left, so the budget never runs out midway in a different place.
const NODES: u64 = 8;

/// A wait question in a `len(...)`: where its seat (and tile) come from.
enum Asked<'n> {
    Field(&'n Node, usize, Question), // `seat.f` (a seat field that asks `q`)
    Call(&'n [Node], Question),       // `q(seat, tile)`
}

impl Ev<'_> {
    fn charge(&mut self, n: u64) -> R<()> {
        if self.budget < n {
            return Err(Stop::Bail);
        }
        self.budget -= n;
        Ok(())
    }

    /// The wait question `len(node)` asks, if it is one.
    fn asked<'n>(&self, node: &'n Node) -> Option<Asked<'n>> {
        let Node::Call(Func::Len, args) = node else { return None };
        match args.as_slice() {
            [Node::Attr(o, f)] => match self.sc.seat_fields.get(*f) {
                Some(SeatField::Ask(q @ (Question::Waits | Question::GroupWaits))) => Some(Asked::Field(o, *f, *q)),
                _ => None,
            },
            [Node::GameCall(i, a)] if a.len() == 2 => match self.sc.calls.get(*i) {
                Some(GF::Ask(q @ (Question::WaitsWithout | Question::GroupWaitsWithout))) => Some(Asked::Call(a, *q)),
                _ => None,
            },
            _ => None,
        }
    }

    /// A number read in one node, which cannot ask anything of the win machinery.
    fn one_step(&self, node: &Node) -> bool {
        match node {
            Node::Const(_) | Node::Setting(_) => true,
            Node::Game(g) => !matches!(self.sc.games.get(*g), Some(G::Reading(_)) | None),
            _ => false,
        }
    }

    /// `a OP b` with one side a wait question's length and the other a number read in one step, the
    /// question walked only as far as the comparison needs; None where the shape is not this one (the
    /// caller evaluates it as ever).
    pub(super) fn bounded_compare(&mut self, op: Cmp, a: &Node, b: &Node) -> R<Option<V>> {
        if !matches!(op, Cmp::Eq | Cmp::Ne | Cmp::Lt | Cmp::Le | Cmp::Gt | Cmp::Ge) || self.budget < NODES {
            return Ok(None);
        }
        let (asked, num, left) = match (self.asked(a), self.asked(b)) {
            (Some(q), None) if self.one_step(b) => (q, b, true),
            (None, Some(q)) if self.one_step(a) => (q, a, false),
            _ => return Ok(None),
        };
        // in the order `eval` reads them: the number first where it stands on the left, then `len`, the
        // field or the call, and the question's arguments
        let mut n = None;
        if !left {
            n = Some(self.eval(num)?);
        }
        self.charge(2)?;
        let args: Vec<V> = match &asked {
            Asked::Field(o, _, _) => vec![self.eval(o)?],
            Asked::Call(a, _) => vec![self.eval(&a[0])?, self.eval(&a[1])?],
        };
        let q = match asked {
            Asked::Field(_, f, q) => {
                let own = match args[0] {
                    V::Seat(s) => self.st.seats.get(s as usize).is_some_and(|seat| {
                        crate::engine::state::get_at(&seat.vars, self.sc.var_hint[f], &self.sc.fields[f]).is_some()
                    }),
                    _ => true,
                };
                if own {
                    // not the question (a seat's own state of that name, or no seat): as `eval` reads it
                    let v = self.attr(args[0].clone(), f)?;
                    return self.finish(op, apply(Func::Len, v, None)?, n, num, left).map(Some);
                }
                q
            }
            Asked::Call(_, q) => q,
        };
        // the number first where it can be: a question asked for its length needs it
        let num_v = match n.take() {
            Some(v) => v,
            None => match self.eval(num) {
                Ok(v) => v,
                Err(e) => {
                    // the number stops: the question is asked in full first, as `eval` asks it
                    self.wins.ask(self.st, q, &args)?;
                    return Err(e);
                }
            },
        };
        let V::Int(target) = num_v else {
            let v = self.wins.ask(self.st, q, &args)?;
            return self.finish(op, apply(Func::Len, v, None)?, Some(num_v), num, left).map(Some);
        };
        Ok(Some(V::Bool(wait_len_holds(self.wins, self.st, q, &args, op, target, left)?)))
    }

    /// The comparison of a length worked out in full with the number (read now where it stands on the left).
    fn finish(&mut self, op: Cmp, len: V, n: Option<V>, num: &Node, left: bool) -> R<V> {
        let n = match n {
            Some(v) => v,
            None => self.eval(num)?,
        };
        let holds = if left { compare(op, &len, &n)? } else { compare(op, &n, &len)? };
        Ok(V::Bool(holds))
    }
}

/// `len(q(args)) OP target` (`target OP len(…)` where not `left`), the question walked only as far as
/// the comparison needs (`ask_len`), else asked in full: `bounded_compare`'s answer once its operands
/// are read, and the legal moves' ready guards' (engine/offers/ready_guard.rs).
pub(in crate::engine) fn wait_len_holds(
    wins: &dyn WinQuestions,
    st: &HandState,
    q: Question,
    args: &[V],
    op: Cmp,
    target: i64,
    left: bool,
) -> R<bool> {
    let holds = |len: usize| {
        let l = V::Int(len as i64);
        let r = V::Int(target);
        (if left { compare(op, &l, &r) } else { compare(op, &r, &l) }).unwrap_or(false)
    };
    // Decided once every length the kinds left allow compares alike — and only where that answer is
    // the empty list's: the whole walk shares one work limit, and a reference whose walk runs past it
    // answers no waits (its HandError caught), so a walk stopped before the kinds that would have
    // spent it must give what no waits gives.
    let empty = holds(0);
    let decided = |found: usize, more: usize| {
        let alike = match op {
            Cmp::Eq | Cmp::Ne => {
                let (lo, hi) = (found as i64, (found + more) as i64);
                lo == hi || target < lo || target > hi
            }
            _ => holds(found) == holds(found + more), // a monotone test: its two ends agree
        };
        alike && holds(found) == empty
    };
    let len = match wins.ask_len(st, q, args, &decided)? {
        Some(len) => len,
        None => match apply(Func::Len, wins.ask(st, q, args)?, None)? {
            V::Int(l) if l >= 0 => l as usize,
            _ => return Err(Stop::Bail),
        },
    };
    Ok(holds(len))
}

