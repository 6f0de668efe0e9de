//! How far a concealed hand is from a winning form, natively: `runtime/distance.py` (`Distance.distance`,
//! `settled`, `improving`) on the tables of `runtime/packed_tables.py`, the efficiency bot's measure. The
//! groups, blocks, parts of groups, forms and values are worked out once by the Python `Distance` from
//! the decomposer and handed here as data; this module answers the per-hand questions with the same
//! tables and the same arithmetic (the reference's docstrings say what they mean).
//!
//! A block's table for (M, P, V) is a flat vector, level-major then m-major (entry v·R + m·(P+1) + p),
//! of the most tiles m meld slots and p pair slots hold with groups worth v at least; `NEG` (below any
//! filling: no more tiles than a block holds are ever added to it) where no filling reaches the level,
//! read as -1 as the reference unpacks it. The counts of a block are packed 4 bits a position into a
//! `u128` (a block of at most 32 kinds, at most 15 of a kind): a hand outside that, or a table of more
//! than `MAX_ENTRIES` entries (slots and value levels), is not covered and the caller answers it in Python.

use crate::hash::{map, Map};
use crate::Error;

pub const FAR: i64 = 99;
const NEG: i32 = -1_000_000;
const KBITS: u32 = 4;
const KMAX: i64 = 15;
const MAX_BLOCK: usize = 32;
const MEMO_LIMIT: usize = 1_000_000; // keys a block's memo holds before it starts afresh (the reference's bound)
const ARENA_LIMIT: usize = 1 << 24; // entries a block's memo holds before it starts afresh (64 MB)
const MAX_ENTRIES: usize = 1 << 12; // entries of one table: more slots or value levels are not covered

/// A part of a group: its members (block position, count), its tiles, pair or meld slot, its worth (units).
pub struct Part {
    pub members: Vec<(usize, i64)>,
    pub size: i32,
    pub pair: bool,
    pub worth: i64,
}

/// A measured form (`Distance.forms`): melds, pairs (lo, hi), groups, concealed, the orphans members, and
/// whether a floor applies to it (`floor_forms` empty or naming it).
pub struct Form {
    pub melds: Option<i64>,
    pub pairs: (i64, i64),
    pub groups: Option<i64>,
    pub concealed: bool,
    pub members: Vec<usize>,
    pub floored: bool,
}

#[derive(Clone)]
struct Target {
    total: i64,
    melds: usize,
    pairs: usize,
    members: Vec<usize>,
    floored: bool,
}

/// One block's tables for one (M, P, V): entries of every packed count key met, in one arena.
struct Memo {
    entries: usize,
    arena: Vec<i32>,
    index: Map<u128, u32>,
}

impl Memo {
    fn new(entries: usize) -> Memo {
        Memo { entries, arena: Vec::new(), index: map() }
    }
}

pub struct Measure {
    n: usize,
    flower: Vec<bool>,
    copies: Vec<i64>,
    blocks: Vec<Vec<usize>>,
    parts: Vec<Vec<Vec<Part>>>,
    vparts: Option<Vec<Vec<Vec<Part>>>>,
    msizes: Vec<i64>,
    psizes: Vec<i64>,
    unit: i64,
    fresh_units: i64,
    valued: bool,
    forms: Vec<Form>,
    targets: Map<(i64, i64), Vec<Target>>,
    memos: Map<(usize, usize, usize, usize), Memo>,
}

