//! Structural win checks and waits by independent blocks of tile kinds — the native port of
//! runtime/decompose.py (group shapes, placements with wildcards) and runtime/fastwin.py (blocks,
//! per-block option sets, their combination, `fits`, completing kinds).
//!
//! A block's tiles are a count vector packed four bits per kind into a `u128` (counts up to 7, at
//! most 32 kinds a block). Its option set is every `(melds, pairs, wildcards used)` that splits all
//! of its tiles, with at most `cap` wildcards; a hand fits `(wilds, melds, pairs)` when some sum of
//! its blocks' options leaves wildcards that form the missing groups on their own (sizes only, as
//! the reference's `_sum_fits`). Option sets are memoised per block key and interned.

use std::collections::HashMap;

use crate::catalog::Catalog;
use crate::hash::{map, Map};
use crate::ruleset::RuleSet;
use crate::Error;

const NIBBLE_HIGH: u128 = 0x8888_8888_8888_8888_8888_8888_8888_8888;
pub const MAX_COUNT: u8 = 7; // the most tiles of one kind a count vector may hold
pub const MAX_BLOCK: usize = 32; // kinds in one block (four bits each in a u128)
pub const MAX_CAP: usize = 8; // as runtime/fastwin.py's WILD_CAP
pub const MAX_GROUPS: usize = 32; // melds or pairs asked of one hand
/// The bytes (estimated: keys, values, interned sets and a map slot's overhead each) the tables' memos
/// hold before they start afresh. A bound in entries let a long run's sets of many options (hands with
/// wildcards under a high cap) hold some 300 MB; the memos are a cache, so results do not depend on it.
const MEMO_LIMIT: usize = 96 << 20;
const SLOT: usize = 48; // a map entry's overhead besides its key and value

#[derive(Clone, Copy, PartialEq, Eq)]
enum ShapeKind {
    Same,
    Run,
    Ranks,
    Tiles,
    SameRank,
}

struct Spec {
    name: String, // the meld kind's
    shape: ShapeKind,
    size: usize,
    is_pair: bool,
    ranks: Vec<i64>,  // sorted
    tiles: Vec<usize>, // catalog indexes, sorted
    mixed: bool,
    no_wild: bool, // a kind named in some wild's `no_meld`
}

/// One way to take a group whose lowest natural member is a given kind: its natural tiles (as a
/// packed count vector to subtract), the wildcards it uses, and whether it is a meld or a pair.
#[derive(Clone, Copy)]
struct Template {
    delta: u128,
    wilds: u8,
    meld: u8,
    pair: u8,
}

/// One group of natural tiles whose lowest member is a given kind, for enumerating splits (Python
/// `BlockWin.block_splits`): its natural tiles as a packed count vector, its id in
/// `Tables::split_groups`, and whether it is a meld or a pair. Unlike `Template`, two shapes that take
/// the same tiles stay two entries (they are two groups of a reading).
#[derive(Clone, Copy)]
struct SplitTemplate {
    delta: u128,
    id: u32,
    pair: bool,
}

/// One split of a block's tiles without wildcards: its melds, pairs and groups (ids of
/// `Tables::split_groups`, in the order the reference's search places them).
pub struct BlockSplit {
    melds: u8,
    pairs: u8,
    groups: Box<[u32]>,
}

struct Block {
    kinds: Vec<usize>,               // catalog indexes, ascending
    templates: Vec<Vec<Template>>,   // per local position
    memo: Map<u128, u32>,            // block key -> interned option set
    capped: Vec<Map<u128, u32>>,     // per level below the cap: block key -> its options within it
    split_templates: Vec<Vec<SplitTemplate>>, // per local position, in the reference's order
    splits: Map<u128, std::sync::Arc<[BlockSplit]>>, // block key -> every split without wildcards
    // (block key, level) -> the option set within the level of the key with one more tile of each of
    // its kinds, in order (the completing kinds read them all together: one lookup instead of one a kind)
    plus_one: Map<(u128, u8), std::sync::Arc<[u32]>>,
}

#[inline]
fn pack(m: u32, p: u32, w: u32) -> u32 {
    m | (p << 8) | (w << 16)
}

