//! What a reading's raw pattern counts become (runtime/fans.py `Tally`, runtime/exclusions.py
//! `Exclusions`): exclusions in the language's order (only a counted pattern excludes), decrements,
//! `combine` (the most valuable buildable set of combinations, 套算一次 / 不得相同), the `max` units,
//! each unit's value, and the defaults of `total` and `best`. Ported step by step from the Python
//! reference, patterns in declaration order throughout, so the patterns kept and the trace of the ones
//! not counted are the reference's. Values are exact (program.rs `V` numbers); anything that leaves
//! them (a value that is not a number, a sum past 64 bits, a combination search past its budget) is
//! `Stop::Bail` and the Python side scores the hand.

use std::collections::BinaryHeap;
use std::cmp::Reverse;

use serde_json::Value as J;

use crate::program::{add, mul, order, power, Stop, V};

type R<T> = Result<T, Stop>;
/// A `combine` block's candidate: the pattern, one combination it counts (the tokens — group identity,
/// occurrence — it takes), the pattern's value.
type Edge = (usize, Vec<(u16, u16)>, V);
/// The exclusions' answer: the counted patterns with their counts, the dropped ones with why.
type Excluded = (Vec<(usize, i64)>, Vec<(usize, Dropped)>);

/// A reading's pattern values and the combinations a `combine` pattern counts (meld tokens).
pub trait Source {
    fn value(&mut self, i: usize) -> R<V>;
    fn combos(&mut self, i: usize) -> R<Vec<Vec<(u16, u16)>>>;
}

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum How {
    Sum,
    Product,
    Max,
}

pub struct Combine {
    pub idxs: Vec<usize>,
    pub distinct: bool,
}

/// Why a fired pattern is not counted (or counted less): removed by a pattern, its count lowered to
/// nothing, or fewer of its combinations kept by a `combine` rule.
#[derive(Clone, Debug)]
pub enum Dropped {
    By(usize),
    Lowered,
    Combine(usize, i64), // (combine rule, how many fewer)
}

pub struct Tally {
    by: Vec<Vec<(usize, Option<i64>)>>,
    any: bool,
    rank: Vec<usize>,
    in_order: bool,
    pub combines: Vec<Combine>,
    pub unit_how: Vec<How>,
    pub unit_of: Vec<i64>, // -1: not a declared unit
    unit_patterns: Vec<Vec<usize>>,
    max_units: Vec<usize>,
    single_sum: bool,
}

/// A search of combination sets past this many subsets is left to the Python side.
const COMBO_BUDGET: u64 = 2_000_000;

fn nc(what: &str) -> crate::Error {
    crate::Error::NotCovered(format!("the native scoring does not take {what}"))
}

