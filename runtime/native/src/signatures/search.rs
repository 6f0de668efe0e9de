//! The signature search of a rule set answered natively end to end (the native game's win questions,
//! engine/winning/wild.rs): the observers (observe.rs, the port of runtime/observe.py), their parts and
//! joins on signature values (parts.rs), and the programme (mod.rs), with the rule set's placements
//! and pure-wildcard groups and its meld values handed over once by the Python side. Observers are
//! kept as the reference keeps them (runtime/hand_signatures.py: by purpose, form, winning tile,
//! wildcards' tile, self-drawn and the context's values; the least recently used dropped past
//! `OBSERVERS_KEPT`), each with its memo, their memos bounded together as the reference's (`MEMO_HELD`).
//!
//! Whatever the native side cannot decide as the reference would (a value evaluation stops on, a tile
//! compared where the reference tells a reading's tile from a kind, a shared value read where the
//! reference's environment lacks it) declines the question, counted: the caller then asks the
//! reference's own search.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
pub(crate) use super::fixed::Fixed;
use super::observe::{simple, ConstTruth, Sites, Sort, Walk, K};
use super::parts::{aggregate, canon, GroupId, Join, SVal, Unsure};
use super::{key_digit, Ask, Memo, RawTpl, Run, Slots, Stop};
use crate::program::{Eval, Group, Reading, V};
use crate::Tables;

/// Observers kept (runtime/hand_signatures.py `OBSERVERS_KEPT`).
const OBSERVERS_KEPT: usize = 256;
/// What the kept observers' memos may hold together (`Memo::held`: states, witnesses, joins) before the
/// least recently used are started afresh: runtime/hand_signatures.py `MEMO_HELD`, whose comment says
/// why this bound and this figure. The same on both sides, counted alike: the work a question is charged
/// depends on the memos' hits, so both must start the same memos afresh at the same question.
pub(crate) const MEMO_HELD: usize = 250_000;
/// An observer's numbers before its memo starts afresh (signatures.py `SigMemo.LIMIT`: they stay
/// below 2**32).
const NUMBERS: usize = 1 << 22;

/// A shape of the decomposer: its meld kind, pair, kong, size.
pub(crate) struct Spec {
    pub kind: Arc<str>,
    pub pair: bool,
    pub kong: bool,
    pub size: u32,
}

/// What one question's readings share: the context the observer evaluates in.
pub(crate) struct Env {
    pub settings: Vec<Option<V>>, // by the observers' program's slots
    pub self_drawn: bool,
    pub form: V,
    pub win_tile: V, // a natural winning tile (a shared value), else none
    pub wild_phys: usize,
}

/// One observer: its sites, the join of each place, its memo and numbered signatures.
pub(crate) struct Observer {
    sites: Vec<super::observe::Site>,
    joins: Vec<Join>,
    win_sites: Vec<usize>,
    first_pair: bool,
    env: Env,
    memo: Memo,
    sigs: Vec<Arc<[SVal]>>,
    ids: crate::hash::Map<Arc<[SVal]>, u32>,
    uses_win: bool,
    win_wild: bool,
}

fn decline(why: &str) -> Stop {
    Stop::Decline(why.to_owned())
}

fn unsure(_: Unsure) -> Stop {
    decline("a signature value the native observer does not compare as the reference")
}

/// Walks most recently made per (form, purpose, wildcard winning tile), kept with the truth of every
/// shared condition each asked (`Walks::sites`).
const WALKS_KEPT: usize = 16;

/// The observers' walks of their rule set's expressions, kept: a walk is a function of its form,
/// purpose and whether the winning tile is a wildcard, and of the truth of the shared conditions it
/// asks on its way (each asked in an order the earlier answers decide), so an observer whose context
/// gives every condition a kept walk asked the same truth takes that walk's sites — the same sites its
/// own walk would find — without walking (observers differ by their context's values, most of which no
/// condition reads).
#[derive(Default)]
pub(crate) struct Walks {
    kept: HashMap<(usize, bool, bool), Vec<KeptWalk>>,
}

/// A walk kept: the shared conditions it asked with their truth, in order, and the sites it found.
type KeptWalk = (Vec<(usize, ConstTruth)>, Sites);

