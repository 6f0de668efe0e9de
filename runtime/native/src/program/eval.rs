//! Evaluating the lowered programs on one reading: the expression evaluator, its fields and budget (a
//! reading's raw pattern counts are counting.rs).

use super::*;

// ------------------------------------------------------------------ one reading

#[derive(Clone)]
pub struct Group {
    pub kind: Arc<str>,
    pub tiles: Arc<Vec<V>>,
    pub exposed: bool,
    pub concealed: bool,
    pub pair: bool,
    pub kong: bool,
    pub has_win: bool,
    pub value: V,
    pub ident: u16,
}

pub struct Reading<'a> {
    pub groups: Vec<Group>,
    pub tiles: Option<Arc<Vec<V>>>, // None: the groups' tiles in order
    pub hand: Option<Arc<Vec<V>>>,
    pub declared: Vec<bool>,
    pub win_tile: V,
    pub win_group: V,
    pub form: V,
    pub self_drawn: bool,
    pub flowers: Arc<Vec<V>>,
    pub waits: Option<V>,
    pub shape_waits: Option<V>,
    pub settings: &'a [Option<V>], // by slot; None: no value here (the reference raises)
    pub packed: Option<&'a [u8]>,  // the prefilter's packed counts (little-endian), when it applies
}

pub(crate) struct Eval<'p, 'r> {
    pub(super) p: &'p Program,
    pub(super) r: &'r Reading<'r>,
    pub(super) builtins: [Option<V>; N_BUILTINS], // in place: one allocation less per reading
    pub(super) binders: Vec<V>,
    pub(super) counts: Vec<Option<i64>>, // raw counts found so far (Some(0) while one is being computed)
    pub(super) quantities: Vec<Option<V>>,
    // per group (by identity), its fields in GROUP_FIELDS order, one after another: made at the first
    // read (setup.rs `gf`; an evaluation that reads no group field makes none) in `gf_spare`'s room
    pub(super) gfields: std::cell::OnceCell<Vec<V>>,
    pub(super) gf_spare: std::cell::Cell<Vec<V>>,
    pub(super) budget: u64,
    // per (reading list, field) read by `tally` (lookup.rs): how many items have each value, built at
    // the first such comprehension of the reading
    pub(super) tallies: Vec<(B, Option<usize>, Tally)>,
    pub(super) tally_built: u64, // the nodes charged for building tallies (a tally read again charges one)
    // per memo id (memo.rs): the values found, by the free binders' values, and the nodes each charged
    pub(super) memo: std::cell::RefCell<Vec<Vec<(MemoKey, V, u64)>>>, // (a cell: the flat loops read it too)
    pub(crate) units: Option<Vec<V>>, // the units' values once known (scoring)
    // the hand's waits and shape waits: the reading's, or given later (`give_waits`) when a pattern
    // asked for them (`Stop::NeedWaits`): what was counted before stays counted
    pub(crate) waits: Option<V>,
    pub(crate) shape_waits: Option<V>,
    // the groups' integer columns (flat_eval.rs), made at the first flat read; 0 not made, 1 made,
    // 2 not usable for this reading
    pub(super) cols: Vec<GCol>,
    pub(super) cols_state: u8,
    // the tallies a flat evaluation under way charged the building of (flat_eval.rs): kept in
    // `tallies` as charged when it answers, forgotten when it gives up
    pub(super) fpending: std::cell::RefCell<Vec<(B, Option<usize>, u64)>>,
    // the flat values of the reading's single values read by flat forms (flat_eval.rs `Fx::Builtin`)
    pub(super) fbv: [std::cell::Cell<Option<Val>>; N_BUILTINS],
    // the reading's packed prefilter counts unpacked, one field a byte (made at the first test)
    pub(super) pf: Vec<u8>,
    pub(super) pf_made: bool,
    // per pattern, whether its prefilter tests rule it out on this reading (a bit each), once
    // `pf_all` (all_counts tests every pattern's at once before counting them)
    pub(super) pf_out: Vec<u64>,
    pub(super) pf_all: bool,
    pub(super) fkeys: std::cell::RefCell<Vec<FlatKeys>>,
}

/// A reading list and field a flat equality lookup read, and every item's key, taken once a reading
/// (flat_loops.rs `ftally`); Err where an item's key is not a flat value.
pub(super) type FlatKeys = (B, Option<usize>, Result<Vec<Val>, ()>);



pub(crate) const BUDGET: u64 = 5_000_000; // node evaluations per reading; past it the reference evaluates it

impl<'p, 'r> Eval<'p, 'r> {
    fn group_field(&self, gi: u16, f: usize) -> R<V> {
        self.gfield(gi, f).cloned().ok_or(Stop::Bail)
    }

