//! The learning environment's arrays of a native hand (env.py `Layout.encode`, `Layout.actions_of`): a
//! seat's observation vector and action mask written in place, the action's legal move found by its slot,
//! and the rows a step writes into arrays the caller keeps (`EngineObserver.act_into`). The observer's
//! Python methods are in observe.rs.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyByteArray;

use super::course::Hand;
use super::env_layout::Layout;
use super::hand_binding::EngineHand;
use super::observe::{seat_slot, EngineObserver};
use super::offers::Mv;
use super::state::{get, Money, Value};
use super::steps::Ask;
use super::table::Table;
use super::winning::Winning;

const BOUND_CLIP: f64 = 1e9; // env.py `BOUND`: values are clipped to ±BOUND

impl EngineObserver {
    /// env.py `Layout.encode` of seat's observation into `v` (its `dim` values, zeroed). False: a value
    /// the reference reads in a way this does not (the caller encodes the reference's observation).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn encode_into(&self, py: Python<'_>, t: &Table, w: &Winning, h: &Hand, ask: Option<&Ask>, answers: &[(usize, Mv)], seat: usize, v: &mut [f32]) -> bool {
        let Some(lay) = &self.layout else { return false };
        let st = &h.st;
        let Some(shown) = self.shown(py, t, w, h, Some(seat)) else { return false };
        let n = st.n;
        let count = |v: &mut [f32], base: usize, ks: &[usize]| {
            for &k in ks {
                v[base + k] += 1.0;
            }
        };
        let me = &st.seats[seat];
        let [o_hand, o_drawn, o_wild, o_task, o_wall, o_player, o_table] = lay.at;
        count(v, o_hand, &me.hand);
        if let Some(k) = me.drawn {
            count(v, o_drawn, &[k]);
        }
        let to_act = |s: usize| match ask {
            Some(a) => a.options.iter().any(|(x, _)| *x == s) && !answers.iter().any(|(x, _)| *x == s),
            None => false,
        };
        for (i, s) in st.seats.iter().enumerate() {
            let mine = i == seat;
            let rel = (i + n - seat) % n;
            let what = &shown[i];
            let Some(&[o_melds, o_discards, o_aside, o_shown, o_scalars]) = lay.seat_off.get(rel) else { return false };
            for m in &s.melds {
                if mine || what.melds || m.exposed {
                    count(v, o_melds, &m.tiles);
                } else {
                    let (tiles, _) = Self::meld_seen(t, &m.kind, &m.tiles, false, false, what.kong_tiles);
                    count(v, o_melds, &tiles);
                }
            }
            count(v, o_discards, &s.discards);
            count(v, o_aside, &s.aside);
            if !mine && what.hand {
                count(v, o_shown, &s.hand);
            }
            let Some(balance) = money_f64(&s.balance) else { return false };
            let base = o_scalars;
            v[base] = s.hand.len() as f32;
            v[base + 1] = if i == st.dealer { 1.0 } else { 0.0 };
            v[base + 2] = if !(t.rules.table.winners_leave && st.winners.contains(&i)) { 1.0 } else { 0.0 };
            v[base + 3] = if s.auto { 1.0 } else { 0.0 };
            v[base + 4] = clip(balance);
            v[base + 5] = if to_act(i) { 1.0 } else { 0.0 };
        }
        let visible = |k: &str| t.rules.reveals.iter().any(|r| r.name == k && r.visible);
        // a visible reveal's value as `seen.get(name)` gives it, where it names a kind (or nothing)
        let seen = |name: &str| -> Result<Option<usize>, ()> {
            if !visible(name) {
                return Ok(None);
            }
            match get(&st.reveals, name) {
                None | Some(Value::None | Value::Bool(_) | Value::Int(_)) => Ok(None),
                Some(Value::Tile(k)) => Ok(Some(*k)),
                Some(Value::Str(s)) => Ok(t.names.iter().position(|x| x == s)),
                Some(Value::List(items)) if items.is_empty() => Ok(None),
                Some(_) => Err(()), // a list or a seat: unhashable for the reference's lookup
            }
        };
        for (r, &o) in lay.reveals.iter().zip(&lay.reveal_off) {
            match seen(r) {
                Ok(Some(k)) => count(v, o, &[k]),
                Ok(None) => {}
                Err(()) => return false,
            }
        }
        let wild = o_wild;
        for (i, tiles) in lay.wilds.iter().enumerate() {
            let named = match lay.wild_kind.get(i) {
                Some(&k) => k,
                None => t.names.iter().position(|x| x == tiles),
            };
            let k = match named {
                Some(k) => Some(k),
                None => match seen(tiles) {
                    Ok(k) => k,
                    Err(()) => return false,
                },
            };
            if let Some(k) = k {
                v[wild + k] = 1.0;
            }
        }
        if let Some(q) = lay.tasks.iter().position(|x| *x == st.task) {
            v[o_task + q] = 1.0;
        }
        v[o_wall] = st.wall.len() as f32;
        let base = o_player;
        for (q, k) in lay.player_states.iter().enumerate() {
            let Some(x) = number(t, get(&me.vars, k)) else { return false };
            v[base + q] = clip(x);
        }
        let base = o_table;
        for (q, k) in lay.table_states.iter().enumerate() {
            let Some(x) = number(t, get(&st.table, k)) else { return false };
            v[base + q] = clip(x);
        }
        true
    }

    /// Seat's arrays of `hand` into `v` (its `dim` values, zeroed) and `mask` (its `size` values, zeroed):
    /// false where the native side does not answer (a stopped hand, a value `encode_into` declines).
    pub(super) fn encode_row(&self, py: Python<'_>, lay: &Layout, hand: &EngineHand, seat: usize, v: &mut [f32], mask: &mut [u8]) -> bool {
        let (t, w, h, ask, answers) = hand.observed();
        if !h.is_some_and(|h| self.encode_into(py, t, w, h, ask, answers, seat, v)) {
            v.fill(0.0);
            return false;
        }
        if let Some(ms) = options_of(ask, answers, seat) {
            lay.mask(self.codes.len(), ms, mask);
        }
        true
    }

    /// Seat's arrays of `hand` written into row `row` of `obs` ([R, dim] float32 bytes) and `masks` ([R,
    /// size] int8 bytes), the whole row: false, nothing written, where the native side does not answer
    /// (`encode_row`) or the row is not within them.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn write_row(&self, py: Python<'_>, lay: &Layout, hand: &EngineHand, seat: usize, obs: &Bound<'_, PyByteArray>, masks: &Bound<'_, PyByteArray>, row: usize) -> bool {
        let mut v = vec![0f32; lay.dim];
        let mut m = vec![0u8; lay.size];
        // (filled apart and copied after: the encoding may run Python code, which could reach the arrays)
        if !self.encode_row(py, lay, hand, seat, &mut v, &mut m) || !rows_fit(lay, obs, masks, row) {
            return false;
        }
        let (vb, mb) = (lay.dim * 4, lay.size);
        // SAFETY: no Python code runs while these slices are held (two copies), so nothing resizes or frees
        // the bytearrays' buffers meanwhile; `rows_fit` checked just above that the row lies within both
        unsafe {
            obs.as_bytes_mut()[row * vb..(row + 1) * vb].copy_from_slice(f32_bytes(&v));
            masks.as_bytes_mut()[row * mb..(row + 1) * mb].copy_from_slice(&m);
        }
        true
    }

    /// `rows` vectors (float32) and masks (int8) of the layout, zeroed, filled by `fill` in place in the
    /// bytearrays handed to Python (no copy): (the vectors — None where `fill` says false —, the masks).
    #[allow(clippy::type_complexity)]
    pub(super) fn filled<'py>(&self, py: Python<'py>, lay: &Layout, rows: usize, fill: impl FnOnce(&mut [f32], &mut [u8]) -> bool) -> PyResult<(Option<Bound<'py, PyByteArray>>, Bound<'py, PyByteArray>)> {
        let mut ok = false;
        let mut fill = Some(fill);
        let mask = PyByteArray::new_with(py, rows * lay.size, |_| Ok(()))?;
        let v = PyByteArray::new_with(py, rows * lay.dim * 4, |bytes| {
            // SAFETY: the mask's bytearray was made just above and no one else holds it yet; its buffer
            // does not move while nothing resizes it (the Python code a condition may run cannot reach it)
            let m = unsafe { mask.as_bytes_mut() };
            // SAFETY: a float32 is any 4 bytes; `align_to_mut` gives the aligned middle
            let (pre, v, post) = unsafe { bytes.align_to_mut::<f32>() };
            let fill = fill.take().expect("called once");
            if pre.is_empty() && post.is_empty() {
                ok = fill(v, m);
            } else {
                let mut w = vec![0f32; rows * lay.dim];
                ok = fill(&mut w, m);
                bytes.copy_from_slice(f32_bytes(&w));
            }
            Ok(())
        })?;
        Ok((ok.then_some(v), mask))
    }

    pub(super) fn layout(&self) -> PyResult<&Layout> {
        self.layout.as_ref().ok_or_else(|| PyValueError::new_err("no layout is set (call set_layout first)"))
    }

    /// The index of the legal move of seat's that `action` stands for now (`act`).
    /// Every hand's action checked before any is applied (`act_many`, `step_many`): the index of the legal
    /// move each names, or Err with the first hand whose action names none.
    pub(super) fn indices_of(&self, hands: &[PyRefMut<'_, EngineHand>], seats: &[usize], actions: &[i64]) -> PyResult<Result<Vec<usize>, usize>> {
        if hands.len() != seats.len() || hands.len() != actions.len() {
            return Err(PyValueError::new_err(format!("{} seats and {} actions for {} hands", seats.len(), actions.len(), hands.len())));
        }
        let mut indices = Vec::with_capacity(hands.len());
        for (i, hand) in hands.iter().enumerate() {
            seat_slot(hand, seats[i])?;
            match self.move_index(hand, seats[i], actions[i]) {
                Ok(x) => indices.push(x),
                Err(_) => return Ok(Err(i)),
            }
        }
        Ok(Ok(indices))
    }

    pub(super) fn move_index(&self, hand: &EngineHand, seat: usize, action: i64) -> Result<usize, String> {
        let lay = self.layout.as_ref().ok_or("no layout is set (call set_layout first)")?;
        let (_, _, h, ask, answers) = hand.observed();
        h.and_then(|_| options_of(ask, answers, seat))
            .and_then(|ms| lay.move_of(self.codes.len(), ms, action))
            .ok_or_else(|| format!("action {action} is not legal for seat {seat} now (see its action_mask)"))
    }
}


