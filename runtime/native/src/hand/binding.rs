//! The Python class over `score_hand` (runtime/nativehand.py uses it): the setup given once, a hand per
//! call, the waits asked of a Python callable.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

use super::{score_hand, Budget, Classified, Fallback, FormSpec, GroupAsk, GroupRef, HandCtx, HandInput, HandOutcome, Item, MeldIn, Setup, Signatures, SplitGroup, Waits, WildIn};
use crate::program::V;
use crate::score::{trace_list, Scorer};
use crate::waits::TrialWaits;
use crate::{guarded, tiles_of, value_of, value_to_py, Tables};

fn bad(m: &str) -> PyErr {
    PyValueError::new_err(m.to_owned())
}

fn item<'py, T: FromPyObjectOwned<'py>>(d: &Bound<'py, PyDict>, k: &str) -> PyResult<T> {
    d.get_item(k)?.ok_or_else(|| bad(&format!("the hand setup lacks {k}")))?.extract().map_err(|_| bad(&format!("the hand setup's {k} is malformed")))
}

/// Little-endian bytes as 64-bit limbs.
fn limbs(b: &[u8]) -> Vec<u64> {
    b.chunks(8)
        .map(|c| {
            let mut x = [0u8; 8];
            x[..c.len()].copy_from_slice(c);
            u64::from_le_bytes(x)
        })
        .collect()
}

fn opt_vector(o: &Bound<'_, PyAny>) -> PyResult<Option<Vec<u64>>> {
    if o.is_none() {
        return Ok(None);
    }
    let b = o.cast::<PyBytes>().map_err(|_| bad("a prefilter vector must be bytes"))?;
    Ok(Some(limbs(b.as_bytes())))
}

/// A winning form as the setup gives it: (name, groups, melds, pairs, tiles, concealed, orphan kinds,
/// instant).
type FormTuple = (String, Option<i64>, Option<i64>, Option<(i64, i64)>, Option<i64>, bool, Option<Vec<usize>>, bool);

/// The scoring of whole hands of one rule set under one catalog: its `Scorer` (programs, tally) and
/// its `Tables` (splits), and what the readings need of the rule set (`Setup`).
#[pyclass(module = "_native")]
pub struct Hands {
    setup: Setup,
    scorer: Py<Scorer>,
    tables: Py<Tables>,
    // the laid-down melds the Python side has encoded (`add_meld`), by meld kind and tiles: what a loop in
    // Rust needs of a meld that only the Python side computes (its prefilter vector)
    melds: Mutex<crate::hash::Map<(String, Vec<usize>), MeldIn>>,
    // what a loop in Rust scored with these tables (`batch_counts`): hands, hands handed back, waits
    // questions the native trials answered
    batch: [AtomicU64; 3],
    // the value and prefilter vector of each group holding wildcards or stand-ins the Python side has
    // given (`Waits::group`), by meld kind, tile codes, concealed, holding the winning tile
    groups: Mutex<crate::hash::Map<GroupKey, GroupInfo>>, // (the fast keyed hash: asked for every group of every reading)
}

type GroupKey = (String, Vec<u32>, bool, bool);
type GroupInfo = (V, Option<Vec<u64>>);

/// Groups remembered before that memo starts afresh.
const GROUP_MEMO: usize = 50_000;

/// Melds remembered before the memo starts afresh.
const MELD_MEMO: usize = 10_000;

fn meld_of(m: &Bound<'_, PyAny>) -> PyResult<MeldIn> {
    let t = m.cast::<PyTuple>().map_err(|_| bad("a meld must be a tuple"))?;
    let kind: String = t.get_item(0)?.extract()?;
    Ok(MeldIn {
        kind: Arc::from(kind.as_str()),
        tiles: t.get_item(1)?.extract()?,
        exposed: t.get_item(2)?.extract()?,
        pair: t.get_item(3)?.extract()?,
        kong: t.get_item(4)?.extract()?,
        value: value_of(&t.get_item(5)?)?,
        vector: opt_vector(&t.get_item(6)?)?,
    })
}

// `setup`, `known_meld` and `with_ctx` are what a loop in Rust over many hands (the JSON-lines batch)
// needs to call `score_hand` itself.
impl Hands {
    /// What does not change from hand to hand (for a loop in Rust calling `score_hand`).
    pub(crate) fn setup(&self) -> &Setup {
        &self.setup
    }

