//! The waits of a hand without its winning tile, natively: the port of runtime/hand_score.py
//! `Scoring.wait_kinds` and `plain_wait_check` for rule sets without wildcards or stand-ins (every
//! tile is itself). A kind is a wait when the hand with that kind as its winning tile has a reading
//! meeting every requirement the waits apply (`requires … waits false` left out, and those that read
//! the waits themselves); with no such requirement and only melds-and-pairs forms, when it completes
//! the hand by structure. Shape waits do not leave out the kinds the hand holds in full.
//!
//! The entry is `waits`, a plain function over the block tables (src/blocks/) and the lowered
//! programs (src/program/): no Python type inside. Whatever it does not answer as the reference would
//! (a condition the programs stop on, a hand past the work limit, splits past their limit) is
//! `Declined`, and the caller asks the reference.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value as J;

use crate::blocks::Tables as Core;
use crate::catalog::Catalog;
use crate::program::{Program, Reading, V};
use crate::Error;

mod binding;
mod hand;
mod trial;

pub use binding::{as_value, kinds_of, OwnedHand, WaitState};
pub use hand::TrialWaits;

/// A reading scored or tested costs this much of the hand's work (runtime/limits.py READING_WORK).
pub const READING_WORK: i64 = 20;
/// Splits of one hand read one by one (runtime/limits.py SPLIT_LIMIT).
pub const SPLIT_LIMIT: usize = 200_000;

/// The reference must answer this hand (the reason, for tests and counters).
#[derive(Debug)]
pub struct Declined(pub &'static str);

/// One winning form, as the wait trials read it.
pub(crate) struct Form {
    name: Arc<str>,
    melds: Option<usize>,
    pairs: Option<(usize, usize)>,
    groups: Option<usize>,
    orphans: Option<String>, // the attribute every tile has
    orphan_kinds: Vec<bool>, // per kind, whether it has that attribute
    concealed: bool,
    tiles: Option<usize>,
    instant: bool,
    split: bool, // melds and pairs (neither instant, orphans nor `tiles N`)
}

/// One meld kind: what its groups carry.
pub(crate) struct Meld {
    name: Arc<str>,
    exposed: bool,
    pair: bool,
    kong: bool,
    values: Vec<(String, V)>, // (suit or "", value), in declaration order
}

/// What the wait trials read of one rule set under one catalog, built once.
pub struct WaitRules {
    forms: Vec<Form>,
    melds: Vec<Meld>,
    meld_index: HashMap<String, usize>,
    split_meld: Vec<usize>, // per split group of the tables: its meld kind
    requires: Vec<usize>,   // the requirements that decide the waits (indexes into the scoring's)
    hand_size: usize,
    plain: bool, // no requirement decides the waits and every form is melds and pairs
    copies: Vec<i64>,
    flower: Vec<bool>,
    joker: Vec<bool>,
    suit: Vec<String>, // "" for none
}

/// One laid-down meld of a hand: its meld kind (an index of `WaitRules`) and its tiles' kinds.
pub struct HandMeld {
    pub meld: usize,
    pub kinds: Vec<usize>,
}

/// A hand without its winning tile, as the wait trials take it.
pub struct WaitHand<'a> {
    pub concealed: &'a [usize], // kinds, in the hand's order
    pub melds: &'a [HandMeld],
    pub flowers: &'a [usize],
    pub self_drawn: bool,
    pub settings: &'a [Option<V>], // by the programs' setting slots
}

fn nc(m: &str) -> Error {
    Error::NotCovered(m.to_owned())
}

fn count(v: Option<&J>) -> Result<Option<usize>, Error> {
    match v {
        None | Some(J::Null) => Ok(None),
        Some(x) => x.as_u64().map(|n| Some(n as usize)).ok_or_else(|| nc("a malformed winning form")),
    }
}

