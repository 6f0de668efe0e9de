//! Each reading of a hand scored (its counts tallied, the requirements in order, the score's expressions)
//! and the one that counts chosen as runtime/hand_score.py chooses it; where a reading first reads the
//! hand's waits, they are asked once and the evaluation goes on from there (`resuming`).

use crate::program::{equal, order, Eval, Reading, Requirement, Scoring, Stop, V};
use crate::tally::{Dropped, Tally};

use super::Scorer;

type R<T> = Result<T, Stop>;

/// What one reading scores.
pub(crate) struct Scored {
    pub failed: i64, // the first requirement not met, or -1
    pub score: V,
    pub total: V,
    pub best: V,
    pub units: Vec<V>,
    pub fin: Vec<(usize, i64)>,
    pub values: Vec<V>, // of `fin`'s patterns
    pub trace: Vec<(usize, Dropped)>,
}

/// A reading's values and combinations for the tally, from its evaluator (values kept once found).
struct Source<'e, 's, 'p, 'r> {
    ev: &'e mut Eval<'p, 'r>,
    sc: &'s Scoring,
    values: Vec<Option<V>>,
}

impl crate::tally::Source for Source<'_, '_, '_, '_> {
    fn value(&mut self, i: usize) -> R<V> {
        if let Some(v) = &self.values[i] {
            return Ok(v.clone());
        }
        let v = self.ev.eval_node(&self.sc.values[i])?;
        if !matches!(v, V::Int(_) | V::Rat(..) | V::Bool(_)) {
            return Err(Stop::Bail); // a value that is not a number: the Python side decides
        }
        self.values[i] = Some(v.clone());
        Ok(v)
    }

    fn combos(&mut self, i: usize) -> R<Vec<Vec<(u16, u16)>>> {
        self.ev.combos(i)
    }
}

/// Whether evaluating more of `ev` can ask for no waits it has not been given (the rule set's programs
/// read none, or those they read are given already).
fn waits_known(reads: [bool; 2], ev: &Eval) -> bool {
    (!reads[0] || ev.waits.is_some()) && (!reads[1] || ev.shape_waits.is_some())
}

/// `lean`: a reading failing a requirement is left without its score, total and best where that asks
/// for no waits (`waits_known`): a question reading only whether the hand wins never reads them, and
/// the reference evaluates a refused reading only for a hand that does not win.
///
/// With `lean`, the requirements that read no pattern and no unit (`untallied`), up to the first that
/// does, are held to the reading before its counts: their truth does not depend on the tally, and the
/// reference's `requirements_ok` evaluates them before anything else; a reading one of them refuses is
/// then not counted or tallied either (most of a win question's readings where a minimum of points must
/// be reached).
fn score_reading(sc: &Scoring, tally: &Tally, ev: &mut Eval, form: &V, lean: Option<[bool; 2]>) -> R<Scored> {
    let mut failed = -1i64;
    let mut checked = 0; // the requirements held to the reading already, in order
    if let Some(reads) = lean {
        for (j, q) in sc.requires.iter().enumerate() {
            if !q.untallied {
                break;
            }
            checked = j + 1;
            if !meets(ev, q, form)? {
                failed = j as i64;
                break;
            }
        }
        if failed >= 0 && waits_known(reads, ev) {
            return Ok(Scored { failed, score: V::None, total: V::None, best: V::None, units: Vec::new(), fin: Vec::new(), values: Vec::new(), trace: Vec::new() });
        }
    }
    let mut counts = ev.all_counts()?;
    let mut fired: Vec<usize> = (0..counts.len()).filter(|&i| counts[i] > 0).collect();
    let n = counts.len();
    let mut src = Source { ev, sc, values: vec![None; n] };
    let mut trace = Vec::new();
    let mut fin = tally.finish(&counts, &fired, &mut src, &mut trace)?;
    let mut units = tally.units(&fin, &mut src)?;
    if let Some(k) = sc.reader {
        // counted with the units known; values never see them (the generated scorer's value functions
        // are given none: a value reading a unit stops here, and the Python side decides)
        src.ev.units = Some(units.clone());
        let c = src.ev.owned_count(k);
        src.ev.units = None;
        let c = c?;
        if c > 0 {
            counts[k] = c;
            fired.push(k);
            fired.sort_unstable();
            src.values = vec![None; n]; // a value may read the pattern just counted
            let mut trace2 = Vec::new();
            let fin2 = tally.finish(&counts, &fired, &mut src, &mut trace2)?;
            let units2 = tally.units(&fin2, &mut src)?;
            if sc.reader_units.iter().any(|&j| !equal(&units[j], &units2[j])) {
                return Err(Stop::Bail); // a pattern that reads a unit changes it
            }
            fin = fin2;
            units = units2;
            trace = trace2;
        }
    }
    let mut values = Vec::with_capacity(fin.len());
    for &(i, _) in &fin {
        values.push(crate::tally::Source::value(&mut src, i)?);
    }
    src.ev.units = Some(units.clone());
    let ev = &mut *src.ev;
    if failed < 0 {
        for (j, q) in sc.requires.iter().enumerate().skip(checked) {
            if !meets(ev, q, form)? {
                failed = j as i64;
                break;
            }
        }
    }
    if failed >= 0 && lean.is_some_and(|reads| waits_known(reads, ev)) {
        return Ok(Scored { failed, score: V::None, total: V::None, best: V::None, units, fin, values, trace });
    }
    let number = |v: V| -> R<V> {
        match v {
            V::Int(_) | V::Rat(..) | V::Bool(_) => Ok(v),
            _ => Err(Stop::Bail),
        }
    };
    let score = match &sc.score {
        Some(e) => number(ev.eval_node(e)?)?,
        None => V::Int(0),
    };
    let total = match &sc.total {
        Some(e) => number(ev.eval_node(e)?)?,
        None => units.first().cloned().unwrap_or_else(|| score.clone()),
    };
    let best = match &sc.best {
        Some(e) => number(ev.eval_node(e)?)?,
        None => score.clone(),
    };
    Ok(Scored { failed, score, total, best, units, fin, values, trace })
}

