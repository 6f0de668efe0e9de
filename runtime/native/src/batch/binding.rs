//! The batch driver's Python face: `run_batch` (the CLI's `score --batch --json` when the native core
//! is built), the reference scorer it falls back on (a Python callable), and the pieces the tests compare
//! with Python one by one (`batch_dumps`, `batch_read_line`, `batch_repr`, `batch_tables`).

use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::mem::ManuallyDrop;
use std::os::fd::FromRawFd;
use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use super::json::{self, Json};
use super::line::{read_item, Item};
use super::parse::Limits;
use super::text::{py_repr, PyText};
use super::unicode::{NOT_PRINTABLE, SPACE};
use super::native::NativeLines;
use super::{escape_surrogates, run, Config, LineScorer, Outcome, Sink};
use crate::NativeError;

/// A Python str as text: UTF-8 directly, else (a lone surrogate) its "surrogatepass" bytes.
pub(super) fn text_of(s: &Bound<'_, PyString>) -> PyResult<PyText> {
    if let Ok(t) = s.to_str() {
        return Ok(PyText::from_str(t));
    }
    let b = s.call_method1("encode", ("utf-8", "surrogatepass"))?;
    Ok(PyText::from_wtf8(b.cast::<PyBytes>()?.as_bytes().to_vec(), true))
}

pub(super) fn py_text<'py>(py: Python<'py>, t: &PyText) -> PyResult<Bound<'py, PyAny>> {
    match t.as_str() {
        Some(s) => Ok(PyString::new(py, s).into_any()),
        None => PyBytes::new(py, t.wtf8()).call_method1("decode", ("utf-8", "surrogatepass")),
    }
}

pub(super) fn py_value<'py>(py: Python<'py>, v: &Json) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Json::Null => py.None().into_bound(py),
        Json::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Json::Int(n) => n.into_pyobject(py)?.into_any(),
        Json::BigInt(d) => py.get_type::<PyInt>().call1((d.as_str(),))?,
        Json::Float(f) => PyFloat::new(py, *f).into_any(),
        Json::Str(t) => py_text(py, t)?,
        Json::Arr(xs) => PyList::new(py, xs.iter().map(|x| py_value(py, x)).collect::<PyResult<Vec<_>>>()?)?.into_any(),
        Json::Obj(ms) => {
            let d = PyDict::new(py);
            for (k, x) in ms {
                d.set_item(py_text(py, k)?, py_value(py, x)?)?;
            }
            d.into_any()
        }
    })
}

/// A Python value (what `ScoreResult.to_json()` holds) as a Json value.
fn json_of(v: &Bound<'_, PyAny>, depth: usize) -> PyResult<Json> {
    if depth > 200 {
        return Err(PyValueError::new_err("the value is nested too deeply"));
    }
    if v.is_none() {
        return Ok(Json::Null);
    }
    if let Ok(b) = v.cast::<PyBool>() {
        return Ok(Json::Bool(b.is_true()));
    }
    if v.cast::<PyInt>().is_ok() {
        return Ok(match v.extract::<i64>() {
            Ok(n) => Json::Int(n),
            Err(_) => Json::BigInt(v.str()?.to_str()?.to_string()),
        });
    }
    if let Ok(f) = v.cast::<PyFloat>() {
        return Ok(Json::Float(f.value()));
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(Json::Str(text_of(s)?));
    }
    if let Ok(d) = v.cast::<PyDict>() {
        let mut ms = Vec::with_capacity(d.len());
        for (k, x) in d.iter() {
            let k = k.cast::<PyString>().map_err(|_| PyTypeError::new_err("a JSON object's keys are strings"))?;
            ms.push((text_of(k)?, json_of(&x, depth + 1)?));
        }
        return Ok(Json::Obj(ms));
    }
    if v.cast::<PyList>().is_ok() || v.cast::<PyTuple>().is_ok() {
        let xs = v.try_iter()?.map(|x| json_of(&x?, depth + 1)).collect::<PyResult<Vec<_>>>()?;
        return Ok(Json::Arr(xs));
    }
    Err(PyTypeError::new_err(format!("{} is not a JSON value", v.get_type().name()?)))
}

/// The reference: a Python callable (hand, melds, win, self_drawn, set) -> the output line (a str),
/// made by `make()` when the first item needs it (so that a run the native scorers answer whole never
/// builds the Python side); it refuses a hand by raising one of `refusals` (HandError, ValueError), whose
/// text is the sentence.
struct PyFallback<'py> {
    py: Python<'py>,
    make: Bound<'py, PyAny>,
    call: Option<Bound<'py, PyAny>>,
    refusals: Bound<'py, PyAny>,
    error: Option<PyErr>,
}

