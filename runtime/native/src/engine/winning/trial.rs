//! The trial a win is offered on, natively (runtime/game/win_trial.py `win_on_trial`): the win as found on
//! the context of the moment (won or not), the context values its action's effects and the hooks on its
//! name set applied to a copy of the state (engine/events.rs `trial_effects`, `trial_hooks`), the hand
//! scored; the `win` hooks' context values applied (seeing that score, its reading and task factor), the
//! hand scored again. The win is offered when that last scoring wins, with its score and reading. Nothing
//! else changes: the state the trial runs on is a copy, its generator never drawn from.

use super::super::course::tile_v;
use super::super::event_rules::Program as Events;
use super::super::events::{Bind, Halt, Run};
use super::super::rng::Rng;
use super::super::win::{task_factor_of, Found};
use super::{Budget, HandState, Scored, StateWins, Stop, WinFound, WinReading, HAND_WORK, V};
use std::sync::Arc;

/// What a trial reads beside the state: the event rules (effects, hooks), the hand's end (the task
/// factor the `win` hooks read), the game's base bindings and the reading-scope names the legal moves
/// read of the win offered.
pub struct TrialParts<'a> {
    pub p: &'a Events,
    pub end: &'a super::super::ending::EndRules,
    pub base: &'a [V], // the game's base values, lent (not copied per state)
    pub base_self_drawn: Option<bool>,
    pub offer_names: &'a [String],
}

/// A hand scored on a trial: its score, whether it wins, its reading for the names asked.
type Kept = (V, bool, Option<Arc<WinReading>>);

const TRIED: &str = "a win tried on a copy of the context";

fn seat_v(s: Option<usize>) -> V {
    s.map_or(V::None, |s| V::Seat(s as u16))
}

impl<'a> StateWins<'a> {
    /// Hand over what a win tried before it is offered reads (a native game does).
    pub fn set_trial(&mut self, parts: TrialParts<'a>) {
        self.trial = Some(parts);
    }
}

