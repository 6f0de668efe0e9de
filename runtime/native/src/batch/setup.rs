//! The verified files of a bundled variant's quick batch, read natively: runtime/batchsetup.py `bundled`
//! step for step (the same reads, the same three SHA-256 checks against the index, the same sentence
//! for each refusal, the same setup objects), without the Python side's `json` and hash modules, which
//! a batch's start-up otherwise imports and runs (~4 ms of CPU of a 60-70 ms process).
//!
//! The JSON texts are read by the batch's own reader (parse.rs: Python's `json.loads`, value for value),
//! the setup's tagged objects turned back into tuples and bytes as `loads_setup`'s hook does. Where the
//! reader is stricter than `json.loads` (NaN or Infinity, an array or object nested past SETUP_DEPTH),
//! the files are "not readable" and the batch takes today's path: never trusted more than the
//! reference trusts them. tests/test_batch_startup.py compares both on the bundled and tampered files.

use std::fs::File;
use std::io::Read;
use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use sha2::{Digest, Sha256};

use super::binding::{py_text, py_value, text_of};
use super::json::Json;
use super::parse::{loads, Limits};
use super::text::PyText;

const NOT_READABLE: &str = "the compiled files are not readable";
/// Deeper than any setup (they nest a few levels); Python's own reader stops near 1,000 with an
/// exception the reference does not catch.
const SETUP_DEPTH: usize = 200;
/// Python's `int` from more digits than this is a ValueError (sys.int_info.default_max_str_digits).
const INT_DIGITS: usize = 4300;

/// Why the files are refused (a sentence of batchsetup.py `bundled`).
struct Refused(&'static str);

fn not_readable<E>(_: E) -> Refused {
    Refused(NOT_READABLE)
}

fn sha_hex(data: &[u8]) -> String {
    let digest = Sha256::digest(data);
    let mut out = String::with_capacity(64);
    for b in digest.iter() {
        out.push(char::from_digit(u32::from(b >> 4), 16).unwrap_or('0'));
        out.push(char::from_digit(u32::from(b & 15), 16).unwrap_or('0'));
    }
    out
}

fn json_of_text(text: &str) -> Result<Json, Refused> {
    let lim = Limits { max_depth: SETUP_DEPTH, max_digits: INT_DIGITS, trailing_comma_errors: false };
    loads(text, &lim).map_err(not_readable)
}

fn member<'a>(v: &'a Json, key: &[u8]) -> Option<&'a Json> {
    match v {
        Json::Obj(ms) => ms.iter().find(|(k, _)| k.wtf8() == key).map(|(_, x)| x),
        _ => None,
    }
}

/// `d.get(key, {}).get(name)` of a dict `d`: a member that is not an object has no `.get` (an
/// AttributeError there: not readable).
fn nested<'a>(d: &'a Json, key: &str, name: &PyText) -> Result<Option<&'a Json>, Refused> {
    match member(d, key.as_bytes()) {
        None => Ok(None),
        Some(m @ Json::Obj(_)) => Ok(member(m, name.wtf8())),
        Some(_) => Err(Refused(NOT_READABLE)),
    }
}

/// Python's `v == s` of a JSON value and a str.
fn is_text(v: Option<&Json>, s: &str) -> bool {
    matches!(v, Some(Json::Str(t)) if t.wtf8() == s.as_bytes())
}

/// Python's `v == n` of a JSON value and an int (`True == 1` and `2.0 == 2` included).
fn is_int(v: Option<&Json>, n: i64) -> bool {
    match v {
        Some(Json::Int(m)) => *m == n,
        Some(Json::Float(f)) => *f == n as f64,
        Some(Json::Bool(b)) => i64::from(*b) == n,
        _ => false,
    }
}

/// A file's bytes straight into a Python bytes object (no copy made of them on the way).
fn read_bytes<'py>(py: Python<'py>, path: &PathBuf) -> Result<Bound<'py, PyBytes>, Refused> {
    let mut f = File::open(path).map_err(not_readable)?;
    let len = f.metadata().map_err(not_readable)?.len();
    let len = usize::try_from(len).map_err(not_readable)?;
    let mut short = false;
    let b = PyBytes::new_with(py, len, |buf| {
        short = f.read_exact(buf).is_err();
        Ok(())
    })
    .map_err(not_readable)?;
    let mut more = [0u8; 1];
    if short || f.read(&mut more).map_err(not_readable)? != 0 {
        return Err(Refused(NOT_READABLE)); // changed while read: not the file measured
    }
    Ok(b)
}

