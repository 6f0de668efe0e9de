//! `EngineOffers`, the Python surface of the native legal moves (engine/offers.rs, offer_decisions.rs),
//! and the winning machinery's answers through a Python object (`PyWins`): the reference's, for the
//! equivalence check (runtime/game/native_offers.py): `WinOracle`, or `NativeWins`, which asks
//! engine/winning.rs's native wins (`EngineTable.win`) and the reference for what they decline.

use std::cell::{Cell, RefCell};

use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::json;

use super::decision::Decision;
use super::offer_decisions::options;
use super::offers::{Ctx, Offers, Why};
use super::scope::{NoWinQuestions, Question, WinFound, WinQuestions};
use super::state::HandState;
use super::winning::{HandScoring, StateWins, TrialParts, Winning};
use super::{snapshot, table};
use crate::guarded;
use crate::program::{Stop, V};

/// The winning machinery's answers through a Python object (`win(seat, mode, tile, forms, discarder,
/// robbed)` → None or (tile index or None, score numerator, score denominator); with `questions`,
/// `ask(question, seat, tile)` → the kinds waited on): the reference's, for
/// the equivalence check (runtime/game/native_offers.py `WinOracle`, or `NativeWins` with native wins).
struct PyWins<'a, 'py> {
    oracle: &'a Bound<'py, PyAny>,
    err: RefCell<Option<PyErr>>,
    questions: bool,   // the oracle answers the wait questions too (`oracle_answers`)
    jokers: Vec<bool>, // per kind: a physical joker (a tile value carries it)
}

/// The wait questions the Python oracle answers (`WinOracle.ask`): a seat's waits, by every form or by
/// the forms that split a hand into groups, as it stands or without one tile.
fn oracle_answers(q: Question) -> Option<&'static str> {
    Some(match q {
        Question::Waits => "waits",
        Question::GroupWaits => "group_waits",
        Question::WaitsWithout => "waits_without",
        Question::GroupWaitsWithout => "group_waits_without",
        _ => return None,
    })
}

/// The lowering's view of the oracle: the questions it will answer are covered.
struct OracleCovers;

impl WinQuestions for OracleCovers {
    fn covers(&self, q: Question) -> bool {
        oracle_answers(q).is_some()
    }

    fn ask(&self, _st: &HandState, _q: Question, _args: &[V]) -> Result<V, Stop> {
        Err(Stop::Bail)
    }
}

impl WinQuestions for PyWins<'_, '_> {
    fn covers(&self, q: Question) -> bool {
        self.questions && oracle_answers(q).is_some()
    }

    fn ask(&self, _st: &HandState, q: Question, args: &[V]) -> Result<V, Stop> {
        let Some(name) = oracle_answers(q).filter(|_| self.questions) else {
            return Err(Stop::Bail);
        };
        let mut seat = None;
        let mut tile = None;
        for (i, a) in args.iter().enumerate() {
            match (i, a) {
                (_, V::None) => {}
                (0, V::Seat(s)) => seat = Some(*s as usize),
                (1, V::Tile(c)) => tile = Some(crate::program::kind_of(*c) as usize),
                _ => return Err(Stop::Bail), // the reference reads `.hand` / `.name` of what is no seat or tile
            }
        }
        match self
            .oracle
            .call_method1("ask", (name, seat, tile))
            .and_then(|r| r.extract::<Vec<usize>>())
        {
            Ok(kinds) => Ok(V::List(std::sync::Arc::new(
                kinds
                    .into_iter()
                    .map(|k| V::Tile(((k as u32) << 2) | self.jokers.get(k).copied().unwrap_or(false) as u32))
                    .collect(),
            ))),
            Err(e) => {
                *self.err.borrow_mut() = Some(e);
                Err(Stop::Bail)
            }
        }
    }

    fn covers_wins(&self) -> bool {
        true
    }

    fn win(
        &self,
        _st: &HandState,
        seat: usize,
        mode: &str,
        tile: Option<usize>,
        forms: &[String],
        discarder: Option<usize>,
        robbed: Option<usize>,
        tried: Option<&str>,
    ) -> Result<Option<WinFound>, Stop> {
        let got = self
            .oracle
            .call_method1("win", (seat, mode, tile, forms.to_vec(), discarder, robbed, tried))
            .and_then(|r| r.extract::<Option<(Option<usize>, i64, i64)>>());
        match got {
            Ok(r) => Ok(r.map(|(tile, n, d)| WinFound { tile, score: (n, d), reading: None, concealed: None })),
            Err(e) => {
                *self.err.borrow_mut() = Some(e);
                Err(Stop::Bail)
            }
        }
    }
}

