//! The win and wait questions of the native game (runtime/game/winning.py `Winning`), answered on the
//! native state: a seat's `waits` and `group_waits`, `waits_without` and `group_waits_without`, through
//! the native wait trials (src/waits/: the block tables' `completing_kinds` for a rule set whose waits
//! are decided by structure, else each kind tried with its readings and the requirements that decide
//! the waits) under the scoring environment of the moment (the settings with the state's context and
//! reveal values, as `Winning._score_env` builds it); a win on a tile (`Game.score`, as the efficiency
//! bot asks it) and a seat's best win on a wait (`best_score`, `best_fans`, `best_tile`) by the
//! whole-hand scorer (src/hand/ `score_hand`), whose `Hands` the Python side hands over; the win a
//! seat makes now (`Winning._win_info`, `win_now`: what the legal moves offer) by the same scorer.
//!
//! A rule set with wildcards or stand-ins is answered too (winning/wild.rs): the hand's tiles
//! classified as the reference's `classify` does, the classified hand read by the batch path's readings
//! (src/hand/wild.rs), the waits by trials on them (src/hand/trial.rs).
//!
//! What is not ported answers nothing and says so by name: at lowering (`covers`), a reading of the win
//! being paid, and every wait question of a rule set whose wait rules do not build; during an
//! evaluation (`declined`, never a different value), a hand the trials decline (the work limit, a
//! condition the programs stop on), a setting that cannot be handed to the programs, a hand whose
//! wildcards the reference reads by signature, a hand the whole-hand scorer hands back. The
//! reference's shortcuts (`_not_ready`, `_hopeless`, `_unmendable`) are exact: they only skip work
//! whose answer is known (no wait, no win), and are taken here as there (winning/shortcut.rs), with
//! `_could_win`'s structural test before a win on a tile is scored (win_now.rs); `_could_win` is not
//! only a shortcut for a wait trial, and is ported there (winning/wild.rs).
//!
//! One `StateWins` is made per state read: it memoises each question per (seat, question, tile); a
//! seat's waits and block deficit are also kept across states by the rule set's `Winning`
//! (winning/seat_memo.rs), as the reference's `SeatMemo` keeps them per seat version and context version.

use std::cell::{Cell, RefCell};
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;

use super::scope::{Question, WinFound, WinQuestions, WinReading};

mod could; // `_could_win`: the structural test before a wait trial and a win's scoring
mod wild; // a rule set with wildcards or stand-ins: the hand's tiles classified, the wait trials on its readings
mod reading; // the reading of a win, as game scope reads it
mod on_values; // what `on` works out from a state's context and reveal values, kept for the next state
use on_values::OnValues;
mod record; // a winner's result as `_record` keeps it (fans by pattern), for the native simulation
mod win_now; // the win a seat makes now (`_win_info`), on these questions' scoring
mod shortcut; // the reference's exact shortcuts: hands that wait on nothing and win on no tile
mod seat_memo; // a seat's wait answers kept across states (the reference's `SeatMemo`)
mod instant; // what an instant form's condition says of the hand's size and distinct tiles
mod best; // a seat's best win on a wait (`best_score`, `best_fans`, `best_tile`)
mod bounded; // a wait question's length walked only as far as a comparison of it needs
mod refute; // a kind the hand's blocks rule out as a wait, which decides a length comparison alone
use best::python_tuple_gt;
mod trial; // the trial a win is offered on: what its taking sets of the context applied to a copy
pub use trial::TrialParts;
use super::state::{HandState, Value};
use super::table::Table;
use crate::blocks::Tables as Core;
use crate::hand::binding::Hands;
use crate::hand::{score_hand_reading, Budget, Fallback, HandCtx, HandInput, HandOutcome, ScoredHand, Waits};
use crate::program::{kind_of, Program, Stop, V};
use crate::waits::TrialWaits;
use crate::waits::{waits, waits_by, HandMeld, WaitHand, WaitRules};
use crate::Error;

