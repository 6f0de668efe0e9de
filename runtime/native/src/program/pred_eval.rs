//! Evaluating the compiled conditions (pred.rs) on one reading: the values where they lie, the nodes
//! the tree walk would charge counted as they go and charged at the end of a condition, after every
//! loop item and before every part the walk evaluates (see pred.rs).

use std::borrow::Cow;

use super::*;

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

    fn truthy(&self) -> bool {
        match self {
            Sv::Int(n) => *n != 0,
            Sv::Ref(v) => v.truthy(),
            Sv::Own(v) => v.truthy(),
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
        return match op.ints(*x, *y) {
            Some(t) => Ok(t),
            None => compare(op, &V::Int(*x), &V::Int(*y)),
        };
    }
    compare(op, &a.v(), &b.v())
}

impl Eval<'_, '_> {
    /// A compiled condition's truth, the nodes it charges charged after it (see the module's note).
    #[inline]
    pub(super) fn run_pred(&mut self, p: &Pred) -> R<bool> {
        let mut n = 0u64;
        let got = self.pred(p, &mut n);
        self.charge_n(n)?;
        got
    }

    fn pred(&mut self, p: &Pred, n: &mut u64) -> R<bool> {
        *n += 1;
        match p {
            Pred::Loop(l) => {
                *n -= 1; // counted by run_loop
                Ok(self.run_loop(l, n)?.truthy())
            }
            Pred::And(l, r) => Ok(self.pred(l, n)? && self.pred(r, n)?),
            Pred::Or(l, r) => Ok(self.pred(l, n)? || self.pred(r, n)?),
            Pred::Not(o) => Ok(!self.pred(o, n)?),
            Pred::Walk(e) => {
                // the walk charges its own nodes, from the budget it would have had here
                *n -= 1;
                self.charge_n(*n)?;
                *n = 0;
                self.truth(e)
            }
            Pred::Value(o, m) => {
                *n -= 1; // counted by opd
                self.make_builtins(*m);
                Ok(self.opd(o, n)?.truthy())
            }
            Pred::Cmp(c) if c.loops => {
                self.make_builtins(c.builtins);
                // an operand that is a comprehension: each operand's value made in turn, node by node
                let a = self.owned_opd(&c.a, n)?;
                let b = self.owned_opd(&c.b, n)?;
                compare(c.op, &a, &b)
            }
            Pred::Cmp(c) => {
                self.make_builtins(c.builtins);
                let op = c.op;
                if c.at_once {
                    *n += c.n;
                }
                // whole numbers and values where they lie, in registers; anything else (arithmetic
                // that is not on whole numbers, a function, a stop) computed again in full
                let got = match (self.quick(&c.a), self.quick(&c.b)) {
                    (Q::Int(x), Q::Int(y)) if !matches!(op, Cmp::In | Cmp::NotIn) => Some((Sv::Int(x), Sv::Int(y))),
                    (Q::Ref(x), Q::Ref(y)) => Some((Sv::Ref(x), Sv::Ref(y))),
                    (Q::Int(x), Q::Ref(y)) => Some((Sv::Int(x), Sv::Ref(y))),
                    (Q::Ref(x), Q::Int(y)) => Some((Sv::Ref(x), Sv::Int(y))),
                    _ => None,
                };
                match got {
                    Some((a, b)) => {
                        if !c.at_once {
                            *n += c.n;
                        }
                        compare_sv(op, &a, &b)
                    }
                    None if c.at_once => {
                        let a = self.opd(&c.a, &mut 0)?;
                        let b = self.opd(&c.b, &mut 0)?;
                        compare_sv(op, &a, &b)
                    }
                    None => {
                        let a = self.opd(&c.a, n)?;
                        let b = self.opd(&c.b, n)?;
                        compare_sv(op, &a, &b)
                    }
                }
            }
            Pred::Field(i, f) => Ok(self.field_ref(&self.binders[*i], Some(*f))?.truthy()),
            Pred::Path(i, fs) => {
                *n += fs.len() as u64 - 1;
                Ok(self.path_ref(*i, fs)?.truthy())
            }
            Pred::Binder(i) => Ok(self.binders[*i].truthy()),
            Pred::Const(b) => Ok(*b),
            Pred::Flat(f) => {
                *n -= 1; // counted by the flat form, or by the form it replaces
                match self.flat_cond(f) {
                    Ok((t, k)) => {
                        *n += k;
                        Ok(t)
                    }
                    Err(()) => match &f.orig {
                        Orig::Pred(p) => self.pred(p, n),
                        Orig::Node(e) => {
                            // the walk charges its own nodes, from the budget it would have had here
                            self.charge_n(*n)?;
                            *n = 0;
                            self.truth(e)
                        }
                    },
                }
            }
        }
    }

