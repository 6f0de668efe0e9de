//! Flat conditions: the hot shapes of the pattern programs lowered once, at load, to a form that
//! evaluates over small integer values and per-reading integer columns (flat_eval.rs) instead of the
//! tree walk's `V` values.
//!
//! A condition or comprehension compiles here when every part of it is one of: `and`/`or`/`not`,
//! single and chained comparisons, `x in [constants]`, constants that are whole numbers, truths,
//! none, texts or tiles, binders, fields of binders and of fields, `+ - * // %`, `-`, `abs`, `floor`,
//! `max`/`min` of two, `len` of a reading list, `len(distinct(tiles))`, the reading's single values
//! (`pair`, `win_tile`, `win_group`, `form`, `self_drawn`, `menqing`) and settings, and `count`/`any`/
//! `all` of one or more binders over a reading list, `distinct` of its tiles, a group's tiles or a
//! constant list. Anything else (a tally, `if`, `sum`, a pattern, a quantity, the waits, a fraction)
//! leaves the expression to the compiled conditions and the walk (pred.rs, eval.rs), as before.
//!
//! Every value is a class and a number (`Val`): none; a number (whole numbers and truths, as the
//! reference compares them, `True == 1`); a text by its interned id (equal texts, equal ids); a tile by
//! its code (equal by kind); a group by its identity. What the reference would refuse, or what this
//! form does not decide (an ordering of texts, an overflow, a field a kind lacks, a value of another
//! kind) makes the evaluation give up (`Err(())`) and the condition as compiled before is evaluated
//! instead, from the start: the flat form has no effect until it answers. It answers with the nodes the
//! walk would have charged, counted as it goes (the same sum per node as eval.rs charges), charged at
//! once.
//!
//! A flat loop does not write the reading's binders (`Eval::binders`): only in a program where every
//! binder is read inside a comprehension binding it (memo.rs `all_scoped`), so no later read can see
//! what the walk would have left in a binder.

use super::flat_loops::FMemo;
use super::*;

/// A value's class (as wide as the number beside it: a value has no padding, so a list of them is
/// filled as plain words).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u64)]
pub(crate) enum C {
    None,
    Num,
    Sym,
    Tile,
    Group,
    /// a tile field this kind lacks (a table cell only: reading it gives up)
    Miss,
}

/// A value: its class and number (none: 0; a text: its id; a tile: its code; a group: its identity).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Val {
    pub(super) c: C,
    pub(super) x: i64,
}

pub(super) const NONE: Val = Val { c: C::None, x: 0 };

pub(super) fn num(x: i64) -> Val {
    Val { c: C::Num, x }
}

/// At most this many binders bound by the loops of one flat expression (registers).
pub(super) const NREG: usize = 12;
/// At most this many items a flat loop takes (more: it gives up).
pub(super) const NITEMS: usize = 32;

/// A flat expression (a value). Each evaluates with the nodes eval.rs charges for its node.
#[derive(Debug)]
pub(crate) enum Fx {
    Lit(Val),
    /// a binder bound by an enclosing flat loop: its register
    Reg(usize),
    /// a binder bound outside the flat expression: read from the reading's binders
    Free(usize),
    /// a field of a binder (one node)
    BField(Box<Fx>, usize),
    /// a field of any other value (one node and the value's)
    Field(Box<Fx>, usize),
    Arith(Op, Box<Fx>, Box<Fx>),
    Neg(Box<Fx>),
    Abs(Box<Fx>),
    Floor(Box<Fx>),
    MinMax(bool, Box<Fx>, Box<Fx>),
    /// `len` of a reading list (two nodes)
    Len(B),
    /// `len(distinct(b))` of a reading's tile list (three nodes)
    LenDistinct(B),
    /// a reading's single value
    Builtin(B),
    Setting(usize),
    Loop(Box<FLoop>),
    /// a condition's truth as a value
    Cond(Box<Fp>),
    /// `count/any(x in L: x.F == V)` over a reading list, as lookup.rs answers it from a tally
    Tally(Box<FTally>),
    /// `if c then a else b` (one node, the condition's, the branch taken's)
    If(Box<Fp>, Box<Fx>, Box<Fx>),
    /// `sum`, `max` or `min` of whole numbers over a comprehension's items
    Agg(Box<FAgg>),
}