    /// A laid-down meld as the Python side encoded it, if it has (else the hand goes to Python).
    pub(crate) fn known_meld(&self, kind: &str, tiles: &[usize]) -> Option<MeldIn> {
        let memo = self.melds.lock().unwrap_or_else(|e| e.into_inner());
        memo.get(&(kind.to_owned(), tiles.to_vec())).cloned()
    }

    /// A hand a loop in Rust scored (handed back or not) and the waits questions its trials answered
    /// (not counted for a hand handed back: the Python side scores it again and counts what it finds).
    pub(crate) fn note_batch(&self, handed_back: bool, waits: u32) {
        self.batch[0].fetch_add(1, Ordering::Relaxed);
        self.batch[1].fetch_add(handed_back as u64, Ordering::Relaxed);
        if !handed_back {
            self.batch[2].fetch_add(waits as u64, Ordering::Relaxed);
        }
    }

    /// `f` with the programs and tables of this rule set, as `score_hand` takes them.
    pub(crate) fn with_ctx<T>(&self, py: Python<'_>, f: impl FnOnce(&HandCtx) -> T) -> T {
        let scorer = self.scorer.borrow(py);
        let tables = self.tables.borrow(py);
        let ctx = HandCtx { setup: &self.setup, scorer: &scorer, program: &scorer.program, tables: &tables };
        f(&ctx)
    }
}

/// A group's value and prefilter vector asked of the Python callable `cb` (meld kind, tiles, concealed,
/// has the winning tile) -> (encoded value, vector bytes or None), kept in `memo` (the rule set's).
fn group_info(memo: &Mutex<crate::hash::Map<GroupKey, GroupInfo>>, cb: &Bound<'_, PyAny>, g: &GroupAsk) -> Result<GroupInfo, Fallback> {
    let key = (g.kind.to_owned(), g.codes.clone(), g.concealed, g.has_win);
    if let Some(x) = memo.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(x.clone());
    }
    let tiles: Vec<(usize, usize, bool, bool)> = g.tiles.to_vec();
    let got = cb.call1((g.kind, tiles, g.concealed, g.has_win)).map_err(|_| Fallback("a group the Python side could not evaluate".into()))?;
    let t = got.cast::<PyTuple>().map_err(|_| Fallback("the group callback returned no tuple".into()))?;
    let v = t.get_item(0).and_then(|x| value_of(&x)).map_err(|_| Fallback("a group's value the programs do not hold".into()))?;
    let v = v.ok_or_else(|| Fallback("a group's value the programs do not hold".into()))?;
    let vec = t.get_item(1).and_then(|x| opt_vector(&x)).map_err(|_| Fallback("a malformed prefilter vector".into()))?;
    let mut memo = memo.lock().unwrap_or_else(|e| e.into_inner());
    if memo.len() >= GROUP_MEMO {
        memo.clear();
    }
    memo.insert(key, (v.clone(), vec.clone()));
    Ok((v, vec))
}

impl Hands {
    /// A group's value and prefilter vector as the batch path asks them of the Python side
    /// (`NativeHands.group_info`), through `cb`, kept in this rule set's memo of them.
    pub(crate) fn group_info(&self, cb: &Bound<'_, PyAny>, g: &GroupAsk) -> Result<GroupInfo, Fallback> {
        group_info(&self.groups, cb, g)
    }
}

struct PyWaits<'a, 'py> {
    cb: &'a Bound<'py, PyAny>,
    groups: Option<&'a Bound<'py, PyAny>>,
    signatures: Option<&'a Bound<'py, PyAny>>,
    memo: &'a Mutex<crate::hash::Map<GroupKey, GroupInfo>>,
}

impl Waits for PyWaits<'_, '_> {
    fn waits(&mut self, shape: bool, budget: &mut Budget) -> Result<V, Fallback> {
        let got = self.cb.call1((shape, budget.work)).map_err(|_| Fallback("the waits could not be found".into()))?;
        let t = got.cast::<PyTuple>().map_err(|_| Fallback("the waits callback returned no tuple".into()))?;
        let w = t.get_item(0).and_then(|x| value_of(&x)).map_err(|_| Fallback("waits the programs do not hold".into()))?;
        budget.work = t.get_item(1).and_then(|x| x.extract()).map_err(|_| Fallback("the waits callback returned no work".into()))?;
        w.ok_or_else(|| Fallback("no waits".into()))
    }

    fn group(&mut self, g: &GroupAsk) -> Result<GroupInfo, Fallback> {
        let cb = self.groups.ok_or_else(|| Fallback("no group callback".into()))?;
        group_info(self.memo, cb, g)
    }

