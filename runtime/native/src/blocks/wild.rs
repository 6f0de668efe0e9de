//! Every split of a hand holding wildcards (Python `Decomposer.splits` with wildcards, and its
//! `_wild_groups`, `wild_targets_for`): the same search in the same order — at each step the lowest
//! natural tile left, the meld shapes then the pair shapes, each shape's placements — pruned by the
//! tables' `can_split`, so the native readings of such a hand (src/hand/wild.rs) are the reference's,
//! in its order.

use super::*;

/// One group of a split: the hand shape (position among the tables' shapes) and its slots (kind, wild).
pub type WildItem = (usize, Vec<(usize, bool)>);

/// A placement of a hand shape (`Builder::placements`): its slots, the natural tiles it takes by kind,
/// its wildcards.
#[derive(Clone)]
pub(super) struct Placed {
    slots: Vec<(usize, bool)>,
    naturals: Vec<(usize, u8)>,
    wilds: usize,
}

impl Tables {
    /// The meld kind of a hand shape, whether it is a pair.
    pub fn shape_of(&self, spec: usize) -> Option<(&str, bool)> {
        self.shapes.specs.get(spec).map(|s| (s.name.as_str(), s.is_pair))
    }

    /// Python `Decomposer.splits(counts, wilds, melds, pairs, limit)` for `wilds` > 0: every split, or
    /// Ok(None) where the reference raises `SplitLimit` (its check, made where the reference makes it:
    /// on entering each state, so a last leaf may take the list past `limit`).
    pub fn splits_wild(&mut self, counts: &[u8], wilds: usize, melds: usize, pairs: usize, limit: usize) -> Result<Option<Vec<Vec<WildItem>>>, Error> {
        let mut counts: Vec<u8> = counts.to_vec();
        let mut out = Vec::new();
        let mut acc = Vec::new();
        let order: Vec<usize> = (0..self.shapes.specs.len())
            .filter(|&s| !self.shapes.specs[s].is_pair)
            .chain((0..self.shapes.specs.len()).filter(|&s| self.shapes.specs[s].is_pair))
            .collect();
        if self.rec(&mut counts, wilds, melds, pairs, limit, &order, &mut acc, &mut out)? {
            Ok(Some(out))
        } else {
            Ok(None)
        }
    }