/// The lowering's view with native wins: what engine/winning.rs covers (the wins, their reading, the
/// waits of a rule set it takes), else what the oracle answers.
struct NativeCovers<'a> {
    w: &'a Winning,
    questions: bool,
}

impl WinQuestions for NativeCovers<'_> {
    fn covers(&self, q: Question) -> bool {
        self.w.covers(q) || (self.questions && oracle_answers(q).is_some())
    }

    fn refusal(&self, q: Question) -> String {
        self.w.refusal(q)
    }

    fn ask(&self, _st: &HandState, _q: Question, _args: &[V]) -> Result<V, Stop> {
        Err(Stop::Bail)
    }
}

/// A win asked natively (`native_wins`): (seat, mode, tile, forms, discarder, robbed, the action where
/// the win is tried) and the answer —
/// Ok(None) no win, Ok((tile, score numerator, denominator)) a win, Err(why) declined (the oracle answered).
type Asked = ((usize, String, Option<usize>, Vec<String>, Option<usize>, Option<usize>, Option<String>), Result<Option<(Option<usize>, i64, i64)>, String>);

/// The wins and questions answered by engine/winning.rs on the decision's state (`StateWins`), and by the
/// oracle where it declines (a hand holding a tile that may be wild, a rule set whose waits it does not
/// find): what the native hand will ask, with the reference standing in for what is not ported.
struct BothWins<'a, 'o, 'py> {
    native: &'a StateWins<'a>,
    oracle: &'a PyWins<'o, 'py>,
    declined: Cell<Option<&'static str>>,
    asked: RefCell<Vec<Asked>>,
}

impl WinQuestions for BothWins<'_, '_, '_> {
    fn covers(&self, q: Question) -> bool {
        self.native.covers(q) || self.oracle.covers(q)
    }

    fn ask(&self, st: &HandState, q: Question, args: &[V]) -> Result<V, Stop> {
        if !self.native.covers(q) {
            return self.oracle.ask(st, q, args);
        }
        let got = self.native.ask(st, q, args);
        match self.native.take_declined() {
            None => got,
            Some(_) if self.oracle.covers(q) => self.oracle.ask(st, q, args),
            Some(why) => {
                self.declined.set(Some(why));
                Err(Stop::Bail)
            }
        }
    }

    fn covers_wins(&self) -> bool {
        true
    }

    fn win(
        &self,
        st: &HandState,
        seat: usize,
        mode: &str,
        tile: Option<usize>,
        forms: &[String],
        discarder: Option<usize>,
        robbed: Option<usize>,
        tried: Option<&str>,
    ) -> Result<Option<WinFound>, Stop> {
        let got = self.native.win(st, seat, mode, tile, forms, discarder, robbed, tried);
        let key = (seat, mode.to_owned(), tile, forms.to_vec(), discarder, robbed, tried.map(str::to_owned));
        match (got, self.native.take_declined()) {
            (_, Some(why)) => {
                self.asked.borrow_mut().push((key, Err(why.to_owned())));
                self.oracle.win(st, seat, mode, tile, forms, discarder, robbed, tried)
            }
            (Ok(found), None) => {
                let plain = found.as_ref().map(|f| (f.tile, f.score.0, f.score.1));
                self.asked.borrow_mut().push((key, Ok(plain)));
                Ok(found)
            }
            (Err(e), None) => Err(e),
        }
    }

    fn take_declined(&self) -> Option<&'static str> {
        self.declined.take()
    }
}

/// The reading of the win an event window reads (`Decision::Window`'s `win`), scored natively on the
/// window's state (as the reference's `_rescore` last scored it); declined by why where it is not.
fn window_reading(native: &StateWins, st: &HandState, d: &mut Decision) {
    if let Decision::Window { bind, win: Some(w), .. } = d {
        let got = native.reading_of(st, w.seat, &w.concealed, w.tile, w.self_drawn, &w.forms);
        bind.reading = Some(match (got, native.take_declined()) {
            (_, Some(why)) => Err(why),
            (Ok(Some(r)), None) => Ok(std::sync::Arc::new(r)),
            (Ok(None), None) => Err("a win that no longer scores natively"),
            (Err(_), None) => Err("a win the native scoring stops on"),
        });
    }
}

