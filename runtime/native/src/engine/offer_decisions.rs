//! The options of each decision the engine asks (runtime/game/turn.py `_s_play_turn`, `_s_follow`,
//! `_s_answers`; claims.py `_s_after_discard`, `_s_added_kong`, `_s_turn_card`; opening.py
//! `_s_start_wins`, `_s_together`, `_s_start_decisions`), assembled from the legal moves of
//! engine/offers.rs, and `EngineOffers`, their Python surface. The decision (whose turn, which window,
//! what was taken or decided already) is the continuation's data: until step 4 ports it, it comes as
//! JSON (`Decision`), read from the reference's pending step by runtime/game/native_offers.py.

use std::cell::RefCell;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::{json, Value as J};

use super::offers::{Bind, Ctx, Mv, Of, Offers, Why};
use super::scope::{NoWinQuestions, Question, WinFound, WinQuestions};
use super::state::HandState;
use super::{snapshot, table};
use crate::program::{Stop, V};
use crate::{guarded, Error};

type R<T> = Result<T, Why>;
type Moves = Vec<(Mv, Of)>;

/// A decision, as the continuation will hold it.
pub enum Decision {
    /// A seat's own turn (`_s_play_turn`): after a draw or a claim; moves already taken this turn.
    Turn { seat: usize, claimed: bool, allow_win: bool, taken: Vec<Mv> },
    /// The follow-ups of an action with the tile it used (`_s_follow`).
    Follow { seat: usize, action: String, tile: usize },
    /// The discarder's own declarations on its discard (`_s_after_discard`).
    OwnDiscard { seat: usize, tile: usize },
    /// The others' claims on a discard (the window of `_s_after_discard`).
    Claim { seat: usize, tile: usize },
    /// Robbing an added kong (`_s_added_kong`).
    Rob { seat: usize, tile: usize },
    /// The drawer's own melds with a drawn card, before it is turned over (`_s_turn_card`).
    DrawnCard { seat: usize, tile: usize },
    /// A turned card offered to every seat (`_s_turn_card`).
    Turned { seat: usize, tile: usize },
    /// The wins an opening event offers to every seat (`_s_start_wins`).
    StartWins { event: String },
    /// The decisions an opening event opens asked of every seat at once (`_s_together`).
    Together { event: String, decided: Vec<Vec<String>> },
    /// One seat's decisions at an opening event (`_s_start_decisions`).
    StartDecisions { seat: usize, event: String, melded: bool, taken: Vec<Mv>, decided: Vec<String> },
    /// The decisions an event opens outside the turn and the claims (`_s_window`): its actor and tile,
    /// whether only its `by winner` decisions are asked (`others` false), the one winner they are asked
    /// of (a win's events, a winner's turn), and the event's other bindings.
    Window { event: String, actor: Option<usize>, tile: Option<usize>, others: bool, winner: Option<usize>, bind: Bind },
}

/// A binding's value as the decision gives it: null, true/false, a whole number, {"seat": n},
/// {"tile": name}, {"rat": [n, d]}, {"str": text}.
fn read_value(t: &table::Table, j: &J) -> Result<V, Error> {
    Ok(match j {
        J::Null => V::None,
        J::Bool(b) => V::Bool(*b),
        J::Number(x) => V::Int(x.as_i64().ok_or_else(|| input("binding"))?),
        J::Object(m) if m.len() == 1 => {
            if let Some(s) = m.get("seat").and_then(J::as_u64).filter(|&s| (s as usize) < t.n) {
                V::Seat(s as u16)
            } else if let Some(n) = m.get("tile").and_then(J::as_str) {
                let k = t.names.iter().position(|x| x == n).ok_or_else(|| input("binding"))?;
                V::Tile(((k as u32) << 2) | (t.cat.kinds[k].category == "joker") as u32)
            } else if let Some(x) = m.get("str").and_then(J::as_str) {
                V::Str(std::sync::Arc::from(x))
            } else if let Some([n, d]) = m.get("rat").and_then(J::as_array).map(Vec::as_slice) {
                match (n.as_i64(), d.as_i64()) {
                    (Some(n), Some(d)) if d > 1 => V::Rat(n, d),
                    _ => return Err(input("binding")),
                }
            } else {
                return Err(input("binding"));
            }
        }
        _ => return Err(input("binding")),
    })
}