#[allow(clippy::too_many_arguments)]
impl Measure {
    pub fn new(
        n: usize,
        flower: Vec<bool>,
        copies: Vec<i64>,
        blocks: Vec<Vec<usize>>,
        parts: Vec<Vec<Vec<Part>>>,
        vparts: Option<Vec<Vec<Vec<Part>>>>,
        msizes: Vec<i64>,
        psizes: Vec<i64>,
        unit: i64,
        fresh: i64,
        valued: bool,
        forms: Vec<Form>,
    ) -> Result<Measure, Error> {
        if flower.len() != n || copies.len() != n {
            return Err(Error::Input("the distance tables need a flag and a number of copies for every kind".into()));
        }
        if unit < 1 {
            return Err(Error::NotCovered("the native distance tables take a positive value unit".into()));
        }
        for b in &blocks {
            if b.len() > MAX_BLOCK {
                return Err(Error::NotCovered(format!(
                    "the native distance tables take blocks of at most {MAX_BLOCK} kinds"
                )));
            }
            if b.iter().any(|&k| k >= n) {
                return Err(Error::Input("a block names a kind out of range".into()));
            }
        }
        for ps in std::iter::once(&parts).chain(vparts.iter()) {
            if ps.len() != blocks.len() {
                return Err(Error::Input("the distance tables need the parts of every block".into()));
            }
            for (b, at) in ps.iter().enumerate() {
                if at.len() != blocks[b].len() {
                    return Err(Error::Input("the distance tables need the parts at every block position".into()));
                }
                for p in at.iter().flatten() {
                    if p.members.is_empty()
                        || p.members.iter().any(|&(j, c)| j >= blocks[b].len() || !(1..=KMAX).contains(&c))
                    {
                        return Err(Error::Input("a part of a group is out of its block".into()));
                    }
                    if p.worth < 0 {
                        return Err(Error::NotCovered("the native distance tables take no negative group worth".into()));
                    }
                }
            }
        }
        if forms.iter().any(|f| f.pairs.0 < 0) {
            return Err(Error::NotCovered("the native distance tables take no negative number of pairs".into()));
        }
        Ok(Measure {
            n,
            flower,
            copies,
            blocks,
            parts,
            vparts,
            msizes,
            psizes,
            unit,
            fresh_units: fresh / unit,
            valued,
            forms,
            targets: map(),
            memos: map(),
        })
    }

    fn targets(&mut self, melds: i64, size: i64) -> Vec<Target> {
        if let Some(t) = self.targets.get(&(melds, size)) {
            return t.clone();
        }
        let mut got = Vec::new();
        let total = size + 1;
        for f in &self.forms {
            if f.concealed && melds != 0 {
                continue;
            }
            if !f.members.is_empty() {
                if melds == 0 && total == f.members.len() as i64 + 1 {
                    got.push(Target { total, melds: 0, pairs: 0, members: f.members.clone(), floored: f.floored });
                }
                continue;
            }
            for p in f.pairs.0..=f.pairs.1 {
                let m = match f.groups {
                    Some(g) => g - p,
                    None => f.melds.unwrap_or(0),
                } - melds;
                if m < 0 || p < 0 {
                    continue;
                }
                if self.msizes.iter().any(|ms| self.psizes.iter().any(|ps| ms * m + ps * p == total)) {
                    got.push(Target { total, melds: m as usize, pairs: p as usize, members: vec![], floored: f.floored });
                }
            }
        }
        self.targets.insert((melds, size), got.clone());
        got
    }

    /// Whether a hand of `size` tiles with `melds` laid down is measured (`Distance.targets` not empty).
    pub fn has_targets(&mut self, melds: i64, size: i64) -> bool {
        !self.targets(melds, size).is_empty()
    }

    fn floor(&self, t: &Target, need: i64) -> usize {
        if need <= 0 || !self.valued || !t.floored {
            return 0;
        }
        (need + self.unit - 1).div_euclid(self.unit) as usize
    }

    fn key(&self, counts: &[i64], b: usize) -> Option<u128> {
        let mut key = 0u128;
        for (j, &k) in self.blocks[b].iter().enumerate() {
            let c = counts[k];
            if !(0..=KMAX).contains(&c) {
                return None;
            }
            key |= (c as u128) << (j as u32 * KBITS);
        }
        Some(key)
    }

    /// The block's table for the packed counts (entries -1 where no filling reaches the level); None
    /// for a table of more than `MAX_ENTRIES` entries (the caller asks the reference).
    fn block_table(&mut self, b: usize, key: u128, m: usize, p: usize, v: usize) -> Option<Vec<i32>> {
        let entries = (v + 1).checked_mul(m + 1)?.checked_mul(p + 1)?;
        if entries > MAX_ENTRIES {
            return None;
        }
        let mut memo = self.memos.remove(&(b, m, p, v)).unwrap_or_else(|| Memo::new(entries));
        if memo.index.len() > MEMO_LIMIT || memo.arena.len() > ARENA_LIMIT {
            memo = Memo::new(entries);
        }
        let parts = if v > 0 { self.vparts.as_ref().unwrap_or(&self.parts) } else { &self.parts };
        let at = table(&parts[b], key, m, p, v, &mut memo);
        let out = memo.arena[at..at + entries].iter().map(|&x| if x < 0 { -1 } else { x }).collect();
        self.memos.insert((b, m, p, v), memo);
        Some(out)
    }

