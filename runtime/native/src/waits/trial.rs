//! One wait trial: the readings of the hand with a candidate kind as its winning tile, under every
//! form or the ones asked (runtime/hand_readings.py `_readings_natural`, `_readings_plain`,
//! `_orphans`), and whether one of them meets the requirements that decide the waits
//! (runtime/hand_score.py `requirements_ok(for_waits=True)`).
//!
//! Groups carry the identity the reference's shared group objects have: the groups of a split that
//! are the same group of natural tiles (kind and tiles) are one group, the winning one is its own, and
//! each laid-down meld is its own.

use std::sync::Arc;

use super::{Declined, WaitHand, WaitRules, READING_WORK, SPLIT_LIMIT};
use crate::blocks::Tables as Core;
use crate::program::{sizes_fail_by, Eval, FormConds, Group, Node, Program, Reading, SizeTest, Stop, V};

pub(super) struct Trials<'w, 'h> {
    wr: &'w WaitRules,
    program: &'w Program,
    hand: &'h WaitHand<'h>,
    exposed: Vec<Group>,        // the laid-down melds, in order
    exposed_tiles: Vec<V>,      // their tiles, in order
    counts: Vec<u8>,            // per kind, the concealed tiles
    flowers: Arc<Vec<V>>,
    split_tiles: Vec<Option<Arc<Vec<V>>>>, // per split group id, its tiles' codes (made at first use)
    trial_hand: Arc<Vec<V>>,                // the concealed tiles' codes and a last slot for the winning one
    flat: Vec<u32>,                         // the splits of one target, one after another (reused)
    // per form, the instant reading of the last trial under it: every trial's is the same but for the
    // winning tile (the last slot of its hand and of its tiles, and `win_tile`), so one is built a hand
    // and each trial rewrites those slots in place once the previous trial's evaluator is gone
    instant: Vec<Option<Reading<'h>>>,
    held: Option<Held>, // the kinds held, made at the first size test (`sizes_fail`)
}

/// The kinds a hand holds besides a trial's tile: how many among the concealed tiles, how many among
/// those and the laid-down melds' tiles, and per kind whether it is among the latter.
struct Held {
    hand: usize,
    tiles: usize,
    seen: Vec<bool>,
}

fn declined(s: Stop) -> Declined {
    match s {
        Stop::Bail => Declined("a condition the programs stop on"),
        Stop::NeedWaits | Stop::NeedShapeWaits => Declined("a condition that reads the waits"),
    }
}

impl<'w, 'h> Trials<'w, 'h> {
    pub(super) fn new(wr: &'w WaitRules, program: &'w Program, hand: &'h WaitHand<'h>) -> Trials<'w, 'h> {
        let mut exposed = Vec::with_capacity(hand.melds.len());
        let mut exposed_tiles = Vec::new();
        for (i, m) in hand.melds.iter().enumerate() {
            let mk = &wr.melds[m.meld];
            let tiles: Vec<V> = m.kinds.iter().map(|&k| wr.code(k)).collect();
            exposed_tiles.extend(tiles.iter().cloned());
            exposed.push(Group {
                kind: mk.name.clone(),
                tiles: Arc::new(tiles),
                exposed: mk.exposed,
                concealed: !mk.exposed,
                pair: mk.pair,
                kong: mk.kong,
                has_win: false,
                value: wr.meld_value(m.meld, m.kinds.first().copied()),
                ident: i as u16,
            });
        }
        let mut counts = vec![0u8; wr.copies.len()];
        for &k in hand.concealed {
            counts[k] = counts[k].saturating_add(1);
        }
        Trials {
            wr,
            program,
            hand,
            exposed,
            exposed_tiles,
            counts,
            flowers: Arc::new(hand.flowers.iter().map(|&k| wr.code(k)).collect()),
            split_tiles: Vec::new(),
            trial_hand: Arc::new(hand.concealed.iter().map(|&k| wr.code(k)).chain([V::None]).collect()),
            flat: Vec::new(),
            instant: Vec::new(),
            held: None,
        }
    }

