//! A wait question's length walked only as far as a comparison of it needs (`len(Q) OP n` in game
//! scope, engine/values/bounded.rs): the kinds tried in the whole answer's order, stopped as soon as the
//! waits found and the kinds left decide the comparison (the caller's `decided`: the first kind that
//! does not complete for "waits on every kind").
//!
//! The whole answer wins wherever it is known: kept for the state (`memo_of`) or across states (the
//! seat's kept waits), it is read; a walk that runs to the end is the whole answer and is kept as
//! `waits_found` keeps it. A walk stopped early is kept nowhere, so no later question reads a partial
//! list; nor is the empty answer of a hand the not-ready check found short (asked again, the check
//! answers it from the seat's kept blocks). The walk declines where the whole one declines before that point (the same trials, in order).

use super::wild::Walk;
use super::{Question, StateWins};
use crate::engine::state::HandState;
use crate::program::{kind_of, Stop, V};

impl StateWins<'_> {
    /// `ask_len` for the wait questions of a rule set with wildcards or stand-ins (their trials walk the
    /// kinds one by one); None for the rest (asked in full).
    pub(super) fn bounded_len(&self, st: &HandState, q: Question, args: &[V], decided: &dyn Fn(usize, usize) -> bool) -> Result<Option<usize>, Stop> {
        if self.w.wild.is_none() {
            return Ok(None);
        }
        // the arguments as `ask` reads them; anything it answers without a walk is left to it
        let (groups, without) = match (q, args) {
            (Question::Waits, [V::Seat(_)]) => (false, None),
            (Question::GroupWaits, [V::Seat(_)]) => (true, None),
            (Question::WaitsWithout, [V::Seat(_), V::Tile(c)]) => (false, Some(kind_of(*c) as usize)),
            (Question::GroupWaitsWithout, [V::Seat(_), V::Tile(c)]) => (true, Some(kind_of(*c) as usize)),
            _ => return Ok(None),
        };
        let Some(V::Seat(s)) = args.first() else { return Ok(None) };
        let s = *s as usize;
        if let Some(V::List(v)) = self.memo_of((s, q as u8, without)) {
            return Ok(Some(v.len()));
        }
        let concealed = self.tried_hand(st, s, without);
        let by_groups = groups && self.groups_differ();
        if let Some(kinds) = concealed.as_deref().and_then(|c| self.kept_waits(st, s, c, by_groups)) {
            return Ok(Some(kinds.len()));
        }
        let (kinds, walk) = self.wild_waits_until(st, s, without, groups, Some(decided))?;
        // the whole answer: kept as `waits_found` keeps it (by the same tried hand); not the no waits of a
        // hand the not-ready check found short (most hands a discard leaves, each asked once: the check
        // answers it again from the seat's kept blocks, at about the cost of keeping it)
        if walk == Walk::Whole {
            if let Some(c) = &concealed {
                self.keep_waits(st, s, c, by_groups, &kinds);
            }
            self.memo_waits(s, q, without, &kinds);
        }
        Ok(Some(kinds.len()))
    }
}
