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

use std::sync::Arc;

use crate::hash::{map, Map};
use crate::Error;

mod binding;
mod product;
mod tables;
pub use binding::DistanceTables;
use product::{next_tables, Memo, Slots, KBITS, OVER, SKIP};
pub use product::Part;

pub const FAR: i64 = 99;
type BlockParts = Vec<Vec<Part>>; // a block's parts, per position
const KMAX: i64 = 15;
const MAX_BLOCK: usize = 32;
const MEMO_LIMIT: usize = 1_000_000; // keys a block's memo holds before it starts afresh (the reference's bound)
const ARENA_LIMIT: usize = 1 << 24; // entries a block's memo holds before it starts afresh (64 MB)
// What all the blocks' memos may hold together (arena entries and keys, weighted as their bytes: an entry
// is 4 bytes, a key some 32 with its map's slack) before the largest start afresh. The per-memo bounds
// alone let 100 memos (blocks × slots) grow to 64 MB each: the bundled paper-card variant's efficiency
// bots held 92 million arena entries (RSS 870 MB) after 1,000 hands. 256 MB keeps the memos most
// questions ask (a few hundred hands' worth) while the process's memory stays flat; the answers do not
// depend on it.
const HELD_BYTES: usize = 256 << 20;
const MAX_ENTRIES: usize = 1 << 12; // entries of one table: more slots or value levels are not covered

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

pub struct Measure {
    n: usize,
    flower: Vec<bool>,
    copies: Vec<i64>,
    blocks: Vec<Vec<usize>>,
    place: Vec<Option<(usize, usize)>>, // per kind: its block and position, when in exactly one block
    parts: Vec<Vec<Vec<Part>>>,
    vparts: Option<Vec<Vec<Vec<Part>>>>,
    msizes: Vec<i64>,
    psizes: Vec<i64>,
    unit: i64,
    fresh_units: i64,
    valued: bool,
    forms: Vec<Form>,
    targets: Map<(i64, i64), Arc<[Target]>>, // (Arc: the tables may move between threads, hand_binding.rs)
    memos: Map<(usize, usize, usize), Vec<Memo>>, // per (M, P, V), per block
    answers: Map<Box<[u8]>, Answer>, // the questions' answers by counts, wildcards, melds and need
    asked: u64,                      // questions asked (`trim` looks at the bounds every `TRIM_EVERY`)
}

const Q_DISTANCE: u8 = 0;
const Q_IMPROVING: u8 = 1;
const Q_SETTLED: u8 = 2;
const ANSWERS_LIMIT: usize = 200_000; // answers held before the memo starts afresh
const TRIM_EVERY: u64 = 64;

