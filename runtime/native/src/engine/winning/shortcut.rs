//! The reference's exact shortcuts (runtime/game/winning.py `_not_ready`, `_hopeless`, `_unmendable`,
//! `_no_special_win`): a hand short by two blocks is completed by no single tile, so it waits on
//! nothing, and a seat whose hand lacks more tiles than the winning tile supplies wins on no tile. They
//! only skip work whose answer is known (no wait, no win): every answer stays the full check's, and the
//! wait trials and whole-hand scorings they skip were most of a native hand's time.

use super::{HandState, StateWins};

/// What the shortcuts read of the block tables and the state's free kinds, worked out once a state.
pub(super) struct MendShape {
    free: Vec<bool>,       // kinds that may play as another: the hand's wildcards and the stand-ins
    natural_blocks: usize, // `_natural_blocks`
    anything: bool,        // `_wildcards_play_anything`
}

impl StateWins<'_> {
    /// (worked out once for the values it reads: kept with them, `OnValues::mend`, across states)
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
                let flower: Vec<bool> = (0..n).map(|k| self.t.cat.kinds.get(k).is_none_or(|x| x.category == "flower")).collect();
                let (natural_blocks, anything) = ctx.tables.core_mend_shape(&free, &flower);
                Some(MendShape { free, natural_blocks, anything })
            })
            .as_ref()
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
    fn special_may_take(&self, st: &HandState, s: usize, forms: &[String]) -> bool {
        let Some((_, ctx)) = self.hand else { return true };
        let Some(seat) = st.seats.get(s) else { return true };
        let named = |f: &crate::hand::FormSpec| forms.is_empty() || forms.iter().any(|n| **n == *f.name);
        let mut exposed: Option<bool> = None;
        for f in ctx.setup.forms.iter().filter(|f| (f.instant || f.orphans.is_some()) && named(f)) {
            if f.orphans.is_some() {
                if seat.melds.is_empty() {
                    return true;
                }
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
        false
    }

    /// `_not_ready(concealed, melds)`: seat `s` with `concealed` as its concealed tiles waits on no
    /// tile, by the block deficits (and no form that builds no split is completed by one more tile).
    pub(super) fn not_ready(&self, st: &HandState, s: usize, concealed: &[usize]) -> bool {
        let Some(m) = self.mend_shape() else { return false };
        if !(m.natural_blocks >= 2 || m.anything) {
            return false;
        }
        if self.unmendable(m, concealed).is_none_or(|u| u < 2) {
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
        if self.special_forms(forms) && self.special_may_take(st, s, forms) {
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
        self.seat_unmendable(st, s, || self.unmendable(m, &seat.hand)).is_some_and(|u| u >= need as i64)
    }
}
