//! runtime/game/winning.py `_could_win` natively: the structural test a wait trial is tried only past
//! and a win is scored only past — the tiles split by the block tables (wildcards and stand-ins free),
//! an orphans form's attribute held by every natural tile, or a win by an instant form (the hand scored
//! under those forms alone). A wait trial's split tests are worked out once for every kind tried (the
//! trial plan).

use super::{HandState, Stop, StateWins};
use crate::hand::trial::{splits_any, splits_completing};
use crate::hand::{Budget, MeldIn};

/// A wait trial's hand as `_could_win` reads it, for every kind tried (`StateWins::trial_plan`).
pub(super) struct TrialPlan {
    free: Vec<bool>,
    counts: Vec<u8>,
    wilds: usize,
    naturals: Vec<usize>,
    /// Per kind added as a natural tile: whether the hand splits (None: asked kind by kind).
    natural: Option<Vec<bool>>,
    /// `natural` holds no answer for the flowers (asked kind by kind).
    flowers_apart: bool,
    /// Whether the hand splits with one more free tile (the same for every free kind), once asked (or
    /// known from a completing kind, `trial_plan`).
    free_split: std::cell::Cell<Option<bool>>,
    cap: usize,
    /// Whether some form tried builds no split (an orphans or instant form): without one, a kind whose
    /// split test fails wins by no form (`could_win_past_split` answers no), so that test is spared.
    special: bool,
}

