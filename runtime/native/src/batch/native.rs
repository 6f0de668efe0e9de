//! The native scorer of batch lines: a hand the whole-hand scorer (src/hand/) can take is read and
//! scored here without calling Python; any other answers `NotCovered` and the reference scores it, so
//! the output is the reference's whatever scores a line.
//!
//! What a context needs (its catalog's `Hands`, its settings encoded, its forms) is asked of the Python
//! side once per distinct `set` (runtime/batch.py `native_context`); per line only the tiles are read
//! here. Only a line the reference would hand to the same native call is taken: every tile in the
//! notation and in play, copies and sizes within the limits, each laid-down meld checked and encoded
//! by the Python side the first time it is seen (`Hands::known_meld`), the waits it reads answered by
//! the native wait trials (`TrialWaits`; a question they decline sends the line to the reference), and
//! in a rule set with wildcards or stand-ins no tile of a kind that may be one under the context (its
//! splits then charged to the work, as the reference reads such a hand). Anything else, and every
//! `Fallback`, is left to the reference.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::line::Item;
use super::{LineScorer, Outcome};
use crate::hand::binding::Hands;
use crate::hand::{score_hand, Budget, Fallback, HandInput, HandOutcome, MeldIn, Waits};
use crate::program::V;
use crate::waits::TrialWaits;
use crate::{value_of, Tables};

/// One context as the native scorer reads its hands (runtime/nativehand.py `batch_context` gives it).
pub(crate) struct Ctx {
    hands: Py<Hands>,
    tables: Py<Tables>,
    settings: [Vec<Option<V>>; 2], // not self-drawn, self-drawn
    meld: Py<PyAny>,               // (kind, tile kinds) -> whether the Python side took and recorded the meld
    forms: Vec<usize>,
    work: i64,
    flower_kinds: Vec<bool>,
    max_text: usize,
    max_melds: usize,
    max_tiles: usize,
    held_back: Vec<bool>, // kinds that may be wild or stand in: a line holding one is the reference's
    charge_splits: bool,  // the rule set has wildcards or stand-ins (`HandInput::charge_splits`)
}

/// What the native wait trials decline is the Python side's to find: the line goes to the reference.
pub(crate) struct NoWaits;

impl Waits for NoWaits {
    fn waits(&mut self, _shape: bool, _budget: &mut Budget) -> Result<V, Fallback> {
        Err(Fallback("the native wait trials decline: the Python side finds the waits".into()))
    }
}

pub(super) struct NativeLines<'py> {
    py: Python<'py>,
    prepare: Bound<'py, PyAny>,
    contexts: HashMap<u64, Option<Ctx>>,
    kept: usize,
    pub error: Option<PyErr>,
}

impl<'py> NativeLines<'py> {
    pub fn new(py: Python<'py>, prepare: Bound<'py, PyAny>, kept: usize) -> Self {
        NativeLines { py, prepare, contexts: HashMap::new(), kept, error: None }
    }

    fn context(&mut self, item: &Item) -> PyResult<Option<Ctx>> {
        let py = self.py;
        let d = PyDict::new(py);
        for (k, v) in &item.context {
            d.set_item(super::binding::py_text(py, k)?, super::binding::py_value(py, v)?)?;
        }
        let got = self.prepare.call1((d,))?;
        if got.is_none() {
            return Ok(None);
        }
        Ctx::of(&got).map(Some)
    }
}

impl Ctx {
    /// The context from `NativeHands.batch_context`'s tuple.
    pub(crate) fn of(got: &Bound<'_, PyAny>) -> PyResult<Ctx> {
        let t = got.cast::<PyTuple>()?;
        let enc = |x: Bound<'_, PyAny>| -> PyResult<Vec<Option<V>>> { x.try_iter()?.map(|v| value_of(&v?)).collect() };
        Ok(Ctx {
            hands: t.get_item(0)?.extract()?,
            tables: t.get_item(1)?.extract()?,
            settings: [enc(t.get_item(2)?)?, enc(t.get_item(3)?)?],
            meld: t.get_item(4)?.unbind(),
            forms: t.get_item(5)?.extract()?,
            work: t.get_item(6)?.extract()?,
            flower_kinds: t.get_item(7)?.extract()?,
            max_text: t.get_item(8)?.extract()?,
            max_melds: t.get_item(9)?.extract()?,
            max_tiles: t.get_item(10)?.extract()?,
            held_back: t.get_item(11)?.extract()?,
            charge_splits: t.get_item(12)?.extract()?,
        })
    }

