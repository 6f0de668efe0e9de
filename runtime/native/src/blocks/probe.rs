//! Whether a hand splits, found by a search that stops at the first split (the wins' structural test):
//! the same answer as `can_split_any`, without making the option sets of the keys it visits.
//!
//! A hand whose tiles lie in one block asks only whether some split of that block's key, with its
//! wildcards, leaves wildcards that form the missing groups on their own. `can_split_any` answers it
//! from the key's whole option set (every `(melds, pairs, wildcards)` of every split), made over every
//! sub-key and merged; a key of a block of many kinds (a paper-card set whose twenty kinds form one
//! block) is mostly new, and most hands asked do not split. Here the same templates are taken in the
//! same way (a group of the lowest kind left, then the rest), but only as far as the target allows and
//! only until a split is found; each (key, wildcards, melds, pairs left) answered is kept, true or
//! false (a function of the tables alone, bounded with the other memos by `MEMO_LIMIT` and forgotten
//! with them). A key whose option set is known already is answered from it.

use super::*;

impl Tables {
    /// `can_split_any`'s answer (the same bounds checked, the same refusals), by the search above where
    /// the hand's tiles lie in one block; by `can_split_any` where they lie in several.
    pub fn probe_split_any(&mut self, counts: &[u8], wilds: usize, targets: &[(usize, usize)]) -> Result<bool, Error> {
        for &(m, p) in targets {
            self.check_bounds(wilds, m, p)?;
        }
        if counts.len() != self.n {
            return self.can_split_any(counts, wilds, targets); // its refusal
        }
        // the one block holding the hand's tiles (found before any key is made: most hands of the
        // variants with blocks by suit lie in several, and go on at once)
        let mut one: Option<usize> = None;
        for (k, &c) in counts.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let b = self.place[k].0;
            match one {
                None => one = Some(b),
                Some(x) if x == b => {}
                Some(_) => return self.can_split_any(counts, wilds, targets),
            }
        }
        let Some(b) = one else { return Ok(targets.iter().any(|&(m, p)| self.wild_only(wilds, m, p))) };
        let mut key = 0u128;
        for (k, &c) in counts.iter().enumerate() {
            if c > MAX_COUNT {
                return Err(Error::NotCovered(format!("{c} tiles of one kind")));
            }
            key |= (c as u128) << self.place[k].1;
        }
        if self.memo_size > MEMO_LIMIT {
            self.reset();
        }
        let known = self.blocks[b].memo.get(&key).copied().or_else(|| {
            (wilds < self.cap).then(|| self.blocks[b].capped[wilds].get(&key).copied()).flatten()
        });
        if let Some(id) = known {
            let set = &self.sets[id as usize];
            return Ok(targets.iter().any(|&(m, p)| self.fits(set, wilds, m, p)));
        }
        for &(m, p) in targets {
            if self.probe(b, key, wilds, m, p) {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether block `b`'s tiles `key` with `w` wildcards form exactly `m` melds and `p` pairs, the
    /// wildcards left over forming groups of their own (`fits` of the key's set within `w`).
    fn probe(&mut self, b: usize, key: u128, w: usize, m: usize, p: usize) -> bool {
        if key == 0 {
            return self.wild_only(w, m, p);
        }
        let at = (key, ((b as u32) << 24) | ((w as u32) << 16) | ((m as u32) << 8) | p as u32);
        if let Some(&got) = self.probed.get(&at) {
            return got;
        }
        let i = (key.trailing_zeros() / 4) as usize;
        let mut got = false;
        for ti in 0..self.blocks[b].templates[i].len() {
            let t = self.blocks[b].templates[i][ti];
            if t.wilds as usize > w {
                break; // the templates come fewest wildcards first
            }
            if ((key | NIBBLE_HIGH) - t.delta) & NIBBLE_HIGH != NIBBLE_HIGH {
                continue; // some kind has fewer tiles than the group takes
            }
            let (tm, tp) = (t.meld as usize, t.pair as usize);
            if tm > m || tp > p {
                continue;
            }
            if self.probe(b, key - t.delta, w - t.wilds as usize, m - tm, p - tp) {
                got = true;
                break;
            }
        }
        self.probed.insert(at, got);
        self.memo_size += 20 + SLOT;
        got
    }
}
