//! What the policy reads of one seat while it chooses: the rule set's constants, the seat's data, the
//! game's answers (`Ask`), and the live counts of the kinds asked so far (each kind's `visible` asked
//! once a choice); with the small measures built on them (a hand's counts, a meld's worth, a tile's
//! neighbours, the settled distance, whether any discard leaves a win).

use super::{Ask, BotRules, SeatIn};

pub(super) struct Ctx<'a, A: Ask> {
    pub(super) r: &'a BotRules,
    pub(super) s: &'a SeatIn,
    pub(super) ask: &'a mut A,
    pub(super) seen: Vec<Option<i64>>,
}

impl<A: Ask> Ctx<'_, A> {
    pub(super) fn live(&mut self, k: usize) -> Result<i64, A::E> {
        let v = match self.seen[k] {
            Some(v) => v,
            None => {
                let v = self.ask.visible(k)?;
                self.seen[k] = Some(v);
                v
            }
        };
        let own = self.s.hand.iter().filter(|&&t| t == k).count() as i64;
        Ok((self.r.copies[k] - v - own).max(0))
    }

    pub(super) fn counts(&self, tiles: &[usize]) -> (Vec<i64>, i64) {
        let mut c = vec![0i64; self.r.copies.len()];
        let mut w = 0;
        for &t in tiles {
            if self.s.wild[t] {
                w += 1;
            } else {
                c[t] += 1;
            }
        }
        (c, w)
    }

    pub(super) fn worth(&self, shape: i64, tiles: &[usize]) -> i64 {
        let Some((_, values)) = &self.r.floor else { return 0 };
        if shape < 0 {
            return 0;
        }
        let of = &values[shape as usize];
        if of.is_empty() {
            return 0;
        }
        let first = tiles.first().map(|&t| self.r.suit[t]);
        let key = match first {
            Some(x) if tiles.iter().all(|&t| self.r.suit[t] == x) => x,
            _ => -1,
        };
        let get = |k: i64| of.iter().find(|(s, _)| *s == k).map(|&(_, v)| v);
        get(key).unwrap_or_else(|| get(-1).unwrap_or(0))
    }

    pub(super) fn need(&self, extra: i64) -> i64 {
        let Some((least, _)) = &self.r.floor else { return 0 };
        let laid: i64 = self.s.melds.iter().map(|(k, t)| self.worth(*k, t)).sum();
        (least - laid - extra).max(0)
    }

    pub(super) fn neighbours(&self, t: usize) -> i64 {
        let mut n = -1;
        for &x in &self.s.hand {
            if x == t {
                n += 2;
            } else if self.r.suit[t] >= 0 && self.r.suit[x] == self.r.suit[t] && (self.r.rank[x] - self.r.rank[t]).abs() <= 2 {
                n += 1;
            }
        }
        n
    }

    pub(super) fn neighbours_key(&self, t: usize) -> (i64, i64) {
        let held = &self.r.partners[t];
        let extra = held.iter().filter(|x| self.s.hand.contains(x)).count() as i64;
        (self.neighbours(t) + extra, -(t as i64))
    }

    pub(super) fn settled(&mut self, counts: &[i64], w: i64, melds: i64, need: i64) -> Result<i64, A::E> {
        let size = counts.iter().sum::<i64>() + w;
        if self.ask.has_targets(melds, size)? {
            self.ask.distance(false, counts, w, melds, need)
        } else {
            self.ask.settled(counts, w, melds, need)
        }
    }

    pub(super) fn wins_on_anything(&mut self, without: usize) -> Result<bool, A::E> {
        let waits = self.ask.waits_without(without, true)?;
        if waits.is_empty() {
            return Ok(false);
        }
        let mut held = vec![0i64; self.r.copies.len()];
        for &t in self.s.hand.iter().chain(self.s.melds.iter().flat_map(|(_, t)| t.iter())) {
            held[t] += 1;
        }
        held[without] -= 1;
        let drawable = (0..held.len()).filter(|&k| !self.r.flower[k] && held[k] < self.r.copies[k]).count();
        Ok(waits.len() >= drawable)
    }
}
