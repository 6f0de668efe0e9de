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

    /// The interned option set of one block's tiles (Python `BlockWin._splits`). The sub-keys' sets are
    /// made first (in template order), then merged: a template adds the same (melds, pairs, wildcards)
    /// to every option of a sorted, distinct set (no carry), so the runs merge without a sort.
    pub(super) fn block_set(&mut self, b: usize, key: u128) -> u32 {
        if key == 0 {
            return 0;
        }
        if let Some(&id) = self.blocks[b].memo.get(&key) {
            return id;
        }
        let i = (key.trailing_zeros() / 4) as usize;
        let base = self.frames.len();
        for ti in 0..self.blocks[b].templates[i].len() {
            let t = self.blocks[b].templates[i][ti];
            if ((key | NIBBLE_HIGH) - t.delta) & NIBBLE_HIGH != NIBBLE_HIGH {
                continue; // some kind has fewer tiles than the group takes
            }
            let sub = self.block_set(b, key - t.delta);
            self.frames.push((ti as u32, sub));
        }
        let cap = self.cap;
        let (mut out, mut next) = std::mem::take(&mut self.merge);
        out.clear();
        for &(ti, sub) in &self.frames[base..] {
            let t = self.blocks[b].templates[i][ti as usize];
            let add = pack(t.meld as u32, t.pair as u32, t.wilds as u32);
            let run = self.sets[sub as usize].iter().filter(|&&e| unpack(e).2 + t.wilds as usize <= cap).map(|&e| e + add);
            merge_into(&out, run, &mut next);
            std::mem::swap(&mut out, &mut next);
        }
        self.frames.truncate(base);
        let id = self.intern_sorted(&out);
        self.merge = (out, next);
        self.blocks[b].memo.insert(key, id);
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