/// The setup's JSON value as `loads_setup`'s `object_hook` makes it: `{"(": [...]}` a tuple, `{"b": hex}`
/// bytes (Python's own `bytes.fromhex`), every other object a dict.
fn untagged<'py>(py: Python<'py>, v: &Json) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Json::Arr(xs) => PyList::new(py, xs.iter().map(|x| untagged(py, x)).collect::<PyResult<Vec<_>>>()?)?.into_any(),
        Json::Obj(ms) => {
            if let [(k, x)] = ms.as_slice() {
                match (k.wtf8(), x) {
                    (b"(", Json::Arr(xs)) => {
                        let items = xs.iter().map(|x| untagged(py, x)).collect::<PyResult<Vec<_>>>()?;
                        return Ok(PyTuple::new(py, items)?.into_any());
                    }
                    (b"b", Json::Str(t)) => return py.get_type::<PyBytes>().call_method1("fromhex", (py_text(py, t)?,)),
                    _ => {}
                }
            }
            let d = PyDict::new(py);
            for (k, x) in ms {
                d.set_item(py_text(py, k)?, untagged(py, x)?)?;
            }
            d.into_any()
        }
        _ => py_value(py, v)?,
    })
}

/// The paths and names batchsetup.py `bundled` reads: (index, source, compiled file, setup file).
#[derive(FromPyObject)]
struct Paths(PathBuf, PathBuf, PathBuf, PathBuf);

/// (the compiled file's bytes, the setup) of a bundled variant whose source, compiled file and setup have
/// the hashes the index records, else the sentence saying why not: runtime/batchsetup.py `bundled`
/// (`names` = (stem, the IR's VERSION, INDEX_KEY, SETUP_FORMAT, SETUP_VERSION)).
#[pyfunction]
fn batch_verified_setup<'py>(
    py: Python<'py>,
    paths: Paths,
    names: (Bound<'py, PyString>, i64, String, String, i64),
) -> PyResult<Bound<'py, PyAny>> {
    let (stem, version, index_key, setup_format, setup_version) = names;
    let stem = text_of(&stem)?;
    super::binding::unpanicked(|| {
        match verified(py, &paths, &stem, version, &index_key, &setup_format, setup_version)? {
            Ok((data, setup)) => Ok(PyTuple::new(py, [data.into_any(), setup])?.into_any()),
            Err(Refused(why)) => Ok(PyString::new(py, why).into_any()),
        }
    })
}

/// The files read and checked in batchsetup.py `bundled`'s order: the compiled file's bytes and the
/// setup's JSON value.
fn checked<'py>(
    py: Python<'py>,
    paths: &Paths,
    stem: &PyText,
    version: i64,
    index_key: &str,
) -> Result<(Bound<'py, PyBytes>, Json, String), Refused> {
    let Paths(index_path, source_path, compiled_path, setup_path) = paths;
    let index = std::fs::read(index_path).map_err(not_readable)?;
    let index = json_of_text(std::str::from_utf8(&index).map_err(not_readable)?)?;
    let source = std::fs::read(source_path).map_err(not_readable)?;
    if !matches!(index, Json::Obj(_)) || !is_text(member(&index, b"format"), "paili-compiled-rules") {
        return Err(Refused("the compiled index is not readable"));
    }
    if !is_int(member(&index, b"version"), version) {
        return Err(Refused("the compiled files are of another format version"));
    }
    if !is_text(nested(&index, "sources", stem)?, &sha_hex(&source)) {
        return Err(Refused("the rule file changed since it was compiled"));
    }
    let data = read_bytes(py, compiled_path)?;
    let compiled = sha_hex(data.as_bytes());
    if !is_text(nested(&index, "validated", stem)?, &compiled) {
        return Err(Refused("the compiled file is not the one validated"));
    }
    let raw = std::fs::read(setup_path).map_err(not_readable)?;
    if !is_text(nested(&index, index_key, stem)?, &sha_hex(&raw)) {
        return Err(Refused("the batch setup is not the one recorded"));
    }
    let doc = json_of_text(std::str::from_utf8(&raw).map_err(not_readable)?)?;
    Ok((data, doc, compiled))
}

/// The compiled file's bytes and the setup's Python value.
type Files<'py> = (Bound<'py, PyBytes>, Bound<'py, PyAny>);

fn verified<'py>(
    py: Python<'py>,
    paths: &Paths,
    stem: &PyText,
    version: i64,
    index_key: &str,
    setup_format: &str,
    setup_version: i64,
) -> PyResult<Result<Files<'py>, Refused>> {
    let (data, doc, compiled) = match checked(py, paths, stem, version, index_key) {
        Ok(got) => got,
        Err(r) => return Ok(Err(r)),
    };
    let setup = match untagged(py, &doc) {
        Ok(s) => s,
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyValueError>(py) => return Ok(Err(Refused(NOT_READABLE))),
        Err(e) => return Err(e),
    };
    // `loads_setup`'s test of the untagged value (a tagged top level is no dict), then the file it was
    // recorded for
    if !setup.is_instance_of::<PyDict>()
        || !is_text(member(&doc, b"format"), setup_format)
        || !is_int(member(&doc, b"version"), setup_version)
    {
        return Ok(Err(Refused(NOT_READABLE)));
    }
    if !is_text(member(&doc, b"compiled"), &compiled) {
        return Ok(Err(Refused("the batch setup was recorded for another compiled file")));
    }
    Ok(Ok((data, setup)))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(batch_verified_setup, m)?)
}
