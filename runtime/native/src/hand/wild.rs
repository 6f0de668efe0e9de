//! Every reading of a hand holding wildcards or stand-ins in play: the port of runtime/hand_readings.py
//! `_readings_wild` (with `_readings_of`, `_orphans`), in its order — forms in the rule set's order, each
//! with the hand's tiles classified for the form's `standins`; per form the instant or orphans reading,
//! or every (melds, pairs) it allows, every split (src/blocks/wild.rs with wildcards, the block tables'
//! splits without), stand-in tiles given back their physical identity as the reference does, and the
//! winning tile placed in the first matching slot of each group (a group identical to one tried is not
//! tried again) — charged to the hand's work as the reference charges it (each split and each reading).
//!
//! A hand whose wildcards, two or more of one physical kind, can form groups under a form is read by
//! signature in the reference (`_signature_readings`): its signature splits are asked of the Python
//! side (`Waits::signatures`, which runs the reference's `signature_found` — its observers, their memos
//! and the work they charge — and says when full enumeration decides instead), and its readings are
//! made here from them as the reference makes them (shared groups, or with stand-ins `_readings_of` on
//! the group holding the winning tile). A `Waits` without that search (the batch loop's) hands the hand
//! back, by name; so does a hand holding more wildcards than the tables take.

use std::collections::HashMap;
use std::sync::Arc;

use super::listed::listed_form;
use super::readings::{condition, declared_groups, form_targets, packed, plain, sum_fits, Found, RData, WaitState};
use super::{fallback, Budget, Built, Classified, Fallback, FormSpec, GroupAsk, GroupRef, HandCtx, HandInput, Item, Signatures, Waits, WildIn};
use crate::program::{Group, V};

/// The reason a hand read by signature goes back to the reference.
pub const BY_SIGNATURE: &str = "a hand whose wildcards (of one kind) the reference reads by signature";

/// A group's value and prefilter vector (shared by the readings that hold the group).
type Info = (V, Option<Arc<Vec<u64>>>);

/// A tile of a reading (Python `RTile`): the kind it plays as, its physical kind, whether a wildcard
/// plays it, whether it is the winning tile.
#[derive(Clone, Copy, PartialEq)]
struct Rt {
    kind: usize,
    phys: usize,
    wild: bool,
    win: bool,
}

/// Python `tile_code` of a reading's tile.
fn code(tile_codes: &[u32], t: Rt) -> u32 {
    ((t.kind as u32) << 2) | if t.wild { 2 } else { 0 } | (tile_codes[t.phys] & 1)
}

fn tiles_of(c: &Classified) -> Vec<Rt> {
    let nat = c.naturals.iter().map(|&(kind, phys, win)| Rt { kind, phys, wild: false, win });
    nat.chain(c.wilds.iter().map(|&(phys, win)| Rt { kind: phys, phys, wild: true, win })).collect()
}

