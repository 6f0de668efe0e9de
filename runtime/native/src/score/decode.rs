//! The readings as the Python side hands them over (runtime/nativescore.py), checked and owned, and the
//! exclusions of a scored reading as it reads them back.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::program::{Group, V};
use crate::tally::Dropped;
use crate::{tiles_of, value_of};

pub(super) struct Owned {
    pub(super) groups: Vec<Group>,
    pub(super) declared: Vec<bool>,
    pub(super) tiles: Option<Arc<Vec<V>>>,
    pub(super) hand: Option<Arc<Vec<V>>>,
    pub(super) win_tile: V,
    pub(super) win_group: V,
    pub(super) form: V,
}

pub(super) fn decode(r: &Bound<'_, PyTuple>) -> PyResult<Owned> {
    let groups_t = r.get_item(0)?;
    let groups_t = groups_t.cast::<PyTuple>().map_err(|_| pyo3::exceptions::PyValueError::new_err("groups must be a tuple"))?;
    let mut groups = Vec::with_capacity(groups_t.len());
    let mut declared = Vec::with_capacity(groups_t.len());
    for g in groups_t.iter() {
        let g = g.cast::<PyTuple>().map_err(|_| pyo3::exceptions::PyValueError::new_err("a group must be a tuple"))?;
        let kind: String = g.get_item(0)?.extract()?;
        let flags: u32 = g.get_item(2)?.extract()?;
        let ident: u16 = g.get_item(4)?.extract()?;
        if ident as usize > groups.len() {
            return Err(pyo3::exceptions::PyValueError::new_err("a group's identity must be an earlier group's position"));
        }
        groups.push(Group {
            kind: Arc::from(kind.as_str()),
            tiles: Arc::new(tiles_of(&g.get_item(1)?)?),
            exposed: flags & 1 != 0,
            concealed: flags & 2 != 0,
            pair: flags & 4 != 0,
            kong: flags & 8 != 0,
            has_win: flags & 16 != 0,
            value: value_of(&g.get_item(3)?)?.ok_or_else(|| pyo3::exceptions::PyValueError::new_err("a group without a value"))?,
            ident,
        });
        declared.push(flags & 32 != 0);
    }
    let opt_tiles = |o: &Bound<'_, PyAny>| -> PyResult<Option<Arc<Vec<V>>>> {
        if o.is_none() {
            Ok(None)
        } else {
            Ok(Some(Arc::new(tiles_of(o)?)))
        }
    };
    let win_tile: i64 = r.get_item(3)?.extract()?;
    let win_group: i64 = r.get_item(4)?.extract()?;
    let form: String = r.get_item(5)?.extract()?;
    let n = groups.len();
    Ok(Owned {
        groups,
        declared,
        tiles: opt_tiles(&r.get_item(1)?)?,
        hand: opt_tiles(&r.get_item(2)?)?,
        win_tile: if win_tile < 0 { V::None } else { V::Tile(win_tile as u32) },
        win_group: if win_group < 0 {
            V::None
        } else if (win_group as usize) < n {
            V::Group(win_group as u16)
        } else {
            return Err(pyo3::exceptions::PyValueError::new_err("the winning group is not one of the groups"));
        },
        form: V::Str(Arc::from(form.as_str())),
    })
}

/// The exclusions of a scored reading as Python reads them (runtime/nativescore.py `result_of`):
/// (pattern, how, by, fewer) with how 0 excluded by a pattern, 1 count lowered, 2 taken by a combine.
pub(crate) fn trace_list<'py>(py: Python<'py>, trace: &[(usize, Dropped)]) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for (i, d) in trace {
        let t = match d {
            Dropped::By(j) => (*i, 0u8, *j, 0i64),
            Dropped::Lowered => (*i, 1u8, 0usize, 0i64),
            Dropped::Combine(k, n) => (*i, 2u8, *k, *n),
        };
        out.append(t)?;
    }
    Ok(out)
}
