//! Evaluating the flat conditions (flat.rs) on one reading: its groups' fields as integer columns,
//! made once per reading, tile fields read from the program's table by kind, binders in registers.
//! Each function answers `Err(())` where the flat form does not decide (see flat.rs): the caller then
//! evaluates the form it replaced, from the start.

use super::*;

pub(super) type U<T> = Result<T, ()>;

/// A group's fields as the flat form reads them (by identity, which is its index in the reading).
#[derive(Clone, Copy)]
pub(crate) struct GCol {
    pub(super) num: [i64; 17], // the whole-number fields by field id (size, rank, start, end, the flags, a whole value, wilds)
    pub(super) suit: i64,      // 0: none, else the text's id
    pub(super) kind: i64,      // its kind's text: its id, or (a text the program does not hold) one below 0
    pub(super) tile: i64,      // its tile's code (a group of no tiles makes the columns unusable)
    pub(super) flags: u16,
    pub(super) ident: i64, // its identity: the index of the group whose fields the walk reads for it
}

pub(super) type Regs = [Val; NREG];

thread_local! {
    /// How many flat evaluations of this thread gave up (the form they replace answered instead): what
    /// the tests read to see the flat form answer the shapes it takes (`flat_gave_up`).
    static GAVE_UP: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The flat evaluations of this thread that gave up so far.
pub(crate) fn flat_gave_up() -> u64 {
    GAVE_UP.with(|g| g.get())
}

impl Eval<'_, '_> {
    /// A flat condition's truth (a value root: its count's or truth's) and the nodes the walk would
    /// have charged for it.
    pub(super) fn flat_cond(&mut self, f: &Flat) -> U<(bool, u64)> {
        self.flat_ready(f);
        let mut regs = [NONE; NREG];
        let mut n = 0u64;
        let b = match &f.root {
            Root::Cond(p) => self.fp(p, &mut regs, &mut n),
            Root::Value(l) => self.floop(l, &mut regs, &mut n).map(|k| k != 0),
            Root::Expr(x) => self.fx(x, &mut regs, &mut n).map(|v| self.ftruthy(v)),
        };
        self.flat_done(b.is_ok());
        Ok((b?, n))
    }

    /// The tallies the evaluation charged kept as charged (it answered) or forgotten (it gave up).
    #[inline]
    fn flat_done(&mut self, answered: bool) {
        if !answered {
            GAVE_UP.with(|g| g.set(g.get() + 1));
        }
        let pending = self.fpending.get_mut();
        if pending.is_empty() {
            return;
        }
        if answered {
            for (b, f, cost) in pending.drain(..) {
                self.tallies.push((b, f, Tally::Charged));
                self.tally_built += cost;
            }
        } else {
            pending.clear();
        }
    }

    /// A flat comprehension's value (`count`: a whole number; `any`/`all`: a truth), and its nodes.
    pub(super) fn flat_value(&mut self, f: &Flat) -> U<(V, u64)> {
        self.flat_ready(f);
        let mut regs = [NONE; NREG];
        let mut n = 0u64;
        let v = match &f.root {
            Root::Cond(p) => self.fp(p, &mut regs, &mut n).map(V::Bool),
            Root::Value(l) => self.floop(l, &mut regs, &mut n).map(|k| if l.func == CompFn::Count { V::Int(k) } else { V::Bool(k != 0) }),
            // a count's value (`Program::build` makes these for counts alone): a number, or the walk's
            Root::Expr(x) => self.fx(x, &mut regs, &mut n).and_then(|v| whole(v).map(V::Int)),
        };
        self.flat_done(v.is_ok());
        Ok((v?, n))
    }

    fn flat_ready(&mut self, f: &Flat) {
        if f.mask != 0 {
            self.make_builtins(f.mask);
        }
        if f.cols && self.cols_state == 0 {
            self.build_cols();
        }
    }

    /// The columns made (now, if they were not) and usable for this reading.
    pub(super) fn cols_usable(&mut self) -> bool {
        if self.cols_state == 0 {
            self.build_cols();
        }
        self.cols_state == 1
    }

    #[inline]
    pub(super) fn col(&self, g: i64) -> U<&GCol> {
        if self.cols_state != 1 {
            return Err(());
        }
        self.cols.get(g as usize).ok_or(())
    }

    /// A reading's value as a flat value (a text by its id where the program knows it).
    pub(super) fn to_val(&self, v: &V) -> U<Val> {
        Ok(match v {
            V::None => NONE,
            V::Bool(b) => num(*b as i64),
            V::Int(n) => num(*n),
            V::Tile(c) => Val { c: C::Tile, x: *c as i64 },
            V::Group(g) => Val { c: C::Group, x: *g as i64 },
            V::Str(s) => Val { c: C::Sym, x: *self.p.flat.syms.get(&**s).ok_or(())? },
            _ => return Err(()),
        })
    }

    /// `x.F` as eval reads it: none's field none, a tile's from its kind (its wildcard bits from its
    /// code), a group's from its columns.
    pub(super) fn ffield(&self, v: Val, f: usize) -> U<Val> {
        let t = &self.p.flat;
        match v.c {
            C::None => Ok(NONE),
            C::Tile => {
                let code = v.x as u32;
                if f == t.f_wild {
                    return Ok(num((code & 2 != 0) as i64));
                }
                if f == t.f_joker {
                    return Ok(num((code & 1) as i64));
                }
                match t.tcols.get(kind_of(code) as usize * t.n_fields + f) {
                    Some(x) if x.c != C::Miss => Ok(*x),
                    _ => Err(()),
                }
            }
            C::Group => {
                let g = self.col(v.x)?;
                Ok(match f {
                    1 | 5..=13 | 15 | 16 => num(g.num[f]),
                    14 if g.flags & G_VALUE != 0 => num(g.num[14]),
                    3 => Val { c: C::Tile, x: g.tile },
                    0 => Val { c: C::Sym, x: g.kind },
                    4 => {
                        if g.suit == 0 {
                            NONE
                        } else {
                            Val { c: C::Sym, x: g.suit }
                        }
                    }
                    _ => return Err(()), // tiles, a value not whole, a tile field: the walk's
                })
            }
            _ => Err(()),
        }
    }

    #[inline]
    pub(super) fn ftruthy(&self, v: Val) -> bool {
        match v.c {
            C::None | C::Miss => false,
            C::Num => v.x != 0,
            C::Sym => v.x != self.p.flat.empty_sym,
            C::Tile | C::Group => true,
        }
    }

    /// `fp` with the typed comparisons (the commonest legs of a chain and bodies of a loop) evaluated
    /// in place: a call of `fp` costs about as much as such a comparison itself.
    #[inline(always)]
    fn fp_leaf(&self, p: &Fp, regs: &mut Regs, n: &mut u64) -> U<bool> {
        match p {
            Fp::ICmp(op, a, b, k) => {
                *n += k;
                let (a, b) = (self.ix(a, regs)?, self.ix(b, regs)?);
                op.ints(a, b).ok_or(())
            }
            Fp::ITruth(a, k) => {
                *n += k;
                Ok(self.ix(a, regs)? != 0)
            }
            Fp::SEq(eq, a, b, k) => {
                *n += k;
                Ok((self.sx(a, regs)? == self.sx(b, regs)?) == *eq)
            }
            _ => self.fp(p, regs, n),
        }
    }

    /// `fp_leaf`, a chain of such legs (a loop's body, most often) evaluated in place too.
    #[inline(always)]
    pub(super) fn fp_fast(&self, p: &Fp, regs: &mut Regs, n: &mut u64) -> U<bool> {
        match p {
            Fp::All(legs) => self.all_legs(legs, regs, n),
            Fp::AnyOf(legs) => self.any_legs(legs, regs, n),
            _ => self.fp_leaf(p, regs, n),
        }
    }

    #[inline(always)]
    fn all_legs(&self, legs: &[(u64, Fp)], regs: &mut Regs, n: &mut u64) -> U<bool> {
        for (pre, p) in legs {
            *n += pre;
            if !self.fp_leaf(p, regs, n)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    #[inline(always)]
    fn any_legs(&self, legs: &[(u64, Fp)], regs: &mut Regs, n: &mut u64) -> U<bool> {
        for (pre, p) in legs {
            *n += pre;
            if self.fp_leaf(p, regs, n)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    pub(super) fn fp(&self, p: &Fp, regs: &mut Regs, n: &mut u64) -> U<bool> {
        match p {
            Fp::ICmp(op, a, b, k) => {
                *n += k;
                let (a, b) = (self.ix(a, regs)?, self.ix(b, regs)?);
                op.ints(a, b).ok_or(())
            }
            Fp::IChain(ops, xs) => {
                *n += 1 + xs[0].1;
                let mut left = self.ix(&xs[0].0, regs)?;
                for (op, (x, k)) in ops.iter().zip(&xs[1..]) {
                    *n += k;
                    let right = self.ix(x, regs)?;
                    if !op.ints(left, right).ok_or(())? {
                        return Ok(false);
                    }
                    left = right;
                }
                Ok(true)
            }
            Fp::IIn(inside, a, ks, k) => {
                *n += k;
                let a = self.ix(a, regs)?;
                Ok(ks.contains(&a) == *inside)
            }
            Fp::ITruth(a, k) => {
                *n += k;
                Ok(self.ix(a, regs)? != 0)
            }
            Fp::SEq(eq, a, b, k) => {
                *n += k;
                Ok((self.sx(a, regs)? == self.sx(b, regs)?) == *eq)
            }
            Fp::SChain(eqs, xs) => {
                *n += 1 + xs[0].1;
                let mut left = self.sx(&xs[0].0, regs)?;
                for (eq, (x, k)) in eqs.iter().zip(&xs[1..]) {
                    *n += k;
                    let right = self.sx(x, regs)?;
                    if (left == right) != *eq {
                        return Ok(false);
                    }
                    left = right;
                }
                Ok(true)
            }
            Fp::TEq(eq, a, b, k) => {
                *n += k;
                Ok((self.tx(a, regs)? == self.tx(b, regs)?) == *eq)
            }
            Fp::All(legs) => self.all_legs(legs, regs, n),
            Fp::AnyOf(legs) => self.any_legs(legs, regs, n),
            Fp::Not(o) => {
                *n += 1;
                Ok(!self.fp_leaf(o, regs, n)?)
            }
            Fp::Cmp(op, a, b) => {
                *n += 1;
                let a = self.fx(a, regs, n)?;
                let b = self.fx(b, regs, n)?;
                fcmp(*op, a, b)
            }
            Fp::Chain(ops, xs) => {
                *n += 1;
                let mut left = self.fx(&xs[0], regs, n)?;
                for (op, x) in ops.iter().zip(&xs[1..]) {
                    let right = self.fx(x, regs, n)?;
                    if !fcmp(*op, left, right)? {
                        return Ok(false);
                    }
                    left = right;
                }
                Ok(true)
            }
            Fp::In(inside, a, items) => {
                *n += 2; // the comparison and the constant list
                let a = self.fx(a, regs, n)?;
                Ok(items.iter().any(|y| feq(a, *y)) == *inside)
            }
            Fp::Truth(x) => {
                let v = self.fx(x, regs, n)?;
                Ok(self.ftruthy(v))
            }
            Fp::Loop(l) => Ok(self.floop(l, regs, n)? != 0),
        }
    }

    pub(super) fn fx(&self, e: &Fx, regs: &mut Regs, n: &mut u64) -> U<Val> {
        Ok(match e {
            Fx::Lit(v) => {
                *n += 1;
                *v
            }
            Fx::Reg(r) => {
                *n += 1;
                regs[*r]
            }
            Fx::Free(s) => {
                *n += 1;
                self.to_val(&self.binders[*s])?
            }
            Fx::BField(o, f) => {
                // one node: the binder's own is not charged (eval.rs `Attr` of a binder)
                let v = self.fx(o, regs, &mut 0)?;
                *n += 1;
                self.ffield(v, *f)?
            }
            Fx::Field(o, f) => {
                *n += 1;
                let v = self.fx(o, regs, n)?;
                self.ffield(v, *f)?
            }
            Fx::Arith(op, a, b) => {
                *n += 1;
                let a = self.fx(a, regs, n)?;
                let b = self.fx(b, regs, n)?;
                farith(*op, a, b)?
            }
            Fx::Neg(o) => {
                *n += 1;
                let v = self.fx(o, regs, n)?;
                num(whole(v)?.checked_neg().ok_or(())?)
            }
            Fx::Abs(o) => {
                *n += 1;
                let v = self.fx(o, regs, n)?;
                num(whole(v)?.checked_abs().ok_or(())?)
            }
            Fx::Floor(o) => {
                *n += 1;
                let v = self.fx(o, regs, n)?;
                num(whole(v)?)
            }
            Fx::MinMax(max, a, b) => {
                *n += 1;
                let a = whole(self.fx(a, regs, n)?)?;
                let b = whole(self.fx(b, regs, n)?)?;
                num(if *max { a.max(b) } else { a.min(b) })
            }
            Fx::Len(b) => {
                *n += 2;
                match group_list(*b) {
                    Some((m, w)) => {
                        if self.cols_state != 1 {
                            return Err(());
                        }
                        num(self.cols.iter().filter(|g| g.flags & m == w).count() as i64)
                    }
                    None => match &self.builtins[*b as usize] {
                        Some(V::List(l)) => num(l.len() as i64),
                        _ => return Err(()),
                    },
                }
            }
            Fx::LenDistinct(b) => {
                *n += 3;
                let Some(V::List(l)) = &self.builtins[*b as usize] else { return Err(()) };
                let mut seen = 0u128;
                for x in l.iter() {
                    match x {
                        V::Tile(c) if kind_of(*c) < 128 => seen |= 1u128 << kind_of(*c),
                        _ => return Err(()),
                    }
                }
                num(seen.count_ones() as i64)
            }
            Fx::Builtin(b) => {
                *n += 1;
                self.fbuiltin(*b)?
            }
            Fx::Setting(i) => {
                *n += 1;
                match self.r.settings.get(*i) {
                    Some(Some(v)) => self.to_val(v)?,
                    _ => return Err(()),
                }
            }
            Fx::Loop(l) => {
                let k = self.floop(l, regs, n)?;
                num(k)
            }
            Fx::Cond(p) => num(self.fp_fast(p, regs, n)? as i64),
            Fx::Tally(t) => self.ftally(t, regs, n)?,
            Fx::If(c, a, b) => {
                *n += 1;
                if self.fp_fast(c, regs, n)? {
                    self.fx(a, regs, n)?
                } else {
                    self.fx(b, regs, n)?
                }
            }
            Fx::Agg(a) => num(self.fagg(a, regs, n)?),
        })
    }


    /// A reading's single value as a flat value.
    #[inline]
    pub(super) fn fbuiltin(&self, b: B) -> U<Val> {
        let i = b as usize;
        match self.fbv[i].get() {
            Some(v) => Ok(v),
            None => {
                // a reading's single value does not change once made: its flat value kept (a text's
                // id looked up once)
                let v = match &self.builtins[i] {
                    Some(v) => self.to_val(v)?,
                    None => return Err(()),
                };
                self.fbv[i].set(Some(v));
                Ok(v)
            }
        }
    }

    /// An item of a list of tiles: a tile of one of the catalog's kinds (below 128), or the flat form
    /// gives up (its tile registers hold such tiles only).
    #[inline]
    pub(super) fn tile_item(&self, x: &V) -> U<Val> {
        match x {
            V::Tile(c) if (kind_of(*c) as usize) < self.p.flat.n_kinds.min(128) => Ok(Val { c: C::Tile, x: *c as i64 }),
            _ => Err(()),
        }
    }
}

/// `equal` on flat values: the same class and number (tiles by kind); none equal to none alone.
#[inline]
pub(super) fn feq(a: Val, b: Val) -> bool {
    a.c == b.c && if a.c == C::Tile { kind_of(a.x as u32) == kind_of(b.x as u32) } else { a.x == b.x }
}

/// `compare` on flat values: orderings of numbers alone (none: false; anything else gives up).
#[inline]
fn fcmp(op: Cmp, a: Val, b: Val) -> U<bool> {
    Ok(match op {
        Cmp::Eq => feq(a, b),
        Cmp::Ne => !feq(a, b),
        Cmp::In | Cmp::NotIn => return Err(()),
        _ => {
            if a.c == C::None || b.c == C::None {
                return Ok(false);
            }
            if a.c != C::Num || b.c != C::Num {
                return Err(());
            }
            match op {
                Cmp::Lt => a.x < b.x,
                Cmp::Le => a.x <= b.x,
                Cmp::Gt => a.x > b.x,
                _ => a.x >= b.x,
            }
        }
    })
}

#[inline]
pub(super) fn whole(v: Val) -> U<i64> {
    if v.c == C::Num {
        Ok(v.x)
    } else {
        Err(())
    }
}

/// Whole-number arithmetic as the reference's (floor division and modulo by the divisor's sign); an
/// overflow or a division by zero gives up.
pub(super) fn farith(op: Op, a: Val, b: Val) -> U<Val> {
    let (x, y) = (whole(a)?, whole(b)?);
    let got = match op {
        Op::Add => x.checked_add(y),
        Op::Sub => x.checked_sub(y),
        Op::Mul => x.checked_mul(y),
        Op::FloorDiv if y != 0 => i64::try_from(floor_div(x as i128, y as i128)).ok(),
        Op::Mod if y != 0 => {
            let r = (x as i128) % (y as i128);
            let r = if r != 0 && ((r < 0) != (y < 0)) { r + y as i128 } else { r };
            i64::try_from(r).ok()
        }
        _ => None,
    };
    got.map(num).ok_or(())
}