/// Every reading of the hand, charged to its work; or the sentence it is refused with.
pub(super) fn enumerate(
    ctx: &HandCtx,
    input: &HandInput,
    wild: &WildIn,
    budget: &mut Budget,
    waits: &mut dyn Waits,
    st: &mut WaitState,
) -> Result<Found, Fallback> {
    let setup = ctx.setup;
    let conds = ctx.program.form_conds.as_ref().map_err(|_| fallback("the form conditions are not lowered"))?;
    let n = setup.kind_names.len();
    for c in &wild.classes {
        let nat = c.naturals.iter().flat_map(|&(k, p, _)| [k, p]);
        if nat.chain(c.wilds.iter().map(|w| w.0)).any(|k| k >= n) {
            return Err(fallback("a tile outside the catalog"));
        }
    }
    if input.melds.iter().any(|m| m.tiles.iter().any(|&k| k >= n)) {
        return Err(fallback("a tile outside the catalog"));
    }
    let tc = &setup.tile_codes;
    let meld_tiles: i64 = input.melds.iter().map(|m| m.tiles.len() as i64).sum();
    let has_exposed = input.melds.iter().any(|m| m.exposed);
    let n_melds = input.melds.len();
    let (exposed, values_ok) = declared_groups(&input.melds, tc);
    let exposed_tiles: Vec<V> = exposed.iter().flat_map(|g| g.tiles.iter().cloned()).collect();
    let cap = ctx.tables.core_cap();
    let mut out: Vec<RData> = Vec::new();
    let mut fits_any = false;
    let mut info = Infos::default();
    for &fi in &input.forms {
        let f = setup.forms.get(fi).ok_or_else(|| fallback("a form outside the rule set"))?;
        let cond = conds.get(fi).ok_or_else(|| fallback("a form outside the rule set"))?;
        let cl = &wild.classes[f.standins as usize];
        let concealed_n = (cl.naturals.len() + cl.wilds.len()) as i64;
        if !f.fits(concealed_n + meld_tiles, setup.table_hand, has_exposed) {
            continue;
        }
        let hand = tiles_of(cl);
        let win = hand.iter().copied().find(|t| t.win);
        let win_code = win.map_or(V::None, |t| V::Tile(code(tc, t)));
        let mut counts = vec![0u8; n];
        for &(k, _, _) in &cl.naturals {
            counts[k] = counts[k].saturating_add(1);
        }
        let nw = cl.wilds.len();
        if f.instant || f.orphans.is_some() {
            let hand_codes: Vec<V> = hand.iter().map(|&t| V::Tile(code(tc, t))).collect();
            let mut all = hand_codes.clone();
            all.extend(exposed_tiles.iter().cloned());
            let l = (Arc::new(all), Arc::new(hand_codes));
            let at = (cond.instant.as_ref(), &counts[..], nw, concealed_n);
            fits_any |= listed_form(ctx, input, fi, f, at, &exposed, l, win_code, budget, waits, st, &mut out)?;
            continue;
        }
        let standins = cl.naturals.iter().any(|&(k, p, _)| k != p);
        for (m, p) in form_targets(f, n_melds as i64) {
            if !sum_fits(concealed_n, m, &setup.meld_sizes, p, &setup.pair_sizes) {
                continue;
            }
            fits_any = true;
            let (mu, pu) = (m as usize, p as usize);
            if nw > cap {
                return Err(fallback("more wildcards than the native tables hold"));
            }
            if !ctx.tables.core_can_split(&counts, nw, mu, pu).map_err(|e| Fallback(e.to_string()))? {
                continue;
            }
            if nw >= wild.signature_from && nw > 0 && cl.wilds.iter().all(|w| w.0 == cl.wilds[0].0) {
                match waits.signatures(fi, mu, pu, budget)? {
                    Signatures::Refused(s) => return Ok(Found::Refused(s)),
                    Signatures::Enumerate => {}
                    Signatures::Found(found) => {
                        let rd = Rd { ctx, input, fi, f, cl, exposed: &exposed, win };
                        for (items, win_gi) in &found {
                            rd.readings_of(items, Some(*win_gi), &mut info, budget, waits, st, &mut out)?;
                        }
                        continue;
                    }
                }
            }
            let limit = setup.split_limit.min(budget.work.max(0) as usize);
            if nw == 0 {
                let splits = ctx.tables.core_splits_plain(&counts, mu, pu, limit).map_err(|e| Fallback(e.to_string()))?;
                if splits.len() > limit {
                    return Ok(Found::Refused(setup.limit_sentence.clone()));
                }
                budget.work -= splits.len() as i64;
                if budget.work < 0 {
                    return Ok(Found::Refused(setup.limit_sentence.clone()));
                }
                for split in &splits {
                    if standins {
                        let items = split
                            .iter()
                            .map(|&id| {
                                let g = setup.split_groups.get(id as usize).ok_or_else(|| fallback("a split group outside the tables"))?;
                                Ok((g.kind.clone(), g.kinds.iter().map(|&k| (k, false)).collect()))
                            })
                            .collect::<Result<Vec<_>, Fallback>>()?;
                        let rd = Rd { ctx, input, fi, f, cl, exposed: &exposed, win };
                        rd.readings_of(&items, None, &mut info, budget, waits, st, &mut out)?;
                    } else {
                        plain(ctx, input, fi, f, split, &exposed, budget, waits, st, &mut out)?;
                    }
                }
                continue;
            }
            let Some(splits) = ctx.tables.core_splits_wild(&counts, nw, mu, pu, limit).map_err(|e| Fallback(e.to_string()))? else {
                return Ok(Found::Refused(setup.limit_sentence.clone()));
            };
            budget.work -= splits.len() as i64;
            if budget.work < 0 {
                return Ok(Found::Refused(setup.limit_sentence.clone()));
            }
            let mut names: HashMap<usize, Arc<str>> = HashMap::new();
            for split in &splits {
                let mut items = Vec::with_capacity(split.len());
                for (s, slots) in split {
                    let name = match names.get(s) {
                        Some(x) => x.clone(),
                        None => {
                            let (name, _) = ctx.tables.core_shape_of(*s).ok_or_else(|| fallback("a shape outside the tables"))?;
                            names.entry(*s).or_insert_with(|| Arc::from(name.as_str())).clone()
                        }
                    };
                    items.push((name, slots.clone()));
                }
                let rd = Rd { ctx, input, fi, f, cl, exposed: &exposed, win };
                rd.readings_of(&items, None, &mut info, budget, waits, st, &mut out)?;
            }
        }
    }
    budget.work -= out.len() as i64 * setup.reading_work;
    if budget.work < 0 {
        return Ok(Found::Refused(setup.limit_sentence.clone()));
    }
    if !fits_any {
        let concealed_n = wild.classes[1].naturals.len() + wild.classes[1].wilds.len();
        return Ok(Found::Refused(format!(
            "the hand holds {} concealed tiles besides {} meld(s), which no winning form of this rule set can use \
             (a full hand is {} tiles plus the winning tile)",
            concealed_n, n_melds, setup.table_hand
        )));
    }
    if !out.is_empty() && !values_ok {
        return Err(fallback("a meld's value the programs do not hold"));
    }
    Ok(Found::Readings(out))
}