    pub(crate) fn hands(&self) -> &Py<Hands> {
        &self.hands
    }

    pub(crate) fn tables(&self) -> &Py<Tables> {
        &self.tables
    }

    pub(crate) fn work(&self) -> i64 {
        self.work
    }

    /// The Python objects it holds (a holder's `__traverse__` visits them).
    pub(crate) fn objects(&self) -> [&Py<PyAny>; 3] {
        [self.hands.as_any(), self.tables.as_any(), &self.meld]
    }
}

/// The tiles of a text as catalog kinds, or None (a mistake, a tile not in play, too long: the
/// reference says which).
fn kinds(tables: &Tables, text: &str, max_text: usize) -> Option<Vec<usize>> {
    let mut ks = tables.notation.parse_within(text, max_text)?;
    for k in ks.iter_mut() {
        *k = tables.catalog_index[*k]?; // declared kind -> catalog index, in place
    }
    Some(ks)
}

/// A meld new to the native side is checked and encoded by the Python side once (then known).
fn meld(py: Python<'_>, c: &Ctx, hands: &Hands, kind: &str, tiles: &[usize]) -> PyResult<Option<MeldIn>> {
    if let Some(m) = hands.known_meld(kind, tiles) {
        return Ok(Some(m));
    }
    let took: bool = c.meld.bind(py).call1((kind, tiles.to_vec()))?.extract()?;
    Ok(if took { hands.known_meld(kind, tiles) } else { None })
}

/// The hand the reference would build of the item (runtime/hand.py `build_hand`), where it builds one
/// without a question the native side leaves to it; None: the reference reads the line.
fn input(py: Python<'_>, c: &Ctx, hands: &Hands, tables: &Tables, item: &Item) -> PyResult<Option<HandInput>> {
    let Some(hand) = item.hand.as_str() else { return Ok(None) };
    let win = match item.win.as_ref() {
        None => None,
        Some(w) => match w.as_str() {
            Some(w) => Some(w),
            None => return Ok(None),
        },
    };
    let melds = item.melds.iter().map(|m| m.as_str());
    hand_input(py, c, hands, tables, hand, item.melds.len(), melds, win, item.self_drawn)
}

