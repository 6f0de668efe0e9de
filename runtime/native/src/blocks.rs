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
const MEMO_LIMIT: usize = 4_000_000; // option sets remembered before the tables start afresh

#[derive(Clone, Copy, PartialEq, Eq)]
enum ShapeKind {
    Same,
    Run,
    Ranks,
    Tiles,
    SameRank,
}

struct Spec {
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
    split_templates: Vec<Vec<SplitTemplate>>, // per local position, in the reference's order
    splits: Map<u128, std::sync::Arc<[BlockSplit]>>, // block key -> every split without wildcards
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
    set_ids: Map<Box<[u32]>, u32>,
    combined: Map<Box<[u32]>, u32>, // the blocks' option set ids of a hand -> their interned sum
    memo_size: usize,
    keys: Vec<u128>, // per block, reused by every call
    ids: Vec<u32>,
    fits_table: Vec<bool>, // [w][m][p] for w <= cap, m, p <= MAX_GROUPS: wildcards alone form m melds and p pairs
    /// Every group of natural tiles a hand shape forms: (spec index among the hand shapes, its kinds in
    /// slot order); `split_templates` and the splits refer to them by position.
    pub split_groups: Vec<(usize, Vec<usize>)>,
    split_ok: bool, // false when some group of natural tiles spans two blocks (splits are then the reference's)
}

/// Splits one block may have before its enumeration is left to the reference (bounded work a hand).
pub const BLOCK_SPLIT_LIMIT: usize = 100_000;
/// Nodes of the product over blocks visited for one hand before it is left to the reference.
const PRODUCT_WORK: usize = 2_000_000;

struct Builder<'a> {
    cat: &'a Catalog,
    specs: Vec<Spec>,
    wild_ok: Vec<bool>,
    suit_index: Vec<(String, HashMap<i64, usize>)>, // in order of first appearance, as a Python dict
}

