//! The signature search of a hand holding wildcards (runtime/signatures.py `signature_splits`, the
//! reference) on the native core's integers: the same states, placements, merges, keys, witnesses and
//! work counted, so every result, trace and refusal is the reference's.
//!
//! What the rule set defines stays with the Python side and is asked once: the placements a tile's
//! groups may take (`Decomposer.templates`, in the reference's order), the pure-wildcard groups of a
//! shape, a group's signature part and the join of two parts (the observer's). Each answer is kept in
//! this memo (one per observer, as the reference's), so a join is asked once per pair of numbers and a
//! part once per placement; whether a state's natural tiles can be split is the native block tables'
//! `can_split`. The merge loop itself never leaves Rust.
//!
//! A state's natural tiles are packed four bits a kind (the tables take at most 7 of a kind), sixteen
//! kinds a word; a table entry's key is the reference's choice tuple written one digit of `digit` bits
//! a choice in a `u128` (16 bits, fewer when a form has more than seven groups). Input this does not
//! take (more kinds, a choice past its digit) is `NotCovered` before any work is counted, or, for a
//! digit overflow found late, with the work given back: the caller then runs the reference.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::blocks::MAX_COUNT;
use crate::hash::{map, Map};
use crate::{Error, NativeError, NotCovered, Tables};

/// A group's slots: (the kind it plays as, whether a wildcard plays it), in the shape's order.
pub(crate) type Slots = Arc<[(usize, bool)]>;
/// A split of a table: (signature number, its groups as (shape, slots), the winning group or -1).
pub(crate) type Split = (u32, Vec<(u32, Slots)>, i64);
/// One placement of `Decomposer.templates`: (slots, natural members with multiplicity, wildcards, the
/// slot of a wildcard winning tile (-1: none), the first natural slot by kind).
pub(crate) type RawTpl = (Slots, Vec<(usize, usize)>, u32, i32, Vec<(u32, i32)>);

/// What the rule set defines, asked by the search once each (its answers are kept in the memo): the
/// number of a group's signature part, of a join of two numbers, of the unit; a tile kind's
/// placements per shape; a shape's pure-wildcard groups. Answered by the Python side's observer
/// (binding.rs) or by the native one (observer.rs).
pub(crate) trait Ask {
    fn part(&mut self, spec: u32, slots: &Slots, wp: i32) -> Result<u32, Stop>;
    fn join(&mut self, a: u32, b: u32) -> Result<u32, Stop>;
    fn unit(&mut self) -> Result<u32, Stop>;
    fn templates(&mut self, i: usize) -> Result<Vec<Vec<RawTpl>>, Stop>;
    fn targets(&mut self, s: usize) -> Result<Vec<Slots>, Stop>;
}

const WORDS: usize = 4; // words of a packed count vector
const PER_WORD: usize = 16; // kinds a word (four bits each)
const MAX_KINDS: usize = WORDS * PER_WORD;
const GUARD: u64 = 0x8888_8888_8888_8888; // the top bit of every field
const EMPTY: u32 = 0; // the table of no entry

type Key = [u64; WORDS];

#[derive(Clone, Copy)]
struct Entry {
    key: u128, // the choice tuple, one digit a choice (relative to the table's state)
    sid: u32,  // the signature's number (the Python side's `SigMemo.number`)
    wit: u32,  // the witness: a chain of groups in `wit_item` / `wit_next` (0: no group)
}

struct Template {
    src: u32, // the placement (`placed`)
    delta: Key,
    nw: u32,
    fw: i32,                 // the slot of a wildcard winning tile (-1: none)
    first_nat: Vec<(u32, i32)>, // (kind, its first natural slot)
    pair: bool,
}

#[derive(Clone, Copy)]
struct Opt {
    tpl: u32,
    child: Key,
    wl: u32,
    dm: u32,
    dp: u32,
    pid: u32,
    iid: u32,
}

#[derive(Default)]
struct Scratch {
    entries: Vec<Entry>,
    pos: Map<u32, u32>, // (the fast keyed hash: looked up for every entry merged)
}

type StateKey = (Key, u32, u32, u32, u32);

