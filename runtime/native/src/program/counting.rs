//! A reading's raw pattern counts: every pattern's (`all_counts`, `Program::raw_counts`), one pattern's by
//! its guard, prefilter and `when` (`pattern`, `count_of`), and the evaluator's other entry points
//! (quantities, the nodes of a combination, the waits given once they are asked). The evaluator of the
//! expressions these read is eval.rs.

use super::*;

impl Program {
    /// The raw count of every pattern of the reading (0 for the patterns the Python side counts).
    pub fn raw_counts(&self, r: &Reading) -> Result<Vec<i64>, Stop> {
        let mut ev = Eval::new(self, r);
        ev.all_counts()
    }
}

impl<'p, 'r> Eval<'p, 'r> {
    /// Every pattern's raw count, the unit reader's 0.
    pub(crate) fn all_counts(&mut self) -> R<Vec<i64>> {
        self.prefilter_all();
        for i in 0..self.p.pats.len() {
            if self.p.python_owned[i] {
                self.counts[i] = Some(0);
            } else if self.pf_all && self.pf_out[i / 64] >> (i % 64) & 1 != 0 {
                // ruled out by its prefilter tests: 0, its program not evaluated (`count_of`)
                if self.counts[i].is_none() {
                    self.counts[i] = Some(0);
                }
            } else {
                self.pattern(i)?;
            }
        }
        Ok(self.counts.iter().map(|c| c.unwrap_or(0)).collect())
    }

    /// The unit reader's raw count with the units known (`self.units`), the others' counts as found;
    /// it reads itself as 0 (the reference's re-entry guard).
    pub(crate) fn owned_count(&mut self, k: usize) -> R<i64> {
        self.counts[k] = None;
        let n = self.pattern(k);
        if n.is_err() {
            self.counts[k] = Some(0);
        }
        n
    }

    /// The combinations a `combine` pattern counts: each the tokens (group identity, occurrence) of
    /// its melds, as runtime/scoring.py `ReadingEvaluator.combos` lists them.
    pub(crate) fn combos(&mut self, i: usize) -> R<Vec<Vec<(u16, u16)>>> {
        let Some(Node::Comp { slots, src, body, .. }) = &self.p.pats[i].count else { return Err(Stop::Bail) };
        let items = match self.eval(src)? {
            v if !v.truthy() => Arc::new(Vec::new()),
            V::List(l) => l,
            _ => return Err(Stop::Bail),
        };
        // tokens: a meld is its object (the group's identity) and its occurrence among the items
        let mut tokens: Vec<(u16, u16)> = Vec::with_capacity(items.len());
        for (j, x) in items.iter().enumerate() {
            let V::Group(g) = x else { return Err(Stop::Bail) };
            let seen = items[..j].iter().filter(|y| matches!(y, V::Group(h) if h == g)).count();
            tokens.push((*g, seen as u16));
        }
        let k = slots.len();
        let n = items.len();
        let mut found = Vec::new();
        if k > n {
            return Ok(found);
        }
        let mut idx: Vec<usize> = (0..k).collect();
        loop {
            for (s, &j) in slots.iter().zip(&idx) {
                self.binders[*s] = items[j].clone();
            }
            if self.eval(body)?.truthy() {
                found.push(idx.iter().map(|&j| tokens[j]).collect());
            }
            if !next_combination(&mut idx, n) {
                return Ok(found);
            }
        }
    }

    pub(crate) fn eval_node(&mut self, e: &Node) -> R<V> {
        self.eval(e)
    }

    pub(crate) fn quantity(&mut self, q: usize) -> R<V> {
        self.eval(&Node::Quantity(q))
    }

    pub(crate) fn n_quantities(&self) -> usize {
        self.p.quantities.len()
    }

    /// The hand's waits (`shape`: its shape waits), asked for by `Stop::NeedWaits` (`NeedShapeWaits`):
    /// the evaluation goes on from where it stopped — every count, quantity and builtin found before
    /// did not read them — with a fresh budget, as the fresh evaluation it replaces would have had.
    pub(crate) fn give_waits(&mut self, shape: bool, v: V) {
        if shape {
            self.shape_waits = Some(v);
        } else {
            self.waits = Some(v);
        }
        self.budget = BUDGET;
    }
}

impl<'p, 'r> Eval<'p, 'r> {
    pub(super) fn pattern(&mut self, i: usize) -> R<i64> {
        if let Some(n) = self.counts[i] {
            return Ok(n);
        }
        self.counts[i] = Some(0); // the reference's guard against re-entry
        let got = self.count_of(i);
        if let Err(Stop::NeedWaits | Stop::NeedShapeWaits) = got {
            self.counts[i] = None; // not counted: counted again once the waits are given
        }
        got
    }

    /// Pattern i's raw count, its guard set (`pattern`).
    fn count_of(&mut self, i: usize) -> R<i64> {
        if self.prefiltered_out(i) {
            return Ok(0);
        }
        let p = &self.p.pats[i];
        if let Some(e) = &p.enabled {
            if !self.truth(e)? {
                return Ok(0);
            }
        }
        if let Some(e) = &p.when {
            if !self.when_truth(e)? {
                return Ok(0);
            }
        }
        let value = match (&p.count, p.count_flat.as_deref().map(|f| self.flat_value(f))) {
            (None, _) => None,
            (Some(_), Some(Ok((v, k)))) => {
                self.charge_n(k)?; // the nodes the comprehension charges (a combine pattern's, flat)
                Some(v)
            }
            (Some(e), _) => Some(self.eval(e)?),
        };
        let n = match value {
            None => 1,
            Some(v) => match v {
                // int(): bools are 0/1, fractions truncated toward zero
                V::Bool(b) => b as i64,
                V::Int(n) => n,
                V::Rat(n, d) => n / d,
                _ => return Err(Stop::Bail),
            },
        };
        let n = n.max(0);
        self.counts[i] = Some(n);
        Ok(n)
    }

    /// A pattern's `when` as `truth` answers it; a flat condition (most are) asked directly, without
    /// the calls `truth` → `run_pred` → `pred` make to reach it: the same nodes charged (the flat
    /// form's, or the form it replaces charging its own), the same stops.
    #[inline]
    fn when_truth(&mut self, e: &Node) -> R<bool> {
        let Node::Pred(p) = e else { return self.truth(e) };
        let Pred::Flat(f) = &**p else { return self.run_pred(p) };
        match self.flat_cond(f) {
            Ok((t, k)) => {
                self.charge_n(k)?;
                Ok(t)
            }
            Err(()) => match &f.orig {
                Orig::Pred(o) => self.run_pred(o),
                Orig::Node(o) => self.truth(o),
            },
        }
    }
}