fn clip(x: f64) -> f32 {
    x.clamp(-BOUND_CLIP, BOUND_CLIP) as f32
}

/// `float(Fraction(exact))`, where the division of two doubles is exact enough to be the same.
pub(super) fn money_f64(m: &Money) -> Option<f64> {
    const EXACT: i64 = 1 << 53;
    (m.n.abs() < EXACT && m.d.abs() < EXACT).then(|| m.n as f64 / m.d as f64)
}

/// env.py `_number` of a state's plain value; None where the reference's reading is not followed here
/// (a text that could read as a number).
fn number(t: &Table, v: Option<&Value>) -> Option<f64> {
    Some(match v {
        None | Some(Value::None | Value::Seat(_) | Value::List(_)) => 0.0,
        Some(Value::Bool(b)) => *b as i64 as f64,
        Some(Value::Int(i)) => *i as f64,
        Some(Value::Tile(k)) => text_number(&t.names[*k])?,
        Some(Value::Str(s)) => text_number(s)?,
    })
}

/// `Fraction(text)` for a text that is plainly not a number (0.0, as `_number` gives), else None.
fn text_number(s: &str) -> Option<f64> {
    if s.chars().any(|c| c.is_ascii_digit()) {
        None
    } else {
        Some(0.0)
    }
}