/// The values and prefilter vectors of the groups one hand's readings form, asked of the Python side
/// once each (by meld kind, tile codes, concealed, holding the winning tile). The vector is shared, not
/// copied, by the readings that hold the group (the fast keyed hash: looked up for every group of
/// every reading).
#[derive(Default)]
struct Infos {
    got: Option<crate::hash::Map<InfoKey, Info>>,
}

/// A group as `Infos` keeps it: meld kind, tile codes, concealed, holding the winning tile.
type InfoKey = (Arc<str>, Vec<u32>, bool, bool);

impl Infos {
    fn get(&mut self, waits: &mut dyn Waits, tc: &[u32], kind: &Arc<str>, tiles: &[(usize, usize, bool, bool)], concealed: bool, has_win: bool)
        -> Result<Info, Fallback> {
        let codes: Vec<u32> =
            tiles.iter().map(|&(kind, phys, wild, _)| code(tc, Rt { kind, phys, wild, win: false })).collect();
        // (room for a hand's groups from the start: grown from nothing, the map would rehash every key
        // several times a hand)
        let got = self.got.get_or_insert_with(|| crate::hash::Map::with_capacity_and_hasher(32, Default::default()));
        let key = (kind.clone(), codes, concealed, has_win);
        if let Some(x) = got.get(&key) {
            return Ok(x.clone());
        }
        let ask = GroupAsk { kind, tiles, codes: key.1.clone(), concealed, has_win };
        let (v, vector) = waits.group(&ask)?;
        let x = (v, vector.map(Arc::new));
        got.insert(key, x.clone());
        Ok(x)
    }
}

/// What the readings of one form share.
struct Rd<'a, 'c> {
    ctx: &'a HandCtx<'c>,
    input: &'a HandInput,
    fi: usize,
    f: &'a FormSpec,
    cl: &'a Classified,
    exposed: &'a [Group],
    win: Option<Rt>,
}

