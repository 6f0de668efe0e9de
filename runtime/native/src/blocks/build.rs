//! Building a rule set's block tables: the group shapes, their placements with wildcards, the blocks
//! of kinds and the wildcard-only fits.

use super::*;

/// The hand shapes of a rule set under one catalog and how they are placed (kept by the tables: the
/// splits of a hand holding wildcards place them, src/blocks/wild.rs).
pub(super) struct Builder {
    kinds: Vec<(Option<String>, i64)>, // each kind's suit and rank
    pub(super) specs: Vec<Spec>,
    pub(super) wild_ok: Vec<bool>,
    pub(super) suit_index: Vec<(String, HashMap<i64, usize>)>, // in order of first appearance, as a Python dict
}

struct Kn<'a> {
    suit: &'a Option<String>,
    rank: i64,
}

impl Builder {
    fn suit_of(&self, i: usize) -> Option<&HashMap<i64, usize>> {
        let s = self.kinds[i].0.as_ref()?;
        self.suit_index.iter().find(|(name, _)| name == s).map(|(_, idx)| idx)
    }

    /// Every way to build `spec` containing natural tile i as its lowest natural member (Python
    /// `Decomposer.placements`): slots of (kind, wild).
    pub(super) fn placements(&self, spec: &Spec, i: usize, counts: &[usize], wilds: usize) -> Vec<Vec<(usize, bool)>> {
        let wilds = if spec.no_wild { 0 } else { wilds };
        let mut out = Vec::new();
        let (suit, rank) = &self.kinds[i];
        let k = Kn { suit, rank: *rank };
        match spec.shape {
            ShapeKind::Same => {
                let top = spec.size.min(counts[i]);
                for nat in (1..=top).rev() {
                    let need = spec.size - nat;
                    if need <= wilds {
                        let mut slots = vec![(i, false); nat];
                        slots.extend(std::iter::repeat_n((i, true), need));
                        out.push(slots);
                    }
                }
            }
            ShapeKind::Run | ShapeKind::Ranks => {
                let Some(idx) = self.suit_of(i) else { return out };
                let patterns: Vec<Vec<i64>> = if spec.shape == ShapeKind::Run {
                    let size = spec.size as i64;
                    (k.rank - size + 1..=k.rank).map(|s| (s..s + size).collect()).collect()
                } else if spec.ranks.contains(&k.rank) {
                    vec![spec.ranks.clone()]
                } else {
                    vec![]
                };
                for ranks in patterns {
                    if ranks.iter().any(|r| !idx.contains_key(r)) {
                        continue;
                    }
                    let members: Vec<usize> = ranks.iter().map(|r| idx[r]).collect();
                    self.fill(members, i, counts, wilds, &mut out);
                }
            }
            ShapeKind::Tiles => {
                if spec.tiles.contains(&i) {
                    self.fill(spec.tiles.clone(), i, counts, wilds, &mut out);
                }
            }
            ShapeKind::SameRank => {
                if k.suit.is_none() {
                    return out;
                }
                let mut suits: Vec<&String> = self
                    .suit_index
                    .iter()
                    .filter(|(_, idx)| idx.contains_key(&k.rank))
                    .map(|(s, _)| s)
                    .collect();
                suits.sort();
                let mut seen: Vec<Vec<usize>> = Vec::new();
                let mut combo = Vec::new();
                self.same_rank(spec, i, k.rank, &suits, 0, &mut combo, &mut seen, counts, wilds, &mut out);
            }
        }
        if wilds > 0 {
            out.retain(|slots| slots.iter().all(|&(idx, w)| !w || self.wild_ok[idx]));
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn same_rank(
        &self,
        spec: &Spec,
        i: usize,
        rank: i64,
        suits: &[&String],
        from: usize,
        combo: &mut Vec<usize>,
        seen: &mut Vec<Vec<usize>>,
        counts: &[usize],
        wilds: usize,
        out: &mut Vec<Vec<(usize, bool)>>,
    ) {
        // combinations with replacement of the sorted suits, in itertools order
        if combo.len() == spec.size {
            if spec.mixed && combo.iter().all(|&s| s == combo[0]) {
                return;
            }
            let mut members: Vec<usize> = combo
                .iter()
                .map(|&s| self.suit_index.iter().find(|(n, _)| n == suits[s]).unwrap().1[&rank])
                .collect();
            members.sort_unstable();
            if !members.contains(&i) || seen.contains(&members) {
                return;
            }
            seen.push(members.clone());
            self.fill(members, i, counts, wilds, out);
            return;
        }
        for s in from..suits.len() {
            combo.push(s);
            self.same_rank(spec, i, rank, suits, s, combo, seen, counts, wilds, out);
            combo.pop();
        }
    }

    /// Python `Decomposer._fill`: members below i are wildcards, the first i is the natural tile, every
    /// other member natural (while the counts allow) or a wildcard.
    fn fill(&self, mut members: Vec<usize>, i: usize, counts: &[usize], wilds: usize, out: &mut Vec<Vec<(usize, bool)>>) {
        members.sort_unstable();
        let Some(first) = members.iter().position(|&m| m == i) else { return };
        if counts[i] == 0 {
            return;
        }
        members.remove(first);
        let mut used: HashMap<usize, usize> = HashMap::new();
        used.insert(i, 1);
        let mut acc = vec![(i, false)];
        #[allow(clippy::too_many_arguments)]
        fn rec(
            rest: &[usize],
            j: usize,
            w: usize,
            i: usize,
            counts: &[usize],
            used: &mut HashMap<usize, usize>,
            acc: &mut Vec<(usize, bool)>,
            out: &mut Vec<Vec<(usize, bool)>>,
        ) {
            if j == rest.len() {
                out.push(acc.clone());
                return;
            }
            let m = rest[j];
            if m >= i {
                let have = counts[m] - used.get(&m).copied().unwrap_or(0).min(counts[m]);
                if have > 0 {
                    *used.entry(m).or_insert(0) += 1;
                    acc.push((m, false));
                    rec(rest, j + 1, w, i, counts, used, acc, out);
                    acc.pop();
                    *used.get_mut(&m).unwrap() -= 1;
                }
            }
            if w > 0 {
                acc.push((m, true));
                rec(rest, j + 1, w - 1, i, counts, used, acc, out);
                acc.pop();
            }
        }
        rec(&members, 0, wilds, i, counts, &mut used, &mut acc, out);
    }
}

impl Tables {
    pub fn build(rs: &RuleSet, cat: &Catalog, wild_cap: usize) -> Result<Tables, Error> {
        let n = cat.kinds.len();
        let cap = wild_cap.min(MAX_CAP);
        let by_name: HashMap<&str, usize> = cat.kinds.iter().enumerate().map(|(i, k)| (k.name.as_str(), i)).collect();
        let no_wild: Vec<&str> = rs.wilds.iter().flat_map(|w| w.no_meld.iter().map(String::as_str)).collect();
        let mut specs = Vec::new();
        let mut spec_melds = Vec::new();
        for (mi, m) in rs.melds.iter().enumerate().filter(|(_, m)| m.hand) {
            let s = &m.shape;
            let shape = match s.kind.as_str() {
                "same" => ShapeKind::Same,
                "run" => ShapeKind::Run,
                "ranks" => ShapeKind::Ranks,
                "tiles" => ShapeKind::Tiles,
                "same_rank" => ShapeKind::SameRank,
                other => return Err(Error::NotCovered(format!("the group shape `{other}`"))),
            };
            let mut tiles: Vec<usize> = s.tiles.iter().filter_map(|t| by_name.get(t.as_str()).copied()).collect();
            tiles.sort_unstable();
            if shape == ShapeKind::Tiles && tiles.len() != s.tiles.len() {
                continue; // a shape over tiles not in play under these options
            }
            let mut ranks = s.ranks.clone();
            ranks.sort_unstable();
            spec_melds.push(mi);
            specs.push(Spec {
                name: m.name.clone(),
                shape,
                size: s.size,
                is_pair: m.pair,
                ranks,
                tiles,
                mixed: s.mixed,
                no_wild: no_wild.contains(&m.name.as_str()),
            });
        }
        let excepts: Vec<&str> = rs.wilds.iter().map(|w| w.except_attr.as_str()).filter(|a| !a.is_empty()).collect();
        let wild_ok: Vec<bool> = (0..n)
            .map(|i| {
                let k = &cat.kinds[i];
                (k.category == "suited" || k.category == "honor") && !excepts.iter().any(|a| cat.flag(i, a))
            })
            .collect();
        let mut suit_index: Vec<(String, HashMap<i64, usize>)> = Vec::new();
        for (i, k) in cat.kinds.iter().enumerate() {
            if let Some(s) = &k.suit {
                match suit_index.iter_mut().find(|(name, _)| name == s) {
                    Some((_, idx)) => {
                        idx.insert(k.rank, i);
                    }
                    None => suit_index.push((s.clone(), HashMap::from([(k.rank, i)]))),
                }
            }
        }
        for k in &cat.kinds {
            if k.copies >= MAX_COUNT as i64 {
                return Err(Error::NotCovered(format!("{} copies of a tile kind", k.copies)));
            }
        }
        let kinds = cat.kinds.iter().map(|k| (k.suit.clone(), k.rank)).collect();
        let b = Builder { kinds, specs, wild_ok, suit_index };

        // Blocks: kinds joined by any group a hand shape can form from natural tiles (union-find).
        let mut parent: Vec<usize> = (0..n).collect();
        fn find(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        let full = vec![4usize; n];
        for spec in &b.specs {
            for i in 0..n {
                for slots in b.placements(spec, i, &full, 0) {
                    for (k, _) in slots {
                        let (ra, rb) = (find(&mut parent, i), find(&mut parent, k));
                        if ra != rb {
                            parent[ra.max(rb)] = ra.min(rb);
                        }
                    }
                }
            }
        }
        let mut comps: Vec<Vec<usize>> = Vec::new();
        let mut root_of: HashMap<usize, usize> = HashMap::new();
        for i in 0..n {
            let r = find(&mut parent, i);
            let c = *root_of.entry(r).or_insert_with(|| {
                comps.push(Vec::new());
                comps.len() - 1
            });
            comps[c].push(i);
        }
        // One-kind components next to each other (honors) share a block: fewer lookups a hand.
        let mut merged: Vec<Vec<usize>> = Vec::new();
        let mut last_single = false;
        for c in comps {
            let single = c.len() == 1;
            match merged.last_mut() {
                Some(prev) if single && last_single && prev.len() < MAX_BLOCK && *prev.last().unwrap() + 1 == c[0] => {
                    prev.push(c[0])
                }
                _ => merged.push(c),
            }
            last_single = single;
        }
        let mut place = vec![(0usize, 0u32); n];
        let mut blocks = Vec::new();
        for (bi, kinds) in merged.into_iter().enumerate() {
            if kinds.len() > MAX_BLOCK {
                return Err(Error::NotCovered(format!("a block of {} connected tile kinds", kinds.len())));
            }
            for (j, &k) in kinds.iter().enumerate() {
                place[k] = (bi, 4 * j as u32);
            }
            let capped = (0..cap).map(|_| map()).collect();
            blocks.push(Block { kinds, templates: Vec::new(), memo: map(), capped, split_templates: Vec::new(), splits: map(), plus_one: map() });
        }
        // Templates: every group whose lowest natural member is kind i (Python `BlockWin._templates`).
        for i in 0..n {
            let (bi, _) = place[i];
            let mut seen: Vec<(u128, u8, u8, u8)> = Vec::new();
            for spec in &b.specs {
                for slots in b.placements(spec, i, &full, cap) {
                    let mut delta: u128 = 0;
                    let mut nw = 0u8;
                    for &(k, w) in &slots {
                        if w {
                            nw += 1;
                        } else {
                            let (bk, shift) = place[k];
                            if bk != bi {
                                return Err(Error::Internal("a group crosses two blocks".into()));
                            }
                            delta += 1u128 << shift;
                        }
                    }
                    let key = (delta, nw, (!spec.is_pair) as u8, spec.is_pair as u8);
                    if !seen.contains(&key) {
                        seen.push(key);
                    }
                }
            }
            let mut t: Vec<Template> =
                seen.into_iter().map(|(delta, wilds, meld, pair)| Template { delta, wilds, meld, pair }).collect();
            // fewest wildcards first: a set within fewer wildcards than the cap stops at the first template
            // past them (a set is a union: the order of its templates does not change it)
            t.sort_by_key(|t| t.wilds);
            blocks[bi].templates.push(t);
        }
        // Split templates: every group of natural tiles holding kind i as its lowest member, shape by
        // shape in declaration order (Python `Decomposer.placements` with no wildcards; counts of
        // MAX_COUNT so that only the hand's own counts limit them).
        let most = vec![MAX_COUNT as usize; n];
        let mut split_groups: Vec<(usize, Vec<usize>)> = Vec::new();
        let mut split_ok = true;
        for i in 0..n {
            let (bi, _) = place[i];
            let mut ts = Vec::new();
            for (si, spec) in b.specs.iter().enumerate() {
                for slots in b.placements(spec, i, &most, 0) {
                    let mut delta: u128 = 0;
                    let mut kinds = Vec::with_capacity(slots.len());
                    for &(k, _) in &slots {
                        let (bk, shift) = place[k];
                        if bk != bi {
                            split_ok = false;
                        }
                        delta += 1u128 << shift;
                        kinds.push(k);
                    }
                    ts.push(SplitTemplate { delta, id: split_groups.len() as u32, pair: spec.is_pair });
                    split_groups.push((si, kinds));
                }
            }
            blocks[bi].split_templates.push(ts);
        }
        let msizes: Vec<usize> = sizes(&b.specs, false, 3);
        let psizes: Vec<usize> = sizes(&b.specs, true, 2);
        let fits_table = fits_table(cap, &msizes, &psizes);
        let sizes = (msizes, psizes);
        let mut t = Tables {
            n,
            cap,
            wild_ok: b.wild_ok.clone(),
            blocks,
            place,
            sets: Vec::new(),
            set_min_wilds: Vec::new(),
            set_ids: map(),
            combined: map(),
            probed: map(),
            memo_size: 0,
            keys: Vec::new(),
            ids: Vec::new(),
            last_hand: None,
            frames: Vec::new(),
            merge: (Vec::new(), Vec::new()),
            placed: Vec::new(),
            fits_table,
            split_groups,
            split_ok,
            spec_melds,
            sizes,
            shapes: b,
        };
        t.intern(vec![0]);
        Ok(t)
    }
}

pub(crate) fn sizes(specs: &[Spec], pair: bool, default: usize) -> Vec<usize> {
    let mut s: Vec<usize> = specs.iter().filter(|x| x.is_pair == pair).map(|x| x.size).collect();
    s.sort_unstable();
    s.dedup();
    if s.is_empty() {
        s.push(default);
    }
    s
}

/// Python `_sum_fits` for every `(w, m, p)` within the bounds: `w` wildcards form exactly `m` melds
/// and `p` pairs of the given sizes.
pub(crate) fn fits_table(cap: usize, msizes: &[usize], psizes: &[usize]) -> Vec<bool> {
    let g = MAX_GROUPS + 1;
    let mut t = vec![false; (cap + 1) * g * g];
    let at = |w: usize, m: usize, p: usize| (w * g + m) * g + p;
    for total in 0..=(2 * MAX_GROUPS) {
        for m in 0..=total.min(MAX_GROUPS) {
            let p = total - m;
            if p > MAX_GROUPS {
                continue;
            }
            for w in 0..=cap {
                let v = if m == 0 && p == 0 {
                    w == 0
                } else if m > 0 {
                    msizes.iter().any(|&s| s <= w && t[at(w - s, m - 1, p)])
                } else {
                    psizes.iter().any(|&s| s <= w && t[at(w - s, 0, p - 1)])
                };
                t[at(w, m, p)] = v;
            }
        }
    }
    t
}