impl WaitRules {
    /// Refused (`NotCovered`) for a rule set with wildcards or stand-ins, a meld value that is not a
    /// whole number, or form conditions the programs do not lower.
    pub fn build(ruleset_json: &str, cat: &Catalog, core: &Core, program: &Program) -> Result<WaitRules, Error> {
        let doc = crate::ruleset::json_doc(ruleset_json)?;
        let rs = doc.get("ruleset").and_then(J::as_object).ok_or_else(|| nc("a rule set without patterns"))?;
        let arr = |k: &str| rs.get(k).and_then(J::as_array).map(Vec::as_slice).unwrap_or(&[]);
        if !arr("wilds").is_empty() || !arr("standins").is_empty() {
            return Err(nc("a rule set with wildcards or stand-ins"));
        }
        let sc = program.scoring.as_ref().map_err(|m| Error::NotCovered(m.clone()))?;
        program.form_conds.as_ref().map_err(|m| Error::NotCovered(m.clone()))?;
        let mut forms = Vec::new();
        for f in arr("forms") {
            let name = f.get("name").and_then(J::as_str).ok_or_else(|| nc("a form without a name"))?;
            let pairs = match f.get("pairs") {
                None | Some(J::Null) => None,
                Some(J::Array(a)) if a.len() == 2 => {
                    let lo = a[0].as_u64().ok_or_else(|| nc("a malformed winning form"))?;
                    let hi = a[1].as_u64().ok_or_else(|| nc("a malformed winning form"))?;
                    Some((lo as usize, hi as usize))
                }
                Some(_) => return Err(nc("a malformed winning form")),
            };
            let orphans = f.get("orphans").and_then(J::as_str).filter(|s| !s.is_empty()).map(str::to_owned);
            let instant = f.get("instant").is_some_and(|v| !v.is_null());
            let tiles = count(f.get("tiles"))?;
            forms.push(Form {
                name: Arc::from(name),
                melds: count(f.get("melds"))?,
                pairs,
                groups: count(f.get("groups"))?,
                split: !instant && orphans.is_none() && tiles.unwrap_or(0) == 0, // `not f.tiles`, as Python reads it
                orphan_kinds: match &orphans {
                    Some(a) => cat.kinds.iter().map(|k| k.attrs.get(a).copied().unwrap_or(false)).collect(),
                    None => Vec::new(),
                },
                orphans,
                concealed: f.get("concealed").and_then(J::as_bool).unwrap_or(false),
                tiles,
                instant,
            });
        }
        let mut melds = Vec::new();
        let mut meld_index = HashMap::new();
        for m in arr("melds") {
            let name = m.get("name").and_then(J::as_str).ok_or_else(|| nc("a meld kind without a name"))?;
            let flag = |k: &str| m.get(k).and_then(J::as_bool).unwrap_or(false);
            let mut values = Vec::new();
            for v in m.get("values").and_then(J::as_array).map(Vec::as_slice).unwrap_or(&[]) {
                let suit = v.get("suit").and_then(J::as_str).unwrap_or("").to_owned();
                let e = v.get("value").ok_or_else(|| nc("a meld value without an expression"))?;
                let n = match (e.get("_").and_then(J::as_str), e.get("text").and_then(J::as_str)) {
                    (Some("Num"), Some(t)) => t.parse::<i64>().map_err(|_| nc("a meld value that is not a whole number"))?,
                    _ => return Err(nc("a meld value that is not a number")),
                };
                values.push((suit, V::Int(n)));
            }
            meld_index.entry(name.to_owned()).or_insert(melds.len());
            melds.push(Meld { name: Arc::from(name), exposed: flag("exposed"), pair: flag("pair"), kong: flag("kong"), values });
        }
        let split_meld = core.split_groups.iter().map(|(si, _)| core.spec_melds[*si]).collect();
        let requires = wait_requirements(rs)?;
        if requires.iter().any(|&j| j >= sc.requires.len()) {
            return Err(Error::Internal("a requirement the scoring programs do not hold".into()));
        }
        let hand_size = rs.get("table").and_then(|t| t.get("hand")).and_then(J::as_u64).unwrap_or(13) as usize;
        let plain = requires.is_empty() && forms.iter().all(|f| f.split);
        let plain = plain && arr("forms").iter().all(|f| f.get("pair_when").is_none_or(J::is_null));
        Ok(WaitRules {
            forms,
            melds,
            meld_index,
            split_meld,
            requires,
            hand_size,
            plain,
            copies: cat.kinds.iter().map(|k| k.copies).collect(),
            flower: cat.kinds.iter().map(|k| k.category == "flower").collect(),
            joker: cat.kinds.iter().map(|k| k.category == "joker").collect(),
            suit: cat.kinds.iter().map(|k| k.suit.clone().unwrap_or_default()).collect(),
        })
    }

    /// The meld kind of this name (an index for `HandMeld`).
    pub fn meld(&self, name: &str) -> Option<usize> {
        self.meld_index.get(name).copied()
    }

    fn code(&self, k: usize) -> V {
        V::Tile(((k as u32) << 2) | self.joker[k] as u32)
    }