impl Tally {
    pub fn build(rs: &serde_json::Map<String, J>) -> Result<Tally, crate::Error> {
        let empty = Vec::new();
        let pats = rs.get("patterns").and_then(J::as_array).unwrap_or(&empty);
        let names: Vec<String> = pats.iter().map(|p| p.get("name").and_then(J::as_str).unwrap_or("").to_owned()).collect();
        // a dict built in declaration order keeps the last index of a repeated name: so here
        let index_last = |n: &str| names.iter().rposition(|x| x == n);
        let n = names.len();
        let mut by = Vec::with_capacity(n);
        for (i, p) in pats.iter().enumerate() {
            let mut edges = Vec::new();
            for x in p.get("excludes").and_then(J::as_array).unwrap_or(&empty) {
                let target = x.get("pattern").and_then(J::as_str).ok_or_else(|| nc("a malformed exclusion"))?;
                let dec = match x.get("decrement") {
                    None | Some(J::Null) => None,
                    Some(d) => Some(d.as_i64().ok_or_else(|| nc("a decrement that is not a whole number"))?),
                };
                if let Some(j) = index_last(target) {
                    if j != i {
                        edges.push((j, dec));
                    }
                }
            }
            by.push(edges);
        }
        let any = by.iter().any(|e: &Vec<(usize, Option<i64>)>| !e.is_empty());
        let mut incoming = vec![0usize; n];
        for edges in &by {
            for &(j, _) in edges {
                incoming[j] += 1;
            }
        }
        let mut ready: BinaryHeap<Reverse<usize>> = (0..n).filter(|&i| incoming[i] == 0).map(Reverse).collect();
        let mut order_v: Vec<usize> = Vec::with_capacity(n);
        let mut done = vec![false; n];
        while order_v.len() < n {
            if ready.is_empty() {
                // a cycle (refused by the checker): the first undecided pattern goes first
                let first = (0..n).find(|&i| !done[i]).unwrap_or(0);
                ready = BinaryHeap::from(vec![Reverse(first)]);
            }
            let Reverse(i) = ready.pop().unwrap_or(Reverse(0));
            if done[i] {
                continue;
            }
            done[i] = true;
            order_v.push(i);
            for &(j, _) in &by[i] {
                incoming[j] = incoming[j].saturating_sub(1);
                if incoming[j] == 0 && !done[j] {
                    ready.push(Reverse(j));
                }
            }
        }
        let mut rank = vec![0usize; n];
        for (r, &i) in order_v.iter().enumerate() {
            rank[i] = r;
        }
        let in_order = order_v.iter().enumerate().all(|(r, &i)| r == i);
        let mut combines = Vec::new();
        for c in rs.get("combines").and_then(J::as_array).unwrap_or(&empty) {
            let idxs = c
                .get("patterns")
                .and_then(J::as_array)
                .unwrap_or(&empty)
                .iter()
                .filter_map(|x| x.as_str().and_then(index_last))
                .collect();
            let distinct = c.get("distinct").and_then(J::as_bool).unwrap_or(true);
            combines.push(Combine { idxs, distinct });
        }
        let units = rs.get("units").and_then(J::as_array).unwrap_or(&empty);
        let unit_names: Vec<&str> = units.iter().map(|u| u.get("name").and_then(J::as_str).unwrap_or("")).collect();
        let mut unit_how = Vec::new();
        for u in units {
            unit_how.push(match u.get("combine").and_then(J::as_str).unwrap_or("sum") {
                "sum" => How::Sum,
                "product" => How::Product,
                "max" => How::Max,
                _ => return Err(nc("a unit combined this way")),
            });
        }
        let unit_of: Vec<i64> = pats
            .iter()
            .map(|p| {
                let u = p.get("unit").and_then(J::as_str).unwrap_or("");
                unit_names.iter().rposition(|x| *x == u).map(|j| j as i64).unwrap_or(-1)
            })
            .collect();
        let unit_patterns = (0..unit_how.len()).map(|u| (0..n).filter(|&i| unit_of[i] == u as i64).collect()).collect();
        let max_units = (0..unit_how.len()).filter(|&j| unit_how[j] == How::Max).collect();
        let single_sum = unit_how == [How::Sum] && !unit_of.contains(&-1);
        Ok(Tally {
            by,
            any,
            rank,
            in_order,
            combines,
            unit_how,
            unit_of,
            unit_patterns,
            max_units,
            single_sum,
        })
    }

    /// runtime/exclusions.py `Exclusions.apply`: (counted, in declaration order; dropped: pattern ->
    /// why), for the raw `counts` of the `fired` patterns (ascending).
    pub fn exclusions(&self, counts: &[i64], fired: &[usize]) -> R<Excluded> {
        if !self.any {
            return Ok((fired.iter().map(|&i| (i, counts[i])).collect(), Vec::new()));
        }
        let mut order_v: Vec<usize> = fired.to_vec();
        if !self.in_order {
            order_v.sort_by_key(|&i| self.rank[i]);
        }
        let n = counts.len();
        let mut removed: Vec<Option<usize>> = vec![None; n];
        let mut lowered: Vec<i64> = vec![0; n];
        let mut counted: Vec<(usize, i64)> = Vec::new();
        let mut dropped: Vec<(usize, Dropped)> = Vec::new();
        for &i in &order_v {
            if let Some(by) = removed[i] {
                dropped.push((i, Dropped::By(by)));
                continue;
            }
            let c = counts[i].checked_sub(lowered[i]).ok_or(Stop::Bail)?;
            if c <= 0 {
                dropped.push((i, Dropped::Lowered));
                continue;
            }
            counted.push((i, c));
            for &(j, dec) in &self.by[i] {
                match dec {
                    None => {
                        if removed[j].is_none() {
                            removed[j] = Some(i);
                        }
                    }
                    Some(d) => {
                        let l = d.checked_mul(c).and_then(|x| lowered[j].checked_add(x)).ok_or(Stop::Bail)?;
                        lowered[j] = l;
                    }
                }
            }
        }
        if !self.in_order {
            counted.sort_by_key(|&(i, _)| i);
        }
        dropped.sort_by_key(|&(i, _)| i); // the trace lists them by pattern index (`sorted(dropped)`)
        Ok((counted, dropped))
    }