fn input(what: &str) -> Error {
    Error::Input(format!("a decision's {what} is missing or malformed"))
}

fn read_move(t: &table::Table, j: &J) -> Result<Mv, Error> {
    let a = j.as_array().filter(|a| a.len() == 4).ok_or_else(|| input("move"))?;
    let tiles = a[1]
        .as_array()
        .ok_or_else(|| input("move"))?
        .iter()
        .map(|x| x.as_str().and_then(|n| t.names.iter().position(|m| m == n)).ok_or_else(|| input("move tile")))
        .collect::<Result<_, _>>()?;
    Ok(Mv {
        action: a[0].as_str().ok_or_else(|| input("move"))?.to_owned(),
        tiles,
        choice: if a[2].is_null() { None } else { Some(a[2].clone()) },
        meld: a[3].as_str().map(str::to_owned),
    })
}

fn strings(j: Option<&J>) -> Vec<String> {
    j.and_then(J::as_array).map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_owned)).collect()).unwrap_or_default()
}

impl Decision {
    pub fn read(t: &table::Table, text: &str) -> Result<Decision, Error> {
        let j: J = serde_json::from_str(text).map_err(|_| Error::Input("the decision is not JSON".into()))?;
        let seat = || j.get("seat").and_then(J::as_u64).map(|x| x as usize).filter(|&s| s < t.n).ok_or_else(|| input("seat"));
        let tile = || {
            j.get("tile")
                .and_then(J::as_str)
                .and_then(|n| t.names.iter().position(|m| m == n))
                .ok_or_else(|| input("tile"))
        };
        let flag = |k: &str| j.get(k).and_then(J::as_bool).ok_or_else(|| input(k));
        let text_of = |k: &str| j.get(k).and_then(J::as_str).map(str::to_owned).ok_or_else(|| input(k));
        let moves = |k: &str| -> Result<Vec<Mv>, Error> {
            j.get(k).and_then(J::as_array).ok_or_else(|| input(k))?.iter().map(|m| read_move(t, m)).collect()
        };
        Ok(match j.get("kind").and_then(J::as_str).unwrap_or("") {
            "turn" => Decision::Turn { seat: seat()?, claimed: flag("claimed")?, allow_win: flag("allow_win")?, taken: moves("taken")? },
            "follow" => Decision::Follow { seat: seat()?, action: text_of("action")?, tile: tile()? },
            "own_discard" => Decision::OwnDiscard { seat: seat()?, tile: tile()? },
            "claim" => Decision::Claim { seat: seat()?, tile: tile()? },
            "rob" => Decision::Rob { seat: seat()?, tile: tile()? },
            "drawn_card" => Decision::DrawnCard { seat: seat()?, tile: tile()? },
            "turned" => Decision::Turned { seat: seat()?, tile: tile()? },
            "start_wins" => Decision::StartWins { event: text_of("event")? },
            "together" => {
                let d = j.get("decided").and_then(J::as_array).filter(|d| d.len() == t.n).ok_or_else(|| input("decided"))?;
                Decision::Together { event: text_of("event")?, decided: d.iter().map(|x| strings(Some(x))).collect() }
            }
            "start_decisions" => Decision::StartDecisions {
                seat: seat()?,
                event: text_of("event")?,
                melded: flag("melded")?,
                taken: moves("taken")?,
                decided: strings(j.get("decided")),
            },
            "window" => {
                let opt_seat = |k: &str| match j.get(k) {
                    None | Some(J::Null) => Ok(None),
                    Some(x) => x.as_u64().map(|s| s as usize).filter(|&s| s < t.n).map(Some).ok_or_else(|| input(k)),
                };
                let tile = match j.get("tile") {
                    None | Some(J::Null) => None,
                    Some(_) => Some(tile()?),
                };
                let mut extra = Vec::new();
                for (k, v) in j.get("bind").and_then(J::as_object).ok_or_else(|| input("bind"))? {
                    let slot = super::scope::BOUND.iter().position(|b| b == k).ok_or_else(|| input("binding"))?;
                    extra.push((slot, read_value(t, v)?));
                }
                Decision::Window {
                    event: text_of("event")?,
                    actor: opt_seat("actor")?,
                    tile,
                    others: flag("others")?,
                    winner: opt_seat("winner")?,
                    bind: Bind { discarder: None, robbed: None, score: None, extra },
                }
            }
            _ => return Err(input("kind")),
        })
    }
}

