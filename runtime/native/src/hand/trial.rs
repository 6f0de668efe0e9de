//! One wait trial of a hand of a rule set with wildcards or stand-ins, on the whole-hand readings
//! (readings.rs, wild.rs): the hand with a candidate kind as its winning tile read under the forms
//! given, and whether one reading meets the requirements that decide the waits (runtime/game/
//! winning.py `_waits_of`: `Scoring.readings` of the trial hand, then `requirements_ok(for_waits=True)`);
//! and the structural test of a rule set whose waits structure decides (`plain_wait_check`: the tiles
//! as `classify` gives them, the wildcards free, every melds-and-pairs target of the hand's size).

use std::sync::Arc;

use super::readings::{enumerate, form_targets, sum_fits, Found, WaitState};
use super::{fallback, Budget, Classified, Fallback, HandCtx, HandInput, MeldIn, Waits};
use crate::program::{Eval, Stop};

/// What one trial gives: whether a reading meets the requirements, or refused (the reference's
/// readings raise a HandError: its caller answers no waits at all).
pub enum Trial {
    Meets(bool),
    Refused,
}

/// Whether some reading of `input` (its winning tile the trial kind) meets every requirement listed
/// (positions of the scoring's requirements: those that decide the waits), as the reference's `any`
/// over the readings in order. The readings are charged to `budget` as the reference charges them.
pub fn meets_for_waits(ctx: &HandCtx, input: &HandInput, requires: &[usize], budget: &mut Budget, waits: &mut dyn Waits) -> Result<Trial, Fallback> {
    let sc = ctx.program.scoring.as_ref().map_err(|_| fallback("the scoring programs are not lowered"))?;
    let mut st = WaitState { waits: None, shape_waits: None };
    let list = match enumerate(ctx, input, budget, waits, &mut st)? {
        // the reference's readings raise only past the work limit; a hand no form's size fits has none
        Found::Refused(s) if s == ctx.setup.limit_sentence => return Ok(Trial::Refused),
        Found::Refused(_) => return Ok(Trial::Meets(false)),
        Found::Readings(list) => list,
    };
    let flowers = Arc::new(input.flowers.clone());
    let stop = |s: Stop| match s {
        // the reference's EvalError fails the requirement; the native stop is not known to be one
        Stop::Bail => fallback("a requirement the programs stop on"),
        Stop::NeedWaits | Stop::NeedShapeWaits => fallback("a requirement for the waits that reads the waits"),
    };
    for r in &list {
        let view = r.view(input, &flowers, &st);
        let mut ev = Eval::new(ctx.program, &view);
        let mut ok = true;
        for &j in requires {
            let q = sc.requires.get(j).ok_or_else(|| fallback("a requirement the programs do not hold"))?;
            if !q.forms.is_empty() && !q.forms.iter().any(|f| **f == *r.form_name) {
                continue;
            }
            if ev.eval_node(&q.expr).map_err(stop)?.truthy() {
                continue;
            }
            if let Some(u) = &q.unless {
                if ev.eval_node(u).map_err(stop)?.truthy() {
                    continue;
                }
            }
            ok = false;
            break;
        }
        if ok {
            return Ok(Trial::Meets(true));
        }
    }
    Ok(Trial::Meets(false))
}

/// Whether the readings of a wait trial's hand (`meets_for_waits`) may find one, by their own size and
/// split tests made first (readings.rs and wild.rs `enumerate`, in their order): `Some(false)` where
/// every form of `forms` is passed over for the hand's size or exposure, or none of its (melds, pairs)
/// the size fits splits the tiles as `classes` (without and with stand-ins) give them — then the
/// readings are none (or refused as no form's size fits: no wait either way), no split read and no
/// work charged, so the trial is answered no. `None` where the readings may read more than the split:
/// a form that builds no split (instant, orphans), or a test they would refuse or hand back (programs
/// not lowered, a tile outside the catalog, more wildcards than the tables hold, a table's refusal), or
/// a form reading a classification not given.
pub fn may_read(ctx: &HandCtx, forms: &[usize], classes: [Option<&Classified>; 2], melds: &[MeldIn]) -> Option<bool> {
    let setup = ctx.setup;
    ctx.program.scoring.as_ref().ok()?;
    let conds = ctx.program.form_conds.as_ref().ok()?;
    let n = setup.kind_names.len();
    for c in classes.into_iter().flatten() {
        if c.naturals.iter().any(|&(k, p, _)| k >= n || p >= n) || c.wilds.iter().any(|w| w.0 >= n) {
            return None;
        }
    }
    if melds.iter().any(|m| m.tiles.iter().any(|&k| k >= n)) {
        return None;
    }
    let meld_tiles: i64 = melds.iter().map(|m| m.tiles.len() as i64).sum();
    let has_exposed = melds.iter().any(|m| m.exposed);
    let cap = ctx.tables.core_cap();
    for &fi in forms {
        let f = setup.forms.get(fi)?;
        conds.get(fi)?;
        let cl = classes[f.standins as usize]?;
        let concealed_n = (cl.naturals.len() + cl.wilds.len()) as i64;
        if !f.fits(concealed_n + meld_tiles, setup.table_hand, has_exposed) {
            continue;
        }
        if f.instant || f.orphans.is_some() {
            return None;
        }
        let mut counts = vec![0u8; n];
        for &(k, _, _) in &cl.naturals {
            counts[k] = counts[k].saturating_add(1);
        }
        let nw = cl.wilds.len();
        for (m, p) in form_targets(f, melds.len() as i64) {
            if !sum_fits(concealed_n, m, &setup.meld_sizes, p, &setup.pair_sizes) {
                continue;
            }
            if nw > cap {
                return None;
            }
            if ctx.tables.core_can_split(&counts, nw, m as usize, p as usize).ok()? {
                return Some(true);
            }
        }
    }
    Some(false)
}

