//! Comprehensions remembered within a reading: which lowered comprehensions may be, and under what key.
//!
//! A comprehension whose value depends only on the reading (its lists, settings) and on the binders it
//! reads from the comprehensions around it (its free binders) has one value per reading and per values
//! of those binders. Nested over the same lists (`any(m in L: any(n in L: … m …))`), or written alike in
//! several patterns, it is evaluated again and again with the same free binders; the reference
//! (runtime/evaluate.py `_memo_body`) remembers comprehension bodies by their free binders' items for
//! the same reason. Here the whole comprehension is remembered, per reading (an `Eval`), keyed by the
//! exact values of its free binders, with the nodes its evaluation charged: a remembered value charges
//! the budget those nodes again, so the budget stops exactly where evaluating it again would have
//! stopped (eval.rs `memoised`).
//!
//! What makes the value a function of that key:
//! - the comprehension reads no pattern, quantity or unit (their values change while the patterns are
//!   counted: the re-entry guard, the units known only when scoring) and nothing of game scope;
//! - every binder is read inside a comprehension binding it, and no comprehension binds a slot that an
//!   enclosing one binds (binders share one environment per reading, never restored: a shadowed or
//!   leaked binder would make a skipped evaluation visible). A program where some binder breaks this
//!   is evaluated without any memo.
//!
//! Identical comprehensions (the same lowered tree, slots included) share one memo id, so a
//! comprehension written alike in several patterns is evaluated once per reading and key.

use super::*;

/// A remembered comprehension: its memo id and the binder slots it reads freely (at most `MEMO_KEYS`).
#[derive(Debug)]
pub(crate) struct Memo {
    pub id: usize,
    pub free: Vec<usize>,
}

/// At most this many free binders make a key.
pub(crate) const MEMO_KEYS: usize = 4;

/// Marks the comprehensions of a program's expressions that are remembered (their `memo`), and
/// returns how many memo ids there are. `roots`: every expression one `Eval` evaluates.
pub(crate) fn mark(roots: &mut [&mut Node]) -> usize {
    let mut bound = Vec::new();
    if !roots.iter().all(|r| scoped(r, &mut bound)) {
        return 0;
    }
    // the candidates' structural keys, counted before any is marked
    let mut seen: HashMap<String, (usize, usize)> = HashMap::new(); // key -> (occurrences, id)
    for r in roots.iter() {
        count_keys(r, &mut seen);
    }
    let mut ids = 0usize;
    for r in roots.iter_mut() {
        assign(r, None, &mut seen, &mut ids);
    }
    ids
}

/// Every binder of every expression read inside a comprehension binding it, no slot bound twice on
/// one path (flat.rs: flat loops need not write the binders then).
pub(crate) fn all_scoped(roots: &[&mut Node]) -> bool {
    let mut bound = Vec::new();
    roots.iter().all(|r| scoped(r, &mut bound))
}

/// Every binder read inside a comprehension binding it, no slot bound twice on one path.
fn scoped(e: &Node, bound: &mut Vec<usize>) -> bool {
    match e {
        Node::Binder(s) => bound.contains(s),
        Node::Comp { slots, src, body, eq, .. } => {
            if !scoped(src, bound) || eq.as_deref().is_some_and(|q| !scoped(q, bound)) {
                return false;
            }
            for (j, s) in slots.iter().enumerate() {
                if bound.contains(s) || slots[..j].contains(s) {
                    return false;
                }
            }
            let n = bound.len();
            bound.extend(slots);
            let ok = scoped(body, bound);
            bound.truncate(n);
            ok
        }
        _ => children(e).into_iter().all(|c| scoped(c, bound)),
    }
}

pub(crate) fn children(e: &Node) -> Vec<&Node> {
    match e {
        Node::Const(_)
        | Node::Builtin(_)
        | Node::Setting(_)
        | Node::Binder(_)
        | Node::Pattern(_)
        | Node::Quantity(_)
        | Node::Unit(_)
        | Node::Bound(_)
        | Node::Game(_)
        | Node::Pred(_) => Vec::new(),
        Node::List(xs) | Node::Call(_, xs) | Node::Compare(_, xs) | Node::GameCall(_, xs) => xs.iter().collect(),
        Node::Attr(o, _) | Node::Not(o) | Node::Neg(o) => vec![o],
        Node::Comp { src, body, eq, .. } => {
            let mut v: Vec<&Node> = vec![src, body];
            v.extend(eq.as_deref());
            v
        }
        Node::And(l, r) | Node::Or(l, r) | Node::Arith(_, l, r) => vec![l, r],
        Node::If(c, t, f) => vec![c, t, f],
    }
}