/// A hand's trials may spend this much work (runtime/limits.py HAND_WORK).
const HAND_WORK: i64 = 1_000_000;

/// The wait machinery of one rule set under one table, built once.
pub struct Winning {
    trials: Result<Trials, String>, // or why the rule set's waits are not found natively
    standins: Vec<String>,          // the stand-ins' kinds, by name
    /// A rule set with wildcards or stand-ins: its waits are tried on the whole-hand readings (wild.rs).
    wild: Option<wild::WildRules>,
    /// The whole-hand scoring of the rule set's catalog (src/hand/), handed over by the Python side
    /// (`EngineTable.set_scoring`): without it no question that scores a win is answered.
    pub scoring: Option<HandScoring>,
    reading_index: reading::ReadingIndex, // the patterns' and quantities' names, for a win's reading
    /// What `on` last worked out from a state's context and reveal values alone (the scoring environments,
    /// the wildcards' kinds), newest first: a state with the same values takes it as it is. Two: a win's
    /// trial asks on a copy of the state with the values its hooks set, then the game on the state again.
    last_on: Mutex<[Option<Arc<OnValues>>; 2]>,
    /// How many `OnValues` were worked out: each its generation, the key of what is kept across states.
    generations: std::sync::atomic::AtomicU64,
    /// Each seat's wait answers kept across states (winning/seat_memo.rs): this rule set's, for its table.
    seats: seat_memo::SeatMemos,
    /// The reading-scope names last resolved (`StateWins::set_reading_names`), asked again per state.
    last_names: reading::LastNames,
    /// The hands the instant forms' leading conjuncts rule out (the wins' structural test).
    instant: instant::InstantBounds,
    /// A won hand's last scorings after the win or on its trial (record.rs `KeptWon`, newest last).
    kept_won: Mutex<Vec<record::KeptWon>>,
    /// What the exact shortcuts last read of the tables for the free kinds (shortcut.rs `MendShape`).
    last_mend: shortcut::LastMend,
}

/// What scores a seat's hand natively: the rule set's `Hands` (its programs and tables), the positions
/// of the forms it wins by, and a callable checking and encoding a laid-down meld the native side has
/// not seen (`NativeHands.batch_meld`: (meld kind, tile kinds) -> whether it was recorded).
pub struct HandScoring {
    pub hands: Py<Hands>,
    pub forms: Vec<usize>,
    pub meld: Py<PyAny>,
    /// (meld kind, tiles (kind, physical, wild, winning), concealed, has the winning tile) -> (encoded
    /// value, prefilter vector bytes or None): a group holding wildcards or stand-ins, as the batch path
    /// asks it (`NativeHands.group_info`); without it such a hand is declined.
    pub group: Option<Py<PyAny>>,
    /// (the scoring environment's context and reveal values as JSON, self-drawn, for the waits, form
    /// position, melds, pairs, naturals, wildcards, work left) -> the reference's signature search of a
    /// hand holding two or more wildcards of one kind (`NativeHands.signature_search_for`), answered as
    /// the batch path's; without it such a hand is declined.
    pub signatures: Option<Py<PyAny>>,
}

