//! The reference's exact shortcuts (runtime/game/winning.py `_not_ready`, `_hopeless`, `_unmendable`,
//! `_no_special_win`): a hand short by two blocks is completed by no single tile, so it waits on
//! nothing, and a seat whose hand lacks more tiles than the winning tile supplies wins on no tile. They
//! only skip work whose answer is known (no wait, no win): every answer stays the full check's, and the
//! wait trials and whole-hand scorings they skip were most of a native hand's time.

use std::sync::{Arc, Mutex};

use super::{HandState, StateWins};
use crate::blocks::unmendable_of;

/// What the shortcuts read of the block tables and the state's free kinds, worked out once a state.
pub(super) struct MendShape {
    free: Vec<bool>,       // kinds that may play as another: the hand's wildcards and the stand-ins
    natural_blocks: usize, // `_natural_blocks`
    anything: bool,        // `_wildcards_play_anything`
    give_way: bool,        // the tables' `wildcards_give_way`
    /// Per kind: its block (FREE for a free kind) and one tile of it in the block's key.
    unit: Vec<(u8, u128)>,
    blocks: usize,
    cap: usize,
    /// Per seat, each block's key (its tile counts, exactly) and fewest wildcards (or only that it does
    /// not split alone: `NOT_ALONE`) as last asked: a turn changes the blocks of the tile drawn and the
    /// tile given up, and the not-ready check asks the tables only for the blocks whose key differs. A
    /// block's answer is the tables' for that key alone, so it holds for any hand, melds or state; it
    /// goes with the free kinds (kept with them, `LastMend`), which decide which tiles the keys count.
    kept: Mutex<Vec<[(u128, u8); KEPT_BLOCKS]>>,
}

/// The blocks a kept row holds (a catalog of more blocks asks the tables for the whole hand).
const KEPT_BLOCKS: usize = 8;
/// `unit`'s block of a free kind (not counted in any block).
const FREE: u8 = u8::MAX;
/// The high bit of every count in a block's key (a count of 8 or more sets it).
const HIGH: u128 = 0x8888_8888_8888_8888_8888_8888_8888_8888;
/// A kept block that does not split without wildcards, its fewest wildcards not worked out yet (the
/// tables' counts are at most `MAX_CAP` or u8::MAX).
const NOT_ALONE: u8 = 0x80;
/// No key: a block's count never reaches 8, so no real key sets the high bit of a nibble.
const UNKNOWN: (u128, u8) = (u128::MAX, 0);
/// Seats kept (past them the whole hand is asked).
const KEPT_SEATS: usize = 16;
/// The last `MendShape` worked out, with the scoring it was made for (`OnValues::hand`).
pub(super) type LastMend = Mutex<Option<(usize, Arc<MendShape>)>>;

