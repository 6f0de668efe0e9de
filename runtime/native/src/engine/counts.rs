//! The hand's event counts (`HandState.events` in runtime/game/state.py: a count per name, written
//! sorted by name), kept by index for the names a rule set knows. Counting happens at every event, and
//! a search of names per count cost more than the rest of an event that is only counted; the rule set's
//! names are fixed once it is read, so each gets an index there (`Program::event_names`) and a count is
//! a slot of a vector. A name the rule set does not know (or a state read without one) is counted by
//! name beside them; whichever way a name is counted, it is counted in one place only.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Map, Value as J};

/// Names with an index: sorted and distinct, so that the counts by index come in name order.
pub type EventNames = Arc<[String]>;

#[derive(Clone, Default)]
pub struct Counts {
    names: EventNames,
    /// Per index of `names`, its count (None: never counted, so not written).
    by_id: Vec<Option<i64>>,
    /// The names not in `names`.
    other: BTreeMap<String, i64>,
}

impl Counts {
    /// The counts `map` holds (a state read back), none of them by index yet.
    pub fn from_map(map: BTreeMap<String, i64>) -> Counts {
        Counts { names: Arc::from(Vec::new()), by_id: Vec::new(), other: map }
    }

    /// `name` counted `by` more (a name the state may know by index, else by name).
    pub fn count(&mut self, name: &str, by: i64) {
        match self.names.binary_search_by(|n| n.as_str().cmp(name)) {
            Ok(i) => add(&mut self.by_id[i], by),
            Err(_) => match self.other.get_mut(name) {
                Some(n) => *n += by,
                None => {
                    self.other.insert(name.to_owned(), by);
                }
            },
        }
    }

    /// The name at index `id` of `names` counted `by` more: the counts moved over to `names` first
    /// when they are kept by other names (a state read back, or set up under another rule set).
    #[inline]
    pub fn count_at(&mut self, names: &EventNames, id: usize, by: i64) {
        if !Arc::ptr_eq(&self.names, names) {
            self.rebase(names);
        }
        add(&mut self.by_id[id], by);
    }

    fn rebase(&mut self, names: &EventNames) {
        let old = std::mem::take(self);
        *self = Counts { names: names.clone(), by_id: vec![None; names.len()], other: BTreeMap::new() };
        for (name, n) in old.iter() {
            self.count(name, n);
        }
    }

    /// Each name counted, with its count, in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, i64)> {
        let mut known = self.names.iter().zip(&self.by_id).filter_map(|(k, n)| n.map(|n| (k.as_str(), n))).peekable();
        let mut other = self.other.iter().map(|(k, n)| (k.as_str(), *n)).peekable();
        std::iter::from_fn(move || match (known.peek(), other.peek()) {
            (Some(a), Some(b)) if b.0 < a.0 => other.next(),
            (Some(_), _) => known.next(),
            (None, _) => other.next(),
        })
    }

    /// The count of `name` (None: never counted).
    pub fn get(&self, name: &str) -> Option<i64> {
        match self.names.binary_search_by(|n| n.as_str().cmp(name)) {
            Ok(i) => self.by_id[i],
            Err(_) => self.other.get(name).copied(),
        }
    }

    /// As `snapshot` writes them: an object in name order.
    pub fn to_json(&self) -> J {
        J::Object(self.iter().map(|(k, n)| (k.to_owned(), J::from(n))).collect::<Map<_, _>>())
    }
}

fn add(slot: &mut Option<i64>, by: i64) {
    *slot = Some(slot.unwrap_or(0) + by);
}