    /// One state of the search; false once past the limit.
    #[allow(clippy::too_many_arguments)]
    fn rec(
        &mut self,
        counts: &mut Vec<u8>,
        w: usize,
        m: usize,
        p: usize,
        limit: usize,
        order: &[usize],
        acc: &mut Vec<WildItem>,
        out: &mut Vec<Vec<WildItem>>,
    ) -> Result<bool, Error> {
        if out.len() > limit {
            return Ok(false);
        }
        if !self.can_split(counts, w, m, p)? {
            return Ok(true);
        }
        let Some(i) = counts.iter().position(|&c| c > 0) else {
            let mut extra = Vec::new();
            self.wild_groups(w, m, p, order, &mut extra, acc, out);
            return Ok(true);
        };
        for &s in order {
            let spec = &self.shapes.specs[s];
            if (spec.is_pair && p == 0) || (!spec.is_pair && m == 0) {
                continue;
            }
            let is_pair = spec.is_pair;
            let all = self.placed(s, i);
            for pl in all.iter() {
                // `placements` under these counts and wildcards: the placements under any, in their
                // order, that these allow
                if pl.wilds > w || pl.naturals.iter().any(|&(k, c)| counts[k] < c) {
                    continue;
                }
                let slots = pl.slots.clone();
                let nw = pl.wilds;
                for &(k, wild) in &slots {
                    if !wild {
                        counts[k] -= 1;
                    }
                }
                acc.push((s, slots));
                let ok = self.rec(counts, w - nw, m - (!is_pair) as usize, p - is_pair as usize, limit, order, acc, out);
                let (_, slots) = acc.pop().expect("pushed above");
                for &(k, wild) in &slots {
                    if !wild {
                        counts[k] += 1;
                    }
                }
                if !ok? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// Every placement of hand shape `s` whose lowest natural member is kind `i`, under counts and
    /// wildcards that limit none (`cap`), made once per rule set and catalog (these tables') on first use.
    /// `placements` under a hand's counts and wildcards are exactly those of these the hand allows, in
    /// this order: fewer tiles or wildcards only cut branches of the same search (build.rs `fill`), and
    /// the shapes' own choices (runs, ranks, suits) do not look at the counts.
    fn placed(&mut self, s: usize, i: usize) -> std::sync::Arc<[Placed]> {
        let at = s * self.n + i;
        if self.placed.len() <= at {
            self.placed.resize(self.shapes.specs.len() * self.n, None);
        }
        if let Some(got) = &self.placed[at] {
            return got.clone();
        }
        let any = vec![usize::from(u8::MAX); self.n];
        let got: std::sync::Arc<[Placed]> = self
            .shapes
            .placements(&self.shapes.specs[s], i, &any, self.cap)
            .into_iter()
            .map(|slots| {
                let mut naturals: Vec<(usize, u8)> = Vec::new();
                for &(k, wild) in &slots {
                    if !wild {
                        match naturals.iter_mut().find(|x| x.0 == k) {
                            Some(x) => x.1 += 1,
                            None => naturals.push((k, 1)),
                        }
                    }
                }
                Placed { wilds: slots.iter().filter(|x| x.1).count(), naturals, slots }
            })
            .collect();
        self.placed[at] = Some(got.clone());
        got
    }

    /// Python `_wild_groups`: wildcard-only groups using every wildcard left, each completed split
    /// appended to `out` after `acc`.
    #[allow(clippy::too_many_arguments)]
    fn wild_groups(&self, w: usize, m: usize, p: usize, order: &[usize], extra: &mut Vec<WildItem>, acc: &[WildItem], out: &mut Vec<Vec<WildItem>>) {
        if m == 0 && p == 0 {
            if w == 0 {
                let mut split = acc.to_vec();
                split.extend(extra.iter().cloned());
                out.push(split);
            }
            return;
        }
        for &s in order {
            let spec = &self.shapes.specs[s];
            if spec.is_pair != (m == 0) || spec.size > w {
                continue;
            }
            for slots in self.wild_targets(spec) {
                extra.push((s, slots));
                self.wild_groups(w - spec.size, m - (!spec.is_pair) as usize, p - spec.is_pair as usize, order, extra, acc, out);
                extra.pop();
            }
        }
    }

    /// Python `wild_targets_for`: the wildcard-only groups of a shape.
    fn wild_targets(&self, spec: &Spec) -> Vec<Vec<(usize, bool)>> {
        if spec.no_wild {
            return Vec::new();
        }
        let b = &self.shapes;
        let mut all: Vec<Vec<(usize, bool)>> = Vec::new();
        match spec.shape {
            ShapeKind::Same => {
                for t in (0..b.wild_ok.len()).filter(|&t| b.wild_ok[t]) {
                    all.push(vec![(t, true); spec.size]);
                }
            }
            ShapeKind::Run | ShapeKind::Ranks => {
                for (_, idx) in &b.suit_index {
                    let lists: Vec<Vec<i64>> = if spec.shape == ShapeKind::Run {
                        let mut starts: Vec<i64> = idx.keys().copied().collect();
                        starts.sort_unstable();
                        starts.iter().map(|&s| (s..s + spec.size as i64).collect()).collect()
                    } else {
                        vec![spec.ranks.clone()]
                    };
                    for ranks in lists {
                        if ranks.iter().all(|r| idx.contains_key(r)) {
                            all.push(ranks.iter().map(|r| (idx[r], true)).collect());
                        }
                    }
                }
            }
            ShapeKind::Tiles => all.push(spec.tiles.iter().map(|&t| (t, true)).collect()),
            ShapeKind::SameRank => {
                let mut suits: Vec<&(String, HashMap<i64, usize>)> = b.suit_index.iter().collect();
                suits.sort_by(|a, b| a.0.cmp(&b.0));
                if suits.len() >= 2 || !spec.mixed {
                    let mut ranks: Vec<i64> = match suits.first() {
                        None => Vec::new(),
                        Some(first) => {
                            first.1.keys().copied().filter(|r| suits.iter().take(2).all(|s| s.1.contains_key(r))).collect()
                        }
                    };
                    ranks.sort_unstable();
                    for r in ranks {
                        // Python takes the suits' names round in turn, sorts them, then maps each to its kind
                        let mut names: Vec<&String> = (0..spec.size).map(|j| &suits[j % suits.len()].0).collect();
                        names.sort();
                        let members = names.iter().map(|n| (suits.iter().find(|s| &s.0 == *n).map_or(usize::MAX, |s| s.1[&r]), true));
                        all.push(members.collect());
                    }
                }
            }
        }
        all.retain(|slots| slots.iter().all(|&(idx, _)| b.wild_ok.get(idx).copied().unwrap_or(false)));
        all
    }
}
