//! The game functions of game scope (`Game._base_env`'s `game-functions`), for engine/values.rs's
//! evaluation: `visible_count` (the copies of a kind every seat sees), `next` and `after` (seats in turn
//! order), `held` (a kind's copies in a seat's hand), and the win and wait questions asked as functions.

use super::{Ev, R};
use crate::engine::scope::GF;
use crate::program::{kind_of, Node, Stop, V};

impl Ev<'_> {
    fn seat_arg(&self, v: &V) -> R<Option<usize>> {
        match v {
            V::None => Ok(None),
            V::Seat(s) => Ok(Some(*s as usize)),
            _ => Err(Stop::Bail), // the reference reads `.index` / `.held` of what is no seat
        }
    }

    pub(crate) fn visible_count(&self, t: &V) -> R<V> {
        let k = match t {
            V::None => return Ok(V::Int(0)),
            V::Tile(c) => kind_of(*c) as usize,
            _ => return Err(Stop::Bail),
        };
        let st = self.st;
        // (a sum of comparisons, which the compiler vectorises; a filtered count it does not)
        let count = |ts: &[usize]| ts.iter().map(|&x| (x == k) as usize).sum::<usize>();
        let mut n = count(&st.out);
        for s in &st.seats {
            n += count(&s.discards) + count(&s.aside);
            for m in &s.melds {
                if m.exposed {
                    n += count(&m.tiles);
                } else {
                    // `Game.shown_tiles`: the kind's `shown` count of the tiles by catalog order (sorted
                    // only when some but not all are shown)
                    let shown = self.meld_kind(&m.kind).and_then(|mk| mk.shown).unwrap_or(0).max(0) as usize;
                    if shown >= m.tiles.len() {
                        n += count(&m.tiles);
                    } else if shown > 0 {
                        let mut ts = m.tiles.clone();
                        ts.sort_unstable();
                        n += count(&ts[..shown]);
                    }
                }
            }
        }
        for r in self.t.rules.reveals.iter().filter(|r| r.visible) {
            if !st.reveal_ids_known {
                return Err(Stop::Bail);
            }
            for &i in st.reveal_ids.get(&r.name).map_or(&[][..], Vec::as_slice) {
                if st.pinned.contains(&i) {
                    let kind = *st.kind_of.get(i).ok_or(Stop::Bail)?;
                    if kind == usize::MAX {
                        return Err(Stop::Bail);
                    }
                    n += (kind == k) as usize;
                }
            }
        }
        Ok(V::Int(n as i64))
    }

    pub(super) fn game_call(&mut self, f: GF, args: &[Node]) -> R<V> {
        // (up to two arguments, every call but a question's, in place: no vector made per call)
        let mut two = [V::None, V::None];
        let mut more = Vec::new();
        let vals: &[V] = if args.len() <= two.len() {
            for (slot, a) in two.iter_mut().zip(args) {
                *slot = self.eval(a)?;
            }
            &two[..args.len()]
        } else {
            for a in args {
                more.push(self.eval(a)?);
            }
            &more
        };
        let n = self.t.n as i64;
        let step = self.t.step;
        match f {
            GF::VisibleCount => self.visible_count(&vals[0]),
            GF::Next => Ok(match self.seat_arg(&vals[0])? {
                Some(s) => V::Seat((s as i64 + step).rem_euclid(n) as u16),
                None => V::None,
            }),
            GF::After => {
                let s = self.seat_arg(&vals[0])?;
                let k = match &vals[1] {
                    V::None => None,
                    V::Bool(b) => Some(*b as i64),
                    V::Int(i) => Some(*i),
                    V::Rat(p, q) => Some(p / q), // int(): toward zero
                    _ => return Err(Stop::Bail),
                };
                Ok(match (s, k) {
                    (Some(s), Some(k)) => V::Seat((s as i64 + step * k.rem_euclid(n)).rem_euclid(n) as u16),
                    _ => V::None,
                })
            }
            GF::Held => {
                if matches!(vals[0], V::None) || matches!(vals[1], V::None) {
                    return Ok(V::Int(0));
                }
                let s = self.seat_arg(&vals[0])?.ok_or(Stop::Bail)?;
                let V::Tile(c) = vals[1] else { return Err(Stop::Bail) };
                let k = kind_of(c) as usize;
                Ok(V::Int(self.st.seats[s].hand.iter().filter(|&&x| x == k).count() as i64))
            }
            GF::Ask(q) => self.wins.ask(self.st, q, vals),
        }
    }
}