    fn used_key(&mut self, counts: &[i64], t: &Target, need: i64) -> Option<i64> {
        if !t.members.is_empty() {
            let held = t.members.iter().filter(|&&k| counts[k] != 0).count() as i64;
            return Some(held + t.members.iter().any(|&k| counts[k] >= 2) as i64);
        }
        let v = self.floor(t, need);
        let mut acc: Option<Vec<i32>> = None;
        for b in 0..self.blocks.len() {
            let key = self.key(counts, b)?;
            let tab = self.block_table(b, key, t.melds, t.pairs, v)?;
            acc = Some(match acc {
                None => tab,
                Some(a) => combine(&a, &tab, t.melds, t.pairs, v),
            });
        }
        Some(self.fin(acc.as_deref(), t, v))
    }

    fn fin(&self, acc: Option<&[i32]>, t: &Target, v: usize) -> i64 {
        let fresh = self.fresh_units;
        let Some(acc) = acc else {
            return if v == 0 || t.melds as i64 * fresh >= v as i64 { 0 } else { -1 };
        };
        if v == 0 {
            return acc[acc.len() - 1] as i64;
        }
        let width = t.pairs + 1;
        let row = (t.melds + 1) * width;
        let mut best = -1i64;
        for k in 0..=t.melds {
            let level = (v as i64 - k as i64 * fresh).max(0) as usize;
            let x = acc[level * row + (t.melds - k) * width + t.pairs] as i64;
            if x > best {
                best = x;
            }
            if level == 0 {
                break;
            }
        }
        best
    }

    fn check(&self, counts: &[i64]) -> Result<(), Error> {
        if counts.len() != self.n {
            return Err(Error::Input(format!("the distance tables take counts of {} kinds", self.n)));
        }
        Ok(())
    }

    /// `Distance.distance`; None where a count is outside the packed keys (the caller asks the reference).
    pub fn distance(&mut self, counts: &[i64], wilds: i64, melds: i64, need: i64) -> Result<Option<i64>, Error> {
        self.check(counts)?;
        let size = counts.iter().sum::<i64>() + wilds;
        let mut best = FAR;
        for t in self.targets(melds, size) {
            let Some(u) = self.used_key(counts, &t, need) else { return Ok(None) };
            if u < 0 {
                continue;
            }
            let d = t.total - t.total.min(u + wilds);
            best = best.min(d);
        }
        Ok(Some(best))
    }

    /// `Distance.settled`.
    pub fn settled(&mut self, counts: &[i64], wilds: i64, melds: i64, need: i64) -> Result<Option<i64>, Error> {
        self.check(counts)?;
        let nat: i64 = counts.iter().sum();
        let mut best = FAR;
        for t in self.targets(melds, nat + wilds - 1) {
            let filled = if nat != 0 {
                let Some(u) = self.used_key(counts, &t, need) else { return Ok(None) };
                if u < 0 {
                    continue;
                }
                u.min(nat - 1) + wilds
            } else {
                let v = self.floor(&t, need);
                if self.fin(None, &t, v) < 0 {
                    continue;
                }
                wilds - 1
            };
            best = best.min(t.total - t.total.min(filled));
        }
        Ok(Some(best))
    }

    /// `Distance.improving`: the distance and the kinds one more of which lowers it, sorted.
    pub fn improving(
        &mut self,
        counts: &mut [i64],
        wilds: i64,
        melds: i64,
        need: i64,
    ) -> Result<Option<(i64, Vec<usize>)>, Error> {
        self.check(counts)?;
        let size = counts.iter().sum::<i64>() + wilds;
        let targets = self.targets(melds, size);
        if targets.is_empty() {
            return Ok(Some((FAR, vec![])));
        }
        let mut best = FAR;
        let mut per = Vec::with_capacity(targets.len());
        for t in &targets {
            let Some(u) = self.used_key(counts, t, need) else { return Ok(None) };
            let d = if u >= 0 { t.total - t.total.min(u + wilds) } else { FAR };
            per.push(d);
            best = best.min(d);
        }
        if best == 0 || best >= FAR {
            return Ok(Some((best.min(FAR), vec![])));
        }
        let mut out: Vec<usize> = Vec::new();
        for (t, &d) in targets.iter().zip(&per) {
            if d > best {
                continue;
            }
            let Some(gains) = self.gains(counts, t, d, need) else { return Ok(None) };
            for k in gains {
                if !out.contains(&k) {
                    out.push(k);
                }
            }
        }
        out.sort_unstable();
        Ok(Some((best, out)))
    }

