//! What one seat sees of a native hand (runtime/game/observe.py `observation`) and the learning
//! environment's arrays of it (env.py `Layout.encode`, `Layout.actions_of`), read from the native state
//! so that a native game needs no Python game beside it to answer them.
//!
//! `EngineObserver`, one per rule set and room options: the `observe` rules (their `when` lowered for game
//! scope with `viewer`, `owner`, `actor` and `tile` bound as the reference binds them), the player states
//! every seat sees, the visible reveals, the seat names, the meld kinds' shown tiles, the tiles' notation
//! codes (handed over by the Python side) and, once set, the environment's layout. What it cannot answer
//! exactly — a condition that stops or asks a question the native machinery declines, a value the
//! reference would read in a way the arrays do not hold (a reveal holding a list, a seat as a number) —
//! gives None, and the caller asks the reference (counted there).

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};
use serde_json::{json, Map, Value as J};

use super::course::Hand;
use super::env_arrays::{f32_bytes, first_asked, i32_bytes, money_f64, options_of, rows_fit};
use super::env_layout::Layout;
use super::hand_binding::{EngineHand, Took};
use super::scope::{GameScope, BOUND};
use super::state::{get, HandState, Value};
use super::table::Table;
use super::values::{hand_wilds, Ev};
use super::winning::Winning;
use crate::program::V;

/// What an `observe` rule shows (`what`).
#[derive(Clone, Copy, PartialEq)]
enum What {
    Hand,
    Drawn,
    Melds,
    KongTiles,
}

#[pyclass(module = "paili.runtime._native")]
pub struct EngineObserver {
    rules: Vec<(What, Option<usize>)>,
    scope: GameScope,
    visible_states: Vec<String>,
    seat_names: Vec<String>,
    pub(super) codes: Vec<String>,
    action_names: Vec<String>, // the rule set's actions' names by id (the layout's slots read them)
    kinds: Vec<String>,        // the catalog's kind names (the layout's wildcards are looked up once in them)
    pub(super) layout: Option<Layout>,
}

fn what_of(s: &str) -> Option<What> {
    Some(match s {
        "hand" => What::Hand,
        "drawn" => What::Drawn,
        "melds" => What::Melds,
        "kong_tiles" => What::KongTiles,
        _ => return None,
    })
}

/// The per-seat view a viewer has: what `observe` rules show of each seat.
pub(super) struct Shown {
    pub(super) hand: bool,
    pub(super) drawn: bool,
    pub(super) melds: bool,
    pub(super) kong_tiles: bool,
}

impl EngineObserver {
    fn names(t: &Table, ks: &[usize]) -> J {
        J::Array(ks.iter().map(|&k| J::String(t.names[k].clone())).collect())
    }

    fn codes_of(&self, ks: &[usize]) -> J {
        J::Array(ks.iter().map(|&k| J::String(self.codes[k].clone())).collect())
    }

