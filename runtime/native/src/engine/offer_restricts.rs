//! The `restrict` declarations at a decision (runtime/game/offers.py `_restricted`): the restrictions
//! naming an action, found once per rule set (engine/offers.rs `Offers`), tried in declaration order
//! with the actor and the tile bound; a condition that reads no tile is answered once per seat and
//! decision (`Ctx::restrict_memo`).

use super::offers::{Bind, Ctx, Offers, Why, NO_BIND, R};
use crate::program::{Node, V};

/// Added to a restriction's number in `Ctx::restrict_memo` for its condition's left operand.
const LEFT: usize = 1 << 20;

impl Offers {
    /// The restrictions (by index, in declaration order) whose actions name `action`.
    pub(super) fn restricts_on(&self, action: &str) -> std::borrow::Cow<'_, [usize]> {
        match action {
            "discard" => std::borrow::Cow::Borrowed(&self.restricts_discard),
            "pass" => std::borrow::Cow::Borrowed(&self.restricts_pass),
            _ => match self.names.iter().position(|n| n == action) {
                Some(i) => std::borrow::Cow::Borrowed(&self.restricts_of[i]),
                None => std::borrow::Cow::Owned(
                    (0..self.rules.restricts.len())
                        .filter(|&ri| self.rules.restricts[ri].0.iter().any(|n| n == action))
                        .collect(),
                ),
            },
        }
    }
}

impl Ctx<'_> {
    /// `eval` of the tile-free left operand of restriction `ri`'s `and` chain (`A` of `(A and B) and C`,
    /// `tile_free_left` steps down), the first the reference evaluates.
    fn eval_left(&self, ri: usize, seat: usize, tile: Option<usize>, bind: &Bind) -> R<V> {
        let e = self.o.rules.restricts[ri].1;
        let mut node = match self.o.scope.exprs.get(e) {
            Some(Ok(n)) => n,
            Some(Err(why)) => return Err(Why::Refused(why.clone())),
            None => return Err(Why::Stop),
        };
        for _ in 0..self.o.tile_free_left[ri] {
            match node {
                Node::And(l, _) => node = l,
                _ => return Err(Why::Stop),
            }
        }
        self.eval_with(seat, tile, bind, None, |ev| ev.part(node))
    }

    /// Whether, for seat `s` at this decision, no restriction on the discard reads the tile: each
    /// reads none, or its tile-free left operand was found false (`restrict_memo`), so the first
    /// tile's answer is every tile's. Asked after a first `restricted("discard", s, …)`.
    pub(super) fn discard_tile_free(&self, s: usize) -> bool {
        let memo = self.restrict_memo.borrow();
        self.o.restricts_discard.iter().all(|&ri| {
            self.o.tile_free[ri] || (self.o.tile_free_left[ri] > 0 && memo.iter().any(|x| x.0 == ri + LEFT && x.1 == s && !x.2))
        })
    }

    /// `_restricted`: a `restrict` on the action holds (in declaration order, the first that holds); only
    /// the actor and the tile are bound, as the reference binds them.
    pub(super) fn restricted(&self, action: &str, seat: usize, tile: Option<usize>) -> R<bool> {
        self.restricted_in(action, seat, tile, NO_BIND)
    }

    /// `restricted` with the reading of the win of the moment (`_restricted(…, reading)`; `bind`'s other
    /// bindings are not read).
    pub(super) fn restricted_in(&self, action: &str, seat: usize, tile: Option<usize>, bind: &Bind) -> R<bool> {
        let on = self.o.restricts_on(action);
        if on.is_empty() {
            return Ok(false);
        }
        // only the reading of `bind` is bound (none: the bindings of `NO_BIND`)
        let owned;
        let b = if bind.reading.is_none() {
            NO_BIND
        } else {
            owned = Bind { reading: bind.reading.clone(), ..Bind::default() };
            &owned
        };
        for &ri in on.iter() {
            let e = &self.o.rules.restricts[ri].1;
            // a condition that reads no tile (nor a win's reading) answers one seat alike for every tile
            let memo = self.o.tile_free[ri] && b.reading.is_none();
            if !memo && self.o.tile_free_left[ri] > 0 && b.reading.is_none() {
                // `(A and B) and C` with A reading no tile: where A is false for this seat, so is the whole
                let kept = self.restrict_memo.borrow().iter().find(|x| x.0 == ri + LEFT && x.1 == seat).map(|x| x.2);
                let left = match kept {
                    Some(h) => h,
                    None => {
                        let h = self.eval_left(ri, seat, tile, b)?.truthy();
                        self.restrict_memo.borrow_mut().push((ri + LEFT, seat, h));
                        h
                    }
                };
                if !left {
                    continue;
                }
            }
            let kept = if memo { self.restrict_memo.borrow().iter().find(|x| x.0 == ri && x.1 == seat).map(|x| x.2) } else { None };
            let held = match kept {
                Some(h) => h,
                None => {
                    let h = self.holds(Some(*e), seat, tile, b, None)?;
                    if memo {
                        self.restrict_memo.borrow_mut().push((ri, seat, h));
                    }
                    h
                }
            };
            if held {
                return Ok(true);
            }
        }
        Ok(false)
    }
}
