//! `_fresh` (runtime/game/moves.py): the candidate tile lists of a meld shape, before the counts are
//! checked (engine/offer_melds.rs `meld_options`). Each is handed to the caller in the reference's
//! order as it is made, in one buffer, not kept: most fail the counts and are never a meld.

use crate::engine::offer_rules::ShapeDef;
use crate::engine::table::Table;

const MAX_CANDIDATES: usize = 100_000; // tile lists one shape may propose (a same-rank shape over many suits)

/// `_fresh`: the candidate tile lists of a shape, each handed to `each` in order (counts are checked
/// by the caller).
pub(super) fn fresh(t: &Table, s: &ShapeDef, avail: &[(usize, usize)], required: Option<usize>, each: &mut dyn FnMut(&[usize])) {
    let size = s.size;
    let mut out = Out { each, buf: Vec::with_capacity(size), made: 0 };
    match s.kind.as_str() {
        "same" => {
            let mut one = |k: usize| {
                out.buf.clear();
                out.buf.resize(size, k);
                out.give();
            };
            match required {
                Some(r) => one(r),
                None => avail.iter().filter(|(_, c)| *c >= size).for_each(|&(k, _)| one(k)),
            }
        }
        "run" | "ranks" => {
            // (suits by id: `Table::suits`, ids in the texts' order)
            let suits: Vec<u16> = match required {
                Some(r) => t.suits.of[r].into_iter().collect(),
                None => {
                    let mut v: Vec<u16> = avail.iter().filter_map(|(k, _)| t.suits.truthy_of(*k)).collect();
                    v.sort_unstable();
                    v.dedup();
                    v
                }
            };
            for su in suits {
                // {rank: kind} over the catalog, the last kind of a rank kept (a dict's)
                let ranks_of = &t.suits.ranks[su as usize];
                let of = |r: i64| ranks_of.iter().find(|(x, _)| *x == r).map(|(_, k)| *k);
                let take = |ranks: &mut dyn Iterator<Item = i64>, out: &mut Out| {
                    out.buf.clear();
                    let mut has_required = required.is_none();
                    for r in ranks {
                        match of(r) {
                            Some(k) => out.buf.push(k),
                            None => return,
                        }
                        has_required |= required.is_some_and(|q| t.cat.kinds[q].rank == r);
                    }
                    if has_required {
                        out.give();
                    }
                };
                if s.kind == "run" {
                    let mut lo = ranks_of.iter().map(|(r, _)| *r).min().unwrap_or(0);
                    let mut hi = ranks_of.iter().map(|(r, _)| *r).max().unwrap_or(0);
                    if let Some(q) = required {
                        // (only the runs through the required tile's rank: `take` keeps no other)
                        let rq = t.cat.kinds[q].rank;
                        lo = lo.max(rq - size as i64 + 1);
                        hi = hi.min(rq);
                    }
                    for a in lo..=hi {
                        take(&mut (a..a + size as i64), &mut out);
                    }
                } else {
                    take(&mut s.ranks.iter().copied(), &mut out);
                }
            }
        }
        "tiles" => {
            let ks: Option<Vec<usize>> = match &s.tile_kinds {
                Some(ks) => Some(ks.clone()),
                None => s.tiles.iter().map(|n| t.names.iter().position(|x| x == n)).collect(),
            };
            if let Some(ks) = ks {
                if required.is_none_or(|r| ks.contains(&r)) {
                    out.buf = ks;
                    out.give();
                }
            }
        }
        "same_rank" => {
            let ranks: Vec<i64> = match required {
                Some(r) => vec![t.cat.kinds[r].rank],
                None => {
                    let mut v: Vec<i64> = avail
                        .iter()
                        .filter(|(k, _)| t.suits.truthy_of(*k).is_some())
                        .map(|(k, _)| t.cat.kinds[*k].rank)
                        .collect();
                    v.sort_unstable();
                    v.dedup();
                    v
                }
            };
            for r in ranks {
                let kinds: Vec<usize> = (0..t.cat.kinds.len())
                    .filter(|&i| t.suits.truthy_of(i).is_some() && t.cat.kinds[i].rank == r)
                    .collect();
                // combinations with replacement, in itertools' order
                let mut idx = vec![0usize; size];
                if kinds.is_empty() && size > 0 {
                    continue;
                }
                loop {
                    out.buf.clear();
                    out.buf.extend(idx.iter().map(|&i| kinds[i]));
                    let combo = &out.buf;
                    let keep = required.is_none_or(|q| combo.contains(&q)) && {
                        let mut su: Vec<Option<u16>> = combo.iter().map(|&k| t.suits.of[k]).collect();
                        su.sort_unstable();
                        su.dedup();
                        !s.mixed || su.len() >= 2
                    };
                    if keep {
                        out.give();
                    }
                    if out.made > MAX_CANDIDATES {
                        return;
                    }
                    // next: the rightmost index below the last kind goes up, those after it follow it
                    let Some(p) = (0..size).rev().find(|&p| idx[p] + 1 < kinds.len()) else {
                        break;
                    };
                    let v = idx[p] + 1;
                    for x in &mut idx[p..] {
                        *x = v;
                    }
                }
            }
        }
        _ => {}
    }
}

/// The candidate being made and where it goes.
struct Out<'f> {
    each: &'f mut dyn FnMut(&[usize]),
    buf: Vec<usize>,
    made: usize, // candidates handed over (the bound `MAX_CANDIDATES` counts them)
}

impl Out<'_> {
    fn give(&mut self) {
        self.made += 1;
        (self.each)(&self.buf);
    }
}
