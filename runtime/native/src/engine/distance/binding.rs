//! `DistanceTables`: the native measure (engine/distance.rs `Measure`) for Python — runtime/distance.py
//! hands it the parts, forms and values it worked out and asks it the per-hand questions.

use pyo3::prelude::*;

use super::{Form, Measure, Part};

type PyPart = (Vec<(usize, i64)>, i32, bool, i64);
type PyForm = (Option<i64>, (i64, i64), Option<i64>, bool, Vec<usize>, bool);

fn parts_of(ps: Vec<Vec<Vec<PyPart>>>) -> Vec<Vec<Vec<Part>>> {
    ps.into_iter()
        .map(|b| {
            b.into_iter()
                .map(|at| {
                    at.into_iter()
                        .map(|(members, size, pair, worth)| Part { members, size, pair, worth })
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// `runtime/distance.py`'s per-hand questions on data the Python `Distance` worked out (its `native`).
/// Each answer is None where the hand is outside the packed keys; the caller then asks the reference.
#[pyclass(module = "_native")]
pub struct DistanceTables {
    pub(crate) m: Measure,
}

#[pymethods]
impl DistanceTables {
    #[new]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (flower, copies, blocks, parts, vparts, msizes, psizes, unit, fresh, valued, forms))]
    fn new(
        flower: Vec<bool>,
        copies: Vec<i64>,
        blocks: Vec<Vec<usize>>,
        parts: Vec<Vec<Vec<PyPart>>>,
        vparts: Option<Vec<Vec<Vec<PyPart>>>>,
        msizes: Vec<i64>,
        psizes: Vec<i64>,
        unit: i64,
        fresh: i64,
        valued: bool,
        forms: Vec<PyForm>,
    ) -> PyResult<Self> {
        let forms = forms
            .into_iter()
            .map(|(melds, pairs, groups, concealed, members, floored)| Form {
                melds,
                pairs,
                groups,
                concealed,
                members,
                floored,
            })
            .collect();
        let n = flower.len();
        let m = crate::guarded(|| {
            Measure::new(
                n,
                flower,
                copies,
                blocks,
                parts_of(parts),
                vparts.map(parts_of),
                msizes,
                psizes,
                unit,
                fresh,
                valued,
                forms,
            )
        })?;
        Ok(DistanceTables { m })
    }

    fn distance(&mut self, counts: Vec<i64>, wilds: i64, melds: i64, need: i64) -> PyResult<Option<i64>> {
        let m = &mut self.m;
        Ok(crate::guarded(|| m.distance(&counts, wilds, melds, need))?)
    }

    fn settled(&mut self, counts: Vec<i64>, wilds: i64, melds: i64, need: i64) -> PyResult<Option<i64>> {
        let m = &mut self.m;
        Ok(crate::guarded(|| m.settled(&counts, wilds, melds, need))?)
    }

    fn improving(
        &mut self,
        mut counts: Vec<i64>,
        wilds: i64,
        melds: i64,
        need: i64,
    ) -> PyResult<Option<(i64, Vec<usize>)>> {
        let m = &mut self.m;
        Ok(crate::guarded(|| m.improving(&mut counts, wilds, melds, need))?)
    }
}