impl HandScoring {
    /// The scoring `set_scoring` hands over (every binding's: `EngineTable`, `EngineHand`,
    /// `EngineOffers`, `EngineEvents`), its form positions checked against the rule set's forms.
    pub fn new(py: Python<'_>, hands: Py<Hands>, forms: Vec<usize>, meld: Py<PyAny>, group: Option<Py<PyAny>>, signatures: Option<Py<PyAny>>) -> PyResult<HandScoring> {
        let known = hands.bind(py).borrow().setup().forms.len();
        if forms.iter().any(|&f| f >= known) {
            return Err(pyo3::exceptions::PyValueError::new_err("a form position outside the rule set's forms"));
        }
        Ok(HandScoring { hands, forms, meld, group, signatures })
    }
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
        let standins: Vec<String> = serde_json::from_str::<serde_json::Value>(ruleset_json)
            .ok()
            .and_then(|d| d.get("ruleset")?.get("standins")?.as_array().cloned())
            .unwrap_or_default()
            .iter()
            .filter_map(|x| x.get("name").and_then(serde_json::Value::as_str).map(str::to_owned))
            .collect();
        let wild_rules = !standins.is_empty() || !t.rules.wilds.is_empty();
        let (wild, trials) = match (wild_rules, wild::WildRules::build(ruleset_json)) {
            (true, Ok(w)) => (Some(w), trials),
            (true, Err(why)) => (None, Err(why)),
            (false, _) => (None, trials),
        };
        Winning { trials, standins, wild, scoring: None, reading_index: reading::ReadingIndex::new(ruleset_json), last_on: Mutex::new([None, None]), generations: Default::default(), seats: Default::default(), last_names: Default::default(), instant: instant::InstantBounds::build(ruleset_json), kept_won: Mutex::new(Vec::new()), last_mend: Mutex::new(None) }
    }

    /// Why a question is not answered natively for this rule set (None: it is).
    pub fn refused(&self, q: Question) -> Option<String> {
        match q {
            // a rule set with wildcards or stand-ins: tried on the whole-hand readings, which may be
            // handed over after lowering (without them these are declined on the state)
            Question::Waits | Question::GroupWaits | Question::WaitsWithout | Question::GroupWaitsWithout
            | Question::BestScore | Question::BestFans | Question::BestTile
                if self.wild.is_some() =>
            {
                None
            }
            Question::Waits | Question::GroupWaits | Question::WaitsWithout | Question::GroupWaitsWithout => {
                self.trials.as_ref().err().map(|why| format!("{} ({why})", q.name()))
            }
            // the whole-hand scoring may be handed over after lowering: without it these are declined
            Question::BestScore | Question::BestFans | Question::BestTile => {
                self.trials.as_ref().err().map(|why| format!("{} ({why})", q.name()))
            }
            // found with the win it reads (`win_now`), declined where the win is not found natively
            Question::Reading => None,
        }
    }

    /// The questions on one state; `hand`: the whole-hand scoring's programs and tables (`Hands::with_ctx`).
    pub fn on<'a>(&'a self, t: &'a Table, st: &HandState, hand: Option<(Python<'a>, &'a HandCtx<'a>)>) -> StateWins<'a> {
        let hand_key = hand.map_or(0, |(_, ctx)| ctx.program.settings.as_ptr() as usize);
        let mut last = self.last_on.lock().unwrap_or_else(|e| e.into_inner());
        let holds = |v: &OnValues| {
            if v.hand != hand_key {
                return false;
            }
            // the same values id: the same values (the id is renewed at every change of them)
            if v.values_id.load(std::sync::atomic::Ordering::Relaxed) == st.values_id {
                return true;
            }
            let same = v.context == st.context && v.reveals == st.reveals;
            if same {
                v.values_id.store(st.values_id, std::sync::atomic::Ordering::Relaxed);
            }
            same
        };
        match (0..last.len()).find(|&i| last[i].as_deref().is_some_and(holds)) {
            Some(0) => {}
            Some(i) => last.swap(0, i),
            None => {
                last.rotate_right(1);
                last[0] = Some(Arc::new(self.on_values(t, st, hand, hand_key)));
            }
        }
        debug_assert!(last[0].as_ref().is_some_and(|v| v.context == st.context && v.reveals == st.reveals));
        let on = last[0].as_ref().expect("set above").clone();
        drop(last);
        StateWins {
            w: self,
            t,
            hand,
            on,
            memo: RefCell::new(Vec::new()),
            best: RefCell::new(Vec::new()),
            declined: Cell::new(None),
            reading_nodes: None,
            trial: None,
        }
    }
}

