//! The flat form's loops and equality lookups (flat.rs): a comprehension's items from the reading's
//! columns or lists, its binders in registers, its count; a lookup answered from the columns; the
//! loops remembered per reading (memo.rs).

use super::flat_eval::{whole, Regs, U};
use super::*;

/// A flat loop's key's kind in the memo's table (memo.rs `memo_key`'s kinds are 1 to 5).
const FLAT_KEY: u8 = 8;

/// A remembered comprehension's memo id and the registers of its free binders, in the walk's key
/// order (memo.rs `Memo`).
#[derive(Debug)]
pub(crate) struct FMemo {
    pub(super) id: usize,
    pub(super) regs: [u8; MEMO_KEYS],
    pub(super) n: u8,
}

impl FlatCx {
    /// A remembered comprehension's key in registers: where every free binder is an enclosing flat
    /// loop's and no equality lookup is inside (a lookup's nodes depend on whether its tally was
    /// built before; the walk's memo subtracts that building, this one does not count it).
    pub(super) fn fmemo(&self, m: &Memo, e: &Node) -> Option<FMemo> {
        if reads_lookup(e) || m.free.len() > MEMO_KEYS {
            return None;
        }
        let mut regs = [0u8; MEMO_KEYS];
        for (r, s) in regs.iter_mut().zip(&m.free) {
            *r = self.regs.iter().position(|x| x == s)? as u8;
        }
        Some(FMemo { id: m.id, regs, n: m.free.len() as u8 })
    }
}

/// e holds a comprehension with an equality (a lookup, or a comparison after the loop).
fn reads_lookup(e: &Node) -> bool {
    matches!(e, Node::Comp { eq: Some(_), .. }) || children(e).into_iter().any(reads_lookup)
}

impl Eval<'_, '_> {
    /// An equality lookup as lookup.rs `tally` answers it and charges it: the comprehension, the list
    /// (read again, or read and its tally built: two nodes an item), V; the items whose key equals V.
    pub(super) fn ftally(&self, t: &FTally, regs: &mut Regs, n: &mut u64) -> U<Val> {
        *n += 1;
        let groups = group_list(t.b);
        let len = match groups {
            Some((m, w)) => {
                if self.cols_state != 1 {
                    return Err(());
                }
                self.cols.iter().filter(|g| g.flags & m == w).count()
            }
            None => match &self.builtins[t.b as usize] {
                Some(V::List(l)) => l.len(),
                Some(v) if !v.truthy() => 0,
                _ => return Err(()),
            },
        };
        let same = |x: &(B, Option<usize>, _)| x.0 == t.b && x.1 == t.field;
        let built = self.tallies.iter().any(|x| x.0 == t.b && x.1 == t.field) || self.fpending.borrow().iter().any(same);
        if built {
            *n += 1;
        } else {
            *n += 1 + 2 * len as u64;
            self.fpending.borrow_mut().push((t.b, t.field, 2 * len as u64));
        }
        let v = self.fx(&t.want, regs, n)?;
        // every item's key, taken once a reading per list and field (a later lookup of the same list
        // and field compares V with them, without reading the items' fields again)
        let mut keys = self.fkeys.borrow_mut();
        let pos = match keys.iter().position(|k| k.0 == t.b && k.1 == t.field) {
            Some(pos) => pos,
            None => {
                let got = self.flat_keys(t.b, t.field);
                keys.push((t.b, t.field, got));
                keys.len() - 1
            }
        };
        let Ok(ks) = &keys[pos].2 else { return Err(()) };
        let mut count = 0i64;
        if v.c == C::Tile {
            let want = kind_of(v.x as u32);
            for k in ks.iter() {
                count += (k.c == C::Tile && kind_of(k.x as u32) == want) as i64;
            }
        } else {
            for k in ks.iter() {
                count += (k.c == v.c && k.x == v.x) as i64;
            }
        }
        Ok(num(if t.any { (count > 0) as i64 } else { count }))
    }

    /// The keys of a reading list's items for an equality lookup (the item itself, or its field f),
    /// in order; Err where an item's key is not a flat value (the lookup gives up, as its scan would).
    fn flat_keys(&self, b: B, field: Option<usize>) -> U<Vec<Val>> {
        let mut out = Vec::new();
        match group_list(b) {
            Some((m, w)) => {
                for g in self.cols.iter() {
                    if g.flags & m != w {
                        continue;
                    }
                    let item = Val { c: C::Group, x: g.ident };
                    out.push(match field {
                        None => item,
                        Some(f) => self.ffield(item, f)?,
                    });
                }
            }
            None => {
                if let Some(V::List(l)) = &self.builtins[b as usize] {
                    out.reserve(l.len());
                    for x in l.iter() {
                        let item = self.tile_item(x)?;
                        out.push(match field {
                            None => item,
                            Some(f) => self.ffield(item, f)?,
                        });
                    }
                }
            }
        }
        Ok(out)
    }

