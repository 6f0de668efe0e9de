//! The win and wait questions of a rule set with wildcards or stand-ins: a hand's tiles classified as
//! the reference classifies them (runtime/hand_readings.py `classify`: each stand-in's `plays` and
//! `unless`, each wildcard's kind — named, or its reveal's tile in the scoring environment of the
//! moment — and `active` condition, evaluated by the scoring programs with the hand's `self_drawn` and
//! `win_tile`), handed to the whole-hand scorer as the batch path hands a classified hand to it
//! (`HandInput::wild`, src/hand/wild.rs), the values and prefilter vectors of the groups it forms
//! asked of the Python side through the callable `set_scoring` hands over (`NativeHands.group_info`,
//! kept in the rule set's memo); and the waits by trials on those readings (runtime/game/winning.py
//! `_waits_of`, runtime/hand_score.py `wait_kinds` for the waits a pattern reads: each kind offered,
//! the trial tile never wild, one reading meeting the requirements that decide the waits; by structure
//! where no requirement decides them and every form is melds and pairs, `plain_wait_check`).
//!
//! A hand holding two or more wildcards of one kind, which the reference reads by signature: the
//! signature splits of the native search (src/signatures/search.rs: the observers ported, the same
//! splits and work) that `set_scoring`'s `signatures` holds, or where it declines (counted) of the
//! reference's search, asked of the Python side as the batch path asks it (the scoring environment
//! rebuilt from the state's context and reveal values).
//!
//! Declined by name: a hand with more free tiles than the native tables hold, a condition the
//! programs stop on, a hand the trials' readings refuse (the work limit: the reference's exact
//! shortcuts spend less), a state holding a seat in a context or reveal value (for the signature search).

use std::sync::Arc;

use pyo3::prelude::*;

use super::{HandState, Stop, StateWins, Value, V};
use crate::hand::trial::{completing, may_read, meets_for_waits, Trial};
use crate::hand::{Budget, Classified, Fallback, GroupAsk, HandCtx, HandInput, MeldIn, Signatures, Waits, WildIn};
use crate::program::{kind_of, Eval, Reading};
use crate::signatures::search::{Answer, Question, SigSearch};

/// The fewest wildcards whose hands the reference reads by signature (hand_readings.py `SIGNATURE_FROM`).
const SIGNATURE_FROM: usize = 2;

/// What a rule set with wildcards or stand-ins needs for its waits, read once.
pub struct WildRules {
    pub requires: Vec<usize>,   // the requirements that decide the waits (`Rules.wait_requires`)
    pub group_forms: Vec<bool>, // per form: it splits a hand into groups (no `instant`, no `orphans`)
    pub plain: bool,            // `Rules.plain_waits`: structure decides the waits
}

impl WildRules {
    pub fn build(ruleset_json: &str) -> Result<WildRules, String> {
        use serde_json::Value as J;
        let doc = crate::ruleset::json_doc(ruleset_json).map_err(|e| e.to_string())?;
        let rs = doc.get("ruleset").and_then(J::as_object).ok_or("a rule set without patterns")?;
        let requires = crate::waits::wait_requirements(rs).map_err(|e| e.to_string())?;
        let forms = rs.get("forms").and_then(J::as_array).cloned().unwrap_or_default();
        // Python's truth of a form's field: absent, null, false, 0 and "" are not set
        let set = |f: &J, k: &str| match f.get(k) {
            None | Some(J::Null) | Some(J::Bool(false)) => false,
            Some(J::Number(x)) => x.as_f64() != Some(0.0),
            Some(J::String(t)) => !t.is_empty(),
            Some(_) => true,
        };
        let group_forms = forms.iter().map(|f| f.get("instant").is_none_or(|v| v.is_null()) && !set(f, "orphans")).collect();
        let plain = requires.is_empty()
            && forms.iter().all(|f| {
                let given = |k: &str| f.get(k).is_some_and(|v| !v.is_null()); // `is None` in Python
                !given("instant") && !set(f, "orphans") && !given("pair_when") && !set(f, "tiles")
            });
        Ok(WildRules { requires, group_forms, plain })
    }
}

