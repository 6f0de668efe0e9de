//! The arithmetic of the distance tables (`runtime/packed_tables.py` `Packing.table`, `Distance._combine`,
//! `_combine_levels`, `_final`): a block's table filled by key into a memo's arena, two tables' max-plus
//! product, and the reading of a product at the target's slots — whole, or only at the entries the
//! reading looks at (the last block of a hand, and each tile one more of which is tried, need no more).
//!
//! Entries below zero mean "no filling reaches the level" whatever their value (-1 from a product, `NEG`
//! from a block's table): every reader tests the sign or takes a maximum from -1, so the arena's entries
//! are read as they are, without the copy to -1 the reference makes. Every table is non-decreasing in its
//! slots (more slots hold at least as much), so a table with nothing at any level (`empty`) is the
//! product's identity and the product is associative and commutative on the entries that are reached.

use crate::hash::{map, Map};

pub(super) const NEG: i32 = -1_000_000;
pub(super) const KBITS: u32 = 4;

/// One block's tables for one (M, P, V): entries of every packed count key met, in one arena.
pub(super) struct Memo {
    pub entries: usize,
    pub arena: Vec<i32>,
    pub index: Map<u128, u32>,
    /// Per key, the tables of one more tile at each position (`improving`'s tries): one probe of this
    /// map rather than one of `index` per position (the probes were most of the time of a try).
    pub next: Map<u128, u32>,
    pub next_arena: Vec<u32>, // `next`'s entries, a block's positions each
}

/// A position of `Memo::next` one more tile at which is not tried (a flower, or every copy held).
pub(super) const SKIP: u32 = u32::MAX;
/// A position one more tile at which the packed keys do not hold (the question is not covered).
pub(super) const OVER: u32 = u32::MAX - 1;

impl Memo {
    pub fn new(entries: usize) -> Memo {
        Memo { entries, arena: Vec::new(), index: map(), next: map(), next_arena: Vec::new() }
    }

    pub fn at(&self, at: usize) -> &[i32] {
        &self.arena[at..at + self.entries]
    }
}

/// A part of a group: its members (block position, count), its tiles, pair or meld slot, its worth (units).
pub struct Part {
    pub members: Vec<(usize, i64)>,
    pub size: i32,
    pub pair: bool,
    pub worth: i64,
}

/// The slots of one reading: melds, pairs, value levels, and the units a fresh meld is worth.
#[derive(Clone, Copy)]
pub(super) struct Slots {
    pub m: usize,
    pub p: usize,
    pub v: usize,
    pub fresh: i64,
}

impl Slots {
    fn width(&self) -> usize {
        self.p + 1
    }
    fn row(&self) -> usize {
        (self.m + 1) * (self.p + 1)
    }

    /// `Distance._final` on a table given entry by entry (None: no blocks).
    fn fin_by(&self, acc: Option<&dyn Fn(usize) -> i32>) -> i64 {
        let (m, p, v) = (self.m, self.p, self.v);
        let Some(get) = acc else {
            return if v == 0 || m as i64 * self.fresh >= v as i64 { 0 } else { -1 };
        };
        let (width, row) = (self.width(), self.row());
        if v == 0 {
            return get(m * width + p) as i64;
        }
        let mut best = -1i64;
        for k in 0..=m {
            let level = (v as i64 - k as i64 * self.fresh).max(0) as usize;
            let x = get(level * row + (m - k) * width + p) as i64;
            if x > best {
                best = x;
            }
            if level == 0 {
                break;
            }
        }
        best
    }

    /// The reading of a table (None: no blocks).
    pub fn fin(&self, acc: Option<&[i32]>) -> i64 {
        match acc {
            None => self.fin_by(None),
            Some(a) => self.fin_by(Some(&|i| a[i])),
        }
    }

    fn empty(&self, t: &[i32]) -> bool {
        let row = self.row();
        t[..row].iter().all(|&x| x == 0) && t[row..].iter().all(|&x| x < 0)
    }

    /// One entry (v, m, p) of the product of `a` and `b`.
    #[inline]
    fn entry(&self, a: &[i32], b: &[i32], v: usize, m: usize, p: usize) -> i32 {
        let (width, row) = (self.width(), self.row());
        if self.v == 0 {
            let mut best = 0;
            for m1 in 0..=m {
                let (ra, rb) = (m1 * width, (m - m1) * width);
                for p1 in 0..=p {
                    best = best.max(a[ra + p1] + b[rb + p - p1]);
                }
            }
            return best;
        }
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
        best
    }