    /// Field f (< GROUP_FIELDS.len()) of the group of identity gi.
    #[inline]
    fn gfield(&self, gi: u16, f: usize) -> Option<&V> {
        if f >= GROUP_FIELDS.len() {
            return None;
        }
        self.gf().get(gi as usize * GROUP_FIELDS.len() + f)
    }

    fn tile_field(&self, code: u32, f: usize) -> R<V> {
        if f == self.p.f_wild {
            return Ok(V::Bool(code & 2 != 0));
        }
        if f == self.p.f_joker {
            return Ok(V::Bool(code & 1 != 0));
        }
        let row = self.p.tile_fields.get(kind_of(code) as usize).ok_or(Stop::Bail)?;
        row.get(f).cloned().flatten().ok_or(Stop::Bail) // a field this kind lacks: KeyError in the reference
    }

    /// `tile_field` without the copy.
    pub(super) fn tile_field_ref(&self, code: u32, f: usize) -> R<&V> {
        if f == self.p.f_wild {
            return Ok(if code & 2 != 0 { &V_TRUE } else { &V_FALSE });
        }
        if f == self.p.f_joker {
            return Ok(if code & 1 != 0 { &V_TRUE } else { &V_FALSE });
        }
        let row = self.p.tile_fields.get(kind_of(code) as usize).ok_or(Stop::Bail)?;
        row.get(f).and_then(Option::as_ref).ok_or(Stop::Bail)
    }

    /// Field f of value x (x itself for None) as `x.F` reads it, borrowed.
    pub(super) fn field_ref<'s>(&'s self, x: &'s V, f: Option<usize>) -> R<&'s V> {
        let Some(f) = f else { return Ok(x) };
        match x {
            V::None => Ok(&V_NONE),
            V::Tile(c) => self.tile_field_ref(*c, f),
            V::Group(g) if f < self.p.n_group_fields => self.gfield(*g, f).ok_or(Stop::Bail),
            _ => Err(Stop::Bail),
        }
    }

    /// The value of an operand that needs no work (a constant, a binder, a binder's field), borrowed
    /// where `eval` would copy it; the same value and the same stop. The caller charges the node.
    pub(super) fn peek<'s>(&'s self, e: &'s Node) -> R<&'s V> {
        match e {
            Node::Const(v) => Ok(v),
            Node::Binder(i) => Ok(&self.binders[*i]),
            Node::Attr(o, f) => {
                let Node::Binder(i) = **o else { return Err(Stop::Bail) };
                self.field_ref(&self.binders[i], Some(*f))
            }
            _ => Err(Stop::Bail),
        }
    }

    pub(super) fn charge(&mut self) -> R<()> {
        self.charge_n(1)
    }

    /// n nodes evaluated at once: a stop wherever charging them one by one would stop.
    pub(super) fn charge_n(&mut self, n: u64) -> R<()> {
        if self.budget < n {
            self.budget = 0;
            return Err(Stop::Bail);
        }
        self.budget -= n;
        Ok(())
    }

    /// `eval(e).truthy()`, without making the values of the conditions' connectives and comparisons
    /// (the same nodes charged, the same stops in the same order).
    pub(super) fn truth(&mut self, e: &Node) -> R<bool> {
        match e {
            Node::And(l, r) => {
                self.charge()?;
                Ok(self.truth(l)? && self.truth(r)?)
            }
            Node::Or(l, r) => {
                self.charge()?;
                Ok(self.truth(l)? || self.truth(r)?)
            }
            Node::Not(o) => {
                self.charge()?;
                Ok(!self.truth(o)?)
            }
            Node::Compare(ops, operands) => {
                self.charge()?;
                self.comparison(ops, operands)
            }
            Node::Attr(o, _) if matches!(**o, Node::Binder(_)) => {
                self.charge()?;
                Ok(self.peek(e)?.truthy())
            }
            Node::Pred(p) => self.run_pred(p),
            _ => Ok(self.eval(e)?.truthy()),
        }
    }

    /// A chained comparison. A single comparison of operands built only from constants, binders, their
    /// fields, arithmetic and the pure functions of numbers (`static_nodes`) charges their nodes at once
    /// and computes them on the values where they lie: the same value, and a stop wherever evaluating
    /// them node by node would stop (every stop there is `Bail`).
    fn comparison(&mut self, ops: &[Cmp], operands: &[Node]) -> R<bool> {
        if ops.len() == 1 {
            if let (Some(a), Some(b)) = (static_nodes(&operands[0]), static_nodes(&operands[1])) {
                self.charge_n(a + b)?;
                let a = self.sval(&operands[0])?;
                let b = self.sval(&operands[1])?;
                return compare(ops[0], &a, &b);
            }
        }
        let mut left = self.eval(&operands[0])?;
        for (op, o) in ops.iter().zip(&operands[1..]) {
            let right = self.eval(o)?;
            if !compare(*op, &left, &right)? {
                return Ok(false);
            }
            left = right;
        }
        Ok(true)
    }

