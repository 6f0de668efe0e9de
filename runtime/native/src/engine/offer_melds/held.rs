//! The counts a meld needs, read before its candidates are made (engine/offer_melds.rs `meld_options`,
//! `Ctx::meld_moves`): where they are not held, no option is made, so the candidates (and, off the raw
//! hand, the usable tiles) are not worked out.

use super::count;
use crate::engine::offer_rules::{KindDef, ShapeDef};
use crate::engine::state::Seat;
use crate::engine::table::Table;

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

/// Whether a claim of `required` tile `r` may make a meld of non-growing kind `mk`, read off seat `s`'s
/// raw hand without its kinds `unusable` (`meld_options`' own pre-tests on the usable tiles, which hold
/// the same counts): a `same` shape needs `size - 1` of r held; a `run` shape, r in a suit and as many
/// usable kinds of its suit near it (other ranks, within `size - 1`) as the run takes from the hand.
/// Where this is false `meld_options` finds nothing, so the usable tiles are not worked out.
pub(in crate::engine) fn claim_possible(t: &Table, s: &Seat, mk: &KindDef, r: usize, unusable: &[usize]) -> bool {
    let sh = &mk.shape;
    if !mk.upgrades.is_empty() || mk.grows {
        return true;
    }
    match sh.kind.as_str() {
        "same" => {
            let held = if unusable.contains(&r) { 0 } else { s.hand.iter().filter(|&&x| x == r).count() };
            held as i64 >= sh.size as i64 - 1
        }
        "run" => {
            let Some(su) = t.suits.of[r] else { return false };
            let rank = t.cat.kinds[r].rank;
            let near_kind = |k: usize| {
                let x = &t.cat.kinds[k];
                x.rank != rank && (x.rank - rank).unsigned_abs() < sh.size as u64 && t.suits.of[k] == Some(su)
            };
            // distinct usable kinds, each counted at its first place in the hand
            let hand = &s.hand;
            let near = (0..hand.len())
                .filter(|&i| near_kind(hand[i]) && !hand[..i].contains(&hand[i]) && !unusable.contains(&hand[i]))
                .count();
            near + 1 >= sh.size
        }
        _ => true,
    }
}

/// Whether an action whose `grow` is `grow` may offer seat `s` an option of kind `mk` (`Ctx::grown` keeps
/// of a growing kind's options only the growths, for `extend`, or only the new melds, for any other
/// but `any`): a growth needs a meld of the seat's it grows from; a new meld of a `tiles` shape with no
/// required tile (and no upgrades) needs the shape's tiles held, read off the raw hand without its kinds
/// `unusable` (`meld_options`' own pre-test on the usable tiles). Where this is false `meld_options`
/// finds nothing that is kept, so neither it nor the usable tiles are worked out.
pub(in crate::engine) fn grow_possible(s: &Seat, mk: &KindDef, grow: &str, required: Option<usize>, unusable: &[usize]) -> bool {
    if !mk.grows || grow == "any" {
        return true;
    }
    if grow == "extend" {
        return s.melds.iter().any(|m| if mk.upgrades.is_empty() { m.kind == mk.name } else { mk.upgrades.contains(&m.kind) });
    }
    match (required, mk.upgrades.is_empty(), mk.shape.kind.as_str(), &mk.shape.tile_kinds) {
        (None, true, "tiles", Some(ks)) => ks.iter().all(|&k| {
            let held = if unusable.contains(&k) { 0 } else { s.hand.iter().filter(|&&x| x == k).count() };
            ks.iter().filter(|&&x| x == k).count() <= held
        }),
        _ => true,
    }
}
