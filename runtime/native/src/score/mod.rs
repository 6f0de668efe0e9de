//! Scoring a hand's readings natively, from the raw counts to the reading that counts: each reading's
//! raw counts (program.rs), then what they become (tally.rs: exclusions, `combine`, the `max` units,
//! units), the one pattern that reads a unit counted with the units known (as runtime/fastscore.py
//! `FastScorer.evaluate` does: the units it reads must come out the same), the requirements in order,
//! the score's expressions and the defaults of `total` and `best`; and the reading chosen as
//! runtime/hand_score.py chooses it: the highest (best, score) among the readings meeting every
//! requirement, the first found on ties; when none does, the highest of the others. The Python side
//! (runtime/nativescore.py) builds the result object of the chosen reading only.
//!
//! Anything the programs stop on (`Stop::Bail`: a value the reference would raise on or that leaves
//! what they hold, a combination search past its budget, the units a unit reader reads changing)
//! hands the whole hand back to the Python scorer, which then gives the reference's result.
//!
//! Here the `Scorer` and its Python surface; each reading scored and the one that counts chosen in
//! choose.rs (resuming where a reading first reads the hand's waits), the readings as the Python side hands
//! them over in decode.rs.

mod choose;
mod decode;

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

use crate::catalog::Catalog;
use crate::program::{Program, Reading, Stop, V};
use crate::blocks::Tables as Core;
use crate::tally::Tally;
use crate::waits::{as_value, kinds_of, OwnedHand, WaitHand, WaitRules, WaitState};
use crate::{guarded, kind_field_to_py, option_settings, rules_text, ruleset, tiles_of, value_of, value_to_py, Error};

pub(crate) use choose::Scored;
pub(crate) use decode::trace_list;
use decode::decode;

/// The scoring programs of one rule set under one choice of room options.
#[pyclass(module = "_native")]
pub struct Scorer {
    pub(crate) program: Program,
    pub(crate) tally: Tally,
    pub(crate) waits: Result<WaitState, String>, // the wait trials (src/waits/), or why this rule set has none
}

#[pymethods]
impl Scorer {
    /// Refused with `NotCovered` (and the reason) when the values, requirements or score formula do
    /// not lower, or the patterns' programs do not.
    #[new]
    #[pyo3(signature = (ruleset_json, options=None))]
    fn new(ruleset_json: &Bound<'_, PyAny>, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let ruleset_json = rules_text(ruleset_json)?;
        let settings = option_settings(options)?;
        let (program, tally, waits) = guarded(|| {
            let rs = ruleset::parse(ruleset_json)?;
            let cat = Catalog::build(&rs, &settings)?;
            let program = Program::build(ruleset_json, &cat)?;
            if let Err(why) = &program.scoring {
                return Err(Error::NotCovered(why.clone()));
            }
            let doc = crate::ruleset::json_doc(ruleset_json)?;
            let m = doc.get("ruleset").and_then(serde_json::Value::as_object).ok_or_else(|| Error::NotCovered("a rule set without patterns".into()))?;
            let tally = Tally::build(m)?;
            let waits = Core::build(&rs, &cat, 0)
                .and_then(|core| Ok(WaitState::new(WaitRules::build(ruleset_json, &cat, &core, &program)?, core)))
                .map_err(|e| e.to_string());
            Ok((program, tally, waits))
        })
        .map_err(PyErr::from)?;
        Ok(Scorer { program, tally, waits })
    }

    /// The setting references the programs read, in the order `score_hand` takes their values.
    fn settings(&self) -> Vec<String> {
        self.program.settings.clone()
    }

    fn kinds(&self) -> Vec<String> {
        self.program.kinds.clone()
    }

    fn fields(&self) -> Vec<String> {
        self.program.fields.clone()
    }