    pub(super) fn eval(&mut self, e: &Node) -> R<V> {
        if self.budget == 0 {
            return Err(Stop::Bail);
        }
        self.budget -= 1;
        match e {
            Node::Const(v) => Ok(v.clone()),
            Node::List(items) => {
                let mut out = Vec::with_capacity(items.len());
                for i in items {
                    out.push(self.eval(i)?);
                }
                Ok(V::List(Arc::new(out)))
            }
            Node::Builtin(b) => self.builtin(*b),
            Node::Setting(i) => match self.r.settings.get(*i) {
                Some(Some(v)) => Ok(v.clone()),
                _ => Err(Stop::Bail),
            },
            Node::Binder(i) => Ok(self.binders[*i].clone()),
            Node::Pattern(i) => Ok(V::Int(self.pattern(*i)?)),
            Node::Unit(j) => match &self.units {
                Some(u) => u.get(*j).cloned().ok_or(Stop::Bail),
                None => Err(Stop::Bail),
            },
            Node::Quantity(i) => {
                if let Some(v) = &self.quantities[*i] {
                    return Ok(v.clone());
                }
                let v = self.eval(&self.p.quantities[*i])?;
                self.quantities[*i] = Some(v.clone());
                Ok(v)
            }
            Node::Attr(o, f) if matches!(**o, Node::Binder(_)) => {
                let Node::Binder(i) = **o else { return Err(Stop::Bail) };
                match self.binders[i] {
                    V::None => Ok(V::None),
                    V::Tile(c) => self.tile_field(c, *f),
                    V::Group(g) if *f < self.p.n_group_fields => self.group_field(g, *f),
                    _ => Err(Stop::Bail),
                }
            }
            Node::Attr(o, f) => match self.eval(o)? {
                V::None => Ok(V::None),
                V::Tile(c) => self.tile_field(c, *f),
                V::Group(g) if *f < self.p.n_group_fields => self.group_field(g, *f),
                _ => Err(Stop::Bail),
            },
            Node::Call(func, args) => self.call(*func, args),
            Node::Comp { memo: Some(m), .. } => self.memoised(m, e),
            Node::Comp { .. } => self.comp_node(e),
            Node::Not(o) => Ok(V::Bool(!self.truth(o)?)),
            Node::Neg(o) => {
                let v = self.eval(o)?;
                negate(&v)
            }
            Node::And(l, r) => Ok(V::Bool(self.truth(l)? && self.truth(r)?)),
            Node::Or(l, r) => Ok(V::Bool(self.truth(l)? || self.truth(r)?)),
            Node::Arith(op, l, r) => {
                let a = self.eval(l)?;
                let b = self.eval(r)?;
                arith(*op, &a, &b)
            }
            Node::Compare(ops, operands) => Ok(V::Bool(self.comparison(ops, operands)?)),
            Node::If(c, t, f) => {
                if self.truth(c)? {
                    self.eval(t)
                } else {
                    self.eval(f)
                }
            }
            Node::Pred(p) => {
                // its root node is charged by run_pred with the rest (the same stop where the budget is 0)
                self.budget += 1;
                if let Pred::Flat(f) = &**p {
                    return match self.flat_value(f) {
                        Ok((v, k)) => {
                            self.charge_n(k)?;
                            Ok(v)
                        }
                        Err(()) => match &f.orig {
                            Orig::Node(e) => self.eval(e),
                            Orig::Pred(p) => Ok(V::Bool(self.run_pred(p)?)),
                        },
                    };
                }
                Ok(V::Bool(self.run_pred(p)?))
            }
            Node::Bound(_) | Node::Game(_) | Node::GameCall(..) => Err(Stop::Bail), // never in reading scope
        }
    }

    /// A comprehension node's value, its own node charged.
    pub(super) fn comp_node(&mut self, e: &Node) -> R<V> {
        match e {
            Node::Comp { func, slots, src, body, eq: Some(want), .. } if slots.len() == 1 => match eq_item(body, slots[0]) {
                Some(field) => self.tally(*func, src, field, want),
                None => {
                    let v = self.comp(*func, slots, src, body)?;
                    self.eval(want)?;
                    Ok(v)
                }
            },
            Node::Comp { func, slots, src, body, eq, .. } => {
                let v = self.comp(*func, slots, src, body)?;
                if let Some(e) = eq {
                    self.eval(e)?;
                }
                Ok(v)
            }
            _ => Err(Stop::Bail),
        }
    }

