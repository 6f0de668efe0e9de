//! paili's native core, bound with PyO3. Its only input is the versioned JSON rule set; the Python
//! runtime (runtime/backend.py) asks it for structural win checks and waits, and keeps the pure-Python
//! implementation as the reference every answer here is tested against.
//!
//! No panic reaches Python: every entry point runs under `catch_unwind`, and a panic becomes
//! `NativeError` with one sentence (the tables are then started afresh). Input the core does not take
//! (a construct it does not evaluate, more wildcards than its tables hold) is `NotCovered`, and the
//! caller answers with the Python backend instead.

mod batch;
mod blocks;
mod catalog;
mod context_table;
mod engine;
mod expr;
mod hand;
mod hash;
mod notation;
mod patterns_binding;
mod py_values;
mod program;
mod ruleset;
mod score;
mod signatures;
mod tally;
mod waits;
mod wincheck;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyInt, PyString, PyTuple};

use crate::blocks::Tables as Core;
use crate::catalog::Catalog;
use crate::expr::{Settings, Val};
use crate::notation::Notation;
pub(crate) use crate::py_values::{kind_field_to_py, tiles_of, value_of, value_to_py};
use crate::patterns_binding::Patterns;

// The allocator: the core builds and drops many small vectors and maps per hand (readings, tallies,
// JSON output), and profiles showed the system allocator at about a sixth of all instructions; mimalloc
// (a C library, built by the `mimalloc` crate with the C compiler CI already has) serves the same
// requests faster. Allocation does not change answers; BENCHMARKS.md ("The native core's allocator") has
// the figures, Cargo.toml why transparent huge pages are off.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

create_exception!(_native, NotCovered, PyValueError, "The native core does not take this input; ask the Python backend.");
create_exception!(_native, NativeError, PyRuntimeError, "The native core failed (an internal error).");

pub enum Error {
    Input(String),      // bad input: the caller's mistake, one sentence
    NotCovered(String), // valid, but outside what the native core evaluates
    Internal(String),   // a bug
}

impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
        match e {
            Error::Input(m) => PyValueError::new_err(m),
            Error::NotCovered(m) => NotCovered::new_err(m),
            Error::Internal(m) => NativeError::new_err(format!("the native core failed: {m}")),
        }
    }
}

/// A rule set's JSON as the Python side hands it: a str, or the bytes of a file (its UTF-8 checked
/// here). The quick batch hands over the verified compiled file's bytes as read: decoding 0.5 MB of
/// mixed-script text to a str, only for it to be encoded back to UTF-8 here, cost a few milliseconds of
/// every batch's start-up.
pub(crate) fn rules_text<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<&'a str> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return std::str::from_utf8(b.as_bytes())
            .map_err(|_| PyValueError::new_err("the rule set is not valid JSON (its bytes are not UTF-8)"));
    }
    obj.cast::<PyString>()?.to_str()
}

fn guarded<T>(f: impl FnOnce() -> Result<T, Error>) -> Result<T, Error> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(_) => Err(Error::Internal("a panic on this input".into())),
    }
}

/// Counts per tile kind, from bytes or a sequence of small non-negative ints.
fn counts_of(obj: &Bound<'_, PyAny>, buf: &mut Vec<u8>) -> PyResult<()> {
    buf.clear();
    if let Ok(b) = obj.cast::<PyBytes>() {
        buf.extend_from_slice(b.as_bytes());
        return Ok(());
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        // the common form from Python: read each int directly (PyO3's general extraction is slower)
        for i in 0..t.len() {
            let item = t.get_borrowed_item(i)?;
            let v = unsafe { pyo3::ffi::PyLong_AsLong(item.as_ptr()) };
            if v == -1 && PyErr::occurred(obj.py()) {
                drop(PyErr::fetch(obj.py()));
                return Err(PyValueError::new_err("a tile count must be a whole number"));
            }
            if v < 0 {
                return Err(PyValueError::new_err("a tile count cannot be negative"));
            }
            buf.push(v.min(255) as u8);
        }
        return Ok(());
    }
    for x in obj.try_iter()? {
        buf.push(small(&x?)?);
    }
    Ok(())
}

