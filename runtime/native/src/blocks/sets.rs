//! A block's option sets: made per block key from the sub-keys' sets by merging, interned.

use super::*;

impl Tables {
    /// `intern` of a set sorted and distinct already (allocated only when it is new).
    fn intern_sorted(&mut self, v: &[u32]) -> u32 {
        debug_assert!(v.windows(2).all(|w| w[0] < w[1]));
        if let Some(&id) = self.set_ids.get(v) {
            return id;
        }
        self.intern(v.to_vec())
    }

    /// The interned option set of one block's tiles (Python `BlockWin._splits`), every option within the
    /// tables' cap.
    pub(super) fn block_set(&mut self, b: usize, key: u128) -> u32 {
        self.block_set_to(b, key, self.cap)
    }

    /// The options of `block_set` with at most `wl` wildcards (all of them from `cap` on). A hand asks
    /// no option past its own wildcards (`fits` reads none), and most hands hold few: below the cap the
    /// search takes no template of more wildcards than `wl`, so the sub-keys it visits are a small part
    /// of those of the whole set (a key of a block of many kinds is mostly new: the visit is the cost).
    /// Kept per level; taken from the whole set where that is known already.
    ///
    /// The sub-keys' sets are made first (in template order), then merged: a template adds the same
    /// (melds, pairs, wildcards) to every option of a sorted, distinct set (no carry), so the runs merge
    /// without a sort.
    pub(super) fn block_set_to(&mut self, b: usize, key: u128, wl: usize) -> u32 {
        if key == 0 {
            return 0;
        }
        let whole = wl >= self.cap;
        let wl = wl.min(self.cap);
        if whole {
            if let Some(&id) = self.blocks[b].memo.get(&key) {
                return id;
            }
        } else {
            if let Some(&id) = self.blocks[b].capped[wl].get(&key) {
                return id;
            }
            if let Some(&id) = self.blocks[b].memo.get(&key) {
                // the whole set known: its options within the level, in order
                let mut out = std::mem::take(&mut self.merge.0);
                out.clear();
                out.extend(self.sets[id as usize].iter().copied().filter(|&e| unpack(e).2 <= wl));
                let got = self.intern_sorted(&out);
                self.merge.0 = out;
                self.blocks[b].capped[wl].insert(key, got);
                self.memo_size += 20 + SLOT;
                return got;
            }
        }
        let i = (key.trailing_zeros() / 4) as usize;
        let base = self.frames.len();
        for ti in 0..self.blocks[b].templates[i].len() {
            let t = self.blocks[b].templates[i][ti];
            if t.wilds as usize > wl {
                break; // past the level's wildcards (the templates come fewest wildcards first)
            }
            if ((key | NIBBLE_HIGH) - t.delta) & NIBBLE_HIGH != NIBBLE_HIGH {
                continue; // some kind has fewer tiles than the group takes
            }
            let sub = self.block_set_to(b, key - t.delta, wl);
            self.frames.push((ti as u32, sub));
        }
        let (mut out, mut next) = std::mem::take(&mut self.merge);
        out.clear();
        for &(ti, sub) in &self.frames[base..] {
            let t = self.blocks[b].templates[i][ti as usize];
            let add = pack(t.meld as u32, t.pair as u32, t.wilds as u32);
            let run = self.sets[sub as usize].iter().filter(|&&e| unpack(e).2 + t.wilds as usize <= wl).map(|&e| e + add);
            merge_into(&out, run, &mut next);
            std::mem::swap(&mut out, &mut next);
        }
        self.frames.truncate(base);
        let id = self.intern_sorted(&out);
        self.merge = (out, next);
        if whole {
            self.blocks[b].memo.insert(key, id);
        } else {
            self.blocks[b].capped[wl].insert(key, id);
        }
        self.memo_size += 20 + SLOT;
        id
    }
}

/// The sorted union without duplicates of `a` and `b` (each sorted, distinct), into `out`.
fn merge_into(a: &[u32], b: impl Iterator<Item = u32>, out: &mut Vec<u32>) {
    out.clear();
    let mut i = 0;
    for y in b {
        while i < a.len() && a[i] < y {
            out.push(a[i]);
            i += 1;
        }
        i += (i < a.len() && a[i] == y) as usize;
        out.push(y);
    }
    out.extend_from_slice(&a[i..]);
}
