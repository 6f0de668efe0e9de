//! A hand `Lane.score` read and scored (src/batch/lane.rs), kept on the native side: the Python side
//! (runtime/nativelane.py) takes the score at once and asks for the rest — the hand as read, the waits
//! the trials found, the chosen reading's payload — only where a caller reads the result beyond its
//! score. A cold `Rules.score` whose caller reads the score makes none of those Python objects.

use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::binding::payload;
use super::{HandInput, MeldIn, ScoredHand};
use crate::waits::kinds_of;

/// The hand as read: (concealed kinds, ((meld kind, kinds), …), winning kind or -1, flower kinds) —
/// what runtime/nativelane.py makes the hand's `Hand` of.
pub(crate) fn read_tuple<'py>(
    py: Python<'py>,
    concealed: &[usize],
    melds: &[MeldIn],
    win: Option<usize>,
    flowers: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let melds_out = PyTuple::new(py, melds.iter().map(|m| (&*m.kind, m.tiles.clone())).collect::<Vec<_>>())?;
    Ok((concealed.to_vec(), melds_out, win.map_or(-1, |k| k as i64), flowers.to_vec()).into_pyobject(py)?.into_any())
}

/// One hand a lane read (and, status 0, scored): no Python object in it, so it is no work for the
/// garbage collector.
#[pyclass(module = "_native", frozen)]
pub struct LaneHand {
    concealed: Vec<usize>,
    melds: Vec<MeldIn>,
    win: Option<usize>,
    flowers: Vec<usize>,
    found: [Option<Vec<usize>>; 2],
    spent: i64,
    scored: Option<Box<ScoredHand>>,
}

impl LaneHand {
    pub(crate) fn new(inp: HandInput, found: [Option<Vec<usize>>; 2], spent: i64, scored: Option<Box<ScoredHand>>) -> Self {
        let flowers = kinds_of(&inp.flowers);
        LaneHand { concealed: inp.concealed, melds: inp.melds, win: inp.win, flowers, found, spent, scored }
    }
}

#[pymethods]
impl LaneHand {
    /// The hand as read (`read_tuple`).
    fn read<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        read_tuple(py, &self.concealed, &self.melds, self.win, &self.flowers)
    }

    /// What the native wait trials found: (waits or None, shape waits or None, the work they took).
    fn found<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let [w0, w1] = &self.found;
        Ok((w0.clone(), w1.clone(), self.spent).into_pyobject(py)?.into_any())
    }

    /// The scored hand's payload as `Hands.score` gives it (src/hand/binding.rs `payload`); None for a
    /// hand not scored.
    fn payload<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        match &self.scored {
            Some(h) => payload(py, h, py.None().into_bound(py)).map(Some),
            None => Ok(None),
        }
    }
}