/// `plain_wait_check` of a hand without its winning tile: per kind, whether adding it completes the
/// hand by structure under `forms` (positions of the setup's forms, all melds and pairs). `counts`:
/// the concealed natural tiles by the kind each plays as; `wilds`: how many are wildcards; `melds`,
/// `exposed`: the laid-down melds and whether one is exposed.
pub fn completing(ctx: &HandCtx, forms: &[usize], counts: &[u8], wilds: usize, melds: usize, exposed: bool) -> Result<Vec<bool>, Fallback> {
    let setup = ctx.setup;
    let concealed_n = counts.iter().map(|&c| c as i64).sum::<i64>() + wilds as i64 + 1;
    let mut targets: Vec<(usize, usize)> = Vec::new();
    for &fi in forms {
        let f = setup.forms.get(fi).ok_or_else(|| fallback("a form outside the rule set"))?;
        for (m, p) in form_targets(f, melds as i64) {
            if sum_fits(concealed_n, m, &setup.meld_sizes, p, &setup.pair_sizes) && !(f.concealed && exposed) {
                targets.push((m as usize, p as usize));
            }
        }
    }
    let mut c = counts.to_vec();
    let mut out = vec![false; counts.len()];
    for k in 0..counts.len() {
        c[k] = c[k].saturating_add(1);
        for &(m, p) in &targets {
            if ctx.tables.core_can_split(&c, wilds, m, p).map_err(|e| Fallback(e.to_string()))? {
                out[k] = true;
                break;
            }
        }
        c[k] = counts[k];
    }
    Ok(out)
}

/// `splits_any` of the natural tiles `counts` with one more natural tile of each kind in turn, in one
/// answer of the block tables (the wait trials ask it of every kind): per kind, whether the hand with it
/// splits under one of `forms`' targets (those `splits_any` reads) for the hand's size plus that tile.
pub fn splits_completing(ctx: &HandCtx, forms: &[usize], counts: &[u8], wilds: usize, melds: usize, exposed: bool) -> Result<Vec<bool>, Fallback> {
    let setup = ctx.setup;
    let n = counts.iter().map(|&c| c as i64).sum::<i64>() + wilds as i64 + 1;
    let mut targets: Vec<(usize, usize)> = Vec::new();
    for &fi in forms {
        let f = setup.forms.get(fi).ok_or_else(|| fallback("a form outside the rule set"))?;
        if (f.concealed && exposed) || f.instant || f.orphans.is_some() {
            continue;
        }
        for (m, p) in form_targets(f, melds as i64) {
            if sum_fits(n, m, &setup.meld_sizes, p, &setup.pair_sizes) && !targets.contains(&(m as usize, p as usize)) {
                targets.push((m as usize, p as usize));
            }
        }
    }
    let mut out = vec![false; counts.len()];
    for k in ctx.tables.core_completing_kinds(counts, wilds, &targets).map_err(|e| Fallback(e.to_string()))? {
        if let Some(x) = out.get_mut(k) {
            *x = true;
        }
    }
    Ok(out)
}

/// The split test of runtime/game/winning.py `_could_win`: whether the natural tiles `counts` (the
/// winning tile among them) with `wilds` free tiles (wildcards and stand-ins alike) split under a
/// (melds, pairs) of one of `forms` (not instant, not orphans; a concealed form not with an exposed
/// meld) for their number of tiles.
pub fn splits_any(ctx: &HandCtx, forms: &[usize], counts: &[u8], wilds: usize, melds: usize, exposed: bool) -> Result<bool, Fallback> {
    let setup = ctx.setup;
    let n = counts.iter().map(|&c| c as i64).sum::<i64>() + wilds as i64;
    let mut targets: Vec<(usize, usize)> = Vec::new();
    for &fi in forms {
        let f = setup.forms.get(fi).ok_or_else(|| fallback("a form outside the rule set"))?;
        if (f.concealed && exposed) || f.instant || f.orphans.is_some() {
            continue;
        }
        for (m, p) in form_targets(f, melds as i64) {
            if sum_fits(n, m, &setup.meld_sizes, p, &setup.pair_sizes) {
                targets.push((m as usize, p as usize));
            }
        }
    }
    if targets.is_empty() {
        return Ok(false);
    }
    // the hand's option set made once for every target (within the tables' bounds, the answer and the
    // refusal are the ones the targets asked in turn give)
    let bounded = targets.iter().all(|&(m, p)| m <= crate::blocks::MAX_GROUPS && p <= crate::blocks::MAX_GROUPS);
    if bounded {
        return ctx.tables.core_can_split_any(counts, wilds, &targets).map_err(|e| Fallback(e.to_string()));
    }
    for (m, p) in targets {
        if ctx.tables.core_can_split(counts, wilds, m, p).map_err(|e| Fallback(e.to_string()))? {
            return Ok(true);
        }
    }
    Ok(false)
}