pub(crate) struct Memo {
    n: usize,
    n_specs: usize, // the meld shapes, then the pairs
    n_meld: usize,
    pair: Vec<bool>,
    size: Vec<u32>,
    placed: Vec<(u32, Slots)>, // (spec, slots) of every natural placement and pure-wild group
    fetched: Vec<bool>,              // per tile kind: its templates asked
    tpl_of: Vec<Vec<Vec<u32>>>,      // per tile kind, per spec: template numbers in the reference's order
    tpls: Vec<Template>,
    choices: Map<(u32, bool, bool, u32), std::sync::Arc<[u32]>>,
    targets: Vec<Option<std::sync::Arc<[u32]>>>, // per spec: its pure-wild groups (placements)
    tables: Vec<(u32, u32)>,
    arena: Vec<Entry>,
    states: Map<StateKey, u32>,
    options: Map<(Key, u32, u32, u32), (u32, u32)>,
    opts: Vec<Opt>,
    pures: Map<(u32, u32, u32, bool), u32>,
    joined: Map<u64, u32>,
    parts: Map<(u32, i32), (u32, u32)>,
    items: Vec<(u32, i32)>,
    item_ids: Map<(u32, i32), u32>,
    wit_item: Vec<u32>,
    wit_next: Vec<u32>,
    can: Map<(Key, u32, u32, u32), bool>,
    fits: Map<(u32, u32, u32), bool>,
    unit: Option<u32>,
    entries: usize, // what the reference's memo dict would hold (states, options, pure states)
    pool: Vec<Scratch>,
}

pub(crate) enum Stop {
    Py(PyErr),
    Limit,
    Decline(String),
    /// A part the observer cannot evaluate where the reference raises `Unobservable`: full
    /// enumeration decides instead.
    Unobservable,
}

impl From<PyErr> for Stop {
    fn from(e: PyErr) -> Stop {
        Stop::Py(e)
    }
}

pub(crate) struct Run<'a> {
    tables: &'a Tables,
    ask: &'a mut dyn Ask,
    wild_win: bool,
    win_kind: i64,
    code: u32,
    budget: i64,
    digit: u32,
    buf: Vec<u8>,
}

#[inline]
fn lowest(k: &Key) -> i64 {
    for (j, &w) in k.iter().enumerate() {
        if w != 0 {
            return (j * PER_WORD + (w.trailing_zeros() / 4) as usize) as i64;
        }
    }
    -1
}

#[inline]
fn field(k: &Key, kind: usize) -> u64 {
    (k[kind / PER_WORD] >> (4 * (kind % PER_WORD))) & 0xf
}

#[inline]
fn is_zero(k: &Key) -> bool {
    k.iter().all(|&w| w == 0)
}

/// The digit of a table key (bits a choice) for this many groups, None when the keys cannot hold them.
pub(crate) fn key_digit(melds: u32, pairs: u32) -> Option<u32> {
    let groups = (melds + pairs + 1).max(1);
    let digit = (128 / groups).min(16);
    (digit >= 4).then_some(digit)
}

impl<'a> Run<'a> {
    pub(crate) fn new(tables: &'a Tables, ask: &'a mut dyn Ask, win: (i64, bool, u32), budget: i64, digit: u32) -> Run<'a> {
        let (win_kind, wild_win, code) = win;
        Run { tables, ask, wild_win, win_kind, code, budget, digit, buf: Vec::new() }
    }

    /// The work left.
    pub(crate) fn budget(&self) -> i64 {
        self.budget
    }
}