impl Walks {
    fn sites(&mut self, fx: &Fixed, form: usize, waits: bool, win_wild: bool, truth: &mut dyn FnMut(usize) -> ConstTruth) -> Result<Sites, String> {
        let at = (form, waits, win_wild);
        if let Some(list) = self.kept.get(&at) {
            if let Some((_, got)) = list.iter().find(|(asked, _)| asked.iter().all(|(e, t)| truth(*e) == *t)) {
                return Ok(got.clone());
            }
        }
        let mut asked = Vec::new();
        let mut noted = |e: usize| -> ConstTruth {
            let t = truth(e);
            asked.push((e, t.clone()));
            t
        };
        let got = Walk::new(&fx.ex, &fx.derived, win_wild, &mut noted).run(&fx.roots(form, waits), fx.exact)?;
        let list = self.kept.entry(at).or_default();
        if list.len() >= WALKS_KEPT {
            list.remove(0);
        }
        list.push((asked, got.clone()));
        Ok(got)
    }
}

impl Observer {
    pub(crate) fn new(fx: &Fixed, form: usize, waits: bool, win_wild: bool, env: Env, walks: &mut Walks) -> Result<Observer, String> {
        let has_win = !matches!(env.win_tile, V::None);
        let mut truth = |e: usize| -> ConstTruth {
            // the reference's shared values: settings, context, `self_drawn`, `form`, a natural `win_tile`
            let all = fx.ex.all(e);
            let bound = super::observe::inner_binders(&fx.ex, &all);
            for &n in &all {
                if let K::Name(r) = &fx.ex.nodes[n].k {
                    let ok = match r.split_once(':').map_or("", |x| x.0) {
                        "builtin" => r == "builtin:self_drawn" || r == "builtin:form" || (r == "builtin:win_tile" && has_win),
                        "binder" => bound.contains(r),
                        _ => true,
                    };
                    if !ok {
                        return Err("a shared condition reading what the reference's environment may lack".into());
                    }
                }
            }
            let q = *fx.own.get(&e).ok_or("a shared condition the native programs do not lower")?;
            let r = reading(&env, Vec::new(), Arc::new(Vec::new()), V::None, env.win_tile.clone());
            let mut ev = Eval::new(&fx.prog, &r);
            match ev.quantity(q) {
                Ok(v) => Ok(Some(v.truthy())),
                Err(_) => Err("a shared condition the native programs stop on".into()),
            }
        };
        let Sites { sites, uses_win, .. } = walks.sites(fx, form, waits, win_wild, &mut truth)?;
        let agg: Vec<_> = sites.iter().filter(|s| !matches!(s.sort, Sort::Win | Sort::Pair)).cloned().collect();
        let win_sites: Vec<usize> = sites.iter().filter(|s| s.sort == Sort::Win).map(|s| s.node).collect();
        let first_pair = sites.iter().any(|s| s.sort == Sort::Pair);
        let mut joins = Vec::new();
        for s in &agg {
            match s.sort {
                Sort::Pagg => joins.extend([Join::of_func(&s.func), Join::Bag]),
                Sort::Agg => joins.push(Join::of_func(&s.func)),
                Sort::Bag | Sort::Identity => joins.push(Join::Bag),
                Sort::Suits => joins.push(Join::Union),
                _ => joins.push(Join::And), // menqing
            }
        }
        joins.extend(std::iter::repeat_n(Join::First, win_sites.len() + first_pair as usize));
        let n = fx.suits.len();
        let memo = Memo::new(n, fx.n_meld, fx.specs.iter().map(|s| s.pair).collect(), fx.specs.iter().map(|s| s.size).collect());
        Ok(Observer { sites: agg, joins, win_sites, first_pair, env, memo, sigs: Vec::new(), ids: crate::hash::map(), uses_win, win_wild })
    }

    pub(crate) fn uses_win(&self) -> bool {
        self.uses_win
    }

    fn number(&mut self, sig: Vec<SVal>) -> u32 {
        // (looked up as it is: only a signature not numbered yet is made a shared one)
        if let Some(&i) = self.ids.get(sig.as_slice()) {
            return i;
        }
        let sig: Arc<[SVal]> = sig.into();
        let i = self.sigs.len() as u32;
        self.sigs.push(sig.clone());
        self.ids.insert(sig, i);
        i
    }

    /// Start afresh past the reference's bound on its numbers.
    fn bound(&mut self) {
        if self.sigs.len() > NUMBERS || self.memo.numbered() > NUMBERS {
            self.clear();
        }
    }

