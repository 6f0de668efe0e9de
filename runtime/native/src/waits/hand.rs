//! The wait trials as the `Waits` of a whole hand (src/hand/): the waits a pattern reads found in Rust,
//! so a hand of a rule set the trials cover is scored in one call; a hand they decline asks the
//! fallback `Waits` given (the Python side's callback), which answers as the reference.

use super::{as_value, HandMeld, Own, WaitHand, WaitState};
use crate::hand::{Budget, Fallback, GroupAsk, HandInput, Signatures, Waits};
use crate::program::{Program, Reading, V};
use crate::score::Scorer;

/// The trials' view of one hand, when the rule set has them and every laid-down meld is of a kind
/// they know.
struct Trial<'a> {
    state: &'a WaitState,
    program: &'a Program,
    melds: Vec<HandMeld>,
    flowers: Vec<usize>,
}

/// `Waits` for one hand: the native wait trials first, then `fallback`.
pub struct TrialWaits<'a, 'f> {
    input: &'a HandInput,
    scorer: &'a Scorer,
    trial: Option<Option<Trial<'a>>>, // made when the waits are first asked (most hands never ask)
    fallback: &'f mut dyn Waits,
    /// The kinds found natively: [waits, shape waits] (the Python side keeps them with the hand).
    pub found: [Option<Vec<usize>>; 2],
    /// The work the native trials took (already taken off the budget).
    pub spent: i64,
    /// The questions the native trials answered.
    pub answered: u32,
}

impl<'a, 'f> TrialWaits<'a, 'f> {
    pub fn new(scorer: &'a Scorer, input: &'a HandInput, fallback: &'f mut dyn Waits) -> Self {
        TrialWaits { input, scorer, trial: None, fallback, found: [None, None], spent: 0, answered: 0 }
    }
}

fn trial_of<'a>(scorer: &'a Scorer, input: &'a HandInput) -> Option<Trial<'a>> {
    let state = scorer.waits.as_ref().ok()?;
    let melds = input
        .melds
        .iter()
        .map(|m| state.rules.meld(&m.kind).map(|meld| HandMeld { meld, kinds: m.tiles.clone() }))
        .collect::<Option<Vec<_>>>()?;
    let flowers = super::kinds_of(&input.flowers);
    Some(Trial { state, program: &scorer.program, melds, flowers })
}

impl<'a> TrialWaits<'a, '_> {
    /// The hand's own readings as the trial of its winning kind (`Own`), for a hand of natural tiles
    /// (one read with wildcards or stand-ins has other readings).
    fn own<'o, 'r>(&self, readings: &'o [Reading<'r>]) -> Option<Own<'o, 'r>>
    where
        'a: 'o,
    {
        let i = self.input;
        let natural = i.wild.is_none() && !i.charge_splits && !readings.is_empty();
        natural.then_some(Own { win: i.win?, forms: &i.forms, readings })
    }

    fn answer(&mut self, shape: bool, budget: &mut Budget, own: Option<Own>) -> Result<V, Fallback> {
        if self.input.win.is_none() {
            // as `Scoring.waits_of_hand`: a hand without a winning tile waits on nothing
            self.found[shape as usize] = Some(Vec::new());
            return Ok(V::List(std::sync::Arc::new(Vec::new())));
        }
        let (scorer, input) = (self.scorer, self.input);
        if let Some(t) = self.trial.get_or_insert_with(|| trial_of(scorer, input)) {
            let hand = WaitHand {
                concealed: &self.input.concealed,
                melds: &t.melds,
                flowers: &t.flowers,
                self_drawn: self.input.self_drawn,
                settings: &self.input.settings,
            };
            let mut left = budget.work;
            // declined: the fallback answers from the same work (the reference's trials charge it)
            if let Ok(kinds) = t.state.answer_beside(t.program, &hand, shape, &mut left, own) {
                self.spent += budget.work - left;
                budget.work = left;
                self.answered += 1;
                let v = as_value(&t.state.rules, &kinds);
                self.found[shape as usize] = Some(kinds);
                return Ok(v);
            }
        }
        self.fallback.waits(shape, budget)
    }
}

impl Waits for TrialWaits<'_, '_> {
    fn waits(&mut self, shape: bool, budget: &mut Budget) -> Result<V, Fallback> {
        self.answer(shape, budget, None)
    }

    fn waits_beside(&mut self, shape: bool, budget: &mut Budget, own: &[Reading]) -> Result<V, Fallback> {
        let own = self.own(own);
        self.answer(shape, budget, own)
    }

    fn group(&mut self, g: &GroupAsk) -> Result<(V, Option<Vec<u64>>), Fallback> {
        self.fallback.group(g)
    }

    fn signatures(&mut self, form: usize, melds: usize, pairs: usize, budget: &mut Budget) -> Result<Signatures, Fallback> {
        self.fallback.signatures(form, melds, pairs, budget)
    }
}