impl WinQuestions for Winning {
    fn covers(&self, q: Question) -> bool {
        self.refused(q).is_none()
    }

    fn refusal(&self, q: Question) -> String {
        self.refused(q).unwrap_or_else(|| q.name().to_owned())
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

/// (seat, question, tile given up) -> the waits found. (A state is asked few of them: a list searched in
/// turn costs less than hashing the key, and a state's memo is made anew for every state.)
type WaitMemo = RefCell<Vec<((usize, u8, Option<usize>), V)>>;

/// The questions asked on one state, each answered once per (seat, question, tile).
pub struct StateWins<'a> {
    w: &'a Winning,
    t: &'a Table,
    hand: Option<(Python<'a>, &'a HandCtx<'a>)>,
    /// What `on` worked out from the state's context and reveal values (shared with the states that
    /// have the same values): the scoring environments, the wildcards' and stand-ins' kinds.
    on: Arc<OnValues>,
    memo: WaitMemo,
    /// (seat, self-drawn) -> the best win (a state is asked few: a list, made without a hasher's keys)
    best: best::BestMemo,
    declined: Cell<Option<&'static str>>,
    /// The reading-scope names game scope reads of a win (`set_reading_names`), as nodes of the
    /// whole-hand scoring's programs: worked out on each win `win_now` finds.
    reading_nodes: Option<Arc<reading::Nodes>>,
    /// What a win tried before it is offered reads (`set_trial`; None: such a win is declined).
    trial: Option<TrialParts<'a>>,
}

/// A hand scored natively: its result, no reading, or refused (the reference raises a HandError).
enum Scored {
    Hand(Box<ScoredHand>),
    NoReading,
    Refused,
}

/// The waits a pattern reads that the native trials decline: the question is declined.
struct NoWaits;

impl Waits for NoWaits {
    fn waits(&mut self, _shape: bool, _budget: &mut Budget) -> Result<V, Fallback> {
        Err(Fallback("the native wait trials decline".into()))
    }
}

impl StateWins<'_> {
    /// Why the last question this state could not answer natively was declined (None: none was; the next
    /// evaluation starts with none).
    pub fn take_declined(&self) -> Option<&'static str> {
        self.declined.take()
    }

    fn decline(&self, why: &'static str) -> Stop {
        self.declined.set(Some(why));
        Stop::Bail
    }

    /// The kinds seat `s`'s concealed hand (without one tile of kind `without`) waits on.
    fn waits_of(&self, st: &HandState, s: usize, without: Option<usize>, groups: bool) -> Result<Vec<usize>, Stop> {
        if self.w.wild.is_some() {
            return self.wild_waits_of(st, s, without, groups);
        }
        let tr = self.w.trials.as_ref().map_err(|_| self.decline("no wait trials"))?;
        let settings = self.on.settings.as_ref().map_err(|&why| self.decline(why))?;
        let seat = st.seats.get(s).ok_or(Stop::Bail)?;
        let mut concealed = seat.hand.clone();
        if let Some(k) = without {
            match concealed.iter().position(|&x| x == k) {
                Some(i) => {
                    concealed.remove(i);
                }
                None => return Ok(Vec::new()),
            }
        }
        if self.not_ready(st, s, &concealed) {
            return Ok(Vec::new());
        }
        let mut melds = Vec::with_capacity(seat.melds.len());
        for m in &seat.melds {
            let meld = tr.rules.meld(&m.kind).ok_or_else(|| self.decline("a meld kind the rule set does not declare"))?;
            melds.push(HandMeld { meld, kinds: m.tiles.clone() });
        }
        let flowers = self.flowers(st, s);
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
        match got {
            Ok(Ok(kinds)) => Ok(kinds),
            Ok(Err(why)) => Err(self.decline(why.0)),
            Err(_) => {
                core.reset();
                Err(self.decline("a panic on this hand"))
            }
        }
    }

