//! The flat form's typed operands (flat.rs): whole numbers, texts and tiles known at load to be such,
//! read from the registers of loops whose items are known to be groups or tiles, compared without a
//! value's class (flat_eval.rs `ix`, `sx`, `tx`).

use super::flat_eval::{farith, Regs, U};
use super::*;

impl FlatCx {
    /// A register of a binder slot with items of class c.
    fn reg_of(&self, e: &Node, c: C) -> Option<usize> {
        let Node::Binder(s) = e else { return None };
        let r = self.regs.iter().position(|x| x == s)?;
        (self.rcls[r] == c).then_some(r)
    }

    /// A field read from a register of class c: (register, field id).
    fn reg_field(&self, e: &Node, c: C) -> Option<(usize, usize)> {
        let Node::Attr(o, f) = e else { return None };
        Some((self.reg_of(o, c)?, *f))
    }

    /// `g.tile.F` of a group register: (register, F).
    fn gtile_field(&self, e: &Node) -> Option<(usize, usize)> {
        let Node::Attr(o, f) = e else { return None };
        let (r, 3) = self.reg_field(o, C::Group)? else { return None };
        Some((r, *f))
    }

    /// `b.F` of one of the reading's single values read as typed operands (a group's: pair, win_group;
    /// the winning tile's): (b, F).
    fn single_field(&self, e: &Node) -> Option<(B, usize)> {
        let Node::Attr(o, f) = e else { return None };
        match **o {
            Node::Builtin(b @ (B::Pair | B::WinGroup | B::WinTile)) => Some((b, *f)),
            _ => None,
        }
    }

    /// An operand reading single value b: the value made for the reading (and a group's columns).
    fn single_read<T>(&mut self, b: B, x: T) -> T {
        self.mask |= 1 << (b as u32);
        self.cols |= b != B::WinTile;
        x
    }

    fn tile_field_is(&self, f: usize, c: C) -> bool {
        self.t.fcls.get(f).copied().flatten() == Some(c)
    }

    /// e as a whole number known at load, with the nodes eval charges for it.
    fn ix(&mut self, e: &Node) -> Option<(Ix, u64)> {
        if let Some((r, f)) = self.reg_field(e, C::Group) {
            return matches!(f, 1 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 15 | 16).then_some((Ix::G(r, f), 1));
        }
        if let Some((r, f)) = self.reg_field(e, C::Tile) {
            return self.tile_field_is(f, C::Num).then_some((Ix::T(r, f), 1));
        }
        if let Some((r, f)) = self.gtile_field(e) {
            return self.tile_field_is(f, C::Num).then_some((Ix::GT(r, f), 2));
        }
        if let Some(r) = self.reg_of(e, C::Num) {
            return Some((Ix::R(r), 1));
        }
        if let Some((B::WinTile, f)) = self.single_field(e) {
            // a number where the reading has a winning tile (where it has none, the flat form gives up)
            return self.tile_field_is(f, C::Num).then(|| self.single_read(B::WinTile, (Ix::BF(B::WinTile, f), 2)));
        }
        Some(match e {
            Node::Const(V::Int(n)) => (Ix::K(*n), 1),
            Node::Const(V::Bool(b)) => (Ix::K(*b as i64), 1),
            Node::Arith(op @ (Op::Add | Op::Sub | Op::Mul | Op::FloorDiv | Op::Mod), l, r) => {
                let ((a, na), (b, nb)) = (self.ix(l)?, self.ix(r)?);
                (Ix::Ar(*op, Box::new(a), Box::new(b)), 1 + na + nb)
            }
            Node::Neg(o) => {
                let (a, n) = self.ix(o)?;
                (Ix::Neg(Box::new(a)), 1 + n)
            }
            Node::Call(Func::Abs, a) if a.len() == 1 => {
                let (a, n) = self.ix(&a[0])?;
                (Ix::Abs(Box::new(a)), 1 + n)
            }
            Node::Call(f @ (Func::Max | Func::Min), a) if a.len() == 2 => {
                let ((x, nx), (y, ny)) = (self.ix(&a[0])?, self.ix(&a[1])?);
                (Ix::MinMax(matches!(f, Func::Max), Box::new(x), Box::new(y)), 1 + nx + ny)
            }
            Node::Call(Func::Len, a) if a.len() == 1 => {
                let Node::Builtin(b) = a[0] else { return None };
                let (m, w) = group_list(b)?;
                self.cols = true;
                (Ix::Len(m, w), 2)
            }
            _ => return None,
        })
    }