    fn signatures(&mut self, form: usize, melds: usize, pairs: usize, budget: &mut Budget) -> Result<Signatures, Fallback> {
        let cb = self.signatures.ok_or_else(|| Fallback(super::wild::BY_SIGNATURE.into()))?;
        let got = cb.call1((form, melds, pairs, budget.work)).map_err(|_| Fallback("the signature search failed".into()))?;
        signatures_of(&got, budget)
    }
}

/// The reference's signature search's answer, (status, payload, work left), as `Signatures` (the work
/// left set on `budget`).
pub(crate) fn signatures_of(got: &Bound<'_, PyAny>, budget: &mut Budget) -> Result<Signatures, Fallback> {
    let (status, payload, left): (u8, Bound<'_, PyAny>, i64) =
        got.extract().map_err(|_| Fallback("the signature callback returned no (status, payload, work)".into()))?;
    budget.work = left;
    Ok(match status {
        0 => Signatures::Found(PyWaits::found(&payload).map_err(|_| Fallback("malformed signature splits".into()))?),
        1 => Signatures::Enumerate,
        _ => Signatures::Refused(payload.extract().map_err(|_| Fallback("a refusal without its sentence".into()))?),
    })
}

/// A signature split as the Python side gives it: its groups (meld kind, slots), the winning group or -1.
type SplitTuple = (Vec<(String, Vec<(usize, bool)>)>, i64);

impl PyWaits<'_, '_> {
    fn found(got: &Bound<'_, PyAny>) -> PyResult<Vec<(Vec<Item>, Option<usize>)>> {
        let mut out = Vec::new();
        for x in got.try_iter()? {
            let (groups, win_gi): SplitTuple = x?.extract()?;
            let items = groups.into_iter().map(|(k, slots)| (Arc::from(k.as_str()), slots)).collect();
            out.push((items, usize::try_from(win_gi).ok()));
        }
        Ok(out)
    }
}

/// A hand's tiles as `classify` gives them: (naturals (kind, physical, winning), wilds (physical, winning)).
type ClassTuple = (Vec<(usize, usize, bool)>, Vec<(usize, bool)>);

#[pymethods]
impl Hands {
    #[new]
    fn new(py: Python<'_>, scorer: Py<Scorer>, tables: Py<Tables>, setup: &Bound<'_, PyDict>) -> PyResult<Self> {
        if let Err(why) = &scorer.borrow(py).program.form_conds {
            return Err(crate::NotCovered::new_err(format!("the winning forms' conditions do not lower: {why}")));
        }
        let forms_t: Vec<FormTuple> = item(setup, "forms")?;
        // whether each form lets stand-ins play (`standins false` lets them be themselves); absent: all do
        let standins: Vec<bool> = match setup.get_item("form_standins")? {
            Some(x) => x.extract().map_err(|_| bad("the hand setup's form_standins is malformed"))?,
            None => vec![true; forms_t.len()],
        };
        if standins.len() != forms_t.len() {
            return Err(bad("one form_standins flag per form"));
        }
        // the fewest wildcards each instant form holds with; absent: none said (0)
        let instant_wilds: Vec<usize> = match setup.get_item("form_instant_wilds")? {
            Some(x) => x.extract().map_err(|_| bad("the hand setup's form_instant_wilds is malformed"))?,
            None => vec![0; forms_t.len()],
        };
        if instant_wilds.len() != forms_t.len() {
            return Err(bad("one form_instant_wilds count per form"));
        }
        let meld_kinds: Vec<(String, bool, bool)> = match setup.get_item("meld_kinds")? {
            Some(x) => x.extract().map_err(|_| bad("the hand setup's meld_kinds is malformed"))?,
            None => Vec::new(),
        };
        let forms = forms_t
            .into_iter()
            .zip(standins)
            .zip(instant_wilds)
            .map(|(((name, groups, melds, pairs, tiles, concealed, orphans, instant), standins), instant_wilds)| FormSpec {
                name: Arc::from(name.as_str()),
                groups,
                melds,
                pairs,
                tiles,
                concealed,
                orphans,
                instant,
                standins,
                instant_wilds,
            })
            .collect();
        let kind_names: Vec<String> = item(setup, "kind_names")?;
        let tile_codes: Vec<u32> = item(setup, "tile_codes")?;
        let sg_list = setup.get_item("split_groups")?.ok_or_else(|| bad("the hand setup lacks split_groups"))?;
        let mut split_groups = Vec::new();
        for g in sg_list.try_iter()? {
            let g = g?;
            let t = g.cast::<PyTuple>().map_err(|_| bad("a split group must be a tuple"))?;
            let kind: String = t.get_item(0)?.extract()?;
            let kinds: Vec<usize> = t.get_item(1)?.extract()?;
            if kinds.iter().any(|&k| k >= tile_codes.len()) {
                return Err(bad("a split group's tile outside the catalog"));
            }
            let vectors = [opt_vector(&t.get_item(5)?)?, opt_vector(&t.get_item(6)?)?, opt_vector(&t.get_item(7)?)?];
            split_groups.push(SplitGroup {
                kind: Arc::from(kind.as_str()),
                tiles: Arc::new(kinds.iter().map(|&k| V::Tile(tile_codes[k])).collect()),
                kinds,
                pair: t.get_item(2)?.extract()?,
                kong: t.get_item(3)?.extract()?,
                value: value_of(&t.get_item(4)?)?,
                vectors,
            });
        }
        let kind_codes: Vec<String> = item(setup, "kind_codes")?;
        let s = Setup {
            json_names: super::json_texts(&kind_names),
            json_codes: super::json_texts(&kind_codes),
            kind_codes,
            forms,
            meld_sizes: item(setup, "meld_sizes")?,
            pair_sizes: item(setup, "pair_sizes")?,
            table_hand: item(setup, "table_hand")?,
            split_groups,
            prefilter: item(setup, "prefilter")?,
            reasons: item(setup, "reasons")?,
            limit_sentence: item(setup, "limit_sentence")?,
            reading_work: item(setup, "reading_work")?,
            split_limit: item(setup, "split_limit")?,
            pattern_names: item(setup, "pattern_names")?,
            tally_names: item(setup, "tally_names")?,
            labels: item(setup, "labels")?,
            label_texts: item(setup, "label_texts")?,
            units: item(setup, "units")?,
            combine_names: item(setup, "combine_names")?,
            unit_order: item(setup, "unit_order")?,
            quantity_names: item(setup, "quantity_names")?,
            meld_kinds: meld_kinds.into_iter().map(|(n, p, k)| (n, (p, k))).collect(),
            kind_names,
            tile_codes,
            json_labels: Vec::new(),
            json_patterns: Vec::new(),
            json_units: Vec::new(),
            json_tally: Vec::new(),
        };
        let mut s = s;
        s.json_labels = s.labels.iter().map(|l| l.as_deref().map(super::json_text)).collect();
        s.json_patterns = super::json_texts(&s.pattern_names);
        s.json_units = super::json_texts(&s.units);
        s.json_tally = super::json_texts(&s.tally_names);
        if s.kind_codes.len() != s.kind_names.len() || s.tile_codes.len() != s.kind_names.len() {
            return Err(bad("one name, code and tile code per kind"));
        }
        {
            let sc = scorer.borrow(py);
            let n = sc.program.python_owned.len();
            if [s.pattern_names.len(), s.tally_names.len(), s.labels.len(), s.label_texts.len(), s.units.len()]
                .iter()
                .any(|&x| x != n)
            {
                return Err(bad("one name, label and unit per pattern"));
            }
            if s.combine_names.len() != sc.tally.combines.len() {
                return Err(bad("one name per combine rule"));
            }
            if sc.program.form_conds.as_ref().map_or(true, |c| c.len() != s.forms.len()) {
                return Err(bad("one form per winning form of the rule set"));
            }
        }
        Ok(Hands { setup: s, scorer, tables, melds: Mutex::new(crate::hash::map()), batch: Default::default(), groups: Mutex::new(crate::hash::map()) })
    }

    /// What loops in Rust (the JSON-lines batch) scored with these tables so far: (hands, of those handed
    /// back to the Python side, waits questions the native trials answered for the others).
    fn batch_counts(&self) -> (u64, u64, u64) {
        let [a, b, c] = &self.batch;
        (a.load(Ordering::Relaxed), b.load(Ordering::Relaxed), c.load(Ordering::Relaxed))
    }

    /// Remember a laid-down meld as `score` takes it (`known_meld`).
    fn add_meld(&self, meld: &Bound<'_, PyAny>) -> PyResult<()> {
        let m = meld_of(meld)?;
        if m.tiles.iter().any(|&k| k >= self.setup.kind_names.len()) {
            return Err(bad("a tile outside the catalog"));
        }
        let mut memo = self.melds.lock().unwrap_or_else(|e| e.into_inner());
        if memo.len() >= MELD_MEMO {
            memo.clear();
        }
        memo.insert((m.kind.to_string(), m.tiles.clone()), m);
        Ok(())
    }

    /// One hand scored: (status, work left, payload, waits). Status 0: scored, payload (form, win, readings
    /// meeting the requirements, rejected, groups, listed, None (was the hand: the Python side makes its
    /// reading from the groups), winning tile kind, [(pattern, final count)], values, units, score, total,
    /// best, trace, quantities or None, None (was the reading's text: the Python reading writes it), JSON text
    /// or None, per fan its label where it has expressions and they were computed, else None); 1: no reading (payload: its JSON text when asked for, else None); 2: refused (payload: the sentence); 3: the Python side scores the hand
    /// (payload: why). `melds`: (kind, tile kinds, exposed, pair, kong, value, prefilter vector bytes or
    /// None) each; `waits`: a callable (shape, work left) -> (encoded waits, work left), asked only where
    /// the native wait trials (src/waits/) do not answer; `charge_splits`: as `HandInput::charge_splits`;
    /// `wild` (a hand holding wildcards or stand-ins in play): its tiles classified without and with
    /// stand-ins, ((naturals (kind, physical, winning)), (wilds (physical, winning))) each, and the
    /// reference's `SIGNATURE_FROM`; `groups`: (meld kind, tiles (kind, physical, wild, winning),
    /// concealed, has the winning tile) -> (encoded value, prefilter vector bytes or None), asked once
    /// per group shape (kept); `signatures`: (form position, melds, pairs, work left) -> (0, splits, work)
    /// | (1, None, work) | (2, sentence, work), the reference's signature search (`Waits::signatures`).
    /// A group of such a hand's chosen reading comes back as ((meld kind, tiles), -3 or -4 (the
    /// reference's shared group of a signature reading), concealed).
    /// `waits` of the result: (waits, shape waits) the native trials found (kinds, or None), the work
    /// they took (already off the work left) and how many questions they answered.
    #[pyo3(signature = (concealed, melds, win, self_drawn, settings, flowers, forms, work, waits, json=false, charge_splits=false, wild=None, groups=None, signatures=None))]
    #[allow(clippy::too_many_arguments)]
    fn score<'py>(
        &self,
        py: Python<'py>,
        concealed: Vec<usize>,
        melds: &Bound<'py, PyTuple>,
        win: i64,
        self_drawn: bool,
        settings: &Bound<'py, PyTuple>,
        flowers: &Bound<'py, PyAny>,
        forms: Vec<usize>,
        work: i64,
        waits: &Bound<'py, PyAny>,
        json: bool,
        charge_splits: bool,
        wild: Option<(ClassTuple, ClassTuple, usize)>,
        groups: Option<&Bound<'py, PyAny>>,
        signatures: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut svals = Vec::with_capacity(settings.len());
        for x in settings.iter() {
            svals.push(value_of(&x)?);
        }
        let mut ms = Vec::with_capacity(melds.len());
        for m in melds.iter() {
            ms.push(meld_of(&m)?);
        }
        let n = self.setup.kind_names.len();
        let flowers = tiles_of(flowers)?;
        if concealed.iter().any(|&k| k >= n)
            || win >= n as i64
            || ms.iter().any(|m| m.tiles.iter().any(|&k| k >= n))
            || flowers.iter().any(|v| matches!(v, V::Tile(c) if (c >> 2) as usize >= n))
        {
            return Err(bad("a tile outside the catalog"));
        }
        let input = HandInput {
            concealed,
            melds: ms,
            win: if win < 0 { None } else { Some(win as usize) },
            self_drawn,
            settings: svals,
            flowers,
            forms,
            charge_splits,
            wild: wild.map(|(a, b, signature_from)| WildIn {
                classes: [Classified { naturals: a.0, wilds: a.1 }, Classified { naturals: b.0, wilds: b.1 }],
                signature_from,
            }),
        };
        if let Some(w) = &input.wild {
            let nat = w.classes.iter().flat_map(|c| c.naturals.iter().flat_map(|&(k, p, _)| [k, p]));
            if nat.chain(w.classes.iter().flat_map(|c| c.wilds.iter().map(|x| x.0))).any(|k| k >= n) {
                return Err(bad("a tile outside the catalog"));
            }
        }
        let mut budget = Budget { work };
        let mut cb = PyWaits { cb: waits, groups, signatures, memo: &self.groups };
        // the waits by the native trials where they answer, else asked of the Python callable
        let (got, found, spent, answered) = self
            .with_ctx(py, |ctx| {
                let mut w = TrialWaits::new(ctx.scorer, &input, &mut cb);
                let got = guarded(|| Ok(score_hand(ctx, &input, &mut budget, &mut w)));
                (got, w.found, w.spent, w.answered)
            });
        let got = got.map_err(PyErr::from)?;
        let [w0, w1] = found;
        let found = (w0, w1, spent, answered).into_pyobject(py)?.into_any();
        let work = budget.work;
        let out = match got {
            Err(Fallback(why)) => (3, work, why.into_pyobject(py)?.into_any()),
            Ok(outcome @ HandOutcome::NoReading) => {
                let text = match guarded(|| Ok(outcome.to_json(&self.setup, &input))).map_err(PyErr::from)? {
                    Ok(v) if json => String::from_utf8_lossy(&v).into_pyobject(py)?.into_any(),
                    _ => py.None().into_bound(py),
                };
                (1, work, text)
            }
            Ok(HandOutcome::Refused(s)) => (2, work, s.into_pyobject(py)?.into_any()),
            Ok(outcome @ HandOutcome::Scored(_)) => {
                let text = if json {
                    match guarded(|| Ok(outcome.to_json(&self.setup, &input))).map_err(PyErr::from)? {
                        Ok(v) => String::from_utf8_lossy(&v).into_pyobject(py)?.into_any(),
                        Err(Fallback(why)) => (why,).into_pyobject(py)?.into_any(),
                    }
                } else {
                    py.None().into_bound(py)
                };
                let HandOutcome::Scored(h) = outcome else { unreachable!() };
                (0, work, payload(py, &h, text)?)
            }
        };
        let (status, work, x) = out;
        (status, work, x, found).into_pyobject(py).map(|x| x.into_any())
    }
}

