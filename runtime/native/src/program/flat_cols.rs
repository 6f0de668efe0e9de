//! The flat form's group columns (flat_eval.rs `GCol`): every group of a reading as integers, made once
//! a reading at the first flat read of a group — its size, ranks, flags, wildcards, its suit's and
//! kind's text ids, its tile's code — as the walk's group fields (funcs.rs `group_fields_into`) give them.

use super::*;

impl Eval<'_, '_> {
    /// Every group's columns, by its index; unusable (state 2) where a group's identity is not an index
    /// of the reading, a group has no tiles or a tile is not a tile of the catalog.
    pub(super) fn build_cols(&mut self) {
        let mut cols = std::mem::take(&mut self.cols);
        cols.clear();
        let p = self.p;
        let ft = &p.flat;
        let mut ok = true;
        let mut unknown: Vec<(&str, i64)> = Vec::new(); // kind texts the program does not hold, this reading's ids
        // the kind texts looked up so far (by the text's address: the groups share their kinds' texts)
        let mut seen: [(*const u8, usize, i64); 8] = [(std::ptr::null(), 0, 0); 8];
        let mut n_seen = 0usize;
        for g in self.r.groups.iter() {
            // a group equal to an earlier one shares its identity (hand/readings.rs): its fields are read
            // at that index, as the walk reads them (eval.rs `gfield`), so the columns are too
            if g.ident as usize >= self.r.groups.len() {
                ok = false;
                break;
            }
            let Some(V::Tile(c0)) = g.tiles.first() else {
                ok = false; // a group of no tiles, or an item not a tile
                break;
            };
            let k0 = kind_of(*c0);
            // the suits compared by their texts' ids (none 0, a text its id: equal texts, equal ids)
            let Some(suit0) = ft.kind_suit.get(k0 as usize).map(|v| v.x) else {
                ok = false;
                break;
            };
            let (mut lo, mut hi) = (i64::MAX, i64::MIN);
            let mut tile = NONE;
            let mut min_kind = u32::MAX;
            let mut wilds = 0i64;
            let mut one_suit = true;
            let mut one_kind = true;
            for x in g.tiles.iter() {
                let V::Tile(c) = x else {
                    ok = false;
                    break;
                };
                let k = kind_of(*c);
                let (Some(&r), Some(su)) = (p.kind_rank.get(k as usize), ft.kind_suit.get(k as usize)) else {
                    ok = false;
                    break;
                };
                if k as usize >= ft.n_kinds {
                    ok = false;
                    break;
                }
                lo = lo.min(r);
                hi = hi.max(r);
                one_suit &= su.x == suit0;
                one_kind &= k == k0;
                if k < min_kind {
                    min_kind = k;
                    tile = Val { c: C::Tile, x: *c as i64 };
                }
                wilds += (c & 2 != 0) as i64;
            }
            if !ok {
                break;
            }
            let mut flags = 0u16;
            for (on, bit) in [
                (self.run_of(g, one_suit && suit0 != 0, lo, hi), G_RUN),
                (g.tiles.len() >= 3 && one_kind, G_TRIPLET), // funcs.rs `is_triplet`
                (g.kong, G_KONG),
                (g.pair, G_PAIR),
                (g.exposed, G_EXPOSED),
                (g.concealed, G_CONCEALED),
                (g.has_win, G_HAS_WIN),
            ] {
                if on {
                    flags |= bit;
                }
            }
            let mut num = [0i64; 17];
            num[1] = g.tiles.len() as i64;
            num[5] = lo;
            num[6] = lo;
            num[7] = hi;
            for (f, bit) in [(8, G_RUN), (9, G_TRIPLET), (10, G_KONG), (11, G_PAIR), (12, G_EXPOSED), (13, G_CONCEALED), (16, G_HAS_WIN)] {
                num[f] = (flags & bit != 0) as i64;
            }
            num[15] = wilds;
            if let V::Int(v) = g.value {
                num[14] = v;
                flags |= G_VALUE;
            }
            // a kind's text by its id: the program's, or one of this reading's below 0 (equal texts,
            // equal ids; a text no constant holds is equal to none of them)
            let kind = if !ft.kinds {
                0 // no flat form reads it: not looked up
            } else {
                let at = (g.kind.as_ptr(), g.kind.len());
                match seen[..n_seen].iter().find(|s| s.0 == at.0 && s.1 == at.1) {
                    Some(s) => s.2,
                    None => {
                        let k = match ft.syms.get(&*g.kind) {
                            Some(&k) => k,
                            None => match unknown.iter().find(|u| u.0 == &*g.kind) {
                                Some(u) => u.1,
                                None => {
                                    let k = -1 - unknown.len() as i64;
                                    unknown.push((&g.kind, k));
                                    k
                                }
                            },
                        };
                        if n_seen < seen.len() {
                            seen[n_seen] = (at.0, at.1, k);
                            n_seen += 1;
                        }
                        k
                    }
                }
            };
            cols.push(GCol { num, suit: suit0, kind, tile: tile.x, flags, ident: g.ident as i64 });
        }
        if !ok {
            cols.clear(); // no column is read then
        }
        self.cols = cols;
        self.cols_state = if ok { 1 } else { 2 };
    }

    /// funcs.rs `is_run` on what `build_cols` found: three tiles or more of one suit (not none), their
    /// ranks distinct and consecutive (lo..=hi).
    fn run_of(&self, g: &Group, suited: bool, lo: i64, hi: i64) -> bool {
        let t = &g.tiles;
        let n = t.len() as i64;
        if n < 3 || !suited || hi.checked_sub(lo) != Some(n - 1) || n > 64 {
            return n > 64 && is_run(&self.p.kind_rank, &self.p.kind_suit, g);
        }
        let mut seen = 0u64;
        for x in t.iter() {
            let V::Tile(c) = x else { return false };
            let bit = 1u64 << (self.p.kind_rank[kind_of(*c) as usize] - lo);
            if seen & bit != 0 {
                return false;
            }
            seen |= bit;
        }
        true
    }
}