/// Whether requirement `q` lets a reading of `form` through (a requirement of other forms does).
fn meets(ev: &mut Eval, q: &Requirement, form: &V) -> R<bool> {
    if !q.forms.is_empty() && !q.forms.iter().any(|f| matches!(form, V::Str(s) if s == f)) {
        return Ok(true);
    }
    if ev.eval_node(&q.expr)?.truthy() {
        return Ok(true);
    }
    match &q.unless {
        Some(u) => Ok(ev.eval_node(u)?.truthy()),
        None => Ok(false),
    }
}

/// Python's `(best, score) > (best2, score2)` on numbers.
fn key_gt(a: &Scored, b: &Scored) -> R<bool> {
    if !equal(&a.best, &b.best) {
        return Ok(order(&a.best, &b.best).ok_or(Stop::Bail)?.is_gt());
    }
    Ok(order(&a.score, &b.score).ok_or(Stop::Bail)?.is_gt())
}

/// (chosen reading, win, readings meeting the requirements, the others with the requirement each fails,
/// what the chosen one scores, its quantities or None, the values of the `{…}` expressions of its
/// fans' labels, per fan: None where it has none or they are left to the Python side).
pub(crate) type Choice = (usize, bool, usize, Vec<(usize, i64)>, Scored, Option<Vec<V>>, Vec<Option<Vec<V>>>);

/// `f` on reading j's evaluation; where it stops for the hand's waits (or shape waits), they are asked of
/// `more` once and given to every reading's evaluation, and `f` goes on (what was counted stays counted).
/// `more` answering None: the stop is returned, as without it.
pub(super) fn resuming<T>(evs: &mut [Eval], j: usize, more: &mut dyn FnMut(bool) -> Option<V>,
               mut f: impl FnMut(&mut Eval) -> R<T>) -> R<T> {
    let mut given = [false, false];
    loop {
        let shape = match f(&mut evs[j]) {
            Err(Stop::NeedWaits) => false,
            Err(Stop::NeedShapeWaits) => true,
            other => return other,
        };
        if given[shape as usize] {
            return Err(Stop::Bail); // asked again once given: cannot happen; the reference decides
        }
        let Some(v) = more(shape) else {
            return Err(if shape { Stop::NeedShapeWaits } else { Stop::NeedWaits });
        };
        given[shape as usize] = true;
        for ev in evs.iter_mut() {
            ev.give_waits(shape, v.clone());
        }
    }
}