    fn exposed(&self) -> Vec<Group> {
        self.exposed.iter().map(clone_group).collect()
    }

    fn reading(&self, form: usize, groups: Vec<Group>, tiles: Option<Arc<Vec<V>>>, hand: Option<Arc<Vec<V>>>, win: usize, win_group: V) -> Reading<'h> {
        let declared = (0..groups.len()).map(|i| i < self.exposed.len()).collect(); // the laid-down melds come first
        Reading {
            groups,
            tiles,
            hand,
            declared,
            win_tile: self.wr.code(win),
            win_group,
            form: V::Str(self.wr.forms[form].name.clone()),
            self_drawn: self.hand.self_drawn,
            flowers: self.flowers.clone(),
            waits: None,
            shape_waits: None,
            settings: self.hand.settings,
            packed: None,
        }
    }

    /// The lowered conditions of a form (declines where the programs do not hold them).
    fn conds(&self, form: usize) -> Result<&'w FormConds, Declined> {
        let conds = self.program.form_conds.as_ref().map_err(|_| Declined("form conditions not lowered"))?;
        conds.get(form).ok_or(Declined("a form the programs do not hold"))
    }

    /// Python `_eval_bool`: a condition of a form on a reading (an error the reference would meet, or a
    /// value the programs do not hold, declines).
    fn holds(ev: &mut Eval, node: &Option<Node>) -> Result<bool, Declined> {
        match node {
            None => Ok(true),
            Some(e) => Ok(ev.eval_node(e).map_err(declined)?.truthy()),
        }
    }

    /// Python `requirements_ok(for_waits=True)`: whether the reading meets every requirement that
    /// decides the waits.
    fn meets(&self, ev: &mut Eval, form: &V) -> Result<bool, Declined> {
        let sc = self.program.scoring.as_ref().map_err(|_| Declined("scoring not lowered"))?;
        for &j in &self.wr.requires {
            let q = &sc.requires[j];
            if !q.forms.is_empty() && !q.forms.iter().any(|f| matches!(form, V::Str(s) if s == f)) {
                continue;
            }
            if ev.eval_node(&q.expr).map_err(declined)?.truthy() {
                continue;
            }
            if let Some(u) = &q.unless {
                if ev.eval_node(u).map_err(declined)?.truthy() {
                    continue;
                }
            }
            return Ok(false);
        }
        Ok(true)
    }

    /// Whether the hand with kind `k` as its winning tile has a reading (under the forms `only` marks,
    /// or every form) meeting every requirement that decides the waits; its readings are charged to
    /// `work`, and a trial past it declines (the reference then says so).
    ///
    /// The readings are the reference's, in its order, and every one is counted (the work charged is
    /// the reference's), but one is built and tested only while none has met the requirements yet, or
    /// where its form's condition decides whether it is a reading at all: the first that meets them
    /// answers, as the reference's `any` does.
    pub(super) fn wins(&mut self, core: &mut Core, k: usize, only: Option<&[bool]>, work: &mut i64) -> Result<bool, Declined> {
        self.program.scoring.as_ref().map_err(|_| Declined("scoring not lowered"))?;
        let mut t = Tally { readings: 0, found: false };
        let held = self.counts[k];
        self.counts[k] = held.saturating_add(1);
        let got = self.readings(core, k, only, &mut t);
        self.counts[k] = held;
        got?;
        *work -= t.readings as i64 * READING_WORK;
        if *work < 0 {
            return Err(Declined("the hand's work limit"));
        }
        Ok(t.found)
    }

    /// The trial of the hand's own winning kind from the readings the scoring found of the same hand
    /// (`Own`): each counted and charged as `wins` charges them, whether one meets the requirements
    /// that decide the waits tested as `wins` tests them (in order, a fresh evaluation each, until one
    /// does). None, nothing charged, where a requirement cannot be decided: the trial is then made
    /// (and declines as it did).
    pub(super) fn own(&self, readings: &[Reading], work: &mut i64) -> Result<Option<bool>, Declined> {
        let mut found = false;
        for r in readings {
            let mut ev = Eval::new(self.program, r);
            match self.meets(&mut ev, &r.form) {
                Ok(true) => {
                    found = true;
                    break;
                }
                Ok(false) => {}
                Err(_) => return Ok(None),
            }
        }
        *work -= readings.len() as i64 * READING_WORK;
        if *work < 0 {
            return Err(Declined("the hand's work limit"));
        }
        Ok(Some(found))
    }

    /// The reading `r` counted: tested against the requirements unless one has met them already.
    fn count(&self, r: &Reading, ev: Option<Eval>, t: &mut Tally) -> Result<(), Declined> {
        t.readings += 1;
        if !t.found {
            let mut ev = ev.unwrap_or_else(|| Eval::new(self.program, r));
            t.found = self.meets(&mut ev, &r.form)?;
        }
        Ok(())
    }

    fn readings(&mut self, core: &mut Core, win: usize, only: Option<&[bool]>, t: &mut Tally) -> Result<(), Declined> {
        let wr = self.wr;
        let concealed_n = self.hand.concealed.len() + 1;
        let all_n = concealed_n + self.exposed_tiles.len();
        let has_exposed = self.exposed.iter().any(|g| g.exposed);
        let mut naturals: Option<Arc<Vec<V>>> = None; // the concealed tiles and the winning one, made once
        let mut listed = |this: &mut Self| -> (Arc<Vec<V>>, Arc<Vec<V>>) {
            let hand = naturals.get_or_insert_with(|| this.trial_hand(win)).clone();
            let tiles = if this.exposed_tiles.is_empty() {
                hand.clone()
            } else {
                Arc::new(hand.iter().chain(this.exposed_tiles.iter()).cloned().collect())
            };
            (tiles, hand)
        };
        for (fi, f) in wr.forms.iter().enumerate() {
            if only.is_some_and(|o| !o[fi]) {
                continue;
            }
            if f.tiles.is_some_and(|t| all_n != t && all_n != wr.hand_size + 1) {
                continue;
            }
            if f.concealed && has_exposed {
                continue;
            }
            if f.instant {
                let conds = self.conds(fi)?;
                if self.sizes_fail(&conds.instant_sizes, win) {
                    continue; // its condition is false (program/sizes.rs): no reading of the form
                }
                self.set_instant(fi, win);
                let Some(r) = self.instant[fi].as_ref() else { continue };
                let mut ev = Eval::new(self.program, r);
                if Self::holds(&mut ev, &conds.instant)? {
                    self.count(r, Some(ev), t)?;
                }
                continue;
            }
            if f.orphans.is_some() {
                if !self.exposed.is_empty() {
                    continue;
                }
                let mut missing = 0;
                let mut extra = 0;
                let mut other = false;
                for (k, &c) in self.counts.iter().enumerate() {
                    let need = f.orphan_kinds[k];
                    if c > 0 && !need {
                        other = true;
                    }
                    if need && c == 0 {
                        missing += 1;
                    }
                    extra += (c as usize).saturating_sub(1);
                }
                if other || extra > 1 || missing + 1 - extra.min(1) != 0 {
                    continue;
                }
                if t.found {
                    t.readings += 1;
                } else {
                    let (_, hand) = listed(&mut *self);
                    let r = self.reading(fi, Vec::new(), Some(hand.clone()), Some(hand), win, V::None);
                    self.count(&r, None, t)?;
                }
                continue;
            }
            for (m, p) in wr.targets(f, self.exposed.len(), concealed_n, &core.sizes) {
                if !core.can_split(&self.counts, 0, m, p).map_err(|_| Declined("the tables do not take this hand"))? {
                    continue;
                }
                let mut flat = std::mem::take(&mut self.flat);
                let found = core.splits_plain_into(&self.counts, m, p, SPLIT_LIMIT, &mut flat);
                let found = match found {
                    Ok(n) if n <= SPLIT_LIMIT => n,
                    Ok(_) => {
                        self.flat = flat;
                        return Err(Declined("more splits than the limit"));
                    }
                    Err(_) => {
                        self.flat = flat;
                        return Err(Declined("the tables do not split this hand"));
                    }
                };
                let width = m + p;
                let mut got = Ok(());
                for i in 0..found {
                    got = self.plain(fi, &flat[i * width..(i + 1) * width], win, core, t);
                    if got.is_err() {
                        break;
                    }
                }
                self.flat = flat;
                got?;
            }
        }
        Ok(())
    }

    /// Whether a size test leading an instant condition fails on the trial of `win` (its count already
    /// in `counts`): the sizes of the instant reading's hand (the concealed tiles and `win`) and tiles
    /// (those and the laid-down melds' tiles), from the kinds held, without the reading.
    fn sizes_fail(&mut self, tests: &[SizeTest], win: usize) -> bool {
        if tests.is_empty() {
            return false;
        }
        let new_in_tiles = !self.held(Some(win)).seen[win];
        let new_in_hand = self.counts[win] == 1; // not held before the trial's tile was added
        self.sizes_fail_as(tests, new_in_hand, new_in_tiles)
    }

    /// Whether the size tests leading the instant condition of `form` fail on the trial of every kind:
    /// they read only whether the trial's kind is new to the hand and to the tiles, so where they fail
    /// for each of those cases no trial has a reading of the form (asked before any trial; a form whose
    /// conditions are not lowered is never said to fail, its trials decline as before).
    pub(super) fn instant_never(&mut self, form: usize) -> bool {
        let Ok(conds) = self.conds(form) else { return false };
        let tests = &conds.instant_sizes;
        if tests.is_empty() {
            return false;
        }
        self.held(None);
        // (new to the hand, new to the tiles): a kind new to the tiles is new to the hand too
        [(false, false), (true, false), (true, true)].into_iter().all(|(h, t)| self.sizes_fail_as(tests, h, t))
    }

    /// The kinds held besides a trial's tile, made at the first size test: `win`, the trial's kind
    /// whose tile `counts` holds already (None before any trial).
    fn held(&mut self, win: Option<usize>) -> &Held {
        let (counts, melds) = (&self.counts, self.hand.melds);
        self.held.get_or_insert_with(|| {
            let mut seen: Vec<bool> = counts.iter().map(|&c| c > 0).collect();
            if let Some(w) = win {
                seen[w] = counts[w] > 1; // without the trial's tile
            }
            let hand = seen.iter().filter(|&&x| x).count();
            for m in melds {
                for &k in &m.kinds {
                    seen[k] = true;
                }
            }
            let tiles = seen.iter().filter(|&&x| x).count();
            Held { hand, tiles, seen }
        })
    }

    /// The size tests on a trial whose kind is new to the hand (or not) and to the tiles (or not).
    fn sizes_fail_as(&self, tests: &[SizeTest], new_in_hand: bool, new_in_tiles: bool) -> bool {
        let Some(h) = &self.held else { return false };
        let (d_hand, d_tiles) = (h.hand, h.tiles);
        let n_hand = self.hand.concealed.len() + 1;
        let n_tiles = n_hand + self.exposed_tiles.len();
        sizes_fail_by(tests, |distinct, of_hand| {
            Some(match (distinct, of_hand) {
                (false, true) => n_hand,
                (false, false) => n_tiles,
                (true, true) => d_hand + new_in_hand as usize,
                (true, false) => d_tiles + new_in_tiles as usize,
            })
        })
    }

    /// `instant[form]` set to the reading of the instant form `form` with `win` as the winning tile: the hand's concealed tiles
    /// and `win` last, its tiles those and the laid-down melds' tiles, its groups the laid-down melds
    /// (runtime/hand_readings.py `_readings_natural`'s instant reading). Made at the hand's first trial
    /// under the form; a later trial rewrites only what the winning tile changes (the last slot of the
    /// hand, the slot after the concealed ones in the tiles, `win_tile`): the same reading as one made
    /// afresh, without its groups, flags and lists made and dropped each trial.
    fn set_instant(&mut self, form: usize, win: usize) {
        if self.instant.len() <= form {
            self.instant.resize_with(form + 1, || None);
        }
        let code = self.wr.code(win);
        let slot = self.hand.concealed.len(); // the winning tile's place in the hand and in the tiles
        let one_list = self.exposed_tiles.is_empty(); // the hand and the tiles are the same list
        let fresh = match self.instant[form].as_mut() {
            Some(r) => !rewrite(r, slot, &code, one_list),
            None => true,
        };
        if fresh {
            let hand: Arc<Vec<V>> =
                Arc::new(self.hand.concealed.iter().map(|&k| self.wr.code(k)).chain([code.clone()]).collect());
            let tiles = if self.exposed_tiles.is_empty() {
                hand.clone()
            } else {
                Arc::new(hand.iter().chain(self.exposed_tiles.iter()).cloned().collect())
            };
            let r = self.reading(form, self.exposed(), Some(tiles), Some(hand), win, V::None);
            self.instant[form] = Some(r);
        }
        if let Some(r) = self.instant[form].as_mut() {
            r.win_tile = code;
        }
    }

    /// The concealed tiles with `win` as the last: the one list every trial shares, its last slot
    /// rewritten in place once the previous trial's readings are gone (a new list while one is held).
    fn trial_hand(&mut self, win: usize) -> Arc<Vec<V>> {
        let code = self.wr.code(win);
        match Arc::get_mut(&mut self.trial_hand) {
            Some(v) => {
                if let Some(last) = v.last_mut() {
                    *last = code;
                }
            }
            None => {
                let mut v = self.trial_hand.as_ref().clone();
                if let Some(last) = v.last_mut() {
                    *last = code;
                }
                self.trial_hand = Arc::new(v);
            }
        }
        self.trial_hand.clone()
    }

    fn tiles_of(&mut self, core: &Core, id: u32) -> Arc<Vec<V>> {
        let wr = self.wr;
        let i = id as usize;
        if self.split_tiles.len() <= i {
            self.split_tiles.resize(core.split_groups.len().max(i + 1), None);
        }
        self.split_tiles[i]
            .get_or_insert_with(|| Arc::new(core.split_groups[i].1.iter().map(|&k| wr.code(k)).collect()))
            .clone()
    }

    /// Python `_readings_plain`: one reading per distinct group of the split holding the winning kind
    /// (its groups made only when a reading is built, once a split: each reading after the first
    /// moves the winning tile to its group in place, the identities set again as the reference's).
    fn plain(&mut self, form: usize, split: &[u32], win: usize, core: &Core, t: &mut Tally) -> Result<(), Declined> {
        let wr = self.wr;
        let ne = self.exposed.len();
        let has_pair = self.exposed.iter().any(|g| g.pair) || split.iter().any(|&id| wr.melds[wr.split_meld[id as usize]].pair);
        let mut reading: Option<Reading<'h>> = None;
        let mut seen: Vec<u32> = Vec::new();
        for (gi, &id) in split.iter().enumerate() {
            let kinds = &core.split_groups[id as usize].1;
            if !kinds.contains(&win) || seen.contains(&id) {
                continue;
            }
            seen.push(id);
            // a reading with a pair is one only where the form's `pair_when` holds (Python
            // `pairs_allowed`); otherwise it is one whatever it holds
            let decide = has_pair && self.conds(form)?.pair_when.is_some();
            if t.found && !decide {
                t.readings += 1;
                continue;
            }
            if reading.is_none() {
                let groups = self.split_groups(split, core);
                reading = Some(self.reading(form, groups, None, None, win, V::None));
            }
            let Some(r) = reading.as_mut() else { continue };
            let pos = ne + gi;
            // the groups of the split as `split_groups` made them, then the winning one
            let first_after = split.iter().enumerate().skip(gi + 1).find(|&(_, &x)| x == id).map(|(j, _)| j + ne);
            for (j, &x) in split.iter().enumerate() {
                let g = &mut r.groups[ne + j];
                g.has_win = false;
                g.concealed = true;
                g.ident = (split[..j].iter().position(|&y| y == x).unwrap_or(j) + ne) as u16;
                if x == id && j > gi {
                    // the groups after it that were the same group as it stay one group among themselves
                    g.ident = first_after.unwrap_or(ne + j) as u16;
                }
            }
            let wg = &mut r.groups[pos];
            wg.has_win = true;
            wg.concealed = self.hand.self_drawn || wg.pair;
            wg.ident = pos as u16;
            r.win_group = V::Group(pos as u16);
            let r = &*r;
            if decide {
                let mut ev = Eval::new(self.program, r);
                if Self::holds(&mut ev, &self.conds(form)?.pair_when)? {
                    self.count(r, Some(ev), t)?;
                }
            } else {
                self.count(r, None, t)?;
            }
        }
        Ok(())
    }

    /// The groups of a reading of `split` (the laid-down melds first), none yet holding the winning tile.
    fn split_groups(&mut self, split: &[u32], core: &Core) -> Vec<Group> {
        let wr = self.wr;
        let ne = self.exposed.len();
        let mut groups = self.exposed();
        for (gi, &id) in split.iter().enumerate() {
            let mk = &wr.melds[wr.split_meld[id as usize]];
            let kinds = &core.split_groups[id as usize].1;
            let ident = split[..gi].iter().position(|&x| x == id).unwrap_or(gi) + ne;
            groups.push(Group {
                kind: mk.name.clone(),
                tiles: self.tiles_of(core, id),
                exposed: false,
                concealed: true,
                pair: mk.pair,
                kong: mk.kong,
                has_win: false,
                value: wr.meld_value(wr.split_meld[id as usize], kinds.first().copied()),
                ident: ident as u16,
            });
        }
        groups
    }
}

