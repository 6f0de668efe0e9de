//! The leading size tests of a winning form's `instant` condition: the conjuncts at the start of its
//! `and` chain of the shape `len(L) OP n` or `len(distinct(L)) OP n` (either side the whole number, L
//! the reading's `tiles` or `hand`), found at load.
//!
//! Why: the wait trials evaluate an instant form's condition once per candidate tile, each with an
//! evaluator made and dropped, and a hand's readings once more; where a leading size test is false
//! the condition is false — the conjuncts before it are size tests too, which neither fail nor read
//! anything else — so the trial is answered from the reading's two lists without an evaluation. The
//! tests are computed by the evaluator's own functions (`len`, `distinct_len`, `compare`), so a test
//! answers as its evaluation would; where one holds, the whole condition is evaluated as before.

use super::*;

/// One leading test: `len(L)` (or `len(distinct(L))` where `distinct`) compared with `n`; `len_left`
/// where the size is the comparison's left operand.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SizeTest {
    distinct: bool,
    hand: bool, // L is `hand` (else `tiles`)
    op: Cmp,
    n: i64,
    len_left: bool,
}

/// The size tests at the start of `e`'s `and` chain, in evaluation order (empty where it starts with
/// anything else).
pub(crate) fn size_tests(e: &Node) -> Vec<SizeTest> {
    let mut out = Vec::new();
    lead(e, &mut out);
    out
}

/// Pushes the size tests leading `e`; false where `e` holds something else (the chain stops there).
fn lead(e: &Node, out: &mut Vec<SizeTest>) -> bool {
    match e {
        // `a and b`: a is evaluated first, b only where a holds
        Node::And(a, b) => lead(a, out) && lead(b, out),
        Node::Compare(ops, xs) if ops.len() == 1 && xs.len() == 2 => {
            let op = ops[0];
            if matches!(op, Cmp::In | Cmp::NotIn) {
                return false;
            }
            let t = match (size_of(&xs[0]), whole(&xs[1]), whole(&xs[0]), size_of(&xs[1])) {
                (Some((distinct, hand)), Some(n), _, _) => SizeTest { distinct, hand, op, n, len_left: true },
                (_, _, Some(n), Some((distinct, hand))) => SizeTest { distinct, hand, op, n, len_left: false },
                _ => return false,
            };
            out.push(t);
            true
        }
        _ => false,
    }
}

/// `len(L)` / `len(distinct(L))` of the reading's tiles or hand: (distinct, hand).
fn size_of(e: &Node) -> Option<(bool, bool)> {
    let Node::Call(Func::Len, args) = e else { return None };
    let [x] = args.as_slice() else { return None };
    let (distinct, list) = match x {
        Node::Call(Func::Distinct, inner) => match inner.as_slice() {
            [l] => (true, l),
            _ => return None,
        },
        l => (false, l),
    };
    match list {
        Node::Builtin(B::Hand) => Some((distinct, true)),
        Node::Builtin(B::Tiles) => Some((distinct, false)),
        _ => None,
    }
}

fn whole(e: &Node) -> Option<i64> {
    match e {
        Node::Const(V::Int(n)) => Some(*n),
        _ => None,
    }
}

/// Whether one of `tests` is false on a reading whose `tiles` and `hand` are these lists (a list
/// not given: not known, no test of it answers), so that the condition they lead is false.
pub(crate) fn sizes_fail(tests: &[SizeTest], tiles: Option<&[V]>, hand: Option<&[V]>) -> bool {
    sizes_fail_by(tests, |distinct, of_hand| {
        let l = if of_hand { hand } else { tiles }?;
        Some(if distinct { distinct_len(l) } else { l.len() })
    })
}

/// `sizes_fail` with each size given by `size(distinct, of_hand)` (`len(distinct(L))` where
/// `distinct`, of the hand where `of_hand`, else of the tiles; None: not known).
pub(crate) fn sizes_fail_by(tests: &[SizeTest], size: impl Fn(bool, bool) -> Option<usize>) -> bool {
    // a size not known holds or not, and stops nothing: a later test still decides
    tests.iter().any(|t| size(t.distinct, t.hand).is_some_and(|n| !t.holds(n as i64)))
}

impl SizeTest {
    /// The comparison of a size `n` with the test's number, as `compare` answers two whole numbers.
    fn holds(&self, n: i64) -> bool {
        let (a, b) = if self.len_left { (n, self.n) } else { (self.n, n) };
        self.op.ints(a, b).unwrap_or(true) // (a membership test is never a size test: `lead`)
    }
}
