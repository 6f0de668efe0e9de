//! `Rules.check_win` without a context as one native call: the (melds, pairs) targets of every
//! (laid-down melds, tile count) of one set of winning forms, given once by the Python side
//! (runtime/rules.py `_win_targets`), and the tables' `can_split_any` on the hand's counts. One
//! object per set of forms (`Rules.with_forms` copies share the tables, not the forms). What the
//! tables do not answer (more wildcards than they hold, a count they do not take) is `NotCovered`
//! or `ValueError`, and the caller asks its reference path, which answers as before.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::Tables;

/// Per (laid-down melds, tiles): the (melds, pairs) targets.
type Targets = Vec<(usize, usize, Vec<(usize, usize)>)>;

#[pyclass(module = "_native", frozen)]
pub struct WinCheck {
    tables: Py<Tables>,
    targets: Vec<Vec<Vec<(usize, usize)>>>, // [laid-down melds][tiles]: the targets (none past the ends)
}

#[pymethods]
impl WinCheck {
    /// `targets`: (laid-down melds, tiles, [(melds, pairs), …]) for every pair with targets.
    #[new]
    fn new(tables: Py<Tables>, targets: Targets) -> PyResult<Self> {
        let mut t: Vec<Vec<Vec<(usize, usize)>>> = Vec::new();
        for (m, n, ts) in targets {
            if m > 64 || n > 1024 {
                return Err(PyValueError::new_err("a win target past the tables' bounds"));
            }
            if t.len() <= m {
                t.resize(m + 1, Vec::new());
            }
            if t[m].len() <= n {
                t[m].resize(n + 1, Vec::new());
            }
            t[m][n] = ts;
        }
        Ok(WinCheck { tables, targets: t })
    }

    /// Whether the concealed counts and `wilds` wildcards win with `melds` melds laid down (a method, not
    /// `__call__`: its bound method is called with the fast calling convention).
    fn check(&self, counts: &Bound<'_, PyAny>, wilds: usize, melds: usize) -> PyResult<bool> {
        self.tables.get().with(Some(counts), |core, c| {
            let n = c.iter().map(|&x| x as usize).sum::<usize>() + wilds;
            let Some(ts) = self.targets.get(melds).and_then(|row| row.get(n)) else { return Ok(false) };
            if ts.is_empty() {
                return Ok(false);
            }
            if wilds > core.cap {
                return Err(crate::Error::NotCovered("more wildcards than the tables hold".into()));
            }
            if c.contains(&255) {
                return Err(crate::Error::NotCovered("a count past what the tables take".into()));
            }
            core.can_split_any(c, wilds, ts)
        })
    }
}