impl<'py> PyFallback<'py> {
    fn args(&self, item: &Item) -> PyResult<Bound<'py, PyTuple>> {
        let py = self.py;
        let melds = PyList::new(py, item.melds.iter().map(|m| py_text(py, m)).collect::<PyResult<Vec<_>>>()?)?;
        let win = match &item.win {
            Some(w) => py_text(py, w)?,
            None => py.None().into_bound(py),
        };
        let ctx = PyDict::new(py);
        for (k, v) in &item.context {
            ctx.set_item(py_text(py, k)?, py_value(py, v)?)?;
        }
        let items: [Bound<'py, PyAny>; 5] =
            [py_text(py, &item.hand)?, melds.into_any(), win, PyBool::new(py, item.self_drawn).to_owned().into_any(), ctx.into_any()];
        PyTuple::new(py, items)
    }

    fn answer(&mut self, item: &Item) -> PyResult<Outcome> {
        let args = self.args(item)?;
        if self.call.is_none() {
            self.call = Some(self.make.call0()?);
        }
        let call = self.call.as_ref().expect("made above");
        match call.call1(args) {
            Ok(line) => {
                let s = line.cast::<PyString>()?;
                Ok(match s.to_str() {
                    Ok(t) => Outcome::Line(t.as_bytes().to_vec()),
                    Err(_) => Outcome::Line(escape_surrogates(text_of(s)?.wtf8())),
                })
            }
            Err(e) if e.is_instance(self.py, &self.refusals) => {
                let msg = e.value(self.py).str()?;
                Ok(Outcome::Refused(text_of(&msg)?))
            }
            Err(e) => Err(e),
        }
    }
}

impl LineScorer for PyFallback<'_> {
    fn score(&mut self, item: &Item, _context: u64) -> Outcome {
        match self.answer(item) {
            Ok(o) => o,
            Err(e) => {
                self.error = Some(e);
                Outcome::Abort
            }
        }
    }
}

/// Reads a Python binary stream by its `read(n)` (a stream without a file descriptor).
struct PyRead<'py>(Bound<'py, PyAny>);

impl Read for PyRead<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let got = self.0.call_method1("read", (buf.len(),)).map_err(io::Error::other)?;
        let b = got.cast::<PyBytes>().map_err(|_| io::Error::other("read() must give bytes"))?.as_bytes();
        let n = b.len().min(buf.len());
        buf[..n].copy_from_slice(&b[..n]);
        Ok(n)
    }
}

struct FdSink(ManuallyDrop<File>);

impl Sink for FdSink {
    fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.0.write_all(bytes)
    }
}

/// Writes by a Python `write(str)` (a text stream without a file descriptor, as tests capture).
struct PySink<'py>(Bound<'py, PyAny>);

impl Sink for PySink<'_> {
    fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        let s = std::str::from_utf8(bytes).map_err(io::Error::other)?; // whole lines of UTF-8
        self.0.call1((s,)).map_err(io::Error::other)?;
        Ok(())
    }
}

/// `f()` with a panic made a NativeError of one sentence (no panic reaches Python).
pub(super) fn unpanicked<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f))
        .unwrap_or_else(|_| Err(NativeError::new_err("the native core failed: a panic in the batch reader")))
}

fn borrowed_fd(fd: i32) -> PyResult<ManuallyDrop<File>> {
    if fd < 0 {
        return Err(PyValueError::new_err("a file descriptor is not negative"));
    }
    // SAFETY: the caller keeps the descriptor open for the call; ManuallyDrop never closes it.
    Ok(ManuallyDrop::new(unsafe { File::from_raw_fd(fd) }))
}

