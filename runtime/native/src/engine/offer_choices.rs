//! The moves of a plain action (runtime/game/offers.py `_plain_moves`, `_choice_values`, `plain_choice`,
//! `_select_moves`): one move, or one per open choice (literal choices, then a computed list's items,
//! each distinct plain value once), or one per set of N concealed tiles for a `select` decision.

use serde_json::{json, Value as J};

use super::offer_rules::ActionDef;
use super::offers::{refused, Bind, Ctx, Moves, Mv, Of, Tiles, R};
use crate::program::{kind_of, V};

const SELECT_WORK: usize = 20_000; // runtime/limits.py: sets of tiles one `select` offer examines

impl Ctx<'_> {
    // ---- plain actions, choices, selections ----

    /// `plain_choice`: a choice as a move carries it.
    fn plain_choice(&self, v: &V) -> R<J> {
        Ok(match v {
            V::Tile(c) => J::String(self.t.names[kind_of(*c) as usize].clone()),
            V::Seat(s) => json!(s),
            V::Int(i) => json!(i),
            V::Bool(b) => json!(b),
            V::Str(s) => J::String(s.to_string()),
            V::Rat(n, d) => json!({"rat": [n, d]}),
            V::List(items) => {
                let mut parts = Vec::new();
                for x in items.iter() {
                    parts.push(match x {
                        V::Tile(c) => self.t.names[kind_of(*c) as usize].clone(),
                        V::Int(i) => i.to_string(),
                        V::Str(s) => s.to_string(),
                        _ => return refused("a choice list holding other than tiles, numbers or text"),
                    });
                }
                J::String(parts.join(" "))
            }
            _ => return refused("a choice that is not a tile, seat, number, text or list"),
        })
    }

    /// `_choice_values`: each literal choice's value, then the items of the computed list.
    fn choice_values(&self, a: &ActionDef, seat: usize, tile: Option<usize>, bind: &Bind) -> R<Vec<V>> {
        let mut out = Vec::new();
        for &e in &a.choices {
            out.push(self.eval(e, seat, tile, bind, None)?);
        }
        if let Some(e) = a.choice_list {
            if let V::List(items) = self.eval(e, seat, tile, bind, None)? {
                out.extend(items.iter().cloned());
            }
        }
        Ok(out)
    }

    /// `choice_value`: the value a move's choice stands for, the action's choices evaluated as they were
    /// offered (the first whose plain form is the move's); None when none is (the plain choice stands).
    pub(super) fn choice_value(&self, i: usize, seat: usize, tile: Option<usize>, bind: &Bind, plain: &J) -> R<Option<V>> {
        let a = self.action(i);
        if a.choices.is_empty() && a.choice_list.is_none() {
            return Ok(None);
        }
        for v in self.choice_values(a, seat, tile, bind)? {
            if !matches!(v, V::None) && self.plain_choice(&v)? == *plain {
                return Ok(Some(v));
            }
        }
        Ok(None)
    }

    /// `_plain_moves`: one move, or one per open choice.
    pub(super) fn plain_moves(&self, i: usize, seat: usize, tile: Option<usize>, bind: &Bind) -> R<Moves> {
        let a = self.action(i);
        let of = Of {
            action: Some(i),
            compulsory: a.compulsory,
            meld: false,
            win: false,
            opt: None,
            won: None,
        };
        if a.choices.is_empty() && a.choice_list.is_none() {
            return Ok(vec![(Mv::plain(self.o.act(i), Vec::new()), of)]);
        }
        let mut out = Vec::new();
        let mut seen: Vec<J> = Vec::new();
        for v in self.choice_values(a, seat, tile, bind)? {
            if matches!(v, V::None) {
                continue;
            }
            let plain = self.plain_choice(&v)?;
            if seen.contains(&plain) {
                continue;
            }
            seen.push(plain.clone());
            if a.choice_when.is_some() && !self.holds(a.choice_when, seat, tile, bind, Some(&v))? {
                continue;
            }
            if a.when.is_some() && !self.holds(a.when, seat, tile, bind, Some(&v))? {
                continue;
            }
            out.push((
                Mv {
                    action: self.o.act(i),
                    tiles: Tiles::new(),
                    choice: Some(Box::new(plain)),
                    meld: None,
                },
                of.clone(),
            ));
        }
        Ok(out)
    }

    /// `_select_moves`: one move per distinct set of N concealed tiles (kinds in catalog order).
    pub(super) fn select_moves(&self, i: usize, seat: usize, tile: Option<usize>, bind: &Bind) -> R<Moves> {
        let a = self.action(i);
        let hand = &self.st.seats[seat].hand;
        let mut kinds: Vec<usize> = hand.clone();
        kinds.sort_unstable();
        kinds.dedup();
        let counts: Vec<usize> = kinds.iter().map(|k| hand.iter().filter(|x| *x == k).count()).collect();
        let mut combos = Vec::new();
        multisets(
            &kinds,
            &counts,
            a.select,
            0,
            &mut Vec::new(),
            &mut combos,
            SELECT_WORK + 1,
        );
        if combos.len() > SELECT_WORK {
            return refused("a selection among more sets of tiles than the reference examines");
        }
        let of = Of {
            action: Some(i),
            compulsory: a.compulsory,
            meld: false,
            win: false,
            opt: None,
            won: None,
        };
        let mut out = Vec::new();
        for combo in combos {
            let v = V::List(std::sync::Arc::new(combo.iter().map(|&k| self.tile_v(k)).collect()));
            if a.choice_when.is_some() && !self.holds(a.choice_when, seat, tile, bind, Some(&v))? {
                continue;
            }
            if a.when.is_some() && !self.holds(a.when, seat, tile, bind, Some(&v))? {
                continue;
            }
            out.push((Mv::plain(self.o.act(i), combo), of.clone()));
        }
        Ok(out)
    }
}

/// `_multisets`: every way to take n tiles of these kinds (each at most as often as held), in the
/// kinds' order, each once; at most `cap` of them.
fn multisets(
    kinds: &[usize],
    counts: &[usize],
    n: usize,
    start: usize,
    cur: &mut Vec<usize>,
    out: &mut Vec<Vec<usize>>,
    cap: usize,
) {
    if out.len() >= cap {
        return;
    }
    if n == 0 {
        out.push(cur.clone());
        return;
    }
    for i in start..kinds.len() {
        for take in (1..=counts[i].min(n)).rev() {
            let len = cur.len();
            cur.extend(std::iter::repeat_n(kinds[i], take));
            multisets(kinds, counts, n - take, i + 1, cur, out, cap);
            cur.truncate(len);
            if out.len() >= cap {
                return;
            }
        }
    }
}
