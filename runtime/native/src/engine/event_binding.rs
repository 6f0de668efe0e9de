//! The Python surface of engine/events.rs and settle.rs: `EngineEvents(ruleset_json, options)` runs one
//! event (or an action's effects, or an event's deferred payments) on a state read from the reference's
//! snapshot, with the hand's generator in the state `random.Random.getstate()` gives, and answers with the
//! state after it as `HandState.snapshot` writes it — or the stop (the reference notes an error there) or
//! the refusal (not ported) that ended the run. runtime/game/native_events.py is the differential check.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::{json, Value as J};

use std::sync::Arc;

use super::events::{Bind, Halt, Program, Run, WinBind};
use super::rng::Rng;
use super::scope::BOUND;
use super::decision::WindowWin;
use super::winning::{HandScoring, StateWins, Winning};
use super::{snapshot, table};
use crate::program::V;
use crate::{guarded, Error};

/// One rule set under one choice of room options, its event rules lowered once.
#[pyclass(module = "_native")]
pub struct EngineEvents {
    table: table::Table,
    program: Program,
    /// The win and wait questions (engine/winning.rs), and the reading of a win an event reads.
    winning: Winning,
}

/// A win as the request gives it (runtime/game/native_events.py `ProbedGame.note_win`): the seat, the
/// winning tile, self-drawn, the concealed tiles without it, the forms it is limited to
/// (`WindowWin`), and the state it was scored on — this one with the context values and reveals of that
/// moment — as snapshot text.
fn win_of(t: &table::Table, snap: &J, j: &J) -> Result<(WindowWin, String), Error> {
    let win = WindowWin::read(t, j)?;
    let mut at = snap.clone();
    for key in ["context", "reveals"] {
        let v = j.get(key).filter(|v| v.is_object()).ok_or_else(|| input("win"))?;
        at[key] = v.clone();
    }
    Ok((win, at.to_string()))
}