    /// The memo started afresh, with the signatures it numbered (the reference's `memo.clear()`).
    fn clear(&mut self) {
        self.memo.clear();
        self.sigs.clear();
        self.ids.clear();
    }
}

fn reading<'a>(env: &'a Env, groups: Vec<Group>, tiles: Arc<Vec<V>>, win_group: V, win_tile: V) -> Reading<'a> {
    Reading {
        groups,
        tiles: Some(tiles.clone()),
        hand: Some(tiles),
        declared: Vec::new(),
        win_tile,
        win_group,
        form: env.form.clone(),
        self_drawn: env.self_drawn,
        flowers: Arc::new(Vec::new()),
        waits: None,
        shape_waits: None,
        settings: &env.settings,
        packed: None,
    }
}

/// The observer's answers to the programme (`part`, `join`, `unit`) and the rule set's placements.
struct ObsAsk<'a> {
    fx: &'a Fixed,
    obs: &'a mut Observer,
}

impl ObsAsk<'_> {
    /// The value of lowered expression `q` on the reading `ev` evaluates (one evaluation for every
    /// expression asked of one reading: what one expression's evaluation found, the next reads again).
    fn eval(&self, q: Option<&usize>, ev: &mut Eval<'_, '_>) -> Result<V, Stop> {
        let q = *q.ok_or_else(|| decline("an expression the native programs do not lower"))?;
        ev.quantity(q).map_err(|_| decline("an observation the native programs stop on"))
    }

    /// `_decide`: the value of `e` for the item, None where the rest of the reading could change it.
    fn decide(&self, e: usize, comp: usize, binder: &str, r: &mut Eval<'_, '_>) -> Result<Option<V>, Stop> {
        let ex = &self.fx.ex;
        let node = &ex.nodes[e];
        match &node.k {
            K::Binary(op) if op == "and" || op == "or" => {
                let stop = op == "or";
                let lv = self.decide(node.kids[0], comp, binder, r)?;
                if let Some(lv) = lv {
                    if lv.truthy() == stop {
                        return Ok(Some(V::Bool(stop)));
                    }
                    let rv = self.decide(node.kids[1], comp, binder, r)?;
                    return Ok(rv.map(|v| V::Bool(v.truthy())));
                }
                if !simple(ex, node.kids[0]) {
                    return Ok(None);
                }
                let rv = self.decide(node.kids[1], comp, binder, r)?;
                Ok(rv.filter(|v| v.truthy() == stop).map(|_| V::Bool(stop)))
            }
            K::Unary(op) if op == "not" => Ok(self.decide(node.kids[0], comp, binder, r)?.map(|v| V::Bool(!v.truthy()))),
            K::If => match self.decide(node.kids[0], comp, binder, r)? {
                Some(c) => self.decide(node.kids[if c.truthy() { 1 } else { 2 }], comp, binder, r),
                None => Ok(None),
            },
            _ => {
                // (`observe::unknown` of the observer's varying names, kept by the rule set's fixed parts)
                if self.fx.unknown(e, binder, self.obs.win_wild) {
                    return Ok(None);
                }
                self.eval(self.fx.wrap.get(&(e, comp)), r).map(Some)
            }
        }
    }
}