    /// The flowers seat `s` set aside (`Winning.hand_of`), by kind.
    fn flowers(&self, st: &HandState, s: usize) -> Vec<usize> {
        let Some(seat) = st.seats.get(s) else { return Vec::new() };
        seat.aside.iter().copied().filter(|&k| self.t.cat.kinds.get(k).is_some_and(|x| x.category == "flower")).collect()
    }

    /// `Winning.waits(seat)` (memoised for the state), by kind.
    pub fn waits(&self, st: &HandState, s: usize) -> Result<Vec<usize>, Stop> {
        self.waits_memo(st, s, Question::Waits, None)
    }

    /// `Winning.waits_without(seat, kind, groups)`, by kind.
    pub fn waits_without(&self, st: &HandState, s: usize, kind: usize, groups: bool) -> Result<Vec<usize>, Stop> {
        let q = if groups { Question::GroupWaitsWithout } else { Question::WaitsWithout };
        self.waits_memo(st, s, q, Some(kind))
    }

    fn waits_memo(&self, st: &HandState, s: usize, q: Question, without: Option<usize>) -> Result<Vec<usize>, Stop> {
        let key = (s, q as u8, without);
        if let Some(V::List(v)) = self.memo_of(key) {
            return Ok(v.iter().map(|x| if let V::Tile(c) = x { kind_of(*c) as usize } else { usize::MAX }).collect());
        }
        self.waits_found(st, s, q, without).map(|(kinds, _)| kinds)
    }

