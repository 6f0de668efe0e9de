//! One `Rules.score` call's hand read and scored as a batch line is (native.rs): its texts (hand,
//! melds, winning tile) read by the native tables, checked as runtime/hand.py `build_hand` checks them,
//! and the hand scored in the same call (runtime/nativehand.py `NativeHands.score_text`). The Python
//! side then makes its `Hand` from the kinds read instead of reading the texts itself.
//!
//! Only a hand the batch's native scorer takes is taken here: anything it leaves to the reference (a
//! mistake in a text, a tile not in play or held back, a meld new to the Python side it does not take,
//! waits the native trials decline, a hand the native scoring hands back) answers None, and the caller
//! reads and scores the hand as before — which says what is wrong, or scores it, and counts it.

use pyo3::prelude::*;
use pyo3::{PyTraverseError, PyVisit};
use pyo3::types::{PyList, PyString, PyTuple};

use super::native::{hand_input, Ctx};
use crate::hand::lane_hand::{read_tuple, LaneHand};
use crate::hand::{score_hand, Budget, Fallback, HandInput, HandOutcome, Waits};
use crate::program::V;
use crate::waits::{kinds_of, TrialWaits};
use crate::{guarded, value_of, value_to_py};

/// The native reading and scoring of hands of one context given as text.
#[pyclass(module = "_native")]
pub struct Lane {
    // None once the garbage collector has cleared it: the lane holds the rule set's objects (its
    // `Hands`, and the meld check, which holds the Python side's `NativeHands`, which holds the lane)
    ctx: Option<Ctx>,
}

/// A text argument as UTF-8 (None: not a str, or one holding a lone surrogate: the reference reads it).
fn text<'a>(x: &'a Bound<'_, PyAny>) -> Option<&'a str> {
    x.cast::<PyString>().ok()?.to_str().ok()
}

/// The waits the native trials decline, asked of the Python callable `cb` (the hand as read, shape,
/// work left) -> (encoded waits, work left), as `Hands.score` asks its callable (`PyWaits`). The hand
/// as read is made at the first question (most hands ask none).
struct LaneWaits<'a, 'py> {
    cb: &'a Bound<'py, PyAny>,
    inp: &'a HandInput,
    read: Option<Bound<'py, PyAny>>,
}

impl Waits for LaneWaits<'_, '_> {
    fn waits(&mut self, shape: bool, budget: &mut Budget) -> Result<V, Fallback> {
        let read = match &self.read {
            Some(r) => r.clone(),
            None => {
                let i = self.inp;
                let r = read_tuple(self.cb.py(), &i.concealed, &i.melds, i.win, &kinds_of(&i.flowers))
                    .map_err(|_| Fallback("the waits could not be found".into()))?;
                self.read = Some(r.clone());
                r
            }
        };
        let got = self.cb.call1((read, shape, budget.work)).map_err(|_| Fallback("the waits could not be found".into()))?;
        let t = got.cast::<PyTuple>().map_err(|_| Fallback("the waits callback returned no tuple".into()))?;
        let w = t.get_item(0).and_then(|x| value_of(&x)).map_err(|_| Fallback("waits the programs do not hold".into()))?;
        budget.work = t.get_item(1).and_then(|x| x.extract()).map_err(|_| Fallback("the waits callback returned no work".into()))?;
        w.ok_or_else(|| Fallback("no waits".into()))
    }
}

#[pymethods]
impl Lane {
    /// `ctx`: `NativeHands.batch_context`'s tuple for the context.
    #[new]
    fn new(ctx: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(Lane { ctx: Some(Ctx::of(ctx)?) })
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        if let Some(c) = &self.ctx {
            for o in c.objects() {
                visit.call(o)?;
            }
        }
        Ok(())
    }

    fn __clear__(&mut self) {
        self.ctx = None;
    }

    /// The hand `hand` (text), `melds` (a list or tuple of KIND:TILES texts, or None), `win` (text or
    /// None), `self_drawn` read and scored: (status, work left, the questions the native wait trials
    /// answered, x, the hand) — status as `Hands.score` gives it (0 scored, 1 no reading, 2 refused with
    /// its sentence x, 3 handed back with why x); scored, x is (win, readings considered, rejected,
    /// score, total, best), and the rest is the hand's (`LaneHand`: the hand as read, the waits found,
    /// the payload, each made when asked) —, or None where the reference must read the hand (or the
    /// native call failed: the usual path meets it again). `waits`: (the hand as read, shape, work
    /// left) -> (encoded waits, work left), asked only where the native wait trials decline.
    fn score<'py>(
        &self,
        py: Python<'py>,
        hand: &Bound<'py, PyAny>,
        melds: &Bound<'py, PyAny>,
        win: &Bound<'py, PyAny>,
        self_drawn: bool,
        waits: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some(hand) = text(hand) else { return Ok(None) };
        let win = if win.is_none() {
            None
        } else {
            match text(win) {
                Some(w) => Some(w),
                None => return Ok(None),
            }
        };
        let items: Vec<Bound<'py, PyAny>> = if melds.is_none() {
            Vec::new()
        } else if melds.is_instance_of::<PyList>() || melds.is_instance_of::<PyTuple>() {
            melds.try_iter()?.collect::<PyResult<_>>()?
        } else {
            return Ok(None);
        };
        let Some(c) = &self.ctx else { return Ok(None) };
        let hands = c.hands().borrow(py);
        let tables = c.tables().borrow(py);
        let texts = items.iter().map(text);
        let Some(inp) = hand_input(py, c, &hands, &tables, hand, items.len(), texts, win, self_drawn)? else {
            return Ok(None);
        };
        let mut budget = Budget { work: c.work() };
        let mut asked = LaneWaits { cb: waits, inp: &inp, read: None };
        let (got, found, spent, answered) = hands.with_ctx(py, |ctx| {
            let mut w = TrialWaits::new(ctx.scorer, &inp, &mut asked);
            let got = guarded(|| Ok(score_hand(ctx, &inp, &mut budget, &mut w)));
            (got, w.found, w.spent, w.answered)
        });
        let (status, x, scored) = match got {
            Err(_) => return Ok(None), // an internal error: the usual path meets it again and counts it
            Ok(Err(Fallback(why))) => (3, why.into_pyobject(py)?.into_any(), None),
            Ok(Ok(HandOutcome::NoReading)) => (1, py.None().into_bound(py), None),
            Ok(Ok(HandOutcome::Refused(s))) => (2, s.into_pyobject(py)?.into_any(), None),
            Ok(Ok(HandOutcome::Scored(h))) => {
                let s = &h.scored;
                let x = (
                    h.win,
                    h.considered,
                    PyList::new(py, &h.rejected)?,
                    value_to_py(py, &s.score)?,
                    value_to_py(py, &s.total)?,
                    value_to_py(py, &s.best)?,
                );
                (0, x.into_pyobject(py)?.into_any(), Some(h))
            }
        };
        let kept = Bound::new(py, LaneHand::new(inp, found, spent, scored))?;
        let out = (status, budget.work, answered, x, kept);
        Ok(Some(out.into_pyobject(py)?.into_any()))
    }
}