    /// For `viewer`, what the rules show of every seat (observe.py: each rule, each owner but the viewer,
    /// `condition_holds` with viewer, owner, actor = owner, tile = the owner's drawn tile); for no viewer
    /// (an onlooker, observe.py `onlooker_observation`), each owner with the viewer bound to nothing. None: a
    /// condition the native side does not answer exactly (the reference notes an error, or a question is
    /// declined).
    pub(super) fn shown(&self, py: Python<'_>, t: &Table, w: &Winning, h: &Hand, viewer: Option<usize>) -> Option<Vec<Shown>> {
        let st = &h.st;
        let mut out: Vec<Shown> = (0..st.n).map(|_| Shown { hand: false, drawn: false, melds: false, kong_tiles: false }).collect();
        if self.rules.is_empty() {
            return Some(out);
        }
        let hand_wild = hand_wilds(t, st);
        let ok = super::with_hand(py, w, |hc| {
            let wins = w.on(t, st, hc);
            for (what, when) in &self.rules {
                for (owner, shown) in out.iter_mut().enumerate() {
                    if Some(owner) == viewer {
                        continue;
                    }
                    let holds = match when {
                        None => true,
                        Some(i) => {
                            if matches!(self.scope.exprs.get(*i), Some(Err(_)) | None) {
                                return false;
                            }
                            let mut bound: Vec<V> = h.base.clone();
                            let slot = |name: &str| BOUND.iter().position(|b| *b == name).expect("a binding of scope::BOUND");
                            bound[slot("viewer")] = viewer.map_or(V::None, |v| V::Seat(v as u16));
                            bound[slot("owner")] = V::Seat(owner as u16);
                            bound[slot("actor")] = V::Seat(owner as u16);
                            bound[slot("tile")] = match st.seats[owner].drawn {
                                Some(k) => V::Tile(((k as u32) << 2) | self.scope.kind_joker[k] as u32),
                                None => V::None,
                            };
                            let mut ev = Ev::new(&self.scope, t, st, &hand_wild, &wins, bound);
                            ev.self_drawn = h.base_self_drawn;
                            let got = ev.expr(*i);
                            if ev.declined.is_some() || super::scope::WinQuestions::take_declined(&wins).is_some() {
                                return false;
                            }
                            match got {
                                Ok(v) => v.truthy(),
                                Err(_) => return false, // the reference notes an error: it answers
                            }
                        }
                    };
                    if holds {
                        match what {
                            What::Hand => shown.hand = true,
                            What::Drawn => shown.drawn = true,
                            What::Melds => shown.melds = true,
                            What::KongTiles => shown.kong_tiles = true,
                        }
                    }
                }
            }
            true
        });
        ok.then_some(out)
    }

    /// The tiles of a meld the viewer sees, and how many it does not (None: all of them).
    pub(super) fn meld_seen(t: &Table, kind: &str, tiles: &[usize], full: bool, exposed: bool, kong_tiles: bool) -> (Vec<usize>, Option<usize>) {
        if full || exposed {
            return (tiles.to_vec(), None);
        }
        let mk = t.rules.melds.iter().find(|m| m.name == kind);
        let k = mk.and_then(|m| m.shown).unwrap_or(0).max(0) as usize;
        let mut sorted = tiles.to_vec();
        sorted.sort_unstable();
        sorted.truncate(k);
        if kong_tiles && mk.is_some_and(|m| m.kong) && sorted.is_empty() {
            sorted = tiles.last().map(|&x| vec![x]).unwrap_or_default();
        }
        let hidden = tiles.len() - sorted.len();
        (sorted, Some(hidden))
    }

    fn seat_name(&self, t: &Table, st: &HandState, s: usize) -> J {
        let n = t.n as i64;
        if self.seat_names.len() < t.n {
            return J::Null;
        }
        (0..n)
            .position(|k| ((st.dealer as i64 + t.step * k).rem_euclid(n)) as usize == s)
            .map_or(J::Null, |k| J::String(self.seat_names[k].clone()))
    }

