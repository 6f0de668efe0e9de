//! The game engine, natively (issue 17): the same IR game declarations executed with the same seeded
//! randomness as the Python engine (runtime/game/), which stays the reference. Ported so far: Python's
//! generator (rng.rs), the hand's state (state.rs), the game records of the rule set (rules.rs), a rule
//! set under room options (table.rs), the setup up to the hand's first event (setup.rs), a state read
//! from the reference's snapshot (snapshot.rs), and game-scope expressions lowered (scope.rs) and
//! evaluated on a state (values.rs); docs/engine-native.md gives the port order of the rest. This module
//! binds them for Python: `EngineRandom` (the generator, for the tests that prove it equal to
//! `random.Random`) and `EngineTable` (hands set up from one rule set: the state after the setup, as
//! `HandState.snapshot` writes it; a snapshot read back; game-scope expressions evaluated on one).

#![allow(dead_code)] // the state's fields and records the later steps of the port read (docs/engine-native.md)

pub mod bot_binding;
pub mod bot_play;
pub mod bots;
pub mod distance;
// step 3: events and settlement (event_rules.rs, events.rs, settle.rs; their Python surface event_binding.rs)
pub mod event_binding;
pub mod event_rules;
pub mod events;
pub mod settle;
pub mod rng;
pub mod rules;
pub mod scope;
pub mod setup;
pub mod snapshot;
pub mod state;
pub mod table;
pub mod values;
pub mod winning;

// the legal moves (step 6, docs/engine-native.md)
pub mod offer_binding;
pub mod offer_choices;
pub mod offer_decisions;
pub mod offer_melds;
pub mod offer_restricts; // `restrict` at a decision: the restrictions naming an action, found once
pub mod offer_rules;
pub mod offer_wins;
pub mod moving; // a reveal's `moves_when` kept while what it reads is unchanged
pub mod moves; // a move by its action's id, its tiles in place
pub mod offers;

// the hand played natively: its continuation (step 4) and its course (step 7)
pub mod claims;
pub mod course;
pub mod ending;
pub mod hand_binding;
pub mod env_arrays; // the learning environment's arrays written, the action's move found
pub mod env_layout; // the learning environment's layout: the vector's parts, the action slots
pub mod observe; // a seat's observation and the learning environment's arrays, natively
pub mod opening;
pub mod bound;
pub mod steps;
pub mod continuation; // the continuation as the reference's JSON
pub mod turn;
pub mod turn_card;
pub mod window;
pub mod win;
pub mod simulate; // whole hands played natively by native bots (`EngineSim`)

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString};

use crate::{guarded, setting_value};