    /// Python `Rules.meld_value`: the value of the line of the first tile's suit, else of the line
    /// without a suit, else 0.
    fn meld_value(&self, m: usize, first: Option<usize>) -> V {
        let mk = &self.melds[m];
        let suit = first.map(|k| self.suit[k].as_str());
        let by_suit = mk.values.iter().find(|(s, _)| Some(s.as_str()) == suit && !(s.is_empty() && first.is_some_and(|k| self.suit[k].is_empty())));
        let chosen = by_suit.or_else(|| mk.values.iter().find(|(s, _)| s.is_empty()));
        chosen.map(|(_, v)| v.clone()).unwrap_or(V::Int(0))
    }

    /// Python `form_targets` filtered by `sizes_fit`: the (melds, pairs) of concealed tiles a form
    /// takes with `n_exposed` melds laid down and `n` concealed tiles.
    fn targets(&self, f: &Form, n_exposed: usize, n: usize, sizes: &(Vec<usize>, Vec<usize>)) -> Vec<(usize, usize)> {
        let (mut lo, mut hi) = f.pairs.unwrap_or((0, 0));
        let mut out = Vec::new();
        if let Some(g) = f.groups {
            if f.pairs.is_none() {
                (lo, hi) = (0, g);
            }
            for p in lo..=hi {
                if g >= p + n_exposed {
                    out.push((g - p - n_exposed, p));
                }
            }
        } else {
            let melds = f.melds.unwrap_or(0);
            for p in lo..=hi {
                if melds >= n_exposed {
                    out.push((melds - n_exposed, p));
                }
            }
        }
        out.retain(|&(m, p)| sum_fits(n, m, &sizes.0, p, &sizes.1));
        out
    }
}

/// Python `decompose.sum_fits`: whether `w` tiles form exactly `m` melds and `p` pairs of the sizes.
fn sum_fits(w: usize, m: usize, msizes: &[usize], p: usize, psizes: &[usize]) -> bool {
    if m == 0 && p == 0 {
        return w == 0;
    }
    if m > 0 {
        return msizes.iter().any(|&s| s <= w && sum_fits(w - s, m - 1, msizes, p, psizes));
    }
    psizes.iter().any(|&s| s <= w && sum_fits(w - s, 0, msizes, p - 1, psizes))
}

/// Python `Rules.wait_requires`: the requirements that decide the waits (not declared `waits false`)
/// and do not read the waits, directly or through patterns, quantities or units.
pub(crate) fn wait_requirements(rs: &serde_json::Map<String, J>) -> Result<Vec<usize>, Error> {
    let empty = Vec::new();
    let pats = rs.get("patterns").and_then(J::as_array).unwrap_or(&empty);
    let qs = rs.get("quantities").and_then(J::as_array).unwrap_or(&empty);
    let mut memo: HashMap<String, bool> = HashMap::new();
    fn deps<'j>(r: &str, pats: &'j [J], qs: &'j [J]) -> Vec<&'j J> {
        let (cat, name) = r.split_once(':').unwrap_or((r, ""));
        let parts = |p: &'j J| ["when", "count", "enabled", "value"].into_iter().filter_map(move |k| p.get(k));
        match cat {
            "pattern" => pats.iter().filter(|p| p.get("name").and_then(J::as_str) == Some(name)).take(1).flat_map(parts).collect(),
            "quantity" => qs.iter().filter(|q| q.get("name").and_then(J::as_str) == Some(name)).take(1).filter_map(|q| q.get("expr")).collect(),
            "unit" => pats.iter().filter(|p| p.get("unit").and_then(J::as_str) == Some(name)).flat_map(parts).collect(),
            _ => Vec::new(),
        }
    }
    fn reads(e: &J, pats: &[J], qs: &[J], memo: &mut HashMap<String, bool>) -> bool {
        match e {
            J::Object(m) => {
                if m.get("_").and_then(J::as_str) == Some("Name") {
                    if let Some(r) = m.get("ref").and_then(J::as_str) {
                        if ref_reads(r, pats, qs, memo) {
                            return true;
                        }
                    }
                }
                m.iter().any(|(k, v)| k != "span" && reads(v, pats, qs, memo))
            }
            J::Array(a) => a.iter().any(|v| reads(v, pats, qs, memo)),
            _ => false,
        }
    }
    fn ref_reads(r: &str, pats: &[J], qs: &[J], memo: &mut HashMap<String, bool>) -> bool {
        if r == "builtin:waits" || r == "builtin:shape_waits" {
            return true;
        }
        if let Some(&v) = memo.get(r) {
            return v;
        }
        memo.insert(r.to_owned(), false); // a cycle only ends the walk here
        let v = deps(r, pats, qs).into_iter().any(|e| !e.is_null() && reads(e, pats, qs, memo));
        memo.insert(r.to_owned(), v);
        v
    }
    let mut out = Vec::new();
    for (j, q) in rs.get("requires").and_then(J::as_array).unwrap_or(&empty).iter().enumerate() {
        if !q.get("decides_waits").and_then(J::as_bool).unwrap_or(true) {
            continue;
        }
        let r = ["expr", "unless"].iter().filter_map(|k| q.get(*k)).any(|e| !e.is_null() && reads(e, pats, qs, &mut memo));
        if !r {
            out.push(j);
        }
    }
    Ok(out)
}