    /// An operand's value of its own (`Compared::loops`), counted node by node.
    fn owned_opd(&mut self, o: &Opd, n: &mut u64) -> R<V> {
        match o {
            Opd::Loop(l) => self.run_loop(l, n),
            Opd::Walk(e) => {
                self.charge_n(*n)?;
                *n = 0;
                self.eval(e)
            }
            _ => Ok(self.opd(o, n)?.into_v()),
        }
    }

    /// A comprehension's value as eval.rs `comp` makes it: its node and its source's counted, the
    /// items bound in turn, the body's truth per item; the nodes counted so far charged after each
    /// item, so that a long loop stops where the budget runs out, as the walk's does.
    fn run_loop(&mut self, l: &Looped, n: &mut u64) -> R<V> {
        *n += 1; // the comprehension
        if let Some(m) = &l.memo {
            // remembered (memo.rs `memoised`): a value found before charges the nodes it charged then
            if let Some(key) = self.memo_key(m) {
                if let Some((v, cost)) = self.memo_find(m.id, &key) {
                    *n += cost;
                    return Ok(v);
                }
                self.charge_n(*n)?;
                *n = 0;
                let (b0, t0) = (self.budget, self.tally_built);
                let mut k = 0u64;
                let got = self.loop_items(l, &mut k);
                self.charge_n(k)?;
                let v = got?;
                let cost = (b0 - self.budget) - (self.tally_built - t0);
                self.memo_keep(m.id, key, v.clone(), cost);
                return Ok(v);
            }
        }
        self.loop_items(l, n)
    }

