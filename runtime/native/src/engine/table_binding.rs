//! `EngineTable`: hands set up natively from one rule set under room options (the state after the setup
//! as `HandState.snapshot` writes it, a snapshot read back), game-scope expressions lowered and evaluated
//! on a state, and the win and wait questions asked on one — the differential checks' surface.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::{carried_values, decision, notation_text, options_of, scope, seed_words, setup, snapshot, table, values, winning, with_hand};
use crate::guarded;

/// One rule set under one choice of room options, read once, from which hands are set up natively.
/// `NotCovered` names a construct the port does not execute yet; `ValueError` a refused argument.
#[pyclass(module = "_native")]
pub(super) struct EngineTable {
    table: table::Table,
    scope: Option<scope::GameScope>,
    // the win and wait questions (engine/winning.rs), built at the first `lower_scope`
    ruleset_json: String,
    winning: Option<winning::Winning>,
}

fn no_scope() -> PyErr {
    PyValueError::new_err("no game-scope expressions are lowered (lower_scope first)")
}

/// What an ask binds of the win of the moment: `self_drawn`, and the win whose reading it reads.
#[derive(Default)]
struct AskWin {
    self_drawn: Option<bool>,
    win: Option<decision::WindowWin>,
}

/// `eval_scope`'s asks (JSON: a list of [expression index, bindings]).
type Asks = Vec<(usize, Vec<crate::program::V>, AskWin)>;

fn read_asks(t: &table::Table, asks: &str) -> Result<Asks, crate::Error> {
    let asks: serde_json::Value =
        serde_json::from_str(asks).map_err(|_| crate::Error::Input("the asks are not JSON".into()))?;
    let items = asks.as_array().ok_or_else(|| crate::Error::Input("the asks are not a list".into()))?;
    items
        .iter()
        .map(|it| match it.as_array().map(Vec::as_slice) {
            Some([i, b]) => {
                let (vals, win) = bindings(t, b)?;
                Ok((i.as_u64().unwrap_or(u64::MAX) as usize, vals, win))
            }
            _ => Err(crate::Error::Input("an ask is [expression index, bindings]".into())),
        })
        .collect()
}

/// The bindings of one evaluation (JSON: a binding's name to its value as `state.plain` writes it; the
/// tile of the moment by name), by slot of `scope::BOUND`; and `self_drawn` and the win of the moment
/// (`reading`: {"seat", "tile", "self_drawn", "concealed", "forms"}, whose reading is scored on the state).
fn bindings(t: &table::Table, j: &serde_json::Value) -> Result<(Vec<crate::program::V>, AskWin), crate::Error> {
    use crate::program::V;
    use serde_json::Value as J;
    let bad = |what: &str| crate::Error::Input(format!("a binding {what:.60} is not one the game scope takes"));
    let mut out = scope::bound_defaults();
    let mut win = AskWin::default();
    for (k, v) in j.as_object().ok_or_else(|| bad("list"))? {
        if k == "self_drawn" {
            win.self_drawn = Some(v.as_bool().ok_or_else(|| bad(k))?);
            continue;
        }
        if k == "reading" {
            win.win = if v.is_null() { None } else { Some(decision::WindowWin::read(t, v)?) };
            continue;
        }
        let slot = scope::BOUND.iter().position(|b| b == k).ok_or_else(|| bad(k))?;
        out[slot] = match v {
            J::Null => V::None,
            J::Bool(b) => V::Bool(*b),
            J::Number(x) => V::Int(x.as_i64().ok_or_else(|| bad(k))?),
            J::String(s) if slot == scope::B_TILE => {
                let i = t.names.iter().position(|n| n == s).ok_or_else(|| bad(k))?;
                V::Tile(((i as u32) << 2) | (t.cat.kinds[i].category == "joker") as u32)
            }
            J::String(s) => V::Str(std::sync::Arc::from(s.as_str())),
            J::Object(m) => match m.get("seat").and_then(J::as_u64) {
                Some(i) if m.len() == 1 && (i as usize) < t.n => V::Seat(i as u16),
                _ => return Err(bad(k)),
            },
            J::Array(_) => return Err(bad(k)),
        };
    }
    Ok((out, win))
}

#[pymethods]
impl EngineTable {
    #[new]
    #[pyo3(signature = (ruleset_json, options=None))]
    fn new(ruleset_json: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let opts = options_of(options)?;
        Ok(EngineTable {
            table: guarded(|| table::Table::new(ruleset_json, &opts))?,
            scope: None,
            ruleset_json: ruleset_json.to_owned(),
            winning: None,
        })
    }

