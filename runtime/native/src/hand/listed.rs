//! The readings of a form that lists the hand's tiles instead of splitting them (an `instant` or
//! `orphans` form: the first case of runtime/hand_readings.py `_readings_natural` and `_readings_wild`),
//! and, for a hand of natural tiles, the test that its reading cannot be, made from the tiles' counts
//! before the lists are (`listed_never`).

use super::readings::{condition, packed, Listed, RData, WaitState};
use super::{fallback, Budget, Fallback, FormSpec, GroupRef, HandCtx, HandInput, Waits};
use crate::program::{sizes_fail, sizes_fail_by, Group, Node, V};

/// Whether the listed form `f` (position `fi`) cannot read a hand of natural tiles — its instant
/// condition's leading size tests fail (program/sizes.rs), or the hand is not its orphans —, told from
/// `counts` (the concealed tiles by kind, the winning one included) and the laid-down melds alone: then
/// `listed_form` would push no reading, and this answers what it would answer (whether the hand's size
/// fits the form). None where the lists must be made and `listed_form` asked. The sizes are those the
/// lists would have: a kind's tiles are one tile code (`Setup::tile_codes`), so the distinct tiles of a
/// list are its distinct kinds.
pub(super) fn listed_never(ctx: &HandCtx, input: &HandInput, fi: usize, f: &FormSpec, counts: &[u8], concealed_n: i64) -> Option<bool> {
    if f.instant {
        let sizes = ctx.program.form_conds.as_ref().ok()?.get(fi).map_or(&[][..], |c| &c.instant_sizes[..]);
        if sizes.is_empty() {
            return None;
        }
        let n_hand = concealed_n as usize;
        let d_hand = counts.iter().filter(|&&c| c > 0).count();
        let melded: usize = input.melds.iter().map(|m| m.tiles.len()).sum();
        let d_tiles = if melded == 0 {
            d_hand
        } else {
            let mut seen: Vec<bool> = counts.iter().map(|&c| c > 0).collect();
            for m in &input.melds {
                for &k in &m.tiles {
                    *seen.get_mut(k)? = true;
                }
            }
            seen.iter().filter(|&&x| x).count()
        };
        let fail = sizes_fail_by(sizes, |distinct, of_hand| {
            Some(match (distinct, of_hand) {
                (false, true) => n_hand,
                (false, false) => n_hand + melded,
                (true, true) => d_hand,
                (true, false) => d_tiles,
            })
        });
        return fail.then_some(true);
    }
    let need = f.orphans.as_ref()?;
    let fits = input.melds.is_empty() && orphans_fit(need, counts, 0);
    (!fits).then_some(concealed_n == need.len() as i64 + 1)
}

/// An instant or orphans form (the first case of Python `_readings_natural` and `_readings_wild`): its
/// reading, the hand's tiles listed (`l`), pushed on `out` when the form takes the hand. `at`: the
/// form's instant condition, the concealed natural tiles by kind, the number of wildcards and of
/// concealed tiles. True when the hand's size fits the form.
#[allow(clippy::too_many_arguments)]
pub(super) fn listed_form(
    ctx: &HandCtx,
    input: &HandInput,
    fi: usize,
    f: &FormSpec,
    at: (Option<&Node>, &[u8], usize, i64),
    exposed: &[Group],
    l: Listed,
    win_code: V,
    budget: &mut Budget,
    waits: &mut dyn Waits,
    st: &mut WaitState,
    out: &mut Vec<RData>,
) -> Result<bool, Fallback> {
    let (instant, counts, wilds, concealed_n) = at;
    let n_melds = input.melds.len();
    if f.instant {
        let node = instant.ok_or_else(|| fallback("an instant form without its condition"))?;
        let sizes = ctx.program.form_conds.as_ref().ok().and_then(|c| c.get(fi)).map_or(&[][..], |c| &c.instant_sizes[..]);
        if sizes_fail(sizes, Some(&l.0), Some(&l.1)) {
            return Ok(true); // its condition is false: no reading of the form
        }
        let in_groups: usize = exposed.iter().map(|g| g.tiles.len()).sum();
        let pk = if ctx.setup.prefilter && in_groups == l.0.len() {
            packed(input.melds.iter().map(|m| m.vector.as_ref()))
        } else {
            None
        };
        let r = listed(fi, f, (0..n_melds).map(GroupRef::Declared).collect(), exposed.to_vec(), l, win_code, pk);
        if condition(ctx, node, &r, input, budget, waits, st)? {
            out.push(r);
        }
        return Ok(true);
    }
    let Some(need) = &f.orphans else {
        return Ok(false);
    };
    if n_melds == 0 && orphans_fit(need, counts, wilds) {
        out.push(listed(fi, f, Vec::new(), Vec::new(), l, win_code, None));
    }
    Ok(concealed_n == need.len() as i64 + 1)
}

/// An instant or orphans reading: its tiles listed.
pub(super) fn listed(fi: usize, f: &FormSpec, refs: Vec<GroupRef>, groups: Vec<Group>, l: Listed, win: V, pk: Option<Vec<u8>>) -> RData {
    let nd = groups.len();
    RData {
        form: fi,
        form_name: f.name.clone(),
        refs,
        groups,
        declared: vec![true; nd],
        listed: Some(l),
        win_tile: win,
        win_group: V::None,
        packed: pk,
        built: Vec::new(),
    }
}

/// Python `_orphans`' test on the concealed natural tiles (`counts` by kind) and `wilds` wildcards: no
/// kind outside the needed ones, at most one kind doubled, and the wildcards exactly the missing kinds
/// (plus the doubled tile when no kind is).
pub(super) fn orphans_fit(need: &[usize], counts: &[u8], wilds: usize) -> bool {
    let n = counts.len();
    let mut needed = vec![false; n];
    for &k in need {
        if k < n {
            needed[k] = true;
        }
    }
    if (0..n).any(|k| counts[k] > 0 && !needed[k]) {
        return false;
    }
    let missing = need.iter().filter(|&&k| k >= n || counts[k] == 0).count() as i64;
    let extra: i64 = counts.iter().filter(|&&c| c > 1).map(|&c| c as i64 - 1).sum();
    extra <= 1 && missing + (1 - extra).max(0) == wilds as i64
}