    /// A comprehension's source and items (`run_loop`), its own node counted by the caller.
    fn loop_items(&mut self, l: &Looped, n: &mut u64) -> R<V> {
        let (own, len): (Option<Arc<Vec<V>>>, usize) = match &l.src {
            Src::Builtin(b) => {
                *n += 1; // its source
                match self.ensure_builtin(*b)? {
                    v if !v.truthy() => (None, 0), // `src or ()`
                    V::List(x) => (None, x.len()),
                    _ => return Err(Stop::Bail),
                }
            }
            // a binder's list field: taken once, as eval takes the source once
            Src::Field(i, f) => {
                *n += 1;
                match self.field_ref(&self.binders[*i], Some(*f))? {
                    v if !v.truthy() => (None, 0),
                    V::List(x) => (Some(x.clone()), x.len()),
                    _ => return Err(Stop::Bail),
                }
            }
            Src::Const(v) => {
                *n += 1;
                match v {
                    v if !v.truthy() => (None, 0),
                    V::List(x) => (None, x.len()),
                    _ => return Err(Stop::Bail),
                }
            }
            Src::Walk(e) => {
                self.charge_n(*n)?;
                *n = 0;
                match self.eval(e)? {
                    v if !v.truthy() => (None, 0),
                    V::List(x) => {
                        let k = x.len();
                        (Some(x), k)
                    }
                    _ => return Err(Stop::Bail),
                }
            }
        };
        let k = l.slots.len();
        let mut count = 0i64;
        if k == 1 {
            // one binder: the item written in place (a list borrowed beside the binders, not copied)
            let s = l.slots[0];
            macro_rules! each {
                ($list:expr) => {
                    for j in 0..len {
                        let x = match $list {
                            Some(V::List(x)) => x[j].clone(),
                            _ => return Err(Stop::Bail), // never: a list (above)
                        };
                        self.binders[s] = x;
                        let t = self.pred(&l.body, n)?;
                        self.charge_n(*n)?;
                        *n = 0;
                        match (l.func, t) {
                            (CompFn::Any, true) => return Ok(V::Bool(true)),
                            (CompFn::All, false) => return Ok(V::Bool(false)),
                            (CompFn::Count, true) => count += 1,
                            _ => {}
                        }
                    }
                };
            }
            match (&own, &l.src) {
                (Some(x), _) => {
                    let x = V::List(x.clone());
                    each!(Some(&x))
                }
                (None, Src::Builtin(b)) => each!(&self.builtins[*b as usize]),
                (None, Src::Const(c)) => each!(Some(c)),
                _ => {}
            }
        } else if k <= len {
            // the combination's indices, in place (at most 8 binders: lower.rs)
            let mut idx_buf = [0usize; 8];
            let idx = &mut idx_buf[..k];
            for (t, x) in idx.iter_mut().enumerate() {
                *x = t;
            }
            loop {
                for (s, &j) in l.slots.iter().zip(idx.iter()) {
                    self.binders[*s] = self.loop_item(&own, &l.src, j)?;
                }
                let t = self.pred(&l.body, n)?;
                self.charge_n(*n)?;
                *n = 0;
                match (l.func, t) {
                    (CompFn::Any, true) => return Ok(V::Bool(true)),
                    (CompFn::All, false) => return Ok(V::Bool(false)),
                    (CompFn::Count, true) => count += 1,
                    _ => {}
                }
                if !next_combination(idx, len) {
                    break;
                }
            }
        }
        Ok(match l.func {
            CompFn::Any => V::Bool(false),
            CompFn::All => V::Bool(true),
            _ => V::Int(count),
        })
    }

    /// Item j of a loop's items: its own list, a reading list in the builtins' cache, a constant's.
    #[inline(always)]
    fn loop_item(&self, own: &Option<Arc<Vec<V>>>, src: &Src, j: usize) -> R<V> {
        Ok(match (own, src) {
            (Some(x), _) => x[j].clone(),
            (None, Src::Builtin(b)) => match &self.builtins[*b as usize] {
                Some(V::List(x)) => x[j].clone(),
                _ => return Err(Stop::Bail), // never: a list (loop_items)
            },
            (None, Src::Const(V::List(x))) => x[j].clone(),
            _ => return Err(Stop::Bail), // never: an empty one has no items
        })
    }