    fn gains(&mut self, counts: &mut [i64], t: &Target, lack: i64, need: i64) -> Option<Vec<usize>> {
        if lack <= 0 {
            return Some(vec![]);
        }
        let mut out = Vec::new();
        if !t.members.is_empty() {
            let base = self.used_key(counts, t, 0)?;
            for &k in &t.members {
                if counts[k] >= self.copies[k] {
                    continue;
                }
                counts[k] += 1;
                let u = self.used_key(counts, t, 0);
                counts[k] -= 1;
                if u? > base {
                    out.push(k);
                }
            }
            return Some(out);
        }
        let (m, p) = (t.melds, t.pairs);
        let v = self.floor(t, need);
        let mut tabs = Vec::with_capacity(self.blocks.len());
        for b in 0..self.blocks.len() {
            let key = self.key(counts, b)?;
            tabs.push(self.block_table(b, key, m, p, v)?);
        }
        let base = self.fin(reduce(tabs.iter(), m, p, v).as_deref(), t, v);
        for b in 0..self.blocks.len() {
            let others = reduce(tabs.iter().enumerate().filter(|&(i, _)| i != b).map(|(_, x)| x), m, p, v);
            let kinds = self.blocks[b].clone();
            let key = self.key(counts, b)?;
            for (j, &k) in kinds.iter().enumerate() {
                let c = ((key >> (j as u32 * KBITS)) & 0xF) as i64;
                if self.flower[k] || c >= self.copies[k] {
                    continue;
                }
                if c + 1 > KMAX {
                    return None;
                }
                let tab = self.block_table(b, key + (1u128 << (j as u32 * KBITS)), m, p, v)?;
                let both = match &others {
                    None => tab,
                    Some(o) => combine(o, &tab, m, p, v),
                };
                if self.fin(Some(&both), t, v) > base {
                    out.push(k);
                }
            }
        }
        Some(out)
    }
}

fn reduce<'a>(tabs: impl Iterator<Item = &'a Vec<i32>>, m: usize, p: usize, v: usize) -> Option<Vec<i32>> {
    let mut acc: Option<Vec<i32>> = None;
    for t in tabs {
        acc = Some(match acc {
            None => t.clone(),
            Some(a) => combine(&a, t, m, p, v),
        });
    }
    acc
}

/// Two blocks' tables together (`Distance._combine` and `_combine_levels`): the max-plus product over the
/// slots (and the value levels, worth v1 in one and v - v1 in the other).
fn combine(a: &[i32], b: &[i32], mm: usize, pp: usize, vv: usize) -> Vec<i32> {
    let width = pp + 1;
    let row = (mm + 1) * width;
    if vv == 0 {
        let mut out = vec![0i32; row];
        for m in 0..=mm {
            for p in 0..width {
                let mut best = 0;
                for m1 in 0..=m {
                    let (ra, rb) = (m1 * width, (m - m1) * width);
                    for p1 in 0..=p {
                        best = best.max(a[ra + p1] + b[rb + p - p1]);
                    }
                }
                out[m * width + p] = best;
            }
        }
        return out;
    }
    let empty = |t: &[i32]| t[..row].iter().all(|&x| x == 0) && t[row..].iter().all(|&x| x < 0);
    if empty(b) {
        return a.to_vec();
    }
    if empty(a) {
        return b.to_vec();
    }
    let mut out = vec![-1i32; (vv + 1) * row];
    for v in 0..=vv {
        for m in 0..=mm {
            for p in 0..width {
                let mut best = -1;
                for v1 in 0..=v {
                    for m1 in 0..=m {
                        for p1 in 0..=p {
                            let x = a[v1 * row + m1 * width + p1];
                            let y = b[(v - v1) * row + (m - m1) * width + p - p1];
                            if x >= 0 && y >= 0 && x + y > best {
                                best = x + y;
                            }
                        }
                    }
                }
                out[v * row + m * width + p] = best;
            }
        }
    }
    out
}