impl Ask for ObsAsk<'_> {
    fn part(&mut self, spec: u32, slots: &Slots, wp: i32) -> Result<u32, Stop> {
        let fx = self.fx;
        let sp = fx.specs.get(spec as usize).ok_or_else(|| decline("a shape outside the rule set"))?;
        let env = &self.obs.env;
        let tiles: Vec<V> = slots.iter().map(|&(k, w)| fx.code(k, if w { env.wild_phys } else { k }, w)).collect();
        let has_win = wp >= 0;
        let concealed = !(has_win && !env.self_drawn && !sp.pair);
        let suit = slots.first().and_then(|&(k, _)| fx.suits.get(k).cloned().flatten());
        let value = fx.values.get(&(sp.kind.clone(), suit)).cloned().ok_or_else(|| decline("a meld value the native side was not given"))?;
        let mut ids: Vec<(u32, bool)> = slots.iter().map(|&(k, w)| (k as u32, w)).collect();
        ids.sort_unstable();
        let gid = Arc::new(GroupId { kind: sp.kind.clone(), tiles: ids, concealed, pair: sp.pair, kong: sp.kong, has_win });
        let group = Group { kind: sp.kind.clone(), tiles: Arc::new(tiles.clone()), exposed: false, concealed, pair: sp.pair, kong: sp.kong, has_win, value, ident: 0 };
        let tiles = Arc::new(tiles);
        let one = reading(env, vec![group.clone()], tiles.clone(), V::None, env.win_tile.clone());
        let mut one_ev = Eval::new(&fx.prog, &one);
        let member = |ev: &mut Eval<'_, '_>, l: &str| -> Result<bool, Stop> {
            if l == "tiles" || l == "hand" {
                return Ok(true);
            }
            Ok(self.eval(fx.member.get(l), ev)?.truthy())
        };
        let mut parts: Vec<SVal> = Vec::with_capacity(self.obs.joins.len());
        for s in &self.obs.sites {
            match s.sort {
                Sort::Identity => parts.push(SVal::Tuple(vec![SVal::Group(gid.clone())])),
                Sort::Suits => {
                    let mut x: Vec<Arc<str>> = slots.iter().filter_map(|&(k, _)| fx.suits.get(k).cloned().flatten()).filter(|s| !s.is_empty()).collect();
                    x.sort();
                    x.dedup();
                    parts.push(SVal::Set(x));
                }
                Sort::Menqing => parts.push(SVal::truth(true)),
                Sort::Bag => {
                    let mut items: Vec<SVal> = if s.lst == "tiles" || s.lst == "hand" {
                        slots.iter().filter(|x| x.1).map(|&(k, w)| SVal::Tile(k as u32, w)).collect()
                    } else if member(&mut one_ev, &s.lst)? {
                        vec![SVal::Group(gid.clone())]
                    } else {
                        Vec::new()
                    };
                    items.sort();
                    parts.push(SVal::Tuple(items));
                }
                Sort::Agg => {
                    if matches!(s.func.as_str(), "max" | "min") && !member(&mut one_ev, &s.lst)? {
                        parts.push(SVal::Empty);
                        continue;
                    }
                    let v = self.eval(fx.own.get(&s.node), &mut one_ev)?;
                    parts.push(canon(&v, Some(&gid)).map_err(unsure)?);
                }
                Sort::Pagg => {
                    let tile_list = s.lst == "tiles" || s.lst == "hand";
                    let mut decided = Vec::new();
                    let mut rest = Vec::new();
                    if tile_list {
                        for (j, &(k, w)) in slots.iter().enumerate() {
                            if !w {
                                continue; // only the wildcards tell readings apart
                            }
                            let r = reading(env, vec![group.clone()], Arc::new(vec![tiles[j].clone()]), V::None, env.win_tile.clone());
                            let mut ev = Eval::new(&fx.prog, &r);
                            match self.decide(s.node, s.comp, &s.binder, &mut ev)? {
                                Some(v) => decided.push(v),
                                None => rest.push(SVal::Tile(k as u32, w)),
                            }
                        }
                    } else if member(&mut one_ev, &s.lst)? {
                        match self.decide(s.node, s.comp, &s.binder, &mut one_ev)? {
                            Some(v) => decided.push(v),
                            None => rest.push(SVal::Group(gid.clone())),
                        }
                    }
                    let agg = aggregate(&s.func, &decided).map_err(unsure)?.ok_or(Stop::Unobservable)?;
                    rest.sort();
                    parts.extend([agg, SVal::Tuple(rest)]);
                }
                Sort::Win | Sort::Pair => {}
            }
        }
        drop(one_ev);
        let win_r = has_win.then(|| reading(env, vec![group.clone()], tiles.clone(), V::Group(0), tiles[wp as usize].clone()));
        let mut win_ev = win_r.as_ref().map(|r| Eval::new(&fx.prog, r));
        for &chain in &self.obs.win_sites {
            let Some(ev) = win_ev.as_mut() else {
                parts.push(SVal::Absent);
                continue;
            };
            let v = self.eval(fx.own.get(&chain), ev)?;
            let c = match (&v, fx.tile_chain(chain)) {
                (V::Tile(code), Some(true)) => SVal::Kind(code >> 2),
                (V::Tile(code), Some(false)) => SVal::Tile(code >> 2, code & 2 != 0),
                _ => canon(&v, Some(&gid)).map_err(unsure)?,
            };
            parts.push(c);
        }
        drop(win_ev);
        if self.obs.first_pair {
            parts.push(if sp.pair { SVal::Group(gid) } else { SVal::Absent });
        }
        Ok(self.obs.number(parts))
    }

    fn join(&mut self, a: u32, b: u32) -> Result<u32, Stop> {
        let (x, y) = (self.obs.sigs[a as usize].clone(), self.obs.sigs[b as usize].clone());
        let mut out = Vec::with_capacity(x.len());
        for (j, op) in self.obs.joins.iter().enumerate() {
            out.push(op.apply(&x[j], &y[j]).map_err(unsure)?);
        }
        Ok(self.obs.number(out))
    }

    fn unit(&mut self) -> Result<u32, Stop> {
        let u = self.obs.joins.iter().map(|j| j.unit()).collect();
        Ok(self.obs.number(u))
    }

    fn templates(&mut self, i: usize) -> Result<Vec<Vec<RawTpl>>, Stop> {
        self.fx.templates.get(i).cloned().ok_or_else(|| decline("a tile kind without placements"))
    }

    fn targets(&mut self, s: usize) -> Result<Vec<Slots>, Stop> {
        self.fx.targets.get(s).cloned().ok_or_else(|| decline("a shape without pure-wildcard groups"))
    }
}