/// `sum`, `max` or `min` of binders (their registers) over a source, a flat value as the body: whole
/// numbers alone (anything else gives up), an empty one 0, as eval.rs `finish` makes it.
#[derive(Debug)]
pub(crate) struct FAgg {
    pub(super) func: CompFn,
    pub(super) regs: Vec<usize>,
    pub(super) src: FSrc,
    pub(super) body: Fx,
    pub(super) memo: Option<FMemo>,
}

/// An equality lookup (lookup.rs): the list (a reading's groups or tiles list), the field compared
/// (None: the item), its class, V.
#[derive(Debug)]
pub(crate) struct FTally {
    pub(super) any: bool,
    pub(super) b: B,
    pub(super) field: Option<usize>,
    pub(super) want: Fx,
}

/// A whole number known to be one at load (`Ix`), a text or none (`Sx`: 0 none, else the text's id),
/// a tile's kind (`Tx`): read from the registers of loops whose items are known to be groups or tiles,
/// without a value's class. `G`: a group register's field; `T`: a tile register's field (every kind
/// has it, of that class); `GT`: a field of a group register's tile; `R`: a register of numbers.
#[derive(Debug)]
pub(crate) enum Ix {
    K(i64),
    G(usize, usize),
    T(usize, usize),
    GT(usize, usize),
    R(usize),
    Ar(Op, Box<Ix>, Box<Ix>),
    Neg(Box<Ix>),
    Abs(Box<Ix>),
    MinMax(bool, Box<Ix>, Box<Ix>),
    Len(u16, u16),
    /// a whole-number field of the reading's winning tile (`win_tile`)
    BF(B, usize),
}

#[derive(Debug)]
pub(crate) enum Sx {
    K(i64),
    G(usize),
    /// a group register's kind (a meld's name)
    GK(usize),
    T(usize, usize),
    GT(usize, usize),
    /// a text field of one of the reading's single values (`pair.suit`, `win_tile.suit`), none's none
    BF(B, usize),
}

#[derive(Debug)]
pub(crate) enum Tx {
    K(i64),
    R(usize),
    G(usize),
    T(usize, usize),
    /// the reading's winning tile (none: a kind no tile has)
    B(B),
}

/// A flat condition.
#[derive(Debug)]
pub(crate) enum Fp {
    /// typed comparisons, their nodes known at load (the operands' and the comparison's)
    ICmp(Cmp, Ix, Ix, u64),
    IChain(Vec<Cmp>, Vec<(Ix, u64)>),
    IIn(bool, Ix, Vec<i64>, u64),
    ITruth(Ix, u64),
    /// `==` (true) or `!=` of texts or none; a chain of them
    SEq(bool, Sx, Sx, u64),
    SChain(Vec<bool>, Vec<(Sx, u64)>),
    TEq(bool, Tx, Tx, u64),
    /// a chain of `and` (`All`) or of `or` (`AnyOf`), however nested, as one list of legs in order:
    /// each leg with the connectives' nodes first charged right before it (those whose left-most
    /// leg it is), so that the legs evaluated until the answer charge what the nested walk charges
    All(Vec<(u64, Fp)>),
    AnyOf(Vec<(u64, Fp)>),
    Not(Box<Fp>),
    Cmp(Cmp, Box<Fx>, Box<Fx>),
    Chain(Vec<Cmp>, Vec<Fx>),
    /// `x in [constants]` (true) or `not in` (false)
    In(bool, Box<Fx>, Vec<Val>),
    Truth(Box<Fx>),
    Loop(Box<FLoop>),
}

/// `count`, `any` or `all` of binders (their registers) over a source, a flat body; remembered per
/// reading where the walk's comprehension is (memo.rs).
#[derive(Debug)]
pub(crate) struct FLoop {
    pub(super) func: CompFn,
    pub(super) regs: Vec<usize>,
    pub(super) src: FSrc,
    pub(super) body: Fp,
    pub(super) memo: Option<FMemo>,
}


#[derive(Debug)]
pub(crate) enum FSrc {
    /// a reading's list of groups: the groups whose flags under the mask are `want` (one node)
    Groups(u16, u16),
    /// a reading's other list (tiles, hand, flowers, suits), its items converted (one node)
    List(B),
    /// `distinct` of a reading's tile list (two nodes)
    Distinct(B),
    /// a group binder's tiles (one node)
    GTiles(Box<Fx>),
    Const(Vec<Val>),
}