impl Scorer {
    /// The reading that counts, asking `more` for the hand's waits (`true`: its shape waits) where a
    /// reading first reads them, and going on from there rather than from the start; None from `more`
    /// stops with `Stop::NeedWaits` (`NeedShapeWaits`).
    ///
    /// `lean`: the caller reads only whether the hand wins and, where it wins, the chosen reading's
    /// score and best (a win question): a refused reading is not scored past its requirements, and
    /// the chosen one's quantities and labels are not worked out, where that asks for no waits; a hand
    /// that does not win then answers its first refused reading, unscored. Whether the hand wins and
    /// the reading that wins are as without it (every requirement of every reading is evaluated).
    pub(crate) fn choose_with(&self, sc: &Scoring, rs: &[Reading], more: &mut dyn FnMut(bool) -> Option<V>, lean: bool) -> R<Choice> {
        let reads = lean.then_some(self.program.reads_waits);
        let mut scored: Vec<Scored> = Vec::with_capacity(rs.len());
        let mut best: Option<usize> = None; // among the readings meeting the requirements
        let mut considered = 0usize;
        let mut refused = Vec::new();
        let mut evs: Vec<Eval> = rs.iter().map(|r| Eval::new(&self.program, r)).collect();
        for (j, r) in rs.iter().enumerate() {
            let s = resuming(&mut evs, j, more, |ev| score_reading(sc, &self.tally, ev, &r.form, reads))?;
            if s.failed >= 0 {
                refused.push((j, s.failed));
            } else {
                considered += 1;
                let better = match best {
                    None => true,
                    Some(b) => key_gt(&s, &scored[b])?,
                };
                if better {
                    best = Some(j);
                }
            }
            scored.push(s);
        }
        let (chosen, win) = match best {
            Some(b) => (b, true),
            None if reads.is_some() => match refused.first() {
                Some(&(j, _)) => return Ok((j, false, considered, refused, scored.swap_remove(j), None, Vec::new())),
                None => return Err(Stop::Bail),
            },
            None => {
                let mut c: Option<usize> = None;
                for &(j, _) in &refused {
                    let better = match c {
                        None => true,
                        Some(b) => key_gt(&scored[j], &scored[b])?,
                    };
                    if better {
                        c = Some(j);
                    }
                }
                match c {
                    Some(c) => (c, false),
                    None => return Err(Stop::Bail), // no reading: the Python side says why
                }
            }
        };
        if reads.is_some_and(|reads| waits_known(reads, &evs[chosen])) {
            return Ok((chosen, win, considered, refused, scored.swap_remove(chosen), None, Vec::new()));
        }
        // the chosen reading's quantities, in its own environment
        let n_quantities = evs[chosen].n_quantities();
        let mut q = Some(Vec::with_capacity(n_quantities));
        for k in 0..n_quantities {
            match resuming(&mut evs, chosen, more, |ev| ev.quantity(k)) {
                Ok(v @ (V::None | V::Bool(_) | V::Int(_) | V::Rat(..) | V::Str(_))) => {
                    if let Some(x) = q.as_mut() {
                        x.push(v);
                    }
                }
                Ok(_) | Err(Stop::Bail) => {
                    q = None; // the reference computes them (an error there shows none)
                    break;
                }
                Err(e) => return Err(e),
            }
        }
        let s = scored.swap_remove(chosen);
        let mut labels = Vec::with_capacity(s.fin.len());
        for &(i, _) in &s.fin {
            let got = match self.program.label_exprs.get(i) {
                Some(Some(nodes)) => {
                    let mut vs = Some(Vec::with_capacity(nodes.len()));
                    for n in nodes {
                        match resuming(&mut evs, chosen, more, |ev| ev.eval_node(n)) {
                            Ok(v) => {
                                if let Some(x) = vs.as_mut() {
                                    x.push(v);
                                }
                            }
                            Err(Stop::Bail) => {
                                vs = None;
                                break;
                            }
                            Err(e) => return Err(e),
                        }
                    }
                    vs
                }
                _ => None,
            };
            labels.push(got);
        }
        Ok((chosen, win, considered, refused, s, q, labels))
    }
}
