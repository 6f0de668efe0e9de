//! The win a seat makes now (runtime/game/winning.py `Winning._win_info`), what the legal moves offer:
//! scored by the whole-hand scorer as the other questions of `StateWins` score a win.

use super::{python_tuple_gt, Budget, HandState, ScoredHand, Scored, StateWins, Stop, WinFound, WinReading, HAND_WORK, V};

/// A hand scored as a win, with its reading where game scope reads one.
type Found = (Box<ScoredHand>, Option<WinReading>);

impl StateWins<'_> {
    /// `Winning._win_info(seat, mode, tile, forms)`: the win seat `s` makes now, or None. Each hand is
    /// scored with its own work limit, as `Winning.score` makes a scoring per hand; a hand the scoring
    /// refuses (the reference's HandError, caught there) is no win. The reference's shortcuts
    /// (`_hopeless`, `_could_win`'s structural test) skip hands that score no win, here as there.
    pub fn win_now(&self, st: &HandState, s: usize, mode: &str, tile: Option<usize>, forms: &[String]) -> Result<Option<WinFound>, Stop> {
        Ok(self.win_found(st, s, mode, tile, forms, false)?.map(|(w, _)| w))
    }

    /// `Winning._win_found(…, keep)`: `win_now`, with `keep` also a hand that scores without winning
    /// (not for `best_wait`, which picks among the waits that win); with whether it wins.
    pub fn win_found(&self, st: &HandState, s: usize, mode: &str, tile: Option<usize>, forms: &[String], keep: bool) -> Result<Option<(WinFound, bool)>, Stop> {
        if self.hopeless_for(st, s, mode, tile, forms) {
            return Ok(None);
        }
        self.win_found_past(st, s, mode, tile, forms, keep, true)
    }

    /// The reference's exact shortcut (`_hopeless`) as `win_found` asks it first: a hand short of more
    /// tiles than the tile supplies.
    pub(super) fn hopeless_for(&self, st: &HandState, s: usize, mode: &str, tile: Option<usize>, forms: &[String]) -> bool {
        matches!((tile, mode), (Some(k), "drawn" | "claimed" | "revealed") if self.hopeless(st, s, k, mode == "drawn", forms))
    }

    /// `win_found` past its first shortcut (`hopeless_for`, asked by the caller). `lean`: of a hand
    /// that does not win, the caller reads only that it does not win (its score, reading and all else
    /// left out: `score_win_by`); a win is found and scored as without it.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn win_found_past(&self, st: &HandState, s: usize, mode: &str, tile: Option<usize>, forms: &[String], keep: bool, lean: bool) -> Result<Option<(WinFound, bool)>, Stop> {
        let lean = lean || !keep; // (a hand that does not win is not kept: nothing of it is read)
        let keep = keep && mode != "best_wait";
        let seat = st.seats.get(s).ok_or(Stop::Bail)?;
        let hand = seat.hand.clone();
        // each win with its reading as game scope reads it (the names `set_reading_names` gave)
        let read = !self.nodes().is_empty();
        let one = |conc: &[usize], win: Option<usize>, drawn: bool| -> Result<Option<Found>, Stop> {
            // `Winning.score`'s structural test before the scoring (`_could_win`): only skips no win
            if let Some(k) = win {
                if !self.could_win_now(st, s, conc, k, drawn, forms) {
                    return Ok(None);
                }
            }
            let mut budget = Budget { work: HAND_WORK };
            // only whether it wins and, where it does, its score, best and reading are read (a hand kept
            // without winning: its score and reading too, unless `lean`)
            let got = if lean {
                self.score_win_by(st, s, conc, win, drawn, forms, &mut budget, read)?
            } else {
                self.score_by(st, s, conc, win, drawn, forms, &mut budget, read)?
            };
            Ok(match got {
                (Scored::Hand(h), r) if h.win || keep => Some((h, r)),
                _ => None,
            })
        };
        let mut given: Option<Vec<usize>> = None;
        let found = match (mode, tile) {
            ("drawn", Some(k)) => {
                let mut conc = hand;
                // the reference removes the tile from the hand: one not there raises
                let i = conc.iter().position(|&x| x == k).ok_or(Stop::Bail)?;
                conc.remove(i);
                one(&conc, Some(k), true)?.map(|h| (Some(k), h))
            }
            ("revealed", Some(k)) => one(&hand, Some(k), true)?.map(|h| (Some(k), h)),
            ("claimed", Some(k)) => one(&hand, Some(k), false)?.map(|h| (Some(k), h)),
            ("none", _) => one(&hand, None, false)?.map(|h| (None, h)),
            ("best_wait", _) => {
                // `_wait_hands`: the hand as it stands, or, for the dealer still holding its extra dealt
                // tile, the hand without each distinct tile it could give up (in the hand's order)
                let dealer_extra = s == st.dealer && self.t.rules.table.dealer_extra > 0 && st.last_dealt.is_some_and(|k| hand.contains(&k));
                let mut wait_hands = Vec::new();
                if dealer_extra {
                    let mut seen = Vec::new();
                    for &g in &hand {
                        if seen.contains(&g) {
                            continue;
                        }
                        seen.push(g);
                        let mut conc = hand.clone();
                        if let Some(i) = conc.iter().position(|&x| x == g) {
                            conc.remove(i);
                        }
                        wait_hands.push((conc, self.waits_without(st, s, g, false)?));
                    }
                } else {
                    wait_hands.push((hand.clone(), self.waits(st, s)?));
                }
                let mut best: Option<(usize, Found, usize)> = None;
                for (j, (conc, kinds)) in wait_hands.iter().enumerate() {
                    for &k in kinds {
                        let Some(h) = one(conc, Some(k), false)? else { continue };
                        let better = match &best {
                            None => true,
                            Some((_, (b, _), _)) => python_tuple_gt((&h.0.scored.best, &h.0.scored.score), (&b.scored.best, &b.scored.score)).ok_or(Stop::Bail)?,
                        };
                        if better {
                            best = Some((k, h, j));
                        }
                    }
                }
                // the hand the win waits with, when it is not the hand as it stands
                if let Some((_, _, j)) = &best {
                    if dealer_extra {
                        given = Some(wait_hands[*j].0.clone());
                    }
                }
                best.map(|(k, h, _)| (Some(k), h))
            }
            _ => None,
        };
        let Some((tile, (h, reading))) = found else { return Ok(None) };
        let score = match &h.scored.score {
            _ if lean && !h.win => (0, 1), // (not scored, not read)
            V::Int(i) => (*i, 1),
            V::Rat(n, d) => (*n, *d),
            _ => return Err(self.decline("a score that is no exact number")),
        };
        Ok(Some((WinFound { tile, score, reading: reading.map(std::sync::Arc::new), concealed: given }, h.win)))
    }
}

