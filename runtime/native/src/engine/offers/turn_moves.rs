//! The moves of a seat's own turn (runtime/game/offers.py `_discard_moves`, `_with_pass`,
//! `_own_turn_actions`, `_turn_moves`, `_follow_moves`): the discards each distinct concealed tile no
//! `restrict` forbids, the pass, the actions `turn` and `draw` open, an action's follow-ups.

use super::super::offer_melds::{count, meld_options, most_held, same_possible_with, MeldOption};
use crate::engine::state::Seat;
use super::{Act, Ctx, Moves, Mv, Tiles, NO_BIND, NO_OFFER, R};

impl<'a> Ctx<'a> {
    /// `_discard_moves`: each distinct concealed tile, in catalog order, that no `restrict` forbids,
    /// appended to `out` (the turn's moves are built in one vector).
    fn push_discards(&self, seat: usize, out: &mut Moves) -> R<()> {
        let hand = &self.st.seats[seat].hand;
        // the first tile's answer (the lowest kind: the tiles are tried in catalog order); where no
        // restriction on the discard reads the tile (none does, or the left operands that do not were
        // found false for the seat by that answer), it is every tile's
        let Some(&k0) = hand.iter().min() else { return Ok(()) };
        let b0 = self.restricted("discard", seat, Some(k0))?;
        let every = self.discard_tile_free(seat).then_some(b0);
        let mut one = |k: usize| -> R<()> {
            let barred = match every {
                Some(b) => b,
                None if k == k0 => b0,
                None => self.restricted("discard", seat, Some(k))?,
            };
            if !barred {
                out.push((Mv::plain(Act::DISCARD, Tiles::one(k)), NO_OFFER));
            }
            Ok(())
        };
        // the distinct kinds in catalog order: a bit per kind where every kind fits in one word (the
        // hand neither copied nor sorted), else the hand copied, sorted and deduplicated
        if hand.iter().all(|&k| k < 128) {
            let mut bits = 0u128;
            for &k in hand {
                bits |= 1u128 << k;
            }
            while bits != 0 {
                one(bits.trailing_zeros() as usize)?;
                bits &= bits - 1;
            }
        } else {
            let mut kinds = hand.clone();
            kinds.sort_unstable();
            kinds.dedup();
            for k in kinds {
                one(k)?;
            }
        }
        Ok(())
    }

    /// `_with_pass`: the moves plus `pass`, unless a `restrict` forbids passing (and there is a choice).
    pub fn with_pass(&self, seat: usize, moves: &Moves) -> R<Vec<Mv>> {
        let mut out: Vec<Mv> = moves.iter().map(|(m, _)| m.clone()).collect();
        if out.is_empty() || !self.restricted("pass", seat, None)? {
            out.push(Mv::pass());
        }
        Ok(out)
    }

    /// `_own_turn_actions`: the actions `turn` or `draw` open by self / any, each once (turn's first).
    pub(in crate::engine) fn own_turn_actions(&self) -> &'a [usize] {
        &self.o.own_turn
    }

    /// Whether action `i` is a meld action whose every form is a `same` kind seat `s` cannot make with
    /// no required tile (`most`: its hand's `most_held`): `meld_moves` then finds nothing and reads
    /// nothing else (no guard, no restriction), so the action is not asked.
    fn no_own_meld(&self, i: usize, s: &Seat, most: usize) -> bool {
        let a = self.action(i);
        !a.forms.is_empty()
            && self.o.form_kinds[i].iter().all(|k| match k.map(|x| &self.o.rules.kinds[x]) {
                None => true,
                Some(mk) => mk.shape.kind == "same" && !same_possible_with(s, mk, most),
            })
    }

    /// `_turn_moves`.
    pub fn turn_moves(&self, s: usize, claimed: bool, allow_win: bool) -> R<Moves> {
        let seat = &self.st.seats[s];
        // (room for the discards, one a kind held, and a few actions: grown once at most)
        let mut moves = Vec::with_capacity(seat.hand.len() + 4);
        if !claimed {
            if allow_win && seat.drawn.is_some() {
                moves.extend(self.win_moves(s, "self", seat.drawn, Some(s), NO_BIND)?);
            }
            if !seat.auto {
                // the most times a kind is held, counted once a turn: the own melds no kind is held for
                // (at most turns every one) are not asked
                let most = most_held(&seat.hand);
                for &i in self.own_turn_actions() {
                    if !self.no_own_meld(i, seat, most) {
                        moves.extend(self.action_moves(i, s, seat.drawn, None, NO_BIND)?);
                    }
                }
            }
        }
        if seat.auto && !moves.iter().any(|(_, o)| o.compulsory) {
            return Ok(moves);
        }
        self.push_discards(s, &mut moves)?;
        Ok(moves)
    }

    /// `_follow_moves`: a follow-up's moves (its meld with the tile of the action it follows, from the hand).
    pub fn follow_moves(&self, name: &str, seat: usize, t: usize) -> R<Moves> {
        let Some(i) = self.index(name) else {
            return Ok(Vec::new());
        };
        let b = self.action(i);
        if b.wins || !b.instead_of.is_empty() {
            return Ok(Vec::new());
        }
        if b.forms.is_empty() {
            return self.action_moves(i, seat, Some(t), None, NO_BIND);
        }
        if !self.holds(b.when, seat, Some(t), NO_BIND, None)? || self.restricted(&b.name, seat, Some(t))? {
            return Ok(Vec::new());
        }
        let s = &self.st.seats[seat];
        let mut found = Vec::new();
        for kind in &b.forms {
            let Some(mk) = self.o.rules.kind(kind) else { continue };
            let unusable = self.unusable(b, kind);
            let avail = self.avail(seat, &unusable);
            for o in meld_options(self.t, &self.o.rules, s, mk, Some(t), &avail) {
                if o.extends.is_some() {
                    continue;
                }
                let mut need: Vec<(usize, usize)> = Vec::new();
                for &k in &o.tiles {
                    match need.iter_mut().find(|(x, _)| *x == k) {
                        Some(e) => e.1 += 1,
                        None => need.push((k, 1)),
                    }
                }
                if need.iter().all(|&(k, c)| count(&avail, k) >= c) {
                    found.push(MeldOption {
                        from_hand: o.tiles.clone(),
                        extends: None,
                        key: t,
                        ..o
                    });
                }
            }
        }
        Ok(self.one_kind(b, found)?.iter().map(|o| self.meld_move(i, o)).collect())
    }
}