#[inline]
fn unpack(e: u32) -> (usize, usize, usize) {
    ((e & 0xff) as usize, ((e >> 8) & 0xff) as usize, (e >> 16) as usize)
}

pub struct Tables {
    pub n: usize,
    pub cap: usize,
    pub wild_ok: Vec<bool>,
    blocks: Vec<Block>,
    place: Vec<(usize, u32)>, // per kind: (block, bit shift of its nibble)
    sets: Vec<Box<[u32]>>,
    /// Per set (by number): the fewest wildcards among its options (u8::MAX: none), for `unmendable`.
    set_min_wilds: Vec<u8>,
    set_ids: Map<Box<[u32]>, u32>,
    combined: Map<Box<[u32]>, u32>, // the blocks' option set ids of a hand -> their interned sum
    /// (block key, block << 24 | wildcards << 16 | melds << 8 | pairs) -> whether it splits so (probe.rs)
    probed: Map<(u128, u32), bool>,
    memo_size: usize, // estimated bytes the memos hold (`MEMO_LIMIT`)
    keys: Vec<u128>, // per block, reused by every call
    ids: Vec<u32>,
    // the counts and level of the last hand `hand_set` answered and its set: a hand is asked again for
    // each of its forms' (melds, pairs), so the lookups are made once (forgotten with the sets, `reset`)
    last_hand: Option<(Vec<u8>, usize, u32)>,
    frames: Vec<(u32, u32)>, // `block_set`'s (template, sub-set) of the keys being made, a frame a key
    merge: (Vec<u32>, Vec<u32>), // its merge buffers, reused
    /// Per hand shape and kind (`s * n + i`): its placements under any counts (wild.rs `placed`), made
    /// on first use; the rule set's and catalog's alone (bounded by them), so `reset` keeps them.
    placed: Vec<Option<std::sync::Arc<[wild::Placed]>>>,
    fits_table: Vec<bool>, // [w][m][p] for w <= cap, m, p <= MAX_GROUPS: wildcards alone form m melds and p pairs
    /// Every group of natural tiles a hand shape forms: (spec index among the hand shapes, its kinds in
    /// slot order); `split_templates` and the splits refer to them by position.
    pub split_groups: Vec<(usize, Vec<usize>)>,
    /// Per hand shape: its meld kind's index among the rule set's meld kinds.
    pub spec_melds: Vec<usize>,
    /// The group sizes of the melds and of the pairs (Python `Decomposer.sizes`).
    pub sizes: (Vec<usize>, Vec<usize>),
    shapes: build::Builder,
    split_ok: bool, // false when some group of natural tiles spans two blocks (splits are then the reference's)
}

/// Splits one block may have before its enumeration is left to the reference (bounded work a hand).
pub const BLOCK_SPLIT_LIMIT: usize = 100_000;
/// Nodes of the product over blocks visited for one hand before it is left to the reference.
const PRODUCT_WORK: usize = 2_000_000;

mod build;
mod mend; // how far a hand is from splitting: the count behind the exact shortcuts
mod probe; // whether a hand splits, by a search that stops at the first split
mod sets;
mod wild;
pub use mend::unmendable_of;
pub use wild::WildItem;

impl Tables {
    fn intern(&mut self, mut v: Vec<u32>) -> u32 {
        v.sort_unstable();
        v.dedup();
        let b = v.into_boxed_slice();
        if let Some(&id) = self.set_ids.get(&b) {
            return id;
        }
        let id = self.sets.len() as u32;
        self.memo_size += 2 * (b.len() * 4 + 16) + SLOT; // the set held twice: by number and by value
        self.set_min_wilds.push(b.iter().map(|&e| unpack(e).2.min(u8::MAX as usize - 1) as u8).min().unwrap_or(u8::MAX));
        self.sets.push(b.clone());
        self.set_ids.insert(b, id);
        id
    }