/// What a binding (JSON object) binds of the win of the moment: `self_drawn`, and `reading` (a win, or
/// null) found natively — Err(why) where it is not.
fn win_bind(w: &Winning, t: &table::Table, snap: &J, hand: Option<(Python<'_>, &crate::hand::HandCtx)>, names: &[String], j: Option<&J>) -> Result<WinBind, Error> {
    let mut out = WinBind::default();
    let Some(m) = j.and_then(J::as_object) else { return Ok(out) };
    if let Some(v) = m.get("self_drawn") {
        out.self_drawn = Some(v.as_bool().ok_or_else(|| input("self_drawn"))?);
    }
    out.reading = match m.get("reading") {
        None | Some(J::Null) => None,
        Some(win) if win.get("unknown").is_some() => Some(Err("a win the check did not see scored")),
        Some(win) => {
            let (x, at) = win_of(t, snap, win)?;
            let st = snapshot::read(t, &at)?;
            let mut sw: StateWins = w.on(t, &st, hand);
            sw.set_reading_names(names);
            let got = sw.reading_of(&st, x.seat, &x.concealed, x.tile, x.self_drawn, &x.forms);
            Some(match (got, sw.take_declined()) {
                (_, Some(why)) => Err(why),
                (Ok(Some(r)), None) => Ok(Arc::new(r)),
                (Ok(None), None) => Err("a win that no longer scores natively"),
                (Err(_), None) => Err("a win the native scoring stops on"),
            })
        }
    };
    Ok(out)
}


fn input(what: &str) -> Error {
    Error::Input(format!("the event's {what:.60} is not one the native engine takes"))
}

/// A value as runtime/game/native_scope.py `canon` writes it: none, true/false, a whole number, {"rat":
/// [n, d]}, {"str": s}, {"tile": name, "wild": w}, {"seat": i}, or a list of them.
fn value(t: &table::Table, j: &J, depth: usize) -> Result<V, Error> {
    Ok(match j {
        J::Null => V::None,
        J::Bool(b) => V::Bool(*b),
        J::Number(x) => V::Int(x.as_i64().ok_or_else(|| input("number"))?),
        J::Array(items) if depth < 4 && items.len() <= 10_000 => V::List(std::sync::Arc::new(
            items.iter().map(|x| value(t, x, depth + 1)).collect::<Result<_, _>>()?,
        )),
        J::Object(m) if m.len() == 1 && m.contains_key("seat") => match m["seat"].as_u64() {
            Some(i) if (i as usize) < t.n => V::Seat(i as u16),
            _ => return Err(input("seat")),
        },
        J::Object(m) if m.len() == 1 && m.contains_key("str") => {
            V::Str(std::sync::Arc::from(m["str"].as_str().ok_or_else(|| input("text"))?))
        }
        J::Object(m) if m.len() == 1 && m.contains_key("rat") => {
            let parts = m["rat"].as_array().filter(|a| a.len() == 2).ok_or_else(|| input("fraction"))?;
            let (n, d) = (parts[0].as_i64(), parts[1].as_i64());
            match (n, d) {
                (Some(n), Some(d)) => crate::program::rat(n as i128, d as i128).map_err(|_| input("fraction"))?,
                _ => return Err(Error::NotCovered("a fraction past 64 bits in a binding".into())),
            }
        }
        J::Object(m) if m.len() == 2 && m.contains_key("tile") => {
            let name = m["tile"].as_str().ok_or_else(|| input("tile"))?;
            let k = t.names.iter().position(|n| n == name).ok_or_else(|| input("tile"))?;
            let wild = m.get("wild").and_then(J::as_bool).unwrap_or(false);
            V::Tile(((k as u32) << 2) | ((wild as u32) << 1) | (t.cat.kinds[k].category == "joker") as u32)
        }
        _ => return Err(Error::NotCovered("a binding that is no plain value (a reading, a meld group)".into())),
    })
}

/// Bindings by name (JSON object) as (slot, value) pairs; names outside `scope::BOUND` are left out.
fn slots(t: &table::Table, j: Option<&J>) -> Result<Vec<(usize, V)>, Error> {
    let mut out = Vec::new();
    if let Some(m) = j.and_then(J::as_object) {
        for (k, v) in m {
            if let Some(i) = BOUND.iter().position(|b| b == k) {
                out.push((i, value(t, v, 0)?));
            }
        }
    }
    Ok(out)
}

fn rng_of(j: Option<&J>) -> Result<Rng, Error> {
    let words = j.and_then(J::as_array).ok_or_else(|| input("generator"))?;
    let w: Vec<u32> = words.iter().map(|x| x.as_u64().and_then(|x| u32::try_from(x).ok())).collect::<Option<_>>()
        .ok_or_else(|| input("generator"))?;
    match w.split_last() {
        Some((&pos, mt)) => Rng::from_state(mt, pos as usize).ok_or_else(|| input("generator")),
        None => Err(input("generator")),
    }
}

impl EngineEvents {
    fn run_one(&self, py: Python<'_>, snap: &str, request: &str) -> Result<J, Error> {
        let t = &self.table;
        let req: J = serde_json::from_str(request).map_err(|_| input("request"))?;
        let st = snapshot::read(t, snap)?;
        let rng = rng_of(req.get("rng"))?;
        super::with_hand(py, &self.winning, |hand| self.run_on(&req, snap, st, rng, hand))
    }

    fn run_on(&self, req: &J, snap: &str, st: super::state::HandState, rng: Rng, hand: Option<(Python<'_>, &crate::hand::HandCtx)>) -> Result<J, Error> {
        let t = &self.table;
        let w = &self.winning;
        let names = &self.program.scope.reading_names;
        // the wins the bindings read (rare: the events of a win), each scored on the state it was scored on
        let reads = |j: Option<&J>| j.and_then(J::as_object).is_some_and(|m| m.get("reading").is_some_and(|r| !r.is_null()));
        let any_win = reads(req.get("bind")) || req.get("winners").and_then(J::as_array).is_some_and(|ws| ws.iter().any(|x| reads(Some(x))));
        let snap_j: J = if any_win { serde_json::from_str(snap).map_err(|_| input("state"))? } else { J::Null };
        let bind_win = win_bind(w, t, &snap_j, hand, names, req.get("bind"))?;
        let winner_wins = match req.get("winners").and_then(J::as_array) {
            Some(ws) => ws.iter().map(|x| {
                let has = x.as_object().is_some_and(|m| m.contains_key("self_drawn") || m.contains_key("reading"));
                Ok(if has { Some(win_bind(w, t, &snap_j, hand, names, Some(x))?) } else { None })
            }).collect::<Result<Vec<_>, Error>>()?,
            None => Vec::new(),
        };
        let mut wins: StateWins = w.on(t, &st, hand);
        wins.set_reading_names(names);
        let mut rng = rng;
        let mut st = st;
        let mut run = Run::new(t, &self.program, &wins, &mut st, &mut rng);
        run.base = super::scope::bound_defaults();
        for (i, v) in slots(t, req.get("base"))? {
            run.base[i] = v;
        }
        run.base_self_drawn = req.get("base").and_then(|b| b.get("self_drawn")).and_then(J::as_bool);
        let mut bind = Bind::new();
        for (i, v) in slots(t, req.get("bind"))? {
            bind.given[i] = Some(v);
        }
        bind.win = bind_win;
        bind.one_win = req.get("one_win").and_then(J::as_bool).unwrap_or(false);
        run.moves = req.get("moves").and_then(J::as_u64).unwrap_or(0) as usize;
        if let Some(ws) = req.get("winners").and_then(J::as_array) {
            run.winners = Some(ws.iter().map(|w| slots(t, Some(w))).collect::<Result<_, _>>()?);
        }
        run.winner_wins = winner_wins;
        if req.get("transit").and_then(J::as_bool).unwrap_or(false) {
            run.transit = Some(Vec::new());
        }
        let event = req.get("event").and_then(J::as_str).unwrap_or("");
        let pay = req.get("pay").and_then(J::as_bool);
        let mut emitted = Vec::new();
        let outcome = match req.get("stage").and_then(J::as_str).unwrap_or("") {
            "all" => run.hooks_only(event, &bind, pay),
            "hooks" => run.hooks(event, &bind).map(|_| run.leave()),
            "pay" => run.pay(event, &bind, pay),
            "settle" => run.settle(event, &bind, pay),
            "effects" => {
                let action = req.get("action").and_then(J::as_str).unwrap_or("");
                let (effs, decline) = self.program.actions.get(action).ok_or_else(|| input("action"))?;
                let list = if req.get("decline").and_then(J::as_bool).unwrap_or(false) { decline } else { effs };
                run.run_effects(list, &bind).map(|e| emitted = e)
            }
            _ => return Err(input("stage")),
        };
        Ok(match outcome {
            Err(Halt::Stop(what)) => json!({ "stop": what }),
            Err(Halt::Refused(why)) => json!({ "refused": why }),
            Ok(()) => {
                let (mt, pos) = run.rng.state();
                let mut words: Vec<u64> = mt.into_iter().map(u64::from).collect();
                words.push(pos as u64);
                let transit: Vec<J> = run
                    .transit
                    .iter()
                    .flatten()
                    .map(|(to, tiles)| json!([to, tiles.iter().map(|&k| &t.names[k]).collect::<Vec<_>>()]))
                    .collect();
                json!({"state": run.st.snapshot(&t.names), "rng": words, "emitted": emitted, "transit": transit})
            }
        })
    }
}

#[pymethods]
impl EngineEvents {
    #[new]
    #[pyo3(signature = (ruleset_json, options=None))]
    fn new(ruleset_json: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let opts = super::options_of(options)?;
        Ok(guarded(|| {
            let table = table::Table::new(ruleset_json, &opts)?;
            let winning = Winning::new(&table, ruleset_json);
            let program = Program::new(&table, ruleset_json, &winning)?;
            Ok(EngineEvents { table, program, winning })
        })?)
    }

    /// Hand the whole-hand scoring to the win questions and the readings of wins (as
    /// `EngineTable.set_scoring`); without it those are declined (refused runs).
    #[pyo3(signature = (hands, forms, meld, group=None, signatures=None))]
    fn set_scoring(&mut self, py: Python<'_>, hands: Py<crate::hand::binding::Hands>, forms: Vec<usize>, meld: Py<PyAny>, group: Option<Py<PyAny>>, signatures: Option<Py<PyAny>>) -> PyResult<()> {
        self.winning.scoring = Some(HandScoring::new(py, hands, forms, meld, group, signatures)?);
        Ok(())
    }

    /// Each event-rule expression's refusal (None: lowered), in the order the program gathers them.
    fn refusals(&self) -> Vec<Option<String>> {
        self.program.refusals()
    }

    /// One run on the state `snapshot` (JSON text, with `reveal_ids` and `last_dealt` beside it): `request`
    /// (JSON) names the `stage` — `all` (`Game._hooks_only`), `hooks` and `pay` (its halves, before and
    /// after a win's final scoring), `settle` (`settle.settle`), `effects` (an action's effects or
    /// `decline`) — with the `event`, `pay`, the bindings `bind` and the game's `base` values of the
    /// bindings, `one_win`, the `winners`' bindings, the `moves` made, the generator `rng` (the 624 words
    /// and the position of `random.Random.getstate()`), whether tiles given are held (`transit`). The
    /// answer (JSON): {"state", "rng", "emitted", "transit"}, or {"stop": what}, or {"refused": why}.
    fn run(&self, py: Python<'_>, snapshot: &str, request: &str) -> PyResult<String> {
        if snapshot.len() > 1 << 24 || request.len() > 1 << 24 {
            return Err(PyValueError::new_err("a state or a request larger than 16 MB"));
        }
        // what the port does not take (a state or a binding it does not hold) is a refusal like any other
        Ok(guarded(|| match self.run_one(py, snapshot, request) {
            Err(Error::NotCovered(why)) => Ok(json!({ "refused": why }).to_string()),
            r => Ok(r?.to_string()),
        })?)
    }
}
