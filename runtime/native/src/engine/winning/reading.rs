//! The reading of a win as game scope reads it (runtime/game/records.py `WinInfo.reading_env`): the
//! reading-scope names a game expression reads of the win of the moment (`form`, `self_drawn`, a
//! pattern's raw count, a quantity, …), each evaluated on the reading that counts by the pattern
//! programs' own evaluator (`hand::score_hand_reading`), so the values are the ones the scoring sees.
//!
//! A value holding a group of the reading (`melds`, `pairs`, `pair`, …) is not handed to game scope
//! (the game evaluator's groups are a seat's melds), nor a name the programs stop on (a pattern reading
//! units, counted only inside the scoring): those are declined by name where an expression reads them.

use std::sync::Arc;

use super::super::scope::READING_GROUPS;
use super::{Budget, HandState, Scored, StateWins, WinReading, HAND_WORK, V};
use crate::hand::ReadingValues;
use crate::program::{builtin, Node, Stop, B};

/// A reading-scope name resolved to the programs' slots.
#[derive(Clone, Copy, PartialEq)]
pub enum Name {
    Builtin(B),
    Pattern(usize),
    Quantity(usize),
}

/// The reading-scope names resolved, one per name asked (or why it is not read natively).
pub type Nodes = Vec<Result<Name, &'static str>>;

/// The names last resolved (`set_reading_names`): the names, the programs' `python_owned`, the nodes —
/// a few lists (the legal moves', the events', the hand's end's scopes are asked in turn), oldest first.
pub type LastNames = std::sync::Mutex<Vec<(Vec<String>, Vec<bool>, Arc<Nodes>)>>;

/// How many name lists `LastNames` keeps.
const KEPT_NAMES: usize = 4;

/// The names of a rule set's patterns and quantities, in its order (the programs' slots).
pub struct ReadingIndex {
    patterns: Vec<String>,
    quantities: Vec<String>,
}

impl ReadingIndex {
    pub fn new(ruleset_json: &str) -> ReadingIndex {
        let doc = serde_json::from_str::<serde_json::Value>(ruleset_json).unwrap_or_default();
        let names = |key: &str| -> Vec<String> {
            doc.get("ruleset")
                .and_then(|r| r.get(key))
                .and_then(serde_json::Value::as_array)
                .map(|a| a.iter().map(|x| x.get("name").and_then(serde_json::Value::as_str).unwrap_or("").to_owned()).collect())
                .unwrap_or_default()
        };
        ReadingIndex { patterns: names("patterns"), quantities: names("quantities") }
    }
}