/// Group flags (flat_eval.rs `GCol`).
pub(super) const G_RUN: u16 = 1;
pub(super) const G_TRIPLET: u16 = 2;
pub(super) const G_KONG: u16 = 4;
pub(super) const G_PAIR: u16 = 8;
pub(super) const G_EXPOSED: u16 = 16;
pub(super) const G_CONCEALED: u16 = 32;
pub(super) const G_HAS_WIN: u16 = 64;
/// its value a whole number (`value` read from the columns; any other value is the walk's)
pub(super) const G_VALUE: u16 = 128;

/// A compiled condition or comprehension with what it reads, and the form it replaces (evaluated
/// where the flat form gives up).
#[derive(Debug)]
pub(crate) struct Flat {
    pub(super) root: Root,
    pub(super) mask: u32, // the builtins it reads as lists or values (made before it runs)
    pub(super) cols: bool, // it may read the reading's group columns
    pub(super) orig: Orig,
}

#[derive(Debug)]
pub(crate) enum Root {
    Cond(Fp),
    Value(FLoop),
    /// a pattern's count of another shape (arithmetic, `if`, …): a whole number where it answers
    Expr(Fx),
}

#[derive(Debug)]
pub(crate) enum Orig {
    Pred(Pred),
    Node(Node),
}

/// What a flat evaluation reads of the program: tile fields per kind and field, interned texts.
#[derive(Default)]
pub(crate) struct FlatTables {
    pub(super) n_fields: usize,
    pub(super) n_kinds: usize,
    pub(super) tcols: Vec<Val>, // kind * n_fields + field
    pub(super) tx: Vec<i64>,    // the same cells' numbers
    pub(super) fcls: Vec<Option<C>>, // per field: the class every kind's cell has (None: not one class)
    pub(super) kind_suit: Vec<Val>,
    pub(super) syms: crate::hash::Map<String, i64>, // a fast keyed hash: looked up per group a reading
    pub(super) empty_sym: i64,
    pub(super) on: bool, // the program allows flat loops (every binder scoped)
    pub(super) f_wild: usize,
    pub(super) f_joker: usize,
    pub(super) kinds: bool, // some flat form may read a group's kind (its text looked up per reading)
}

/// The compilation's state: the tables being made, the registers of the enclosing flat loops.
pub(crate) struct FlatCx {
    pub(crate) t: FlatTables,
    pub(super) regs: Vec<usize>, // binder slot per register
    pub(super) rcls: Vec<C>,     // what its items are known to be (C::Miss: not known)
    pub(super) mask: u32,
    pub(super) cols: bool,
    /// while above 0, nothing compiles flat (the form a flat one replaces is being compiled)
    pub(crate) off: u32,
}

impl FlatCx {
    pub(crate) fn new(p: &Program, on: bool) -> FlatCx {
        let mut t = FlatTables { n_fields: p.fields.len(), on, f_wild: p.f_wild, f_joker: p.f_joker, ..Default::default() };
        t.empty_sym = intern(&mut t.syms, "");
        t.kind_suit = p.kind_suit.iter().map(|s| s.as_ref().map_or(NONE, |s| Val { c: C::Sym, x: intern(&mut t.syms, s) })).collect();
        for row in &p.tile_fields {
            for f in 0..t.n_fields {
                let v = match row.get(f).and_then(Option::as_ref) {
                    Some(v) => const_val(&mut t.syms, v).unwrap_or(Val { c: C::Miss, x: 0 }),
                    None => Val { c: C::Miss, x: 0 },
                };
                t.tcols.push(v);
            }
        }
        t.n_kinds = p.tile_fields.len();
        t.tx = t.tcols.iter().map(|v| v.x).collect();
        for f in 0..t.n_fields {
            let mut cls = (0..t.n_kinds).map(|k| t.tcols[k * t.n_fields + f].c);
            let first = cls.next();
            let one = match first {
                Some(c) if c != C::Miss && cls.all(|d| d == c || (c == C::Sym && d == C::None)) => Some(c),
                Some(C::None) if (0..t.n_kinds).all(|k| matches!(t.tcols[k * t.n_fields + f].c, C::None | C::Sym)) => Some(C::Sym),
                _ => None,
            };
            t.fcls.push(if f == p.f_wild || f == p.f_joker { Some(C::Num) } else { one });
        }
        FlatCx { t, regs: Vec::new(), rcls: Vec::new(), mask: 0, cols: false, off: 0 }
    }

    /// A new flat form begun (its registers, mask and columns flag emptied); false where none is made
    /// (the flat form off for this rule set, or inside a part it does not take).
    fn begin(&mut self) -> bool {
        if !self.t.on || self.off > 0 {
            return false;
        }
        self.regs.clear();
        self.rcls.clear();
        self.mask = 0;
        self.cols = false;
        true
    }