    /// Every builtin of mask m made (none of them can stop: `plain_builtin`), so that the operands
    /// read them where they lie.
    #[inline]
    pub(super) fn make_builtins(&mut self, m: u32) {
        // the mask's bits in turn, lowest first (`B` order, as ALL_B lists them): most masks name
        // one or two builtins, and a comparison inside a loop asks again for each item
        let mut rest = m;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if let Some(&b) = ALL_B.get(i) {
                if self.builtins[i].is_none() {
                    let _ = self.ensure_builtin(b);
                }
            }
        }
    }

    /// A setting's value, as eval reads `Setting` (a stop where it has none).
    fn setting_ref(&self, i: usize) -> R<&V> {
        match self.r.settings.get(i) {
            Some(Some(v)) => Ok(v),
            _ => Err(Stop::Bail),
        }
    }

    /// A builtin's or setting's fields in turn, where they lie (as eval reads `Attr` of a value).
    fn base_ref<'s>(&'s self, o: &'s Opd) -> R<&'s V> {
        let (mut v, fs) = match o {
            Opd::Builtin(b, fs) => (self.builtins[*b as usize].as_ref().ok_or(Stop::Bail)?, fs),
            Opd::Setting(i, fs) => (self.setting_ref(*i)?, fs),
            _ => return Err(Stop::Bail),
        };
        for &f in fs {
            v = self.field_ref(v, Some(f))?;
        }
        Ok(v)
    }

    /// `x.a.b…` of binder x, where it lies: each field read as eval reads `Attr` of a value (none's
    /// field none; a tile's or group's field; a stop for any other value or a field it lacks).
    fn path_ref(&self, i: usize, fs: &[usize]) -> R<&V> {
        let mut v = &self.binders[i];
        for &f in fs {
            v = self.field_ref(v, Some(f))?;
        }
        Ok(v)
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
            Opd::Path(i, fs) => match self.path_ref(*i, fs) {
                Ok(v) => q(v),
                Err(_) => Q::Slow,
            },
            Opd::Builtin(..) | Opd::Setting(..) => match self.base_ref(o) {
                Ok(v) => q(v),
                Err(_) => Q::Slow,
            },
            Opd::Len(b) => match &self.builtins[*b as usize] {
                Some(V::List(l)) => Q::Int(l.len() as i64),
                _ => Q::Slow,
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

    /// An operand's value, as `sval` computes it (the same order, the same stops), each node counted
    /// into n as `eval` charges it, before its operands.
    fn opd<'s>(&'s self, o: &'s Opd, n: &mut u64) -> R<Sv<'s>> {
        Ok(match o {
            Opd::Int(k) => {
                *n += 1;
                Sv::Int(*k)
            }
            Opd::Const(v) => {
                *n += 1;
                Sv::Ref(v)
            }
            Opd::Binder(i) => {
                *n += 1;
                sv(&self.binders[*i])
            }
            Opd::Field(i, f) => {
                *n += 1;
                sv(self.field_ref(&self.binders[*i], Some(*f))?)
            }
            Opd::Path(i, fs) => {
                *n += fs.len() as u64;
                sv(self.path_ref(*i, fs)?)
            }
            Opd::Arith(op, l, r) => {
                *n += 1;
                let a = self.opd(l, n)?;
                let b = self.opd(r, n)?;
                // whole numbers: arith's own path for them (an overflow a stop there too)
                match (op, &a, &b) {
                    (Op::Add, Sv::Int(x), Sv::Int(y)) => Sv::Int(x.checked_add(*y).ok_or(Stop::Bail)?),
                    (Op::Sub, Sv::Int(x), Sv::Int(y)) => Sv::Int(x.checked_sub(*y).ok_or(Stop::Bail)?),
                    (Op::Mul, Sv::Int(x), Sv::Int(y)) => Sv::Int(x.checked_mul(*y).ok_or(Stop::Bail)?),
                    _ => Sv::Own(arith(*op, &a.v(), &b.v())?),
                }
            }
            Opd::Neg(x) => {
                *n += 1;
                Sv::Own(negate(&self.opd(x, n)?.v())?)
            }
            Opd::Builtin(_, fs) | Opd::Setting(_, fs) => {
                *n += 1 + fs.len() as u64;
                sv(self.base_ref(o)?)
            }
            Opd::Len(b) => {
                *n += 2;
                match &self.builtins[*b as usize] {
                    Some(V::List(l)) => Sv::Int(l.len() as i64),
                    _ => return Err(Stop::Bail), // never: made as a list before
                }
            }
            Opd::Loop(_) | Opd::Walk(_) => return Err(Stop::Bail), // never: `Compared::loops` takes these
            Opd::Call(func, a, b) => {
                *n += 1;
                let a = self.opd(a, n)?.into_v();
                let b = match b {
                    Some(b) => Some(self.opd(b, n)?.into_v()),
                    None => None,
                };
                Sv::Own(apply(*func, a, b)?)
            }
        })
    }
}