fn small(x: &Bound<'_, PyAny>) -> PyResult<u8> {
    let v: i64 = x.extract().map_err(|_| PyValueError::new_err("a tile count must be a whole number"))?;
    if v < 0 {
        return Err(PyValueError::new_err("a tile count cannot be negative"));
    }
    Ok(v.min(255) as u8)
}

fn setting_value(v: &Bound<'_, PyAny>) -> PyResult<Val> {
    if v.is_none() {
        return Ok(Val::None);
    }
    if let Ok(b) = v.cast::<PyBool>() {
        return Ok(Val::Bool(b.is_true()));
    }
    if v.cast::<PyInt>().is_ok() {
        return Ok(Val::Int(v.extract()?));
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(Val::Str(s.to_str()?.to_owned()));
    }
    Err(NotCovered::new_err("the native catalog takes room options that are none, true/false, whole numbers or text"))
}

/// Room option values by name as the settings the lowering reads (`option:NAME`), each refused with
/// `NotCovered` where the native catalog does not take its type.
pub(crate) fn option_settings(options: Option<&Bound<'_, PyDict>>) -> PyResult<Settings> {
    let mut settings = Settings::new();
    if let Some(d) = options {
        for (k, v) in d.iter() {
            let name: String = k.extract()?;
            settings.insert(format!("option:{name}"), setting_value(&v)?);
        }
    }
    Ok(settings)
}

struct State {
    core: Core,
    buf: Vec<u8>,
}

/// The structural tables of one rule set under one choice of room options.
#[pyclass(module = "_native", frozen)]
pub(crate) struct Tables {
    state: Mutex<State>,
    kinds: Vec<(String, i64)>,
    blocks: Vec<Vec<usize>>,
    notation: Notation,
    catalog_index: Vec<Option<usize>>, // declared kind -> catalog index (None: not in play)
    split_groups: Vec<(usize, Vec<usize>)>,
    items: std::sync::OnceLock<Vec<Py<PyAny>>>, // the Python side's object for each split group
}

impl Tables {
    /// Run `f` on the tables (and the counts, when given) under the lock, with panics caught; after
    /// a panic whatever it left half-built is dropped.
    pub(crate) fn with<T>(&self, counts: Option<&Bound<'_, PyAny>>, f: impl FnOnce(&mut Core, &[u8]) -> Result<T, Error>) -> PyResult<T> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let mut buf = std::mem::take(&mut st.buf);
        if let Some(c) = counts {
            counts_of(c, &mut buf)?;
        }
        let r = guarded(|| f(&mut st.core, &buf));
        st.buf = buf;
        if let Err(Error::Internal(_)) = &r {
            st.core.reset();
        }
        r.map_err(PyErr::from)
    }

    /// `splits_plain` for the native readings (src/hand/), the lock held for this one answer; None when
    /// the Python side has not checked that the tables' split groups are its own.
    pub(crate) fn core_splits_plain(&self, counts: &[u8], melds: usize, pairs: usize, limit: usize) -> Result<Vec<Vec<u32>>, Error> {
        if self.items.get().is_none() {
            return Err(Error::NotCovered("the split items are not set".into()));
        }
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let r = guarded(|| st.core.splits_plain(counts, melds, pairs, limit));
        if let Err(Error::Internal(_)) = &r {
            st.core.reset();
        }
        r
    }

    /// `splits_plain_into` for the native readings (src/hand/): the splits one after another in `out`,
    /// `melds + pairs` ids each; their number. Refused as `core_splits_plain` refuses.
    pub(crate) fn core_splits_plain_into(&self, counts: &[u8], melds: usize, pairs: usize, limit: usize, out: &mut Vec<u32>) -> Result<usize, Error> {
        if self.items.get().is_none() {
            return Err(Error::NotCovered("the split items are not set".into()));
        }
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let r = guarded(|| st.core.splits_plain_into(counts, melds, pairs, limit, out));
        if let Err(Error::Internal(_)) = &r {
            st.core.reset();
        }
        r
    }