/// The waits a pattern of a hand being scored reads, found by the same trials (`Scoring.wait_kinds`
/// on the hand without its winning tile, self-drawn as the hand is, on the hand's work); the groups'
/// values asked of the Python side.
pub(super) struct GameWaits<'s, 'a> {
    pub wins: &'s StateWins<'a>,
    pub st: &'s HandState,
    pub seat: usize,
    pub concealed: &'s [usize],
    pub self_drawn: bool,
    pub has_win: bool,
    pub wild: Option<&'s WildIn>, // the hand's tiles classified, where some is wild or stands in
}

impl Waits for GameWaits<'_, '_> {
    fn waits(&mut self, shape: bool, budget: &mut Budget) -> Result<V, Fallback> {
        if !self.has_win {
            return Ok(V::List(Arc::new(Vec::new()))); // `waits_of_hand`: no winning tile, no waits
        }
        let w = self.wins;
        let forms = w.w.scoring.as_ref().map(|s| s.forms.clone()).unwrap_or_default();
        let kinds = w
            .trial_waits(self.st, self.seat, self.concealed, self.self_drawn, shape, &forms, w.w.wild.as_ref().is_some_and(|r| r.plain), true, budget)
            .map_err(|_| Fallback(w.declined.get().unwrap_or("the waits a pattern reads").to_owned()))?;
        let codes = &w.hand.expect("scoring").1.setup.tile_codes;
        Ok(V::List(Arc::new(kinds.iter().map(|&k| V::Tile(codes[k])).collect())))
    }

    fn group(&mut self, g: &GroupAsk) -> Result<(V, Option<Vec<u64>>), Fallback> {
        self.wins.group_info(g)
    }

    fn signatures(&mut self, form: usize, melds: usize, pairs: usize, budget: &mut Budget) -> Result<Signatures, Fallback> {
        self.wins.signature_search(self.wild, self.self_drawn, false, (form, melds, pairs), budget)
    }
}

/// How a wait walk ended (`wild_waits_until`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Walk {
    /// Every kind tried: the whole answer.
    Whole,
    /// Stopped once the comparison it was walked for was decided: part of the answer.
    Stopped,
    /// The whole answer, no waits, from the not-ready check alone (which keeps the hand as short).
    NotReady,
}

