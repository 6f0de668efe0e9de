//! The pattern programs of one rule set bound for Python (`Patterns`: program/*): built from the rule set
//! and room options, their settings and fields, and one reading's raw pattern counts.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};

use crate::catalog::Catalog;
use crate::program::{self, Group, Program, Reading, Stop, V};
use crate::{guarded, kind_field_to_py, option_settings, ruleset, tiles_of, value_of};

/// The pattern programs of one rule set under one choice of room options.
#[pyclass(module = "_native")]
pub(crate) struct Patterns {
    program: Program,
}

#[pymethods]
impl Patterns {
    /// `ruleset_json`: the versioned JSON rule set; `options`: room option values by name. Refused
    /// with `NotCovered` (and the reason) when the lowering does not take the rule set's patterns.
    #[new]
    #[pyo3(signature = (ruleset_json, options=None))]
    fn new(ruleset_json: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let settings = option_settings(options)?;
        let program = guarded(|| {
            let rs = ruleset::parse(ruleset_json)?;
            let cat = Catalog::build(&rs, &settings)?;
            Program::build(ruleset_json, &cat)
        })
        .map_err(PyErr::from)?;
        Ok(Patterns { program })
    }

    /// The setting references (`option:NAME`, `context:NAME`, `reveal:NAME`) the programs read, in the
    /// order `raw_counts` takes their values.
    fn settings(&self) -> Vec<String> {
        self.program.settings.clone()
    }

    /// Per pattern: whether the Python side counts it (it reads a unit).
    fn python_owned(&self) -> Vec<bool> {
        self.program.python_owned.clone()
    }

    /// The reference's prefilter tests (runtime/prefilter.py): per pattern index, (field, op, k) with op
    /// 0 ==, 1 !=, 2 <, 3 <=, 4 >, 5 >=. Readings given packed counts skip the patterns failing one.
    fn set_prefilter(&mut self, tests: Vec<Vec<(usize, u8, i64)>>) -> PyResult<()> {
        if tests.len() != self.program.python_owned.len() {
            return Err(PyValueError::new_err("one list of prefilter tests per pattern"));
        }
        self.program.set_prefilter(tests);
        Ok(())
    }

    /// How many distinct comprehensions the programs remember within a reading (program/memo.rs).
    fn remembered(&self) -> usize {
        self.program.n_memo
    }

    /// How many flat evaluations (program/flat.rs) of this thread gave up to the form they replace.
    #[staticmethod]
    fn flat_gave_up() -> u64 {
        program::flat_gave_up()
    }

    /// The kinds of the catalog the programs are bound to, in order.
    fn kinds(&self) -> Vec<String> {
        self.program.kinds.clone()
    }

    /// The field names the programs read.
    fn fields(&self) -> Vec<String> {
        self.program.fields.clone()
    }

