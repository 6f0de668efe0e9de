//! A winner's result as `Game._record` keeps it (runtime/game/ending.py): the win scored on the state as
//! it is, with the pattern of each fan, for the native simulation's tallies (engine/simulate.rs).

use super::{Budget, HandState, Scored, StateWins, Stop, HAND_WORK, V};

impl StateWins<'_> {
    /// The win seat `s` made (its concealed tiles without the winning tile) scored on `st`: its score
    /// and the pattern of each fan in the scorer's order; None when it does not score a win there.
    pub fn recorded(&self, st: &HandState, s: usize, conc: &[usize], tile: Option<usize>, self_drawn: bool, forms: &[String]) -> Result<Option<(V, Vec<String>)>, Stop> {
        let mut budget = Budget { work: HAND_WORK };
        let (Scored::Hand(h), _) = self.score_by(st, s, conc, tile, self_drawn, forms, &mut budget, false)? else {
            return Ok(None);
        };
        if !h.win {
            return Ok(None);
        }
        let names = &self.hand.ok_or(Stop::Bail)?.1.setup.pattern_names;
        let fans = h.scored.fin.iter().map(|&(i, _)| names.get(i).cloned()).collect::<Option<Vec<String>>>().ok_or(Stop::Bail)?;
        Ok(Some((h.scored.score.clone(), fans)))
    }
}