/// `_answers`: a compulsory option is taken without asking when nothing else the seat is offered
/// ranks higher; otherwise the seat is asked, without `pass` when something compulsory is among its options.
fn answers(c: &Ctx, offers: Vec<(usize, Moves)>) -> R<Vec<(usize, Vec<Mv>)>> {
    let mut out = Vec::new();
    for (s, ms) in offers {
        let comp = ms.iter().find(|(_, o)| o.compulsory);
        let level = |o: &Of| o.action.map(|i| c.o.rules.actions[i].level);
        match comp {
            Some((_, o)) if ms.iter().filter_map(|(_, x)| level(x)).min().is_none_or(|m| level(o).unwrap_or(0) <= m) => {}
            Some(_) => out.push((s, ms.into_iter().map(|(m, _)| m).collect())),
            None => out.push((s, c.with_pass(s, &ms)?)),
        }
    }
    Ok(out)
}

/// The seats in play order from `start` (`order_from`).
fn order_from(c: &Ctx, start: usize) -> Vec<usize> {
    let n = c.t.n as i64;
    (0..n).map(|k| ((start as i64 + c.t.step * k).rem_euclid(n)) as usize).collect()
}

fn start_by(c: &Ctx, by: &str, s: usize) -> bool {
    c.by_ok(by, s, Some(s)) || (matches!(by, "dealer" | "non_dealer" | "any") && c.by_ok(by, s, None))
}