    /// e in a truth's place, flat; None where a part does not compile.
    pub(crate) fn cond(&mut self, e: &Node) -> Option<Flat> {
        if !self.begin() {
            return None;
        }
        let p = self.fp(e)?;
        Some(Flat { root: Root::Cond(p), mask: self.mask, cols: self.cols, orig: Orig::Node(Node::Const(V::None)) })
    }

    /// A `count`/`any`/`all` comprehension in a value's place, flat.
    pub(crate) fn value(&mut self, e: &Node) -> Option<Flat> {
        if !self.begin() {
            return None;
        }
        let l = self.floop(e)?;
        Some(Flat { root: Root::Value(l), mask: self.mask, cols: self.cols, orig: Orig::Node(Node::Const(V::None)) })
    }

    /// A pattern's count that is neither a condition nor a comprehension, flat (its value is read as
    /// `int()` reads it: a truth as 0 or 1, so the flat form's numbers need not tell them apart).
    pub(crate) fn expr(&mut self, e: &Node) -> Option<Flat> {
        if !self.begin() {
            return None;
        }
        let x = self.fx(e)?;
        Some(Flat { root: Root::Expr(x), mask: self.mask, cols: self.cols, orig: Orig::Node(Node::Const(V::None)) })
    }

    fn fp(&mut self, e: &Node) -> Option<Fp> {
        if let Some(p) = self.typed(e) {
            return Some(p);
        }
        Some(match e {
            Node::And(..) => {
                let mut legs = Vec::new();
                self.legs(e, true, 0, &mut legs)?;
                Fp::All(legs)
            }
            Node::Or(..) => {
                let mut legs = Vec::new();
                self.legs(e, false, 0, &mut legs)?;
                Fp::AnyOf(legs)
            }
            Node::Not(o) => Fp::Not(Box::new(self.fp(o)?)),
            Node::Compare(ops, xs) if ops.len() == 1 && xs.len() == 2 => match (ops[0], &xs[1]) {
                (Cmp::In | Cmp::NotIn, Node::Const(V::List(items))) => {
                    let vals = items.iter().map(|v| const_val(&mut self.t.syms, v)).collect::<Option<Vec<_>>>()?;
                    Fp::In(matches!(ops[0], Cmp::In), Box::new(self.fx(&xs[0])?), vals)
                }
                (Cmp::In | Cmp::NotIn, _) => return None,
                (op, _) => Fp::Cmp(op, Box::new(self.fx(&xs[0])?), Box::new(self.fx(&xs[1])?)),
            },
            Node::Compare(ops, xs) if ops.len() + 1 == xs.len() => {
                if ops.iter().any(|o| matches!(o, Cmp::In | Cmp::NotIn)) {
                    return None;
                }
                Fp::Chain(ops.clone(), xs.iter().map(|x| self.fx(x)).collect::<Option<Vec<_>>>()?)
            }
            Node::Comp { func: CompFn::Any | CompFn::All, eq: None, .. } => Fp::Loop(Box::new(self.floop(e)?)),
            _ => Fp::Truth(Box::new(self.fx(e)?)),
        })
    }

    /// The legs of a chain of `and` (and: true) or `or`, in order: a connective of the chain charges
    /// its node when entered, right before its left leg (pre: the nodes charged before this leg).
    fn legs(&mut self, e: &Node, and: bool, pre: u64, out: &mut Vec<(u64, Fp)>) -> Option<()> {
        match (e, and) {
            (Node::And(l, r), true) | (Node::Or(l, r), false) => {
                self.legs(l, and, pre + 1, out)?;
                self.legs(r, and, 0, out)
            }
            _ => {
                out.push((pre, self.fp(e)?));
                Some(())
            }
        }
    }

    fn binder(&self, s: usize) -> Fx {
        match self.regs.iter().position(|&r| r == s) {
            Some(r) => Fx::Reg(r),
            None => Fx::Free(s),
        }
    }

