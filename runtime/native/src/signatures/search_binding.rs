//! The native signature search's face to Python: made once per rule set, catalog and decomposer by
//! runtime/nativehand.py (`NativeHands.signature_search_for`), with what the decomposer defines.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::search::{Fixed, Kept, SigSearch, Spec};
use super::RawTpl;
use crate::catalog::Catalog;
use crate::{guarded, option_settings, ruleset, Error, NotCovered};

type TplTuple = (Vec<(usize, bool)>, Vec<(usize, usize)>, u32, i32, Vec<(u32, i32)>);

#[pymethods]
impl SigSearch {
    /// `ruleset_json` and `options` as `Scorer` takes them; `fallback` the reference's search;
    /// `specs` the decomposer's shapes (meld kind, pair, kong, size), the first `n_meld` the melds';
    /// `templates` per tile kind, per shape, its placements (`Decomposer.templates`); `targets` per
    /// shape its pure-wildcard groups; `values` (meld kind, suit or None, the value encoded); `room`
    /// the room's settings and `limit` the work limit's sentence (for `__call__`).
    #[new]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (ruleset_json, options, fallback, specs, n_meld, templates, targets, values, room, limit))]
    fn new(
        ruleset_json: &str,
        options: Option<&Bound<'_, PyDict>>,
        fallback: Py<PyAny>,
        specs: Vec<(String, bool, bool, u32)>,
        n_meld: usize,
        templates: Vec<Vec<Vec<TplTuple>>>,
        targets: Vec<Vec<Vec<(usize, bool)>>>,
        values: Vec<(String, Option<String>, Bound<'_, PyAny>)>,
        room: &Bound<'_, PyDict>,
        limit: String,
    ) -> PyResult<Self> {
        let mut room_values = HashMap::new();
        for (k, v) in room.iter() {
            if let (Ok(k), Ok(Some(v))) = (k.extract::<String>(), crate::value_of(&v)) {
                room_values.insert(k, v);
            }
        }
        let settings = option_settings(options)?;
        let mut fixed = guarded(|| {
            let rs = ruleset::parse(ruleset_json)?;
            let cat = Catalog::build(&rs, &settings)?;
            let doc = ruleset::json_doc(ruleset_json)?;
            let m = doc.get("ruleset").and_then(serde_json::Value::as_object).ok_or_else(|| Error::NotCovered("a rule set without patterns".into()))?;
            let waits = crate::waits::wait_requirements(m)?;
            Fixed::build(m, &cat, waits).map_err(Error::NotCovered)
        })?;
        if templates.len() != fixed.suits.len() || targets.len() != specs.len() || n_meld > specs.len()
            || templates.iter().any(|t| t.len() != specs.len())
        {
            return Err(NotCovered::new_err("placements that do not match the catalog's kinds and shapes"));
        }
        if specs.len() > super::MAX_KINDS || fixed.suits.len() > super::MAX_KINDS {
            return Err(NotCovered::new_err("more kinds than the signature search takes"));
        }
        fixed.specs = specs.into_iter().map(|(kind, pair, kong, size)| Spec { kind: Arc::from(kind.as_str()), pair, kong, size }).collect();
        fixed.n_meld = n_meld;
        fixed.templates = templates
            .into_iter()
            .map(|per| per.into_iter().map(|l| l.into_iter().map(|(sl, nat, nw, fw, fnat)| -> RawTpl { (sl.into(), nat, nw, fw, fnat) }).collect()).collect())
            .collect();
        fixed.targets = targets.into_iter().map(|l| l.into_iter().map(|s| s.into()).collect()).collect();
        let mut vals = HashMap::new();
        for (kind, suit, v) in values {
            if let Some(v) = crate::value_of(&v)? {
                vals.insert((Arc::from(kind.as_str()), suit.map(|s| Arc::from(s.as_str()))), v);
            }
        }
        fixed.values = vals;
        fixed.room = room_values;
        fixed.limit = limit;
        Ok(SigSearch {
            fixed,
            kept: Mutex::new(Kept::default()),
            fallback,
            answered: AtomicU64::new(0),
            declined: AtomicU64::new(0),
            reasons: Mutex::new(HashMap::new()),
        })
    }

    /// The search as the reference's callable answers it (`NativeHands.signature_search_for`'s `ask`),
    /// the room's settings and the context values of `env_json` as its environment; where the native
    /// side declines, the reference's answer (counted). For the differential tests and benchmarks.
    #[allow(clippy::too_many_arguments)]
    fn __call__(&self, py: Python<'_>, tables: PyRef<'_, crate::Tables>, env_json: &str, self_drawn: bool, for_waits: bool, form: usize,
                melds: u32, pairs: u32, naturals: Vec<(usize, usize, bool)>, wilds: Vec<(usize, bool)>, left: i64)
        -> PyResult<Py<PyAny>> {
        let mut env: HashMap<String, crate::program::V> = self.fixed.room.clone();
        let parsed: serde_json::Value = serde_json::from_str(env_json).map_err(|_| NotCovered::new_err("a malformed environment"))?;
        for item in parsed.as_array().into_iter().flatten() {
            if let (Some(name), Some(v)) = (item.get(0).and_then(serde_json::Value::as_str), item.get(1)) {
                match self.fixed.json_value(v) {
                    Some(v) => env.insert(name.to_owned(), v),
                    None => env.remove(name),
                };
            }
        }
        let q = super::search::Question { env_key: env_json, self_drawn, waits: for_waits, form, melds, pairs, naturals: &naturals, wilds: &wilds };
        let mut work = left;
        let setting = |n: &str| env.get(n).cloned();
        let got = match self.kept.lock() {
            Ok(mut kept) => kept.answer(&self.fixed, &tables, &q, &setting, &mut work),
            Err(_) => Err("the native signature search is in use".into()),
        };
        use super::search::Answer;
        match got {
            Ok(a) => {
                self.note_answered();
                Ok(match a {
                    Answer::Found(found) => {
                        type Out = (Vec<(String, Vec<(usize, bool)>)>, i64);
                        let list: Vec<Out> = found
                            .into_iter()
                            .map(|(gs, w)| (gs.into_iter().map(|(k, s)| (k.to_string(), s)).collect(), w.map_or(-1, |x| x as i64)))
                            .collect();
                        (0u8, list, work).into_pyobject(py)?.into_any().unbind()
                    }
                    Answer::Enumerate => (1u8, py.None(), work).into_pyobject(py)?.into_any().unbind(),
                    Answer::Limit => (2u8, self.fixed.limit.clone(), work).into_pyobject(py)?.into_any().unbind(),
                })
            }
            Err(why) => {
                self.note_declined(&why);
                Ok(self.fallback.bind(py).call1((env_json, self_drawn, for_waits, form, melds, pairs, naturals, wilds, left))?.unbind())
            }
        }
    }

    /// (questions answered natively, questions handed to the reference, why, by count).
    fn stats(&self) -> (u64, u64, HashMap<String, u64>) {
        let r = self.reasons.lock().map(|r| r.clone()).unwrap_or_default();
        (self.answered.load(Ordering::Relaxed), self.declined.load(Ordering::Relaxed), r)
    }

    /// The kept observers (as the reference's `KeptObservers`): {"observers": how many, "held": what
    /// their memos hold together, "limit": its bound, "cleared": memos started afresh to stay within it}.
    fn kept(&self) -> HashMap<&'static str, u64> {
        let Ok(k) = self.kept.lock() else { return HashMap::new() };
        let (n, held) = k.held();
        HashMap::from([("observers", n as u64), ("held", held as u64), ("limit", k.limit as u64), ("cleared", k.cleared)])
    }

    /// The bound on what the kept observers' memos hold together (`MEMO_HELD`); a test lowers it to see
    /// memos started afresh, as the reference's `KeptObservers.limit`.
    #[getter]
    fn kept_limit(&self) -> usize {
        self.kept.lock().map_or(super::search::MEMO_HELD, |k| k.limit)
    }

    #[setter]
    fn set_kept_limit(&self, limit: usize) {
        if let Ok(mut k) = self.kept.lock() {
            k.limit = limit;
        }
    }

    /// The reference's search this one falls back on.
    #[getter]
    fn fallback(&self, py: Python<'_>) -> Py<PyAny> {
        self.fallback.clone_ref(py)
    }
}