    /// A comprehension's items, its source's nodes counted; how many.
    pub(super) fn fitems(&self, src: &FSrc, regs: &mut Regs, n: &mut u64, out: &mut [Val; NITEMS]) -> U<usize> {
        let mut len = 0usize;
        let mut push = |v: Val| -> U<()> {
            *out.get_mut(len).ok_or(())? = v;
            len += 1;
            Ok(())
        };
        match src {
            FSrc::Groups(m, w) => {
                *n += 1;
                if self.cols_state != 1 {
                    return Err(());
                }
                for g in self.cols.iter() {
                    if g.flags & m == *w {
                        push(Val { c: C::Group, x: g.ident })?;
                    }
                }
            }
            FSrc::List(b) => {
                *n += 1;
                let tiles = matches!(b, B::Tiles | B::Hand);
                match &self.builtins[*b as usize] {
                    Some(V::List(l)) => {
                        for x in l.iter() {
                            if tiles {
                                push(self.tile_item(x)?)?;
                            } else {
                                push(self.to_val(x)?)?;
                            }
                        }
                    }
                    Some(v) if !v.truthy() => {}
                    _ => return Err(()),
                }
            }
            FSrc::Distinct(b) => {
                *n += 2;
                let Some(V::List(l)) = &self.builtins[*b as usize] else { return Err(()) };
                let mut seen = 0u128;
                for x in l.iter() {
                    let t = self.tile_item(x)?;
                    let bit = 1u128 << kind_of(t.x as u32);
                    if seen & bit == 0 {
                        seen |= bit;
                        push(t)?;
                    }
                }
            }
            FSrc::GTiles(o) => {
                *n += 1;
                let v = self.fx(o, regs, &mut 0)?;
                match v.c {
                    C::None => {} // none's field is none: no items
                    C::Group => {
                        self.col(v.x)?;
                        for x in self.r.groups[v.x as usize].tiles.iter() {
                            push(self.tile_item(x)?)?;
                        }
                    }
                    _ => return Err(()),
                }
            }
            FSrc::Const(vals) => {
                *n += 1;
                for v in vals {
                    push(*v)?;
                }
            }
        }
        Ok(len)
    }

    /// A flat comprehension: `count` its count, `any`/`all` 1 or 0.
    pub(super) fn floop(&self, l: &FLoop, regs: &mut Regs, n: &mut u64) -> U<i64> {
        *n += 1; // the comprehension
        match &l.memo {
            Some(m) => self.fmemo(m, regs, n, |regs, n| self.floop_items(l, regs, n)),
            None => self.floop_items(l, regs, n),
        }
    }

    /// A remembered flat comprehension (memo.rs; flat.rs `FMemo`): its answer for these registers'
    /// values when found before in this reading, the nodes that evaluation charged charged again;
    /// else evaluated (`run`, its own node counted before) and kept. In the walk's table under a key
    /// of its own: the registers' classes and numbers packed in one word (`FLAT_KEY` first, a kind no
    /// walk key has, so the walk's entries and these never meet); registers that do not pack are
    /// evaluated, not kept.
    #[inline(never)]
    fn fmemo(&self, m: &FMemo, regs: &mut Regs, n: &mut u64, run: impl FnOnce(&mut Regs, &mut u64) -> U<i64>) -> U<i64> {
        let mut packed = 0i64;
        for &r in &m.regs[..m.n as usize] {
            let v = regs[r as usize];
            if !(0..1 << 13).contains(&v.x) || v.c == C::Miss {
                return run(regs, n);
            }
            packed = packed << 16 | (v.c as i64) << 13 | v.x;
        }
        let want = (FLAT_KEY, packed);
        let mut memo = self.memo.borrow_mut();
        if memo.len() != self.p.n_memo {
            *memo = (0..self.p.n_memo).map(|_| Vec::new()).collect();
        }
        if let Some((_, v, cost)) = memo[m.id].iter().find(|x| x.0[0] == want) {
            let V::Int(k) = v else { return Err(()) };
            *n += cost;
            if *n > self.budget {
                return Err(()); // the walk, from the start, stops where the budget runs out
            }
            return Ok(*k);
        }
        drop(memo);
        let n0 = *n;
        let k = run(regs, n)?;
        let mut key: MemoKey = [(0, 0); MEMO_KEYS];
        key[0] = want;
        self.memo.borrow_mut()[m.id].push((key, V::Int(k), *n - n0));
        Ok(k)
    }

