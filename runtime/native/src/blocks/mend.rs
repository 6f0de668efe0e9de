//! How far a hand's tiles are from splitting into groups, by blocks (runtime/game/winning.py
//! `_unmendable`, `_natural_blocks`, `_wildcards_play_anything`; runtime/fastwin.py `unsplit_blocks`,
//! `deficit`): the count behind the reference's exact shortcuts before a wait trial or a scored win.
//! Every group lies in one block, and a tile that may play as another joins one block, so a hand with
//! d more blocks that do not split on their own than such tiles lacks at least d tiles.

use super::{Error, Tables, MAX_COUNT};

impl Tables {
    /// `_unmendable`: how many tiles a hand lacks, at least, to split into groups, its tiles of the kinds
    /// `free_kind` marks (wildcards, stand-ins: they may play as another) free: the blocks with no split
    /// without wildcards (at most `free + 3` counted) less the free tiles; where `anything` (a wildcard may play
    /// any tile of any group, `wildcards_play_anything`) and that leaves one block, the fewest
    /// wildcards the blocks need between them less `free`, capped at 3. 0 or less: it might be complete.
    /// The blocks' keys are made from the tiles (a hand holds far fewer tiles than the catalog has kinds).
    pub fn unmendable_tiles(&mut self, tiles: &[usize], free_kind: &[bool], anything: bool) -> Result<i64, Error> {
        if free_kind.len() != self.n {
            return Err(Error::Input(format!("the free kinds list {} tile kinds, but this catalog has {}", free_kind.len(), self.n)));
        }
        if self.memo_size > super::MEMO_LIMIT {
            self.reset();
        }
        let mut keys = std::mem::take(&mut self.keys);
        keys.clear();
        keys.resize(self.blocks.len(), 0);
        let mut free = 0;
        for &k in tiles {
            if free_kind.get(k).copied().unwrap_or(false) {
                free += 1;
                continue;
            }
            let Some(&(b, shift)) = self.place.get(k) else {
                self.keys = keys;
                return Err(Error::Input(format!("a tile kind {k} outside this catalog of {}", self.n)));
            };
            if (keys[b] >> shift) & 0xf >= MAX_COUNT as u128 {
                self.keys = keys;
                return Err(Error::NotCovered("more tiles of one kind than the tables hold".into()));
            }
            keys[b] += 1u128 << shift;
        }
        Ok(self.unmendable_keys(keys, free, anything))
    }

    /// `unmendable` past its keys (`keys`: the blocks' packed counts; given back to `self.keys`).
    fn unmendable_keys(&mut self, keys: Vec<u128>, free: usize, anything: bool) -> i64 {
        let limit = free + 3;
        let mut bad = 0usize;
        for (b, &key) in keys.iter().enumerate() {
            let id = self.block_set(b, key);
            if self.set_min_wilds[id as usize] != 0 {
                bad += 1;
                if bad >= limit {
                    break;
                }
            }
        }
        let short = bad as i64 - free as i64;
        if short >= 2 || bad == 0 || !anything {
            self.keys = keys;
            return short;
        }
        // `deficit`: each block's fewest wildcards (cap + 1 where none within the cap splits it)
        let mut total = 0usize;
        for (b, &key) in keys.iter().enumerate() {
            let id = self.block_set(b, key);
            total += match self.set_min_wilds[id as usize] {
                u8::MAX => self.cap + 1,
                w => w as usize,
            };
            if total >= limit {
                break;
            }
        }
        self.keys = keys;
        (total as i64 - free as i64).min(3)
    }

    /// Each kind's block and the shift of its count in the block's key (`unmendable_tiles`' keys, for a
    /// caller that keeps the keys of a hand it asks again: `blocks_min_wilds`), and how many blocks.
    pub fn key_places(&self) -> (Vec<(usize, u32)>, usize) {
        (self.place.clone(), self.blocks.len())
    }

