//! A kind the hand's blocks rule out as a wait, found before any trial: where a wait question is asked
//! for a comparison of its length that every count short of the kinds offered decides alike ("waits on
//! every kind", engine/values/bounded.rs), one kind that completes nothing is the answer, whatever the
//! others do. The walk in order (wild.rs `trial_waits_until`) makes the trial plan first (a split test
//! of the whole hand with one more free tile) and tries the first kind; here the hand's blocks are read
//! instead — the reference's own reasoning for `_unmendable`: every group lies in one block and each
//! free tile (a wildcard, a stand-in) joins one, so a hand with more blocks that do not split alone than
//! free tiles does not split. A natural kind whose block, with it added, leaves more such blocks than
//! the hand's free tiles fails `_could_win`'s split test, and with no form that builds no split among
//! those tried (an orphans or instant form) it is no wait.

use std::sync::OnceLock;

use super::StateWins;
use crate::hand::HandCtx;

/// The most blocks read here (past it the walk in order answers).
const BLOCKS: usize = 8;
/// A count in a block's key that one more tile would carry into the next kind's (the tables hold at
/// most 7 of a kind, a nibble each).
const FULL: u128 = 7;
/// Kinds whose block with them added is looked up in the tables, at most, per question (each one lookup).
const LOOKUPS: usize = 3;

/// What the blocks' reading needs of the tables and the values, worked out once for the values (kept
/// with them, `OnValues::places`).
pub(super) struct Places {
    place: Vec<(usize, u32)>, // per kind: its block and the shift of its count in the block's key
    blocks: usize,
    cap: usize,
    /// Per kind: free in a hand (a wildcard of the hand's scope, a stand-in), or wild as the winning
    /// tile (`_could_win` counts a trial tile of such a kind free, not natural).
    free: Vec<bool>,
    free_win: Vec<bool>,
}

pub(super) type KeptPlaces = OnceLock<Option<Places>>;

impl Places {
    /// Whether a tile of kind `k` is free in a hand (`_free_names`).
    pub(super) fn free(&self, k: usize) -> bool {
        self.free.get(k).copied().unwrap_or(false)
    }
}

impl StateWins<'_> {
    /// (worked out on the first question that reads them, for the values)
    pub(super) fn places(&self, ctx: &HandCtx) -> Option<&Places> {
        self.on
            .places
            .get_or_init(|| {
                let n = ctx.setup.kind_names.len();
                let (place, blocks, cap) = ctx.tables.core_key_places();
                if place.len() != n || blocks > BLOCKS {
                    return None;
                }
                let mut free = self.on.hand_wild.clone();
                free.resize(n, false);
                for &x in self.on.standin_kinds.iter().flatten() {
                    if x < n {
                        free[x] = true;
                    }
                }
                let free_win = (0..n).map(|k| free[k] || self.on.wild_kinds.iter().any(|&(w, win)| win && w == Some(k))).collect();
                Some(Places { place, blocks, cap, free, free_win })
            })
            .as_ref()
    }

    /// Whether some kind `offered` is no wait of the concealed tiles `conc` under `forms`, by the hand's
    /// blocks (this module's reasoning); false where it is not known so (the walk in order answers).
    pub(super) fn blocks_rule_out(&self, ctx: &HandCtx, conc: &[usize], forms: &[usize], offered: &dyn Fn(usize) -> bool) -> bool {
        // (an orphans or instant form may take a hand that does not split)
        if forms.iter().any(|&fi| ctx.setup.forms.get(fi).is_none_or(|f| f.instant || f.orphans.is_some())) {
            return false;
        }
        let Some(p) = self.places(ctx) else { return false };
        let mut keys = [0u128; BLOCKS];
        let mut free = 0usize;
        for &k in conc {
            let Some(&(b, shift)) = p.place.get(k) else { return false };
            if p.free[k] {
                free += 1;
            } else if (keys[b] >> shift) & 0xf >= FULL {
                return false;
            } else {
                keys[b] += 1u128 << shift;
            }
        }
        if free > p.cap {
            return false;
        }
        let mut asks = [(0usize, 0u128, 0u8); BLOCKS];
        let mut n = 0;
        for (b, &key) in keys.iter().enumerate().take(p.blocks) {
            if key != 0 {
                asks[n] = (b, key, 0);
                n += 1;
            }
        }
        if ctx.tables.core_blocks_min_wilds(&mut asks[..n], true).is_err() {
            return false;
        }
        let mut bad = [false; BLOCKS];
        for &(b, _, w) in &asks[..n] {
            bad[b] = w != 0;
        }
        let nbad = bad.iter().filter(|&&x| x).count();
        let mut lookups = 0;
        for (k, &(b, shift)) in p.place.iter().enumerate() {
            if p.free_win[k] || !offered(k) {
                continue;
            }
            // the blocks that do not split alone with `k` added: the others as they are, and `k`'s
            let others = nbad - usize::from(bad[b]);
            if others > free {
                return true;
            }
            if others == free && lookups < LOOKUPS && (keys[b] >> shift) & 0xf < FULL {
                lookups += 1;
                let mut ask = [(b, keys[b] + (1u128 << shift), 0u8)];
                if ctx.tables.core_blocks_min_wilds(&mut ask, true).is_err() {
                    return false;
                }
                if ask[0].2 != 0 {
                    return true;
                }
            }
        }
        false
    }
}