    /// runtime/fans.py `Tally.final`: the final counts (declaration order) and the trace, given each
    /// pattern's value and the combinations a `combine` pattern counts (lists of meld tokens).
    pub fn finish(
        &self,
        counts: &[i64],
        fired: &[usize],
        src: &mut dyn Source,
        trace: &mut Vec<(usize, Dropped)>,
    ) -> R<Vec<(usize, i64)>> {
        let (mut fin, dropped) = self.exclusions(counts, fired)?;
        trace.extend(dropped);
        for (k, c) in self.combines.iter().enumerate() {
            let fired_c: Vec<usize> = c.idxs.iter().copied().filter(|i| fin.iter().any(|(j, _)| j == i)).collect();
            if fired_c.is_empty() {
                continue;
            }
            let mut edges: Vec<Edge> = Vec::new();
            for &i in &fired_c {
                let v = src.value(i)?;
                for combo in src.combos(i)? {
                    edges.push((i, combo, v.clone()));
                }
            }
            if edges.is_empty() {
                continue;
            }
            let best = best_combo_set(&edges, c.distinct)?;
            let mut kept: Vec<(usize, i64)> = Vec::new();
            for &e in &best {
                let i = edges[e].0;
                match kept.iter_mut().find(|(j, _)| *j == i) {
                    Some(x) => x.1 += 1,
                    None => kept.push((i, 1)),
                }
            }
            // `_keep`: each of the rule's patterns (in the rule's order) that counts
            for &i in &c.idxs {
                if let Some(pos) = fin.iter().position(|(j, _)| *j == i) {
                    let n = kept.iter().find(|(j, _)| *j == i).map(|x| x.1).unwrap_or(0);
                    let had = fin[pos].1;
                    if n < had {
                        trace.push((i, Dropped::Combine(k, had - n)));
                    }
                    if n > 0 {
                        fin[pos].1 = n;
                    } else {
                        fin.remove(pos);
                    }
                }
            }
        }
        for &j in &self.max_units {
            let fired_u: Vec<usize> = self.unit_patterns[j].iter().copied().filter(|i| fin.iter().any(|(x, _)| x == i)).collect();
            if fired_u.len() < 2 {
                continue;
            }
            // the highest value, ties: the one declared first
            let mut best = fired_u[0];
            let mut best_v = src.value(best)?;
            for &i in &fired_u[1..] {
                let v = src.value(i)?;
                if order(&v, &best_v).ok_or(Stop::Bail)?.is_gt() {
                    best = i;
                    best_v = v;
                }
            }
            for &i in &fired_u {
                if i != best {
                    fin.retain(|(x, _)| *x != i);
                    trace.push((i, Dropped::By(best)));
                }
            }
        }
        Ok(fin)
    }