/// `paili score --batch`: every line of `source` (a file descriptor, or a binary stream) scored by the
/// reference `make_fallback()` gives and written to `sink` (a file descriptor, or a `write(str)`
/// callable); returns (lines that failed, lines scored natively, lines scored by the reference). With
/// `native_context` (runtime/batch.py `native_context`: a context's `set` -> what native.rs scores its
/// hands with, or None) the native scorer of whole hands goes before the reference.
#[pyfunction]
#[pyo3(signature = (source, sink, make_fallback, refusals, max_line, max_depth, max_digits, contexts_kept, trailing_comma_errors=false, native_context=None))]
#[allow(clippy::too_many_arguments)]
fn run_batch(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    sink: &Bound<'_, PyAny>,
    make_fallback: &Bound<'_, PyAny>,
    refusals: &Bound<'_, PyAny>,
    max_line: usize,
    max_depth: usize,
    max_digits: usize,
    contexts_kept: usize,
    trailing_comma_errors: bool,
    native_context: Option<&Bound<'_, PyAny>>,
) -> PyResult<(usize, usize, usize)> {
    let cfg = Config { limits: Limits { max_depth, max_digits, trailing_comma_errors }, max_line, contexts_kept };
    let mut reference =
        PyFallback { py, make: make_fallback.clone(), call: None, refusals: refusals.clone(), error: None };
    // the native scorer of whole hands first (native.rs), when the Python side gives its contexts
    let mut native = native_context.map(|p| NativeLines::new(py, p.clone(), contexts_kept));
    let mut fd_sink;
    let mut py_sink;
    let sink: &mut dyn Sink = if let Ok(fd) = sink.extract::<i32>() {
        fd_sink = FdSink(borrowed_fd(fd)?);
        &mut fd_sink
    } else {
        py_sink = PySink(sink.clone());
        &mut py_sink
    };
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut scorers: Vec<&mut dyn LineScorer> = Vec::with_capacity(2);
        if let Some(n) = native.as_mut() {
            scorers.push(n);
        }
        scorers.push(&mut reference);
        match source.extract::<i32>() {
            Ok(fd) => {
                let f = borrowed_fd(fd).map_err(|e| io::Error::other(e.to_string()))?;
                run(BufReader::with_capacity(1 << 16, &*f), sink, &cfg, &mut scorers)
            }
            Err(_) => run(BufReader::with_capacity(1 << 16, PyRead(source.clone())), sink, &cfg, &mut scorers),
        }
    }));
    let stats = match result {
        Err(_) => return Err(NativeError::new_err("the native core failed: a panic in the batch driver")),
        Ok(Err(e)) => {
            // a Python exception raised inside read() or write() comes back as itself
            if let Some(inner) = e.get_ref().and_then(|x| x.downcast_ref::<PyErr>()) {
                return Err(inner.clone_ref(py));
            }
            return Err(e.into());
        }
        Ok(Ok(s)) => s,
    };
    if let Some(e) = reference.error.take() {
        return Err(e);
    }
    if let Some(e) = native.as_mut().and_then(|n| n.error.take()) {
        return Err(e);
    }
    Ok(match native {
        Some(_) => (stats.failed, stats.scored_by[0], stats.scored_by[1]),
        None => (stats.failed, 0, stats.scored_by[0]),
    })
}

/// `json.dumps(obj, ensure_ascii=False)` written by json.rs (for the tests).
#[pyfunction]
fn batch_dumps(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    unpanicked(|| {
        let mut out = Vec::new();
        json::write(&mut out, &json_of(obj, 0)?);
        String::from_utf8(out).map_err(|_| PyValueError::new_err("not UTF-8"))
    })
}

/// One line's bytes read as `run_batch` reads them (for the tests): None (blank), the error sentence
/// (a str), or the tuple (hand, melds, win, self_drawn, set) of runtime/batch.py `parse_line`.
#[pyfunction]
#[pyo3(signature = (raw, max_depth, max_digits, trailing_comma_errors=false))]
fn batch_read_line<'py>(
    py: Python<'py>,
    raw: &[u8],
    max_depth: usize,
    max_digits: usize,
    trailing_comma_errors: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let lim = Limits { max_depth, max_digits, trailing_comma_errors };
    unpanicked(|| match read_item(raw, &lim) {
        Ok(None) => Ok(py.None().into_bound(py)),
        Err(sentence) => Ok(PyString::new(py, &sentence).into_any()),
        Ok(Some(item)) => {
            let none = py.None().into_bound(py);
            let fb = PyFallback { py, make: none.clone(), call: None, refusals: none, error: None };
            Ok(fb.args(&item)?.into_any())
        }
    })
}

/// Python's `repr(s)` as the batch reader writes it (for the tests).
#[pyfunction]
fn batch_repr(s: &Bound<'_, PyString>) -> PyResult<String> {
    unpanicked(|| Ok(py_repr(&text_of(s)?)))
}

/// The code point ranges the reader holds for `str.isprintable` (refused) and `str.isspace` (for the tests).
#[pyfunction]
fn batch_tables() -> [Vec<(u32, u32)>; 2] {
    [NOT_PRINTABLE.to_vec(), SPACE.to_vec()]
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run_batch, m)?)?;
    m.add_function(wrap_pyfunction!(batch_dumps, m)?)?;
    m.add_function(wrap_pyfunction!(batch_read_line, m)?)?;
    m.add_function(wrap_pyfunction!(batch_repr, m)?)?;
    m.add_function(wrap_pyfunction!(batch_tables, m)?)?;
    m.add_class::<super::lane::Lane>()?;
    super::setup::register(m)
}