    fn entry_at(&self, a: &[i32], b: &[i32], i: usize) -> i32 {
        let (width, row) = (self.width(), self.row());
        self.entry(a, b, i / row, (i % row) / width, i % width)
    }

    /// The product of two blocks' tables into `out` (`Distance._combine` and `_combine_levels`).
    pub fn combine_into(&self, a: &[i32], b: &[i32], out: &mut Vec<i32>) {
        out.clear();
        if self.v > 0 && self.empty(b) {
            out.extend_from_slice(a);
            return;
        }
        if self.v > 0 && self.empty(a) {
            out.extend_from_slice(b);
            return;
        }
        for v in 0..=self.v {
            for m in 0..=self.m {
                for p in 0..=self.p {
                    out.push(self.entry(a, b, v, m, p));
                }
            }
        }
    }

    pub fn combine(&self, a: &[i32], b: &[i32]) -> Vec<i32> {
        let mut out = Vec::with_capacity(a.len());
        self.combine_into(a, b, &mut out);
        out
    }

    /// The reading of the product of `a` and `b`, worked out at the entries the reading looks at only.
    pub fn fin_product(&self, a: &[i32], b: &[i32]) -> i64 {
        if self.v > 0 && self.empty(b) {
            return self.fin(Some(a));
        }
        if self.v > 0 && self.empty(a) {
            return self.fin(Some(b));
        }
        self.fin_by(Some(&|i| self.entry_at(a, b, i)))
    }
}

/// The tables of `key` with one more tile at each position, as table numbers (offset / entries); `SKIP`
/// where `tried` says a position is not tried at its count, `OVER` where the count would pass `kmax`.
pub(super) fn next_tables<'m>(
    parts: &[Vec<Part>],
    key: u128,
    positions: usize,
    tried: impl Fn(usize, i64) -> bool,
    kmax: i64,
    s: Slots,
    memo: &'m mut Memo,
) -> &'m [u32] {
    let at = match memo.next.get(&key) {
        Some(&at) => at as usize,
        None => {
            let mut got = Vec::with_capacity(positions);
            for j in 0..positions {
                let c = ((key >> (j as u32 * KBITS)) & 0xF) as i64;
                got.push(if !tried(j, c) {
                    SKIP
                } else if c + 1 > kmax {
                    OVER
                } else {
                    (table(parts, key + (1u128 << (j as u32 * KBITS)), s.m, s.p, s.v, memo) / memo.entries) as u32
                });
            }
            let at = memo.next_arena.len();
            memo.next_arena.extend_from_slice(&got);
            memo.next.insert(key, at as u32);
            at
        }
    };
    &memo.next_arena[at..at + positions]
}

/// The table of the packed counts (`Packing.table`): the tiles of the lowest position held either left
/// out or the lowest member of a part in a slot, the rest worked out the same way; memoised by key.
/// Returns the entries' offset in the memo's arena.
pub(super) fn table(parts: &[Vec<Part>], key: u128, mm: usize, pp: usize, vv: usize, memo: &mut Memo) -> usize {
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
        for part in &parts[j] {
            if (part.pair && pp == 0) || (!part.pair && mm == 0) {
                continue; // no slot of its kind: it adds nothing (and its sub-table is not made)
            }
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
            // the part in a slot: the sub-hand's entry one slot (and its worth's levels) down, plus its
            // tiles (no entry with the slot at zero: it would be NEG, never above an entry of `best`)
            for v in 0..=vv {
                let from = if part.worth > 0 && vv > 0 { (v as i64 - part.worth).max(0) as usize } else { v };
                let (dst, src) = (&mut best[v * row..(v + 1) * row], &sub[from * row..(from + 1) * row]);
                if part.pair {
                    for m in 0..=mm {
                        let (d, s) = (&mut dst[m * width + 1..(m + 1) * width], &src[m * width..(m + 1) * width - 1]);
                        for (x, &y) in d.iter_mut().zip(s) {
                            *x = (*x).max(y + part.size);
                        }
                    }
                } else {
                    for (x, &y) in dst[width..].iter_mut().zip(&src[..row - width]) {
                        *x = (*x).max(y + part.size);
                    }
                }
            }
        }
    }
    let at = memo.arena.len() / e;
    memo.arena.extend_from_slice(&best);
    memo.index.insert(key, at as u32);
    at * e
}
