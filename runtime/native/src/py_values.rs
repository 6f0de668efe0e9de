//! Values handed over by the Python side (runtime/nativecounts.py encodes them) as the pattern programs'
//! values, and back: what the programs, the scorer and the hand bindings read and give.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString, PyTuple};

use crate::program::{Program, V};
use crate::NotCovered;

/// A value handed over by the Python side (runtime/nativecounts.py encodes them): None, bools, ints,
/// strings, lists, ("t", code) a tile, ("q", numerator, denominator) a fraction, ("m",) no value.
pub(crate) fn value_of(obj: &Bound<'_, PyAny>) -> PyResult<Option<V>> {
    if obj.is_none() {
        return Ok(Some(V::None));
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Some(V::Bool(b.is_true())));
    }
    if obj.cast::<PyInt>().is_ok() {
        return match obj.extract::<i64>() {
            Ok(n) => Ok(Some(V::Int(n))),
            Err(_) => Err(NotCovered::new_err("a whole number past 64 bits")),
        };
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Some(V::Str(std::sync::Arc::from(s.to_str()?))));
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        let tag: String = t.get_item(0)?.extract()?;
        return match tag.as_str() {
            "t" => Ok(Some(V::Tile(t.get_item(1)?.extract()?))),
            "q" => {
                let n: i64 = t.get_item(1)?.extract().map_err(|_| NotCovered::new_err("a fraction past 64 bits"))?;
                let d: i64 = t.get_item(2)?.extract().map_err(|_| NotCovered::new_err("a fraction past 64 bits"))?;
                if d <= 1 {
                    return Err(PyValueError::new_err("a fraction's denominator must be above 1"));
                }
                Ok(Some(V::Rat(n, d)))
            }
            "m" => Ok(None),
            _ => Err(PyValueError::new_err("an encoded value with an unknown tag")),
        };
    }
    if let Ok(l) = obj.cast::<pyo3::types::PyList>() {
        let mut out = Vec::with_capacity(l.len());
        for x in l.iter() {
            out.push(value_of(&x)?.ok_or_else(|| PyValueError::new_err("no value inside a list"))?);
        }
        return Ok(Some(V::List(std::sync::Arc::new(out))));
    }
    Err(NotCovered::new_err("a value of a type the native programs do not hold"))
}

/// Field `f` of kind `i` as a program reads it; ("m",) when the kind lacks it (`Patterns` and `Scorer`
/// answer the Python side's catalog checks with it).
pub(crate) fn kind_field_to_py<'py>(
    py: Python<'py>,
    program: &Program,
    i: usize,
    f: usize,
) -> PyResult<Bound<'py, PyAny>> {
    match program.kind_field(i, f) {
        Some(v) => value_to_py(py, &v),
        None => Ok(("m",).into_pyobject(py)?.into_any()),
    }
}

pub(crate) fn value_to_py<'py>(py: Python<'py>, v: &V) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        V::None => py.None().into_bound(py),
        V::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        V::Int(n) => n.into_pyobject(py)?.into_any(),
        V::Rat(n, d) => ("q", *n, *d).into_pyobject(py)?.into_any(),
        V::Str(s) => PyString::new(py, s).into_any(),
        V::Tile(c) => ("t", *c).into_pyobject(py)?.into_any(),
        V::Group(g) => ("g", *g).into_pyobject(py)?.into_any(),
        V::Seat(s) => ("s", *s).into_pyobject(py)?.into_any(), // game scope only: never a reading's value
        V::List(l) => {
            let items = l.iter().map(|x| value_to_py(py, x)).collect::<PyResult<Vec<_>>>()?;
            pyo3::types::PyList::new(py, items)?.into_any()
        }
    })
}

pub(crate) fn tiles_of(obj: &Bound<'_, PyAny>) -> PyResult<Vec<V>> {
    let t = obj.cast::<PyTuple>().map_err(|_| PyValueError::new_err("tiles must be a tuple of codes"))?;
    let mut out = Vec::with_capacity(t.len());
    for i in 0..t.len() {
        out.push(V::Tile(t.get_borrowed_item(i)?.extract()?));
    }
    Ok(out)
}