    /// A flat comprehension's source and items (`floop`), its own node counted.
    fn floop_items(&self, l: &FLoop, regs: &mut Regs, n: &mut u64) -> U<i64> {
        let (any, all) = (l.func == CompFn::Any, l.func == CompFn::All);
        let mut count = 0i64;
        let k = l.regs.len();
        if let (FSrc::Groups(m, w), 1) = (&l.src, k) {
            // one binder over a reading's groups: the columns read in place
            *n += 1;
            if self.cols_state != 1 {
                return Err(());
            }
            let r = l.regs[0];
            for g in self.cols.iter() {
                if g.flags & m != *w {
                    continue;
                }
                regs[r] = Val { c: C::Group, x: g.ident };
                let t = self.fp_fast(&l.body, regs, n)?;
                if *n > self.budget {
                    return Err(());
                }
                if let Some(decided) = fold(t, any, all, &mut count) {
                    return Ok(decided);
                }
            }
            return Ok(finished(any, all, count));
        }
        let mut items = [NONE; NITEMS];
        let len = self.fitems(&l.src, regs, n, &mut items)?;
        if k == 1 {
            let r = l.regs[0];
            for &it in &items[..len] {
                regs[r] = it;
                let t = self.fp_fast(&l.body, regs, n)?;
                if *n > self.budget {
                    return Err(()); // past the budget: the walk stops there (and the flat form's work stays bounded)
                }
                if let Some(decided) = fold(t, any, all, &mut count) {
                    return Ok(decided);
                }
            }
        } else if k <= len {
            let mut idx_buf = [0usize; 8];
            let idx = &mut idx_buf[..k];
            for (t, x) in idx.iter_mut().enumerate() {
                *x = t;
            }
            loop {
                for (&r, &j) in l.regs.iter().zip(idx.iter()) {
                    regs[r] = items[j];
                }
                let t = self.fp_fast(&l.body, regs, n)?;
                if *n > self.budget {
                    return Err(());
                }
                if let Some(decided) = fold(t, any, all, &mut count) {
                    return Ok(decided);
                }
                if !next_combination(idx, len) {
                    break;
                }
            }
        }
        Ok(finished(any, all, count))
    }
}

impl Eval<'_, '_> {
    /// A flat `sum`/`max`/`min` (eval.rs `comp`): its node, its source's, the body's per combination;
    /// whole numbers alone (a truth is one: `True + 1` is 2 there too), 0 where it has no items.
    pub(super) fn fagg(&self, a: &FAgg, regs: &mut Regs, n: &mut u64) -> U<i64> {
        *n += 1; // the comprehension
        match &a.memo {
            Some(m) => self.fmemo(m, regs, n, |regs, n| self.fagg_items(a, regs, n)),
            None => self.fagg_items(a, regs, n),
        }
    }

    /// A flat `sum`/`max`/`min`'s source and items (`fagg`), its own node counted.
    fn fagg_items(&self, a: &FAgg, regs: &mut Regs, n: &mut u64) -> U<i64> {
        let mut items = [NONE; NITEMS];
        let len = self.fitems(&a.src, regs, n, &mut items)?;
        let k = a.regs.len();
        let mut acc: Option<i64> = (a.func == CompFn::Sum).then_some(0);
        if k <= len {
            let mut idx_buf = [0usize; 8];
            let idx = &mut idx_buf[..k];
            for (t, x) in idx.iter_mut().enumerate() {
                *x = t;
            }
            loop {
                for (&r, &j) in a.regs.iter().zip(idx.iter()) {
                    regs[r] = items[j];
                }
                let v = whole(self.fx(&a.body, regs, n)?)?;
                if *n > self.budget {
                    return Err(());
                }
                acc = Some(match (acc, a.func) {
                    (None, _) => v,
                    // the reference's sum stops past i64 (and at its least value: its magnitude is past it)
                    (Some(t), CompFn::Sum) => t.checked_add(v).filter(|s| *s != i64::MIN).ok_or(())?,
                    (Some(t), CompFn::Max) => t.max(v),
                    (Some(t), _) => t.min(v),
                });
                if !next_combination(idx, len) {
                    break;
                }
            }
        }
        Ok(acc.unwrap_or(0))
    }
}

/// One item's truth folded into a comprehension's answer: the answer once `any` or `all` is decided by it.
#[inline(always)]
fn fold(t: bool, any: bool, all: bool, count: &mut i64) -> Option<i64> {
    if t && any {
        return Some(1);
    }
    if !t && all {
        return Some(0);
    }
    *count += t as i64;
    None
}

/// A comprehension's answer after every item: `any` found none, `all` found no false one, else the count.
#[inline(always)]
fn finished(any: bool, all: bool, count: i64) -> i64 {
    if any {
        0
    } else if all {
        1
    } else {
        count
    }
}
