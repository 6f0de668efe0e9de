//! The trial a win is offered on, natively (runtime/game/win_trial.py `win_on_trial`): the win as found on
//! the context of the moment (won or not), the context values its action's effects and the hooks on its
//! name set applied to a copy of the state (engine/events.rs `trial_effects`, `trial_hooks`), the hand
//! scored; the `win` hooks' context values applied (seeing that score, its reading and task factor), the
//! hand scored again. The win is offered when that last scoring wins, with its score and reading. Nothing
//! else changes: the state the trial runs on is a copy, its generator never drawn from.

use super::super::course::tile_v;
use super::super::event_rules::Program as Events;
use super::super::events::{Bind, EffOp, Effect, Halt, Run, Target};
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

/// A hand scored on a trial for several scopes' names: its score, whether it wins, a reading per scope.
type Many = (V, bool, Vec<Option<Arc<WinReading>>>);

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
        Ok(self.kept_many(st, s, conc, tile, drawn, forms, &[names])?.map(|(v, won, mut r)| (v, won, r.pop().flatten())))
    }

    /// `kept` for several scopes' names at once, one scoring (`join_reading_names`): a reading per set.
    #[allow(clippy::too_many_arguments)]
    fn kept_many(&self, st: &HandState, s: usize, conc: &[usize], tile: Option<usize>, drawn: bool, forms: &[String], sets: &[&[String]]) -> Result<Option<Many>, Stop> {
        let mut on = self.w.on(self.t, st, self.hand);
        let lens = on.join_reading_names(&[], sets);
        let mut budget = Budget { work: HAND_WORK };
        let got = on.score_by(st, s, conc, tile, drawn, forms, &mut budget, true);
        if let Some(why) = on.take_declined() {
            return Err(self.decline(why));
        }
        Ok(match got? {
            (Scored::Hand(h), r) => {
                let parts = match r {
                    Some(r) => r.split(&lens[1..]).into_iter().map(|x| Some(Arc::new(x))).collect(),
                    None => vec![None; sets.len()],
                };
                Some((h.scored.score.clone(), h.win, parts))
            }
            _ => None,
        })
    }

    /// `kept` for the legal moves' names (`offer_names`) on the trial as the `win` hooks leave it: the
    /// scoring a win taken there makes again after those hooks (engine/win.rs `rescore`, on the state whose
    /// values are then the trial's). Where joined readings are read as apart (`joins_readings`), by
    /// `won_scoring`, with the names the win's events and the hand's end read of that scoring beside them:
    /// kept (`KeptWon`) for that rescoring, and for a trial of another action of the same win ending on the
    /// same values.
    #[allow(clippy::too_many_arguments)]
    fn kept_offered(&self, st: &HandState, s: usize, conc: &[usize], tile: Option<usize>, drawn: bool, forms: &[String], parts: &TrialParts) -> Result<Option<Kept>, Stop> {
        if !self.joins_readings() {
            return self.kept(st, s, conc, tile, drawn, forms, parts.offer_names);
        }
        let mut on = self.w.on(self.t, st, self.hand);
        let lens = on.join_reading_names(&[], &[parts.offer_names, &parts.p.scope.reading_names, &parts.end.scope.reading_names]);
        let got = on.won_scoring(st, s, conc, tile, drawn, forms, Some(&lens));
        if let Some(why) = on.take_declined() {
            return Err(self.decline(why));
        }
        Ok(match got? {
            (Some(h), r) => Some((h.score, h.win, r.and_then(|r| r.split(&lens[1..2]).pop()).map(Arc::new))),
            (None, _) => None,
        })
    }

    /// `Winning._win_info(…, action)` for an action whose taking sets context values (`WinQuestions::win`'s
    /// `tried`): the win as that action would score it. Declined where no trial parts were handed over
    /// (`set_trial`: a native game hands them over) or the trial reads what is not ported.
    #[allow(clippy::too_many_arguments)]
    pub fn win_tried(&self, st: &HandState, s: usize, mode: &str, tile: Option<usize>, forms: &[String], discarder: Option<usize>, robbed: Option<usize>, action: &str) -> Result<Option<WinFound>, Stop> {
        let Some(parts) = self.trial.as_ref() else { return Err(self.decline("a win tried on a copy of the context, outside a native game")) };
        // `win_found`'s first shortcut, asked once for either way of finding the win below
        if self.hopeless_for(st, s, mode, tile, forms) {
            return Ok(None);
        }
        // and its structural test (`_could_win`, kept per hand: asked again below at the cost of a look-up),
        // so that a hand that cannot win costs no more than the look-ups `win_found` makes
        if let (Some(k), "drawn" | "claimed" | "revealed") = (tile, mode) {
            let hand = &st.seats.get(s).ok_or(Stop::Bail)?.hand;
            let conc: Option<Vec<usize>> = match mode {
                "drawn" => hand.iter().position(|&x| x == k).map(|i| [&hand[..i], &hand[i + 1..]].concat()),
                _ => Some(hand.clone()),
            };
            if let Some(conc) = conc {
                if !self.could_win_now(st, s, &conc, k, mode != "claimed", forms) {
                    return Ok(None);
                }
            }
        }
        let p = parts.p;
        let effects = p.actions.get(action).map(|(e, _)| e.as_slice()).unwrap_or(&[]);
        let win_hooks = p.hooks_on.get("win").is_some_and(|hs| hs.iter().any(|h| h.effects.iter().any(stores_context)));
        let want_end = win_hooks && !parts.end.tasks.is_empty();
        // of a hand that does not win on the context of the moment, only that it does not is read below
        // where no `win` hook reads its score and the trial reads no name of its reading
        let lean = !win_hooks && p.scope.reading_names.is_empty();
        // the win as found on the context of the moment, won or not (`_win_found(keep=True)`); where
        // nothing the action runs before the `win` hooks stores a context value, that one scoring also
        // gives the readings the trial reads on the same context (the events' names, the hand's end's)
        let (found, won, joined) = match self.found_joined(st, s, mode, tile, forms, action, effects, want_end, lean)? {
            Joined::Found(found, won, first, end) => (found, won, Some((first, end))),
            Joined::NoWin => return Ok(None),
            Joined::Apart => match self.win_found_past(st, s, mode, tile, forms, true, lean)? {
                Some((found, won)) => (found, won, None),
                None => return Ok(None),
            },
        };
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
        let mut b = Bind::new();
        b.set("actor", V::Seat(s as u16));
        b.set("winner", V::Seat(s as u16));
        b.set("tile", found.tile.map_or(V::None, |k| tile_v(self.t, Some(k))));
        b.set("discarder", seat_v(discarder.filter(|_| claimed)));
        b.set("robbed", seat_v(robbed.filter(|_| claimed)));
        b.win.self_drawn = Some(drawn);
        let (first, mut end_first) = match joined {
            Some((first, end)) => (Some(first), end),
            // The hand scored on the context of the moment is the hand `win_found_past` just scored: the
            // same state, concealed tiles, tile, forms and work limit. With no name of the reading to read
            // on it, that scoring is the one kept here (a reading of no values), not scored a second time;
            // with names (or a question declined on the way, which the second scoring would decline again)
            // it is scored.
            None if p.scope.reading_names.is_empty() && self.declined.get().is_none() => {
                let (n, d) = found.score;
                let score = if d == 1 { V::Int(n) } else { V::Rat(n, d) };
                (Some((score, won, Some(Arc::new(WinReading { values: Vec::new(), groups: Vec::new() })))), None)
            }
            None => (self.kept(st, s, &conc, found.tile, drawn, forms, &p.scope.reading_names)?, None),
        };
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
        run.trial_effects(effects, &b).map_err(halt)?;
        run.trial_hooks(action, &b).map_err(halt)?;
        // The trial changes only context values, and a value set to what it holds leaves the values id
        // as it was (`put_context`): with the same id the copy is the state as it is, and a scoring of
        // it the one made above — not made again.
        let mut changed = run.st.values_id != st.values_id;
        if let Some(why) = self.take_declined() {
            return Err(self.decline(why));
        }
        let mut last: Option<Kept> = None; // the last scoring on the trial, for the offer's names
        let mut now = first; // the win as scored so far, with the `win` hooks' reading names
        let mut hooked = false; // the `win` hooks changed the trial after `now` was scored
        if changed {
            now = self.kept(run.st, s, &conc, found.tile, drawn, forms, &p.scope.reading_names)?;
            if now.is_none() {
                return Ok(None);
            }
        }
        if win_hooks {
            let Some((score, _, reading)) = now.clone() else { return Ok(None) };
            let tf = if parts.end.tasks.is_empty() {
                V::Int(1)
            } else {
                let end = match end_first.take() {
                    Some(r) if !changed => Some(r), // (the context as the first scoring had it)
                    _ => self.kept(run.st, s, &conc, found.tile, drawn, forms, &parts.end.scope.reading_names)?.and_then(|k| k.2),
                };
                let end_reading = Found(end.ok_or(TRIED));
                let on = self.w.on(self.t, run.st, self.hand);
                task_factor_of(parts.end, self.t, run.st, &on, parts.base, drawn, &end_reading).map_err(|_| self.decline("a win tried on a copy of the context (its task factor)"))?
            };
            b.set("score", score);
            b.set("task_factor", tf);
            b.win.reading = Some(reading.ok_or(TRIED));
            let before = run.st.values_id;
            run.trial_hooks("win", &b).map_err(halt)?;
            if run.st.values_id != before {
                changed = true;
                hooked = true;
            }
            if let Some(why) = self.take_declined() {
                return Err(self.decline(why));
            }
        }
        if changed {
            // the trial as `now` was scored on it (no `win` hook changed it since), read for the same names:
            // that scoring, not a second one
            last = if !hooked && parts.offer_names == p.scope.reading_names.as_slice() {
                now
            } else {
                self.kept_offered(run.st, s, &conc, found.tile, drawn, forms, parts)?
            };
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

/// A context statement a trial applies (`trial_effects`: `set`, `add`, `remove`, `clear` of a context value).
fn stores_context(ef: &Effect) -> bool {
    matches!(ef.target, Target::Context(_)) && matches!(ef.op, EffOp::Set | EffOp::Add | EffOp::Remove | EffOp::Clear)
}

/// The first scoring of a trial (`found_joined`).
enum Joined {
    /// The win found (won or not), whether it wins, the scoring as the events read it (its score, whether
    /// it wins, their reading) and its reading for the hand's end (where asked for).
    Found(WinFound, bool, Kept, Option<Arc<WinReading>>),
    /// No win (the hand does not score).
    NoWin,
    /// Not joined: the win found and the trial's readings scored apart.
    Apart,
}

impl StateWins<'_> {
    /// `win_found_past(…, keep)` with the readings the trial reads on the context of the moment worked out by
    /// the same scoring (`join_reading_names`: the legal moves' names, the events', the hand's end's where
    /// `want_end`) — where that context is the one they are read on: the action's effects and the hooks
    /// on its name store no context value (`trial_effects`, `trial_hooks` then change nothing, evaluate
    /// nothing). Only where no name's evaluation may decline (no wildcards: the waits a name reads are the
    /// plain trials', which decline nothing), so a question declines where and why it did apart.
    #[allow(clippy::too_many_arguments)]
    /// `lean`: as `win_found_past`'s.
    fn found_joined(&self, st: &HandState, s: usize, mode: &str, tile: Option<usize>, forms: &[String], action: &str, effects: &[Effect], want_end: bool, lean: bool) -> Result<Joined, Stop> {
        let Some(parts) = self.trial.as_ref() else { return Ok(Joined::Apart) };
        let p = parts.p;
        let before = effects.iter().any(stores_context) || p.hooks_on.get(action).is_some_and(|hs| hs.iter().any(|h| h.effects.iter().any(|ef| matches!(ef.target, Target::Context(_)))));
        let names = p.scope.reading_names.len() + if want_end { parts.end.scope.reading_names.len() } else { 0 };
        // (no names at all: nothing to join, and a scoring asked for none gives no reading)
        if before || self.w.wild.is_some() || self.hand.is_none() || self.nodes().len() + names == 0 {
            return Ok(Joined::Apart);
        }
        let mut on = self.w.on(self.t, st, self.hand);
        let sets: Vec<&[String]> = if want_end { vec![&p.scope.reading_names, &parts.end.scope.reading_names] } else { vec![&p.scope.reading_names] };
        let lens = on.join_reading_names(self.nodes(), &sets);
        // (past the shortcut `win_tried` asked)
        let got = match (mode, tile) {
            ("drawn" | "claimed" | "revealed", Some(k)) if !lean => on.found_kept(st, s, mode, k, forms, &lens),
            _ => on.win_found_past(st, s, mode, tile, forms, true, lean),
        };
        if let Some(why) = on.take_declined() {
            self.declined.set(Some(why)); // (as `win_found` on these questions leaves it)
        }
        let Some((mut found, won)) = got? else { return Ok(Joined::NoWin) };
        let mut read = match found.reading.take() {
            Some(r) => r.split(&lens).into_iter().map(|x| Some(Arc::new(x))).collect(),
            None => vec![None; lens.len()],
        }
        .into_iter();
        let offer = read.next().flatten();
        // (the legal moves' reading only where they read names, as `win_found` reads none otherwise)
        found.reading = if lens[0] > 0 { offer } else { None };
        let (n, d) = found.score;
        let score = if d == 1 { V::Int(n) } else { V::Rat(n, d) };
        let first = (score, won, read.next().flatten());
        let end = if want_end { read.next().flatten() } else { None };
        Ok(Joined::Found(found, won, first, end))
    }
}

impl StateWins<'_> {
    /// `win_found_past(…, keep, lean: false)` of a win on tile `k` (drawn, claimed or revealed), the hand
    /// scored by `won_scoring` for the names of `lens` (`join_reading_names`'s): the same scoring, kept
    /// (`KeptWon`) for the win taken on this state (engine/win.rs `win_of`, `rescore` before the `win`
    /// hooks, which read its names of it) and for a trial of another action of the same win.
    fn found_kept(&self, st: &HandState, s: usize, mode: &str, k: usize, forms: &[String], lens: &[usize]) -> Result<Option<(WinFound, bool)>, Stop> {
        let hand = &st.seats.get(s).ok_or(Stop::Bail)?.hand;
        let (conc, drawn) = match mode {
            // the reference removes the tile from the hand: one not there raises
            "drawn" => {
                let i = hand.iter().position(|&x| x == k).ok_or(Stop::Bail)?;
                ([&hand[..i], &hand[i + 1..]].concat(), true)
            }
            "revealed" => (hand.clone(), true),
            _ => (hand.clone(), false),
        };
        // `Winning.score`'s structural test before the scoring (`_could_win`): only skips no win
        if !self.could_win_now(st, s, &conc, k, drawn, forms) {
            return Ok(None);
        }
        let (got, reading) = self.won_scoring(st, s, &conc, Some(k), drawn, forms, Some(lens))?;
        let Some(h) = got else { return Ok(None) };
        let score = match h.score {
            V::Int(i) => (i, 1),
            V::Rat(n, d) => (n, d),
            _ => return Err(self.decline("a score that is no exact number")),
        };
        Ok(Some((WinFound { tile: Some(k), score, reading: reading.map(Arc::new), concealed: None }, h.win)))
    }
}