    /// observe.py `observation` (an onlooker's, `onlooker_observation`, for no viewer) but for what the
    /// Python side adds (decision, to_act, over, result, legal_moves): the JSON object, or None where the
    /// native side does not answer.
    fn observation_json(&self, py: Python<'_>, t: &Table, w: &Winning, h: &Hand, viewer: Option<usize>) -> Option<J> {
        let st = &h.st;
        let shown = self.shown(py, t, w, h, viewer)?;
        let in_play = |s: usize| !(t.rules.table.winners_leave && st.winners.contains(&s));
        let mut seats = Vec::with_capacity(st.n);
        for (i, s) in st.seats.iter().enumerate() {
            let mine = Some(i) == viewer;
            let what = &shown[i];
            let melds: Vec<J> = s
                .melds
                .iter()
                .map(|m| {
                    let (tiles, hidden) = Self::meld_seen(t, &m.kind, &m.tiles, mine || what.melds, m.exposed, what.kong_tiles);
                    let mut d = Map::new();
                    d.insert("kind".into(), J::String(m.kind.clone()));
                    d.insert("tiles".into(), Self::names(t, &tiles));
                    d.insert("codes".into(), self.codes_of(&tiles));
                    if let Some(h) = hidden {
                        d.insert("hidden".into(), json!(h));
                        d.insert("exposed".into(), J::Bool(false));
                    } else {
                        d.insert("exposed".into(), J::Bool(m.exposed));
                    }
                    J::Object(d)
                })
                .collect();
            let mut d = Map::new();
            d.insert("seat".into(), json!(i));
            d.insert("name".into(), self.seat_name(t, st, i));
            d.insert("dealer".into(), J::Bool(i == st.dealer));
            d.insert("hand_size".into(), json!(s.hand.len()));
            d.insert("melds".into(), J::Array(melds));
            d.insert("discards".into(), Self::names(t, &s.discards));
            d.insert("discards_codes".into(), self.codes_of(&s.discards));
            d.insert("aside".into(), Self::names(t, &s.aside));
            d.insert("aside_codes".into(), self.codes_of(&s.aside));
            d.insert("balance".into(), s.balance.plain());
            d.insert("balance_exact".into(), J::String(s.balance.exact()));
            d.insert("auto".into(), J::Bool(s.auto));
            d.insert("in_play".into(), J::Bool(in_play(i)));
            if !mine && !self.visible_states.is_empty() {
                let vars: Map<String, J> = self
                    .visible_states
                    .iter()
                    .map(|k| (k.clone(), get(&s.vars, k).map_or(J::Null, |v| v.plain(&t.names))))
                    .collect();
                d.insert("state".into(), J::Object(vars));
            }
            if !mine && what.hand {
                let mut hand = s.hand.clone();
                hand.sort_unstable();
                d.insert("hand".into(), Self::names(t, &hand));
                d.insert("hand_codes".into(), self.codes_of(&hand));
            }
            if !mine && (what.drawn || what.hand) {
                if let Some(k) = s.drawn {
                    d.insert("drawn".into(), J::String(t.names[k].clone()));
                    d.insert("drawn_code".into(), J::String(self.codes[k].clone()));
                }
            }
            seats.push(J::Object(d));
        }
        let dict = |vars: &[(String, Value)]| J::Object(vars.iter().map(|(k, v)| (k.clone(), v.plain(&t.names))).collect());
        let visible = |k: &str| t.rules.reveals.iter().any(|r| r.name == k && r.visible);
        let reveals: Map<String, J> =
            st.reveals.iter().filter(|(k, _)| visible(k)).map(|(k, v)| (k.clone(), v.plain(&t.names))).collect();
        let mut reveals_codes = Map::new();
        for (k, v) in st.reveals.iter().filter(|(k, _)| visible(k)) {
            match v {
                Value::Tile(x) => {
                    reveals_codes.insert(k.clone(), J::String(self.codes[*x].clone()));
                }
                Value::List(items) if !items.is_empty() && items.iter().all(|x| matches!(x, Value::Tile(_))) => {
                    let ks: Vec<usize> = items.iter().filter_map(|x| if let Value::Tile(k) = x { Some(*k) } else { None }).collect();
                    reveals_codes.insert(k.clone(), self.codes_of(&ks));
                }
                _ => {}
            }
        }
        let chance: Vec<J> = st
            .chance
            .iter()
            .map(|c| {
                let mut d = Map::new();
                for k in ["target", "seat", "draws", "value"] {
                    d.insert(k.into(), c.get(k).cloned().unwrap_or(J::Null));
                }
                J::Object(d)
            })
            .collect();
        let mut out = json!({
            "players": st.n, "over": st.over, "dealer": st.dealer, "turn": st.turn, "wall_left": st.wall.len(), "seats": seats,
            "table": dict(&st.table), "reveals": reveals, "reveals_codes": reveals_codes,
            "task": st.task, "chance": chance,
        });
        if let (Some(seat), Some(d)) = (viewer, out.as_object_mut()) {
            let me = &st.seats[seat];
            let mut hand = me.hand.clone();
            hand.sort_unstable();
            d.insert("hand".into(), Self::names(t, &hand));
            d.insert("hand_codes".into(), self.codes_of(&hand));
            d.insert("drawn".into(), me.drawn.map_or(J::Null, |k| J::String(t.names[k].clone())));
            d.insert("drawn_code".into(), me.drawn.map_or(J::Null, |k| J::String(self.codes[k].clone())));
            d.insert("state".into(), dict(&me.vars));
        }
        Some(out)
    }
}

