//! A move as the native engine carries it (runtime/game/moves.py `Move`): its action by id, its tiles
//! kept in place, its plain choice and meld kind. Moves are made at every decision, copied into the
//! question asked, the answers, the offer taken and the steps that apply it, and compared with the moves
//! offered; by id and in place none of that allocates. The names are looked up only where a move leaves
//! as text (`Act::name`: the JSON Python reads, the continuation, a sentence).

use serde_json::{json, Value as J};
use std::ops::Deref;

use super::table::Table;

/// A move's action by id: the index in the rule set's actions of the first action of its name, or the
/// discard or the pass (`Offers::act`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Act(pub u16);

impl Act {
    pub const DISCARD: Act = Act(u16::MAX);
    pub const PASS: Act = Act(u16::MAX - 1);
    /// A name the rule set does not declare (a move read from outside): equal to no move offered.
    pub const UNKNOWN: Act = Act(u16::MAX - 2);

    /// The action's name among the rule set's actions' names by index.
    pub fn name(self, names: &[String]) -> &str {
        match self {
            Act::DISCARD => "discard",
            Act::PASS => "pass",
            Act(i) => names.get(i as usize).map_or("?", String::as_str),
        }
    }

    /// The id of an action's name among the actions' names by index (`discard` and `pass` by their own).
    pub fn named(names: &[String], name: &str) -> Act {
        match name {
            "discard" => Act::DISCARD,
            "pass" => Act::PASS,
            _ => names.iter().position(|n| n == name).map_or(Act::UNKNOWN, |i| Act(i as u16)),
        }
    }
}

/// The tiles a move in place up to this many (a discard, a meld), on the heap beyond (a selection).
const INLINE: usize = 4;

/// A move's tiles by catalog index, read as a slice.
#[derive(Clone)]
pub enum Tiles {
    Inline(u8, [usize; INLINE]),
    Heap(Vec<usize>),
}

impl Tiles {
    pub const fn new() -> Tiles {
        Tiles::Inline(0, [0; INLINE])
    }

    pub fn one(k: usize) -> Tiles {
        Tiles::Inline(1, [k, 0, 0, 0])
    }
}

impl Default for Tiles {
    fn default() -> Tiles {
        Tiles::new()
    }
}

impl Deref for Tiles {
    type Target = [usize];
    fn deref(&self) -> &[usize] {
        match self {
            Tiles::Inline(n, a) => &a[..*n as usize],
            Tiles::Heap(v) => v,
        }
    }
}

impl From<&[usize]> for Tiles {
    fn from(s: &[usize]) -> Tiles {
        if s.len() <= INLINE {
            let mut a = [0; INLINE];
            a[..s.len()].copy_from_slice(s);
            Tiles::Inline(s.len() as u8, a)
        } else {
            Tiles::Heap(s.to_vec())
        }
    }
}

impl From<Vec<usize>> for Tiles {
    fn from(v: Vec<usize>) -> Tiles {
        if v.len() <= INLINE {
            Tiles::from(v.as_slice())
        } else {
            Tiles::Heap(v)
        }
    }
}

impl PartialEq for Tiles {
    fn eq(&self, other: &Tiles) -> bool {
        **self == **other
    }
}

impl std::fmt::Debug for Tiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

impl<'a> IntoIterator for &'a Tiles {
    type Item = &'a usize;
    type IntoIter = std::slice::Iter<'a, usize>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// A move (runtime/game/moves.py `Move`): the action, its tiles, its plain choice, its meld kind.
#[derive(Clone, Debug, PartialEq)]
pub struct Mv {
    pub action: Act,
    pub tiles: Tiles,
    pub choice: Option<Box<J>>,
    pub meld: Option<Box<str>>,
}

impl Mv {
    pub(super) fn plain(action: Act, tiles: impl Into<Tiles>) -> Mv {
        Mv {
            action,
            tiles: tiles.into(),
            choice: None,
            meld: None,
        }
    }

    pub(super) fn pass() -> Mv {
        Mv::plain(Act::PASS, Tiles::new())
    }

    /// The move as Python reads it: [action, tiles, choice, meld].
    pub fn to_json(&self, t: &Table) -> J {
        json!([
            self.action.name(&t.rules.action_names),
            self.tiles.iter().map(|&k| &t.names[k]).collect::<Vec<_>>(),
            self.choice,
            self.meld
        ])
    }
}