    /// The waits memoised for the state under `key`.
    fn memo_of(&self, key: (usize, u8, Option<usize>)) -> Option<V> {
        self.memo.borrow().iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone())
    }

    /// `waits_memo` not memoised yet: the waits found (or kept), by kind and as the programs read them.
    fn waits_found(&self, st: &HandState, s: usize, q: Question, without: Option<usize>) -> Result<(Vec<usize>, V), Stop> {
        let groups = matches!(q, Question::GroupWaits | Question::GroupWaitsWithout);
        // kept by the concealed tiles tried (the hand without the tile given up: `waits_of`'s), and by
        // whether the group forms differ from all the forms (else both questions try the same forms)
        let concealed = self.tried_hand(st, s, without);
        let by_groups = groups && self.groups_differ();
        let kinds = match concealed.as_deref().and_then(|c| self.kept_waits(st, s, c, by_groups)) {
            Some(kinds) => kinds,
            None => {
                let kinds = self.waits_of(st, s, without, groups)?;
                if let Some(c) = &concealed {
                    self.keep_waits(st, s, c, by_groups, &kinds);
                }
                kinds
            }
        };
        let v = self.memo_waits(s, q, without, &kinds);
        Ok((kinds, v))
    }

    /// Keep the whole waits found for the state under (seat, question, tile given up), as the programs
    /// read them (natural tiles).
    fn memo_waits(&self, s: usize, q: Question, without: Option<usize>, kinds: &[usize]) -> V {
        let v = V::List(Arc::new(kinds.iter().map(|&k| encode(self.t, &Value::Tile(k)).unwrap_or(V::None)).collect()));
        self.memo.borrow_mut().push(((s, q as u8, without), v.clone()));
        v
    }

    /// Seat `s`'s hand scored with `conc` as its concealed tiles and `win` as the winning tile
    /// (`Winning.score` past its shortcut, which only skips hands that score no win), declined where
    /// the native scoring does not take the hand. `budget`: the work, shared where the reference
    /// shares it.
    fn score(&self, st: &HandState, s: usize, conc: &[usize], win: usize, self_drawn: bool, budget: &mut Budget) -> Result<Scored, Stop> {
        Ok(self.score_by(st, s, conc, Some(win), self_drawn, &[], budget, false)?.0)
    }

    /// `score` with the winning tile optional (None: the hand as it stands) and the forms limited to
    /// those named (`Winning._rules_for`; none named: every form the rules win by).
    /// With `read`, the reading-scope names game scope reads (`reading_nodes`) on the reading that counts.
    #[allow(clippy::too_many_arguments)]
    fn score_by(&self, st: &HandState, s: usize, conc: &[usize], win: Option<usize>, self_drawn: bool, only: &[String], budget: &mut Budget, read: bool) -> Result<(Scored, Option<WinReading>), Stop> {
        self.score_with(st, s, conc, win, self_drawn, only, true, budget, read, false)
    }

    /// `score_by` for a question that reads only whether the hand wins and, where it wins, its
    /// score, best and reading (`score_hand_reading`'s `lean`): all else of the hand is left out.
    #[allow(clippy::too_many_arguments)]
    fn score_win_by(&self, st: &HandState, s: usize, conc: &[usize], win: Option<usize>, self_drawn: bool, only: &[String], budget: &mut Budget, read: bool) -> Result<(Scored, Option<WinReading>), Stop> {
        self.score_with(st, s, conc, win, self_drawn, only, true, budget, read, true)
    }

    /// `score_by`, with or without the flowers the seat set aside (`_could_win` scores a hand made
    /// without them); with `lean`, as `score_win_by`.
    #[allow(clippy::too_many_arguments)]
    fn score_with(&self, st: &HandState, s: usize, conc: &[usize], win: Option<usize>, self_drawn: bool, only: &[String], with_flowers: bool, budget: &mut Budget, read: bool, lean: bool) -> Result<(Scored, Option<WinReading>), Stop> {
        let Some((_, ctx)) = self.hand else { return Err(self.decline("no native scoring of whole hands")) };
        let scoring = self.w.scoring.as_ref().ok_or_else(|| self.decline("no native scoring of whole hands"))?;
        let settings = self.on.hand_settings.as_ref().map_err(|&why| self.decline(why))?;
        let flowers = if with_flowers { self.flowers(st, s) } else { Vec::new() };
        let melds = self.melds_in(st, s)?;
        // a rule set with wildcards or stand-ins: the hand's tiles classified (`classify`), the hand
        // read as a natural one when none is wild or stands in
        let wild = if self.w.wild.is_some() { self.wild_input(conc, win, self_drawn, false)? } else { None };
        let codes = &ctx.setup.tile_codes;
        let inp = HandInput {
            concealed: conc.to_vec(),
            melds,
            win,
            self_drawn,
            settings: settings.clone(),
            flowers: flowers.iter().map(|&k| V::Tile(codes[k])).collect(),
            forms: if only.is_empty() {
                scoring.forms.clone()
            } else {
                let named = |&f: &usize| ctx.setup.forms.get(f).is_some_and(|x| only.iter().any(|n| *n == *x.name));
                scoring.forms.iter().copied().filter(named).collect()
            },
            charge_splits: !self.w.standins.is_empty() || !self.t.rules.wilds.is_empty(),
            wild,
        };
        let names = self.reading_names(read);
        let got = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            if self.w.wild.is_some() {
                let mut waits = wild::GameWaits { wins: self, st, seat: s, concealed: conc, self_drawn, has_win: win.is_some(), wild: inp.wild.as_ref() };
                score_hand_reading(ctx, &inp, budget, &mut waits, &names, lean)
            } else {
                let mut fallback = NoWaits;
                let mut waits = TrialWaits::new(ctx.scorer, &inp, &mut fallback);
                score_hand_reading(ctx, &inp, budget, &mut waits, &names, lean)
            }
        }));
        match got {
            Ok(Ok((HandOutcome::Scored(h), values))) => {
                let reading = read.then(|| self.win_reading(values));
                Ok((Scored::Hand(h), reading))
            }
            Ok(Ok((HandOutcome::NoReading, _))) => Ok((Scored::NoReading, None)),
            Ok(Ok((HandOutcome::Refused(_), _))) => Ok((Scored::Refused, None)),
            Ok(Err(why)) if why.0 == crate::hand::BY_SIGNATURE => {
                Err(self.decline("a hand whose wildcards (of one kind) the reference reads by signature"))
            }
            // the waits a pattern reads, declined by the trials: their reason stands
            Ok(Err(_)) if self.declined.get().is_some() => Err(Stop::Bail),
            Ok(Err(_)) => Err(self.decline("a hand the native scoring hands back")),
            Err(_) => Err(self.decline("a panic on this hand")),
        }
    }

    /// Whether seat `s` wins on `kind` with one tile of `without` given up, self-drawn when `drawn`
    /// (the efficiency bot's question, runtime/game/native_bot.py `SeatOracle.wins`).
    pub fn wins(&self, st: &HandState, s: usize, without: usize, kind: usize, drawn: bool) -> Result<bool, Stop> {
        let seat = st.seats.get(s).ok_or(Stop::Bail)?;
        let mut conc = seat.hand.clone();
        let i = conc.iter().position(|&x| x == without).ok_or(Stop::Bail)?;
        conc.remove(i);
        // `Winning.score`'s structural test first (`_could_win`): a hand it rules out scores no win there
        if !self.could_win_now(st, s, &conc, kind, drawn, &[]) {
            return Ok(false);
        }
        let mut budget = Budget { work: HAND_WORK };
        // `Game.score` gives no result for a hand it refuses (HandError caught): no win
        Ok(matches!(self.score_win_by(st, s, &conc, Some(kind), drawn, &[], &mut budget, false)?.0, Scored::Hand(h) if h.win))
    }
}