/// One question: the hand's tiles classified and what the search is asked.
pub(crate) struct Question<'a> {
    pub env_key: &'a str,
    pub self_drawn: bool,
    pub waits: bool,
    pub form: usize,
    pub melds: u32,
    pub pairs: u32,
    pub naturals: &'a [(usize, usize, bool)],
    pub wilds: &'a [(usize, bool)],
}

/// A split as the readings take it: its groups (meld kind, slots), the group holding the winning tile.
pub(crate) type Splits = (Vec<(Arc<str>, Vec<(usize, bool)>)>, Option<usize>);

/// The answer: the splits (groups as (meld kind, slots), the winning group), full enumeration
/// decides, or the work limit's refusal; with the work left.
pub(crate) enum Answer {
    Found(Vec<Splits>),
    Enumerate,
    Limit,
}

/// The observers of one rule set, kept (runtime/hand_signatures.py `KeptObservers`).
pub(crate) struct Kept {
    observers: HashMap<String, Observer>,
    order: Vec<String>, // least recently used first
    /// The bound on what their memos hold together (`MEMO_HELD`; a test lowers it).
    pub(crate) limit: usize,
    /// Memos started afresh to stay within it.
    pub(crate) cleared: u64,
    walks: Walks,
}

impl Default for Kept {
    fn default() -> Kept {
        Kept { observers: HashMap::new(), order: Vec::new(), limit: MEMO_HELD, cleared: 0, walks: Walks::default() }
    }
}

impl Kept {
    /// The observers kept and what their memos hold together.
    pub(crate) fn held(&self) -> (usize, usize) {
        (self.observers.len(), self.observers.values().map(|o| o.memo.held()).sum())
    }

    /// Past the bound, start memos afresh, the least recently used first, until it holds again
    /// (`KeptObservers.make_room`: same order, same counts).
    fn make_room(&mut self) {
        let mut total: usize = self.observers.values().map(|o| o.memo.held()).sum();
        for k in &self.order {
            if total <= self.limit {
                break;
            }
            let o = self.observers.get_mut(k).expect("every key in the order is kept");
            let h = o.memo.held();
            if h > 0 {
                o.clear();
                total -= h;
                self.cleared += 1;
            }
        }
    }

    fn touch(&mut self, key: &str) -> bool {
        if !self.observers.contains_key(key) {
            return false;
        }
        if let Some(i) = self.order.iter().position(|k| k == key) {
            let k = self.order.remove(i);
            self.order.push(k);
        }
        true
    }

