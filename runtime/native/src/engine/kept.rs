//! Conditions of events and payments not asked again where their answer is already known.
//!
//! A condition is a pure function of what it reads. Two cases are answered without evaluating:
//!
//! - a payment's `when` that reads neither `payer` nor `payee` nor a seat's `balance` has, for every
//!   payer–payee pair of one payment and one winner's bindings, the answer of the first pair (the
//!   transfers between the pairs change only the money): `reads_pair`;
//! - a condition whose leftmost conjuncts (`P and …`, or the whole condition) read nothing but constants,
//!   settings, `players` and the table's states, context values and reveals is false wherever `P` was
//!   last found false on the same values of those states (`Keep`): the reference's `and` stops at `P`.
//!   The values `P` read at its last false answer are kept in the hand's state (`HandState::kept_false`).
//!
//! Anything else is evaluated as before.

use super::events::{Bind, Run, H};
use super::scope::{GameScope, B_PAYEE, B_PAYER, G};
use super::state::{get_at, Value};
use crate::program::{children, Node};

/// Whether condition `e` may answer differently for another payer or payee of the same payment: it
/// reads `payer`, `payee` or a seat's `balance`, or is not lowered (or reads what is not looked into).
pub fn reads_pair(sc: &GameScope, e: usize) -> bool {
    match sc.exprs.get(e) {
        Some(Ok(node)) => pair_dependent(sc, node),
        _ => true,
    }
}

fn pair_dependent(sc: &GameScope, node: &Node) -> bool {
    match node {
        Node::Bound(s) => *s == B_PAYER || *s == B_PAYEE,
        Node::Attr(_, f) if sc.fields.get(*f).is_none_or(|n| &**n == "balance") => true,
        Node::Pred(_) => true, // (the pattern programs' own form: never in game scope)
        _ => children(node).into_iter().any(|c| pair_dependent(sc, c)),
    }
}

/// A condition's leftmost conjuncts that read only the table's values: how many `and`s down the left it
/// is (0: the whole condition), and the game values it reads (by id of `GameScope::games`, in order).
pub struct Keep {
    depth: usize,
    reads: Vec<usize>,
}

/// The `Keep` of expression `e`, where it has one.
pub fn keep_of(sc: &GameScope, e: usize) -> Option<Keep> {
    let Some(Ok(whole)) = sc.exprs.get(e) else { return None };
    let mut node: &Node = whole;
    let mut depth = 0;
    loop {
        let mut reads = Vec::new();
        if table_only(sc, node, &mut reads) {
            return Some(Keep { depth, reads });
        }
        match node {
            Node::And(l, _) => {
                node = l;
                depth += 1;
            }
            _ => return None,
        }
    }
}

fn table_only(sc: &GameScope, node: &Node, reads: &mut Vec<usize>) -> bool {
    match node {
        Node::Const(_) | Node::Setting(_) => true,
        Node::Game(g) => match sc.games.get(*g) {
            Some(G::Players) => true,
            Some(G::TableVar(_) | G::Context(_) | G::Reveal(_)) => {
                reads.push(*g);
                true
            }
            _ => false,
        },
        Node::List(_) | Node::Not(_) | Node::Neg(_) | Node::And(..) | Node::Or(..) | Node::Arith(..) | Node::Compare(..) | Node::If(..) => {
            children(node).into_iter().all(|c| table_only(sc, c, reads))
        }
        // bindings, seats' and tiles' fields, calls, comprehensions, readings
        _ => false,
    }
}

impl Keep {
    /// The kept part of expression `whole` (None: the whole of it).
    fn part<'n>(&self, whole: &'n Node) -> Option<&'n Node> {
        let mut node = whole;
        for _ in 0..self.depth {
            match node {
                Node::And(l, _) => node = l,
                _ => return None,
            }
        }
        (self.depth > 0).then_some(node)
    }
}

impl Run<'_> {
    /// The values the `k`-th kept condition reads, as the state holds them now.
    fn kept_reads(&self, k: usize) -> Vec<Option<Value>> {
        let (sc, st) = (&self.p.scope, &*self.st);
        self.p.keeps[k].reads.iter().map(|&g| read(sc, st, g).cloned()).collect()
    }

    /// Whether the `k`-th kept condition's part was false on the values the state still holds.
    fn known_false(&self, k: usize) -> bool {
        let Some(Some(was)) = self.st.kept_false.get(k) else { return false };
        let (sc, st) = (&self.p.scope, &*self.st);
        let reads = &self.p.keeps[k].reads;
        reads.len() == was.len() && reads.iter().zip(was).all(|(&g, w)| read(sc, st, g) == w.as_ref())
    }

    fn keep_false(&mut self, k: usize) {
        let reads = self.kept_reads(k);
        if self.st.kept_false.len() <= k {
            self.st.kept_false.resize(k + 1, None);
        }
        self.st.kept_false[k] = Some(reads);
    }

    /// `holds` of expression `i`, which has the `k`-th kept part: false without evaluating where the part
    /// is known false; else the part evaluated first (when it is not the whole), then the whole.
    pub(super) fn kept_holds(&mut self, k: usize, i: usize, b: &Bind, what: impl FnOnce() -> String) -> H<bool> {
        if self.known_false(k) {
            return Ok(false);
        }
        let p = self.p;
        let part = match p.scope.exprs.get(i) {
            Some(Ok(whole)) => p.keeps[k].part(whole),
            _ => None,
        };
        let Some(part) = part else {
            let holds = self.eval_with(i, b, what)?.truthy();
            if !holds {
                self.keep_false(k);
            }
            return Ok(holds);
        };
        // (the part reads no binding, question or reading: its evaluation changes nothing)
        let mut stopped = None;
        let part_holds = match self.eval_node(part, b) {
            Ok(v) => v.truthy(),
            Err(h) => {
                stopped = Some(h);
                true // (evaluated whole below: the stop is the whole's, with its subject)
            }
        };
        if stopped.is_none() && !part_holds {
            self.keep_false(k);
            return Ok(false);
        }
        Ok(self.eval_with(i, b, what)?.truthy())
    }
}

/// Game value `g` (a table state, context value or reveal) as the evaluator finds it in `st`.
fn read<'s>(sc: &GameScope, st: &'s super::state::HandState, g: usize) -> Option<&'s Value> {
    let hint = sc.game_hints[g];
    match &sc.games[g] {
        G::TableVar(name) => get_at(&st.table, hint, name),
        G::Context(name) => get_at(&st.context, hint, name),
        G::Reveal(name) => get_at(&st.reveals, hint, name),
        _ => None,
    }
}