/// A Python int as `random.Random` seeds from it: its absolute value in 32-bit words, least significant first.
pub(super) fn seed_words(seed: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
    if seed.cast::<PyBool>().is_ok() || seed.cast::<PyInt>().is_err() {
        return Err(PyValueError::new_err("a seed is a whole number"));
    }
    let a = seed.call_method0("__abs__")?;
    let bits: usize = a.call_method0("bit_length")?.extract()?;
    if bits > 1 << 20 {
        return Err(PyValueError::new_err("the seed is larger than a million bits"));
    }
    let n = bits.div_ceil(32).max(1);
    let bytes: Vec<u8> = a.call_method1("to_bytes", (n * 4, "little"))?.extract()?;
    Ok(bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// Python's `random.Random(seed)`, natively: the methods the engine calls, each drawing what Python draws.
#[pyclass(module = "_native")]
struct EngineRandom {
    rng: rng::Rng,
}

#[pymethods]
impl EngineRandom {
    #[new]
    fn new(seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(EngineRandom {
            rng: rng::Rng::from_words(&seed_words(seed)?),
        })
    }

    fn random(&mut self) -> f64 {
        self.rng.random()
    }

    fn getrandbits(&mut self, k: u32) -> PyResult<u64> {
        if k > 64 {
            return Err(PyValueError::new_err("getrandbits takes at most 64 bits here"));
        }
        Ok(self.rng.getrandbits(k))
    }

    fn randrange(&mut self, n: u64) -> PyResult<u64> {
        if n == 0 {
            return Err(PyValueError::new_err("empty range for randrange()"));
        }
        Ok(self.rng.randrange(n))
    }

    /// The order `shuffle` leaves `list(range(n))` in.
    fn shuffled(&mut self, n: usize) -> PyResult<Vec<usize>> {
        if n > 1 << 20 {
            return Err(PyValueError::new_err("a shuffle of more than a million items"));
        }
        let mut v: Vec<usize> = (0..n).collect();
        self.rng.shuffle(&mut v);
        Ok(v)
    }

    /// The index `choice` picks from a sequence of n items.
    fn choice(&mut self, n: usize) -> PyResult<usize> {
        if n == 0 {
            return Err(PyValueError::new_err("Cannot choose from an empty sequence"));
        }
        Ok(self.rng.choice(n))
    }
}

/// A value a state carries from the hand before, as `Game._carried` takes it: none, true/false, a whole
/// number, text, a seat as {"seat": n}, or a list of none, true/false, numbers and text (what
/// `Game.table_values` gives). Anything else the reference would hold as it is (and write as its
/// `str`) is not ported.
fn carried_value(v: &Bound<'_, PyAny>, top: bool) -> PyResult<state::Value> {
    use state::Value;
    let not_ported = || {
        crate::NotCovered::new_err(
            "the native engine takes carried values that are none, true/false, whole numbers, text, seats \
             or lists of them",
        )
    };
    if v.is_none() {
        return Ok(Value::None);
    }
    if let Ok(b) = v.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if v.cast::<PyInt>().is_ok() {
        return v.extract::<i64>().map(Value::Int).map_err(|_| not_ported());
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(Value::Str(s.to_str()?.to_owned()));
    }
    if let Ok(d) = v.cast::<PyDict>() {
        if top && d.len() == 1 {
            if let Some(s) = d.get_item("seat")? {
                if s.cast::<PyBool>().is_err() {
                    if let Ok(i) = s.extract::<usize>() {
                        return Ok(Value::Seat(i));
                    }
                }
            }
        }
        return Err(not_ported());
    }
    if let Ok(l) = v.cast::<PyList>() {
        if top && l.len() <= 10_000 {
            return l
                .iter()
                .map(|x| carried_value(&x, false))
                .collect::<PyResult<Vec<_>>>()
                .map(Value::List);
        }
    }
    Err(not_ported())
}

/// The carried values the reference takes: those of the states of `scope` that live for the session
/// (the others are ignored, whatever they hold).
pub(super) fn carried_values(
    d: Option<&Bound<'_, PyDict>>,
    rules: &rules::GameRules,
    scope: &str,
) -> PyResult<Vec<(String, state::Value)>> {
    let mut out = Vec::new();
    for sv in rules.states.iter().filter(|s| s.scope == scope && s.lives == "session") {
        if let Some(v) = d.map(|d| d.get_item(&sv.name)).transpose()?.flatten() {
            out.push((sv.name.clone(), carried_value(&v, true)?));
        }
    }
    Ok(out)
}

/// `wall` / `tail` as `Game` takes them: tile notation as text, or a list of texts joined as one.
pub(super) fn notation_text(v: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(s.to_str()?.to_owned());
    }
    let parts: Vec<String> = v
        .extract()
        .map_err(|_| PyValueError::new_err("a wall is tile notation (text or a list of texts)"))?;
    Ok(parts.concat())
}

pub(super) fn options_of(options: Option<&Bound<'_, PyDict>>) -> PyResult<table::Options> {
    let mut opts = Vec::new();
    if let Some(d) = options {
        for (k, v) in d.iter() {
            opts.push((k.extract::<String>()?, setting_value(&v)?));
        }
    }
    Ok(opts)
}

/// One rule set under one choice of room options, read once, from which hands are set up natively.
/// `NotCovered` names a construct the port does not execute yet; `ValueError` a refused argument.
#[pyclass(module = "_native")]
struct EngineTable {
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
    win: Option<offer_decisions::WindowWin>,
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
            win.win = if v.is_null() { None } else { Some(offer_decisions::WindowWin::read(t, v)?) };
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

/// `f` with the whole-hand scoring's programs and tables where the win questions have them.
pub(super) fn with_hand<T>(py: Python<'_>, w: &winning::Winning, f: impl FnOnce(Option<(Python<'_>, &crate::hand::HandCtx)>) -> T) -> T {
    match &w.scoring {
        Some(s) => {
            let hands = s.hands.bind(py).borrow();
            hands.with_ctx(py, |ctx| f(Some((py, ctx))))
        }
        None => f(None),
    }
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

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<EngineRandom>()?;
    m.add_class::<EngineTable>()?;
    m.add_class::<simulate::EngineSim>()?;
    m.add_class::<distance::DistanceTables>()?;
    m.add_class::<bot_binding::EfficiencyRules>()?;
    m.add_class::<bot_binding::EfficiencyPolicy>()?;
    m.add_class::<bot_binding::MixedState>()?;
    m.add_class::<offer_binding::EngineOffers>()?; // the legal moves (step 6)
    m.add_class::<event_binding::EngineEvents>()?; // step 3
    m.add_class::<hand_binding::EngineHand>()?; // steps 4 and 7
    m.add_class::<observe::EngineObserver>()?;
    Ok(())
}