    /// `splits_wild` for the native readings of a hand holding wildcards (src/hand/wild.rs), the lock
    /// held for this one answer; None where the reference raises `SplitLimit`.
    pub(crate) fn core_splits_wild(&self, counts: &[u8], wilds: usize, melds: usize, pairs: usize, limit: usize) -> Result<Option<Vec<Vec<blocks::WildItem>>>, Error> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let r = guarded(|| st.core.splits_wild(counts, wilds, melds, pairs, limit));
        if let Err(Error::Internal(_)) = &r {
            st.core.reset();
        }
        r
    }

    /// The meld kind of a hand shape of the tables, and whether it is a pair.
    pub(crate) fn core_shape_of(&self, spec: usize) -> Option<(String, bool)> {
        let st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        st.core.shape_of(spec).map(|(n, p)| (n.to_owned(), p))
    }

    /// The most wildcards the tables take.
    pub(crate) fn core_cap(&self) -> usize {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).core.cap
    }

    /// `can_split` for the signature search (src/signatures/): the lock is held for this one answer
    /// only, never while Python runs.
    pub(crate) fn core_can_split(&self, counts: &[u8], wilds: usize, melds: usize, pairs: usize) -> Result<bool, Error> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let r = guarded(|| st.core.probe_split_any(counts, wilds, &[(melds, pairs)]));
        if let Err(Error::Internal(_)) = &r {
            st.core.reset();
        }
        r
    }

    /// `can_split` of several targets, the hand's option set made once for all of them (the wins'
    /// structural test, src/hand/trial.rs `splits_any`): the lock held for this one answer.
    pub(crate) fn core_can_split_any(&self, counts: &[u8], wilds: usize, targets: &[(usize, usize)]) -> Result<bool, Error> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let r = guarded(|| st.core.probe_split_any(counts, wilds, targets));
        if let Err(Error::Internal(_)) = &r {
            st.core.reset();
        }
        r
    }

    /// `completing_kinds` for the wait trials of a rule set with wildcards (src/hand/trial.rs
    /// `splits_completing`): one answer for every kind, the lock held for it.
    pub(crate) fn core_completing_kinds(&self, counts: &[u8], wilds: usize, targets: &[(usize, usize)]) -> Result<Vec<usize>, Error> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let r = guarded(|| st.core.completing_kinds(counts, wilds, targets));
        if let Err(Error::Internal(_)) = &r {
            st.core.reset();
        }
        r
    }

    /// `unmendable` for the game's exact shortcuts (src/engine/winning/shortcut.rs) of a hand given as its
    /// tiles, those of the `free` kinds counted as free: the lock held for this one answer.
    pub(crate) fn core_unmendable_tiles(&self, tiles: &[usize], free: &[bool], anything: bool) -> Result<i64, Error> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let r = guarded(|| st.core.unmendable_tiles(tiles, free, anything));
        if let Err(Error::Internal(_)) = &r {
            st.core.reset();
        }
        r
    }

    /// `blocks_min_wilds` for the game's not-ready shortcut, which keeps each seat's block keys and
    /// asks only the blocks whose tiles changed: the lock held for these answers.
    pub(crate) fn core_blocks_min_wilds(&self, asks: &mut [(usize, u128, u8)], alone: bool) -> Result<(), Error> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let r = guarded(|| {
            st.core.blocks_min_wilds(asks, alone);
            Ok(())
        });
        if let Err(Error::Internal(_)) = &r {
            st.core.reset();
        }
        r
    }

    /// The tables' `key_places` and cap, for keys made outside them.
    pub(crate) fn core_key_places(&self) -> (Vec<(usize, u32)>, usize, usize) {
        let st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let (place, blocks) = st.core.key_places();
        (place, blocks, st.core.cap)
    }

    /// (`natural_blocks(free)`, `wildcards_play_anything(flower)`) of the tables.
    pub(crate) fn core_mend_shape(&self, free: &[bool], flower: &[bool]) -> (usize, bool) {
        let st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        (st.core.natural_blocks(free), st.core.wildcards_play_anything(flower))
    }
}

