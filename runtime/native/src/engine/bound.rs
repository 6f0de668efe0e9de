//! The bindings a step keeps (the reference's `bind` dicts, engine/steps.rs): the turn's actor, tile,
//! discarder and robbed seat, and beside them what a won hand's events and a choice bind (`Bound::more`:
//! the other bindings with their values, the win's `self_drawn` and reading, the flags of one win's events
//! and of one winner's turn) in the dict's key order, which the continuation writes.

use serde_json::{json, Map, Value as J};

use super::table::Table;

/// The bindings a step keeps (an actor and a tile, as the reference's `bind` dicts of the turn; `more`:
/// what a won hand's events and a choice bind beside them).
#[derive(Clone, Debug)]
pub struct Bound {
    pub actor: Option<usize>,
    pub tile: Option<Option<usize>>, // None: not bound; Some(None): bound to none
    pub discarder: Option<Option<usize>>,
    pub robbed: Option<Option<usize>>,
    pub more: Option<Box<More>>,
}

/// One key of a `bind` dict beyond the turn's four fields' values: those four by name (their values in
/// `Bound`), any other binding of `scope::BOUND` with its value, the win's `self_drawn` and reading, and
/// the flags of one win's events (`ONE_WIN`) and of one winner's turn at the hand's end (`WINNER_TURN`).
#[derive(Clone, Debug)]
pub enum Key {
    Actor,
    Tile,
    Discarder,
    Robbed,
    Slot(usize, crate::program::V),
    SelfDrawn(bool),
    Reading(Box<super::win::WinI>), // the win whose reading is bound
    OneWin,
    WinnerTurn,
}

/// A `bind` dict's keys in the reference's order (the continuation writes them so).
#[derive(Clone, Debug, Default)]
pub struct More {
    pub keys: Vec<Key>,
}

impl Bound {
    pub fn turn(actor: usize, tile: Option<usize>) -> Bound {
        Bound { actor: Some(actor), tile: Some(tile), discarder: None, robbed: None, more: None }
    }

    pub fn at(actor: Option<usize>, tile: Option<Option<usize>>) -> Bound {
        Bound { actor, tile, discarder: None, robbed: None, more: None }
    }

    pub fn none() -> Bound {
        Bound { actor: None, tile: None, discarder: None, robbed: None, more: None }
    }

    /// The keys in order: the held ones, else the four fields' fixed order.
    pub fn keys(&self) -> Vec<Key> {
        if let Some(m) = &self.more {
            return m.keys.clone();
        }
        let mut k = Vec::new();
        if self.actor.is_some() {
            k.push(Key::Actor);
        }
        if self.tile.is_some() {
            k.push(Key::Tile);
        }
        if self.discarder.is_some() {
            k.push(Key::Discarder);
        }
        if self.robbed.is_some() {
            k.push(Key::Robbed);
        }
        k
    }

    fn more_mut(&mut self) -> &mut More {
        if self.more.is_none() {
            self.more = Some(Box::new(More { keys: self.keys() }));
        }
        self.more.as_mut().expect("made above")
    }

    /// `bind["actor"] = seat`: the key keeps its place, else it comes last.
    pub fn set_actor(&mut self, s: usize) {
        if self.more.is_some() && self.actor.is_none() {
            self.more_mut().keys.push(Key::Actor);
        }
        self.actor = Some(s);
    }

    /// `bind["tile"] = tile`, likewise.
    pub fn set_tile(&mut self, k: Option<usize>) {
        if self.more.is_some() && self.tile.is_none() {
            self.more_mut().keys.push(Key::Tile);
        }
        self.tile = Some(k);
    }

    /// `bind[name] = v` for a binding of `scope::BOUND` beyond the four fields.
    pub fn set_slot(&mut self, slot: usize, v: crate::program::V) {
        let keys = &mut self.more_mut().keys;
        match keys.iter_mut().find(|k| matches!(k, Key::Slot(s, _) if *s == slot)) {
            Some(k) => *k = Key::Slot(slot, v),
            None => keys.push(Key::Slot(slot, v)),
        }
    }

    /// `bind.pop("reading")`.
    pub fn drop_reading(&mut self) {
        if let Some(m) = &mut self.more {
            m.keys.retain(|k| !matches!(k, Key::Reading(_)));
        }
    }

    /// The win whose reading the bindings hold (`bind.get("reading")`).
    pub fn reading(&self) -> Option<&super::win::WinI> {
        self.more.as_ref()?.keys.iter().find_map(|k| match k {
            Key::Reading(r) => Some(&**r),
            _ => None,
        })
    }

    /// Whether a flag key is bound (`ONE_WIN`, `WINNER_TURN`).
    pub fn one_win(&self) -> bool {
        self.more.as_ref().is_some_and(|m| m.keys.iter().any(|k| matches!(k, Key::OneWin)))
    }

    pub fn winner_turn(&self) -> bool {
        self.more.as_ref().is_some_and(|m| m.keys.iter().any(|k| matches!(k, Key::WinnerTurn)))
    }

    /// The value of a binding of `scope::BOUND` beyond the four fields.
    pub fn slot(&self, slot: usize) -> Option<&crate::program::V> {
        self.more.as_ref()?.keys.iter().find_map(|k| match k {
            Key::Slot(s, v) if *s == slot => Some(v),
            _ => None,
        })
    }
}

pub fn bound_json(t: &Table, b: &Bound) -> J {
    let mut m = Map::new();
    for k in b.keys() {
        match k {
            Key::Actor => m.insert("actor".into(), seat(b.actor)),
            Key::Tile => m.insert("tile".into(), tile(t, b.tile.flatten())),
            Key::Discarder => m.insert("discarder".into(), seat(b.discarder.flatten())),
            Key::Robbed => m.insert("robbed".into(), seat(b.robbed.flatten())),
            Key::Slot(s, v) => m.insert(super::scope::BOUND[s].into(), plain_value(t, &v)),
            Key::SelfDrawn(x) => m.insert("self_drawn".into(), json!(x)),
            Key::Reading(_) => m.insert("reading".into(), json!("(reading)")),
            Key::OneWin => m.insert("one_win".into(), json!(true)),
            Key::WinnerTurn => m.insert("winner_turn".into(), json!(true)),
        };
    }
    J::Object(m)
}

/// A bound value as `plain_local` writes it: a seat as {"seat": n}, a tile by its name, a fraction as
/// its text, a list item by item.
pub fn plain_value(t: &Table, v: &crate::program::V) -> J {
    use crate::program::V;
    match v {
        V::None => J::Null,
        V::Bool(b) => json!(b),
        V::Int(i) => json!(i),
        V::Rat(n, d) => J::String(format!("{n}/{d}")),
        V::Str(s) => J::String(s.to_string()),
        V::Tile(c) => J::String(t.names[crate::program::kind_of(*c) as usize].clone()),
        V::Seat(s) => json!({ "seat": s }),
        V::List(items) => J::Array(items.iter().map(|x| plain_value(t, x)).collect()),
        V::Group(_) => J::String("Group".into()),
    }
}


fn seat(s: Option<usize>) -> J {
    s.map_or(J::Null, |s| json!({ "seat": s }))
}

fn tile(t: &Table, k: Option<usize>) -> J {
    k.map_or(J::Null, |k| J::String(t.names[k].clone()))
}