    fn kind_field<'py>(&self, py: Python<'py>, i: usize, f: usize) -> PyResult<Bound<'py, PyAny>> {
        kind_field_to_py(py, &self.program, i, f)
    }

    /// As `Patterns.set_prefilter`.
    fn set_prefilter(&mut self, tests: Vec<Vec<(usize, u8, i64)>>) -> PyResult<()> {
        if tests.len() != self.program.python_owned.len() {
            return Err(pyo3::exceptions::PyValueError::new_err("one list of prefilter tests per pattern"));
        }
        self.program.set_prefilter(tests);
        Ok(())
    }

    /// Why this rule set's waits are not found natively ("" when they are: src/waits/).
    fn waits_declined(&self) -> String {
        match &self.waits {
            Ok(_) => String::new(),
            Err(m) => m.clone(),
        }
    }

    /// Python `Scoring.wait_kinds(shape)` of a hand without its winning tile: (the kinds, in catalog
    /// order, the work spent), or why the reference must answer this hand (None: `waits_declined`).
    /// `concealed`, `melds`, `work` as `score_hand`'s `hand`; `flowers` their kinds.
    #[allow(clippy::too_many_arguments)]
    fn waits<'py>(
        &self,
        py: Python<'py>,
        settings: &Bound<'py, PyTuple>,
        self_drawn: bool,
        flowers: Vec<usize>,
        concealed: &Bound<'py, PyAny>,
        melds: &Bound<'py, PyAny>,
        shape: bool,
        work: i64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let Ok(ws) = &self.waits else { return Ok(py.None().into_bound(py)) };
        let mut svals = Vec::with_capacity(settings.len());
        for x in settings.iter() {
            svals.push(value_of(&x)?);
        }
        let h: OwnedHand = ws.hand_of(concealed, melds)?;
        let wh = WaitHand { concealed: &h.concealed, melds: &h.melds, flowers: &flowers, self_drawn, settings: &svals };
        let mut left = work;
        match ws.answer(&self.program, &wh, shape, &mut left) {
            Ok(kinds) => Ok((kinds, work - left).into_pyobject(py)?.into_any()),
            Err(why) => Ok(why.0.into_pyobject(py)?.into_any()),
        }
    }

    /// Every reading of one hand scored, the one that counts chosen. `readings`: per reading (groups,
    /// tiles, hand, win_tile, win_group, form, packed) as `Patterns.raw_counts` takes them. Returns
    /// 0 (the Python side scores this hand), 1 / 2 (call again with the waits / shape waits), or
    /// (chosen reading, win, readings meeting the requirements, [(reading, requirement)] of the others
    /// in order, [(pattern, final count)], their values, unit values, score, total, best,
    /// [(pattern, 0 removed by | 1 count lowered | 2 combine rule, by pattern or rule, fewer)],
    /// quantities or None).
    ///
    /// `hand`: (concealed kinds, ((meld kind, kinds), …), the work the hand may still spend) of the
    /// hand without its winning tile, for the wait trials (src/waits/): given, the waits the
    /// readings read are found here (a hand they decline is 0) and handed back after the above:
    /// waits and shape waits (kinds, or None when not read) and the work they spent.
    ///
    /// `ask`: called with (`shape`, the work the native trials spent that it is to take off the hand's
    /// first, the waits and shape waits they found so far, kinds or None) where the waits are read and
    /// neither given nor found by the trials; it answers (the waits
    /// encoded, the hand's work left after the reference's trials) or None (then 0). Either way the
    /// scoring goes on where the waits were first read, and the work handed back is what `ask` has not
    /// taken off. Without `ask`, a rule set without trials gets 1 / 2 as above.
    #[pyo3(signature = (settings, self_drawn, flowers, waits, shape_waits, readings, hand=None, ask=None))]
    #[allow(clippy::too_many_arguments)]
    fn score_hand<'py>(
        &self,
        py: Python<'py>,
        settings: &Bound<'py, PyTuple>,
        self_drawn: bool,
        flowers: &Bound<'py, PyAny>,
        waits: &Bound<'py, PyAny>,
        shape_waits: &Bound<'py, PyAny>,
        readings: &Bound<'py, PyTuple>,
        hand: Option<&Bound<'py, PyTuple>>,
        ask: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut svals = Vec::with_capacity(settings.len());
        for x in settings.iter() {
            svals.push(value_of(&x)?);
        }
        let flowers = Arc::new(tiles_of(flowers)?);
        let opt_value = |o: &Bound<'py, PyAny>| -> PyResult<Option<V>> { if o.is_none() { Ok(None) } else { value_of(o) } };
        let waits = opt_value(waits)?;
        let shape_waits = opt_value(shape_waits)?;
        let n_kinds = self.program.n_kinds() as u32;
        let mut owned = Vec::with_capacity(readings.len());
        for r in readings.iter() {
            let r = r.cast::<PyTuple>().map_err(|_| pyo3::exceptions::PyValueError::new_err("a reading must be a tuple"))?;
            if r.len() != 7 {
                return Err(pyo3::exceptions::PyValueError::new_err("a reading is 7 items"));
            }
            owned.push(decode(r)?);
        }
        if owned.iter().any(|o| {
            let bad = |v: &V| matches!(v, V::Tile(c) if c >> 2 >= n_kinds);
            o.groups.iter().any(|g| g.tiles.iter().any(bad))
                || o.tiles.as_ref().is_some_and(|t| t.iter().any(bad))
                || o.hand.as_ref().is_some_and(|t| t.iter().any(bad))
                || bad(&o.win_tile)
        }) || flowers.iter().any(|v| matches!(v, V::Tile(c) if c >> 2 >= n_kinds))
        {
            return Err(pyo3::exceptions::PyValueError::new_err("a tile code outside the catalog"));
        }
        let sc = match &self.program.scoring {
            Ok(s) => s,
            Err(_) => return Ok(0i64.into_pyobject(py)?.into_any()),
        };
        let packs: Vec<Option<Vec<u8>>> = readings
            .iter()
            .map(|r| r.get_item(6).ok().and_then(|p| p.cast::<PyBytes>().ok().map(|b| b.as_bytes().to_vec())))
            .collect();
        let trials = match (hand, &self.waits) {
            (Some(h), Ok(ws)) => {
                let work: i64 = h.get_item(2)?.extract()?;
                Some((ws, ws.hand_of(&h.get_item(0)?, &h.get_item(1)?)?, work))
            }
            _ => None,
        };
        let flower_kinds = kinds_of(&flowers);
        let rs: Vec<Reading> = owned
            .into_iter()
            .zip(&packs)
            .map(|(o, pk)| Reading {
                groups: o.groups,
                tiles: o.tiles,
                hand: o.hand,
                declared: o.declared,
                win_tile: o.win_tile,
                win_group: o.win_group,
                form: o.form,
                self_drawn,
                flowers: flowers.clone(),
                waits: waits.clone(),
                shape_waits: shape_waits.clone(),
                settings: &svals,
                packed: pk.as_deref(),
            })
            .collect();
        let mut found: [Option<Vec<usize>>; 2] = [None, None];
        let mut spent = 0i64; // by the native trials
        let mut applied = 0i64; // of it, taken off the hand's work by `ask` already
        let mut py_spent = 0i64; // by the reference's trials, through `ask`
        let got = {
            // the waits where a pattern first reads them: the native trials', else `ask`'s; the scoring
            // goes on from there (what was counted stays counted), as the whole-hand path does
            let mut more = |shape: bool| -> Option<V> {
                if let Some((ws, h, work)) = &trials {
                    let wh = WaitHand { concealed: &h.concealed, melds: &h.melds, flowers: &flower_kinds, self_drawn, settings: &svals };
                    let mut left = work - spent - py_spent;
                    if let Ok(kinds) = ws.answer(&self.program, &wh, shape, &mut left) {
                        spent = work - py_spent - left;
                        let v = as_value(&ws.rules, &kinds);
                        found[shape as usize] = Some(kinds);
                        return Some(v);
                    }
                }
                let ask = ask?;
                // the native trials' work is taken off the hand's, and what they found kept with it, before
                // the reference's trials run (so neither is found or charged again, whatever follows)
                let got = ask.call1((shape, spent - applied, found[0].clone(), found[1].clone())).ok()?;
                applied = spent;
                if got.is_none() {
                    return None;
                }
                let (w, left): (Bound<'py, PyAny>, i64) = got.extract().ok()?;
                if let Some((_, _, work)) = &trials {
                    py_spent = work - applied - left;
                }
                value_of(&w).ok().flatten()
            };
            guarded(|| Ok(self.choose_with(sc, &rs, &mut more, false))).map_err(PyErr::from)?
        };
        let (chosen, win, considered, refused, s, quantities, _) = match got {
            Ok(x) => x,
            Err(Stop::Bail) => return Ok(0i64.into_pyobject(py)?.into_any()),
            Err(Stop::NeedWaits | Stop::NeedShapeWaits) if ask.is_some() || trials.is_some() => {
                return Ok(0i64.into_pyobject(py)?.into_any()); // declined or failed: the Python side scores the hand
            }
            Err(Stop::NeedWaits) => return Ok(1i64.into_pyobject(py)?.into_any()),
            Err(Stop::NeedShapeWaits) => return Ok(2i64.into_pyobject(py)?.into_any()),
        };
        let vals = |xs: &[V]| -> PyResult<Bound<'py, PyList>> {
            PyList::new(py, xs.iter().map(|v| value_to_py(py, v)).collect::<PyResult<Vec<_>>>()?)
        };
        let trace = trace_list(py, &s.trace)?;
        let quantities = match quantities {
            Some(q) => vals(&q)?.into_any(),
            None => py.None().into_bound(py),
        };
        let out = PyTuple::new(
            py,
            [
                chosen.into_pyobject(py)?.into_any(),
                pyo3::types::PyBool::new(py, win).to_owned().into_any(),
                considered.into_pyobject(py)?.into_any(),
                PyList::new(py, refused)?.into_any(),
                PyList::new(py, s.fin.iter().copied())?.into_any(),
                vals(&s.values)?.into_any(),
                vals(&s.units)?.into_any(),
                value_to_py(py, &s.score)?,
                value_to_py(py, &s.total)?,
                value_to_py(py, &s.best)?,
                trace.into_any(),
                quantities,
                found[0].take().into_pyobject(py)?.into_any(),
                found[1].take().into_pyobject(py)?.into_any(),
                (spent - applied).into_pyobject(py)?.into_any(),
            ],
        )?;
        Ok(out.into_any())
    }
}
