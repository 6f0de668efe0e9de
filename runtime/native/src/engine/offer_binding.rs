//! `EngineOffers`, the Python surface of the native legal moves (engine/offers.rs, offer_decisions.rs),
//! and the winning machinery's answers through a Python object (`PyWins`): the reference's, for the
//! equivalence check (runtime/game/native_offers.py): `WinOracle`, or `NativeWins`, which asks
//! engine/winning.rs's native wins (`EngineTable.win`) and the reference for what they decline.

use std::cell::RefCell;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::json;

use super::offer_decisions::{options, Decision};
use super::offers::{Ctx, Offers, Why};
use super::scope::{NoWinQuestions, Question, WinFound, WinQuestions};
use super::state::HandState;
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
    ) -> Result<Option<WinFound>, Stop> {
        let got = self
            .oracle
            .call_method1("win", (seat, mode, tile, forms.to_vec(), discarder, robbed))
            .and_then(|r| r.extract::<Option<(Option<usize>, i64, i64)>>());
        match got {
            Ok(r) => Ok(r.map(|(tile, n, d)| WinFound { tile, score: (n, d) })),
            Err(e) => {
                *self.err.borrow_mut() = Some(e);
                Err(Stop::Bail)
            }
        }
    }
}

/// The legal moves of one rule set under one table of room options (docs/engine-native.md, step 6).
#[pyclass(module = "paili.runtime._native", unsendable)]
pub struct EngineOffers {
    table: table::Table,
    offers: Offers,
    questions: bool,
}

impl EngineOffers {
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
    #[pyo3(signature = (ruleset_json, options=None, questions=false))]
    fn new(ruleset_json: &str, options: Option<&Bound<'_, PyDict>>, questions: bool) -> PyResult<Self> {
        let opts = super::options_of(options)?;
        let table = guarded(|| table::Table::new(ruleset_json, &opts))?;
        let offers = guarded(|| {
            if questions {
                Offers::new(&table, ruleset_json, &OracleCovers)
            } else {
                Offers::new(&table, ruleset_json, &NoWinQuestions)
            }
        })?;
        Ok(EngineOffers {
            table,
            offers,
            questions,
        })
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
        let out = guarded(|| {
            let st = snapshot::read(t, snapshot)?;
            let d = Decision::read(t, decision)?;
            let c = Ctx::new(&self.offers, t, &st, &wins);
            Ok(match options(&c, &d) {
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
            let d = Decision::read(t, decision)?;
            let mut moves = 0u64;
            for _ in 0..times {
                let c = Ctx::new(&self.offers, t, &st, &wins);
                if let Ok(opts) = options(&c, &d) {
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