/// The options each seat asked has at this decision (seats without any are left out; none at all: the
/// reference would not ask here).
pub fn options(c: &Ctx, d: &Decision) -> R<Vec<(usize, Vec<Mv>)>> {
    let st = c.st;
    let claim_bind = |s: usize, robbed: bool| Bind { discarder: Some(s), robbed: robbed.then_some(s), score: None, extra: Vec::new() };
    Ok(match d {
        Decision::Turn { seat, claimed, allow_win, taken } => {
            let s = *seat;
            let moves: Moves = c.turn_moves(s, *claimed, *allow_win)?.into_iter().filter(|(m, _)| !taken.contains(m)).collect();
            if moves.iter().any(|(_, o)| o.compulsory) || moves.is_empty() {
                return Ok(Vec::new());
            }
            let opts = if st.seats[s].auto || !moves.iter().any(|(m, _)| m.action == "discard") {
                c.with_pass(s, &moves)?
            } else {
                moves.into_iter().map(|(m, _)| m).collect()
            };
            vec![(s, opts)]
        }
        Decision::Follow { seat, action, tile } => {
            let Some(a) = c.o.rules.action(action) else { return Ok(Vec::new()) };
            let mut moves = Vec::new();
            for name in &a.follow {
                moves.extend(c.follow_moves(name, *seat, *tile)?);
            }
            if moves.is_empty() || moves.iter().any(|(_, o)| o.compulsory) {
                return Ok(Vec::new());
            }
            vec![(*seat, c.with_pass(*seat, &moves)?)]
        }
        Decision::OwnDiscard { seat, tile } => {
            let s = *seat;
            let mut own = Vec::new();
            if !st.seats[s].auto {
                for i in c.offerable("discard") {
                    if c.o.rules.actions[i].by == "self" {
                        own.extend(c.action_moves(i, s, Some(*tile), None, &Bind::default())?);
                    }
                }
            }
            if own.is_empty() || own.iter().any(|(_, o)| o.compulsory) {
                return Ok(Vec::new());
            }
            vec![(s, c.with_pass(s, &own)?)]
        }
        Decision::Claim { seat, tile } | Decision::Rob { seat, tile } => {
            let rob = matches!(d, Decision::Rob { .. });
            let (s, t) = (*seat, *tile);
            let bind = claim_bind(s, rob);
            let mut offers = Vec::new();
            for cs in 0..c.t.n {
                if cs == s || !c.in_play(cs) {
                    continue;
                }
                let mut ms = c.win_moves(cs, if rob { "added_kong" } else { "discard" }, Some(t), Some(s), &bind)?;
                if !st.seats[cs].auto {
                    let acts = if rob { c.actions_on("added_kong") } else { c.offerable("discard") };
                    for i in acts {
                        let a = &c.o.rules.actions[i];
                        if (rob && a.wins) || (!rob && a.by == "self") || !c.by_ok(&a.by, cs, Some(s)) {
                            continue;
                        }
                        ms.extend(c.action_moves(i, cs, Some(t), Some(t), &bind)?);
                    }
                }
                if !ms.is_empty() {
                    offers.push((cs, ms));
                }
            }
            answers(c, offers)?
        }
        Decision::DrawnCard { seat, tile } => {
            let s = *seat;
            let mut own = Vec::new();
            if !st.seats[s].auto {
                let mut seen: Vec<&str> = Vec::new();
                for ev in ["draw", "turn"] {
                    for i in c.actions_on(ev) {
                        let a = &c.o.rules.actions[i];
                        if seen.contains(&a.name.as_str()) || !matches!(a.by.as_str(), "self" | "any") {
                            continue;
                        }
                        seen.push(&a.name);
                        let req = if a.forms.is_empty() { None } else { Some(*tile) };
                        own.extend(c.action_moves(i, s, Some(*tile), req, &Bind::default())?);
                    }
                }
            }
            if own.is_empty() {
                return Ok(Vec::new());
            }
            answers(c, vec![(s, own)])?
        }
        Decision::Turned { seat, tile } => {
            let (s, t) = (*seat, *tile);
            let mut offers = Vec::new();
            for cs in 0..c.t.n {
                if !c.in_play(cs) {
                    continue;
                }
                let mut ms = c.win_moves(cs, "reveal", Some(t), Some(s), &Bind::default())?;
                if !st.seats[cs].auto {
                    for i in c.actions_on("reveal") {
                        let a = &c.o.rules.actions[i];
                        if a.wins || !c.by_ok(&a.by, cs, Some(s)) {
                            continue;
                        }
                        let req = if a.forms.is_empty() { None } else { Some(t) };
                        ms.extend(c.action_moves(i, cs, Some(t), req, &Bind::default())?);
                    }
                }
                if !ms.is_empty() {
                    offers.push((cs, ms));
                }
            }
            answers(c, offers)?
        }
        Decision::StartWins { event } => {
            let mut offers = Vec::new();
            for s in order_from(c, st.dealer) {
                if !c.in_play(s) {
                    continue;
                }
                let ms = c.win_moves(s, event, None, Some(s), &Bind::default())?;
                if !ms.is_empty() {
                    offers.push((s, ms));
                }
            }
            answers(c, offers)?
        }
        Decision::Together { event, decided } => {
            let acts: Vec<usize> = c.actions_on(event).into_iter().filter(|&i| c.o.rules.actions[i].together).collect();
            let mut offers = Vec::new();
            if !acts.is_empty() {
                for s in order_from(c, st.dealer) {
                    if !c.in_play(s) {
                        continue;
                    }
                    let mut ms = Vec::new();
                    for &i in &acts {
                        let a = &c.o.rules.actions[i];
                        if !decided[s].contains(&a.name) && start_by(c, &a.by, s) {
                            ms.extend(c.action_moves(i, s, None, None, &Bind::default())?);
                        }
                    }
                    if !ms.is_empty() {
                        offers.push((s, ms));
                    }
                }
            }
            answers(c, offers)?
        }
        Decision::StartDecisions { seat, event, melded, taken, decided } => {
            let s = *seat;
            let acts: Vec<usize> = c
                .actions_on(event)
                .into_iter()
                .filter(|&i| !c.o.rules.actions[i].together && start_by(c, &c.o.rules.actions[i].by, s))
                .collect();
            let mut moves = if *melded { c.win_moves(s, event, None, Some(s), &Bind::default())? } else { Vec::new() };
            for i in acts {
                moves.extend(c.action_moves(i, s, None, None, &Bind::default())?);
            }
            let moves: Moves = moves
                .into_iter()
                .filter(|(m, o)| {
                    !(o.compulsory && taken.contains(m))
                        && !(!o.meld && !o.win && o.action.is_some_and(|i| decided.contains(&c.o.rules.actions[i].name)))
                })
                .collect();
            if moves.is_empty() || moves.iter().any(|(_, o)| o.compulsory) {
                return Ok(Vec::new());
            }
            vec![(s, c.with_pass(s, &moves)?)]
        }
        Decision::Window { event, actor, tile, others, winner, bind } => {
            let followers: Vec<String> = c.o.rules.action(event).map(|a| a.follow.clone()).unwrap_or_default();
            let mut offers: Vec<(usize, Moves)> = Vec::new();
            for i in c.actions_on(event) {
                let a = &c.o.rules.actions[i];
                if a.description || followers.contains(&a.name) || (!*others && a.by != "winner") {
                    continue;
                }
                for cs in 0..c.t.n {
                    // a seat that left the hand is asked only about the events of its own win
                    if !c.by_ok(&a.by, cs, *actor) || (Some(cs) != *actor && !(st.finished || c.in_play(cs))) {
                        continue;
                    }
                    if winner.is_some_and(|w| a.by == "winner" && cs != w) {
                        continue;
                    }
                    let ms = c.action_moves(i, cs, *tile, None, bind)?;
                    if !ms.is_empty() {
                        match offers.iter_mut().find(|(x, _)| *x == cs) {
                            Some(e) => e.1.extend(ms),
                            None => offers.push((cs, ms)),
                        }
                    }
                }
            }
            let mut out = Vec::new();
            for (cs, ms) in offers {
                if !ms.iter().any(|(_, o)| o.compulsory) {
                    out.push((cs, c.with_pass(cs, &ms)?));
                }
            }
            out
        }
    })
}

