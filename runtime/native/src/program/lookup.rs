//! Equality lookups: `count/any(x in L: x.F == V)` answered from a tally of L by F, as the reference
//! answers them (runtime/evaluate.py `_equality_lookup`).
//!
//! A tally of a list of tiles is kept as a count per tile kind: `equal` compares tiles by the kind they
//! play as, and a tile field other than the wildcard bits is a function of the kind, so the items whose
//! key equals V are exactly those of the kinds whose key equals V. Any other list keeps its distinct
//! keys (merged as `equal` merges them, an equivalence) and how many items have each. Both answer the
//! same number; the nodes charged and the stops are those of building and reading the list of keys.

use super::*;

/// Tile kinds a per-kind tally holds (the codes' kinds below it; others: the list of keys).
const KINDS: usize = 128;

/// How many items of a reading list have each key.
pub(crate) enum Tally {
    /// per kind, how many tiles; the kinds present as bits; the field read of each (None: the tile)
    Kinds(Box<[u32; KINDS]>, u128, Option<usize>),
    /// the distinct keys and how many items have each
    Keys(Vec<(V, i64)>),
    /// charged by the flat form (flat_eval.rs), not built yet: built at the next lookup, uncharged
    Charged,
}

impl<'p, 'r> Eval<'p, 'r> {
    /// `count/any(x in L: x.F == V)` (field: F, None for x itself): a tally of L by F (every item's F
    /// taken) built at the reading's first such comprehension of L and F and kept, then V evaluated
    /// once and looked up; x is never bound.
    pub(super) fn tally(&mut self, func: CompFn, src: &Node, field: Option<usize>, want: &Node) -> R<V> {
        let Node::Builtin(b) = *src else { return self.scan(func, src, field, want) };
        let pos = match self.tallies.iter().position(|t| t.0 == b && t.1 == field) {
            Some(pos) => {
                self.charge()?; // the list, read again
                if let Tally::Charged = self.tallies[pos].2 {
                    // its building was charged where the flat form read it: built now, as it was then
                    let items = match self.ensure_builtin(b)? {
                        v if !v.truthy() => Arc::new(Vec::new()),
                        V::List(l) => l.clone(),
                        _ => return Err(Stop::Bail),
                    };
                    let t = match self.kind_tally(&items, field)? {
                        Some(t) => t,
                        None => self.key_tally(&items, field)?,
                    };
                    self.tallies[pos].2 = t;
                }
                pos
            }
            None => {
                let items = match self.eval(src)? {
                    v if !v.truthy() => Arc::new(Vec::new()), // `L or ()`
                    V::List(l) => l,
                    _ => return Err(Stop::Bail),
                };
                self.charge_n(2 * items.len() as u64)?;
                self.tally_built += 2 * items.len() as u64;
                let t = match self.kind_tally(&items, field)? {
                    Some(t) => t,
                    None => self.key_tally(&items, field)?,
                };
                self.tallies.push((b, field, t));
                self.tallies.len() - 1
            }
        };
        let v = self.eval(want)?;
        let n = match &self.tallies[pos].2 {
            Tally::Charged => return Err(Stop::Bail), // never: built above
            Tally::Keys(t) => t.iter().find(|(y, _)| equal(y, &v)).map_or(0, |e| e.1),
            Tally::Kinds(n, _, None) => match v {
                V::Tile(c) if (kind_of(c) as usize) < KINDS => n[kind_of(c) as usize] as i64,
                _ => 0, // a tile equals tiles alone
            },
            Tally::Kinds(n, present, Some(f)) => {
                let mut total = 0i64;
                let mut bits = *present;
                while bits != 0 {
                    let k = bits.trailing_zeros();
                    bits &= bits - 1;
                    if equal(self.tile_field_ref(k << 2, *f)?, &v) {
                        total += n[k as usize] as i64;
                    }
                }
                total
            }
        };
        Ok(if func == CompFn::Any { V::Bool(n > 0) } else { V::Int(n) })
    }

    /// A list of tiles alone, keyed by themselves or by a field that is a function of the kind: its
    /// count per kind (the same stop as the list of keys where a kind lacks the field or the field is
    /// a list). None: any other list.
    fn kind_tally(&self, items: &[V], field: Option<usize>) -> R<Option<Tally>> {
        if field.is_some_and(|f| f == self.p.f_wild || f == self.p.f_joker) || items.len() > u32::MAX as usize {
            return Ok(None);
        }
        let mut n = Box::new([0u32; KINDS]);
        let mut present = 0u128;
        for x in items {
            match x {
                V::Tile(c) if (kind_of(*c) as usize) < KINDS => {
                    let k = kind_of(*c);
                    n[k as usize] += 1;
                    present |= 1u128 << k;
                }
                _ => return Ok(None),
            }
        }
        if let Some(f) = field {
            let mut bits = present;
            while bits != 0 {
                let k = bits.trailing_zeros();
                bits &= bits - 1;
                if matches!(self.tile_field_ref(k << 2, f)?, V::List(_)) {
                    return Err(Stop::Bail); // a list as a key: the reference's tally may refuse it
                }
            }
        }
        Ok(Some(Tally::Kinds(n, present, field)))
    }

    /// Any list: its distinct keys and how many items have each.
    fn key_tally(&self, items: &[V], field: Option<usize>) -> R<Tally> {
        let mut t: Vec<(V, i64)> = Vec::new();
        for x in items.iter() {
            let k = self.field_ref(x, field)?;
            if matches!(k, V::List(_)) {
                return Err(Stop::Bail); // a list as a key: the reference's tally may refuse it
            }
            match t.iter_mut().find(|(y, _)| equal(k, y)) {
                Some(e) => e.1 += 1,
                None => t.push((k.clone(), 1)),
            }
        }
        Ok(Tally::Keys(t))
    }

    /// `tally` over a list that is not a reading list: scanned each time.
    fn scan(&mut self, func: CompFn, src: &Node, field: Option<usize>, want: &Node) -> R<V> {
        let items = match self.eval(src)? {
            v if !v.truthy() => Arc::new(Vec::new()), // `L or ()`
            V::List(l) => l,
            _ => return Err(Stop::Bail),
        };
        self.charge_n(2 * items.len() as u64)?;
        for x in items.iter() {
            self.field_ref(x, field)?;
        }
        let v = self.eval(want)?;
        let mut n = 0i64;
        for x in items.iter() {
            n += equal(self.field_ref(x, field)?, &v) as i64;
        }
        Ok(if func == CompFn::Any { V::Bool(n > 0) } else { V::Int(n) })
    }
}

/// The item side of a comprehension body `x == V` / `x.F == V` (either way round) over binder slot x:
/// Some(None) for x itself, Some(Some(F)) for a field; None for any other body.
pub(crate) fn eq_item(body: &Node, x: usize) -> Option<Option<usize>> {
    let Node::Compare(ops, operands) = body else { return None };
    if ops.len() != 1 || !matches!(ops[0], Cmp::Eq) {
        return None;
    }
    let item = |e: &Node| match e {
        Node::Binder(i) if *i == x => Some(None),
        Node::Attr(o, f) if matches!(**o, Node::Binder(i) if i == x) => Some(Some(*f)),
        _ => None,
    };
    item(&operands[0]).or_else(|| item(&operands[1]))
}