    /// Field `f` of kind `i` as the programs read it; ("m",) when the kind lacks it.
    fn kind_field<'py>(&self, py: Python<'py>, i: usize, f: usize) -> PyResult<Bound<'py, PyAny>> {
        kind_field_to_py(py, &self.program, i, f)
    }

    /// Raw pattern counts of one reading: a list of ints, or 1 (call again with the waits), 2 (with the
    /// shape waits), 0 (let the reference evaluate this reading). `groups`: (meld kind, tile codes,
    /// flags: 1 exposed 2 concealed 4 pair 8 kong 16 has_win 32 declared, value, identity) each;
    /// `tiles`, `hand`: tile codes, or None when they are the groups' tiles in order; `win_group`:
    /// the identity of the group it is, or -1.
    #[pyo3(signature = (settings, self_drawn, flowers, waits, shape_waits, groups, tiles, hand, win_tile, win_group, form, packed=None))]
    #[allow(clippy::too_many_arguments)]
    fn raw_counts<'py>(
        &self,
        py: Python<'py>,
        settings: &Bound<'py, PyTuple>,
        self_drawn: bool,
        flowers: &Bound<'py, PyAny>,
        waits: &Bound<'py, PyAny>,
        shape_waits: &Bound<'py, PyAny>,
        groups: &Bound<'py, PyTuple>,
        tiles: &Bound<'py, PyAny>,
        hand: &Bound<'py, PyAny>,
        win_tile: i64,
        win_group: i64,
        form: &str,
        packed: Option<&Bound<'py, PyBytes>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut svals = Vec::with_capacity(settings.len());
        for x in settings.iter() {
            svals.push(value_of(&x)?);
        }
        let mut gs = Vec::with_capacity(groups.len());
        let mut declared = Vec::with_capacity(groups.len());
        for g in groups.iter() {
            let g = g.cast::<PyTuple>().map_err(|_| PyValueError::new_err("a group must be a tuple"))?;
            let kind: String = g.get_item(0)?.extract()?;
            let flags: u32 = g.get_item(2)?.extract()?;
            let ident: u16 = g.get_item(4)?.extract()?;
            if ident as usize > gs.len() {
                return Err(PyValueError::new_err("a group's identity must be an earlier group's position"));
            }
            gs.push(Group {
                kind: std::sync::Arc::from(kind.as_str()),
                tiles: std::sync::Arc::new(tiles_of(&g.get_item(1)?)?),
                exposed: flags & 1 != 0,
                concealed: flags & 2 != 0,
                pair: flags & 4 != 0,
                kong: flags & 8 != 0,
                has_win: flags & 16 != 0,
                value: value_of(&g.get_item(3)?)?.ok_or_else(|| PyValueError::new_err("a group without a value"))?,
                ident,
            });
            declared.push(flags & 32 != 0);
        }
        let n_kinds = self.program.n_kinds() as u32;
        let opt_tiles = |o: &Bound<'py, PyAny>| -> PyResult<Option<std::sync::Arc<Vec<V>>>> {
            if o.is_none() {
                Ok(None)
            } else {
                Ok(Some(std::sync::Arc::new(tiles_of(o)?)))
            }
        };
        let opt_value = |o: &Bound<'py, PyAny>| -> PyResult<Option<V>> {
            if o.is_none() {
                Ok(None)
            } else {
                value_of(o)
            }
        };
        let reading = Reading {
            tiles: opt_tiles(tiles)?,
            hand: opt_tiles(hand)?,
            win_tile: if win_tile < 0 { V::None } else { V::Tile(win_tile as u32) },
            win_group: if win_group < 0 {
                V::None
            } else if (win_group as usize) < gs.len() {
                V::Group(win_group as u16)
            } else {
                return Err(PyValueError::new_err("the winning group is not one of the groups"));
            },
            form: V::Str(std::sync::Arc::from(form)),
            self_drawn,
            flowers: std::sync::Arc::new(tiles_of(flowers)?),
            waits: opt_value(waits)?,
            shape_waits: opt_value(shape_waits)?,
            settings: &svals,
            packed: packed.map(|b| b.as_bytes()),
            groups: gs,
            declared,
        };
        let bad_tile = |v: &V| matches!(v, V::Tile(c) if c >> 2 >= n_kinds);
        let all_ok = reading.groups.iter().all(|g| !g.tiles.iter().any(bad_tile))
            && !reading.tiles.as_ref().is_some_and(|t| t.iter().any(bad_tile))
            && !reading.hand.as_ref().is_some_and(|t| t.iter().any(bad_tile))
            && !reading.flowers.iter().any(bad_tile)
            && !bad_tile(&reading.win_tile);
        if !all_ok {
            return Err(PyValueError::new_err("a tile code outside the catalog"));
        }
        let got = guarded(|| Ok(self.program.raw_counts(&reading))).map_err(PyErr::from)?;
        Ok(match got {
            Ok(counts) => pyo3::types::PyList::new(py, counts)?.into_any(),
            Err(Stop::Bail) => 0i64.into_pyobject(py)?.into_any(),
            Err(Stop::NeedWaits) => 1i64.into_pyobject(py)?.into_any(),
            Err(Stop::NeedShapeWaits) => 2i64.into_pyobject(py)?.into_any(),
        })
    }
}