    fn call(&mut self, func: Func, args: &[Node]) -> R<V> {
        if let (Func::Len, Node::Builtin(b)) = (func, &args[0]) {
            // `len` of a reading list, read where the builtins' cache keeps it (the same nodes charged)
            self.charge()?;
            return match self.ensure_builtin(*b)? {
                V::List(l) => Ok(V::Int(l.len() as i64)),
                v => apply(func, v.clone(), None),
            };
        }
        if let (Func::Len, Node::Call(Func::Distinct, inner)) = (func, &args[0]) {
            // `len(distinct(x))`: the distinct items counted, no list made; the inner call's node
            // charged as eval charges it, then its argument (the same nodes, the same stops)
            if self.budget == 0 {
                return Err(Stop::Bail);
            }
            self.budget -= 1;
            let a = self.eval(&inner[0])?;
            return match &a {
                V::List(l) => Ok(V::Int(distinct_len(l) as i64)),
                _ => Err(Stop::Bail), // `distinct` of what is not a list
            };
        }
        let a = self.eval(&args[0])?;
        let b = match func {
            Func::Max | Func::Min => Some(self.eval(&args[1])?),
            _ => None,
        };
        apply(func, a, b)
    }

    fn comp(&mut self, func: CompFn, slots: &[usize], src: &Node, body: &Node) -> R<V> {
        let (items, n) = self.items_of(src)?;
        let k = slots.len();
        let mut count: i64 = 0;
        let mut total = (0i128, 1i128);
        let mut best: Option<V> = None;
        let mut kept: Vec<V> = Vec::new();
        if k > n {
            return finish(func, count, total, best, kept);
        }
        // the combination's indices, in place (at most 8 binders: lower.rs)
        let mut idx_buf = [0usize; 8];
        let idx = &mut idx_buf[..k];
        for (t, x) in idx.iter_mut().enumerate() {
            *x = t;
        }
        loop {
            for (s, &i) in slots.iter().zip(idx.iter()) {
                self.binders[*s] = self.item(&items, i);
            }
            if let (Node::Pred(p), CompFn::Count | CompFn::Any | CompFn::All) = (body, func) {
                // a compiled condition as the body: its nodes charged per item, as `truth` charges them
                match (func, self.run_pred(p)?) {
                    (CompFn::Count, t) => count += t as i64,
                    (CompFn::Any, true) => return Ok(V::Bool(true)),
                    (CompFn::All, false) => return Ok(V::Bool(false)),
                    _ => {}
                }
                if !next_combination(idx, n) {
                    return finish(func, count, total, best, kept);
                }
                continue;
            }
            match func {
                CompFn::Count => count += self.truth(body)? as i64,
                CompFn::Any => {
                    if self.truth(body)? {
                        return Ok(V::Bool(true));
                    }
                }
                CompFn::All => {
                    if !self.truth(body)? {
                        return Ok(V::Bool(false));
                    }
                }
                CompFn::Filter => {
                    if self.truth(body)? {
                        kept.push(self.item(&items, idx[0]));
                    }
                }
                CompFn::Sum => {
                    let v = self.eval(body)?;
                    let (p, q) = v.num().ok_or(Stop::Bail)?;
                    let (a, b) = total;
                    let num = a.checked_mul(q).and_then(|x| p.checked_mul(b).and_then(|y| x.checked_add(y))).ok_or(Stop::Bail)?;
                    let den = b.checked_mul(q).ok_or(Stop::Bail)?;
                    let g = gcd(num, den).max(1);
                    total = (num / g, den / g);
                    if total.0.abs() > i64::MAX as i128 || total.1 > i64::MAX as i128 {
                        return Err(Stop::Bail);
                    }
                }
                CompFn::Max | CompFn::Min => {
                    let v = self.eval(body)?;
                    best = Some(match best.take() {
                        None => v,
                        Some(b) => {
                            let ord = order(&v, &b).ok_or(Stop::Bail)?;
                            let take = if func == CompFn::Max { ord.is_gt() } else { ord.is_lt() };
                            if take {
                                v
                            } else {
                                b
                            }
                        }
                    });
                }
            }
            // the next combination (itertools.combinations order)
            if !next_combination(idx, n) {
                return finish(func, count, total, best, kept);
            }
        }
    }
}

static V_NONE: V = V::None;
static V_TRUE: V = V::Bool(true);
static V_FALSE: V = V::Bool(false);

pub(crate) fn finish(func: CompFn, count: i64, total: (i128, i128), best: Option<V>, kept: Vec<V>) -> R<V> {
    Ok(match func {
        CompFn::Count => V::Int(count),
        CompFn::Any => V::Bool(false),
        CompFn::All => V::Bool(true),
        CompFn::Filter => V::List(Arc::new(kept)),
        CompFn::Sum => rat(total.0, total.1)?,
        CompFn::Max | CompFn::Min => best.unwrap_or(V::Int(0)),
    })
}