    /// A snapshot (`HandState.snapshot()` as JSON text, with `reveal_ids` and `last_dealt` beside it when
    /// given) read into the native state and written back: the reader's round trip.
    fn state(&self, snapshot: &str) -> PyResult<String> {
        let t = &self.table;
        Ok(guarded(|| Ok(snapshot::read(t, snapshot)?.snapshot(&t.names).to_string()))?)
    }

    /// Lower these game-scope expressions (each the JSON of one expression) for `eval_scope`, replacing
    /// any lowered before; per expression, None or the sentence that refuses it (`NotCovered`'s).
    fn lower_scope(&mut self, exprs: Vec<String>) -> PyResult<Vec<Option<String>>> {
        if self.winning.is_none() {
            self.winning = Some(winning::Winning::new(&self.table, &self.ruleset_json));
        }
        let wins = self.winning.as_ref().expect("built above");
        let t = &self.table;
        let sc = guarded(|| {
            let js = exprs
                .iter()
                .map(|e| serde_json::from_str(e).map_err(|_| crate::Error::Input("an expression is not JSON".into())))
                .collect::<Result<Vec<serde_json::Value>, _>>()?;
            Ok(scope::GameScope::new(t, &js, wins))
        })?;
        let out = sc.exprs.iter().map(|r| r.as_ref().err().cloned()).collect();
        self.scope = Some(sc);
        Ok(out)
    }

    /// Evaluate lowered expressions on the state a snapshot gives: `asks` is JSON, a list of
    /// [expression index, bindings]; the answer, JSON, a list of each value (values.rs `canon`) or
    /// "stop" where the evaluation stops (the reference raises there, or the expression is refused), or
    /// "declined: WHY" where a win or wait question is not answered natively on this state (engine/winning.rs).
    fn eval_scope(&self, py: Python<'_>, snapshot: &str, asks: &str) -> PyResult<String> {
        let t = &self.table;
        let sc = self.scope.as_ref().ok_or_else(no_scope)?;
        let w = self.winning.as_ref().expect("lowered with the scope");
        let st = guarded(|| snapshot::read(t, snapshot))?;
        let asks = guarded(|| read_asks(t, asks))?;
        // a panic inside becomes one sentence (`guarded`), never a Python panic
        Ok(guarded(|| Ok(with_hand(py, w, |hand| {
            let wild = values::hand_wilds(t, &st);
            let mut wins = w.on(t, &st, hand);
            wins.set_reading_names(&sc.reading_names);
            let mut out = Vec::new();
            for (i, b, aw) in asks {
                let reading = aw.win.as_ref().map(|x| {
                    let got = wins.reading_of(&st, x.seat, &x.concealed, x.tile, x.self_drawn, &x.forms);
                    match (got, wins.take_declined()) {
                        (_, Some(why)) => Err(why),
                        (Ok(Some(r)), None) => Ok(r),
                        (Ok(None), None) => Err("a win that does not score natively"),
                        (Err(_), None) => Err("a win the native scoring stops on"),
                    }
                });
                let mut ev = values::Ev::new(sc, t, &st, &wild, &wins, b);
                ev.self_drawn = aw.self_drawn;
                ev.reading = match &reading {
                    None => scope::ReadingAt::Unbound,
                    Some(Ok(r)) => scope::ReadingAt::Given(r),
                    Some(Err(why)) => scope::ReadingAt::Unknown(why),
                };
                let got = ev.expr(i);
                let declined = wins.take_declined().or(ev.declined);
                out.push(match (got, declined) {
                    // a question the native side does not answer on this state: never another value
                    (_, Some(why)) => serde_json::Value::String(format!("declined: {why}")),
                    (Ok(v), None) => values::canon(&ev, &v),
                    (Err(_), None) => serde_json::Value::String("stop".into()),
                });
            }
            serde_json::Value::Array(out).to_string()
        })))?)
    }

    /// The asks of `eval_scope` evaluated `times` times over on the state read once, nothing returned
    /// but how many evaluations gave a value: the evaluator's own speed (bench/engine_equivalence.py).
    fn eval_scope_repeat(&self, py: Python<'_>, snapshot: &str, asks: &str, times: u32) -> PyResult<u64> {
        let t = &self.table;
        let sc = self.scope.as_ref().ok_or_else(no_scope)?;
        let w = self.winning.as_ref().expect("lowered with the scope");
        let st = guarded(|| snapshot::read(t, snapshot))?;
        let asks = guarded(|| read_asks(t, asks))?;
        Ok(guarded(|| Ok(with_hand(py, w, |hand| {
            let mut valued = 0u64;
            for _ in 0..times {
                let wild = values::hand_wilds(t, &st); // once per state, as a game works it out per change
                let wins = w.on(t, &st, hand); // the questions' memo, as a game keeps it per state
                for (i, b, _) in &asks {
                    let mut ev = values::Ev::new(sc, t, &st, &wild, &wins, b.clone());
                    valued += ev.expr(*i).is_ok() as u64;
                }
            }
            valued
        })))?)
    }