/// The readings of the hand being scored, asked for its waits (src/hand/ `Waits::waits_beside`): the
/// hand without its winning tile is the `WaitHand`, `win` that tile's kind, `forms` the forms it was
/// read by (positions of the rule set's forms). Where it was read by every form in order, these are the
/// readings the trial of `win` would find, in the same order (the same port of the reference's
/// readings over the same tiles): that trial is taken from them instead of being made again.
pub struct Own<'o, 'r> {
    pub win: usize,
    pub forms: &'o [usize],
    pub readings: &'o [Reading<'r>],
}

/// Python `Scoring.wait_kinds(shape)`: the kinds (catalog indexes, in order) whose draw completes the
/// hand, never a flower, nor (unless `shape`) a kind the hand holds in full. `work`: what the hand
/// may still spend (each trial's readings cost `READING_WORK` each); what this spends is taken off.
pub fn waits(wr: &WaitRules, core: &mut Core, program: &Program, hand: &WaitHand, shape: bool, work: &mut i64) -> Result<Vec<usize>, Declined> {
    waits_beside(wr, core, program, hand, shape, work, None)
}

/// `waits`, the trial of the hand's own winning kind taken from its readings where `own` gives them.
pub fn waits_beside(wr: &WaitRules, core: &mut Core, program: &Program, hand: &WaitHand, shape: bool, work: &mut i64, own: Option<Own>) -> Result<Vec<usize>, Declined> {
    let own = own.filter(|o| o.forms.len() == wr.forms.len() && o.forms.iter().enumerate().all(|(j, &f)| j == f));
    let n = wr.copies.len();
    let mut held = vec![0i64; n];
    let mut counts = vec![0u8; n];
    for &k in hand.concealed {
        if k >= n {
            return Err(Declined("a tile outside the catalog"));
        }
        held[k] += 1;
        counts[k] = counts[k].saturating_add(1);
    }
    for m in hand.melds {
        if m.meld >= wr.melds.len() {
            return Err(Declined("a meld kind outside the rule set"));
        }
        for &k in &m.kinds {
            if k >= n {
                return Err(Declined("a tile outside the catalog"));
            }
            held[k] += 1;
        }
    }
    for &k in hand.flowers {
        if k >= n {
            return Err(Declined("a tile outside the catalog"));
        }
        held[k] += 1;
    }
    let offered = |k: usize| !wr.flower[k] && (shape || held[k] < wr.copies[k]);
    let n_exposed = hand.melds.len();
    let concealed_n = hand.concealed.len() + 1;
    let has_exposed = hand.melds.iter().any(|m| wr.melds[m.meld].exposed);
    let completing = |core: &mut Core, split_only: bool| -> Result<Vec<bool>, Declined> {
        let mut targets = Vec::new();
        for f in wr.forms.iter().filter(|f| !split_only || f.split) {
            if f.concealed && has_exposed {
                continue;
            }
            targets.extend(wr.targets(f, n_exposed, concealed_n, &core.sizes));
        }
        targets.sort_unstable();
        targets.dedup();
        let got = core.completing_kinds(&counts, 0, &targets).map_err(|_| Declined("the tables do not take this hand"))?;
        let mut good = vec![false; n];
        for k in got {
            good[k] = true;
        }
        Ok(good)
    };
    if wr.plain {
        let good = completing(core, false)?;
        return Ok((0..n).filter(|&k| offered(k) && good[k]).collect());
    }
    let structural = if wr.forms.iter().any(|f| f.split) { Some(completing(core, true)?) } else { None };
    let size = concealed_n + hand.melds.iter().map(|m| m.kinds.len()).sum::<usize>();
    let mut others: Vec<bool> = wr
        .forms
        .iter()
        .map(|f| {
            !(f.split || f.concealed && has_exposed)
                && (f.orphans.is_none() || hand.melds.is_empty())
                && !f.tiles.is_some_and(|t| t != 0 && size != t && size != wr.hand_size + 1)
                && (f.orphans.is_none() || hand.concealed.iter().all(|&k| f.orphan_kinds[k]))
        })
        .collect();
    let mut t = trial::Trials::new(wr, program, hand);
    // an instant form whose leading size tests fail whatever kind is tried gives no trial a reading
    // (nothing charged): a kind that completes no split form does not try it
    for (fi, other) in others.iter_mut().enumerate() {
        if *other && wr.forms[fi].instant && t.instant_never(fi) {
            *other = false;
        }
    }
    let any_other = others.iter().any(|&x| x);
    let mut out = Vec::new();
    let mut o: Vec<bool> = vec![false; wr.forms.len()]; // the forms a kind that completes no split form tries
    for k in 0..n {
        if !offered(k) {
            continue;
        }
        let mut only = false;
        if let Some(s) = &structural {
            if !s[k] {
                if !any_other {
                    continue;
                }
                for ((x, f), &other) in o.iter_mut().zip(&wr.forms).zip(&others) {
                    *x = other && (f.orphans.is_none() || f.orphan_kinds[k]);
                }
                if !o.iter().any(|&x| x) {
                    continue;
                }
                only = true;
            }
        }
        let mine = match &own {
            Some(x) if x.win == k && !only => t.own(x.readings, work)?,
            _ => None,
        };
        let won = match mine {
            Some(w) => w,
            None => t.wins(core, k, if only { Some(&o) } else { None }, work)?,
        };
        if won {
            out.push(k);
        }
    }
    Ok(out)
}