impl StateWins<'_> {
    /// The hand scored on `st`, won or not, with its reading for `names` (None: it has no reading).
    #[allow(clippy::too_many_arguments)]
    fn kept(&self, st: &HandState, s: usize, conc: &[usize], tile: Option<usize>, drawn: bool, forms: &[String], names: &[String]) -> Result<Option<Kept>, Stop> {
        let mut on = self.w.on(self.t, st, self.hand);
        on.set_reading_names(names);
        let mut budget = Budget { work: HAND_WORK };
        let got = on.score_by(st, s, conc, tile, drawn, forms, &mut budget, true);
        if let Some(why) = on.take_declined() {
            return Err(self.decline(why));
        }
        Ok(match got? {
            (Scored::Hand(h), r) => Some((h.scored.score.clone(), h.win, r.map(Arc::new))),
            _ => None,
        })
    }

    /// `Winning._win_info(…, action)` for an action whose taking sets context values (`WinQuestions::win`'s
    /// `tried`): the win as that action would score it. Declined where no trial parts were handed over
    /// (`set_trial`: a native game hands them over) or the trial reads what is not ported.
    #[allow(clippy::too_many_arguments)]
    pub fn win_tried(&self, st: &HandState, s: usize, mode: &str, tile: Option<usize>, forms: &[String], discarder: Option<usize>, robbed: Option<usize>, action: &str) -> Result<Option<WinFound>, Stop> {
        let Some(parts) = self.trial.as_ref() else { return Err(self.decline("a win tried on a copy of the context, outside a native game")) };
        // the win as found on the context of the moment, won or not (`_win_found(keep=True)`)
        let Some((found, won)) = self.win_found(st, s, mode, tile, forms, true)? else { return Ok(None) };
        let drawn = matches!(mode, "drawn" | "revealed");
        let conc: Vec<usize> = match (&found.concealed, mode, found.tile) {
            (Some(c), _, _) => c.clone(),
            (None, "drawn", Some(k)) => {
                let mut c = st.seats[s].hand.clone();
                let i = c.iter().position(|&x| x == k).ok_or(Stop::Bail)?;
                c.remove(i);
                c
            }
            _ => st.seats[s].hand.clone(),
        };
        let claimed = mode == "claimed";
        let p = parts.p;
        let effects = p.actions.get(action).map(|(e, _)| e.as_slice()).unwrap_or(&[]);
        let mut b = Bind::new();
        b.set("actor", V::Seat(s as u16));
        b.set("winner", V::Seat(s as u16));
        b.set("tile", found.tile.map_or(V::None, |k| tile_v(self.t, Some(k))));
        b.set("discarder", seat_v(discarder.filter(|_| claimed)));
        b.set("robbed", seat_v(robbed.filter(|_| claimed)));
        b.win.self_drawn = Some(drawn);
        let first = self.kept(st, s, &conc, found.tile, drawn, forms, &p.scope.reading_names)?;
        b.win.reading = Some(first.as_ref().and_then(|k| k.2.clone()).ok_or(TRIED));
        let mut rng = Rng::seed_zero();
        let mut copy = st.clone();
        let mut run = Run::new(self.t, p, self, &mut copy, &mut rng);
        run.base = parts.base.to_vec();
        run.base_self_drawn = parts.base_self_drawn;
        let halt = |h: Halt| match h {
            Halt::Stop(_) => self.decline("a win tried on a copy of the context (an evaluation stopped)"),
            Halt::Refused(_) => self.decline("a win tried on a copy of the context (a statement not ported)"),
        };
        let mut changed = run.trial_effects(effects, &b).map_err(halt)?;
        changed |= run.trial_hooks(action, &b).map_err(halt)?;
        if let Some(why) = self.take_declined() {
            return Err(self.decline(why));
        }
        let mut last: Option<Kept> = None; // the last scoring on the trial, for the offer's names
        let mut now = first; // the win as scored so far, with the `win` hooks' reading names
        if changed {
            now = self.kept(run.st, s, &conc, found.tile, drawn, forms, &p.scope.reading_names)?;
            if now.is_none() {
                return Ok(None);
            }
        }
        let win_hooks = p.hooks_on.get("win").is_some_and(|hs| {
            hs.iter().any(|h| h.effects.iter().any(|ef| matches!(ef.target, super::super::events::Target::Context(_))
                && matches!(ef.op, super::super::events::EffOp::Set | super::super::events::EffOp::Add | super::super::events::EffOp::Remove | super::super::events::EffOp::Clear)))
        });
        if win_hooks {
            let Some((score, _, reading)) = now.clone() else { return Ok(None) };
            let tf = if parts.end.tasks.is_empty() {
                V::Int(1)
            } else {
                let end = self.kept(run.st, s, &conc, found.tile, drawn, forms, &parts.end.scope.reading_names)?;
                let end_reading = Found(end.and_then(|k| k.2).ok_or(TRIED));
                let on = self.w.on(self.t, run.st, self.hand);
                task_factor_of(parts.end, self.t, run.st, &on, parts.base, drawn, &end_reading).map_err(|_| self.decline("a win tried on a copy of the context (its task factor)"))?
            };
            b.set("score", score);
            b.set("task_factor", tf);
            b.win.reading = Some(reading.ok_or(TRIED));
            if run.trial_hooks("win", &b).map_err(halt)? {
                changed = true;
            }
            if let Some(why) = self.take_declined() {
                return Err(self.decline(why));
            }
        }
        if changed {
            last = self.kept(run.st, s, &conc, found.tile, drawn, forms, parts.offer_names)?;
        } else if won {
            return Ok(Some(found));
        }
        let Some((score, true, reading)) = last else { return Ok(None) };
        let score = match score {
            V::Int(i) => (i, 1),
            V::Rat(n, d) => (n, d),
            _ => return Err(self.decline("a score that is no exact number")),
        };
        Ok(Some(WinFound { tile: found.tile, score, reading, concealed: found.concealed }))
    }
}