impl StateWins<'_> {
    /// (worked out once for the values it reads: kept with them, `OnValues::mend`, across states; and
    /// taken from the values before where the free kinds are the same — what it reads of the tables, and
    /// the blocks' answers kept, hold for any values with those free kinds)
    fn mend_shape(&self) -> Option<&MendShape> {
        self.on
            .mend
            .get_or_init(|| {
                let (_, ctx) = self.hand?;
                let n = ctx.setup.kind_names.len();
                let mut free = self.on.hand_wild.clone();
                free.resize(n, false);
                for &x in self.on.standin_kinds.iter().flatten() {
                    if x < n {
                        free[x] = true;
                    }
                }
                let mut last = self.w.last_mend.lock().unwrap_or_else(|e| e.into_inner());
                if let Some((_, m)) = last.as_ref().filter(|(hand, m)| *hand == self.on.hand && m.free == free) {
                    return Some(m.clone());
                }
                let flower: Vec<bool> = (0..n).map(|k| self.t.cat.kinds.get(k).is_none_or(|x| x.category == "flower")).collect();
                let (natural_blocks, anything) = ctx.tables.core_mend_shape(&free, &flower);
                let give_way = ctx.tables.core_wildcards_give_way();
                let (place, blocks, cap) = ctx.tables.core_key_places();
                // (no kept rows where the tables' kinds are not these: `unmendable` answers, as it did)
                let unit = if place.len() == n && blocks <= KEPT_BLOCKS {
                    place.iter().zip(&free).map(|(&(b, shift), &f)| if f { (FREE, 0) } else { (b as u8, 1u128 << shift) }).collect()
                } else {
                    Vec::new()
                };
                let m = Arc::new(MendShape { free, natural_blocks, anything, give_way, unit, blocks, cap, kept: Mutex::new(Vec::new()) });
                *last = Some((self.on.hand, m.clone()));
                Some(m)
            })
            .as_deref()
    }

    /// Whether wildcards play anything (`_wildcards_play_anything`: any kind but the flowers, in any
    /// group) and give way to a natural tile in any group (the tables' `wildcards_give_way`): read once
    /// for the values (`mend_shape`).
    pub(super) fn wildcards_swap(&self) -> (bool, bool) {
        self.mend_shape().map_or((false, false), |m| (m.anything, m.anything && m.give_way))
    }

    /// `_unmendable(tiles)`: None where the tables do not take the tiles (no shortcut then).
    fn unmendable(&self, m: &MendShape, tiles: &[usize]) -> Option<i64> {
        let (_, ctx) = self.hand?;
        // (a kind past the free kinds: no shortcut, as the counts made from the tiles had none)
        if tiles.iter().any(|&k| k >= m.free.len()) {
            return None;
        }
        ctx.tables.core_unmendable_tiles(tiles, &m.free, m.anything).ok()
    }

    /// `unmendable` of seat `s` with `tiles` as its concealed tiles, the blocks whose key is the one
    /// kept for the seat answered from it and only the others asked of the tables (then kept). The same
    /// answer as `unmendable`: None where it is None (a kind past the catalog, too many of one kind).
    fn unmendable_kept(&self, m: &MendShape, s: usize, tiles: &[usize]) -> Option<i64> {
        let (_, ctx) = self.hand?;
        // (fewer than 16 tiles: no count carries into the next kind's, so a count past `MAX_COUNT` is
        // seen after the sum, by its high bit)
        if m.unit.is_empty() || s >= KEPT_SEATS || tiles.len() >= 16 {
            return self.unmendable(m, tiles);
        }
        let mut keys = [0u128; KEPT_BLOCKS + 1]; // (the last: the free tiles, one each)
        for &k in tiles {
            let &(b, one) = m.unit.get(k)?;
            keys[(b as usize).min(KEPT_BLOCKS)] += if b == FREE { 1 } else { one };
        }
        let free = keys[KEPT_BLOCKS] as usize;
        if keys[..m.blocks].iter().any(|&key| key & HIGH != 0) {
            return None; // (`unmendable`: more tiles of one kind than the tables hold)
        }
        let mut kept = m.kept.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() <= s {
            kept.resize(s + 1, [UNKNOWN; KEPT_BLOCKS]);
        }
        let row = &mut kept[s];
        let mut asks = [(0usize, 0u128, 0u8); KEPT_BLOCKS];
        let mut n = 0;
        for b in 0..m.blocks {
            if row[b].0 != keys[b] {
                asks[n] = (b, keys[b], 0);
                n += 1;
            }
        }
        if n > 0 {
            // first only whether each splits alone: the blocks' count reads no more unless it is short
            // of fewer than two and wildcards play anything
            ctx.tables.core_blocks_min_wilds(&mut asks[..n], true).ok()?;
            for &(b, key, w) in &asks[..n] {
                row[b] = (key, if w == 0 { 0 } else { NOT_ALONE });
            }
        }
        let mut wilds = [0u8; KEPT_BLOCKS];
        for b in 0..m.blocks {
            wilds[b] = row[b].1;
        }
        let short = unmendable_of(&wilds[..m.blocks], free, false, m.cap);
        let bad = wilds[..m.blocks].iter().any(|&w| w != 0);
        if !m.anything || short >= 2 || !bad {
            return Some(short); // (`anything` or not, the answer: the blocks that do not split alone)
        }
        n = 0;
        for (b, &(key, w)) in row.iter().enumerate().take(m.blocks) {
            if w == NOT_ALONE {
                asks[n] = (b, key, 0);
                n += 1;
            }
        }
        if n > 0 {
            ctx.tables.core_blocks_min_wilds(&mut asks[..n], false).ok()?;
            for &(b, key, w) in &asks[..n] {
                row[b] = (key, w);
                wilds[b] = w;
            }
        }
        Some(unmendable_of(&wilds[..m.blocks], free, true, m.cap))
    }

    /// `_special_forms(forms)`: some form (of those named; none named: of all) builds no split.
    fn special_forms(&self, forms: &[String]) -> bool {
        let Some((_, ctx)) = self.hand else { return true };
        ctx.setup.forms.iter().any(|f| (f.instant || f.orphans.is_some()) && (forms.is_empty() || forms.iter().any(|n| **n == *f.name)))
    }

    /// Whether a form that builds no split (of those named; none named: of all) may give seat `s`'s hand a
    /// reading: an orphans form only a hand without melds, an instant form that is concealed only not a
    /// hand with an exposed meld (the readings pass over it). When none may, a hand that cannot split
    /// has no reading at all, and `hopeless` holds whatever the forms are (an exact extension of the
    /// reference's shortcut, which stops at any such form).
    fn special_may_take(&self, st: &HandState, s: usize, forms: &[String], tile: usize, in_hand: bool) -> bool {
        let Some((_, ctx)) = self.hand else { return true };
        let Some(seat) = st.seats.get(s) else { return true };
        let named = |f: &crate::hand::FormSpec| forms.is_empty() || forms.iter().any(|n| **n == *f.name);
        let mut exposed: Option<bool> = None;
        let special = || ctx.setup.forms.iter().filter(|f| (f.instant || f.orphans.is_some()) && named(f));
        // (`_could_win`'s tests past the split: a form they rule out for this hand takes it not)
        for f in special().filter(|f| f.orphans.is_none()) {
            if f.instant_wilds > 0 && !self.special_may_take_hand(f, &seat.hand, tile, in_hand) {
                continue;
            }
            if !f.concealed || seat.melds.is_empty() {
                return true;
            }
            let e = match exposed {
                Some(e) => e,
                None => match self.exposed_meld(st, s) {
                    Some(e) => *exposed.insert(e),
                    None => return true, // (the melds as the scorer takes them are not known: no shortcut)
                },
            };
            if !e {
                return true;
            }
        }
        // the orphans forms last (whether any form may take the hand: the order does not matter), their
        // test reading every tile
        seat.melds.is_empty() && special().any(|f| f.orphans.is_some() && self.special_may_take_hand(f, &seat.hand, tile, in_hand))
    }

    /// `_not_ready(concealed, melds)`: seat `s` with `concealed` as its concealed tiles waits on no
    /// tile, by the block deficits (and no form that builds no split is completed by one more tile).
    pub(super) fn not_ready(&self, st: &HandState, s: usize, concealed: &[usize]) -> bool {
        let Some(m) = self.mend_shape() else { return false };
        if !(m.natural_blocks >= 2 || m.anything) {
            return false;
        }
        if self.unmendable_kept(m, s, concealed).is_none_or(|u| u < 2) {
            return false;
        }
        // kept for the win questions on this hand with one more tile (`split_fails`), whatever the
        // forms that build no split say of it
        if let Some(key) = super::seat_memo::tiles_key(concealed) {
            self.keep_short(st, s, key);
        }
        !self.special_forms(&[]) || self.no_special_win(m, st, s, concealed)
    }

    /// `_no_special_win`: no form that builds no split is completed by one more tile, by `_could_win`'s
    /// necessary tests: an orphans form needs no melds and every tile that is not free to hold its
    /// attribute; an instant form needs its fewest wildcards, and one tile adds at most one.
    fn no_special_win(&self, m: &MendShape, st: &HandState, s: usize, concealed: &[usize]) -> bool {
        let Some((_, ctx)) = self.hand else { return false };
        let Some(seat) = st.seats.get(s) else { return false };
        let free = concealed.iter().filter(|&&k| m.free.get(k).copied().unwrap_or(false)).count();
        for f in &ctx.setup.forms {
            if let Some(members) = &f.orphans {
                if seat.melds.is_empty() && concealed.iter().all(|&k| m.free.get(k).copied().unwrap_or(false) || members.contains(&k)) {
                    return false;
                }
            } else if f.instant && free + 1 >= f.instant_wilds {
                return false;
            }
        }
        true
    }

    /// Whether `_could_win(conc, melds, k, …)`'s split test fails: seat `s` with `conc` as its concealed
    /// tiles was found short of two blocks or more (`not_ready`, kept: the hand after a discard, asked
    /// again with the next draw or a claimed tile), and one more tile, free or natural, mends at most
    /// one block (the reference's reasoning for `_not_ready` and `_hopeless`). Only the split test: the
    /// forms that build no split are still tried (`could_win_past_split`).
    pub(super) fn split_fails(&self, st: &HandState, s: usize, conc: &[usize]) -> bool {
        super::seat_memo::tiles_key(conc).is_some_and(|key| self.kept_short(st, s, key))
    }

    /// `_hopeless(seat, tile, in_hand, forms)`: seat `s`'s concealed tiles with the winning `tile` (among
    /// them when `in_hand`, else beside them) cannot split into groups, whatever the forms ask; not where
    /// a form that builds no split may take the hand (`special_may_take`).
    pub(super) fn hopeless(&self, st: &HandState, s: usize, tile: usize, in_hand: bool, forms: &[String]) -> bool {
        let Some(m) = self.mend_shape() else { return false };
        if self.special_forms(forms) && self.special_may_take(st, s, forms, tile, in_hand) {
            return false;
        }
        let win_wild = self.on.wild_kinds.iter().any(|&(w, win_scope)| win_scope && w == Some(tile));
        if in_hand && win_wild && !m.free.get(tile).copied().unwrap_or(false) {
            return false; // a wildcard only as the winning tile: not bounded by the deficits
        }
        let need = if in_hand { 1 } else { 2 };
        if need > m.natural_blocks && !m.anything {
            return false;
        }
        let Some(seat) = st.seats.get(s) else { return false };
        // (by the blocks kept per seat, as the not-ready check counts them: a hand with its draw, or
        // after its discard, differs from the hand last counted in one block, the tables asked for it alone;
        // or known where the hand without the winning tile was kept as short of two blocks or more — the
        // hand after the seat's discard, asked again with the opponent's discard and with its own draw:
        // one more tile, free or natural, mends at most one block, so the hand with it is short of one at
        // least, hopeless either way)
        let before = || match super::seat_memo::tiles_key(&seat.hand) {
            Some(key) if in_hand => (tile < 42 && key >> (3 * tile) & 7 != 0).then(|| key - (1u128 << (3 * tile))),
            key => key,
        };
        self.seat_short_of(st, s, need as i64, before, || self.unmendable_kept(m, s, &seat.hand))
    }
}
