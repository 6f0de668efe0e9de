//! The wait trials' face to Python: a hand as the Python side hands it over, and the tables the
//! trials search kept with the scoring programs (src/score/ `Scorer` holds one `WaitState`).

use std::sync::Mutex;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::{waits_beside, Declined, HandMeld, Own, WaitHand, WaitRules};
use crate::blocks::Tables as Core;
use crate::program::{Program, V};

/// The wait rules of one rule set and block tables of its own (their memo is the trials' alone).
pub struct WaitState {
    pub rules: WaitRules,
    core: Mutex<Core>,
}

/// A hand as the Python side hands it over: (concealed kinds, ((meld kind name, kinds), …)).
pub struct OwnedHand {
    pub concealed: Vec<usize>,
    pub melds: Vec<HandMeld>,
}

impl WaitState {
    pub fn new(rules: WaitRules, core: Core) -> WaitState {
        WaitState { rules, core: Mutex::new(core) }
    }

    /// `waits` under the lock; a panic inside declines (and the tables start afresh).
    pub fn answer(&self, program: &Program, hand: &WaitHand, shape: bool, work: &mut i64) -> Result<Vec<usize>, Declined> {
        self.answer_beside(program, hand, shape, work, None)
    }

    /// `answer`, the hand's own readings taken as the trial of its winning kind where they are that
    /// trial's (`waits_beside`).
    pub fn answer_beside(&self, program: &Program, hand: &WaitHand, shape: bool, work: &mut i64, own: Option<Own>) -> Result<Vec<usize>, Declined> {
        let mut core = self.core.lock().unwrap_or_else(|e| e.into_inner());
        let got = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| waits_beside(&self.rules, &mut core, program, hand, shape, work, own)));
        match got {
            Ok(r) => r,
            Err(_) => {
                core.reset();
                Err(Declined("a panic on this hand"))
            }
        }
    }

    pub fn hand_of(&self, concealed: &Bound<'_, PyAny>, melds: &Bound<'_, PyAny>) -> PyResult<OwnedHand> {
        let concealed: Vec<usize> = concealed.extract()?;
        let mt = melds.cast::<PyTuple>().map_err(|_| PyValueError::new_err("the melds must be a tuple"))?;
        let mut out = Vec::with_capacity(mt.len());
        for m in mt.iter() {
            let (name, kinds): (String, Vec<usize>) = m.extract()?;
            let meld = self.rules.meld(&name).ok_or_else(|| PyValueError::new_err("a meld kind the rule set does not declare"))?;
            out.push(HandMeld { meld, kinds });
        }
        Ok(OwnedHand { concealed, melds: out })
    }
}

/// The kinds of tile codes (`kind << 2 | flags`).
pub fn kinds_of(codes: &[V]) -> Vec<usize> {
    codes.iter().map(|v| if let V::Tile(c) = v { (*c >> 2) as usize } else { usize::MAX }).collect()
}

/// The waits as the programs read them: a list of natural tiles.
pub fn as_value(rules: &WaitRules, kinds: &[usize]) -> V {
    V::List(std::sync::Arc::new(kinds.iter().map(|&k| rules.code(k)).collect()))
}