    /// Hand the native whole-hand scoring of this table's catalog to the win questions (engine/
    /// winning.rs): `hands` the rule set's `Hands`, `forms` the positions of the forms it wins by,
    /// `meld` a callable (meld kind, tile kinds) -> whether it checked and recorded that laid-down meld;
    /// `group` (a rule set with wildcards or stand-ins) a callable giving a group's value and prefilter
    /// vector as the batch path asks them (`NativeHands.group_info`).
    /// `signatures` a callable running the reference's signature search for a hand holding two or
    /// more wildcards of one kind (`NativeHands.signature_search_for`).
    #[pyo3(signature = (hands, forms, meld, group=None, signatures=None))]
    fn set_scoring(&mut self, py: Python<'_>, hands: Py<crate::hand::binding::Hands>, forms: Vec<usize>, meld: Py<PyAny>, group: Option<Py<PyAny>>, signatures: Option<Py<PyAny>>) -> PyResult<()> {
        let scoring = winning::HandScoring::new(py, hands, forms, meld, group, signatures)?;
        if self.winning.is_none() {
            self.winning = Some(winning::Winning::new(&self.table, &self.ruleset_json));
        }
        if let Some(w) = self.winning.as_mut() {
            w.scoring = Some(scoring);
        }
        Ok(())
    }