/// The legal moves of one rule set under one table of room options (docs/engine-native.md, step 6).
#[pyclass(module = "paili.runtime._native", unsendable)]
pub struct EngineOffers {
    table: table::Table,
    offers: Offers,
    questions: bool,
    /// With `native_wins`: the wins (and the questions it covers) answered by engine/winning.rs.
    winning: Option<Winning>,
    /// The wins the last `legal_moves` asked natively, for the check to compare with the reference's.
    asked: RefCell<Vec<Asked>>,
    /// With `native_wins`: the event rules and the hand's end a win tried before it is offered reads
    /// (engine/winning/trial.rs); None where they do not build (such a win is then declined).
    trial_rules: Option<(super::event_rules::Program, super::ending::EndRules)>,
}

impl EngineOffers {
    /// Hand the native wins what a win tried before it is offered reads (the game's base bindings as
    /// they are before any win: a snapshot of play does not carry them).
    fn hand_trial<'a>(&'a self, native: &mut StateWins<'a>) {
        if let Some((p, end)) = &self.trial_rules {
            native.set_trial(TrialParts { p, end, base: super::scope::bound_defaults_static(), base_self_drawn: None, offer_names: &self.offers.scope.reading_names });
        }
    }

    /// The wins (and, with `questions`, the wait questions) answered by the Python `oracle`.
    fn wins<'a, 'py>(&self, oracle: &'a Bound<'py, PyAny>) -> PyWins<'a, 'py> {
        PyWins {
            oracle,
            err: RefCell::new(None),
            questions: self.questions,
            jokers: self.table.cat.kinds.iter().map(|k| k.category == "joker").collect(),
        }
    }
}

#[pymethods]
impl EngineOffers {
    #[new]
    /// `questions`: the oracle given to `legal_moves` answers the wait questions (`ask(question, seat,
    /// tile)`), so guards reading them are lowered; without it they are refused by name.
    /// `native_wins`: the wins, their reading and the wait questions engine/winning.rs answers are
    /// answered natively (`StateWins`, once `set_scoring` hands it the whole-hand scoring), the oracle
    /// answering what it declines.
    #[pyo3(signature = (ruleset_json, options=None, questions=false, native_wins=false))]
    fn new(ruleset_json: &str, options: Option<&Bound<'_, PyDict>>, questions: bool, native_wins: bool) -> PyResult<Self> {
        let opts = super::options_of(options)?;
        let table = guarded(|| table::Table::new(ruleset_json, &opts))?;
        let winning = native_wins.then(|| Winning::new(&table, ruleset_json));
        let offers = guarded(|| match &winning {
            Some(w) => Offers::new(&table, ruleset_json, &NativeCovers { w, questions }),
            None if questions => Offers::new(&table, ruleset_json, &OracleCovers),
            None => Offers::new(&table, ruleset_json, &NoWinQuestions),
        })?;
        let trial_rules = winning.as_ref().and_then(|w| {
            let p = super::event_rules::Program::new(&table, ruleset_json, w).ok()?;
            Some((p, super::ending::EndRules::new(&table, ruleset_json, w)))
        });
        Ok(EngineOffers {
            table,
            offers,
            questions,
            winning,
            asked: RefCell::new(Vec::new()),
            trial_rules,
        })
    }

    /// Hand the whole-hand scoring to the native wins (as `EngineTable.set_scoring`); without
    /// `native_wins` a ValueError.
    #[pyo3(signature = (hands, forms, meld, group=None, signatures=None))]
    fn set_scoring(&mut self, py: Python<'_>, hands: Py<crate::hand::binding::Hands>, forms: Vec<usize>, meld: Py<PyAny>, group: Option<Py<PyAny>>, signatures: Option<Py<PyAny>>) -> PyResult<()> {
        let w = self.winning.as_mut().ok_or_else(|| pyo3::exceptions::PyValueError::new_err("made without native_wins"))?;
        w.scoring = Some(HandScoring::new(py, hands, forms, meld, group, signatures)?);
        Ok(())
    }