    /// For each `(block, key, _)` of `asks`, the fewest wildcards the block's tiles `key` need to split
    /// (0: they split alone; u8::MAX: not within the cap), written in place: what `unmendable_keys` reads
    /// of a block, a function of the block's tile counts alone.
    /// With `alone`, only whether they split without wildcards (0) or not (1): the options without
    /// wildcards, far fewer to work out than every option within the cap.
    pub fn blocks_min_wilds(&mut self, asks: &mut [(usize, u128, u8)], alone: bool) {
        if self.memo_size > super::MEMO_LIMIT {
            self.reset();
        }
        for (b, key, w) in asks.iter_mut() {
            *w = if *key == 0 {
                0
            } else if alone {
                let id = self.block_set_to(*b, *key, 0);
                u8::from(self.sets[id as usize].is_empty())
            } else {
                let id = self.block_set(*b, *key);
                self.set_min_wilds[id as usize]
            };
        }
    }

    /// `_natural_blocks`: how many blocks hold a kind that is not `free` (a wildcard or stand-in kind).
    pub fn natural_blocks(&self, free: &[bool]) -> usize {
        self.blocks.iter().filter(|b| b.kinds.iter().any(|&k| !free.get(k).copied().unwrap_or(false))).count()
    }

    /// Whether a wildcard in any group of a split may give way to a natural tile: every group size within
    /// the cap that wildcards may form alone (as `fits` counts them) is that of a template of one natural
    /// tile and the rest wildcards, of a meld or a pair as the size is; and no group is larger than the
    /// templates' natural tiles of one kind go (4), so a template's wildcard slot played by a natural
    /// tile of its kind is a template too. Then a hand that splits with one more wildcard splits with one
    /// more natural tile of some kind (engine/winning/could.rs, the wait trials' free tile).
    pub fn wildcards_give_way(&self) -> bool {
        let one_tile = |t: &super::Template| t.delta.count_ones() == 1 && t.delta.trailing_zeros().is_multiple_of(4);
        let ok = |size: usize, pair: bool| {
            size == 0
                || size > self.cap
                || self.blocks.iter().any(|b| b.templates.iter().flatten().any(|t| one_tile(t) && t.wilds as usize + 1 == size && (t.pair == 1) == pair))
        };
        let (ms, ps) = &self.sizes;
        ms.iter().chain(ps).all(|&s| s <= 4) && ms.iter().all(|&s| ok(s, false)) && ps.iter().all(|&s| ok(s, true))
    }

    /// `_wildcards_play_anything`: a wildcard may stand for any kind not `flower` in any hand group (the
    /// tables take wildcards, every such kind may be played by one, no hand shape refuses them).
    pub fn wildcards_play_anything(&self, flower: &[bool]) -> bool {
        self.cap > 0
            && (0..self.n).all(|k| flower.get(k).copied().unwrap_or(false) || self.wild_ok.get(k).copied().unwrap_or(false))
            && !self.shapes.specs.iter().any(|s| s.no_wild)
    }
}

/// `unmendable_keys`' count from each block's fewest wildcards (`blocks_min_wilds`) and the `free` tiles:
/// the blocks that do not split alone less `free`, or where `anything` and that leaves one such block at
/// most, the wildcards they need between them (a block beyond the cap: `cap + 1`) less `free`; capped at
/// 3 as `unmendable_keys` stops counting at `free + 3` (the same answer: past it both give 3).
pub fn unmendable_of(min_wilds: &[u8], free: usize, anything: bool, cap: usize) -> i64 {
    let bad = min_wilds.iter().filter(|&&w| w != 0).count();
    let short = bad as i64 - free as i64;
    if short >= 2 || bad == 0 || !anything {
        return short.min(3);
    }
    let total: usize = min_wilds.iter().map(|&w| if w == u8::MAX { cap + 1 } else { w as usize }).sum();
    (total as i64 - free as i64).min(3)
}

impl crate::Tables {
    /// `wildcards_give_way` of the core tables (read once per values, engine/winning/shortcut.rs).
    pub(crate) fn core_wildcards_give_way(&self) -> bool {
        let st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        st.core.wildcards_give_way()
    }
}