impl StateWins<'_> {
    /// The reading-scope names game scope reads of a win (`GameScope::reading_names`: `builtin:form`,
    /// `pattern:P`, `quantity:Q`), worked out on each win `win_now` finds from now on.
    pub fn set_reading_names(&mut self, refs: &[String]) {
        let Some((_, ctx)) = self.hand else {
            self.reading_nodes = Some(Arc::new(refs.iter().map(|_| Err("no native scoring of whole hands")).collect()));
            return;
        };
        // the same names under the same programs as lately (every legal-move question asks them, a
        // win's trial and scorings the events' and the hand's end's): what was worked out then
        let mut last = self.w.last_names.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, _, nodes)) = last.iter().find(|(names, owned, _)| names.as_slice() == refs && *owned == ctx.program.python_owned) {
            self.reading_nodes = Some(nodes.clone());
            return;
        }
        let ix = &self.w.reading_index;
        let nodes: Arc<Nodes> = Arc::new(refs
            .iter()
            .map(|r| {
                let (cat, rest) = r.split_once(':').unwrap_or((r, ""));
                let first = |names: &[String]| names.iter().position(|n| n == rest);
                match cat {
                    "builtin" => builtin(rest).map(Name::Builtin).ok_or("a reading name the programs do not know"),
                    "pattern" => match first(&ix.patterns) {
                        Some(i) if ctx.program.python_owned.get(i) == Some(&false) => Ok(Name::Pattern(i)),
                        Some(_) => Err("a pattern reading units, counted only inside the scoring"),
                        None => Err("an undeclared pattern"),
                    },
                    "quantity" => first(&ix.quantities).map(Name::Quantity).ok_or("an undeclared quantity"),
                    _ => Err("a reading name the programs do not know"),
                }
            })
            .collect());
        if last.len() >= KEPT_NAMES {
            last.remove(0);
        }
        last.push((refs.to_vec(), ctx.program.python_owned.clone(), nodes.clone()));
        self.reading_nodes = Some(nodes);
    }

    /// Several scopes' reading names read of one scoring (a win read by the legal moves, the events and
    /// the hand's end): `first` (nodes already resolved) then each of `sets`, joined, so that one scoring
    /// works out every name; each part's length, in order (`split` takes the reading apart). A name's
    /// value does not depend on the names evaluated beside it (one evaluation, its results reused).
    pub fn join_reading_names(&mut self, first: &[Result<Name, &'static str>], sets: &[&[String]]) -> Vec<usize> {
        let mut joined: Nodes = first.to_vec();
        let mut lens = vec![first.len()];
        for set in sets {
            self.set_reading_names(set);
            joined.extend_from_slice(self.nodes());
            lens.push(set.len());
        }
        self.reading_nodes = Some(Arc::new(joined));
        lens
    }

    /// Whether readings of joined names (`join_reading_names`) give each part as it is given apart:
    /// no name's evaluation may decline here (a rule set without wildcards: the waits a name reads are
    /// the plain trials', which decline nothing), and there is a native scoring to read them.
    pub fn joins_readings(&self) -> bool {
        self.w.wild.is_none() && self.hand.is_some()
    }

    /// The reading-scope names' nodes set (none before `set_reading_names`).
    pub(super) fn nodes(&self) -> &[Result<Name, &'static str>] {
        self.reading_nodes.as_deref().map_or(&[], Vec::as_slice)
    }

    /// The nodes to evaluate on a win's reading (`read`: some are asked for).
    pub(super) fn reading_names(&self, read: bool) -> Vec<Node> {
        if !read {
            return Vec::new();
        }
        self.nodes()
            .iter()
            .map(|n| match n {
                Ok(Name::Builtin(b)) => Node::Builtin(*b),
                Ok(Name::Pattern(i)) => Node::Pattern(*i),
                Ok(Name::Quantity(i)) => Node::Quantity(*i),
                Err(_) => Node::Const(V::None),
            })
            .collect()
    }

    /// The values found (`score_hand_reading`, one per node of `reading_names`) as game scope takes them.
    pub(super) fn win_reading(&self, found: ReadingValues) -> WinReading {
        let (values, groups) = (found.values, found.groups);
        if groups.len() > (u16::MAX - READING_GROUPS) as usize {
            return WinReading { values: self.nodes().iter().map(|_| Err("a reading of too many groups")).collect(), groups: Vec::new() };
        }
        let values = self
            .nodes()
            .iter()
            .enumerate()
            .map(|(j, n)| {
                n.as_ref().map_err(|&why| why)?;
                match values.get(j) {
                    Some(Ok(v)) => Ok(renumber(v)),
                    Some(Err(_)) | None => Err("a name of the win's reading the programs stop on"),
                }
            })
            .collect();
        WinReading { values, groups }
    }
}

impl WinReading {
    /// A reading of joined names (`join_reading_names`) taken apart: one reading per part, each with
    /// the reading's groups, as a scoring asked for that part's names alone gives it.
    pub fn split(&self, lens: &[usize]) -> Vec<WinReading> {
        let mut at = 0;
        lens.iter()
            .map(|&n| {
                let values = self.values[at..at + n].to_vec();
                at += n;
                WinReading { values, groups: self.groups.clone() }
            })
            .collect()
    }
}

/// A value with each group of the reading named as game scope names it (`READING_GROUPS` on).
fn renumber(v: &V) -> V {
    match v {
        V::Group(i) => V::Group(READING_GROUPS + *i),
        V::List(items) => V::List(std::sync::Arc::new(items.iter().map(renumber).collect())),
        x => x.clone(),
    }
}


impl StateWins<'_> {
    /// The reading of the win seat `s` makes with `conc` concealed and `win` as its winning tile,
    /// limited to `forms` (none: every form), as this state scores it (`WinInfo.reading_env` of a win
    /// scored on this state, won or not — a win tried on a copy of the context may not win on the
    /// state's own, runtime/game/win_trial.py): None when the hand has no reading; declined
    /// (`take_declined`) where the native scoring does not take the hand.
    pub fn reading_of(&self, st: &HandState, s: usize, conc: &[usize], win: Option<usize>, self_drawn: bool, forms: &[String]) -> Result<Option<WinReading>, Stop> {
        let mut budget = Budget { work: HAND_WORK };
        Ok(match self.score_by(st, s, conc, win, self_drawn, forms, &mut budget, true)? {
            (Scored::Hand(_), r) => r,
            _ => None,
        })
    }
}