/// The seat the decision asked waits on first (`Game.current_seats()[0]`: the lowest seat asked that has
/// not answered); None when none is asked (the hand over or stopped).
pub(super) fn first_asked(hand: &EngineHand) -> Option<usize> {
    let (_, _, h, ask, answers) = hand.observed();
    h?;
    ask?.options.iter().map(|(s, _)| *s).filter(|s| !answers.iter().any(|(x, _)| x == s)).min()
}

/// The legal moves of seat's the decision asked offers it, where it has not answered yet.
pub(super) fn options_of<'a>(ask: Option<&'a Ask>, answers: &[(usize, Mv)], seat: usize) -> Option<&'a [Mv]> {
    let a = ask?;
    if answers.iter().any(|(x, _)| *x == seat) {
        return None;
    }
    a.options.iter().find(|(s, _)| *s == seat).map(|(_, ms)| ms.as_slice())
}

/// The values' bytes as they lie in memory: the native byte order numpy's `float32` and `int32` read.
pub(super) fn f32_bytes(v: &[f32]) -> &[u8] {
    // SAFETY: any f32 slice is a valid, aligned-for-u8 byte slice of four times its length
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(v)) }
}

pub(super) fn i32_bytes(v: &[i32]) -> &[u8] {
    // SAFETY: as `f32_bytes`
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(v)) }
}

/// Whether row `row` lies within both `obs` ([R, dim] float32 bytes) and `masks` ([R, size] int8 bytes).
pub(super) fn rows_fit(lay: &Layout, obs: &Bound<'_, PyByteArray>, masks: &Bound<'_, PyByteArray>, row: usize) -> bool {
    let end = |width: usize| row.checked_add(1).and_then(|r| r.checked_mul(width));
    end(lay.dim * 4).is_some_and(|e| obs.len() >= e) && end(lay.size).is_some_and(|e| masks.len() >= e)
}