impl Memo {
    /// `signature_splits` of one hand: the table of its top state (None: its natural tiles cannot be
    /// split), or why it stopped.
    pub(crate) fn search(&mut self, run: &mut Run<'_>, counts: &[u8], wilds: u32, melds: u32, pairs: u32, need: bool)
        -> Result<Option<u32>, Stop> {
        let mut key = [0u64; WORDS];
        for (k, &c) in counts.iter().enumerate() {
            key[k / PER_WORD] |= (c as u64) << (4 * (k % PER_WORD));
        }
        if lowest(&key) >= 0 {
            let fits = run
                .tables
                .core_can_split(counts, wilds as usize, melds as usize, pairs as usize)
                .map_err(|e| Stop::Decline(format!("{e}")))?;
            if !fits {
                return Ok(None);
            }
        }
        self.rec(run, &key, wilds, melds, pairs, need).map(Some)
    }

    /// Whether these counts fit the memo (its kinds, at most `MAX_COUNT` of a kind).
    pub(crate) fn takes(&self, counts: &[u8], win_kind: i64) -> bool {
        counts.len() == self.n && counts.iter().all(|&c| c <= MAX_COUNT) && win_kind < self.n as i64
    }

    /// The splits of a table, first reading first: (signature number, its groups as (shape, slots),
    /// the index of the group holding the winning tile or -1).
    pub(crate) fn splits(&self, t: u32) -> Vec<Split> {
        let (s, l) = self.tables[t as usize];
        let mut entries: Vec<Entry> = self.arena[s as usize..(s + l) as usize].to_vec();
        entries.sort_unstable_by_key(|e| e.key);
        entries
            .into_iter()
            .map(|e| {
                let mut gs = Vec::new();
                let mut win_gi: i64 = -1;
                let mut wid = e.wit;
                while wid != 0 {
                    let (src, wp) = self.items[self.wit_item[wid as usize] as usize];
                    if wp >= 0 {
                        win_gi = gs.len() as i64;
                    }
                    gs.push(self.placed[src as usize].clone());
                    wid = self.wit_next[wid as usize];
                }
                (e.sid, gs, win_gi)
            })
            .collect()
    }

    /// Entries the reference's memo dict would hold (its states, lists of options, pure states).
    pub(crate) fn entries(&self) -> usize {
        self.entries
    }

    /// What the memo holds, as the bound on the kept observers counts it (runtime/signatures.py
    /// `memo_held`): its states (lists of options and pure-wildcard states included), its witnesses
    /// (less the empty one) and its joins; every other table grows with these.
    pub(crate) fn held(&self) -> usize {
        self.entries + self.wit_item.len() - 1 + self.joined.len()
    }

    /// The numbers the reference's `SigMemo.full` counts: witnesses (with the empty one) and joins.
    pub(crate) fn numbered(&self) -> usize {
        self.wit_item.len().max(self.joined.len())
    }
    pub(crate) fn clear(&mut self) {
        let (n, n_meld, pair, size) = (self.n, self.n_meld, std::mem::take(&mut self.pair), std::mem::take(&mut self.size));
        *self = Memo::new(n, n_meld, pair, size);
    }

    /// A memo over `n` tile kinds and shapes of these pair flags and sizes, the first `n_meld` the
    /// meld shapes.
    pub(crate) fn new(n: usize, n_meld: usize, pair: Vec<bool>, size: Vec<u32>) -> Memo {
        let ns = pair.len();
        Memo {
            n,
            n_specs: ns,
            n_meld,
            pair,
            size,
            placed: Vec::new(),
            fetched: vec![false; n],
            tpl_of: vec![Vec::new(); n],
            tpls: Vec::new(),
            choices: map(),
            targets: vec![None; ns],
            tables: vec![(0, 0)],
            arena: Vec::new(),
            states: map(),
            options: map(),
            opts: Vec::new(),
            pures: map(),
            joined: map(),
            parts: map(),
            items: Vec::new(),
            item_ids: map(),
            wit_item: vec![0],
            wit_next: vec![0],
            can: map(),
            fits: map(),
            unit: None,
            entries: 0,
            pool: Vec::new(),
        }
    }

    /// `Decomposer.wild_only_fits` (sizes only, as `sum_fits`).
    fn wild_only_fits(&mut self, w: u32, m: u32, p: u32) -> bool {
        if m == 0 && p == 0 {
            return w == 0;
        }
        let has_m = self.n_meld > 0;
        let has_p = self.n_specs > self.n_meld;
        if (p > 0 && !has_p) || (m > 0 && !has_m) {
            return false;
        }
        self.sum_fits(w, m, p)
    }

    fn sum_fits(&mut self, w: u32, m: u32, p: u32) -> bool {
        if m == 0 && p == 0 {
            return w == 0;
        }
        if let Some(&got) = self.fits.get(&(w, m, p)) {
            return got;
        }
        let range = if m > 0 { 0..self.n_meld } else { self.n_meld..self.n_specs };
        let mut sizes: Vec<u32> = range.map(|s| self.size[s]).collect();
        sizes.sort_unstable();
        sizes.dedup();
        let got = sizes.into_iter().any(|s| {
            s <= w && if m > 0 { self.sum_fits(w - s, m - 1, p) } else { self.sum_fits(w - s, 0, p - 1) }
        });
        self.fits.insert((w, m, p), got);
        got
    }

    fn can_split(&mut self, run: &mut Run<'_>, child: &Key, w: u32, m: u32, p: u32) -> Result<bool, Stop> {
        let ck = (*child, w, m, p);
        if let Some(&got) = self.can.get(&ck) {
            return Ok(got);
        }
        run.buf.clear();
        run.buf.extend((0..self.n).map(|k| field(child, k) as u8));
        let got = run
            .tables
            .core_can_split(&run.buf, w as usize, m as usize, p as usize)
            .map_err(|e| Stop::Decline(format!("{e}")))?;
        self.can.insert(ck, got);
        Ok(got)
    }

    fn store(&mut self, out: &mut Scratch) -> u32 {
        if out.entries.is_empty() {
            return EMPTY;
        }
        let start = self.arena.len() as u32;
        self.arena.extend_from_slice(&out.entries);
        self.tables.push((start, out.entries.len() as u32));
        out.entries.clear();
        out.pos.clear();
        (self.tables.len() - 1) as u32
    }

    fn scratch(&mut self) -> Scratch {
        self.pool.pop().unwrap_or_default()
    }

    #[allow(clippy::too_many_arguments)]
    fn merge(&mut self, run: &mut Run<'_>, out: &mut Scratch, c: usize, digits: u32, pid: u32, sub: u32, mode: u8, iid: u32)
        -> Result<(), Stop> {
        let (start, len) = self.tables[sub as usize];
        run.budget -= len as i64;
        if run.budget < 0 {
            return Err(Stop::Limit);
        }
        let b = run.digit;
        if (c as u128) >> b != 0 || (digits + 1) * b > 128 {
            return Err(Stop::Decline("a choice past the key's digits".into()));
        }
        let mut base = (c as u128) << (b * digits);
        if mode == 1 {
            base += 1;
        }
        let shift = if mode == 2 { b } else { 0 };
        for idx in start..start + len {
            let e = self.arena[idx as usize];
            let jk = ((pid as u64) << 32) | e.sid as u64;
            let s2 = match self.joined.get(&jk) {
                Some(&x) => x,
                None => {
                    let x = run.ask.join(pid, e.sid)?;
                    self.joined.insert(jk, x);
                    x
                }
            };
            let k2 = base + (e.key << shift);
            match out.pos.get(&s2) {
                None => {
                    out.pos.insert(s2, out.entries.len() as u32);
                    out.entries.push(Entry { key: k2, sid: s2, wit: self.wit_item.len() as u32 });
                    self.wit_item.push(iid);
                    self.wit_next.push(e.wit);
                }
                Some(&pp) => {
                    let old = &mut out.entries[pp as usize];
                    if k2 < old.key {
                        old.key = k2;
                        old.wit = self.wit_item.len() as u32;
                        self.wit_item.push(iid);
                        self.wit_next.push(e.wit);
                    }
                }
            }
        }
        Ok(())
    }

    fn pure(&mut self, run: &mut Run<'_>, w: u32, m: u32, p: u32, need: bool) -> Result<u32, Stop> {
        if need && !run.wild_win {
            return Ok(EMPTY); // a natural winning tile left unplaced
        }
        if let Some(&t) = self.pures.get(&(w, m, p, need)) {
            return Ok(t);
        }
        let mut out = self.scratch();
        if m == 0 && p == 0 {
            if w == 0 && !need {
                let unit = match self.unit {
                    Some(u) => u,
                    None => {
                        let u = run.ask.unit()?;
                        self.unit = Some(u);
                        u
                    }
                };
                out.entries.push(Entry { key: 0, sid: unit, wit: 0 });
            }
        } else if self.wild_only_fits(w, m, p) {
            let mut c = 0usize;
            let range = if m > 0 { 0..self.n_meld } else { self.n_meld..self.n_specs };
            for s in range {
                let size = self.size[s];
                if size > w {
                    continue;
                }
                let pair = self.pair[s];
                let (w2, m2, p2) = (w - size, m - (!pair) as u32, p - pair as u32);
                for &q in self.targets(run, s)?.iter() {
                    let sub = self.pure(run, w2, m2, p2, need)?;
                    if sub != EMPTY {
                        let (pid, iid) = self.part(run, q, -1)?;
                        self.merge(run, &mut out, c, m + p - 1 + need as u32, pid, sub, need as u8, iid)?;
                    }
                    if need && run.wild_win {
                        let sub = self.pure(run, w2, m2, p2, false)?;
                        if sub != EMPTY {
                            let (pid, iid) = self.part(run, q, 0)?;
                            self.merge(run, &mut out, c, m + p, pid, sub, 2, iid)?;
                        }
                    }
                    c += 1;
                }
            }
        }
        let t = self.store(&mut out);
        self.pool.push(out);
        self.pures.insert((w, m, p, need), t);
        self.entries += 1;
        Ok(t)
    }

    fn options(&mut self, run: &mut Run<'_>, key: &Key, i: usize, w: u32, m: u32, p: u32) -> Result<(u32, u32), Stop> {
        let ok = (*key, w, m, p);
        if let Some(&got) = self.options.get(&ok) {
            return Ok(got);
        }
        let choices = self.choices(run, i, m > 0, p > 0, w)?;
        let start = self.opts.len() as u32;
        for &t in choices.iter() {
            let tp = &self.tpls[t as usize];
            // every word's guard bits survive the subtraction: each natural member is held
            let held = key.iter().zip(&tp.delta).all(|(&k, &d)| ((k | GUARD) - d) & GUARD == GUARD);
            if !held {
                continue; // a natural member not held
            }
            let mut child = *key;
            for (c, &d) in child.iter_mut().zip(&tp.delta) {
                *c -= d;
            }
            let (src, pair, nw) = (tp.src, tp.pair, tp.nw);
            let wl = w - nw;
            let (dm, dp) = if pair { (m, p - 1) } else { (m - 1, p) };
            if !is_zero(&child) && !self.can_split(run, &child, wl, dm, dp)? {
                continue;
            }
            let (pid, iid) = self.part(run, src, -1)?;
            self.opts.push(Opt { tpl: t, child, wl, dm, dp, pid, iid });
        }
        let got = (start, self.opts.len() as u32 - start);
        self.options.insert(ok, got);
        self.entries += 1;
        Ok(got)
    }

    fn rec(&mut self, run: &mut Run<'_>, key: &Key, w: u32, m: u32, p: u32, need: bool) -> Result<u32, Stop> {
        let sk = (*key, w, m, p, if need { run.code } else { 0 });
        if let Some(&t) = self.states.get(&sk) {
            return Ok(t);
        }
        if need && (if run.win_kind >= 0 { field(key, run.win_kind as usize) == 0 } else { w == 0 }) {
            return Ok(EMPTY); // the winning tile can no longer be placed
        }
        let i = lowest(key);
        if i < 0 {
            let t = self.pure(run, w, m, p, need)?;
            self.states.insert(sk, t);
            self.entries += 1;
            return Ok(t);
        }
        let (os, ol) = self.options(run, key, i as usize, w, m, p)?;
        let mut out = self.scratch();
        let mode = need as u8;
        for c in 0..ol as usize {
            let o = self.opts[os as usize + c];
            let sub = self.rec(run, &o.child, o.wl, o.dm, o.dp, need)?;
            if sub != EMPTY {
                self.merge(run, &mut out, c, m + p - 1 + need as u32, o.pid, sub, mode, o.iid)?;
            }
            if need {
                let tp = &self.tpls[o.tpl as usize];
                let wp = if run.wild_win {
                    tp.fw
                } else {
                    tp.first_nat.iter().find(|&&(k, _)| k as i64 == run.win_kind).map_or(-1, |&(_, j)| j)
                };
                let src = tp.src;
                if wp >= 0 {
                    let sub = self.rec(run, &o.child, o.wl, o.dm, o.dp, false)?;
                    if sub != EMPTY {
                        let (pid, iid) = self.part(run, src, wp)?;
                        self.merge(run, &mut out, c, m + p, pid, sub, 2, iid)?;
                    }
                }
            }
        }
        let t = self.store(&mut out);
        self.pool.push(out);
        self.states.insert(sk, t);
        self.entries += 1;
        Ok(t)
    }
}

mod asked;
mod binding;
mod fixed;
mod observe;
mod parts;
pub(crate) mod search;
mod search_binding;

pub use binding::SigMemo;
pub use search::SigSearch;
