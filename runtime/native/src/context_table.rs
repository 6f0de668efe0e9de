//! The contexts a rule set keeps, looked up without building a key (runtime/contexts.py
//! `Contexts.env_for`): the Python side keys each context by three tuples — its names, its values'
//! types and its values — built and hashed at every call, about as much as a fifth of a cold call's
//! Python. This table answers from the context dict itself: its items' hashes mixed, then names,
//! types and values compared with the kept ones, in order.
//!
//! It is a front to the Python table, never the authority: it answers only where the kept context
//! is the same one (names and values equal as a tuple compares them, types the same objects);
//! anything else — a context not kept, a name or value whose hash or comparison raises — is None,
//! the error dropped, and the Python key decides (raising what it raises). A stricter match than
//! the Python table's only sends a call to it, whose answer is then the same.

use std::hash::{BuildHasher, Hasher};

use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::hash::{map, Keyed, Map};

/// One kept context: its items in order (name, type, value) and the answer kept for it.
struct Entry {
    items: Vec<(Py<PyAny>, Py<PyAny>, Py<PyAny>)>,
    got: Py<PyAny>,
}

#[pyclass(module = "_native")]
pub struct ContextTable {
    kept: Map<u64, Vec<Entry>>,
    len: usize,
    limit: usize,
    keyed: Keyed,
}

/// A context's items, in order: (name, value).
type Items<'py> = Vec<(Bound<'py, PyAny>, Bound<'py, PyAny>)>;

/// A context's items (read before any Python code runs, so that a hash or comparison that changes
/// the dict does not change what is read) and the mix of their hashes; None where a hash raises.
fn read<'py>(keyed: &Keyed, context: &Bound<'py, PyDict>) -> Option<(u64, Items<'py>)> {
    let items: Vec<_> = context.iter().collect();
    let mut h = keyed.build_hasher();
    h.write_u64(items.len() as u64);
    for (k, v) in &items {
        h.write_u64(k.hash().ok()? as u64);
        h.write_u64(v.get_type().as_ptr() as u64);
        h.write_u64(v.hash().ok()? as u64);
    }
    Some((h.finish(), items))
}

/// Whether a kept item equals the given one as a tuple compares them (the same object, or `==`
/// true); a comparison that raises is no match.
fn same(kept: &Py<PyAny>, given: &Bound<'_, PyAny>) -> bool {
    let kept = kept.bind(given.py());
    kept.is(given) || kept.eq(given).unwrap_or(false)
}

impl Entry {
    fn matches(&self, items: &[(Bound<'_, PyAny>, Bound<'_, PyAny>)]) -> bool {
        self.items.len() == items.len()
            && self.items.iter().zip(items).all(|((kn, kt, kv), (n, v))| {
                // the type the same object: no type's `==` is asked
                same(kn, n) && kt.as_ptr() == v.get_type().as_ptr() && same(kv, v)
            })
    }
}

#[pymethods]
impl ContextTable {
    /// `limit`: how many contexts it keeps (it starts over past it, as the Python table does).
    #[new]
    fn new(limit: usize) -> Self {
        ContextTable { kept: map(), len: 0, limit, keyed: Keyed::default() }
    }

    /// The answer kept for this context, or None.
    fn get(&self, py: Python<'_>, context: &Bound<'_, PyDict>) -> Option<Py<PyAny>> {
        let (h, items) = read(&self.keyed, context)?;
        let got = self.kept.get(&h)?.iter().find(|e| e.matches(&items))?;
        Some(got.got.clone_ref(py))
    }

    /// Keep `got` as the answer for this context (nothing kept where a hash raises).
    fn put(&mut self, context: &Bound<'_, PyDict>, got: Py<PyAny>) {
        let Some((h, items)) = read(&self.keyed, context) else { return };
        if let Some(e) = self.kept.get_mut(&h).and_then(|es| es.iter_mut().find(|e| e.matches(&items))) {
            e.got = got;
            return;
        }
        if self.len >= self.limit {
            self.clear();
        }
        let items = items.into_iter().map(|(n, v)| (n.unbind(), v.get_type().into_any().unbind(), v.unbind())).collect();
        self.kept.entry(h).or_default().push(Entry { items, got });
        self.len += 1;
    }

    /// Forget every context.
    fn clear(&mut self) {
        self.kept.clear();
        self.len = 0;
    }

    fn __len__(&self) -> usize {
        self.len
    }
}
