//! The arguments the engine's classes take from Python as `Game` takes them: a seed as `random.Random`
//! seeds from it, the values a state carries from the hand before, a wall's tile notation, the room
//! options.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString};

use super::{rules, state, table};
use crate::setting_value;

/// A Python int as `random.Random` seeds from it: its absolute value in 32-bit words, least significant first.
pub(crate) fn seed_words(seed: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
    if seed.cast::<PyBool>().is_ok() || seed.cast::<PyInt>().is_err() {
        return Err(PyValueError::new_err("a seed is a whole number"));
    }
    // a seed within 64 bits (every seed the callers draw) read directly: the same words as below
    if let Ok(i) = seed.extract::<i64>() {
        let u = i.unsigned_abs();
        let (lo, hi) = (u as u32, (u >> 32) as u32);
        return Ok(if hi == 0 { vec![lo] } else { vec![lo, hi] });
    }
    let a = seed.call_method0("__abs__")?;
    let bits: usize = a.call_method0("bit_length")?.extract()?;
    if bits > 1 << 20 {
        return Err(PyValueError::new_err("the seed is larger than a million bits"));
    }
    let n = bits.div_ceil(32).max(1);
    let bytes: Vec<u8> = a.call_method1("to_bytes", (n * 4, "little"))?.extract()?;
    Ok(bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// A value a state carries from the hand before, as `Game._carried` takes it: none, true/false, a whole
/// number, text, a seat as {"seat": n}, or a list of none, true/false, numbers and text (what
/// `Game.table_values` gives). Anything else the reference would hold as it is (and write as its
/// `str`) is not ported.
fn carried_value(v: &Bound<'_, PyAny>, top: bool) -> PyResult<state::Value> {
    use state::Value;
    let not_ported = || {
        crate::NotCovered::new_err(
            "the native engine takes carried values that are none, true/false, whole numbers, text, seats \
             or lists of them",
        )
    };
    if v.is_none() {
        return Ok(Value::None);
    }
    if let Ok(b) = v.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if v.cast::<PyInt>().is_ok() {
        return v.extract::<i64>().map(Value::Int).map_err(|_| not_ported());
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(Value::Str(s.to_str()?.to_owned()));
    }
    if let Ok(d) = v.cast::<PyDict>() {
        if top && d.len() == 1 {
            if let Some(s) = d.get_item("seat")? {
                if s.cast::<PyBool>().is_err() {
                    if let Ok(i) = s.extract::<usize>() {
                        return Ok(Value::Seat(i));
                    }
                }
            }
        }
        return Err(not_ported());
    }
    if let Ok(l) = v.cast::<PyList>() {
        if top && l.len() <= 10_000 {
            return l
                .iter()
                .map(|x| carried_value(&x, false))
                .collect::<PyResult<Vec<_>>>()
                .map(Value::List);
        }
    }
    Err(not_ported())
}

/// The carried values the reference takes: those of the states of `scope` that live for the session
/// (the others are ignored, whatever they hold).
pub(crate) fn carried_values(
    d: Option<&Bound<'_, PyDict>>,
    rules: &rules::GameRules,
    scope: &str,
) -> PyResult<Vec<(String, state::Value)>> {
    let mut out = Vec::new();
    for sv in rules.states.iter().filter(|s| s.scope == scope && s.lives == "session") {
        if let Some(v) = d.map(|d| d.get_item(&sv.name)).transpose()?.flatten() {
            out.push((sv.name.clone(), carried_value(&v, true)?));
        }
    }
    Ok(out)
}

/// `wall` / `tail` as `Game` takes them: tile notation as text, or a list of texts joined as one.
pub(crate) fn notation_text(v: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(s.to_str()?.to_owned());
    }
    let parts: Vec<String> = v
        .extract()
        .map_err(|_| PyValueError::new_err("a wall is tile notation (text or a list of texts)"))?;
    Ok(parts.concat())
}

pub(crate) fn options_of(options: Option<&Bound<'_, PyDict>>) -> PyResult<table::Options> {
    let mut opts = Vec::new();
    if let Some(d) = options {
        for (k, v) in d.iter() {
            opts.push((k.extract::<String>()?, setting_value(&v)?));
        }
    }
    Ok(opts)
}
