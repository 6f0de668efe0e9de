//! The win and wait questions of the native game (runtime/game/winning.py `Winning`), answered on the
//! native state: a seat's `waits` and `group_waits`, `waits_without` and `group_waits_without`, through
//! the native wait trials (src/waits/: the block tables' `completing_kinds` for a rule set whose waits
//! are decided by structure, else each kind tried with its readings and the requirements that decide
//! the waits) under the scoring environment of the moment (the settings with the state's context and
//! reveal values, as `Winning._score_env` builds it).
//!
//! What is not ported answers nothing and says so by name: at lowering (`covers`), every question for
//! a rule set the wait trials do not take (wildcards or stand-ins: `WaitRules::build` names why), and
//! the questions that need a whole win scored (`best_score`, `best_fans`, `best_tile`, a reading of
//! the win being paid); during an evaluation, a hand the trials decline (the work limit, a condition
//! the programs stop on) or a setting that cannot be handed to the programs (`declined`, never a
//! different value). The reference's shortcuts (`_not_ready`, `_hopeless`, `_unmendable`) are exact:
//! they only skip work whose answer is the same, so the trials give their answers without them.
//!
//! One `StateWins` is made per state read: it memoises each question per (seat, question, tile), as
//! the reference's `SeatMemo` keeps them per seat version and context version, which one state fixes.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::scope::{Question, WinQuestions};
use super::state::{HandState, Value};
use super::table::Table;
use crate::blocks::Tables as Core;
use crate::program::{kind_of, Program, Stop, V};
use crate::waits::{waits, waits_by, HandMeld, WaitHand, WaitRules};
use crate::Error;

/// A hand's trials may spend this much work (runtime/limits.py HAND_WORK).
const HAND_WORK: i64 = 1_000_000;

/// The wait machinery of one rule set under one table, built once.
pub struct Winning {
    trials: Result<Trials, String>, // or why the rule set's waits are not found natively
}

struct Trials {
    program: Program,
    rules: WaitRules,
    core: Mutex<Core>,
    group_mask: Vec<bool>,
    groups_differ: bool, // some form builds no split (`Winning._group_forms_differ`)
}

impl Winning {
    pub fn new(t: &Table, ruleset_json: &str) -> Winning {
        let trials = (|| -> Result<Trials, Error> {
            let program = Program::build(ruleset_json, &t.cat)?;
            let core = Core::build(&t.rs, &t.cat, 0)?;
            let rules = WaitRules::build(ruleset_json, &t.cat, &core, &program)?;
            let group_mask = rules.group_forms();
            let groups_differ = group_mask.iter().any(|&g| !g);
            Ok(Trials { program, rules, core: Mutex::new(core), group_mask, groups_differ })
        })()
        .map_err(|e| match e {
            Error::NotCovered(m) | Error::Input(m) | Error::Internal(m) => m,
        });
        Winning { trials }
    }

    /// Why a question is not answered natively for this rule set (None: it is).
    pub fn refusal(&self, q: Question) -> Option<String> {
        match q {
            Question::Waits | Question::GroupWaits | Question::WaitsWithout | Question::GroupWaitsWithout => {
                self.trials.as_ref().err().map(|why| format!("{} ({why})", q.name()))
            }
            _ => Some(q.name().to_owned()),
        }
    }

    /// The questions on one state.
    pub fn on<'a>(&'a self, t: &'a Table, st: &HandState) -> StateWins<'a> {
        let settings = match &self.trials {
            Ok(tr) => settings_of(t, st, &tr.program.settings),
            Err(_) => Err("no wait trials"),
        };
        StateWins { w: self, t, settings, memo: RefCell::new(HashMap::new()), declined: Cell::new(None) }
    }
}

impl WinQuestions for Winning {
    fn covers(&self, q: Question) -> bool {
        self.refusal(q).is_none()
    }

    fn ask(&self, _st: &HandState, _q: Question, _args: &[V]) -> Result<V, Stop> {
        Err(Stop::Bail) // asked on a state through `on`
    }
}

/// A state's value as the programs take it (`nativecounts.encode`): tiles as natural tile codes; a
/// seat cannot be handed over.
fn encode(t: &Table, v: &Value) -> Option<V> {
    Some(match v {
        Value::None => V::None,
        Value::Bool(b) => V::Bool(*b),
        Value::Int(i) => V::Int(*i),
        Value::Str(s) => V::Str(Arc::from(s.as_str())),
        Value::Tile(k) => V::Tile(((*k as u32) << 2) | (t.cat.kinds.get(*k)?.category == "joker") as u32),
        Value::Seat(_) => return None,
        Value::List(items) => V::List(Arc::new(items.iter().map(|x| encode(t, x)).collect::<Option<Vec<_>>>()?)),
    })
}