/// The direct subexpressions of e, to rewrite in place (pred.rs compiles conditions over them too).
pub(crate) fn children_mut(e: &mut Node) -> Vec<&mut Node> {
    match e {
        Node::Const(_)
        | Node::Builtin(_)
        | Node::Setting(_)
        | Node::Binder(_)
        | Node::Pattern(_)
        | Node::Quantity(_)
        | Node::Unit(_)
        | Node::Bound(_)
        | Node::Game(_)
        | Node::Pred(_) => Vec::new(),
        Node::List(xs) | Node::Call(_, xs) | Node::Compare(_, xs) | Node::GameCall(_, xs) => xs.iter_mut().collect(),
        Node::Attr(o, _) | Node::Not(o) | Node::Neg(o) => vec![o],
        Node::Comp { src, body, eq, .. } => {
            let mut v: Vec<&mut Node> = vec![src, body];
            v.extend(eq.as_deref_mut());
            v
        }
        Node::And(l, r) | Node::Or(l, r) | Node::Arith(_, l, r) => vec![l, r],
        Node::If(c, t, f) => vec![c, t, f],
    }
}

/// Reads nothing whose value may change within a reading.
fn pure(e: &Node) -> bool {
    match e {
        Node::Pattern(_) | Node::Quantity(_) | Node::Unit(_) | Node::Bound(_) | Node::Game(_) | Node::GameCall(..) => false,
        _ => children(e).into_iter().all(pure),
    }
}

/// The binder slots e reads that no comprehension inside e binds, in first-read order.
fn free_binders(e: &Node, bound: &mut Vec<usize>, out: &mut Vec<usize>) {
    match e {
        Node::Binder(s) => {
            if !bound.contains(s) && !out.contains(s) {
                out.push(*s);
            }
        }
        Node::Comp { slots, src, body, eq, .. } => {
            free_binders(src, bound, out);
            if let Some(q) = eq {
                free_binders(q, bound, out);
            }
            let n = bound.len();
            bound.extend(slots);
            free_binders(body, bound, out);
            bound.truncate(n);
        }
        _ => {
            for c in children(e) {
                free_binders(c, bound, out);
            }
        }
    }
}

/// A comprehension answered from a tally of a reading list (eval.rs `tally`): already a lookup.
fn tallied(e: &Node) -> bool {
    match e {
        Node::Comp { slots, src, body, eq: Some(_), .. } if slots.len() == 1 => {
            matches!(**src, Node::Builtin(_)) && eq_item(body, slots[0]).is_some()
        }
        _ => false,
    }
}

/// The comprehension's structural key and free binders when it may be remembered.
fn candidate(e: &Node) -> Option<(String, Vec<usize>)> {
    if !matches!(e, Node::Comp { .. }) || tallied(e) || !pure(e) {
        return None;
    }
    let mut free = Vec::new();
    free_binders(e, &mut Vec::new(), &mut free);
    if free.len() > MEMO_KEYS {
        return None;
    }
    Some((format!("{e:?}"), free))
}

fn count_keys(e: &Node, seen: &mut HashMap<String, (usize, usize)>) {
    if let Some((k, _)) = candidate(e) {
        seen.entry(k).or_insert((0, usize::MAX)).0 += 1;
    }
    for c in children(e) {
        count_keys(c, seen);
    }
}

