//! The Python surface of the efficiency bot's native choice (bots.rs): `EfficiencyRules` (a rule set's
//! constants, per catalog) and `EfficiencyPolicy` (one bot's state under one rule set and catalog: its
//! memo is by catalog index, so the caller, runtime/game/bots.py `RuleSetState`, keeps one per rule set),
//! whose `choose` takes the seat's data as indices and asks the game (a Python object) what only the game
//! answers. runtime/game/bots.py is the caller and the reference.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::bots::{Ask, BotRules, Choice, Mixed, MoveIn, Policy, SeatIn};
use super::rng::Rng;
use super::distance::DistanceTables;

#[pyclass(module = "_native", frozen)]
pub struct EfficiencyRules {
    pub(crate) r: BotRules,
}


#[pymethods]
impl EfficiencyRules {
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        copies: Vec<i64>,
        flower: Vec<bool>,
        suit: Vec<i64>,
        rank: Vec<i64>,
        partners: Vec<Vec<usize>>,
        orphans: Vec<Vec<usize>>,
        least: Option<i64>,
        values: Vec<Vec<(i64, i64)>>,
        requires_seen: bool,
    ) -> PyResult<Self> {
        let n = copies.len();
        if flower.len() != n || suit.len() != n || rank.len() != n || partners.len() != n {
            return Err(PyValueError::new_err("the bot's rules need every field for every kind"));
        }
        if partners.iter().chain(orphans.iter()).flatten().any(|&k| k >= n) {
            return Err(PyValueError::new_err("the bot's rules name a kind out of range"));
        }
        let shapes = values.len();
        let floor = least.map(|l| (l, values));
        Ok(EfficiencyRules {
            r: BotRules { copies, flower, suit, rank, partners, orphans, shapes, floor, requires_seen },
        })
    }
}

#[pyclass(module = "_native")]
#[derive(Default)]
pub struct EfficiencyPolicy {
    pub(crate) p: Policy,
}

/// The mixed bot's generators while the native side chooses for it (runtime/game/bots.py `MixedBot`):
/// made from the states `random.Random.getstate()` gives (its 624 words and position), read back by
/// `state` when the bot's own policy chooses again in Python.
#[pyclass(module = "_native")]
pub struct MixedState {
    pub(crate) m: Mixed,
}

#[pymethods]
impl MixedState {
    #[new]
    fn new(rng: (Vec<u32>, usize), mix: (Vec<u32>, usize), patience: f64) -> PyResult<Self> {
        let of = |(w, i): (Vec<u32>, usize)| Rng::from_state(&w, i).ok_or_else(|| PyValueError::new_err("a generator's state is 624 words and a position"));
        Ok(MixedState { m: Mixed { rng: of(rng)?, mix: of(mix)?, patience } })
    }

    /// The two generators' states, as `new` takes them.
    fn state(&self) -> ((Vec<u32>, usize), (Vec<u32>, usize)) {
        (self.m.rng.state(), self.m.mix.state())
    }

    #[getter]
    fn patience(&self) -> f64 {
        self.m.patience
    }

    #[setter]
    fn set_patience(&mut self, v: f64) {
        self.m.patience = v;
    }
}

/// The game's answers through the Python oracle (runtime/game/bots.py `_SeatOracle`), the distances
/// through the native tables (the Python `Distance` where they hand a hand back).
struct PyAsk<'a, 'py> {
    oracle: &'a Bound<'py, PyAny>,
    measure: &'a Bound<'py, PyAny>,
    values: &'a Bound<'py, PyAny>,
    tables: Option<Bound<'py, DistanceTables>>,
    vtables: Option<Bound<'py, DistanceTables>>,
}

fn tables_of<'py>(dist: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, DistanceTables>>> {
    let t = dist.getattr("native")?;
    Ok(t.cast_into::<DistanceTables>().ok())
}