    /// e as a text or none known at load.
    fn sx(&mut self, e: &Node) -> Option<(Sx, u64)> {
        if let Some((r, f)) = self.reg_field(e, C::Group) {
            return match f {
                4 => Some((Sx::G(r), 1)),
                0 => {
                    self.t.kinds = true;
                    Some((Sx::GK(r), 1))
                }
                _ => None,
            };
        }
        if let Some((r, f)) = self.reg_field(e, C::Tile) {
            return self.tile_field_is(f, C::Sym).then_some((Sx::T(r, f), 1));
        }
        if let Some((r, f)) = self.gtile_field(e) {
            return self.tile_field_is(f, C::Sym).then_some((Sx::GT(r, f), 2));
        }
        match self.single_field(e) {
            Some((b @ (B::Pair | B::WinGroup), f @ (0 | 4))) => {
                self.t.kinds |= f == 0;
                return Some(self.single_read(b, (Sx::BF(b, f), 2)));
            }
            Some((B::WinTile, f)) => {
                return self.tile_field_is(f, C::Sym).then(|| self.single_read(B::WinTile, (Sx::BF(B::WinTile, f), 2)));
            }
            _ => {}
        }
        match e {
            Node::Const(V::None) => Some((Sx::K(0), 1)),
            Node::Const(V::Str(s)) => Some((Sx::K(intern(&mut self.t.syms, s)), 1)),
            _ => None,
        }
    }

    /// e as a tile known at load (compared by kind).
    fn tx(&mut self, e: &Node) -> Option<(Tx, u64)> {
        if let Some(r) = self.reg_of(e, C::Tile) {
            return Some((Tx::R(r), 1));
        }
        if let Some((r, f)) = self.reg_field(e, C::Group) {
            return (f == 3).then_some((Tx::G(r), 1));
        }
        if let Some((r, f)) = self.reg_field(e, C::Tile) {
            return self.tile_field_is(f, C::Tile).then_some((Tx::T(r, f), 1));
        }
        match e {
            Node::Builtin(B::WinTile) => Some(self.single_read(B::WinTile, (Tx::B(B::WinTile), 1))),
            Node::Const(V::Tile(c)) => Some((Tx::K(kind_of(*c) as i64), 1)),
            _ => None,
        }
    }

    /// A comparison, chain, membership or truth whose operands are all known at load.
    pub(super) fn typed(&mut self, e: &Node) -> Option<Fp> {
        match e {
            Node::Compare(ops, xs) if ops.len() == 1 && xs.len() == 2 => {
                if let (Cmp::In | Cmp::NotIn, Node::Const(V::List(items))) = (ops[0], &xs[1]) {
                    let (a, n) = self.ix(&xs[0])?;
                    // a number equals numbers alone
                    let ks = items.iter().filter_map(|v| v.num().filter(|x| x.1 == 1).map(|x| x.0 as i64)).collect();
                    if items.iter().any(|v| matches!(v, V::Rat(..))) {
                        return None;
                    }
                    return Some(Fp::IIn(matches!(ops[0], Cmp::In), a, ks, 2 + n));
                }
                if matches!(ops[0], Cmp::In | Cmp::NotIn) {
                    return None;
                }
                let eq = matches!(ops[0], Cmp::Eq);
                if let (Some((a, na)), Some((b, nb))) = (self.ix(&xs[0]), self.ix(&xs[1])) {
                    return Some(Fp::ICmp(ops[0], a, b, 1 + na + nb));
                }
                if !matches!(ops[0], Cmp::Eq | Cmp::Ne) {
                    return None;
                }
                if let (Some((a, na)), Some((b, nb))) = (self.sx(&xs[0]), self.sx(&xs[1])) {
                    return Some(Fp::SEq(eq, a, b, 1 + na + nb));
                }
                if let (Some((a, na)), Some((b, nb))) = (self.tx(&xs[0]), self.tx(&xs[1])) {
                    return Some(Fp::TEq(eq, a, b, 1 + na + nb));
                }
                None
            }
            Node::Compare(ops, xs) if ops.len() + 1 == xs.len() && ops.len() > 1 => {
                if ops.iter().any(|o| matches!(o, Cmp::In | Cmp::NotIn)) {
                    return None;
                }
                if let Some(v) = xs.iter().map(|x| self.ix(x)).collect::<Option<Vec<_>>>() {
                    return Some(Fp::IChain(ops.clone(), v));
                }
                if ops.iter().all(|o| matches!(o, Cmp::Eq | Cmp::Ne)) {
                    if let Some(v) = xs.iter().map(|x| self.sx(x)).collect::<Option<Vec<_>>>() {
                        return Some(Fp::SChain(ops.iter().map(|o| matches!(o, Cmp::Eq)).collect(), v));
                    }
                }
                None
            }
            Node::And(..) | Node::Or(..) | Node::Not(_) | Node::Comp { .. } => None,
            _ => {
                let (a, n) = self.ix(e)?;
                Some(Fp::ITruth(a, n))
            }
        }
    }
}