/// The winning machinery's answers through a Python object (`win(seat, mode, tile, forms, discarder,
/// robbed)` → None or (tile index or None, score numerator, score denominator); with `questions`,
/// `ask(question, seat, tile)` → the kinds waited on): the reference's, for
/// the equivalence check (runtime/game/native_offers.py `WinOracle`), until engine/winning.rs answers.
struct PyWins<'a, 'py> {
    oracle: &'a Bound<'py, PyAny>,
    err: RefCell<Option<PyErr>>,
    questions: bool,    // the oracle answers the wait questions too (`oracle_answers`)
    jokers: Vec<bool>,  // per kind: a physical joker (a tile value carries it)
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
        let Some(name) = oracle_answers(q).filter(|_| self.questions) else { return Err(Stop::Bail) };
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
        match self.oracle.call_method1("ask", (name, seat, tile)).and_then(|r| r.extract::<Vec<usize>>()) {
            Ok(kinds) => Ok(V::List(std::sync::Arc::new(
                kinds.into_iter().map(|k| V::Tile(((k as u32) << 2) | self.jokers.get(k).copied().unwrap_or(false) as u32)).collect(),
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
        Ok(EngineOffers { table, offers, questions })
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
        let jokers = t.cat.kinds.iter().map(|k| k.category == "joker").collect();
        let wins = PyWins { oracle, err: RefCell::new(None), questions: self.questions, jokers };
        let out = guarded(|| {
            let st = snapshot::read(t, snapshot)?;
            let d = Decision::read(t, decision)?;
            let c = Ctx::new(&self.offers, t, &st, &wins);
            Ok(match options(&c, &d) {
                Ok(opts) => json!({"moves": opts.iter().map(|(s, ms)| json!([s, ms.iter().map(|m| m.to_json(t)).collect::<Vec<_>>()])).collect::<Vec<_>>()}),
                Err(Why::Stop) => json!({"stop": true}),
                Err(Why::Refused(why)) => json!({"refused": why}),
            })
        })?;
        if let Some(e) = wins.err.into_inner() {
            return Err(e);
        }
        Ok(out.to_string())
    }
}