impl Builder<'_> {
    fn suit_of(&self, i: usize) -> Option<&HashMap<i64, usize>> {
        let s = self.cat.kinds[i].suit.as_ref()?;
        self.suit_index.iter().find(|(name, _)| name == s).map(|(_, idx)| idx)
    }

    /// Every way to build `spec` containing natural tile i as its lowest natural member (Python
    /// `Decomposer.placements`): slots of (kind, wild).
    fn placements(&self, spec: &Spec, i: usize, counts: &[usize], wilds: usize) -> Vec<Vec<(usize, bool)>> {
        let wilds = if spec.no_wild { 0 } else { wilds };
        let mut out = Vec::new();
        let k = &self.cat.kinds[i];
        match spec.shape {
            ShapeKind::Same => {
                let top = spec.size.min(counts[i]);
                for nat in (1..=top).rev() {
                    let need = spec.size - nat;
                    if need <= wilds {
                        let mut slots = vec![(i, false); nat];
                        slots.extend(std::iter::repeat((i, true)).take(need));
                        out.push(slots);
                    }
                }
            }
            ShapeKind::Run | ShapeKind::Ranks => {
                let Some(idx) = self.suit_of(i) else { return out };
                let patterns: Vec<Vec<i64>> = if spec.shape == ShapeKind::Run {
                    let size = spec.size as i64;
                    (k.rank - size + 1..=k.rank).map(|s| (s..s + size).collect()).collect()
                } else if spec.ranks.contains(&k.rank) {
                    vec![spec.ranks.clone()]
                } else {
                    vec![]
                };
                for ranks in patterns {
                    if ranks.iter().any(|r| !idx.contains_key(r)) {
                        continue;
                    }
                    let members: Vec<usize> = ranks.iter().map(|r| idx[r]).collect();
                    self.fill(members, i, counts, wilds, &mut out);
                }
            }
            ShapeKind::Tiles => {
                if spec.tiles.contains(&i) {
                    self.fill(spec.tiles.clone(), i, counts, wilds, &mut out);
                }
            }
            ShapeKind::SameRank => {
                if k.suit.is_none() {
                    return out;
                }
                let mut suits: Vec<&String> = self
                    .suit_index
                    .iter()
                    .filter(|(_, idx)| idx.contains_key(&k.rank))
                    .map(|(s, _)| s)
                    .collect();
                suits.sort();
                let mut seen: Vec<Vec<usize>> = Vec::new();
                let mut combo = Vec::new();
                self.same_rank(spec, i, k.rank, &suits, 0, &mut combo, &mut seen, counts, wilds, &mut out);
            }
        }
        if wilds > 0 {
            out.retain(|slots| slots.iter().all(|&(idx, w)| !w || self.wild_ok[idx]));
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn same_rank(
        &self,
        spec: &Spec,
        i: usize,
        rank: i64,
        suits: &[&String],
        from: usize,
        combo: &mut Vec<usize>,
        seen: &mut Vec<Vec<usize>>,
        counts: &[usize],
        wilds: usize,
        out: &mut Vec<Vec<(usize, bool)>>,
    ) {
        // combinations with replacement of the sorted suits, in itertools order
        if combo.len() == spec.size {
            if spec.mixed && combo.iter().all(|&s| s == combo[0]) {
                return;
            }
            let mut members: Vec<usize> = combo
                .iter()
                .map(|&s| self.suit_index.iter().find(|(n, _)| n == suits[s]).unwrap().1[&rank])
                .collect();
            members.sort_unstable();
            if !members.contains(&i) || seen.contains(&members) {
                return;
            }
            seen.push(members.clone());
            self.fill(members, i, counts, wilds, out);
            return;
        }
        for s in from..suits.len() {
            combo.push(s);
            self.same_rank(spec, i, rank, suits, s, combo, seen, counts, wilds, out);
            combo.pop();
        }
    }

    /// Python `Decomposer._fill`: members below i are wildcards, the first i is the natural tile, every
    /// other member natural (while the counts allow) or a wildcard.
    fn fill(&self, mut members: Vec<usize>, i: usize, counts: &[usize], wilds: usize, out: &mut Vec<Vec<(usize, bool)>>) {
        members.sort_unstable();
        let Some(first) = members.iter().position(|&m| m == i) else { return };
        if counts[i] == 0 {
            return;
        }
        members.remove(first);
        let mut used: HashMap<usize, usize> = HashMap::new();
        used.insert(i, 1);
        let mut acc = vec![(i, false)];
        fn rec(
            rest: &[usize],
            j: usize,
            w: usize,
            i: usize,
            counts: &[usize],
            used: &mut HashMap<usize, usize>,
            acc: &mut Vec<(usize, bool)>,
            out: &mut Vec<Vec<(usize, bool)>>,
        ) {
            if j == rest.len() {
                out.push(acc.clone());
                return;
            }
            let m = rest[j];
            if m >= i {
                let have = counts[m] - used.get(&m).copied().unwrap_or(0).min(counts[m]);
                if have > 0 {
                    *used.entry(m).or_insert(0) += 1;
                    acc.push((m, false));
                    rec(rest, j + 1, w, i, counts, used, acc, out);
                    acc.pop();
                    *used.get_mut(&m).unwrap() -= 1;
                }
            }
            if w > 0 {
                acc.push((m, true));
                rec(rest, j + 1, w - 1, i, counts, used, acc, out);
                acc.pop();
            }
        }
        rec(&members, 0, wilds, i, counts, &mut used, &mut acc, out);
    }
}

impl Tables {
    pub fn build(rs: &RuleSet, cat: &Catalog, wild_cap: usize) -> Result<Tables, Error> {
        let n = cat.kinds.len();
        let cap = wild_cap.min(MAX_CAP);
        let by_name: HashMap<&str, usize> = cat.kinds.iter().enumerate().map(|(i, k)| (k.name.as_str(), i)).collect();
        let no_wild: Vec<&str> = rs.wilds.iter().flat_map(|w| w.no_meld.iter().map(String::as_str)).collect();
        let mut specs = Vec::new();
        for m in rs.melds.iter().filter(|m| m.hand) {
            let s = &m.shape;
            let shape = match s.kind.as_str() {
                "same" => ShapeKind::Same,
                "run" => ShapeKind::Run,
                "ranks" => ShapeKind::Ranks,
                "tiles" => ShapeKind::Tiles,
                "same_rank" => ShapeKind::SameRank,
                other => return Err(Error::NotCovered(format!("the group shape `{other}`"))),
            };
            let mut tiles: Vec<usize> = s.tiles.iter().filter_map(|t| by_name.get(t.as_str()).copied()).collect();
            tiles.sort_unstable();
            if shape == ShapeKind::Tiles && tiles.len() != s.tiles.len() {
                continue; // a shape over tiles not in play under these options
            }
            let mut ranks = s.ranks.clone();
            ranks.sort_unstable();
            specs.push(Spec {
                shape,
                size: s.size,
                is_pair: m.pair,
                ranks,
                tiles,
                mixed: s.mixed,
                no_wild: no_wild.contains(&m.name.as_str()),
            });
        }
        let excepts: Vec<&str> = rs.wilds.iter().map(|w| w.except_attr.as_str()).filter(|a| !a.is_empty()).collect();
        let wild_ok: Vec<bool> = (0..n)
            .map(|i| {
                let k = &cat.kinds[i];
                (k.category == "suited" || k.category == "honor") && !excepts.iter().any(|a| cat.flag(i, a))
            })
            .collect();
        let mut suit_index: Vec<(String, HashMap<i64, usize>)> = Vec::new();
        for (i, k) in cat.kinds.iter().enumerate() {
            if let Some(s) = &k.suit {
                match suit_index.iter_mut().find(|(name, _)| name == s) {
                    Some((_, idx)) => {
                        idx.insert(k.rank, i);
                    }
                    None => suit_index.push((s.clone(), HashMap::from([(k.rank, i)]))),
                }
            }
        }
        for k in &cat.kinds {
            if k.copies >= MAX_COUNT as i64 {
                return Err(Error::NotCovered(format!("{} copies of a tile kind", k.copies)));
            }
        }
        let b = Builder { cat, specs, wild_ok, suit_index };

        // Blocks: kinds joined by any group a hand shape can form from natural tiles (union-find).
        let mut parent: Vec<usize> = (0..n).collect();
        fn find(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        let full = vec![4usize; n];
        for spec in &b.specs {
            for i in 0..n {
                for slots in b.placements(spec, i, &full, 0) {
                    for (k, _) in slots {
                        let (ra, rb) = (find(&mut parent, i), find(&mut parent, k));
                        if ra != rb {
                            parent[ra.max(rb)] = ra.min(rb);
                        }
                    }
                }
            }
        }
        let mut comps: Vec<Vec<usize>> = Vec::new();
        let mut root_of: HashMap<usize, usize> = HashMap::new();
        for i in 0..n {
            let r = find(&mut parent, i);
            let c = *root_of.entry(r).or_insert_with(|| {
                comps.push(Vec::new());
                comps.len() - 1
            });
            comps[c].push(i);
        }
        // One-kind components next to each other (honors) share a block: fewer lookups a hand.
        let mut merged: Vec<Vec<usize>> = Vec::new();
        let mut last_single = false;
        for c in comps {
            let single = c.len() == 1;
            match merged.last_mut() {
                Some(prev) if single && last_single && prev.len() < MAX_BLOCK && *prev.last().unwrap() + 1 == c[0] => {
                    prev.push(c[0])
                }
                _ => merged.push(c),
            }
            last_single = single;
        }
        let mut place = vec![(0usize, 0u32); n];
        let mut blocks = Vec::new();
        for (bi, kinds) in merged.into_iter().enumerate() {
            if kinds.len() > MAX_BLOCK {
                return Err(Error::NotCovered(format!("a block of {} connected tile kinds", kinds.len())));
            }
            for (j, &k) in kinds.iter().enumerate() {
                place[k] = (bi, 4 * j as u32);
            }
            blocks.push(Block { kinds, templates: Vec::new(), memo: map(), split_templates: Vec::new(), splits: map() });
        }
        // Templates: every group whose lowest natural member is kind i (Python `BlockWin._templates`).
        for i in 0..n {
            let (bi, _) = place[i];
            let mut seen: Vec<(u128, u8, u8, u8)> = Vec::new();
            for spec in &b.specs {
                for slots in b.placements(spec, i, &full, cap) {
                    let mut delta: u128 = 0;
                    let mut nw = 0u8;
                    for &(k, w) in &slots {
                        if w {
                            nw += 1;
                        } else {
                            let (bk, shift) = place[k];
                            if bk != bi {
                                return Err(Error::Internal("a group crosses two blocks".into()));
                            }
                            delta += 1u128 << shift;
                        }
                    }
                    let key = (delta, nw, (!spec.is_pair) as u8, spec.is_pair as u8);
                    if !seen.contains(&key) {
                        seen.push(key);
                    }
                }
            }
            let t: Vec<Template> =
                seen.into_iter().map(|(delta, wilds, meld, pair)| Template { delta, wilds, meld, pair }).collect();
            blocks[bi].templates.push(t);
        }
        // Split templates: every group of natural tiles holding kind i as its lowest member, shape by
        // shape in declaration order (Python `Decomposer.placements` with no wildcards; counts of
        // MAX_COUNT so that only the hand's own counts limit them).
        let most = vec![MAX_COUNT as usize; n];
        let mut split_groups: Vec<(usize, Vec<usize>)> = Vec::new();
        let mut split_ok = true;
        for i in 0..n {
            let (bi, _) = place[i];
            let mut ts = Vec::new();
            for (si, spec) in b.specs.iter().enumerate() {
                for slots in b.placements(spec, i, &most, 0) {
                    let mut delta: u128 = 0;
                    let mut kinds = Vec::with_capacity(slots.len());
                    for &(k, _) in &slots {
                        let (bk, shift) = place[k];
                        if bk != bi {
                            split_ok = false;
                        }
                        delta += 1u128 << shift;
                        kinds.push(k);
                    }
                    ts.push(SplitTemplate { delta, id: split_groups.len() as u32, pair: spec.is_pair });
                    split_groups.push((si, kinds));
                }
            }
            blocks[bi].split_templates.push(ts);
        }
        let msizes: Vec<usize> = sizes(&b.specs, false, 3);
        let psizes: Vec<usize> = sizes(&b.specs, true, 2);
        let fits_table = fits_table(cap, &msizes, &psizes);
        let mut t = Tables {
            n,
            cap,
            wild_ok: b.wild_ok,
            blocks,
            place,
            sets: Vec::new(),
            set_ids: map(),
            combined: map(),
            memo_size: 0,
            keys: Vec::new(),
            ids: Vec::new(),
            fits_table,
            split_groups,
            split_ok,
        };
        t.intern(vec![0]);
        Ok(t)
    }

    fn intern(&mut self, mut v: Vec<u32>) -> u32 {
        v.sort_unstable();
        v.dedup();
        let b = v.into_boxed_slice();
        if let Some(&id) = self.set_ids.get(&b) {
            return id;
        }
        let id = self.sets.len() as u32;
        self.sets.push(b.clone());
        self.set_ids.insert(b, id);
        id
    }

    /// Forget every option set (bounded memory for a long-running process); they are rebuilt on use.
    pub fn reset(&mut self) {
        for b in &mut self.blocks {
            b.memo.clear();
            b.splits.clear();
        }
        self.sets.clear();
        self.set_ids.clear();
        self.combined.clear();
        self.memo_size = 0;
        self.intern(vec![0]);
    }

    /// The interned option set of one block's tiles (Python `BlockWin._splits`).
    fn block_set(&mut self, b: usize, key: u128) -> u32 {
        if key == 0 {
            return 0;
        }
        if let Some(&id) = self.blocks[b].memo.get(&key) {
            return id;
        }
        let i = (key.trailing_zeros() / 4) as usize;
        let mut out: Vec<u32> = Vec::new();
        let cap = self.cap;
        for ti in 0..self.blocks[b].templates[i].len() {
            let t = self.blocks[b].templates[i][ti];
            if ((key | NIBBLE_HIGH) - t.delta) & NIBBLE_HIGH != NIBBLE_HIGH {
                continue; // some kind has fewer tiles than the group takes
            }
            let sub = self.block_set(b, key - t.delta);
            for &e in self.sets[sub as usize].iter() {
                let (m, p, w) = unpack(e);
                if w + (t.wilds as usize) <= cap {
                    out.push(pack((m + t.meld as usize) as u32, (p + t.pair as usize) as u32, (w + t.wilds as usize) as u32));
                }
            }
        }
        let id = self.intern(out);
        self.blocks[b].memo.insert(key, id);
        self.memo_size += 1;
        id
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

    fn ids(&mut self, keys: &[u128]) -> Vec<u32> {
        if self.memo_size > MEMO_LIMIT {
            self.reset();
        }
        keys.iter().enumerate().map(|(b, &k)| self.block_set(b, k)).collect()
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
    /// `cap` wildcards and MAX_GROUPS melds and pairs), remembered by the blocks' set ids.
    fn hand_set(&mut self, counts: &[u8]) -> Result<u32, Error> {
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
        let mut ids = std::mem::take(&mut self.ids);
        ids.clear();
        for (b, &key) in keys.iter().enumerate() {
            ids.push(self.block_set(b, key));
        }
        self.keys = keys;
        let id = match self.combined.get(ids.as_slice()) {
            Some(&id) => id,
            None => {
                let acc = self.combine(ids.iter().copied(), MAX_GROUPS, MAX_GROUPS, self.cap);
                let id = self.intern(acc);
                self.combined.insert(ids.clone().into_boxed_slice(), id);
                self.memo_size += 1;
                id
            }
        };
        self.ids = ids;
        Ok(id)
    }

    /// Python `Decomposer.can_split` (for at most `cap` wildcards): can these natural tiles and
    /// `wilds` wildcards form exactly `melds` melds and `pairs` pairs?
    pub fn can_split(&mut self, counts: &[u8], wilds: usize, melds: usize, pairs: usize) -> Result<bool, Error> {
        self.check_bounds(wilds, melds, pairs)?;
        let id = self.hand_set(counts)?;
        Ok(self.fits(&self.sets[id as usize], wilds, melds, pairs))
    }

    /// Whether any of `targets` fits (one hand set for all of them).
    pub fn can_split_any(&mut self, counts: &[u8], wilds: usize, targets: &[(usize, usize)]) -> Result<bool, Error> {
        for &(m, p) in targets {
            self.check_bounds(wilds, m, p)?;
        }
        let id = self.hand_set(counts)?;
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
        let ids = self.ids(&keys);
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
            for j in 0..self.blocks[b].kinds.len() {
                let key = keys[b] + (1u128 << (4 * j));
                let id = self.block_set(b, key);
                let both = self.combine([id].into_iter(), max_m, max_p, wilds);
                let mut hit = false;
                'targets: for &(m, p) in targets {
                    for &o in &others {
                        for &e in &both {
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
                let set = self.block_set(b, rest);
                if !self.sets[set as usize].iter().any(|&e| unpack(e).2 == 0) {
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
        let got: std::sync::Arc<[BlockSplit]> = out.into();
        self.blocks[b].splits.insert(key, got.clone());
        self.memo_size += 1;
        Ok(got)
    }

    /// Python `BlockWin.splits_plain`: every split of a hand without wildcards into exactly `melds`
    /// melds and `pairs` pairs, as lists of `split_groups` ids — the product of its blocks' splits in
    /// block order. Stops after `limit + 1` splits (the caller refuses more than `limit`).
    pub fn splits_plain(&mut self, counts: &[u8], melds: usize, pairs: usize, limit: usize) -> Result<Vec<Vec<u32>>, Error> {
        if !self.split_ok {
            return Err(Error::NotCovered("a group of natural tiles spans two blocks".into()));
        }
        let keys = self.keys(counts)?;
        if self.memo_size > MEMO_LIMIT {
            self.reset();
        }
        let mut parts: Vec<std::sync::Arc<[BlockSplit]>> = Vec::new();
        for (b, &key) in keys.iter().enumerate() {
            if key == 0 {
                continue;
            }
            let got = self.block_splits(b, key)?;
            if got.is_empty() {
                return Ok(Vec::new());
            }
            parts.push(got);
        }
        struct Walk<'a> {
            parts: &'a [std::sync::Arc<[BlockSplit]>],
            melds: usize,
            pairs: usize,
            limit: usize,
            work: usize,
            acc: Vec<u32>,
            out: Vec<Vec<u32>>,
        }
        fn rec(w: &mut Walk, j: usize, m: usize, p: usize) -> Result<(), Error> {
            w.work += 1;
            if w.work > PRODUCT_WORK {
                return Err(Error::NotCovered("a hand whose splits take too long to combine".into()));
            }
            if m > w.melds || p > w.pairs || w.out.len() > w.limit {
                return Ok(());
            }
            if j == w.parts.len() {
                if m == w.melds && p == w.pairs {
                    w.out.push(w.acc.clone());
                }
                return Ok(());
            }
            let part = w.parts[j].clone();
            for s in part.iter() {
                let len = w.acc.len();
                w.acc.extend_from_slice(&s.groups);
                rec(w, j + 1, m + s.melds as usize, p + s.pairs as usize)?;
                w.acc.truncate(len);
                if w.out.len() > w.limit {
                    break;
                }
            }
            Ok(())
        }
        let mut w = Walk { parts: &parts, melds, pairs, limit, work: 0, acc: Vec::new(), out: Vec::new() };
        rec(&mut w, 0, 0, 0)?;
        Ok(w.out)
    }

    pub fn block_kinds(&self) -> Vec<Vec<usize>> {
        self.blocks.iter().map(|b| b.kinds.clone()).collect()
    }
}

fn sizes(specs: &[Spec], pair: bool, default: usize) -> Vec<usize> {
    let mut s: Vec<usize> = specs.iter().filter(|x| x.is_pair == pair).map(|x| x.size).collect();
    s.sort_unstable();
    s.dedup();
    if s.is_empty() {
        s.push(default);
    }
    s
}

/// Python `_sum_fits` for every `(w, m, p)` within the bounds: `w` wildcards form exactly `m` melds
/// and `p` pairs of the given sizes.
fn fits_table(cap: usize, msizes: &[usize], psizes: &[usize]) -> Vec<bool> {
    let g = MAX_GROUPS + 1;
    let mut t = vec![false; (cap + 1) * g * g];
    let at = |w: usize, m: usize, p: usize| (w * g + m) * g + p;
    for total in 0..=(2 * MAX_GROUPS) {
        for m in 0..=total.min(MAX_GROUPS) {
            let p = total - m;
            if p > MAX_GROUPS {
                continue;
            }
            for w in 0..=cap {
                let v = if m == 0 && p == 0 {
                    w == 0
                } else if m > 0 {
                    msizes.iter().any(|&s| s <= w && t[at(w - s, m - 1, p)])
                } else {
                    psizes.iter().any(|&s| s <= w && t[at(w - s, 0, p - 1)])
                };
                t[at(w, m, p)] = v;
            }
        }
    }
    t
}