#[pymethods]
impl Tables {
    /// `ruleset_json`: the versioned JSON rule set; `options`: room option values by name (the others
    /// take their defaults); `wild_cap`: the most wildcards a hand can hold (bounds the tables).
    #[new]
    #[pyo3(signature = (ruleset_json, options=None, wild_cap=0))]
    fn new(ruleset_json: &Bound<'_, PyAny>, options: Option<&Bound<'_, PyDict>>, wild_cap: usize) -> PyResult<Self> {
        let ruleset_json = rules_text(ruleset_json)?;
        let settings = option_settings(options)?;
        let (core, kinds, notation, catalog_index) = guarded(|| {
            let rs = ruleset::parse(ruleset_json)?;
            let cat = Catalog::build(&rs, &settings)?;
            let core = Core::build(&rs, &cat, wild_cap)?;
            let mut index = vec![None; rs.kinds.len()];
            for (i, k) in cat.kinds.iter().enumerate() {
                index[k.decl] = Some(i);
            }
            let kinds = cat.kinds.iter().map(|k| (k.name.clone(), k.copies)).collect::<Vec<_>>();
            Ok((core, kinds, Notation::new(&rs), index))
        })
        .map_err(PyErr::from)?;
        let blocks = core.block_kinds();
        let split_groups = core.split_groups.clone();
        Ok(Tables {
            state: Mutex::new(State { core, buf: Vec::new() }),
            kinds,
            blocks,
            notation,
            catalog_index,
            split_groups,
            items: std::sync::OnceLock::new(),
        })
    }

    /// The tile kinds in play, in catalog order: (name, copies).
    fn kinds(&self) -> Vec<(String, i64)> {
        self.kinds.clone()
    }

    /// Per kind: whether a wildcard may stand for it.
    fn wild_ok(&self) -> PyResult<Vec<bool>> {
        self.with(None, |core, _| Ok(core.wild_ok.clone()))
    }

    /// The independent blocks of kinds (catalog indexes).
    fn blocks(&self) -> Vec<Vec<usize>> {
        self.blocks.clone()
    }

    /// Every group of natural tiles a hand shape forms, as `splits_plain` refers to them: (index of the
    /// shape among the rule set's hand shapes, its kinds in slot order).
    fn split_groups(&self) -> Vec<(usize, Vec<usize>)> {
        self.split_groups.clone()
    }

    /// The objects `splits_plain` hands back for the split groups, one per entry of `split_groups`
    /// (set once; the Python side keeps them for the life of the rule set).
    fn set_split_items(&self, items: Vec<Py<PyAny>>) -> PyResult<()> {
        if items.len() != self.split_groups.len() {
            return Err(PyValueError::new_err("one item per split group"));
        }
        self.items.set(items).map_err(|_| PyValueError::new_err("the split items are set already"))
    }