/// Marks e's candidates, innermost first (a key is taken before the node's own mark exists). A
/// comprehension is remembered where it can be asked again with the same key: inside a comprehension
/// (`outer`: its slots, and whether its items are distinct values) and written more than once, or not
/// reading all the outer one's items, or the outer one's items may repeat. One evaluated once per
/// item of distinct items it reads (`any(m in runs: any(n in runs: … m …))`'s inner one, written once)
/// never is, nor one outside any comprehension (evaluated once a reading where it is written: written
/// twice, the second is seldom reached in the same reading, measured).
fn assign(e: &mut Node, outer: Option<(&[usize], bool)>, seen: &mut HashMap<String, (usize, usize)>, ids: &mut usize) {
    let got = candidate(e);
    if let Node::Comp { slots, src, body, eq, .. } = e {
        assign(src, outer, seen, ids);
        if let Some(q) = eq.as_deref_mut() {
            assign(q, outer, seen, ids);
        }
        let distinct = distinct_items(src);
        assign(body, Some((slots, distinct)), seen, ids);
    } else {
        for c in children_mut(e) {
            assign(c, outer, seen, ids);
        }
    }
    let Some((k, free)) = got else { return };
    let Some(entry) = seen.get_mut(&k) else { return };
    let again = outer.is_some_and(|(slots, distinct)| entry.0 >= 2 || !distinct || !slots.iter().all(|s| free.contains(s)));
    if !again {
        return;
    }
    if entry.1 == usize::MAX {
        entry.1 = *ids;
        *ids += 1;
    }
    if let Node::Comp { memo, .. } = e {
        *memo = Some(Box::new(Memo { id: entry.1, free }));
    }
}

/// The items of this source are distinct keys: a reading's list of groups (each group its own
/// identity), `distinct(…)` (no two items equal: tiles of one kind are equal), or a constant list of
/// distinct numbers.
fn distinct_items(src: &Node) -> bool {
    match src {
        Node::Call(Func::Distinct, _) => true,
        Node::Builtin(b) => matches!(b, B::Melds | B::Groups | B::Pairs | B::Runs | B::Triplets | B::Kongs | B::Exposed),
        Node::Const(V::List(xs)) => xs.iter().enumerate().all(|(i, x)| {
            matches!(x, V::Int(_)) && !xs[..i].iter().any(|y| matches!((x, y), (V::Int(a), V::Int(b)) if a == b))
        }),
        _ => false,
    }
}

/// The free binders' values of a remembered comprehension, exactly (kind of value, payload).
pub(crate) type MemoKey = [(u8, i64); MEMO_KEYS];

impl Eval<'_, '_> {
    /// A remembered comprehension: its value for these free binders' values when found
    /// before in this reading, the nodes that evaluation charged charged again (so the budget stops
    /// where evaluating it again would stop; a tally built then is not built again, so its building
    /// is not counted); else evaluated and kept. Free binders holding other values than none, truths,
    /// whole numbers, tiles and groups: evaluated, not kept.
    pub(super) fn memoised(&mut self, m: &Memo, e: &Node) -> R<V> {
        let Some(key) = self.memo_key(m) else { return self.comp_node(e) };
        if let Some((v, cost)) = self.memo_find(m.id, &key) {
            self.charge_n(cost)?;
            return Ok(v);
        }
        let (b0, t0) = (self.budget, self.tally_built);
        let v = self.comp_node(e)?;
        let cost = (b0 - self.budget) - (self.tally_built - t0);
        self.memo.get_mut()[m.id].push((key, v.clone(), cost));
        Ok(v)
    }

    /// The free binders' values of m as a key; None where one holds a value that is not kept.
    #[inline]
    pub(super) fn memo_key(&self, m: &Memo) -> Option<MemoKey> {
        let mut key: MemoKey = [(0, 0); MEMO_KEYS];
        for (k, &s) in key.iter_mut().zip(&m.free) {
            *k = match self.binders[s] {
                V::None => (1, 0),
                V::Bool(b) => (2, b as i64),
                V::Int(n) => (3, n),
                V::Tile(c) => (4, c as i64),
                V::Group(g) => (5, g as i64),
                _ => return None,
            };
        }
        Some(key)
    }

    /// The value remembered for memo id and key in this reading, and the nodes it charged.
    #[inline]
    pub(super) fn memo_find(&mut self, id: usize, key: &MemoKey) -> Option<(V, u64)> {
        let memo = self.memo.get_mut();
        if memo.len() != self.p.n_memo {
            *memo = (0..self.p.n_memo).map(|_| Vec::new()).collect();
        }
        memo[id].iter().find(|x| x.0 == *key).map(|(_, v, c)| (v.clone(), *c))
    }

    /// Remembers a value found (`memo_find` made the memo's lists).
    pub(super) fn memo_keep(&mut self, id: usize, key: MemoKey, v: V, cost: u64) {
        self.memo.get_mut()[id].push((key, v, cost));
    }
}