    /// Forget every option set (bounded memory for a long-running process); they are rebuilt on use.
    pub fn reset(&mut self) {
        for b in &mut self.blocks {
            b.memo.clear();
            b.capped.iter_mut().for_each(|m| m.clear());
            b.splits.clear();
            b.plus_one.clear();
        }
        self.sets.clear();
        self.set_min_wilds.clear();
        self.set_ids.clear();
        self.combined.clear();
        self.probed.clear();
        self.last_hand = None;
        self.frames.clear(); // what a panic may have left
        self.memo_size = 0;
        self.intern(vec![0]);
    }

    fn keys(&self, counts: &[u8]) -> Result<Vec<u128>, Error> {
        if counts.len() != self.n {
            return Err(Error::Input(format!(
                "the counts list {} tile kinds, but this catalog has {}",
                counts.len(),
                self.n
            )));
        }
        let mut keys = vec![0u128; self.blocks.len()];
        for (k, &c) in counts.iter().enumerate() {
            if c > MAX_COUNT {
                return Err(Error::NotCovered(format!("{c} tiles of one kind")));
            }
            let (b, shift) = self.place[k];
            keys[b] |= (c as u128) << shift;
        }
        Ok(keys)
    }

    /// The blocks' option sets within `wl` wildcards.
    fn ids(&mut self, keys: &[u128], wl: usize) -> Vec<u32> {
        if self.memo_size > MEMO_LIMIT {
            self.reset();
        }
        keys.iter().enumerate().map(|(b, &k)| self.block_set_to(b, k, wl)).collect()
    }

    /// Every sum of one option from each of `ids`, kept within `(melds, pairs, wilds)`.
    fn combine(&self, ids: impl Iterator<Item = u32>, melds: usize, pairs: usize, wilds: usize) -> Vec<u32> {
        let mut acc: Vec<u32> = vec![0];
        let mut next: Vec<u32> = Vec::new();
        for id in ids {
            if id == 0 {
                continue;
            }
            next.clear();
            for &a in &acc {
                for &e in self.sets[id as usize].iter() {
                    let s = a + e; // fields stay below 256: no carry between them
                    let (m, p, w) = unpack(s);
                    if m <= melds && p <= pairs && w <= wilds {
                        next.push(s);
                    }
                }
            }
            next.sort_unstable();
            next.dedup();
            std::mem::swap(&mut acc, &mut next);
            if acc.is_empty() {
                break;
            }
        }
        acc
    }

    #[inline]
    fn wild_only(&self, w: usize, m: usize, p: usize) -> bool {
        self.fits_table[(w * (MAX_GROUPS + 1) + m) * (MAX_GROUPS + 1) + p]
    }

    fn fits(&self, acc: &[u32], wilds: usize, melds: usize, pairs: usize) -> bool {
        acc.iter().any(|&e| {
            let (m, p, w) = unpack(e);
            w <= wilds && m <= melds && p <= pairs && self.wild_only(wilds - w, melds - m, pairs - p)
        })
    }

    fn check_bounds(&self, wilds: usize, melds: usize, pairs: usize) -> Result<(), Error> {
        if wilds > self.cap {
            return Err(Error::NotCovered(format!("{wilds} wildcards (the tables hold at most {})", self.cap)));
        }
        if melds > MAX_GROUPS || pairs > MAX_GROUPS {
            return Err(Error::NotCovered(format!("more than {MAX_GROUPS} melds or pairs")));
        }
        Ok(())
    }