/// The table of the packed counts (`Packing.table`): the tiles of the lowest position held either left
/// out or the lowest member of a part in a slot, the rest worked out the same way; memoised by key.
/// Returns the entries' offset in the memo's arena.
fn table(parts: &[Vec<Part>], key: u128, mm: usize, pp: usize, vv: usize, memo: &mut Memo) -> usize {
    let e = memo.entries;
    if let Some(&at) = memo.index.get(&key) {
        return at as usize * e;
    }
    let width = pp + 1;
    let row = (mm + 1) * width;
    let mut best: Vec<i32>;
    if key == 0 {
        best = vec![NEG; e];
        best[..row].fill(0);
    } else {
        let j = (key.trailing_zeros() / KBITS) as usize;
        let rest = key & !(0xFu128 << (j as u32 * KBITS));
        let at = table(parts, rest, mm, pp, vv, memo);
        best = memo.arena[at..at + e].to_vec();
        let mut cand = vec![NEG; e];
        for part in &parts[j] {
            let mut sub_key = key;
            let mut held = true;
            for &(q, c) in &part.members {
                let have = ((key >> (q as u32 * KBITS)) & 0xF) as i64;
                if have < c {
                    held = false;
                    break;
                }
                sub_key -= (c as u128) << (q as u32 * KBITS);
            }
            if !held {
                continue;
            }
            let at = table(parts, sub_key, mm, pp, vv, memo);
            let sub = &memo.arena[at..at + e];
            let shift = |v: usize, m: usize, p: usize| -> i32 {
                if part.pair {
                    if p == 0 { NEG } else { sub[v * row + m * width + p - 1] + part.size }
                } else if m == 0 {
                    NEG
                } else {
                    sub[v * row + (m - 1) * width + p] + part.size
                }
            };
            for v in 0..=vv {
                let from = if part.worth > 0 && vv > 0 { (v as i64 - part.worth).max(0) as usize } else { v };
                for m in 0..=mm {
                    for p in 0..width {
                        cand[v * row + m * width + p] = shift(from, m, p);
                    }
                }
            }
            for (x, &c) in best.iter_mut().zip(&cand) {
                if c > *x {
                    *x = c;
                }
            }
        }
    }
    let at = memo.arena.len() / e;
    memo.arena.extend_from_slice(&best);
    memo.index.insert(key, at as u32);
    at * e
}

// ---------------------------------------------------------------------------------------------- Python

use pyo3::prelude::*;

type PyPart = (Vec<(usize, i64)>, i32, bool, i64);
type PyForm = (Option<i64>, (i64, i64), Option<i64>, bool, Vec<usize>, bool);

fn parts_of(ps: Vec<Vec<Vec<PyPart>>>) -> Vec<Vec<Vec<Part>>> {
    ps.into_iter()
        .map(|b| {
            b.into_iter()
                .map(|at| {
                    at.into_iter()
                        .map(|(members, size, pair, worth)| Part { members, size, pair, worth })
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// `runtime/distance.py`'s per-hand questions on data the Python `Distance` worked out (its `native`).
/// Each answer is None where the hand is outside the packed keys; the caller then asks the reference.
#[pyclass(module = "_native", unsendable)]
pub struct DistanceTables {
    pub(crate) m: Measure,
}

#[pymethods]
impl DistanceTables {
    #[new]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (flower, copies, blocks, parts, vparts, msizes, psizes, unit, fresh, valued, forms))]
    fn new(
        flower: Vec<bool>,
        copies: Vec<i64>,
        blocks: Vec<Vec<usize>>,
        parts: Vec<Vec<Vec<PyPart>>>,
        vparts: Option<Vec<Vec<Vec<PyPart>>>>,
        msizes: Vec<i64>,
        psizes: Vec<i64>,
        unit: i64,
        fresh: i64,
        valued: bool,
        forms: Vec<PyForm>,
    ) -> PyResult<Self> {
        let forms = forms
            .into_iter()
            .map(|(melds, pairs, groups, concealed, members, floored)| Form {
                melds,
                pairs,
                groups,
                concealed,
                members,
                floored,
            })
            .collect();
        let n = flower.len();
        let m = crate::guarded(|| {
            Measure::new(
                n,
                flower,
                copies,
                blocks,
                parts_of(parts),
                vparts.map(parts_of),
                msizes,
                psizes,
                unit,
                fresh,
                valued,
                forms,
            )
        })?;
        Ok(DistanceTables { m })
    }

    fn distance(&mut self, counts: Vec<i64>, wilds: i64, melds: i64, need: i64) -> PyResult<Option<i64>> {
        let m = &mut self.m;
        Ok(crate::guarded(|| m.distance(&counts, wilds, melds, need))?)
    }

    fn settled(&mut self, counts: Vec<i64>, wilds: i64, melds: i64, need: i64) -> PyResult<Option<i64>> {
        let m = &mut self.m;
        Ok(crate::guarded(|| m.settled(&counts, wilds, melds, need))?)
    }

    fn improving(
        &mut self,
        mut counts: Vec<i64>,
        wilds: i64,
        melds: i64,
        need: i64,
    ) -> PyResult<Option<(i64, Vec<usize>)>> {
        let m = &mut self.m;
        Ok(crate::guarded(|| m.improving(&mut counts, wilds, melds, need))?)
    }
}