impl WinQuestions for StateWins<'_> {
    fn covers(&self, q: Question) -> bool {
        self.w.covers(q)
    }

    /// The wins are answered where the whole-hand scoring is handed over (a hand it does not take is
    /// declined on the state, `take_declined` says why).
    fn covers_wins(&self) -> bool {
        self.hand.is_some() && self.w.scoring.is_some()
    }

    fn win(&self, st: &HandState, seat: usize, mode: &str, tile: Option<usize>, forms: &[String], discarder: Option<usize>, robbed: Option<usize>, tried: Option<&str>) -> Result<Option<WinFound>, Stop> {
        match tried {
            None => self.win_now(st, seat, mode, tile, forms),
            Some(action) => self.win_tried(st, seat, mode, tile, forms, discarder, robbed, action),
        }
    }

    fn take_declined(&self) -> Option<&'static str> {
        self.declined.take()
    }

    /// Kept with the values these questions were made on: given for a state with the same values id
    /// (the id is renewed at every change of the context or reveal values).
    fn hand_wild(&self, st: &HandState) -> Option<&[bool]> {
        (self.on.values_id.load(std::sync::atomic::Ordering::Relaxed) == st.values_id).then_some(self.on.hand_wild.as_slice())
    }

    fn refusal(&self, q: Question) -> String {
        self.w.refusal(q)
    }

    fn ask_len(&self, st: &HandState, q: Question, args: &[V], decided: &dyn Fn(usize, usize) -> bool) -> Result<Option<usize>, Stop> {
        self.bounded_len(st, q, args, decided)
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
            Question::BestScore | Question::BestFans | Question::BestTile => return self.best_question(st, q, args),
            Question::Reading => return Err(self.decline("a reading of a win")),
        };
        let seat = match args.first() {
            Some(V::Seat(s)) => Some(*s as usize),
            _ => None, // the reference reads a seat's hand off something else: it raises
        };
        let s = seat.ok_or(Stop::Bail)?;
        let q = match (groups, without.is_some()) {
            (false, false) => Question::Waits,
            (true, false) => Question::GroupWaits,
            (false, true) => Question::WaitsWithout,
            (true, true) => Question::GroupWaitsWithout,
        };
        match self.memo_of((s, q as u8, without)) {
            Some(v) => Ok(v),
            None => Ok(self.waits_found(st, s, q, without)?.1),
        }
    }
}