    /// `Game.win_offered(seat, mode, tile, forms)` answered natively on the state a snapshot gives (engine/
    /// winning.rs `StateWins::win_now`): (None, None) no win, (None, (tile index or None, score numerator,
    /// denominator)) the win, (why, None) declined, or "stop" as the why where the reference raises.
    #[pyo3(signature = (snapshot, seat, mode, tile, forms))]
    #[allow(clippy::type_complexity)]
    fn win(&mut self, py: Python<'_>, snapshot: &str, seat: usize, mode: &str, tile: Option<usize>, forms: Vec<String>) -> PyResult<(Option<String>, Option<(Option<usize>, i64, i64)>)> {
        if self.winning.is_none() {
            self.winning = Some(winning::Winning::new(&self.table, &self.ruleset_json));
        }
        let t = &self.table;
        let w = self.winning.as_ref().expect("built above");
        let st = guarded(|| snapshot::read(t, snapshot))?;
        if seat >= st.seats.len() || tile.is_some_and(|k| k >= t.names.len()) {
            return Err(PyValueError::new_err("no such seat or tile"));
        }
        let got = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| with_hand(py, w, |hand| {
            let wins = w.on(t, &st, hand);
            let got = wins.win_now(&st, seat, mode, tile, &forms);
            match (got, wins.take_declined()) {
                (_, Some(why)) => (Some(why.to_owned()), None),
                (Ok(found), None) => (None, found.map(|f| (f.tile, f.score.0, f.score.1))),
                (Err(_), None) => (Some("stop".to_owned()), None),
            }
        })));
        got.map_err(|_| PyValueError::new_err("the native win question failed on this state"))
    }

    /// The efficiency bot's questions of one seat (bots.rs `Ask`, runtime/game/native_bot.py
    /// `SeatOracle`) answered natively on the state a snapshot gives: `asks` is JSON, a list of
    /// ["waits"], ["waits_without", kind, groups], ["wins", without, kind, drawn], ["visible", kind]
    /// (kinds as catalog indices); the answer, JSON, each answer or "declined: WHY".
    fn ask_seat(&mut self, py: Python<'_>, snapshot: &str, seat: usize, asks: &str) -> PyResult<String> {
        use serde_json::Value as J;
        if self.winning.is_none() {
            self.winning = Some(winning::Winning::new(&self.table, &self.ruleset_json));
        }
        let t = &self.table;
        let w = self.winning.as_ref().expect("built above");
        let st = guarded(|| snapshot::read(t, snapshot))?;
        if seat >= st.seats.len() {
            return Err(PyValueError::new_err("no such seat"));
        }
        let asks: Vec<Vec<J>> = serde_json::from_str(asks).map_err(|_| PyValueError::new_err("the asks are not a JSON list of lists"))?;
        let n = t.names.len();
        let kind = |x: Option<&J>| x.and_then(J::as_u64).map(|k| k as usize).filter(|&k| k < n);
        let scope = scope::GameScope::new(t, &[], w);
        let answered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| with_hand(py, w, |hand| {
            let wild = values::hand_wilds(t, &st);
            let wins = w.on(t, &st, hand);
            let mut out = Vec::new();
            for a in &asks {
                let kinds = |v: Vec<usize>| J::Array(v.into_iter().map(J::from).collect());
                let got = match (a.first().and_then(J::as_str), a.len()) {
                    (Some("waits"), 1) => wins.waits(&st, seat).map(kinds),
                    (Some("waits_without"), 3) => match kind(a.get(1)) {
                        Some(k) => wins.waits_without(&st, seat, k, a[2].as_bool().unwrap_or(false)).map(kinds),
                        None => return Err(PyValueError::new_err("a kind out of range")),
                    },
                    (Some("wins"), 4) => match (kind(a.get(1)), kind(a.get(2))) {
                        (Some(o), Some(k)) => wins.wins(&st, seat, o, k, a[3].as_bool().unwrap_or(false)).map(J::Bool),
                        _ => return Err(PyValueError::new_err("a kind out of range")),
                    },
                    (Some("visible"), 2) => match kind(a.get(1)) {
                        Some(k) => {
                            let ev = values::Ev::new(&scope, t, &st, &wild, &wins, scope::bound_defaults());
                            let code = ((k as u32) << 2) | (t.cat.kinds[k].category == "joker") as u32;
                            match ev.visible_count(&crate::program::V::Tile(code)) {
                                Ok(crate::program::V::Int(x)) => Ok(J::from(x)),
                                _ => Err(crate::program::Stop::Bail),
                            }
                        }
                        None => return Err(PyValueError::new_err("a kind out of range")),
                    },
                    _ => return Err(PyValueError::new_err("an ask is [\"waits\"], [\"waits_without\", kind, groups], [\"wins\", without, kind, drawn] or [\"visible\", kind]")),
                };
                out.push(match (got, wins.take_declined()) {
                    (_, Some(why)) => J::String(format!("declined: {why}")),
                    (Ok(v), None) => v,
                    (Err(_), None) => J::String("stop".into()),
                });
            }
            Ok(J::Array(out).to_string())
        })));
        answered.unwrap_or_else(|_| Err(PyErr::from(crate::Error::Internal("a panic on this input".into()))))
    }

    /// The number of players these options give.
    fn players(&self) -> usize {
        self.table.n
    }

    /// The hand after its setup, up to its first event, as `HandState.snapshot` writes it (JSON text),
    /// for `seed` (`dealer`, `balances` as `Game` takes them).
    #[pyo3(signature = (seed=None, dealer=None, balances=None, table=None, players=None, wall=None, tail=None))]
    #[allow(clippy::too_many_arguments)] // `Game`'s keyword arguments, one for one
    fn setup(
        &self,
        seed: Option<&Bound<'_, PyAny>>,
        dealer: Option<usize>,
        balances: Option<Vec<i64>>,
        table: Option<&Bound<'_, PyDict>>,
        players: Option<Vec<Option<Bound<'_, PyDict>>>>,
        wall: Option<&Bound<'_, PyAny>>,
        tail: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let (head, tail) = (
            wall.map(notation_text).transpose()?,
            tail.map(notation_text).transpose()?,
        );
        let rules = &self.table.rules;
        let table = table.map(|d| carried_values(Some(d), rules, "table")).transpose()?;
        let players = players
            .map(|p| {
                p.iter()
                    .map(|d| carried_values(d.as_ref(), rules, "player"))
                    .collect::<PyResult<Vec<_>>>()
            })
            .transpose()?;
        let seed_words = match seed {
            Some(s) => seed_words(s)?,
            None => vec![0],
        };
        let t = &self.table;
        Ok(guarded(|| {
            let g = setup::setup(
                t,
                &setup::Args {
                    seed_words,
                    dealer,
                    balances,
                    table,
                    players,
                    head,
                    tail,
                },
            )?;
            Ok(g.st.snapshot(&t.names).to_string())
        })?)
    }

    /// `hands` hands set up from seeds `first`, `first + 1`, …, nothing returned: the setup's own speed
    /// (bench/engine_equivalence.py's figure). The number of tiles dealt, so the work cannot be skipped.
    fn setup_many(&self, first: u64, hands: u64) -> PyResult<u64> {
        let t = &self.table;
        Ok(guarded(|| {
            let mut dealt = 0u64;
            for seed in first..first.saturating_add(hands) {
                let words = vec![seed as u32, (seed >> 32) as u32];
                let g = setup::setup(
                    t,
                    &setup::Args {
                        seed_words: words,
                        dealer: None,
                        balances: None,
                        table: None,
                        players: None,
                        head: None,
                        tail: None,
                    },
                )?;
                dealt += g.st.seats.iter().map(|s| s.hand.len() as u64).sum::<u64>();
            }
            Ok(dealt)
        })?)
    }
}