    /// The interned sum of the blocks' option sets of a hand (Python `BlockWin.hand_id`, kept within
    /// `cap` wildcards and MAX_GROUPS melds and pairs), remembered by the blocks' set ids; only the
    /// options of at most `wl` wildcards (`block_set_to`: what a hand of `wl` wildcards reads).
    fn hand_set(&mut self, counts: &[u8], wl: usize) -> Result<u32, Error> {
        if counts.len() != self.n {
            return Err(Error::Input(format!(
                "the counts list {} tile kinds, but this catalog has {}",
                counts.len(),
                self.n
            )));
        }
        if let Some((c, l, id)) = &self.last_hand {
            if *l == wl && c.as_slice() == counts {
                return Ok(*id);
            }
        }
        if self.memo_size > MEMO_LIMIT {
            self.reset();
        }
        let mut keys = std::mem::take(&mut self.keys);
        keys.clear();
        keys.resize(self.blocks.len(), 0);
        for (k, &c) in counts.iter().enumerate() {
            if c > MAX_COUNT {
                self.keys = keys;
                return Err(Error::NotCovered(format!("{c} tiles of one kind")));
            }
            let (b, shift) = self.place[k];
            keys[b] |= (c as u128) << shift;
        }
        let mut ids = std::mem::take(&mut self.ids);
        ids.clear();
        for (b, &key) in keys.iter().enumerate() {
            ids.push(self.block_set_to(b, key, wl));
        }
        self.keys = keys;
        let id = match self.combined.get(ids.as_slice()) {
            Some(&id) => id,
            None => {
                let acc = self.combine(ids.iter().copied(), MAX_GROUPS, MAX_GROUPS, self.cap);
                let id = self.intern(acc);
                self.memo_size += ids.len() * 4 + 20 + SLOT;
                self.combined.insert(ids.clone().into_boxed_slice(), id);
                id
            }
        };
        self.ids = ids;
        match &mut self.last_hand {
            Some((c, l, last)) => {
                c.clear();
                c.extend_from_slice(counts);
                *l = wl;
                *last = id;
            }
            None => self.last_hand = Some((counts.to_vec(), wl, id)),
        }
        Ok(id)
    }

    /// Python `Decomposer.can_split` (for at most `cap` wildcards): can these natural tiles and
    /// `wilds` wildcards form exactly `melds` melds and `pairs` pairs?
    pub fn can_split(&mut self, counts: &[u8], wilds: usize, melds: usize, pairs: usize) -> Result<bool, Error> {
        self.check_bounds(wilds, melds, pairs)?;
        let id = self.hand_set(counts, wilds)?;
        Ok(self.fits(&self.sets[id as usize], wilds, melds, pairs))
    }

    /// Whether any of `targets` fits (one hand set for all of them).
    pub fn can_split_any(&mut self, counts: &[u8], wilds: usize, targets: &[(usize, usize)]) -> Result<bool, Error> {
        for &(m, p) in targets {
            self.check_bounds(wilds, m, p)?;
        }
        let id = self.hand_set(counts, wilds)?;
        let set = &self.sets[id as usize];
        Ok(targets.iter().any(|&(m, p)| self.fits(set, wilds, m, p)))
    }