impl Eval<'_, '_> {
    #[inline]
    fn gcol(&self, regs: &Regs, r: usize) -> U<&GCol> {
        self.cols.get(regs[r].x as usize).ok_or(())
    }

    /// A tile register's field f, of a class every kind has (flat.rs `fcls`).
    #[inline]
    fn tcell(&self, code: i64, f: usize) -> U<i64> {
        let t = &self.p.flat;
        if f == t.f_wild {
            return Ok((code >> 1) & 1);
        }
        if f == t.f_joker {
            return Ok(code & 1);
        }
        t.tx.get((code >> 2) as usize * t.n_fields + f).copied().ok_or(())
    }

    /// A typed whole number: its commonest operands (a constant, a group's column) read in place,
    /// the others in `ix_call`.
    #[inline(always)]
    pub(super) fn ix(&self, e: &Ix, regs: &Regs) -> U<i64> {
        match e {
            Ix::K(k) => Ok(*k),
            Ix::G(r, f) => Ok(self.gcol(regs, *r)?.num[*f]),
            _ => self.ix_call(e, regs),
        }
    }

    #[inline(never)]
    fn ix_call(&self, e: &Ix, regs: &Regs) -> U<i64> {
        Ok(match e {
            Ix::K(k) => *k,
            Ix::G(r, f) => self.gcol(regs, *r)?.num[*f],
            Ix::T(r, f) => self.tcell(regs[*r].x, *f)?,
            Ix::GT(r, f) => self.tcell(self.gcol(regs, *r)?.tile, *f)?,
            Ix::R(r) => regs[*r].x,
            Ix::Ar(op, a, b) => farith(*op, num(self.ix(a, regs)?), num(self.ix(b, regs)?))?.x,
            Ix::Neg(a) => self.ix(a, regs)?.checked_neg().ok_or(())?,
            Ix::Abs(a) => self.ix(a, regs)?.checked_abs().ok_or(())?,
            Ix::MinMax(max, a, b) => {
                let (a, b) = (self.ix(a, regs)?, self.ix(b, regs)?);
                if *max {
                    a.max(b)
                } else {
                    a.min(b)
                }
            }
            Ix::BF(b, f) => match self.ffield(self.fbuiltin(*b)?, *f)? {
                Val { c: C::Num, x } => x,
                _ => return Err(()),
            },
            Ix::Len(m, w) => {
                if self.cols_state != 1 {
                    return Err(());
                }
                self.cols.iter().filter(|g| g.flags & m == *w).count() as i64
            }
        })
    }

    #[inline(always)]
    pub(super) fn sx(&self, e: &Sx, regs: &Regs) -> U<i64> {
        Ok(match e {
            Sx::K(k) => *k,
            Sx::G(r) => self.gcol(regs, *r)?.suit,
            Sx::GK(r) => self.gcol(regs, *r)?.kind,
            Sx::T(r, f) => self.tcell(regs[*r].x, *f)?,
            Sx::GT(r, f) => self.tcell(self.gcol(regs, *r)?.tile, *f)?,
            Sx::BF(b, f) => self.single_text(*b, *f)?,
        })
    }

    /// A tile's kind.
    #[inline(always)]
    pub(super) fn tx(&self, e: &Tx, regs: &Regs) -> U<i64> {
        Ok(match e {
            Tx::K(k) => *k,
            Tx::R(r) => regs[*r].x >> 2,
            Tx::G(r) => self.gcol(regs, *r)?.tile >> 2,
            Tx::T(r, f) => self.tcell(regs[*r].x, *f)? >> 2,
            Tx::B(b) => match self.fbuiltin(*b)? {
                Val { c: C::Tile, x } => kind_of(x as u32) as i64,
                Val { c: C::None, .. } => -1,
                _ => return Err(()),
            },
        })
    }

    /// A text field of a reading's single value as `sx` reads texts (0 none, else its id).
    #[inline(never)]
    fn single_text(&self, b: B, f: usize) -> U<i64> {
        match self.ffield(self.fbuiltin(b)?, f)? {
            Val { c: C::Sym, x } => Ok(x),
            Val { c: C::None, .. } => Ok(0),
            _ => Err(()),
        }
    }
}