/// The winning tile's slot `i` of an instant reading's hand and tiles set to `code` in place; false
/// where a list is held elsewhere (the caller then makes the reading afresh). Where the hand and the
/// tiles are one list, the reading holds it twice: the tiles let go while the hand is rewritten.
fn rewrite(r: &mut Reading, i: usize, code: &V, one_list: bool) -> bool {
    if one_list {
        r.tiles = None;
        let done = set_slot(&mut r.hand, i, code);
        r.tiles = r.hand.clone();
        return done;
    }
    set_slot(&mut r.hand, i, code) && set_slot(&mut r.tiles, i, code)
}

fn set_slot(list: &mut Option<Arc<Vec<V>>>, i: usize, code: &V) -> bool {
    match list.as_mut().and_then(Arc::get_mut).and_then(|v| v.get_mut(i)) {
        Some(x) => {
            *x = code.clone();
            true
        }
        None => false,
    }
}

/// What a trial has found so far: the readings made (each charged), and whether one met the
/// requirements.
struct Tally {
    readings: usize,
    found: bool,
}

fn clone_group(g: &Group) -> Group {
    Group {
        kind: g.kind.clone(),
        tiles: g.tiles.clone(),
        exposed: g.exposed,
        concealed: g.concealed,
        pair: g.pair,
        kong: g.kong,
        has_win: g.has_win,
        value: g.value.clone(),
        ident: g.ident,
    }
}