/// The readings of a trial: no waits read inside (the requirements that decide the waits read none).
/// `.1`: the trial hand's tiles classified; `.2`, `.3`: self-drawn, and for the waits a pattern reads
/// (the reference's `purpose`).
struct TrialOnly<'s, 'a>(&'s StateWins<'a>, Option<&'s WildIn>, bool, bool);

impl Waits for TrialOnly<'_, '_> {
    fn waits(&mut self, _shape: bool, _budget: &mut Budget) -> Result<V, Fallback> {
        Err(Fallback("a form condition of a wait trial that reads the waits".into()))
    }

    fn group(&mut self, g: &GroupAsk) -> Result<(V, Option<Vec<u64>>), Fallback> {
        self.0.group_info(g)
    }

    fn signatures(&mut self, form: usize, melds: usize, pairs: usize, budget: &mut Budget) -> Result<Signatures, Fallback> {
        self.0.signature_search(self.1, self.2, self.3, (form, melds, pairs), budget)
    }
}

impl StateWins<'_> {
    /// The reference's signature search of a hand holding wildcards (`set_scoring`'s `signatures`), as
    /// the batch path asks it: the hand's tiles as `classify` gives them for the form's `standins`, the
    /// scoring environment of the moment, the hand's self-drawn and the purpose (`for_waits`: the waits
    /// a pattern reads, the reference's `Scoring.wait_kinds`).
    fn signature_search(&self, wild: Option<&WildIn>, self_drawn: bool, for_waits: bool, at: (usize, usize, usize), budget: &mut Budget) -> Result<Signatures, Fallback> {
        let by = || Fallback(crate::hand::BY_SIGNATURE.into());
        let (py, ctx) = self.hand.ok_or_else(by)?;
        let cb = self.w.scoring.as_ref().and_then(|s| s.signatures.as_ref()).ok_or_else(by)?;
        let env = self.on.env_json.as_ref().ok_or_else(by)?;
        let wild = wild.ok_or_else(by)?;
        let (form, melds, pairs) = at;
        let f = ctx.setup.forms.get(form).ok_or_else(by)?;
        let cl = &wild.classes[f.standins as usize];
        let args = (env.as_str(), self_drawn, for_waits, form, melds, pairs, cl.naturals.clone(), cl.wilds.clone(), budget.work);
        let bound = cb.bind(py);
        if let Ok(ss) = bound.cast::<SigSearch>() {
            // the native search (src/signatures/search.rs): the reference's only where it declines, counted
            let ss = ss.borrow();
            let q = Question { env_key: env, self_drawn, waits: for_waits, form, melds: melds as u32, pairs: pairs as u32, naturals: &cl.naturals, wilds: &cl.wilds };
            let names = &ctx.program.settings;
            let values = self.on.hand_settings.as_ref().ok();
            let setting = |n: &str| -> Option<V> { values?.get(names.iter().position(|x| x == n)?)?.clone() };
            let mut work = budget.work;
            let got = match ss.kept.lock() {
                Ok(mut kept) => kept.answer(&ss.fixed, ctx.tables, &q, &setting, &mut work),
                Err(_) => Err("the native signature search is in use".into()),
            };
            match got {
                Ok(a) => {
                    ss.note_answered();
                    budget.work = work;
                    return Ok(match a {
                        Answer::Found(found) => Signatures::Found(found),
                        Answer::Enumerate => Signatures::Enumerate,
                        Answer::Limit => Signatures::Refused(ctx.setup.limit_sentence.clone()),
                    });
                }
                Err(why) => ss.note_declined(&why),
            }
            let got = ss.fallback.bind(py).call1(args).map_err(|_| Fallback("the signature search failed".into()))?;
            return crate::hand::binding::signatures_of(&got, budget);
        }
        let got = bound.call1(args).map_err(|_| Fallback("the signature search failed".into()))?;
        crate::hand::binding::signatures_of(&got, budget)
    }

    /// A group's value and prefilter vector, asked of the Python side (`set_scoring`'s `group`).
    pub(super) fn group_info(&self, g: &GroupAsk) -> Result<(V, Option<Vec<u64>>), Fallback> {
        let none = || Fallback("a group holding wildcards or stand-ins, whose value only the Python side computes".into());
        let (py, _) = self.hand.ok_or_else(none)?;
        let scoring = self.w.scoring.as_ref().ok_or_else(none)?;
        let cb = scoring.group.as_ref().ok_or_else(none)?;
        let hands = scoring.hands.bind(py).borrow();
        hands.group_info(cb.bind(py), g)
    }

    /// `HandReadings.classify(hand, standins)` of the concealed tiles `conc` and the winning tile `win`
    /// (`natural_win`: a wait trial, whose trial tile is never wild).
    pub(super) fn classify(&self, conc: &[usize], win: Option<usize>, self_drawn: bool, natural_win: bool, standins: bool) -> Result<Classified, Stop> {
        let Some((_, ctx)) = self.hand else { return Err(self.decline("no native scoring of whole hands")) };
        let conds = ctx.program.classes.as_ref().map_err(|_| self.decline("a wildcard or stand-in condition the programs do not lower"))?;
        let settings = self.on.hand_settings.as_ref().map_err(|&why| self.decline(why))?;
        let codes = &ctx.setup.tile_codes;
        let reading = Reading {
            groups: Vec::new(),
            tiles: Some(Arc::new(Vec::new())),
            hand: None,
            declared: Vec::new(),
            win_tile: win.map_or(V::None, |k| V::Tile(codes[k])),
            win_group: V::None,
            form: V::None,
            self_drawn,
            flowers: Arc::new(Vec::new()),
            waits: None,
            shape_waits: None,
            settings,
            packed: None,
        };
        let mut ev = Eval::new(ctx.program, &reading);
        let stop = |_| self.decline("a wildcard or stand-in condition the programs stop on");
        let n = codes.len();
        let mut standin: Vec<Option<usize>> = vec![None; n];
        if standins {
            for (i, (plays, unless)) in conds.standins.iter().enumerate() {
                let Some(&k) = self.on.standin_kinds.get(i) else { continue };
                let target = match ev.eval_node(plays).map_err(stop)? {
                    V::None => continue,
                    V::Tile(c) => kind_of(c) as usize,
                    _ => return Err(self.decline("a stand-in playing what is not a tile")),
                };
                if let Some(u) = unless {
                    if ev.eval_node(u).map_err(stop)?.truthy() {
                        continue;
                    }
                }
                if let (Some(k), true) = (k, target < n) {
                    standin[k] = Some(target);
                }
            }
        }
        let mut wild_hand = vec![false; n];
        let mut wild_win = vec![false; n];
        for (i, active) in conds.wild_active.iter().enumerate() {
            let Some(&(Some(k), win_scope)) = self.on.wild_kinds.get(i) else { continue };
            if let Some(a) = active {
                if !ev.eval_node(a).map_err(stop)?.truthy() {
                    continue;
                }
            }
            if win_scope {
                wild_win[k] = true;
            } else {
                wild_hand[k] = true;
            }
        }
        let mut out = Classified::default();
        let tiles = conc.iter().map(|&k| (k, false)).chain(win.map(|k| (k, true)));
        for (k, is_win) in tiles {
            if (wild_hand[k] || (is_win && wild_win[k])) && !(is_win && natural_win) {
                out.wilds.push((k, is_win));
            } else {
                out.naturals.push((standin[k].unwrap_or(k), k, is_win));
            }
        }
        Ok(out)
    }

    /// The hand's tiles classified for the whole-hand scorer: None when no tile is wild or stands in
    /// (the hand is read as a natural one), else both classifications.
    pub(super) fn wild_input(&self, conc: &[usize], win: Option<usize>, self_drawn: bool, natural_win: bool) -> Result<Option<WildIn>, Stop> {
        let with = self.classify(conc, win, self_drawn, natural_win, true)?;
        self.wild_input_with(conc, win, self_drawn, natural_win, with)
    }

    /// `wild_input(conc, win, self_drawn, natural_win)` past its first classification (`with`, with the
    /// stand-ins), which a wait trial reads first: the second only where the input holds it.
    fn wild_input_with(&self, conc: &[usize], win: Option<usize>, self_drawn: bool, natural_win: bool, with: Classified) -> Result<Option<WildIn>, Stop> {
        if with.wilds.is_empty() && with.naturals.iter().all(|&(k, p, _)| k == p) {
            return Ok(None);
        }
        let without = if self.on.standin_kinds.is_empty() { with.clone() } else { self.classify(conc, win, self_drawn, natural_win, false)? };
        Ok(Some(WildIn { classes: [without, with], signature_from: SIGNATURE_FROM }))
    }

    /// The kinds seat `s`'s hand with `conc` as its concealed tiles waits on (`_waits_of` with
    /// `forms` the rule set's forms, or the group forms; `Scoring.wait_kinds` with `shape` and the hand's
    /// self-drawn), on `budget`. `plain`: structure decides (`plain_wait_check`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn trial_waits(&self, st: &HandState, s: usize, conc: &[usize], self_drawn: bool, shape: bool, forms: &[usize], plain: bool, for_waits: bool, budget: &mut Budget) -> Result<Vec<usize>, Stop> {
        Ok(self.trial_waits_until(st, s, conc, self_drawn, shape, forms, plain, for_waits, budget, None)?.0)
    }

    /// `trial_waits`, the kinds tried in the same order until `decided(found, left)` holds (`found` the
    /// waits so far, `left` the kinds still to try): then the waits so far and false (the walk stopped
    /// early), else the whole answer and true.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn trial_waits_until(&self, st: &HandState, s: usize, conc: &[usize], self_drawn: bool, shape: bool, forms: &[usize], plain: bool, for_waits: bool, budget: &mut Budget, decided: Option<&dyn Fn(usize, usize) -> bool>) -> Result<(Vec<usize>, bool), Stop> {
        let Some((_, ctx)) = self.hand else { return Err(self.decline("no native scoring of whole hands")) };
        let wr = self.w.wild.as_ref().ok_or_else(|| self.decline("no wait trials"))?;
        let settings = self.on.hand_settings.as_ref().map_err(|&why| self.decline(why))?;
        let seat = st.seats.get(s).ok_or(Stop::Bail)?;
        let melds = self.melds_in(st, s)?;
        let flowers = self.flowers(st, s);
        let n = ctx.setup.kind_names.len();
        let mut held = vec![0i64; n];
        for &k in conc.iter().chain(seat.melds.iter().flat_map(|m| m.tiles.iter())).chain(flowers.iter()) {
            *held.get_mut(k).ok_or(Stop::Bail)? += 1;
        }
        let kinds = &self.t.cat.kinds;
        let offered = |k: usize| kinds[k].category != "flower" && (shape || held[k] < kinds[k].copies);
        let mut out = Vec::new();
        if plain {
            let cl = self.classify(conc, None, self_drawn, false, true)?;
            let mut counts = vec![0u8; n];
            for &(k, _, _) in &cl.naturals {
                counts[k] = counts[k].saturating_add(1);
            }
            let exposed = melds.iter().any(|m| m.exposed);
            let good = completing(ctx, forms, &counts, cl.wilds.len(), melds.len(), exposed)
                .map_err(|_| self.decline("a hand the block tables do not take"))?;
            return Ok(((0..n).filter(|&k| offered(k) && good[k]).collect(), true));
        }
        let codes = &ctx.setup.tile_codes;
        // `_could_win`'s forms: those that build no split left out where none takes the hand with any one
        // more tile (asked once for the hand, not for each kind: `could_win_past_split` answers no for every
        // kind then, and the split test reads only the other forms)
        let split_forms: Vec<usize>;
        let tested = if self.no_special_takes(ctx, conc, &melds, forms) {
            split_forms = forms.iter().copied().filter(|&fi| ctx.setup.forms.get(fi).is_some_and(|f| !f.instant && f.orphans.is_none())).collect();
            &split_forms
        } else {
            forms
        };
        // (made at the first kind tried: a walk may stop before it)
        let mut plan = None;
        // (the kinds offered, counted only where the walk may stop early)
        let mut left = if decided.is_some() { (0..n).filter(|&k| offered(k)).count() } else { 0 };
        // a comparison that any count short of every kind offered decides: one kind the blocks rule out
        // answers it, before the trial plan and the kinds in order (refute.rs)
        if let Some(d) = decided {
            if left > 0 && !d(0, left) && d(0, left - 1) && self.blocks_rule_out(ctx, conc, forms, &offered) {
                return Ok((out, false));
            }
        }
        for k in 0..n {
            if !offered(k) {
                continue;
            }
            if let Some(d) = decided {
                if d(out.len(), left) {
                    return Ok((out, false));
                }
                left -= 1;
            }
            let plan = plan.get_or_insert_with(|| self.trial_plan(conc, &melds, tested));
            if !self.could_win_planned(st, s, conc, &melds, k, tested, plan)? {
                continue;
            }
            let with = self.classify(conc, Some(k), self_drawn, true, true)?;
            // the readings' own split test first where the tiles as classified are not those `_could_win`
            // split (a stand-in plays its kind there, not a free tile; the trial tile is never wild): no
            // form splitting them, no reading (the forms reading the tiles without stand-ins: not known)
            let free_k = self.on.hand_wild.get(k).copied().unwrap_or(false) || self.on.standin_kinds.iter().flatten().any(|&x| x == k);
            if (free_k || with.naturals.iter().any(|&(x, p, _)| x != p)) && may_read(ctx, forms, [None, Some(&with)], &melds) == Some(false) {
                continue;
            }
            let inp = HandInput {
                concealed: conc.to_vec(),
                melds: melds.clone(),
                win: Some(k),
                self_drawn,
                settings: settings.clone(),
                flowers: flowers.iter().map(|&f| V::Tile(codes[f])).collect(),
                forms: forms.to_vec(),
                charge_splits: true,
                wild: self.wild_input_with(conc, Some(k), self_drawn, true, with)?,
            };
            let mut cb = TrialOnly(self, inp.wild.as_ref(), self_drawn, for_waits);
            let got = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| meets_for_waits(ctx, &inp, &wr.requires, budget, &mut cb)));
            match got {
                Ok(Ok(Trial::Meets(true))) => out.push(k),
                Ok(Ok(Trial::Meets(false))) => {}
                // the reference raises: with its shortcuts it may have spent less, so its answer is not known
                Ok(Ok(Trial::Refused)) => return Err(self.decline("a wait trial the readings refuse (the work limit)")),
                Ok(Err(Fallback(why))) => {
                    return Err(self.decline(if why == crate::hand::BY_SIGNATURE {
                        "a hand whose wildcards (of one kind) the reference reads by signature"
                    } else {
                        "a wait trial the native readings hand back"
                    }))
                }
                Err(_) => return Err(self.decline("a panic on this hand")),
            }
        }
        Ok((out, true))
    }

    /// Whether no form of `forms` that builds no split takes the concealed tiles `conc` with any one more
    /// tile, by `could_win_past_split`'s own tests: an orphans form needs no melds, the hand's size and
    /// every natural tile of its attribute; an instant form as many wildcards as the fewest it asks, and
    /// one more tile adds at most one (false where not known so).
    fn no_special_takes(&self, ctx: &HandCtx, conc: &[usize], melds: &[MeldIn], forms: &[usize]) -> bool {
        let Some(p) = self.places(ctx) else { return false };
        let exposed = melds.iter().any(|m| m.exposed);
        let mut need = usize::MAX;
        for &fi in forms {
            let Some(f) = ctx.setup.forms.get(fi) else { return false };
            if let Some(members) = &f.orphans {
                let apart = (f.concealed && exposed) || !melds.is_empty() || conc.len() != members.len();
                if !apart && conc.iter().all(|&x| p.free(x) || members.contains(&x)) {
                    return false;
                }
            } else if f.instant {
                need = need.min(f.instant_wilds);
            }
        }
        if need == usize::MAX {
            return true;
        }
        let free = conc.iter().filter(|&&x| p.free(x)).count();
        let wild = conc.iter().filter(|&&x| self.on.wild_kinds.iter().any(|&(w, win)| !win && w == Some(x))).count();
        free.min(wild) + 1 < need
    }

    /// The kinds seat `s`'s concealed hand (without one tile of `without`) waits on, in a rule set
    /// with wildcards or stand-ins (`Winning._waits_of`: not self-drawn, its own work).
    pub(super) fn wild_waits_of(&self, st: &HandState, s: usize, without: Option<usize>, groups: bool) -> Result<Vec<usize>, Stop> {
        Ok(self.wild_waits_until(st, s, without, groups, None)?.0)
    }

    /// `wild_waits_of`, the walk stopped once `decided` (`trial_waits_until`): the waits so far and
    /// how the walk ended.
    pub(super) fn wild_waits_until(&self, st: &HandState, s: usize, without: Option<usize>, groups: bool, decided: Option<&dyn Fn(usize, usize) -> bool>) -> Result<(Vec<usize>, Walk), Stop> {
        let wr = self.w.wild.as_ref().ok_or_else(|| self.decline("no wait trials"))?;
        let scoring = self.w.scoring.as_ref().ok_or_else(|| self.decline("no native scoring of whole hands"))?;
        let seat = st.seats.get(s).ok_or(Stop::Bail)?;
        let mut conc = seat.hand.clone();
        if let Some(k) = without {
            match conc.iter().position(|&x| x == k) {
                Some(i) => {
                    conc.remove(i);
                }
                None => return Ok((Vec::new(), Walk::Whole)),
            }
        }
        if self.not_ready(st, s, &conc) {
            return Ok((Vec::new(), Walk::NotReady));
        }
        let groups = groups && wr.group_forms.iter().any(|&g| !g);
        let forms: Vec<usize> = if groups {
            scoring.forms.iter().copied().filter(|&f| wr.group_forms.get(f).copied().unwrap_or(false)).collect()
        } else {
            scoring.forms.clone()
        };
        let mut budget = Budget { work: super::HAND_WORK };
        let (kinds, whole) = self.trial_waits_until(st, s, &conc, false, false, &forms, wr.plain && !groups, false, &mut budget, decided)?;
        Ok((kinds, if whole { Walk::Whole } else { Walk::Stopped }))
    }

    /// Whether seat `s` has laid down a meld the whole-hand scorer takes as exposed (`melds_in`'s, kept);
    /// None where its melds are declined (the reason not kept).
    pub(super) fn exposed_meld(&self, st: &HandState, s: usize) -> Option<bool> {
        if let Some(e) = self.kept_exposed(st, s) {
            return Some(e);
        }
        let before = self.declined.get();
        match self.melds_in(st, s) {
            Ok(melds) => Some(melds.iter().any(|m| m.exposed)),
            Err(_) => {
                self.declined.set(before);
                None
            }
        }
    }

    /// Seat `s`'s laid-down melds as the whole-hand scorer takes them (a meld it has not seen is
    /// checked and recorded by the Python side, `NativeHands.batch_meld`).
    pub(super) fn melds_in(&self, st: &HandState, s: usize) -> Result<Vec<MeldIn>, Stop> {
        let Some((py, _)) = self.hand else { return Err(self.decline("no native scoring of whole hands")) };
        let scoring = self.w.scoring.as_ref().ok_or_else(|| self.decline("no native scoring of whole hands"))?;
        let seat = st.seats.get(s).ok_or(Stop::Bail)?;
        if seat.melds.is_empty() {
            return Ok(Vec::new()); // (nothing to ask of the scoring's record)
        }
        if let Some(melds) = self.kept_melds(st, s) {
            return Ok(melds);
        }
        let hands = scoring.hands.bind(py).borrow();
        let mut melds: Vec<MeldIn> = Vec::with_capacity(seat.melds.len());
        for m in &seat.melds {
            let known = match hands.known_meld(&m.kind, &m.tiles) {
                Some(x) => Some(x),
                None => {
                    let took = scoring.meld.bind(py).call1((m.kind.as_str(), m.tiles.clone())).and_then(|x| x.extract::<bool>());
                    if matches!(took, Ok(true)) { hands.known_meld(&m.kind, &m.tiles) } else { None }
                }
            };
            melds.push(known.ok_or_else(|| self.decline("a laid-down meld the native scoring does not take"))?);
        }
        self.keep_melds(st, s, &melds);
        Ok(melds)
    }
}

/// The state's context and reveal values as the signature search rebuilds the scoring environment
/// from them (`Winning._score_env`): [[name, value]], a tile as {"t": kind}; None where one is a seat.
pub(super) fn env_json(st: &HandState) -> Option<String> {
    fn plain(v: &Value) -> Option<serde_json::Value> {
        Some(match v {
            Value::None => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Int(i) => serde_json::json!(i),
            Value::Str(s) => serde_json::Value::String(s.clone()),
            Value::Tile(k) => serde_json::json!({ "t": k }),
            Value::Seat(_) => return None,
            Value::List(items) => serde_json::Value::Array(items.iter().map(plain).collect::<Option<Vec<_>>>()?),
        })
    }
    let mut out = Vec::new();
    for (prefix, vars) in [("context:", &st.context), ("reveal:", &st.reveals)] {
        for (k, v) in vars {
            out.push(serde_json::json!([format!("{prefix}{k}"), plain(v)?]));
        }
    }
    Some(serde_json::Value::Array(out).to_string())
}