    /// Each unit's value in declaration order (`Tally.units`).
    pub fn units(&self, fin: &[(usize, i64)], src: &mut dyn Source) -> R<Vec<V>> {
        if self.single_sum {
            let mut total = V::Int(0);
            for &(i, n) in fin {
                total = add(&total, &mul(&src.value(i)?, &V::Int(n))?)?;
            }
            return Ok(vec![total]);
        }
        let mut per: Vec<Vec<(V, i64)>> = vec![Vec::new(); self.unit_how.len()];
        for &(i, n) in fin {
            let j = self.unit_of[i];
            if j >= 0 {
                per[j as usize].push((src.value(i)?, n));
            }
        }
        let mut out = Vec::with_capacity(per.len());
        for (how, vals) in self.unit_how.iter().zip(per) {
            out.push(match how {
                How::Sum => {
                    let mut total = V::Int(0);
                    for (x, n) in &vals {
                        total = add(&total, &mul(x, &V::Int(*n))?)?;
                    }
                    total
                }
                How::Product => {
                    let mut total = V::Int(1);
                    for (x, n) in &vals {
                        total = mul(&total, &power(x, *n)?)?;
                    }
                    total
                }
                How::Max => {
                    // max(x for x, _ in vals), default 0: the first of the highest
                    let mut best: Option<V> = None;
                    for (x, _) in vals {
                        best = Some(match best {
                            None => x,
                            Some(b) => {
                                if order(&x, &b).ok_or(Stop::Bail)?.is_gt() {
                                    x
                                } else {
                                    b
                                }
                            }
                        });
                    }
                    best.unwrap_or(V::Int(0))
                }
            });
        }
        Ok(out)
    }
}

/// runtime/fans.py `best_combo_set`: the indexes (into `edges`, in order) of the most valuable subset
/// of combinations that can be built one at a time, each bringing in a meld not yet combined; with
/// `distinct`, no meld forms one pattern twice. Subsets are tried as `itertools.combinations` lists
/// them, largest first, a later one kept only when strictly more valuable.
fn best_combo_set(edges: &[Edge], distinct: bool) -> R<Vec<usize>> {
    let n = edges.len();
    if n == 1 {
        return Ok(vec![0]);
    }
    let mut best: Vec<usize> = Vec::new();
    let mut best_val: Option<V> = None;
    let mut budget = COMBO_BUDGET;
    for r in (1..=n).rev() {
        let mut idx: Vec<usize> = (0..r).collect();
        loop {
            if budget == 0 {
                return Err(Stop::Bail);
            }
            budget -= 1;
            let mut val = V::Int(0);
            for &e in &idx {
                val = add(&val, &edges[e].2)?;
            }
            let better = match &best_val {
                None => true,
                Some(b) => order(&val, b).ok_or(Stop::Bail)?.is_gt(),
            };
            if better && (!distinct || distinct_ok(edges, &idx)) && buildable(edges, &idx) {
                best = idx.clone();
                best_val = Some(val);
            }
            // the next combination
            let mut j = r;
            let mut more = false;
            while j > 0 {
                j -= 1;
                if idx[j] != j + n - r {
                    more = true;
                    break;
                }
            }
            if !more {
                break;
            }
            idx[j] += 1;
            for t in j + 1..r {
                idx[t] = idx[t - 1] + 1;
            }
        }
        if !best.is_empty() && n > 10 {
            break;
        }
    }
    Ok(best)
}

fn distinct_ok(edges: &[Edge], subset: &[usize]) -> bool {
    let mut seen: Vec<(usize, (u16, u16))> = Vec::new();
    for &e in subset {
        let (name, combo, _) = &edges[e];
        for m in combo {
            if seen.contains(&(*name, *m)) {
                return false;
            }
            seen.push((*name, *m));
        }
    }
    true
}

/// `_buildable`: remove, while possible, the first combination sharing at most one meld with all the
/// others; buildable when none is left.
fn buildable(edges: &[Edge], subset: &[usize]) -> bool {
    let mut remaining: Vec<usize> = subset.to_vec();
    while !remaining.is_empty() {
        let mut found = None;
        for (k, &e) in remaining.iter().enumerate() {
            let shared = edges[e]
                .1
                .iter()
                .filter(|m| remaining.iter().enumerate().any(|(j, &o)| j != k && edges[o].1.contains(m)))
                .count();
            if shared <= 1 {
                found = Some(k);
                break;
            }
        }
        match found {
            Some(k) => {
                remaining.remove(k);
            }
            None => return false,
        }
    }
    true
}
