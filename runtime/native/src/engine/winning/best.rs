//! A seat's best win on a wait (runtime/game/winning.py `Winning.best_win`): the `best_score`,
//! `best_fans` and `best_tile` questions, each wait scored by the whole-hand scorer.

use std::sync::Arc;

use super::super::scope::Question;
use super::{Budget, HandState, Scored, StateWins, Stop, HAND_WORK, V};
use crate::program::order;

/// A seat's best win on a wait (`Winning.best_win`): its tile, score and the patterns it scores.
#[derive(Clone)]
pub(super) struct Best {
    tile: usize,
    best: V,
    score: V,
    fans: Vec<Arc<str>>,
}

/// A state's best wins found, by (seat, self-drawn).
pub(super) type BestMemo = std::cell::RefCell<Vec<((usize, bool), Option<Best>)>>;

impl StateWins<'_> {
    /// `Winning.best_win(seat, self_drawn)`: the best win on a wait, by the score's `best` then the
    /// score, the first wait in catalog order on a tie; the trials share one work limit.
    fn best_win(&self, st: &HandState, s: usize, self_drawn: bool) -> Result<Option<Best>, Stop> {
        if let Some((_, b)) = self.best.borrow().iter().find(|(k, _)| *k == (s, self_drawn)) {
            return Ok(b.clone());
        }
        let waits = self.waits(st, s)?;
        let conc = st.seats.get(s).ok_or(Stop::Bail)?.hand.clone();
        let mut budget = Budget { work: HAND_WORK };
        let mut best: Option<Best> = None;
        for k in waits {
            let h = match self.score(st, s, &conc, k, self_drawn, &mut budget)? {
                Scored::Hand(h) => h,
                Scored::NoReading => continue,
                // `best_win` does not catch the HandError of a refused hand (its trials share one work
                // limit, which the native trials spend on hands the reference's shortcut skips)
                Scored::Refused => return Err(self.decline("a hand refused while finding the best win")),
            };
            if !h.win {
                continue;
            }
            let better = match &best {
                None => true,
                Some(b) => match python_tuple_gt((&h.scored.best, &h.scored.score), (&b.best, &b.score)) {
                    Some(x) => x,
                    None => return Err(Stop::Bail), // the reference compares values that do not order: it raises
                },
            };
            if better {
                let names = &self.hand.expect("scored above").1.setup.pattern_names;
                let mut fans: Vec<Arc<str>> = Vec::new();
                for &(i, _) in &h.scored.fin {
                    let n = names.get(i).ok_or_else(|| self.decline("a pattern the setup does not name"))?;
                    if !fans.iter().any(|f| &**f == n.as_str()) {
                        fans.push(Arc::from(n.as_str()));
                    }
                }
                best = Some(Best { tile: k, best: h.scored.best.clone(), score: h.scored.score.clone(), fans });
            }
        }
        self.best.borrow_mut().push(((s, self_drawn), best.clone()));
        Ok(best)
    }

    /// `best_score`, `best_fans`, `best_tile` of (seat, self_drawn): 0, [] and none when the seat is not
    /// a seat or has no win on a wait.
    pub(super) fn best_question(&self, st: &HandState, q: Question, args: &[V]) -> Result<V, Stop> {
        let drawn = args.get(1).ok_or(Stop::Bail)?.truthy();
        // a seat, or (as the Python API gives it) a seat's number; anything else has no best win
        let best = match args.first() {
            Some(V::Seat(s)) => self.best_win(st, *s as usize, drawn)?,
            Some(V::Int(i)) if (0..st.seats.len() as i64).contains(i) => self.best_win(st, *i as usize, drawn)?,
            _ => None,
        };
        Ok(match (q, best) {
            (Question::BestScore, Some(b)) => b.score,
            (Question::BestScore, None) => V::Int(0),
            (Question::BestFans, Some(b)) => V::List(Arc::new(b.fans.into_iter().map(V::Str).collect())),
            (Question::BestFans, None) => V::List(Arc::new(Vec::new())),
            (_, Some(b)) => {
                // as `Game.tv` gives it: `wild` for a wildcard of the hand
                let joker = self.t.cat.kinds.get(b.tile).is_some_and(|k| k.category == "joker");
                let wild = self.on.hand_wild.get(b.tile).copied().unwrap_or(false);
                V::Tile(((b.tile as u32) << 2) | ((wild as u32) << 1) | joker as u32)
            }
            (_, None) => V::None,
        })
    }
}

/// Python's `(a0, a1) > (b0, b1)` on numbers: None where the reference would raise (values that do
/// not order).
pub(super) fn python_tuple_gt(a: (&V, &V), b: (&V, &V)) -> Option<bool> {
    use std::cmp::Ordering::*;
    let first = if matches!((a.0, b.0), (V::None, V::None)) { Equal } else { order(a.0, b.0)? };
    match first {
        Equal => Some(order(a.1, b.1)? == Greater),
        o => Some(o == Greater),
    }
}
