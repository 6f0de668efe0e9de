//! The signature search's face to Python: one observer's memo as a class.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use pyo3::exceptions::PyRuntimeError;
use pyo3::types::{PyList, PyTuple};

use super::*;

/// This thread's number (from 1; 0 is none): who holds a memo for its search (`SigMemo::owner`).
fn thread_no() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    thread_local!(static NO: u64 = NEXT.fetch_add(1, Ordering::Relaxed));
    NO.with(|n| *n)
}

/// The memo's holder for one search: its thread noted while it holds the lock, cleared on the way out.
struct Owned<'a>(&'a AtomicU64);

impl Drop for Owned<'_> {
    fn drop(&mut self) {
        self.0.store(0, Ordering::Release);
    }
}

/// The Python observer's answers (runtime/signatures.py `_native`): the callables it hands over.
struct PyAsk<'py, 'a> {
    py: Python<'py>,
    specs: &'a [Py<PyAny>],
    part: Bound<'py, PyAny>,
    join: Bound<'py, PyAny>,
    unit: Bound<'py, PyAny>,
    templates: Bound<'py, PyAny>,
    targets: Bound<'py, PyAny>,
}

fn slots_of(list: Vec<(usize, bool)>) -> Slots {
    list.into()
}

impl Ask for PyAsk<'_, '_> {
    fn part(&mut self, spec: u32, slots: &Slots, wp: i32) -> Result<u32, Stop> {
        let spec = self.specs.get(spec as usize).ok_or_else(|| Stop::Decline("a shape outside the memo".into()))?;
        let slots = PyTuple::new(self.py, slots.iter().copied())?;
        Ok(self.part.call1((spec.bind(self.py), slots, wp))?.extract()?)
    }

    fn join(&mut self, a: u32, b: u32) -> Result<u32, Stop> {
        Ok(self.join.call1((a, b))?.extract()?)
    }

    fn unit(&mut self) -> Result<u32, Stop> {
        Ok(self.unit.call0()?.extract()?)
    }

    fn templates(&mut self, i: usize) -> Result<Vec<Vec<RawTpl>>, Stop> {
        type Raw = (Vec<(usize, bool)>, Vec<(usize, usize)>, u32, i32, Vec<(u32, i32)>);
        let got: Vec<Vec<Raw>> = self.templates.call1((i,))?.extract()?;
        Ok(got
            .into_iter()
            .map(|l| l.into_iter().map(|(slots, nat, nw, fw, fnat)| (slots_of(slots), nat, nw, fw, fnat)).collect())
            .collect())
    }

    fn targets(&mut self, s: usize) -> Result<Vec<Slots>, Stop> {
        let got: Vec<Vec<(usize, bool)>> = self.targets.call1((s,))?.extract()?;
        Ok(got.into_iter().map(slots_of).collect())
    }
}

/// The native memo of one observer's signature search (kept in the observer's memo by
/// runtime/signatures.py, dropped with it).
#[pyclass(module = "_native")]
pub struct SigMemo {
    memo: Mutex<Memo>,
    specs: Vec<Py<PyAny>>, // the Python side's ShapeSpec objects: the meld shapes, then the pairs
    owner: AtomicU64,      // the thread whose search holds the memo (`thread_no`), 0: none
    waiting: AtomicUsize,  // threads waiting to read it
}

impl SigMemo {
    /// `f` of the memo, waiting for a search another thread runs on it to end (without the GIL, which
    /// that search takes back to call its Python callbacks). A search of this thread holding it (a
    /// callback reading its own memo) is an error: the memo is mid-change, and waiting would never end.
    fn read<T: Send>(&self, py: Python<'_>, f: impl FnOnce(&Memo) -> T + Send) -> PyResult<T> {
        if let Ok(m) = self.memo.try_lock() {
            return Ok(f(&m));
        }
        if self.owner.load(Ordering::Acquire) == thread_no() {
            return Err(PyRuntimeError::new_err("the signature memo is read from inside its own search"));
        }
        self.waiting.fetch_add(1, Ordering::AcqRel);
        let got = py.detach(|| f(&self.memo.lock().unwrap_or_else(|e| e.into_inner())));
        self.waiting.fetch_sub(1, Ordering::AcqRel);
        Ok(got)
    }
}

#[pymethods]
impl SigMemo {
    /// `specs`: the Python side's shapes, the meld shapes first (`n_meld` of them) then the pairs;
    /// `pairs` and `sizes` per shape; `n_kinds`: the catalog's kinds.
    #[new]
    fn new(n_kinds: usize, specs: Vec<Py<PyAny>>, n_meld: usize, pairs: Vec<bool>, sizes: Vec<u32>) -> PyResult<Self> {
        if n_kinds > MAX_KINDS {
            return Err(NotCovered::new_err(format!("the signature search takes at most {MAX_KINDS} tile kinds")));
        }
        if pairs.len() != specs.len() || sizes.len() != specs.len() || n_meld > specs.len() {
            return Err(PyValueError::new_err("one pair flag and one size per shape"));
        }
        Ok(SigMemo { memo: Mutex::new(Memo::new(n_kinds, n_meld, pairs, sizes)), specs, owner: AtomicU64::new(0), waiting: AtomicUsize::new(0) })
    }