    fn fx(&mut self, e: &Node) -> Option<Fx> {
        Some(match e {
            Node::Const(v) => Fx::Lit(const_val(&mut self.t.syms, v)?),
            Node::Binder(s) => self.binder(*s),
            Node::Attr(o, f) => {
                self.cols = true;
                // a kind read of what may be a group (not a tile register's): the groups' kinds looked up
                let tile_reg = matches!(&**o, Node::Binder(s) if self.regs.iter().position(|x| x == s).is_some_and(|r| self.rcls[r] == C::Tile));
                self.t.kinds |= *f == 0 && !tile_reg;
                match &**o {
                    Node::Binder(s) => Fx::BField(Box::new(self.binder(*s)), *f),
                    _ => Fx::Field(Box::new(self.fx(o)?), *f),
                }
            }
            Node::Arith(op @ (Op::Add | Op::Sub | Op::Mul | Op::FloorDiv | Op::Mod), l, r) => {
                Fx::Arith(*op, Box::new(self.fx(l)?), Box::new(self.fx(r)?))
            }
            Node::Neg(o) => Fx::Neg(Box::new(self.fx(o)?)),
            Node::Call(Func::Abs, a) if a.len() == 1 => Fx::Abs(Box::new(self.fx(&a[0])?)),
            Node::Call(Func::Floor, a) if a.len() == 1 => Fx::Floor(Box::new(self.fx(&a[0])?)),
            Node::Call(f @ (Func::Max | Func::Min), a) if a.len() == 2 => {
                Fx::MinMax(matches!(f, Func::Max), Box::new(self.fx(&a[0])?), Box::new(self.fx(&a[1])?))
            }
            Node::Call(Func::Len, a) if a.len() == 1 => match &a[0] {
                Node::Builtin(b) if group_list(*b).is_some() => {
                    self.cols = true;
                    Fx::Len(*b)
                }
                Node::Builtin(b @ (B::Tiles | B::Hand | B::Flowers | B::Suits)) => {
                    self.mask |= 1 << (*b as u32);
                    Fx::Len(*b)
                }
                Node::Call(Func::Distinct, d) if d.len() == 1 && matches!(d[0], Node::Builtin(B::Tiles | B::Hand)) => {
                    let Node::Builtin(b) = d[0] else { return None };
                    self.mask |= 1 << (b as u32);
                    Fx::LenDistinct(b)
                }
                _ => return None,
            },
            Node::Builtin(b @ (B::Pair | B::WinTile | B::WinGroup | B::Form | B::SelfDrawn | B::Menqing)) => {
                self.mask |= 1 << (*b as u32);
                Fx::Builtin(*b)
            }
            Node::Setting(i) => Fx::Setting(*i),
            Node::Comp { eq: Some(want), func, slots, src, body, .. } => {
                let Node::Builtin(b) = **src else { return None };
                let field = eq_item(body, *slots.first()?)?;
                if slots.len() != 1 || !matches!(func, CompFn::Count | CompFn::Any) {
                    return None;
                }
                // the key's class: a typed group field or the group itself; a tile field every kind
                // has in one class, or the tile itself
                // (the class itself is not kept: the keys are read as values)
                let _key = if group_list(b).is_some() {
                    self.cols = true;
                    match field {
                        None => C::Group,
                        Some(1 | 5..=13 | 15 | 16) => C::Num,
                        Some(3) => C::Tile,
                        Some(0) => {
                            self.t.kinds = true;
                            C::Sym
                        }
                        Some(4) => C::Sym,
                        _ => return None,
                    }
                } else if matches!(b, B::Tiles | B::Hand) {
                    self.mask |= 1 << (b as u32);
                    match field {
                        None => C::Tile,
                        Some(f) => self.t.fcls.get(f).copied().flatten()?,
                    }
                } else {
                    return None;
                };
                let want = self.fx(want)?;
                Fx::Tally(Box::new(FTally { any: *func == CompFn::Any, b, field, want }))
            }
            Node::Comp { func: CompFn::Sum | CompFn::Max | CompFn::Min, .. } => Fx::Agg(Box::new(self.fagg(e)?)),
            Node::Comp { .. } => Fx::Loop(Box::new(self.floop(e)?)),
            Node::If(c, t, f) => Fx::If(Box::new(self.fp(c)?), Box::new(self.fx(t)?), Box::new(self.fx(f)?)),
            Node::And(..) | Node::Or(..) | Node::Not(_) | Node::Compare(..) => Fx::Cond(Box::new(self.fp(e)?)),
            _ => return None,
        })
    }

    /// A comprehension (count, any, all; no tally), its binders given registers for its body.
    fn floop(&mut self, e: &Node) -> Option<FLoop> {
        let Node::Comp { func: func @ (CompFn::Count | CompFn::Any | CompFn::All), slots, src, body, eq: None, memo } = e else {
            return None;
        };
        let memo = memo.as_deref().and_then(|m| self.fmemo(m, e));
        let (regs, src, body) = self.comp_parts(slots, src, |cx| cx.fp(body))?;
        Some(FLoop { func: *func, regs, src, body, memo })
    }