    /// `signature_found` natively: Err(why) where it declines (the memo it used is started afresh).
    pub(crate) fn answer(&mut self, fx: &Fixed, tables: &Tables, q: &Question, settings: &dyn Fn(&str) -> Option<V>, work: &mut i64) -> Result<Answer, String> {
        let Some(&(phys, _)) = q.wilds.first() else { return Ok(Answer::Enumerate) };
        if q.wilds.iter().any(|w| w.0 != phys) {
            return Ok(Answer::Enumerate);
        }
        let nat_win = q.naturals.iter().find(|t| t.2);
        let wild_win = nat_win.is_none() && q.wilds.iter().any(|w| w.1);
        let win_kind = nat_win.map_or(-1, |t| t.0 as i64);
        let has_win = nat_win.is_some() || wild_win;
        let fname = fx.forms.get(q.form).ok_or("a form outside the rule set")?.0.clone();
        let base = format!("{}\u{0}{}\u{0}{}\u{0}{}\u{0}{}\u{0}{}", q.waits, q.form, wild_win, phys, q.self_drawn, q.env_key);
        let key = match nat_win {
            Some(t) => format!("{base}\u{0}{}\u{0}{}", t.0, t.1),
            None => base.clone(),
        };
        let found = if self.touch(&base) { base } else if self.touch(&key) { key.clone() } else {
            let env = Env {
                settings: fx.prog.settings.iter().map(|n| settings(n)).collect(),
                self_drawn: q.self_drawn,
                form: V::Str(fname),
                win_tile: nat_win.map_or(V::None, |t| fx.code(t.0, t.1, false)),
                wild_phys: phys,
            };
            let obs = Observer::new(fx, q.form, q.waits, wild_win, env, &mut self.walks)?;
            let k = if obs.uses_win() { key.clone() } else { base };
            while self.order.len() >= OBSERVERS_KEPT {
                let old = self.order.remove(0);
                self.observers.remove(&old);
            }
            self.order.push(k.clone());
            self.observers.insert(k.clone(), obs);
            k
        };
        self.make_room(); // kept across hands, bounded together
        let obs = self.observers.get_mut(&found).expect("kept above");
        obs.bound();
        let n = fx.suits.len();
        let mut counts = vec![0u8; n];
        for t in q.naturals {
            let c = counts.get_mut(t.0).ok_or("a tile outside the catalog")?;
            *c = c.saturating_add(1);
        }
        if !obs.memo.takes(&counts, win_kind) {
            return Err("counts the signature search does not take".into());
        }
        let digit = key_digit(q.melds, q.pairs).ok_or("too many groups for the signature search's keys")?;
        let code = if !has_win { 0 } else if wild_win { 1 } else { 2 + win_kind as u32 };
        let mut memo = std::mem::replace(&mut obs.memo, Memo::new(0, 0, Vec::new(), Vec::new()));
        let mut ask = ObsAsk { fx, obs };
        let (got, left) = {
            let mut run = Run::new(tables, &mut ask, (win_kind, wild_win, code), *work, digit);
            let got = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                memo.search(&mut run, &counts, q.wilds.len() as u32, q.melds, q.pairs, has_win)
            }));
            (got, run.budget())
        };
        let obs = ask.obs;
        let got = match got {
            Ok(g) => g,
            Err(_) => {
                memo.clear();
                obs.memo = memo;
                return Err("a panic in the native signature search".into());
            }
        };
        let out = match got {
            Err(Stop::Decline(why)) => {
                memo.clear();
                obs.memo = memo;
                return Err(why);
            }
            Err(Stop::Py(_)) => {
                memo.clear();
                obs.memo = memo;
                return Err("a Python error in the native signature search".into());
            }
            Err(Stop::Limit) => Answer::Limit,
            Err(Stop::Unobservable) => Answer::Enumerate,
            Ok(None) => Answer::Found(Vec::new()),
            Ok(Some(t)) => Answer::Found(
                memo.splits(t)
                    .into_iter()
                    .map(|(_, gs, wg)| (gs.into_iter().map(|(s, sl)| (fx.specs[s as usize].kind.clone(), sl.to_vec())).collect(), usize::try_from(wg).ok()))
                    .collect(),
            ),
        };
        obs.memo = memo;
        *work = left;
        Ok(out)
    }
}

/// The native signature search of one rule set, handed to the native game with the reference's search
/// to fall back on (`NativeHands.signature_search_for`).
#[pyclass(module = "_native")]
pub struct SigSearch {
    pub(crate) fixed: Fixed,
    pub(crate) kept: Mutex<Kept>,
    /// The reference's search (the callable the native game asks where this one declines).
    pub(crate) fallback: Py<PyAny>,
    pub(crate) answered: AtomicU64,
    pub(crate) declined: AtomicU64,
    pub(crate) reasons: Mutex<HashMap<String, u64>>,
}

impl SigSearch {
    /// Count a declined question (its reason kept for the record).
    pub(crate) fn note_declined(&self, why: &str) {
        self.declined.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut r) = self.reasons.lock() {
            *r.entry(why.to_owned()).or_default() += 1;
        }
    }

    pub(crate) fn note_answered(&self) {
        self.answered.fetch_add(1, Ordering::Relaxed);
    }
}
