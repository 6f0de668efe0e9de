//! A winner's result as `Game._record` keeps it (runtime/game/ending.py): the win scored on the state as
//! it is — with the pattern of each fan for the native simulation's tallies (engine/simulate.rs), and
//! whole (label, pattern, value, count of each fan; score, total, form) for `EngineHand.results`.

use super::{Budget, HandState, Scored, ScoredHand, StateWins, Stop, HAND_WORK, V};

impl StateWins<'_> {
    /// The win seat `s` made (its concealed tiles without the winning tile) scored on `st` as `rescore`
    /// scores it; None when it does not score a win there.
    fn won(&self, st: &HandState, s: usize, conc: &[usize], tile: Option<usize>, self_drawn: bool, forms: &[String]) -> Result<Option<Box<ScoredHand>>, Stop> {
        let mut budget = Budget { work: HAND_WORK };
        Ok(match self.score_by(st, s, conc, tile, self_drawn, forms, &mut budget, false)? {
            (Scored::Hand(h), _) if h.win => Some(h),
            _ => None,
        })
    }

    /// The win's score and the pattern of each fan in the scorer's order.
    pub fn recorded(&self, st: &HandState, s: usize, conc: &[usize], tile: Option<usize>, self_drawn: bool, forms: &[String]) -> Result<Option<(V, Vec<String>)>, Stop> {
        let Some(h) = self.won(st, s, conc, tile, self_drawn, forms)? else { return Ok(None) };
        let names = &self.hand.ok_or(Stop::Bail)?.1.setup.pattern_names;
        let fans = h.scored.fin.iter().map(|&(i, _)| names.get(i).cloned()).collect::<Option<Vec<String>>>().ok_or(Stop::Bail)?;
        Ok(Some((h.scored.score.clone(), fans)))
    }
}

/// A win's record as `Game._record` writes it from the win's scoring (`ScoreResult`): its score and
/// total, the form of the reading that counts, and each fan's label, pattern, value and count.
pub struct WinRecord {
    pub score: V,
    pub total: V,
    pub form: String,
    pub fans: Vec<(String, String, V, i64)>,
}

impl StateWins<'_> {
    /// The record of the win seat `s` made (scored as `rescore` scores it, on the state as it is now).
    /// None: no win scores there. Declined where a fan's label has expressions the scorer did not compute.
    pub fn record(&self, st: &HandState, s: usize, conc: &[usize], tile: Option<usize>, self_drawn: bool, forms: &[String]) -> Result<Option<WinRecord>, Stop> {
        let Some(h) = self.won(st, s, conc, tile, self_drawn, forms)? else { return Ok(None) };
        let Some((_, ctx)) = self.hand else { return Err(self.decline("no native scoring of whole hands")) };
        let setup = &ctx.setup;
        let mut fans = Vec::with_capacity(h.scored.fin.len());
        for (k, (&(i, n), v)) in h.scored.fin.iter().zip(&h.scored.values).enumerate() {
            let pattern = setup.pattern_names.get(i).ok_or_else(|| self.decline("a pattern the setup does not name"))?;
            let label = match setup.labels.get(i).and_then(|x| x.as_deref()) {
                Some(l) => l,
                None => h.labels.get(k).and_then(|x| x.as_deref()).ok_or_else(|| self.decline("a label whose expressions the native side did not compute"))?,
            };
            fans.push((label.to_owned(), pattern.clone(), v.clone(), n));
        }
        let form = setup.forms.get(h.reading.form).map(|f| f.name.to_string()).unwrap_or_default();
        Ok(Some(WinRecord { score: h.scored.score.clone(), total: h.scored.total.clone(), form, fans }))
    }
}