/// The programs' settings in the scoring environment of the moment (`Winning._score_env`): the table's
/// settings, then the state's context values and turned reveals over them; None where the
/// environment has no such name.
fn settings_of(t: &Table, st: &HandState, names: &[String]) -> Result<Vec<Option<V>>, &'static str> {
    let from_state = |vars: &[(String, Value)], name: &str| super::state::get(vars, name).map(|v| encode(t, v));
    names
        .iter()
        .map(|n| {
            let got = if let Some(c) = n.strip_prefix("context:") {
                from_state(&st.context, c)
            } else if let Some(r) = n.strip_prefix("reveal:") {
                from_state(&st.reveals, r)
            } else {
                None
            };
            match got {
                Some(Some(v)) => Ok(Some(v)),
                Some(None) => Err("a value the scoring programs do not take"),
                None => match t.settings.get(n) {
                    None => Ok(None),
                    Some(v) => super::scope::val_to_v(t, v).map(Some).ok_or("a setting the scoring programs do not take"),
                },
            }
        })
        .collect()
}

/// The questions asked on one state, each answered once per (seat, question, tile).
pub struct StateWins<'a> {
    w: &'a Winning,
    t: &'a Table,
    settings: Result<Vec<Option<V>>, &'static str>,
    memo: RefCell<HashMap<(usize, u8, Option<usize>), V>>,
    declined: Cell<Option<&'static str>>,
}

impl StateWins<'_> {
    /// Why the last question this state could not answer natively was declined (None: none was).
    /// (The next evaluation starts with none.)
    pub fn take_declined(&self) -> Option<&'static str> {
        self.declined.take()
    }

    fn decline(&self, why: &'static str) -> Stop {
        self.declined.set(Some(why));
        Stop::Bail
    }

    /// The kinds seat `s`'s concealed hand (without one tile of kind `without`) waits on.
    fn waits_of(&self, st: &HandState, s: usize, without: Option<usize>, groups: bool) -> Result<V, Stop> {
        let tr = self.w.trials.as_ref().map_err(|_| self.decline("no wait trials"))?;
        let settings = self.settings.as_ref().map_err(|&why| self.decline(why))?;
        let seat = st.seats.get(s).ok_or(Stop::Bail)?;
        let mut concealed = seat.hand.clone();
        if let Some(k) = without {
            match concealed.iter().position(|&x| x == k) {
                Some(i) => {
                    concealed.remove(i);
                }
                None => return Ok(V::List(Arc::new(Vec::new()))),
            }
        }
        let mut melds = Vec::with_capacity(seat.melds.len());
        for m in &seat.melds {
            let meld = tr.rules.meld(&m.kind).ok_or_else(|| self.decline("a meld kind the rule set does not declare"))?;
            melds.push(HandMeld { meld, kinds: m.tiles.clone() });
        }
        let flowers: Vec<usize> =
            seat.aside.iter().copied().filter(|&k| self.t.cat.kinds.get(k).is_some_and(|x| x.category == "flower")).collect();
        let hand = WaitHand { concealed: &concealed, melds: &melds, flowers: &flowers, self_drawn: false, settings };
        let mut work = HAND_WORK;
        let mut core = tr.core.lock().unwrap_or_else(|e| e.into_inner());
        let got = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            if groups && tr.groups_differ {
                waits_by(&tr.rules, &mut core, &tr.program, &hand, &tr.group_mask, &mut work)
            } else {
                waits(&tr.rules, &mut core, &tr.program, &hand, false, &mut work)
            }
        }));
        let kinds = match got {
            Ok(Ok(kinds)) => kinds,
            Ok(Err(why)) => return Err(self.decline(why.0)),
            Err(_) => {
                core.reset();
                return Err(self.decline("a panic on this hand"));
            }
        };
        Ok(V::List(Arc::new(kinds.into_iter().map(|k| tr.rules.tile_code(k)).collect())))
    }
}

impl WinQuestions for StateWins<'_> {
    fn covers(&self, q: Question) -> bool {
        self.w.covers(q)
    }

    fn ask(&self, st: &HandState, q: Question, args: &[V]) -> Result<V, Stop> {
        let none = |i: usize| matches!(args.get(i), Some(V::None) | None);
        let (groups, without) = match q {
            Question::Waits => (false, None),
            Question::GroupWaits => (true, None),
            // no seat or no tile: no waits (before either is read)
            Question::WaitsWithout | Question::GroupWaitsWithout if none(0) || none(1) => return Ok(V::List(Arc::new(Vec::new()))),
            Question::WaitsWithout | Question::GroupWaitsWithout => match args.get(1) {
                Some(V::Tile(c)) => (q == Question::GroupWaitsWithout, Some(kind_of(*c) as usize)),
                _ => return Err(Stop::Bail), // a name read off a value that has none: the reference raises
            },
            _ => return Err(self.decline("a question that needs a win scored")),
        };
        let seat = match args.first() {
            Some(V::Seat(s)) => Some(*s as usize),
            _ => None, // the reference reads a seat's hand off something else: it raises
        };
        let s = seat.ok_or(Stop::Bail)?;
        let key = (s, q as u8, without);
        if let Some(v) = self.memo.borrow().get(&key) {
            return Ok(v.clone());
        }
        let v = self.waits_of(st, s, without, groups)?;
        self.memo.borrow_mut().insert(key, v.clone());
        Ok(v)
    }
}