/// A memoised answer: the answers are functions of the question alone (the tables are fixed).
enum Answer {
    Dist(Option<i64>),
    Improving(Option<(i64, Vec<usize>)>),
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
            place: place_of(n, &blocks),
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
            answers: map(),
            asked: 0,
        })
    }

    fn targets(&mut self, melds: i64, size: i64) -> Arc<[Target]> {
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
        let got: Arc<[Target]> = got.into();
        self.targets.insert((melds, size), got.clone());
        got
    }

    /// Whether a hand of `size` tiles with `melds` laid down is measured (`Distance.targets` not empty).
    pub fn has_targets(&mut self, melds: i64, size: i64) -> bool {
        !self.targets(melds, size).is_empty()
    }

    fn slots(&self, t: &Target, need: i64) -> Slots {
        let v = if need <= 0 || !self.valued || !t.floored { 0 } else { (need + self.unit - 1).div_euclid(self.unit) as usize };
        Slots { m: t.melds, p: t.pairs, v, fresh: self.fresh_units }
    }

    fn key(&self, counts: &[i64], b: usize) -> Option<u128> {
        key_of(&self.blocks[b], counts)
    }

    fn used_key(&mut self, counts: &[i64], t: &Target, need: i64) -> Option<i64> {
        if !t.members.is_empty() {
            let held = t.members.iter().filter(|&&k| counts[k] != 0).count() as i64;
            return Some(held + t.members.iter().any(|&k| counts[k] >= 2) as i64);
        }
        let s = self.slots(t, need);
        let offs = self.block_offsets(counts, s)?;
        Some(self.product_fin(&offs, s))
    }

    fn check(&self, counts: &[i64]) -> Result<(), Error> {
        if counts.len() != self.n {
            return Err(Error::Input(format!("the distance tables take counts of {} kinds", self.n)));
        }
        Ok(())
    }

    /// The memo key of a question (None: a count no byte holds, not memoised).
    fn answer_key(q: u8, counts: &[i64], wilds: i64, melds: i64, need: i64) -> Option<Box<[u8]>> {
        let mut k = Vec::with_capacity(counts.len() + 25);
        k.push(q);
        for &c in counts {
            k.push(u8::try_from(c).ok()?);
        }
        for x in [wilds, melds, need] {
            k.extend_from_slice(&x.to_le_bytes());
        }
        Some(k.into_boxed_slice())
    }

    /// `Distance.distance`; None where a count is outside the packed keys (the caller asks the reference).
    pub fn distance(&mut self, counts: &[i64], wilds: i64, melds: i64, need: i64) -> Result<Option<i64>, Error> {
        self.check(counts)?;
        self.trim();
        let key = Self::answer_key(Q_DISTANCE, counts, wilds, melds, need);
        if let Some(Answer::Dist(d)) = key.as_ref().and_then(|k| self.answers.get(k)) {
            return Ok(*d);
        }
        let got = self.distance_of(counts, wilds, melds, need);
        if let Some(k) = key {
            self.answers.insert(k, Answer::Dist(got));
        }
        Ok(got)
    }

    fn distance_of(&mut self, counts: &[i64], wilds: i64, melds: i64, need: i64) -> Option<i64> {
        let size = counts.iter().sum::<i64>() + wilds;
        let mut best = FAR;
        for t in self.targets(melds, size).iter() {
            let u = self.used_key(counts, t, need)?;
            if u < 0 {
                continue;
            }
            let d = t.total - t.total.min(u + wilds);
            best = best.min(d);
        }
        Some(best)
    }

    /// `distance` of the counts less one of each kind of `kinds`, answer by answer as `distance` gives
    /// it (None: that hand is outside the packed keys). The hands differ from each other in one block:
    /// per target the other blocks' product is made once (prefix and suffix products) and each hand
    /// reads its own block's table against it, at the entries the reading looks at only.
    pub fn distances_without(
        &mut self,
        counts: &mut [i64],
        wilds: i64,
        melds: i64,
        need: i64,
        kinds: &[usize],
    ) -> Result<Vec<Option<i64>>, Error> {
        self.check(counts)?;
        if kinds.iter().any(|&k| k >= self.n) {
            return Err(Error::Input("a kind out of range".into()));
        }
        self.trim();
        let size = counts.iter().sum::<i64>() - 1 + wilds;
        let mut best: Vec<Option<i64>> = vec![Some(FAR); kinds.len()];
        for t in self.targets(melds, size).iter() {
            let used = self.used_without(counts, t, need, kinds);
            for (b, u) in best.iter_mut().zip(used) {
                *b = match (*b, u) {
                    (Some(d), Some(u)) if u >= 0 => Some(d.min(t.total - t.total.min(u + wilds))),
                    (Some(d), Some(_)) => Some(d),
                    _ => None,
                };
            }
        }
        Ok(best)
    }

    /// `used_key` of the counts less one of each kind of `kinds`.
    fn used_without(&mut self, counts: &mut [i64], t: &Target, need: i64, kinds: &[usize]) -> Vec<Option<i64>> {
        let one_by_one = |me: &mut Self, counts: &mut [i64]| -> Vec<Option<i64>> {
            kinds
                .iter()
                .map(|&k| {
                    counts[k] -= 1;
                    let u = me.used_key(counts, t, need);
                    counts[k] += 1;
                    u
                })
                .collect()
        };
        if !t.members.is_empty() {
            return one_by_one(self, counts);
        }
        let s = self.slots(t, need);
        let Some(offs) = self.block_offsets(counts, s) else { return one_by_one(self, counts) };
        // each hand's own block's table (None: the kind is in no block)
        let mut own: Vec<Option<(usize, usize)>> = Vec::with_capacity(kinds.len());
        for &k in kinds {
            own.push(match self.place[k] {
                Some((b, j)) => {
                    let key = key_of(&self.blocks[b], counts).unwrap_or(0);
                    if (key >> (j as u32 * KBITS)) & 0xF == 0 {
                        return one_by_one(self, counts);
                    }
                    Some((b, self.block_at(b, key - (1u128 << (j as u32 * KBITS)), s).unwrap_or(0)))
                }
                None if self.blocks.iter().any(|x| x.contains(&k)) => return one_by_one(self, counts),
                None => None,
            });
        }
        let (others, whole) = self.others(&offs, s);
        let memos = self.read_or_none(s).expect("tables were made");
        own.iter()
            .map(|o| {
                Some(match *o {
                    None => s.fin(whole.as_deref()),
                    Some((b, at)) => {
                        // the block is held (the kind was counted): the others are the held but it
                        let i = offs.iter().position(|x| x.0 == b).expect("a held block");
                        Self::with_others(s, others[i].as_ref(), memos[b].at(at))
                    }
                })
            })
            .collect()
    }

    /// `Distance.settled` (memoised: a seat asked whether to claim asks it of the same hand at every
    /// discard of the others).
    pub fn settled(&mut self, counts: &[i64], wilds: i64, melds: i64, need: i64) -> Result<Option<i64>, Error> {
        self.check(counts)?;
        self.trim();
        let key = Self::answer_key(Q_SETTLED, counts, wilds, melds, need);
        if let Some(Answer::Dist(d)) = key.as_ref().and_then(|k| self.answers.get(k)) {
            return Ok(*d);
        }
        let got = self.settled_of(counts, wilds, melds, need);
        if let Some(k) = key {
            self.answers.insert(k, Answer::Dist(got));
        }
        Ok(got)
    }

    fn settled_of(&mut self, counts: &[i64], wilds: i64, melds: i64, need: i64) -> Option<i64> {
        let nat: i64 = counts.iter().sum();
        let mut best = FAR;
        for t in self.targets(melds, nat + wilds - 1).iter() {
            let filled = if nat != 0 {
                let u = self.used_key(counts, t, need)?;
                if u < 0 {
                    continue;
                }
                u.min(nat - 1) + wilds
            } else {
                if self.slots(t, need).fin(None) < 0 {
                    continue;
                }
                wilds - 1
            };
            best = best.min(t.total - t.total.min(filled));
        }
        Some(best)
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
        self.trim();
        let key = Self::answer_key(Q_IMPROVING, counts, wilds, melds, need);
        if let Some(Answer::Improving(got)) = key.as_ref().and_then(|k| self.answers.get(k)) {
            return Ok(got.clone());
        }
        let got = self.improving_of(counts, wilds, melds, need);
        if let Some(k) = key {
            self.answers.insert(k, Answer::Improving(got.clone()));
        }
        Ok(got)
    }

    fn improving_of(&mut self, counts: &mut [i64], wilds: i64, melds: i64, need: i64) -> Option<(i64, Vec<usize>)> {
        let size = counts.iter().sum::<i64>() + wilds;
        let targets = self.targets(melds, size);
        if targets.is_empty() {
            return Some((FAR, vec![]));
        }
        let mut best = FAR;
        let mut per = Vec::with_capacity(targets.len());
        for t in targets.iter() {
            let u = self.used_key(counts, t, need)?;
            let d = if u >= 0 { t.total - t.total.min(u + wilds) } else { FAR };
            per.push(d);
            best = best.min(d);
        }
        if best == 0 || best >= FAR {
            return Some((best.min(FAR), vec![]));
        }
        let mut out: Vec<usize> = Vec::new();
        for (t, &d) in targets.iter().zip(&per) {
            if d > best {
                continue;
            }
            for k in self.gains(counts, t, d, need)? {
                if !out.contains(&k) {
                    out.push(k);
                }
            }
        }
        out.sort_unstable();
        Some((best, out))
    }

    /// The kinds one more of which raises the tiles the target's slots hold. Each block's table is
    /// combined with the product of the others (prefix and suffix products: each block's "others" at the
    /// cost of one product), and only the entries the reading looks at are worked out per kind.
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
        let s = self.slots(t, need);
        let offs = self.block_offsets(counts, s)?;
        // every table one more of a kind makes, first (the arenas grow); then the products, read-only
        let mut tries: Vec<(usize, usize, usize)> = Vec::new(); // (block, kind, offset)
        let mut keys = Vec::with_capacity(self.blocks.len());
        for b in 0..self.blocks.len() {
            keys.push(self.key(counts, b)?);
        }
        let (blocks, flower, copies) = (&self.blocks, &self.flower, &self.copies);
        let parts = if s.v > 0 { self.vparts.as_ref().unwrap_or(&self.parts) } else { &self.parts };
        let memos = self.memos.get_mut(&(s.m, s.p, s.v)).expect("made by block_offsets");
        for (b, &key) in keys.iter().enumerate() {
            let kinds = &blocks[b];
            let tried = |j: usize, c: i64| !flower[kinds[j]] && c < copies[kinds[j]];
            let memo = &mut memos[b];
            let e = memo.entries;
            for (j, &at) in next_tables(&parts[b], key, kinds.len(), tried, KMAX, s, memo).iter().enumerate() {
                match at {
                    SKIP => continue,
                    OVER => return None,
                    at => tries.push((b, kinds[j], at as usize * e)),
                }
            }
        }
        let (others, whole) = self.others(&offs, s);
        let base = s.fin(whole.as_deref());
        let memos = self.read_or_none(s).expect("tables were made");
        for (b, k, at) in tries {
            // a held block: the other held blocks; one holding none: all of them
            let o = match offs.iter().position(|x| x.0 == b) {
                Some(i) => others[i].as_ref(),
                None => whole.as_ref(),
            };
            if Self::with_others(s, o, memos[b].at(at)) > base {
                out.push(k);
            }
        }
        Some(out)
    }
}

/// Per kind, its block and position in it when it is in exactly one block.
fn place_of(n: usize, blocks: &[Vec<usize>]) -> Vec<Option<(usize, usize)>> {
    let mut seen = vec![0usize; n];
    let mut place = vec![None; n];
    for (b, kinds) in blocks.iter().enumerate() {
        for (j, &k) in kinds.iter().enumerate() {
            seen[k] += 1;
            place[k] = Some((b, j));
        }
    }
    place.into_iter().zip(seen).map(|(p, s)| if s == 1 { p } else { None }).collect()
}

/// The packed counts of a block's kinds (None: a count outside what a position holds).
fn key_of(block: &[usize], counts: &[i64]) -> Option<u128> {
    let mut key = 0u128;
    for (j, &k) in block.iter().enumerate() {
        let c = counts[k];
        if !(0..=KMAX).contains(&c) {
            return None;
        }
        key |= (c as u128) << (j as u32 * KBITS);
    }
    Some(key)
}