    /// Python `BlockWin.completing_kinds`: the kinds whose one more natural tile lets the hand split
    /// into one of `targets` (melds, pairs). Every kind is tried, flowers and kinds held in full
    /// included; the caller leaves out what it does not offer.
    pub fn completing_kinds(&mut self, counts: &[u8], wilds: usize, targets: &[(usize, usize)]) -> Result<Vec<usize>, Error> {
        if targets.is_empty() {
            return Ok(Vec::new());
        }
        let max_m = targets.iter().map(|t| t.0).max().unwrap();
        let max_p = targets.iter().map(|t| t.1).max().unwrap();
        self.check_bounds(wilds, max_m, max_p)?;
        if counts.iter().any(|&c| c >= MAX_COUNT) {
            return Err(Error::NotCovered("a kind held so often that one more does not fit the tables".into()));
        }
        let keys = self.keys(counts)?;
        let ids = self.ids(&keys, wilds);
        let nb = self.blocks.len();
        let mut todo: Vec<usize> = (0..nb).collect();
        if wilds == 0 {
            // A block that cannot be split alone must take the tile: only its kinds can complete.
            let bad: Vec<usize> =
                (0..nb).filter(|&b| !self.sets[ids[b] as usize].iter().any(|&e| unpack(e).2 == 0)).collect();
            if bad.len() > 1 {
                return Ok(Vec::new());
            }
            if !bad.is_empty() {
                todo = bad;
            }
        }
        let mut out = Vec::new();
        for b in todo {
            let others = self.combine(
                ids.iter().enumerate().filter(|&(x, _)| x != b).map(|(_, &id)| id),
                max_m,
                max_p,
                wilds,
            );
            if others.is_empty() {
                continue;
            }
            let plus = self.plus_one(b, keys[b], wilds);
            for (j, &id) in plus.iter().enumerate() {
                // `combine` of this one set: its options within the bounds (interned sets are sorted and
                // distinct already, and set 0 is {0}), read in place
                let both = self.sets[id as usize].iter().copied().filter(|&e| {
                    let (m, p, w) = unpack(e);
                    m <= max_m && p <= max_p && w <= wilds
                });
                let mut hit = false;
                'targets: for &(m, p) in targets {
                    for &o in &others {
                        for e in both.clone() {
                            let s = o + e;
                            let (sm, sp, sw) = unpack(s);
                            if sm <= m && sp <= p && sw <= wilds && self.wild_only(wilds - sw, m - sm, p - sp) {
                                hit = true;
                                break 'targets;
                            }
                        }
                    }
                }
                if hit {
                    out.push(self.blocks[b].kinds[j]);
                }
            }
        }
        Ok(out)
    }

    /// The option set within `wl` wildcards of block `b`'s tiles `key` with one more tile of each of its
    /// kinds, in the block's order (every count of `key` below `MAX_COUNT`, as `completing_kinds`
    /// checks), remembered per key and level.
    fn plus_one(&mut self, b: usize, key: u128, wl: usize) -> std::sync::Arc<[u32]> {
        let wl = wl.min(self.cap);
        if let Some(got) = self.blocks[b].plus_one.get(&(key, wl as u8)) {
            return got.clone();
        }
        let got: std::sync::Arc<[u32]> = (0..self.blocks[b].kinds.len()).map(|j| self.block_set_to(b, key + (1u128 << (4 * j)), wl)).collect();
        self.memo_size += got.len() * 4 + 48 + SLOT;
        self.blocks[b].plus_one.insert((key, wl as u8), got.clone());
        got
    }

    /// Python `BlockWin.block_splits`: every split of one block's tiles into groups without wildcards,
    /// in the reference's order (lowest tile first, shapes in declaration order, then placements),
    /// memoised per block key. A branch whose remaining tiles cannot be split at all is not entered
    /// (the option sets say so), so the work is that of the splits found.
    fn block_splits(&mut self, b: usize, key: u128) -> Result<std::sync::Arc<[BlockSplit]>, Error> {
        if let Some(got) = self.blocks[b].splits.get(&key) {
            return Ok(got.clone());
        }
        let mut out: Vec<BlockSplit> = Vec::new();
        if key == 0 {
            out.push(BlockSplit { melds: 0, pairs: 0, groups: Box::new([]) });
        } else {
            let i = (key.trailing_zeros() / 4) as usize;
            for ti in 0..self.blocks[b].split_templates[i].len() {
                let t = self.blocks[b].split_templates[i][ti];
                if ((key | NIBBLE_HIGH) - t.delta) & NIBBLE_HIGH != NIBBLE_HIGH {
                    continue; // some kind has fewer tiles than the group takes
                }
                let rest = key - t.delta;
                let set = self.block_set_to(b, rest, 0); // its options without wildcards
                if self.sets[set as usize].is_empty() {
                    continue; // the rest cannot be split without wildcards
                }
                let subs = self.block_splits(b, rest)?;
                for s in subs.iter() {
                    let mut groups = Vec::with_capacity(s.groups.len() + 1);
                    groups.push(t.id);
                    groups.extend_from_slice(&s.groups);
                    out.push(BlockSplit {
                        melds: s.melds + (!t.pair) as u8,
                        pairs: s.pairs + t.pair as u8,
                        groups: groups.into_boxed_slice(),
                    });
                }
                if out.len() > BLOCK_SPLIT_LIMIT {
                    return Err(Error::NotCovered("a block with too many splits".into()));
                }
            }
        }
        self.memo_size += 48 + SLOT + out.iter().map(|s| std::mem::size_of::<BlockSplit>() + s.groups.len() * 4).sum::<usize>();
        let got: std::sync::Arc<[BlockSplit]> = out.into();
        self.blocks[b].splits.insert(key, got.clone());
        Ok(got)
    }

    /// Python `BlockWin.splits_plain`: every split of a hand without wildcards into exactly `melds`
    /// melds and `pairs` pairs, as lists of `split_groups` ids — the product of its blocks' splits in
    /// block order. Stops after `limit + 1` splits (the caller refuses more than `limit`).
    pub fn splits_plain(&mut self, counts: &[u8], melds: usize, pairs: usize, limit: usize) -> Result<Vec<Vec<u32>>, Error> {
        let mut flat = Vec::new();
        let n = self.splits_plain_into(counts, melds, pairs, limit, &mut flat)?;
        let w = melds + pairs;
        Ok((0..n).map(|i| flat[i * w..(i + 1) * w].to_vec()).collect())
    }

    /// `splits_plain` written one after another into `out` (cleared first): every split has exactly
    /// `melds + pairs` groups (each group is a meld or a pair), so split i is `out[i * w..(i + 1) * w]`;
    /// the number of splits is returned. No allocation per split (the readings and the wait trials ask
    /// this once per target of every hand and candidate kind).
    pub fn splits_plain_into(&mut self, counts: &[u8], melds: usize, pairs: usize, limit: usize, out: &mut Vec<u32>) -> Result<usize, Error> {
        out.clear();
        if !self.split_ok {
            return Err(Error::NotCovered("a group of natural tiles spans two blocks".into()));
        }
        if counts.len() != self.n {
            return Err(Error::Input(format!(
                "the counts list {} tile kinds, but this catalog has {}",
                counts.len(),
                self.n
            )));
        }
        if self.memo_size > MEMO_LIMIT {
            self.reset();
        }
        let mut keys = std::mem::take(&mut self.keys);
        keys.clear();
        keys.resize(self.blocks.len(), 0);
        for (k, &c) in counts.iter().enumerate() {
            if c > MAX_COUNT {
                self.keys = keys;
                return Err(Error::NotCovered(format!("{c} tiles of one kind")));
            }
            let (b, shift) = self.place[k];
            keys[b] |= (c as u128) << shift;
        }
        let mut parts: Vec<std::sync::Arc<[BlockSplit]>> = Vec::with_capacity(keys.len());
        for (b, &key) in keys.iter().enumerate() {
            if key == 0 {
                continue;
            }
            let got = match self.block_splits(b, key) {
                Ok(g) => g,
                Err(e) => {
                    self.keys = keys;
                    return Err(e);
                }
            };
            if got.is_empty() {
                self.keys = keys;
                return Ok(0);
            }
            parts.push(got);
        }
        self.keys = keys;
        struct Walk<'a> {
            parts: &'a [std::sync::Arc<[BlockSplit]>],
            melds: usize,
            pairs: usize,
            limit: usize,
            work: usize,
            acc: Vec<u32>,
            found: usize,
            out: &'a mut Vec<u32>,
        }
        fn rec(w: &mut Walk, j: usize, m: usize, p: usize) -> Result<(), Error> {
            w.work += 1;
            if w.work > PRODUCT_WORK {
                return Err(Error::NotCovered("a hand whose splits take too long to combine".into()));
            }
            if m > w.melds || p > w.pairs || w.found > w.limit {
                return Ok(());
            }
            if j == w.parts.len() {
                if m == w.melds && p == w.pairs {
                    w.out.extend_from_slice(&w.acc);
                    w.found += 1;
                }
                return Ok(());
            }
            let parts = w.parts;
            for s in parts[j].iter() {
                let len = w.acc.len();
                w.acc.extend_from_slice(&s.groups);
                rec(w, j + 1, m + s.melds as usize, p + s.pairs as usize)?;
                w.acc.truncate(len);
                if w.found > w.limit {
                    break;
                }
            }
            Ok(())
        }
        let acc = Vec::with_capacity(melds + pairs + 8);
        let mut w = Walk { parts: &parts, melds, pairs, limit, work: 0, acc, found: 0, out };
        rec(&mut w, 0, 0, 0)?;
        Ok(w.found)
    }

    pub fn block_kinds(&self) -> Vec<Vec<usize>> {
        self.blocks.iter().map(|b| b.kinds.clone()).collect()
    }
}