impl Rd<'_, '_> {
    /// Python `_readings_of` for a hand holding wildcards or stand-ins: the split's groups built (each
    /// wildcard slot taking the next wildcard's physical tile, each natural slot the last natural tile
    /// left of its kind), then a reading for each group that can hold the winning tile. `sig`: a split
    /// of the signature search, with the group holding the winning tile — with stand-ins,
    /// `_readings_of(only_gi=…)`; without, `_signature_readings`' one reading of shared groups, the
    /// winning tile in the first slot that can hold it.
    #[allow(clippy::too_many_arguments)]
    fn readings_of(
        &self,
        split: &[Item],
        sig: Option<Option<usize>>,
        info: &mut Infos,
        budget: &mut Budget,
        waits: &mut dyn Waits,
        st: &mut WaitState,
        out: &mut Vec<RData>,
    ) -> Result<(), Fallback> {
        let setup = self.ctx.setup;
        let n = setup.kind_names.len();
        let mut wi = 0;
        let mut groups: Vec<Vec<Rt>> = Vec::with_capacity(split.len());
        for (_, slots) in split {
            let tiles = slots
                .iter()
                .map(|&(idx, wild)| {
                    if wild {
                        let phys = self.cl.wilds.get(wi).map_or(idx, |w| w.0);
                        wi += 1;
                        Rt { kind: idx, phys, wild: true, win: false }
                    } else {
                        Rt { kind: idx, phys: idx, wild: false, win: false }
                    }
                })
                .collect();
            groups.push(tiles);
        }
        let standins = self.cl.naturals.iter().any(|&(k, p, _)| k != p);
        // the physical identity of stand-in tiles: each natural slot takes the last natural tile of its
        // kind (without stand-ins every natural tile is its own kind: each slot's already)
        if standins {
            let mut pool: Vec<Vec<usize>> = vec![Vec::new(); n];
            for &(k, p, _) in &self.cl.naturals {
                pool[k].push(p);
            }
            for g in groups.iter_mut() {
                for t in g.iter_mut().filter(|t| !t.wild) {
                    if let Some(p) = pool[t.kind].pop() {
                        t.phys = p;
                    }
                }
            }
        }
        let pairs: Vec<bool> = split
            .iter()
            .map(|(kind, _)| {
                let m = setup.meld_kinds.get(&**kind).ok_or_else(|| fallback("a meld kind the setup does not name"))?;
                Ok(m.0)
            })
            .collect::<Result<_, Fallback>>()?;
        let kongs: Vec<bool> = split.iter().map(|(kind, _)| setup.meld_kinds.get(&**kind).is_some_and(|m| m.1)).collect();
        let shared = sig.is_some() && !standins;
        let Some(win) = self.win else {
            return self.push(split, &groups, &pairs, &kongs, None, shared, info, budget, waits, st, out);
        };
        let fits = |t: &Rt| t.wild == win.wild && (t.wild || t.kind == win.kind) && (!t.wild || t.phys == win.phys);
        if shared {
            let gi = sig.flatten().ok_or_else(|| fallback("a signature split without the winning tile's group"))?;
            let g = groups.get(gi).ok_or_else(|| fallback("a signature split's winning group outside it"))?;
            let ti = g.iter().position(fits).ok_or_else(|| fallback("a signature split's winning group without its tile"))?;
            return self.push(split, &groups, &pairs, &kongs, Some((gi, ti)), true, info, budget, waits, st, out);
        }
        let mut seen: Vec<(&str, Vec<(usize, bool)>)> = Vec::new();
        for (gi, g) in groups.iter().enumerate() {
            if sig.is_some_and(|w| w != Some(gi)) {
                continue;
            }
            for (ti, t) in g.iter().enumerate() {
                if !fits(t) {
                    continue;
                }
                let sig = (&*split[gi].0, g.iter().map(|x| (x.kind, x.wild)).collect::<Vec<_>>());
                if seen.contains(&sig) {
                    break;
                }
                seen.push(sig);
                self.push(split, &groups, &pairs, &kongs, Some((gi, ti)), false, info, budget, waits, st, out)?;
                break;
            }
        }
        Ok(())
    }