    /// `sum`/`max`/`min` (no tally), its binders given registers for its body.
    fn fagg(&mut self, e: &Node) -> Option<FAgg> {
        let Node::Comp { func: func @ (CompFn::Sum | CompFn::Max | CompFn::Min), slots, src, body, eq: None, memo } = e else {
            return None;
        };
        let memo = memo.as_deref().and_then(|m| self.fmemo(m, e));
        let (regs, src, body) = self.comp_parts(slots, src, |cx| cx.fx(body))?;
        Some(FAgg { func: *func, regs, src, body, memo })
    }

    /// A comprehension's source and its binders' registers, its body compiled with them bound.
    fn comp_parts<T>(&mut self, slots: &[usize], src: &Node, body: impl FnOnce(&mut Self) -> Option<T>) -> Option<(Vec<usize>, FSrc, T)> {
        if slots.is_empty() || slots.len() > 8 || self.regs.len() + slots.len() > NREG {
            return None;
        }
        let src = match src {
            Node::Builtin(b) => match group_list(*b) {
                Some((m, w)) => {
                    self.cols = true;
                    FSrc::Groups(m, w)
                }
                None if matches!(b, B::Tiles | B::Hand | B::Flowers | B::Suits) => {
                    self.mask |= 1 << (*b as u32);
                    FSrc::List(*b)
                }
                None => return None,
            },
            Node::Call(Func::Distinct, d) if d.len() == 1 && matches!(d[0], Node::Builtin(B::Tiles | B::Hand)) => {
                let Node::Builtin(b) = d[0] else { return None };
                self.mask |= 1 << (b as u32);
                FSrc::Distinct(b)
            }
            Node::Attr(o, 2) if matches!(**o, Node::Binder(_)) => {
                let Node::Binder(s) = **o else { return None };
                self.cols = true;
                FSrc::GTiles(Box::new(self.binder(s)))
            }
            Node::Const(V::List(items)) => {
                FSrc::Const(items.iter().map(|v| const_val(&mut self.t.syms, v)).collect::<Option<Vec<_>>>()?)
            }
            _ => return None,
        };
        let cls = match &src {
            FSrc::Groups(..) => C::Group,
            FSrc::List(B::Tiles | B::Hand) | FSrc::Distinct(_) | FSrc::GTiles(_) => C::Tile,
            FSrc::Const(vals) if vals.iter().all(|v| v.c == C::Num) => C::Num,
            FSrc::Const(vals) if vals.iter().all(|v| v.c == C::Tile) => C::Tile,
            _ => C::Miss,
        };
        let base = self.regs.len();
        let mut regs = Vec::new();
        for &s in slots {
            if self.regs.contains(&s) {
                return None; // never in a scoped program
            }
            regs.push(self.regs.len());
            self.regs.push(s);
            self.rcls.push(cls);
        }
        let body = body(self);
        self.regs.truncate(base);
        self.rcls.truncate(base);
        Some((regs, src, body?))
    }
}

/// A reading's list of groups as (mask, want) on the group flags: the groups it holds, in order.
pub(super) fn group_list(b: B) -> Option<(u16, u16)> {
    Some(match b {
        B::Groups => (0, 0),
        B::Melds => (G_PAIR, 0),
        B::Pairs => (G_PAIR, G_PAIR),
        B::Runs => (G_PAIR | G_RUN, G_RUN),
        B::Triplets => (G_PAIR | G_TRIPLET, G_TRIPLET),
        B::Kongs => (G_PAIR | G_KONG, G_KONG),
        B::Exposed => (G_EXPOSED, G_EXPOSED),
        _ => return None,
    })
}

pub(super) fn intern(syms: &mut crate::hash::Map<String, i64>, s: &str) -> i64 {
    let n = syms.len() as i64 + 1;
    *syms.entry(s.to_owned()).or_insert(n)
}

/// A constant as a flat value (None: a fraction, a list or anything else this form does not hold).
fn const_val(syms: &mut crate::hash::Map<String, i64>, v: &V) -> Option<Val> {
    Some(match v {
        V::None => NONE,
        V::Bool(b) => num(*b as i64),
        V::Int(n) => num(*n),
        V::Str(s) => Val { c: C::Sym, x: intern(syms, s) },
        V::Tile(c) => Val { c: C::Tile, x: *c as i64 },
        _ => return None,
    })
}