    /// Entries the reference's memo dict would hold for the same work (its states, its lists of
    /// options and its pure-wildcard states).
    /// (Each figure waits for a search another thread runs on the memo: `read`.)
    #[getter]
    fn entries(&self, py: Python<'_>) -> PyResult<usize> {
        self.read(py, |m| m.entries())
    }

    /// What the memo holds, as the bound on the kept observers counts it (`Memo::held`).
    #[getter]
    fn held(&self, py: Python<'_>) -> PyResult<usize> {
        self.read(py, |m| m.held())
    }

    /// The numbers the reference's `SigMemo.full` counts: witnesses (with the empty one) and joins.
    #[getter]
    fn numbered(&self, py: Python<'_>) -> PyResult<usize> {
        self.read(py, |m| m.numbered())
    }

    /// Threads waiting to read the memo while a search holds it (what a test of that wait reads).
    #[getter]
    fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Acquire)
    }

    /// `signature_splits` (runtime/signatures.py) for one hand: `counts` per kind, `win_kind` the
    /// natural winning tile's kind (-1: none or a wildcard), `wild_win`, `need` (a winning tile to
    /// place), `code` its part of a state's key; the callbacks number a part (spec, slots, winning
    /// slot), a join (two numbers), the unit, and list a kind's templates and a shape's pure-wild
    /// groups; `sigs` the signatures by number; `budget` a one-item list counted down. Returns the
    /// (signature, groups, index of the winning group) list, or None when the work is used up.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (tables, counts, wilds, melds, pairs, win_kind, wild_win, need, code, sigs, budget, part, join, unit, templates, targets))]
    fn run<'py>(
        &self,
        py: Python<'py>,
        tables: PyRef<'py, Tables>,
        counts: Vec<u8>,
        wilds: u32,
        melds: u32,
        pairs: u32,
        win_kind: i64,
        wild_win: bool,
        need: bool,
        code: u32,
        sigs: Bound<'py, PyList>,
        budget: Bound<'py, PyList>,
        part: Bound<'py, PyAny>,
        join: Bound<'py, PyAny>,
        unit: Bound<'py, PyAny>,
        templates: Bound<'py, PyAny>,
        targets: Bound<'py, PyAny>,
    ) -> PyResult<Py<PyAny>> {
        let Ok(mut memo) = self.memo.try_lock() else {
            return Err(NotCovered::new_err("the signature memo is in use"));
        };
        self.owner.store(thread_no(), Ordering::Release);
        let _owned = Owned(&self.owner); // declared after the guard: dropped before it
        if !memo.takes(&counts, win_kind) {
            return Err(NotCovered::new_err("counts the signature search does not take"));
        }
        let Some(digit) = key_digit(melds, pairs) else {
            return Err(NotCovered::new_err("too many groups for the signature search's keys"));
        };
        let Ok(start) = budget.get_item(0)?.extract::<i64>() else {
            return Err(NotCovered::new_err("a work budget past 64 bits"));
        };
        let mut ask = PyAsk { py, specs: &self.specs, part, join, unit, templates, targets };
        let mut run = Run::new(&tables, &mut ask, (win_kind, wild_win, code), start, digit);
        let got = catch_unwind(AssertUnwindSafe(|| memo.search(&mut run, &counts, wilds, melds, pairs, need)));
        let left = run.budget();
        let got = match got {
            Ok(r) => r,
            Err(_) => {
                memo.clear();
                return Err(NativeError::new_err(format!("the native core failed: {}", Error::Internal(
                    "a panic in the signature search".into()))));
            }
        };
        match got {
            Err(Stop::Decline(why)) => {
                memo.clear(); // what it holds was counted against work given back
                Err(NotCovered::new_err(why))
            }
            Err(Stop::Limit) => {
                budget.set_item(0, left)?;
                Ok(py.None())
            }
            Err(Stop::Unobservable) => {
                memo.clear();
                Err(NotCovered::new_err("a part the Python observer did not give"))
            }
            Err(Stop::Py(e)) => {
                budget.set_item(0, left)?;
                Err(e)
            }
            Ok(None) => Ok(PyList::empty(py).into_any().unbind()),
            Ok(Some(t)) => {
                budget.set_item(0, left)?;
                let out = PyList::empty(py);
                for (sid, groups, win_gi) in memo.splits(t) {
                    let gs = PyList::empty(py);
                    for (spec, slots) in groups {
                        let list = PyList::new(py, slots.iter().copied())?;
                        gs.append((self.specs[spec as usize].bind(py), list))?;
                    }
                    out.append((sigs.get_item(sid as usize)?, gs, win_gi))?;
                }
                Ok(out.into_any().unbind())
            }
        }
    }
}
