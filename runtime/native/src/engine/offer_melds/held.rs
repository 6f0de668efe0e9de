//! The counts a meld needs, read before its candidates are made (engine/offer_melds.rs `meld_options`,
//! `Ctx::meld_moves`): where they are not held, no option is made, so the candidates (and, off the raw
//! hand, the usable tiles) are not worked out.

use super::count;
use crate::engine::offer_rules::{KindDef, ShapeDef};
use crate::engine::state::Seat;

/// Whether some usable kind is held as often as a `same` shape's size (`fresh`'s candidates with no
/// required tile: none where this is false).
pub(super) fn held_whole(s: &ShapeDef, avail: &[(usize, usize)]) -> bool {
    avail.iter().any(|&(_, c)| c >= s.size)
}

/// Whether seat `s` may have a meld of `same` kind `mk` with no required tile: a kind held `size` times
/// (`fresh`'s only candidates, the upgrades' concealed ones too), or, for a growing kind, a meld it grows
/// from whose kind is held (a growth adds that kind). The raw hand holds at least the usable tiles, so
/// where this is false `meld_options` finds none.
pub(super) fn same_possible(s: &Seat, mk: &KindDef) -> bool {
    same_possible_with(s, mk, most_held(&s.hand))
}

/// The most times one kind is held in `hand` (`usize::MAX` where a kind lies past the table's few or a
/// count past a byte's: taken as possible): `same_possible`'s count for every `same` kind at once.
pub(in crate::engine) fn most_held(hand: &[usize]) -> usize {
    const FEW: usize = 256;
    let mut held = [0u8; FEW];
    let mut most = 0u8;
    for &k in hand {
        let Some(n) = held.get_mut(k) else { return usize::MAX };
        if *n == u8::MAX {
            return usize::MAX;
        }
        *n += 1;
        most = most.max(*n);
    }
    most as usize
}

/// `same_possible` with the hand's `most_held` given.
pub(in crate::engine) fn same_possible_with(s: &Seat, mk: &KindDef, most: usize) -> bool {
    if mk.shape.size > u8::MAX as usize || (most > 0 && most >= mk.shape.size) {
        return true;
    }
    let growing = !mk.upgrades.is_empty() || mk.grows;
    growing
        && s.melds.iter().any(|m| {
            let grows_from = if mk.upgrades.is_empty() { m.kind == mk.name } else { mk.upgrades.contains(&m.kind) };
            grows_from && m.tiles.first().is_some_and(|k| s.hand.contains(k))
        })
}

/// `fits` of a candidate's needs (its tiles by kind, one `required` tile fewer) without making them:
/// every kind of the candidate held often enough (a required tile the candidate lacks needs none).
pub(super) fn fits_tiles(avail: &[(usize, usize)], tiles: &[usize], required: Option<usize>) -> bool {
    tiles.iter().enumerate().all(|(i, &k)| {
        // each kind once, at its first place
        if tiles[..i].contains(&k) {
            return true;
        }
        let want = tiles[i..].iter().filter(|&&x| x == k).count() - (required == Some(k)) as usize;
        count(avail, k) >= want
    })
}