    /// Every split of a hand without wildcards into exactly `melds` melds and `pairs` pairs (Python
    /// `BlockWin.splits_plain`, in its order), each a list of the split items; at most `limit + 1`
    /// of them (the caller refuses more than `limit`).
    fn splits_plain<'py>(
        &self,
        py: Python<'py>,
        counts: &Bound<'py, PyAny>,
        melds: usize,
        pairs: usize,
        limit: usize,
    ) -> PyResult<Bound<'py, pyo3::types::PyList>> {
        let Some(items) = self.items.get() else {
            return Err(NotCovered::new_err("the split items are not set"));
        };
        let got = self.with(Some(counts), |core, c| core.splits_plain(c, melds, pairs, limit))?;
        let out = pyo3::types::PyList::empty(py);
        for split in got {
            let l = pyo3::types::PyList::new(py, split.iter().map(|&i| items[i as usize].bind(py)))?;
            out.append(l)?;
        }
        Ok(out)
    }

    /// The most wildcards the tables hold; more is `NotCovered`.
    #[getter]
    fn cap(&self) -> PyResult<usize> {
        self.with(None, |core, _| Ok(core.cap))
    }

    /// Can these natural tiles (counts per kind) and `wilds` wildcards form exactly `melds` melds and
    /// `pairs` pairs?
    fn can_split(&self, counts: &Bound<'_, PyAny>, wilds: usize, melds: usize, pairs: usize) -> PyResult<bool> {
        self.with(Some(counts), |core, c| core.can_split(c, wilds, melds, pairs))
    }

    /// Whether any of `targets` ((melds, pairs) pairs) fits: one call for a whole win check.
    fn can_split_any(&self, counts: &Bound<'_, PyAny>, wilds: usize, targets: Vec<(usize, usize)>) -> PyResult<bool> {
        self.with(Some(counts), |core, c| core.can_split_any(c, wilds, &targets))
    }

    /// `can_split_any` by the search that stops at the first split (src/blocks/probe.rs: the wins'
    /// structural test); the same answer.
    fn probe_split_any(&self, counts: &Bound<'_, PyAny>, wilds: usize, targets: Vec<(usize, usize)>) -> PyResult<bool> {
        self.with(Some(counts), |core, c| core.probe_split_any(c, wilds, &targets))
    }

    /// Many win checks in one call (for batches and benchmarks): `hands` is one bytes object of
    /// `len(kinds)` counts per hand; returns one bool per hand.
    fn can_split_many(&self, hands: &Bound<'_, PyBytes>, wilds: usize, targets: Vec<(usize, usize)>) -> PyResult<Vec<bool>> {
        let n = self.kinds.len();
        let data = hands.as_bytes();
        if n == 0 || data.len() % n != 0 {
            return Err(PyValueError::new_err(format!("the hands must be {n} counts each")));
        }
        self.with(None, |core, _| {
            data.chunks(n).map(|c| core.can_split_any(c, wilds, &targets)).collect()
        })
    }

    /// The kinds (catalog indexes) whose one more natural tile lets the hand split into one of
    /// `targets`; flowers and kinds held in full are not left out (the caller does that).
    fn completing_kinds(&self, counts: &Bound<'_, PyAny>, wilds: usize, targets: Vec<(usize, usize)>) -> PyResult<Vec<usize>> {
        self.with(Some(counts), |core, c| core.completing_kinds(c, wilds, &targets))
    }

    /// The tiles written in `text` as catalog indexes, in order; None when the text has a mistake or
    /// names a tile not in play (runtime/notation.py then says which).
    fn parse(&self, text: &str) -> PyResult<Option<Vec<usize>>> {
        guarded(|| {
            Ok(self.notation.parse(text).and_then(|decl| decl.iter().map(|&d| self.catalog_index[d]).collect()))
        })
        .map_err(PyErr::from)
    }

    /// Counts per catalog kind of every tile in `texts` (a hand, its melds, its winning tile), or None
    /// when one has a mistake, names a tile not in play, or uses more copies of a kind than exist.
    fn tile_counts(&self, texts: Vec<String>) -> PyResult<Option<Vec<u8>>> {
        guarded(|| {
            let mut counts = vec![0i64; self.kinds.len()];
            for t in &texts {
                let Some(decl) = self.notation.parse(t) else { return Ok(None) };
                for d in decl {
                    let Some(i) = self.catalog_index[d] else { return Ok(None) };
                    counts[i] += 1;
                    if counts[i] > self.kinds[i].1 {
                        return Ok(None);
                    }
                }
            }
            Ok(Some(counts.into_iter().map(|c| c as u8).collect()))
        })
        .map_err(PyErr::from)
    }

    /// Panics inside the guard every call runs under: the tests check that this is `NativeError` with
    /// one sentence and that the tables answer correctly afterwards.
    fn _panic_for_test(&self) -> PyResult<()> {
        self.with(None, |_, _| -> Result<(), Error> { panic!("a test of the panic guard") })
    }

    /// Forget the memoised option sets.
    fn reset(&self) -> PyResult<()> {
        self.with(None, |core, _| {
            core.reset();
            Ok(())
        })
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Input(m) | Error::NotCovered(m) | Error::Internal(m) => f.write_str(m),
        }
    }
}

/// paili's native core: structural win checks and waits from the JSON rule set.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    engine::register(m)?;
    m.add_class::<Tables>()?;
    m.add_class::<Patterns>()?;
    m.add_class::<score::Scorer>()?;
    m.add_class::<hand::binding::Hands>()?;
    m.add_class::<signatures::SigMemo>()?;
    m.add_class::<signatures::SigSearch>()?;
    batch::register(m)?;
    m.add_class::<wincheck::WinCheck>()?;
    m.add_class::<context_table::ContextTable>()?;
    m.add("NotCovered", m.py().get_type::<NotCovered>())?;
    m.add("NativeError", m.py().get_type::<NativeError>())?;
    m.add("VERSION", env!("CARGO_PKG_VERSION"))?;
    m.add("FORMAT_VERSION", ruleset::VERSION)?;
    Ok(())
}
