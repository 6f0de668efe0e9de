//! The signature search's face to Python: one observer's memo as a class.

use super::*;

/// The native memo of one observer's signature search (kept in the observer's memo by
/// runtime/signatures.py, dropped with it).
#[pyclass(module = "_native")]
pub struct SigMemo {
    memo: Mutex<Memo>,
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
        Ok(SigMemo { memo: Mutex::new(Memo::new(n_kinds, specs, n_meld, pairs, sizes)) })
    }

    /// Entries the reference's memo dict would hold for the same work (its states, its lists of
    /// options and its pure-wildcard states).
    #[getter]
    fn entries(&self) -> usize {
        self.memo.try_lock().map_or(0, |m| m.entries)
    }

    /// The numbers the reference's `SigMemo.full` counts: witnesses (with the empty one) and joins.
    #[getter]
    fn numbered(&self) -> usize {
        self.memo.try_lock().map_or(0, |m| m.wit_item.len().max(m.joined.len()))
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
        if counts.len() != memo.n || counts.iter().any(|&c| c > MAX_COUNT) || win_kind >= memo.n as i64 {
            return Err(NotCovered::new_err("counts the signature search does not take"));
        }
        let groups = (melds + pairs + 1).max(1);
        let digit = (128 / groups).min(16);
        if digit < 4 {
            return Err(NotCovered::new_err("too many groups for the signature search's keys"));
        }
        let Ok(start) = budget.get_item(0)?.extract::<i64>() else {
            return Err(NotCovered::new_err("a work budget past 64 bits"));
        };
        let mut run = Run {
            py,
            tables: &tables,
            part,
            join,
            unit,
            templates,
            targets,
            wild_win,
            win_kind,
            code,
            budget: start,
            digit,
            buf: Vec::with_capacity(counts.len()),
        };
        let mut key = [0u64; WORDS];
        for (k, &c) in counts.iter().enumerate() {
            key[k / PER_WORD] |= (c as u64) << (4 * (k % PER_WORD));
        }
        let got = catch_unwind(AssertUnwindSafe(|| -> Result<Option<u32>, Stop> {
            if lowest(&key) >= 0 {
                let fits = run
                    .tables
                    .core_can_split(&counts, wilds as usize, melds as usize, pairs as usize)
                    .map_err(|e| Stop::Decline(format!("{e}")))?;
                if !fits {
                    return Ok(None);
                }
            }
            memo.rec(&mut run, &key, wilds, melds, pairs, need).map(Some)
        }));
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
                budget.set_item(0, run.budget)?;
                Ok(py.None())
            }
            Err(Stop::Py(e)) => {
                budget.set_item(0, run.budget)?;
                Err(e)
            }
            Ok(None) => Ok(PyList::empty(py).into_any().unbind()),
            Ok(Some(t)) => {
                budget.set_item(0, run.budget)?;
                let (s, l) = memo.tables[t as usize];
                let mut entries: Vec<Entry> = memo.arena[s as usize..(s + l) as usize].to_vec();
                entries.sort_unstable_by_key(|e| e.key);
                let out = PyList::empty(py);
                for e in entries {
                    let gs = PyList::empty(py);
                    let mut win_gi: i64 = -1;
                    let mut wid = e.wit;
                    while wid != 0 {
                        let (src, wp) = memo.items[memo.wit_item[wid as usize] as usize];
                        if wp >= 0 {
                            win_gi = gs.len() as i64;
                        }
                        let (spec, slots) = &memo.placed[src as usize];
                        let slots = slots.bind(py);
                        let list = PyList::new(py, slots.iter())?;
                        gs.append((memo.specs[*spec as usize].bind(py), list))?;
                        wid = memo.wit_next[wid as usize];
                    }
                    out.append((sigs.get_item(e.sid as usize)?, gs, win_gi))?;
                }
                Ok(out.into_any().unbind())
            }
        }
    }
}