pub(crate) fn payload<'py>(py: Python<'py>, h: &super::ScoredHand, text: Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let vals = |xs: &[V]| -> PyResult<Bound<'py, PyAny>> {
        Ok(PyList::new(py, xs.iter().map(|v| value_to_py(py, v)).collect::<PyResult<Vec<_>>>()?)?.into_any())
    };
    let s = &h.scored;
    let trace = trace_list(py, &s.trace)?;
    let groups = PyList::empty(py);
    for g in &h.reading.groups {
        match *g {
            GroupRef::Declared(i) => groups.append((i as i64, -2i64, false))?,
            GroupRef::Split { id, win_pos, concealed } => groups.append((id as i64, win_pos as i64, concealed))?,
            GroupRef::Built(j) => {
                // -3: a group of its own; -4: the reference's shared group of a signature reading
                let (kind, tiles, concealed, shared) = &h.reading.built[j as usize];
                groups.append(((&**kind, tiles.clone()), if *shared { -4i64 } else { -3 }, *concealed))?
            }
        }
    }
    let r = &h.reading;
    let items: Vec<Bound<'py, PyAny>> = vec![
        r.form.into_pyobject(py)?.into_any(),
        pyo3::types::PyBool::new(py, h.win).to_owned().into_any(),
        h.considered.into_pyobject(py)?.into_any(),
        PyList::new(py, &h.rejected)?.into_any(),
        groups.into_any(),
        pyo3::types::PyBool::new(py, r.listed).to_owned().into_any(),
        py.None().into_bound(py), // the hand: not read by the Python side (its reading is made of the groups)
        match r.win_tile {
            Some(k) => (k as i64).into_pyobject(py)?.into_any(),
            None => (-1i64).into_pyobject(py)?.into_any(),
        },
        PyList::new(py, s.fin.iter().copied())?.into_any(),
        vals(&s.values)?,
        vals(&s.units)?,
        value_to_py(py, &s.score)?,
        value_to_py(py, &s.total)?,
        value_to_py(py, &s.best)?,
        trace.into_any(),
        match &h.quantities {
            Some(q) => vals(q)?,
            None => py.None().into_bound(py),
        },
        py.None().into_bound(py), // the reading's text: the Python reading writes its own
        text,
        PyList::new(py, &h.labels)?.into_any(),
    ];
    Ok(PyTuple::new(py, items)?.into_any())
}