impl StateWins<'_> {
    /// `_could_win(conc, melds, k, drawn, forms)` as `Winning.score` asks it before scoring: false only
    /// where the hand cannot win (a question the test cannot answer natively is left to the scoring,
    /// its reason forgotten).
    pub(super) fn could_win_now(&self, st: &HandState, s: usize, conc: &[usize], k: usize, drawn: bool, forms: &[String]) -> bool {
        let before = self.declined.get();
        let (Some((_, ctx)), Some(scoring)) = (self.hand, self.w.scoring.as_ref()) else { return true };
        let positions: Vec<usize> = if forms.is_empty() {
            scoring.forms.clone()
        } else {
            let named = |&f: &usize| ctx.setup.forms.get(f).is_some_and(|x| forms.iter().any(|n| *n == *x.name));
            scoring.forms.iter().copied().filter(named).collect()
        };
        // (kept across states with the seat's wait answers, winning/seat_memo.rs: the instant forms' scoring
        // reads whether the win is self-drawn)
        if let Some(could) = self.kept_could(st, s, conc, k, drawn, &positions) {
            return could;
        }
        // (the seat's melds looked up only where the answer reads them: `melds_in` asks the Python side
        // of a meld it has not seen)
        let got = self.could_win_by_split(st, s, conc, k, drawn, &positions);
        match got {
            Ok(could) => {
                self.keep_could(st, s, conc, k, drawn, positions, could);
                could
            }
            // (not kept: a question the test cannot answer is left to the scoring each time)
            Err(_) => {
                self.declined.set(before);
                true
            }
        }
    }

    /// `Game._rescore`: the win seat `s` made (its concealed tiles without the winning tile), scored again
    /// on the state as it is now (the win's effects and hooks may have changed what the scoring reads).
    /// None: the hand no longer scores a win there, or the scoring refuses it (the reference notes an
    /// error and keeps the win as it was found).
    /// With the score, the win's reading as game scope reads it (for the names `set_reading_names` set).
    /// With `keep` (the scoring before the `win` hooks), a hand that scores without winning is kept.
    #[allow(clippy::too_many_arguments)]
    pub fn rescore(&self, st: &HandState, s: usize, conc: &[usize], tile: Option<usize>, self_drawn: bool, forms: &[String], keep: bool) -> Result<Option<(V, Option<WinReading>)>, Stop> {
        let mut budget = Budget { work: HAND_WORK };
        Ok(match self.score_by(st, s, conc, tile, self_drawn, forms, &mut budget, true)? {
            (Scored::Hand(h), r) if h.win || keep => Some((h.scored.score.clone(), r)),
            _ => None,
        })
    }
}


