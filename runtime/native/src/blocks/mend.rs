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

    /// `_natural_blocks`: how many blocks hold a kind that is not `free` (a wildcard or stand-in kind).
    pub fn natural_blocks(&self, free: &[bool]) -> usize {
        self.blocks.iter().filter(|b| b.kinds.iter().any(|&k| !free.get(k).copied().unwrap_or(false))).count()
    }

    /// `_wildcards_play_anything`: a wildcard may stand for any kind not `flower` in any hand group (the
    /// tables take wildcards, every such kind may be played by one, no hand shape refuses them).
    pub fn wildcards_play_anything(&self, flower: &[bool]) -> bool {
        self.cap > 0
            && (0..self.n).all(|k| flower.get(k).copied().unwrap_or(false) || self.wild_ok.get(k).copied().unwrap_or(false))
            && !self.shapes.specs.iter().any(|s| s.no_wild)
    }
}