/// `waits` by the forms `only` marks (positions of the rule set's forms): every kind offered is tried
/// with its readings under those forms alone (Python `Winning._waits_of` with `groups`: the readings
/// of the forms that split a hand into groups, requirements for the waits included); a kind no split
/// form completes by structure is passed over when every marked form is a split form.
pub fn waits_by(wr: &WaitRules, core: &mut Core, program: &Program, hand: &WaitHand, only: &[bool], work: &mut i64) -> Result<Vec<usize>, Declined> {
    if only.len() != wr.forms.len() {
        return Err(Declined("a form mask of another rule set"));
    }
    let n = wr.copies.len();
    let mut held = vec![0i64; n];
    let mut counts = vec![0u8; n];
    let mut note = |k: usize, conc: bool| -> Result<(), Declined> {
        if k >= n {
            return Err(Declined("a tile outside the catalog"));
        }
        held[k] += 1;
        if conc {
            counts[k] = counts[k].saturating_add(1);
        }
        Ok(())
    };
    for &k in hand.concealed {
        note(k, true)?;
    }
    for m in hand.melds {
        if m.meld >= wr.melds.len() {
            return Err(Declined("a meld kind outside the rule set"));
        }
        for &k in &m.kinds {
            note(k, false)?;
        }
    }
    for &k in hand.flowers {
        note(k, false)?;
    }
    let has_exposed = hand.melds.iter().any(|m| wr.melds[m.meld].exposed);
    let marked: Vec<&Form> = wr.forms.iter().zip(only).filter(|(_, &o)| o).map(|(f, _)| f).collect();
    let structural = if !marked.is_empty() && marked.iter().all(|f| f.split) {
        let mut targets = Vec::new();
        for f in marked.iter().filter(|f| !(f.concealed && has_exposed)) {
            targets.extend(wr.targets(f, hand.melds.len(), hand.concealed.len() + 1, &core.sizes));
        }
        targets.sort_unstable();
        targets.dedup();
        let got = core.completing_kinds(&counts, 0, &targets).map_err(|_| Declined("the tables do not take this hand"))?;
        let mut good = vec![false; n];
        for k in got {
            good[k] = true;
        }
        Some(good)
    } else {
        None
    };
    let mut t = trial::Trials::new(wr, program, hand);
    let mut out = Vec::new();
    for k in 0..n {
        if wr.flower[k] || held[k] >= wr.copies[k] || structural.as_ref().is_some_and(|s| !s[k]) {
            continue;
        }
        if t.wins(core, k, Some(only), work)? {
            out.push(k);
        }
    }
    Ok(out)
}

impl WaitRules {
    /// Per form: whether it is one of the forms that split a hand into groups (neither `instant` nor
    /// `orphans`: Python `GameProgram.group_forms`).
    pub fn group_forms(&self) -> Vec<bool> {
        self.forms.iter().map(|f| !f.instant && f.orphans.is_none()).collect()
    }
}