impl Ask for PyAsk<'_, '_> {
    type E = PyErr;
    fn waits(&mut self) -> PyResult<Vec<usize>> {
        self.oracle.call_method0("waits")?.extract()
    }
    fn waits_without(&mut self, kind: usize, groups: bool) -> PyResult<Vec<usize>> {
        self.oracle.call_method1("waits_without", (kind, groups))?.extract()
    }
    fn wins(&mut self, without: usize, kind: usize, drawn: bool) -> PyResult<bool> {
        self.oracle.call_method1("wins", (without, kind, drawn))?.extract()
    }
    fn visible(&mut self, kind: usize) -> PyResult<i64> {
        self.oracle.call_method1("visible", (kind,))?.extract()
    }
    fn distance(&mut self, value: bool, counts: &[i64], wilds: i64, melds: i64, need: i64) -> PyResult<i64> {
        let (t, d) = if value { (&self.vtables, self.values) } else { (&self.tables, self.measure) };
        if let Some(t) = t {
            let m = &mut t.borrow_mut().m;
            if let Some(x) = crate::guarded(|| m.distance(counts, wilds, melds, need))? {
                return Ok(x);
            }
        }
        d.call_method1("distance", (counts.to_vec(), wilds, melds, need))?.extract()
    }
    fn settled(&mut self, counts: &[i64], wilds: i64, melds: i64, need: i64) -> PyResult<i64> {
        if let Some(t) = &self.tables {
            let m = &mut t.borrow_mut().m;
            if let Some(x) = crate::guarded(|| m.settled(counts, wilds, melds, need))? {
                return Ok(x);
            }
        }
        self.measure.call_method1("settled", (counts.to_vec(), wilds, melds, need))?.extract()
    }
    fn improving(&mut self, counts: &[i64], wilds: i64, melds: i64, need: i64) -> PyResult<(i64, Vec<usize>)> {
        if let Some(t) = &self.tables {
            let m = &mut t.borrow_mut().m;
            let mut c = counts.to_vec();
            if let Some(x) = crate::guarded(|| m.improving(&mut c, wilds, melds, need))? {
                return Ok(x);
            }
        }
        self.measure.call_method1("improving", (counts.to_vec(), wilds, melds, need))?.extract()
    }
    fn has_targets(&mut self, melds: i64, size: i64) -> PyResult<bool> {
        if let Some(t) = &self.tables {
            return Ok(t.borrow_mut().m.has_targets(melds, size));
        }
        self.measure.call_method1("targets", (melds, size))?.is_truthy()
    }
}

/// One move: (win, ready, meld, discard, pass, select, kong, shape, tiles).
type PyMove = (bool, bool, bool, bool, bool, bool, bool, i64, Vec<usize>);

#[pymethods]
impl EfficiencyPolicy {
    #[new]
    fn new() -> Self {
        EfficiencyPolicy::default()
    }

    #[getter]
    fn gated(&self) -> bool {
        self.p.gated
    }

    /// The index of the move chosen, or -1 for `PASS`. `hand`, `drawn`, `wild` (the kinds that are
    /// wildcards in a hand), `outside` (the tile a claim takes) as kind indices (-1: none); `melds` as
    /// (meld kind, tiles); `measure`/`values`: the bot's two `Distance` objects.
    #[allow(clippy::too_many_arguments)]
    fn choose(
        &mut self,
        rules: &Bound<'_, EfficiencyRules>,
        hand: Vec<usize>,
        melds: Vec<(i64, Vec<usize>)>,
        drawn: i64,
        wild: Vec<usize>,
        outside: i64,
        players: i64,
        moves: Vec<PyMove>,
        oracle: &Bound<'_, PyAny>,
        measure: &Bound<'_, PyAny>,
        values: &Bound<'_, PyAny>,
    ) -> PyResult<i64> {
        let r = &rules.get().r;
        let n = r.copies.len();
        let bad = |k: usize| k >= n;
        if moves.is_empty() || players < 1 {
            return Err(PyValueError::new_err("the bot chooses among one move at least, for one player at least"));
        }
        if hand.iter().any(|&k| bad(k))
            || wild.iter().any(|&k| bad(k))
            || melds.iter().flat_map(|m| m.1.iter()).any(|&k| bad(k))
            || drawn >= n as i64
            || outside >= n as i64
        {
            return Err(PyValueError::new_err("the seat's data name a kind out of range"));
        }
        let shapes = r.shapes as i64;
        let shape_ok = |k: i64| (-1..shapes).contains(&k);
        if melds.iter().any(|m| !shape_ok(m.0)) {
            return Err(PyValueError::new_err("a meld of the seat is of a kind out of range"));
        }
        let mut mv = Vec::with_capacity(moves.len());
        for (win, ready, meld, discard, pass, select, kong, shape, tiles) in moves {
            if tiles.iter().any(|&k| bad(k)) || ((discard || meld) && tiles.is_empty()) || !shape_ok(shape) {
                return Err(PyValueError::new_err("a move names a kind out of range, or a discard no tile"));
            }
            mv.push(MoveIn { win, ready, meld, discard, pass, select, kong, shape, tiles, same: false });
        }
        let mut w = vec![false; n];
        for k in wild {
            w[k] = true;
        }
        let seat = SeatIn {
            hand,
            melds,
            drawn: (drawn >= 0).then_some(drawn as usize),
            wild: w,
            outside: (outside >= 0).then_some(outside as usize),
            players,
        };
        let mut ask = PyAsk { oracle, measure, values, tables: tables_of(measure)?, vtables: tables_of(values)? };
        Ok(match self.p.choose(r, &seat, &mv, &mut ask)? {
            Choice::Move(i) => i as i64,
            Choice::Pass => -1,
        })
    }
}