/// `input` of the texts themselves: the hand, `n_melds` melds written KIND:TILES (None: not text), the
/// winning tile (None or empty: none).
#[allow(clippy::too_many_arguments)]
pub(crate) fn hand_input<'t>(
    py: Python<'_>,
    c: &Ctx,
    hands: &Hands,
    tables: &Tables,
    hand: &str,
    n_melds: usize,
    meld_texts: impl Iterator<Item = Option<&'t str>>,
    win: Option<&str>,
    self_drawn: bool,
) -> PyResult<Option<HandInput>> {
    macro_rules! some {
        ($e:expr) => {
            match $e {
                Some(x) => x,
                None => return Ok(None),
            }
        };
    }
    // flower tiles written in the hand are set aside (listed as the hand's flowers, in order)
    let is_flower = |k: usize| c.flower_kinds.get(k).copied().unwrap_or(false);
    let written = some!(kinds(tables, hand, c.max_text));
    let (flowers, concealed): (Vec<usize>, Vec<usize>) =
        if written.iter().any(|&k| is_flower(k)) { written.into_iter().partition(|&k| is_flower(k)) } else { (Vec::new(), written) };
    if n_melds > c.max_melds {
        return Ok(None);
    }
    let mut melds: Vec<MeldIn> = Vec::with_capacity(n_melds);
    for m in meld_texts {
        let (kind, text) = some!(some!(m).split_once(':'));
        let kind = kind.trim_matches(crate::notation::py_space);
        let tiles = some!(kinds(tables, text, c.max_text));
        melds.push(some!(meld(py, c, hands, kind, &tiles)?));
    }
    let win = match win {
        None => None,
        Some(w) => {
            if w.is_empty() {
                None
            } else {
                match some!(kinds(tables, w, c.max_text)).as_slice() {
                    [k] if !c.flower_kinds.get(*k).copied().unwrap_or(true) => Some(*k),
                    _ => return Ok(None),
                }
            }
        }
    };
    let mut small = [0i64; 64]; // the copies of each kind, on the stack for the usual catalog
    let mut big = Vec::new();
    let counts: &mut [i64] = if tables.kinds.len() <= small.len() {
        &mut small[..tables.kinds.len()]
    } else {
        big.resize(tables.kinds.len(), 0);
        &mut big
    };
    let every =
        concealed.iter().chain(melds.iter().flat_map(|m| m.tiles.iter())).chain(flowers.iter()).chain(win.iter());
    let mut n = 0;
    for &k in every {
        if c.held_back.get(k).copied().unwrap_or(true) {
            return Ok(None);
        }
        n += 1;
        counts[k] += 1;
        if counts[k] > tables.kinds[k].1 {
            return Ok(None);
        }
    }
    if n > c.max_tiles {
        return Ok(None);
    }
    Ok(Some(HandInput {
        concealed,
        melds,
        win,
        self_drawn,
        settings: c.settings[self_drawn as usize].clone(),
        flowers: flowers.iter().map(|&k| V::Tile(hands.setup().tile_codes[k])).collect(),
        forms: c.forms.clone(),
        charge_splits: c.charge_splits,
        wild: None,
    }))
}

fn score(py: Python<'_>, c: &Ctx, item: &Item) -> PyResult<Outcome> {
    let hands = c.hands.borrow(py);
    let tables = c.tables.borrow(py);
    let Some(inp) = input(py, c, &hands, &tables, item)? else { return Ok(Outcome::NotCovered) };
    let mut budget = Budget { work: c.work };
    // the waits by the native trials (src/waits/hand.rs); a question they decline, or a rule set they do
    // not cover, leaves the line to the reference
    let (got, answered) = hands.with_ctx(py, |ctx| {
        let mut fallback = NoWaits;
        let mut waits = TrialWaits::new(ctx.scorer, &inp, &mut fallback);
        let got = score_hand(ctx, &inp, &mut budget, &mut waits);
        (got, waits.answered)
    });
    let out = match got {
        Err(_) => Outcome::NotCovered,
        Ok(HandOutcome::Refused(s)) => Outcome::Refused(super::text::PyText::from_str(&s)),
        Ok(o) => match o.to_json(hands.setup(), &inp) {
            Ok(line) => Outcome::Line(line),
            Err(_) => Outcome::NotCovered,
        },
    };
    // counted as `Hands.score` counts its hands (Rules.stats(): native_hands, native_hand_fallbacks,
    // native_waits)
    hands.note_batch(matches!(out, Outcome::NotCovered), answered);
    Ok(out)
}

impl LineScorer for NativeLines<'_> {
    fn score(&mut self, item: &Item, context: u64) -> Outcome {
        if self.error.is_some() {
            return Outcome::NotCovered;
        }
        if !self.contexts.contains_key(&context) {
            if self.contexts.len() >= self.kept {
                self.contexts.clear();
            }
            match self.context(item) {
                Ok(c) => {
                    self.contexts.insert(context, c);
                }
                Err(e) => {
                    self.error = Some(e);
                    return Outcome::Abort;
                }
            }
        }
        let Some(Some(c)) = self.contexts.get(&context) else { return Outcome::NotCovered };
        let py = self.py;
        // a panic in the native scoring leaves the line to the reference (never reaches Python)
        match catch_unwind(AssertUnwindSafe(|| score(py, c, item))) {
            Ok(Ok(o)) => o,
            Ok(Err(e)) => {
                // a Python error in the meld check is not a refusal: the run stops with it
                self.error = Some(e);
                Outcome::Abort
            }
            Err(_) => Outcome::NotCovered,
        }
    }
}