pub(super) fn seat_slot(hand: &EngineHand, seat: usize) -> PyResult<()> {
    let (t, ..) = hand.observed();
    if seat >= t.n {
        return Err(PyValueError::new_err(format!("seat {seat} is not a seat of this table")));
    }
    Ok(())
}

#[pymethods]
impl EngineObserver {
    /// An observer of the hands `hand` is one of (its rule set and room options): `ruleset_json`, the
    /// rule set's JSON; `codes`, each catalog kind's notation code; `kinds`, the Python catalog's kind
    /// names in order (checked to be the native catalog's).
    #[new]
    fn new(hand: PyRef<'_, EngineHand>, ruleset_json: &str, codes: Vec<String>, kinds: Vec<String>) -> PyResult<Self> {
        let (t, w, ..) = hand.observed();
        if kinds != t.names || codes.len() != t.names.len() {
            return Err(PyValueError::new_err("the native catalog is not the rule set's catalog under these options"));
        }
        let doc: J = serde_json::from_str(ruleset_json).map_err(|_| PyValueError::new_err("the rule set's JSON does not parse"))?;
        let rs = doc.get("ruleset").unwrap_or(&J::Null);
        let list = |k: &str| rs.get(k).and_then(J::as_array).cloned().unwrap_or_default();
        let mut exprs = Vec::new();
        let mut rules = Vec::new();
        for o in list("observes") {
            let what = o.get("what").and_then(J::as_str).and_then(what_of);
            let Some(what) = what else {
                return Err(PyValueError::new_err("an observe rule shows something other than hand, drawn, melds or kong_tiles"));
            };
            let when = o.get("when").filter(|e| !e.is_null()).map(|e| {
                exprs.push(e.clone());
                exprs.len() - 1
            });
            rules.push((what, when));
        }
        let visible_states = list("states")
            .iter()
            .filter(|s| s.get("scope").and_then(J::as_str) == Some("player") && s.get("visible").and_then(J::as_bool) == Some(true))
            .filter_map(|s| s.get("name").and_then(J::as_str).map(str::to_owned))
            .collect();
        let seat_names = rs
            .get("table")
            .and_then(|x| x.get("seat_names"))
            .and_then(J::as_array)
            .map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_owned)).collect())
            .unwrap_or_default();
        let scope = GameScope::new(t, &exprs, w);
        let action_names = t.rules.action_names.clone();
        Ok(EngineObserver { rules, scope, visible_states, seat_names, codes, action_names, kinds, layout: None })
    }

    /// The environment's layout (env.py `Layout`, as JSON text: dim, size, extra, actions, reveals, wilds,
    /// tasks, player_states, table_states, and each part's offset by name).
    fn set_layout(&mut self, layout_json: &str) -> PyResult<()> {
        let mut lay = Layout::parse(layout_json, self.codes.len(), &self.action_names).map_err(PyValueError::new_err)?;
        // (each wildcard's kind where its `tiles` names one, found once here rather than by name at every
        // encoding)
        lay.wild_kind = lay.wilds.iter().map(|w| self.kinds.iter().position(|x| x == w)).collect();
        self.layout = Some(lay);
        Ok(())
    }

    /// The ended hand's deltas as floats (env.py `_number` of `Game.result()["deltas"]`) and its winners
    /// (`result()["winners"]`): the learning environment's rewards and infos, read once per hand without
    /// writing the result. None while the hand is not over (or stopped), or where a delta is not exactly
    /// the quotient of two doubles (the caller reads `result()`).
    fn settled(&self, hand: PyRef<'_, EngineHand>) -> Option<(Vec<f64>, Vec<usize>)> {
        if !hand.over() {
            return None;
        }
        let (_, _, h, ..) = hand.observed();
        let st = &h?.st;
        let deltas = st.deltas.iter().map(money_f64).collect::<Option<Vec<f64>>>()?;
        Some((deltas, st.winners.clone()))
    }

    /// Seat's observation as observe.py gives it but for `decision`, `to_act`, `over`, `result` and
    /// `legal_moves` (JSON text), or None where the native side does not answer it.
    fn observation(&self, py: Python<'_>, hand: PyRef<'_, EngineHand>, seat: usize) -> PyResult<Option<String>> {
        seat_slot(&hand, seat)?;
        let (t, w, h, ..) = hand.observed();
        let Some(h) = h else { return Ok(None) };
        Ok(self.observation_json(py, t, w, h, Some(seat)).map(|j| j.to_string()))
    }

    /// What someone not seated sees (observe.py `onlooker_observation`) but for what the Python side adds
    /// (decision, to_act, over, result): JSON text, or None where the native side does not answer.
    fn onlooker(&self, py: Python<'_>, hand: PyRef<'_, EngineHand>) -> Option<String> {
        let (t, w, h, ..) = hand.observed();
        self.observation_json(py, t, w, h?, None).map(|j| j.to_string())
    }

    /// Seat's observation vector (float32, `dim`) and action mask (int8, `size`) as bytearrays (numpy reads
    /// them writable without a copy), with per action slot the index of the legal move it stands for (-1:
    /// none; int32 bytes); None where the native side does not answer.
    #[allow(clippy::type_complexity)]
    fn encode<'py>(&self, py: Python<'py>, hand: PyRef<'_, EngineHand>, seat: usize) -> PyResult<Option<(Bound<'py, PyByteArray>, Bound<'py, PyByteArray>, Bound<'py, PyBytes>)>> {
        seat_slot(&hand, seat)?;
        let lay = self.layout()?;
        let (t, w, h, ask, answers) = hand.observed();
        let Some(h) = h else { return Ok(None) };
        let mut v = vec![0f32; lay.dim];
        if !self.encode_into(py, t, w, h, ask, answers, seat, &mut v) {
            return Ok(None);
        }
        let mut slots = vec![-1i32; lay.size];
        if let Some(ms) = options_of(ask, answers, seat) {
            lay.slots(self.codes.len(), ms, &mut slots);
        }
        let mask: Vec<u8> = slots.iter().map(|&x| (x >= 0) as u8).collect();
        Ok(Some((PyByteArray::new(py, f32_bytes(&v)), PyByteArray::new(py, &mask), PyBytes::new(py, i32_bytes(&slots)))))
    }

    /// `encode` of many hands at once (`Tables.step_many`): hand i seen by `seats[i]`, the vectors one after
    /// another (float32 bytes, [T, dim]), per action slot the index of the legal move it stands for or -1
    /// ([T, size] int32 bytes: the mask is where it is not -1), and per hand whether it was encoded
    /// (false: zeros and -1 left, the caller encodes the reference's observation).
    #[allow(clippy::type_complexity)]
    fn encode_many<'py>(&self, py: Python<'py>, hands: Vec<PyRef<'_, EngineHand>>, seats: Vec<usize>) -> PyResult<(Bound<'py, PyByteArray>, Bound<'py, PyBytes>, Vec<bool>)> {
        let lay = self.layout()?;
        if hands.len() != seats.len() {
            return Err(PyValueError::new_err(format!("{} seats for {} hands", seats.len(), hands.len())));
        }
        let (dim, size) = (lay.dim, lay.size);
        let mut v = vec![0f32; hands.len() * dim];
        let mut slots = vec![-1i32; hands.len() * size];
        let mut done = Vec::with_capacity(hands.len());
        for (i, (hand, &seat)) in hands.iter().zip(&seats).enumerate() {
            seat_slot(hand, seat)?;
            let (t, w, h, ask, answers) = hand.observed();
            let row = &mut v[i * dim..(i + 1) * dim];
            let ok = h.is_some_and(|h| self.encode_into(py, t, w, h, ask, answers, seat, row));
            if !ok {
                row.fill(0.0);
                done.push(false);
                continue;
            }
            if let Some(ms) = options_of(ask, answers, seat) {
                lay.slots(self.codes.len(), ms, &mut slots[i * size..(i + 1) * size]);
            }
            done.push(true);
        }
        Ok((PyByteArray::new(py, f32_bytes(&v)), PyBytes::new(py, i32_bytes(&slots)), done))
    }

    /// The environment's action `action` taken by seat: the legal move its slot stands for (the slots
    /// `encode` gives) applied as `EngineHand.apply_step` applies it, and what that leaves. Refused
    /// (ValueError, one sentence, nothing changed) where the slot names none of seat's legal moves now.
    fn act(&self, py: Python<'_>, mut hand: PyRefMut<'_, EngineHand>, seat: usize, action: i64) -> PyResult<Took> {
        seat_slot(&hand, seat)?;
        let index = self.move_index(&hand, seat, action).map_err(PyValueError::new_err)?;
        hand.step_index(py, seat, index).map_err(PyValueError::new_err)
    }

    /// `act` at many hands in one call (`Tables.step_many`): every action checked first (the first hand
    /// whose action names no legal move is given back, and nothing is applied), then each hand's seat
    /// `seats[i]` takes `actions[i]`. What each hand played left (`Took`), the hand whose action was
    /// refused, and the first refusal of a move applied (the hands after it not played on).
    #[allow(clippy::type_complexity)]
    fn act_many(&self, py: Python<'_>, mut hands: Vec<PyRefMut<'_, EngineHand>>, seats: Vec<usize>, actions: Vec<i64>) -> PyResult<(Vec<Took>, Option<usize>, Option<String>)> {
        let indices = match self.indices_of(&hands, &seats, &actions)? {
            Ok(indices) => indices,
            Err(i) => return Ok((Vec::new(), Some(i), None)),
        };
        let mut out = Vec::with_capacity(hands.len());
        for (i, hand) in hands.iter_mut().enumerate() {
            match hand.step_index(py, seats[i], indices[i]) {
                Ok(t) => out.push(t),
                Err(why) => return Ok((out, None, Some(why))),
            }
        }
        Ok((out, None, None))
    }

    /// `act`, and the arrays of the seat the hand then waits on first (`encode`'s vector and mask), in one
    /// call (the environment's step, whose next `observe` reads them): (what the move left, that seat —
    /// None when none is asked —, its vector and mask — None where `encode` gives None).
    #[allow(clippy::type_complexity)]
    fn act_observe<'py>(&self, py: Python<'py>, mut hand: PyRefMut<'_, EngineHand>, seat: usize, action: i64) -> PyResult<(Took, Option<usize>, Option<(Bound<'py, PyByteArray>, Bound<'py, PyByteArray>)>)> {
        seat_slot(&hand, seat)?;
        let lay = self.layout()?;
        let index = self.move_index(&hand, seat, action).map_err(PyValueError::new_err)?;
        let took = hand.step_index(py, seat, index).map_err(PyValueError::new_err)?;
        let next = first_asked(&hand);
        let mut arrays = None;
        if let Some(s) = next {
            let (v, mask) = self.filled(py, lay, 1, |v, mask| self.encode_row(py, lay, &hand, s, v, mask))?;
            arrays = v.filter(|_| mask.len() == lay.size).map(|v| (v, mask));
        }
        Ok((took, next, arrays))
    }

    /// `act_observe` with the arrays of the seat the hand then waits on first written into row `row` of
    /// arrays the caller keeps (`obs`: [R, dim] float32 bytes; `masks`: [R, size] int8 bytes) instead of
    /// new ones, and what the move left as one flat tuple: `act`'s five (the move's text, the seats asked
    /// now, why it stopped, whether the invariants hold, over), the seat waited on first (None: none is
    /// asked) and whether the row was written (false: left as it was — a hand over or stopped, or arrays
    /// the native side does not answer). The environment's step hands each row out once, so an array
    /// handed out is never written again. Refused, nothing changed: a row not within both arrays
    /// (IndexError), an action that names none of seat's legal moves now (ValueError).
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    fn act_into(&self, py: Python<'_>, mut hand: PyRefMut<'_, EngineHand>, seat: usize, action: i64, obs: &Bound<'_, PyByteArray>, masks: &Bound<'_, PyByteArray>, row: usize) -> PyResult<(String, Option<Vec<usize>>, Option<String>, bool, bool, Option<usize>, bool)> {
        seat_slot(&hand, seat)?;
        let lay = self.layout()?;
        if !rows_fit(lay, obs, masks, row) {
            return Err(PyIndexError::new_err(format!("row {row} is not within the arrays given")));
        }
        let index = self.move_index(&hand, seat, action).map_err(PyValueError::new_err)?;
        let (text, asked, why, intact, over) = hand.step_index(py, seat, index).map_err(PyValueError::new_err)?;
        let next = first_asked(&hand);
        let written = next.is_some_and(|s| self.write_row(py, lay, &hand, s, obs, masks, row));
        Ok((text, asked, why, intact, over, next, written))
    }

    /// `act_many`, then every hand's arrays for the seat it then waits on first, in one call
    /// (`Tables.step_many`): what each hand's move left, the hand whose action was refused (nothing
    /// applied), the first refusal of a move applied (the hands after it not played on), the vectors
    /// ([T, dim] float32 bytes) and masks ([T, size] int8 bytes), and per hand the seat it waits on first
    /// (-1: none — over or stopped) and whether its arrays were filled (false: zeros, for the caller).
    #[allow(clippy::type_complexity)]
    fn step_many<'py>(&self, py: Python<'py>, mut hands: Vec<PyRefMut<'_, EngineHand>>, seats: Vec<usize>, actions: Vec<i64>) -> PyResult<(Vec<Took>, Option<usize>, Option<String>, Bound<'py, PyByteArray>, Bound<'py, PyByteArray>, Vec<i64>, Vec<bool>)> {
        let lay = self.layout()?;
        let indices = match self.indices_of(&hands, &seats, &actions)? {
            Ok(indices) => indices,
            Err(i) => {
                let empty = || PyByteArray::new(py, &[]);
                return Ok((Vec::new(), Some(i), None, empty(), empty(), Vec::new(), Vec::new()));
            }
        };
        let (dim, size) = (lay.dim, lay.size);
        let mut out = Vec::with_capacity(hands.len());
        let mut next = vec![-1i64; hands.len()];
        let mut filled = vec![false; hands.len()];
        let mut why = None;
        for (i, hand) in hands.iter_mut().enumerate() {
            match hand.step_index(py, seats[i], indices[i]) {
                Ok(t) => out.push(t),
                Err(e) => {
                    why = Some(e);
                    break;
                }
            }
            if let Some(s) = first_asked(hand) {
                next[i] = s as i64;
            }
        }
        let (v, mask) = self.filled(py, lay, hands.len(), |v, mask| {
            for (i, hand) in hands.iter().enumerate().take(out.len()) {
                if let Ok(s) = usize::try_from(next[i]) {
                    filled[i] = self.encode_row(py, lay, hand, s, &mut v[i * dim..(i + 1) * dim], &mut mask[i * size..(i + 1) * size]);
                }
            }
            true
        })?;
        let v = v.unwrap_or_else(|| PyByteArray::new(py, &[]));
        Ok((out, None, why, v, mask, next, filled))
    }
}