    /// One reading: the groups, the winning tile at (group, slot) when there is one. `shared`: the
    /// reference's groups are shared objects (`signature_group`), so identical groups of the reading
    /// are one group to the programs (one identity).
    #[allow(clippy::too_many_arguments)]
    fn push(
        &self,
        split: &[Item],
        groups: &[Vec<Rt>],
        pairs: &[bool],
        kongs: &[bool],
        at: Option<(usize, usize)>,
        shared: bool,
        info: &mut Infos,
        budget: &mut Budget,
        waits: &mut dyn Waits,
        st: &mut WaitState,
        out: &mut Vec<RData>,
    ) -> Result<(), Fallback> {
        let setup = self.ctx.setup;
        let tc = &setup.tile_codes;
        let ne = self.exposed.len();
        let mut gs: Vec<Group> = Vec::with_capacity(ne + groups.len());
        gs.extend_from_slice(self.exposed);
        let mut refs: Vec<GroupRef> = Vec::with_capacity(ne + groups.len());
        refs.extend((0..ne).map(GroupRef::Declared));
        let mut built: Vec<Built> = Vec::with_capacity(groups.len());
        // the built groups' vectors (the declared melds' are read off the input)
        let mut vectors: Vec<Option<Arc<Vec<u64>>>> = Vec::with_capacity(groups.len());
        let mut win_tile = V::None;
        for (gi, g) in groups.iter().enumerate() {
            let has_win = at.is_some_and(|(w, _)| w == gi);
            let concealed = !has_win || self.input.self_drawn || pairs[gi];
            let tiles: Vec<(usize, usize, bool, bool)> = g
                .iter()
                .enumerate()
                .map(|(ti, t)| (t.kind, t.phys, t.wild, has_win && at.is_some_and(|(_, w)| w == ti)))
                .collect();
            let kind = &split[gi].0;
            let (value, vector) = info.get(waits, tc, kind, &tiles, concealed, has_win)?;
            let mut codes: Vec<V> = Vec::with_capacity(tiles.len());
            codes.extend(tiles.iter().map(|&(kind, phys, wild, win)| V::Tile(code(tc, Rt { kind, phys, wild, win }))));
            if has_win {
                let (_, ti) = at.unwrap();
                win_tile = codes[ti].clone();
            }
            gs.push(Group {
                kind: kind.clone(),
                tiles: Arc::new(codes),
                exposed: false,
                concealed,
                pair: pairs[gi],
                kong: kongs[gi],
                has_win,
                value,
                ident: (ne + gi) as u16,
            });
            if shared {
                if let Some(j) = built.iter().position(|b| b.0 == *kind && b.1 == tiles && b.2 == concealed) {
                    gs.last_mut().expect("pushed above").ident = (ne + j) as u16;
                }
            }
            refs.push(GroupRef::Built(gi as u32));
            built.push((kind.clone(), tiles, concealed, shared));
            vectors.push(vector);
        }
        let mut declared = vec![true; ne];
        declared.extend(std::iter::repeat_n(false, groups.len()));
        let pk = if setup.prefilter {
            packed(self.input.melds.iter().map(|m| m.vector.as_ref()).chain(vectors.iter().map(|v| v.as_deref())))
        } else {
            None
        };
        let r = RData {
            form: self.fi,
            form_name: self.f.name.clone(),
            refs,
            groups: gs,
            declared,
            listed: None,
            win_tile,
            win_group: at.map_or(V::None, |(gi, _)| V::Group((ne + gi) as u16)),
            packed: pk,
            built,
        };
        let pair_when = self.ctx.program.form_conds.as_ref().ok().and_then(|c| c[self.fi].pair_when.as_ref());
        if let (Some(node), true) = (pair_when, r.groups.iter().any(|g| g.pair)) {
            if !condition(self.ctx, node, &r, self.input, budget, waits, st)? {
                return Ok(());
            }
        }
        out.push(r);
        Ok(())
    }
}