    /// The wins the last `legal_moves` asked natively: [(seat, mode, tile, forms, discarder, robbed, the
    /// action where the win is tried or None),
    /// answer] — the answer None (no win), [tile, numerator, denominator], or {"declined": why}.
    fn native_wins_asked(&self) -> String {
        let out: Vec<serde_json::Value> = self
            .asked
            .borrow()
            .iter()
            .map(|(k, a)| {
                json!([
                    [k.0, k.1, k.2, k.3, k.4, k.5, k.6],
                    match a {
                        Ok(x) => json!(x),
                        Err(why) => json!({ "declined": why }),
                    }
                ])
            })
            .collect();
        serde_json::Value::Array(out).to_string()
    }

    /// The sentences refusing the expressions the legal moves read that the lowering does not take.
    fn refusals(&self) -> Vec<String> {
        self.offers.refusals().into_iter().map(str::to_owned).collect()
    }

    /// The options of each seat asked at `decision` (JSON, `Decision`) on the state of `snapshot`, the
    /// wins answered by `oracle`: JSON text, {"moves": [[seat, [[action, tiles, choice, meld], …]], …]},
    /// or {"refused": sentence} (a construct not ported), or {"stop": true} (the reference raised).
    fn legal_moves(&self, snapshot: &str, decision: &str, oracle: &Bound<'_, PyAny>) -> PyResult<String> {
        let t = &self.table;
        let wins = self.wins(oracle);
        self.asked.borrow_mut().clear();
        let out = guarded(|| {
            let st = snapshot::read(t, snapshot)?;
            let mut d = Decision::read(t, decision)?;
            let got = match &self.winning {
                Some(w) => super::with_hand(oracle.py(), w, |hand| {
                    let mut native = w.on(t, &st, hand);
                    native.set_reading_names(&self.offers.scope.reading_names);
                    self.hand_trial(&mut native);
                    window_reading(&native, &st, &mut d);
                    let both = BothWins { native: &native, oracle: &wins, declined: Cell::new(None), asked: RefCell::new(Vec::new()) };
                    let c = Ctx::new(&self.offers, t, &st, &both);
                    let got = options(&c, &d);
                    self.asked.borrow_mut().extend(both.asked.into_inner());
                    got
                }),
                None => options(&Ctx::new(&self.offers, t, &st, &wins), &d),
            };
            Ok(match got {
                Ok(opts) => {
                    json!({"moves": opts.iter().map(|(s, ms)| json!([s, ms.iter().map(|m| m.to_json(t)).collect::<Vec<_>>()])).collect::<Vec<_>>()})
                }
                Err(Why::Stop) => json!({"stop": true}),
                Err(Why::Refused(why)) => json!({"refused": why}),
            })
        })?;
        if let Some(e) = wins.err.into_inner() {
            return Err(e);
        }
        Ok(out.to_string())
    }

    /// The options of `legal_moves` worked out `times` times over on the state read once, nothing returned
    /// but the moves counted: the legal moves' own speed (bench/engine_equivalence.py native-offers).
    fn legal_moves_repeat(
        &self,
        snapshot: &str,
        decision: &str,
        oracle: &Bound<'_, PyAny>,
        times: u32,
    ) -> PyResult<u64> {
        let t = &self.table;
        let wins = self.wins(oracle);
        let out = guarded(|| {
            let st = snapshot::read(t, snapshot)?;
            let mut d = Decision::read(t, decision)?;
            let mut moves = 0u64;
            for _ in 0..times {
                let got = match &self.winning {
                    Some(w) => super::with_hand(oracle.py(), w, |hand| {
                        let mut native = w.on(t, &st, hand);
                        native.set_reading_names(&self.offers.scope.reading_names);
                        self.hand_trial(&mut native);
                        window_reading(&native, &st, &mut d);
                        let both = BothWins { native: &native, oracle: &wins, declined: Cell::new(None), asked: RefCell::new(Vec::new()) };
                        options(&Ctx::new(&self.offers, t, &st, &both), &d)
                    }),
                    None => options(&Ctx::new(&self.offers, t, &st, &wins), &d),
                };
                if let Ok(opts) = got {
                    moves += opts.iter().map(|(_, ms)| ms.len() as u64).sum::<u64>();
                }
            }
            Ok(moves)
        })?;
        if let Some(e) = wins.err.into_inner() {
            return Err(e);
        }
        Ok(out)
    }
}