impl StateWins<'_> {
    /// runtime/game/winning.py `_could_win(conc, melds, k, False, forms)`, the test a wait trial is
    /// tried only past: the tiles split by structure (wildcards and stand-ins free, the winning tile
    /// free when it may be wild as one), or an orphans form's attribute held by every natural tile, or a
    /// win by an instant form (the hand scored under those forms alone, every requirement applied:
    /// so not only a shortcut, as the trial applies only the requirements that decide the waits).
    /// `win`: None for a wait trial's test; for a win's (`Winning.score`), whether it is self-drawn.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn could_win(&self, st: &HandState, s: usize, conc: &[usize], melds: &[MeldIn], k: usize, win: Option<bool>, forms: &[usize]) -> Result<bool, Stop> {
        let Some((_, ctx)) = self.hand else { return Err(self.decline("no native scoring of whole hands")) };
        let free = self.free_kinds(ctx.setup.kind_names.len());
        let (mut counts, mut wilds, mut naturals) = Self::split_tiles(&free, conc, ctx.setup.kind_names.len());
        if free[k] || self.win_wild(k) {
            wilds += 1;
        } else {
            counts[k] = counts[k].saturating_add(1);
            naturals.push(k);
        }
        let exposed = melds.iter().any(|m| m.exposed);
        if wilds > ctx.tables.core_cap() {
            return Err(self.decline("a hand with more free tiles (wildcards, stand-ins) than the native tables hold"));
        }
        // a win's test (not a trial's: its hands were found ready): a hand kept as short of two blocks
        // answers the split test (`split_fails`: the same answer, no lookup of the tables)
        let short = win.is_some() && self.split_fails(st, s, conc);
        if !short && splits_any(ctx, forms, &counts, wilds, melds.len(), exposed).map_err(|_| self.decline("a hand the block tables do not take"))? {
            return Ok(true);
        }
        self.could_win_past_split(st, s, conc, melds, k, win, forms, wilds, &naturals)
    }

    /// `could_win(…, k, Some(drawn), forms)` with the seat's melds as the scorer takes them (`melds_in`,
    /// which asks the Python side of a meld it has not seen) looked up only where the answer reads them:
    /// the split test reads how many melds there are, and whether one is exposed only where the forms
    /// that are concealed only decide it (the hand splits with them counted and not without them); past a
    /// failed split, only a form that builds no split reads them. The same answer, or a refusal, as
    /// `could_win` gives.
    pub(super) fn could_win_by_split(&self, st: &HandState, s: usize, conc: &[usize], k: usize, drawn: bool, forms: &[usize]) -> Result<bool, Stop> {
        let Some((_, ctx)) = self.hand else { return Err(self.decline("no native scoring of whole hands")) };
        let n = ctx.setup.kind_names.len();
        let count = st.seats.get(s).ok_or(Stop::Bail)?.melds.len();
        let free = self.free_kinds(n);
        let (mut counts, mut wilds, mut naturals) = Self::split_tiles(&free, conc, n);
        if free[k] || self.win_wild(k) {
            wilds += 1;
        } else {
            counts[k] = counts[k].saturating_add(1);
            naturals.push(k);
        }
        if wilds > ctx.tables.core_cap() {
            return Err(self.decline("a hand with more free tiles (wildcards, stand-ins) than the native tables hold"));
        }
        let split_by = |exposed: bool| splits_any(ctx, forms, &counts, wilds, count, exposed).map_err(|_| self.decline("a hand the block tables do not take"));
        let concealed = forms.iter().any(|&fi| ctx.setup.forms.get(fi).is_some_and(|f| f.concealed));
        // (a hand kept as short of two blocks answers the split test, as in `could_win`)
        let split = if self.split_fails(st, s, conc) {
            Some(false)
        } else if count == 0 || !concealed {
            Some(split_by(false)?)
        } else if !split_by(false)? {
            Some(false) // (the concealed forms counted: most hands asked)
        } else if split_by(true)? {
            Some(true)
        } else {
            None
        };
        let special = forms.iter().any(|&fi| ctx.setup.forms.get(fi).is_some_and(|f| f.orphans.is_some() || f.instant));
        match split {
            Some(true) => return Ok(true),
            Some(false) if !special => return Ok(false), // (as `could_win_past_split` answers)
            _ => {}
        }
        let melds = self.melds_in(st, s)?;
        if split.is_none() && split_by(melds.iter().any(|m| m.exposed))? {
            return Ok(true);
        }
        self.could_win_past_split(st, s, conc, &melds, k, Some(drawn), forms, wilds, &naturals)
    }

    /// The kinds free in a hand (wildcards of the hand's scope, stand-ins), by kind (`_free_names`).
    fn free_kinds(&self, n: usize) -> Vec<bool> {
        let mut free = self.on.hand_wild.clone();
        free.resize(n, false);
        for &x in self.on.standin_kinds.iter().flatten() {
            free[x] = true;
        }
        free
    }

    /// Whether kind `x` is wild as a winning tile (a wildcard of the winning tile's scope).
    fn win_wild(&self, x: usize) -> bool {
        self.on.wild_kinds.iter().any(|&(w, win_scope)| win_scope && w == Some(x))
    }

    /// The concealed tiles `conc` as `_could_win` counts them: natural tiles by kind, the free ones, the
    /// natural tiles in order.
    fn split_tiles(free: &[bool], conc: &[usize], n: usize) -> (Vec<u8>, usize, Vec<usize>) {
        let mut counts = vec![0u8; n];
        let mut wilds = 0;
        let mut naturals = Vec::with_capacity(conc.len() + 1);
        for &x in conc {
            if free[x] {
                wilds += 1;
            } else {
                counts[x] = counts[x].saturating_add(1);
                naturals.push(x);
            }
        }
        (counts, wilds, naturals)
    }

    /// `_could_win` past its split test: an orphans form's attribute held by every natural tile
    /// (`naturals`, the winning tile's among them when it is natural), or a win by an instant form.
    #[allow(clippy::too_many_arguments)]
    fn could_win_past_split(&self, st: &HandState, s: usize, conc: &[usize], melds: &[MeldIn], k: usize, win: Option<bool>, forms: &[usize], wilds: usize, naturals: &[usize]) -> Result<bool, Stop> {
        let Some((_, ctx)) = self.hand else { return Err(self.decline("no native scoring of whole hands")) };
        let exposed = melds.iter().any(|m| m.exposed);
        let total = conc.len() + 1;
        for &fi in forms {
            let Some(f) = ctx.setup.forms.get(fi) else { continue };
            let Some(members) = &f.orphans else { continue };
            if f.concealed && exposed {
                continue;
            }
            if melds.is_empty() && total == members.len() + 1 && naturals.iter().all(|x| members.contains(x)) {
                return Ok(true);
            }
        }
        if !forms.iter().any(|&fi| ctx.setup.forms.get(fi).is_some_and(|f| f.instant)) {
            return Ok(false);
        }
        // every instant form asks for more wildcards than the hand could hold (the reference's shortcut,
        // `_instant_wilds`): no win by one
        let need = forms.iter().filter_map(|&fi| ctx.setup.forms.get(fi).filter(|f| f.instant)).map(|f| f.instant_wilds).min().unwrap_or(0);
        if wilds < need {
            return Ok(false);
        }
        // what `need` bounds is `count(t in hand: t.wild)` (`wilds_needed`), and only a tile of a wildcard
        // kind is wild there (a stand-in plays as a natural tile; the winning tile also by a wildcard of
        // its scope): with fewer such tiles no instant form holds, the scoring finds no win
        let wild_kind = |x: usize, win: bool| self.on.wild_kinds.iter().any(|&(w, win_scope)| w == Some(x) && (win || !win_scope));
        if conc.iter().filter(|&&x| wild_kind(x, false)).count() + usize::from(wild_kind(k, true)) < need {
            return Ok(false);
        }
        // an instant form the readings pass over for this hand (concealed only, with an exposed meld; a
        // count of tiles it does not have), or whose condition's leading conjuncts rule the hand out
        // (instant.rs), gives it no reading: with none left the scoring is spared
        let tiles = total as i64 + melds.iter().map(|m| m.tiles.len() as i64).sum::<i64>();
        let takes = |f: &crate::hand::FormSpec| {
            f.instant
                && f.fits(tiles, ctx.setup.table_hand, exposed)
                && !self.w.instant.rules_out(&f.name, total, naturals, wilds)
        };
        let instant: Vec<String> = forms.iter().filter_map(|&fi| ctx.setup.forms.get(fi).filter(|f| takes(f)).map(|f| f.name.to_string())).collect();
        if instant.is_empty() {
            return Ok(false);
        }
        // the hand scored under the instant forms alone (without the flowers set aside), self-drawn as
        // the win is (a wait trial: not), as `_could_win` scores it
        let mut budget = Budget { work: super::HAND_WORK };
        Ok(matches!(self.score_with(st, s, conc, Some(k), win.unwrap_or(false), &instant, false, &mut budget, false, true)?.0, super::Scored::Hand(h) if h.win))
    }

    /// What a wait trial's `_could_win` reads of the hand alone, worked out once for every kind tried:
    /// the free kinds, the natural tiles, and the split test of each kind added (one answer of the
    /// tables; None where they decline it, each kind then tested on its own as `could_win` tests it).
    pub(super) fn trial_plan(&self, conc: &[usize], melds: &[MeldIn], forms: &[usize]) -> Option<TrialPlan> {
        let (_, ctx) = self.hand?;
        let n = ctx.setup.kind_names.len();
        let free = self.free_kinds(n);
        let (counts, wilds, naturals) = Self::split_tiles(&free, conc, n);
        let exposed = melds.iter().any(|m| m.exposed);
        let cap = ctx.tables.core_cap();
        let kinds = &self.t.cat.kinds;
        let flower = |k: usize| kinds.get(k).is_none_or(|c| c.category == "flower");
        let (anything, give_way) = self.wildcards_swap();
        // where wildcards play anything, a hand that splits with one more natural tile of a kind that is
        // not a flower splits with a wildcard in its place: so a hand that does not split with one more
        // free tile is completed by no such kind. One split test, a fraction of the completing kinds'
        // cost, answers most hands the not-ready check lets through (the flowers then asked kind by kind)
        let none_natural = anything && wilds < cap && matches!(splits_any(ctx, forms, &counts, wilds + 1, melds.len(), exposed), Ok(false));
        let natural = if none_natural {
            Some(vec![false; n])
        } else if wilds <= cap {
            splits_completing(ctx, forms, &counts, wilds, melds.len(), exposed).ok()
        } else {
            None
        };
        let special = forms.iter().any(|&fi| ctx.setup.forms.get(fi).is_some_and(|f| f.orphans.is_some() || f.instant));
        // the free tile's split test (one more wildcard, within the cap that `could_win_planned` checks
        // first) from the completing kinds: where wildcards play anything (every kind but the flowers, in
        // every group: the tables' templates take a wildcard in any slot), a hand that splits with one
        // more natural tile of a kind that is not a flower splits with a wildcard in its place; where they
        // also give way (`wildcards_give_way`), a hand that splits with one more wildcard splits with a
        // natural tile in its place (of the kind its slot plays, or of one a group of its size holds),
        // which `natural` tries for every kind. Otherwise asked of the tables, once
        let free_split = match &natural {
            _ if none_natural => Some(false),
            Some(v) if anything && v.iter().enumerate().any(|(k, &x)| x && !flower(k)) => Some(true),
            Some(v) if give_way && !v.contains(&true) => Some(false),
            _ => None,
        };
        Some(TrialPlan { free, counts, wilds, naturals, natural, flowers_apart: none_natural, free_split: std::cell::Cell::new(free_split), cap, special })
    }

    /// `could_win(…, k, None, forms)` of a wait trial, on the hand's `plan`: the same answer, or the same
    /// refusal, as `could_win` gives.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn could_win_planned(&self, st: &HandState, s: usize, conc: &[usize], melds: &[MeldIn], k: usize, forms: &[usize], plan: &Option<TrialPlan>) -> Result<bool, Stop> {
        let Some(plan) = plan else { return self.could_win(st, s, conc, melds, k, None, forms) };
        let Some((_, ctx)) = self.hand else { return Err(self.decline("no native scoring of whole hands")) };
        let free_k = plan.free[k] || self.win_wild(k);
        let wilds = plan.wilds + free_k as usize;
        if wilds > plan.cap {
            return Err(self.decline("a hand with more free tiles (wildcards, stand-ins) than the native tables hold"));
        }
        let exposed = melds.iter().any(|m| m.exposed);
        let split = if free_k {
            match plan.free_split.get() {
                Some(x) => x,
                None => {
                    let x = splits_any(ctx, forms, &plan.counts, wilds, melds.len(), exposed).map_err(|_| self.decline("a hand the block tables do not take"))?;
                    plan.free_split.set(Some(x));
                    x
                }
            }
        } else {
            let flower = self.t.cat.kinds.get(k).is_none_or(|c| c.category == "flower");
            match &plan.natural {
                Some(v) if !(plan.flowers_apart && flower) => v[k],
                _ => return self.could_win(st, s, conc, melds, k, None, forms),
            }
        };
        if split {
            return Ok(true);
        }
        if !plan.special {
            return Ok(false); // (as `could_win_past_split` answers when no form tried builds no split)
        }
        let mut naturals = Vec::with_capacity(plan.naturals.len() + 1);
        naturals.extend_from_slice(&plan.naturals);
        if !free_k {
            naturals.push(k);
        }
        self.could_win_past_split(st, s, conc, melds, k, None, forms, wilds, &naturals)
    }
}
