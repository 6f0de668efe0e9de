//! Every reading of a hand made only of natural tiles: the port of runtime/hand_readings.py
//! `_readings_natural` (with `_readings_plain`, `_orphans`, `form_targets`, `sizes_fit`), in its order —
//! forms in the rule set's order; per form the instant or orphans reading, or every (melds, pairs) it
//! allows, every split of the block tables in their order, and in each split the winning tile placed in
//! each group that can hold it (an identical group once) — so the tie-break between equal readings is
//! the reference's. Readings are charged to the hand's work as the reference charges them. A rule set
//! with wildcards or stand-ins reads a hand holding none in play the same way (its `_readings_wild`
//! then comes to the same readings), but charges each split too (`HandInput::charge_splits`).

use std::sync::Arc;

use super::{fallback, Budget, Built, Chosen, Fallback, FormSpec, GroupRef, HandCtx, HandInput, MeldIn, Waits};
use super::listed::{listed_form, listed_never};
use crate::program::{Eval, Group, Node, Reading, Stop, V};

pub(super) struct WaitState {
    pub waits: Option<V>,
    pub shape_waits: Option<V>,
}

/// The tiles and the concealed tiles of a reading whose groups do not hold every tile.
pub(super) type Listed = (Arc<Vec<V>>, Arc<Vec<V>>);

/// One reading, as the programs take it (less what every reading of the hand shares).
pub(super) struct RData {
    pub(super) form: usize,
    pub(super) form_name: Arc<str>,
    pub(super) refs: Vec<GroupRef>,
    pub(super) groups: Vec<Group>,
    pub(super) declared: Vec<bool>,
    pub(super) listed: Option<Listed>, // (tiles, hand) of an instant or orphans reading
    pub(super) win_tile: V,
    pub(super) win_group: V,
    pub(super) packed: Option<Vec<u8>>,
    /// The groups a reading of a hand holding wildcards or stand-ins forms (`GroupRef::Built`).
    pub(super) built: Vec<Built>,
}

pub(super) enum Found {
    Readings(Vec<RData>),
    Refused(String),
}

impl RData {
    pub(super) fn view<'a>(&'a self, input: &'a HandInput, flowers: &Arc<Vec<V>>, st: &WaitState) -> Reading<'a> {
        self.view_of(self.groups.clone(), self.declared.clone(), input, flowers, st)
    }

    /// The reading as the programs take it, with its groups and their declared flags given.
    pub(super) fn view_of<'a>(&'a self, groups: Vec<Group>, declared: Vec<bool>, input: &'a HandInput, flowers: &Arc<Vec<V>>, st: &WaitState) -> Reading<'a> {
        Reading {
            groups,
            tiles: self.listed.as_ref().map(|l| l.0.clone()),
            hand: self.listed.as_ref().map(|l| l.1.clone()),
            declared,
            win_tile: self.win_tile.clone(),
            win_group: self.win_group.clone(),
            form: V::Str(self.form_name.clone()),
            self_drawn: input.self_drawn,
            flowers: flowers.clone(),
            waits: st.waits.clone(),
            shape_waits: st.shape_waits.clone(),
            settings: &input.settings,
            packed: self.packed.as_deref(),
        }
    }

    /// The concealed tiles it reads (Python `Reading.hand`), as codes.
    fn hand_tiles(&self) -> Vec<V> {
        match &self.listed {
            Some((_, hand)) => hand.as_ref().clone(),
            None => self
                .groups
                .iter()
                .zip(&self.declared)
                .filter(|(_, &d)| !d)
                .flat_map(|(g, _)| g.tiles.iter().cloned())
                .collect(),
        }
    }

    fn hand_kinds(&self) -> Vec<usize> {
        match &self.listed {
            Some((_, hand)) => hand.iter().map(kind).collect(),
            None => self
                .groups
                .iter()
                .zip(&self.declared)
                .filter(|(_, &d)| !d)
                .flat_map(|(g, _)| g.tiles.iter().map(kind))
                .collect(),
        }
    }

    /// Python `Reading.describe`: the groups, or the concealed tiles when it has none (written into one
    /// string: it is made for every reading a requirement refuses, and for the chosen one).
    pub(super) fn describe(&self, setup: &super::Setup, _input: &HandInput) -> String {
        // Python `repr` of a tile: its kind's name, marked when a wildcard plays it
        let name = |out: &mut String, t: &V| {
            out.push_str(&setup.kind_names[kind(t)]);
            if matches!(t, V::Tile(c) if c & 2 != 0) {
                out.push('*');
            }
        };
        let mut out = String::with_capacity(128);
        if self.groups.is_empty() {
            for (i, t) in self.hand_tiles().iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                name(&mut out, t);
            }
            return out;
        }
        for (i, g) in self.groups.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(&g.kind);
            out.push('[');
            for t in g.tiles.iter() {
                name(&mut out, t);
            }
            out.push(']');
            if g.has_win {
                out.push('+');
            }
        }
        out
    }

    pub(super) fn chosen(&self, setup: &super::Setup, input: &HandInput) -> Chosen {
        Chosen {
            form: self.form,
            groups: self.refs.clone(),
            listed: self.listed.is_some(),
            hand: self.hand_kinds(),
            win_tile: match self.win_tile {
                V::Tile(c) => Some((c >> 2) as usize),
                _ => None,
            },
            describe: self.describe(setup, input),
            built: self.built.clone(),
            views: self
                .groups
                .iter()
                .zip(&self.declared)
                .map(|(g, &d)| super::GroupView {
                    kind: g.kind.clone(),
                    tiles: g.tiles.clone(),
                    declared: d,
                    exposed: g.exposed,
                    has_win: g.has_win,
                })
                .collect(),
        }
    }
}

pub(super) fn kind(t: &V) -> usize {
    match t {
        V::Tile(c) => (c >> 2) as usize,
        _ => usize::MAX,
    }
}

/// Python `sum_fits`: whether w tiles form exactly m melds and p pairs of the given sizes.
pub(super) fn sum_fits(w: i64, m: i64, ms: &[usize], p: i64, ps: &[usize]) -> bool {
    if m == 0 && p == 0 {
        return w == 0;
    }
    if m > 0 {
        return ms.iter().any(|&s| s as i64 <= w && sum_fits(w - s as i64, m - 1, ms, p, ps));
    }
    ps.iter().any(|&s| s as i64 <= w && sum_fits(w - s as i64, 0, ms, p - 1, ps))
}

/// Python `form_targets`: the (melds, pairs) a form asks of the concealed tiles.
pub(super) fn form_targets(f: &FormSpec, n_exposed: i64) -> Vec<(i64, i64)> {
    let (mut lo, mut hi) = f.pairs.unwrap_or((0, 0));
    let mut out = Vec::new();
    if let Some(g) = f.groups {
        if f.pairs.is_none() {
            lo = 0;
            hi = g;
        }
        for p in lo..=hi {
            let m = g - p - n_exposed;
            if m >= 0 {
                out.push((m, p));
            }
        }
    } else {
        for p in lo..=hi {
            let m = f.melds.unwrap_or(0) - n_exposed;
            if m >= 0 {
                out.push((m, p));
            }
        }
    }
    out
}

/// The sum of the groups' prefilter vectors as little-endian bytes (Python's packed int), or None
/// when some group has none. Summed in place on the stack for the usual short vectors (one allocation,
/// the bytes, a reading).
pub(super) fn packed<'v>(vectors: impl Iterator<Item = Option<&'v Vec<u64>>> + Clone) -> Option<Vec<u8>> {
    let mut width = 0;
    for v in vectors.clone() {
        width = width.max(v?.len());
    }
    let len = width + 1;
    let mut small = [0u64; 16];
    let mut big: Vec<u64> = Vec::new();
    let acc: &mut [u64] = if len <= small.len() {
        &mut small[..len]
    } else {
        big.resize(len, 0);
        &mut big
    };
    for v in vectors.flatten() {
        let mut carry = 0u64;
        for (i, a) in acc.iter_mut().enumerate() {
            let x = v.get(i).copied().unwrap_or(0);
            let (s1, c1) = a.overflowing_add(x);
            let (s2, c2) = s1.overflowing_add(carry);
            *a = s2;
            carry = (c1 as u64) + (c2 as u64);
        }
    }
    let mut bytes: Vec<u8> = Vec::with_capacity(acc.len() * 8);
    for x in acc.iter() {
        bytes.extend_from_slice(&x.to_le_bytes());
    }
    while bytes.last() == Some(&0) {
        bytes.pop();
    }
    Some(bytes)
}

/// A form's condition on a reading (Python `_eval_bool`): its truth; the waits asked for when read.
pub(super) fn condition(
    ctx: &HandCtx,
    node: &Node,
    r: &RData,
    input: &HandInput,
    budget: &mut Budget,
    waits: &mut dyn Waits,
    st: &mut WaitState,
) -> Result<bool, Fallback> {
    let flowers = Arc::new(input.flowers.clone());
    loop {
        let view = r.view(input, &flowers, st);
        let mut ev = Eval::new(ctx.program, &view);
        match ev.eval_node(node) {
            Ok(v) => return Ok(v.truthy()),
            Err(Stop::Bail) => return Err(fallback("a form condition the programs stop on")),
            Err(Stop::NeedWaits) => st.waits = Some(waits.waits(false, budget)?),
            Err(Stop::NeedShapeWaits) => st.shape_waits = Some(waits.waits(true, budget)?),
        }
    }
}

/// The groups of the laid-down melds (declared, in the given order), and whether the programs hold
/// every meld's value.
pub(super) fn declared_groups(melds: &[MeldIn], tile_codes: &[u32]) -> (Vec<Group>, bool) {
    let values_ok = melds.iter().all(|m| m.value.is_some());
    let groups = melds
        .iter()
        .enumerate()
        .map(|(i, m)| Group {
            kind: m.kind.clone(),
            tiles: Arc::new(m.tiles.iter().map(|&k| V::Tile(tile_codes[k])).collect()),
            exposed: m.exposed,
            concealed: !m.exposed,
            pair: m.pair,
            kong: m.kong,
            has_win: false,
            value: m.value.clone().unwrap_or(V::None),
            ident: i as u16,
        })
        .collect();
    (groups, values_ok)
}

/// Every reading of the hand, charged to its work; or the sentence it is refused with.
pub(super) fn enumerate(
    ctx: &HandCtx,
    input: &HandInput,
    budget: &mut Budget,
    waits: &mut dyn Waits,
    st: &mut WaitState,
) -> Result<Found, Fallback> {
    if let Some(w) = &input.wild {
        return super::wild::enumerate(ctx, input, w, budget, waits, st);
    }
    let setup = ctx.setup;
    let conds = ctx.program.form_conds.as_ref().map_err(|_| fallback("the form conditions are not lowered"))?;
    let n = setup.kind_names.len();
    let code = |k: usize| V::Tile(setup.tile_codes[k]);
    let mut counts = vec![0u8; n];
    for &k in input.concealed.iter().chain(input.win.iter()) {
        if k >= n {
            return Err(fallback("a tile outside the catalog"));
        }
        counts[k] = counts[k].saturating_add(1);
    }
    for m in &input.melds {
        if m.tiles.iter().any(|&k| k >= n) {
            return Err(fallback("a tile outside the catalog"));
        }
    }
    let concealed_n = input.concealed.len() as i64 + input.win.is_some() as i64;
    let meld_tiles: i64 = input.melds.iter().map(|m| m.tiles.len() as i64).sum();
    let has_exposed = input.melds.iter().any(|m| m.exposed);
    let n_melds = input.melds.len();
    let (exposed, values_ok) = declared_groups(&input.melds, &setup.tile_codes);
    let exposed_tiles: Vec<V> = exposed.iter().flat_map(|g| g.tiles.iter().cloned()).collect();
    let win_code = input.win.map_or(V::None, code);
    let mut naturals: Option<Arc<Vec<V>>> = None;
    let mut out: Vec<RData> = Vec::new();
    let mut fits_any = false;
    let mut flat: Vec<u32> = Vec::new(); // the splits of one target, one after another
    for &fi in &input.forms {
        let f = setup.forms.get(fi).ok_or_else(|| fallback("a form outside the rule set"))?;
        let cond = conds.get(fi).ok_or_else(|| fallback("a form outside the rule set"))?;
        if !f.fits(concealed_n + meld_tiles, setup.table_hand, has_exposed) {
            continue;
        }
        if f.instant || f.orphans.is_some() {
            if let Some(fits) = listed_never(ctx, input, fi, f, &counts, concealed_n) {
                fits_any |= fits; // no reading of the form: its lists are not made
                continue;
            }
            let nat = naturals
                .get_or_insert_with(|| Arc::new(input.concealed.iter().chain(input.win.iter()).map(|&k| code(k)).collect()))
                .clone();
            let mut all: Vec<V> = nat.as_ref().clone();
            all.extend(exposed_tiles.iter().cloned());
            let at = (cond.instant.as_ref(), &counts[..], 0, concealed_n);
            fits_any |= listed_form(ctx, input, fi, f, at, &exposed, (Arc::new(all), nat), win_code.clone(), budget, waits, st, &mut out)?;
            continue;
        }
        for (m, p) in form_targets(f, n_melds as i64) {
            if !sum_fits(concealed_n, m, &setup.meld_sizes, p, &setup.pair_sizes) {
                continue;
            }
            fits_any = true;
            let (mu, pu) = (m as usize, p as usize);
            if !ctx.tables.core_can_split(&counts, 0, mu, pu).map_err(|e| Fallback(e.to_string()))? {
                continue;
            }
            let limit = if input.charge_splits { setup.split_limit.min(budget.work.max(0) as usize) } else { setup.split_limit };
            let found = ctx.tables.core_splits_plain_into(&counts, mu, pu, limit, &mut flat).map_err(|e| Fallback(e.to_string()))?;
            if found > limit {
                if !input.charge_splits {
                    return Err(fallback("more splits than one hand reads"));
                }
                return Ok(Found::Refused(setup.limit_sentence.clone()));
            }
            if input.charge_splits {
                budget.work -= found as i64;
                if budget.work < 0 {
                    return Ok(Found::Refused(setup.limit_sentence.clone()));
                }
            }
            let width = mu + pu;
            for i in 0..found {
                plain(ctx, input, fi, f, &flat[i * width..(i + 1) * width], &exposed, budget, waits, st, &mut out)?;
            }
        }
    }
    budget.work -= out.len() as i64 * setup.reading_work;
    if budget.work < 0 {
        return Ok(Found::Refused(setup.limit_sentence.clone()));
    }
    if !fits_any {
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

/// Python `_readings_plain`: the readings of one split, the winning tile in each group that can hold
/// it (a group identical to one tried already is not tried again).
#[allow(clippy::too_many_arguments)]
pub(super) fn plain<'a>(
    ctx: &HandCtx<'a>,
    input: &'a HandInput,
    fi: usize,
    f: &FormSpec,
    split: &[u32],
    exposed: &[Group],
    budget: &mut Budget,
    waits: &mut dyn Waits,
    st: &mut WaitState,
    out: &mut Vec<RData>,
) -> Result<(), Fallback> {
    let setup = ctx.setup;
    let sg = |id: u32| setup.split_groups.get(id as usize).ok_or_else(|| fallback("a split group outside the tables"));
    let ne = exposed.len();
    // the groups without the winning tile; identical ones are one object (one identity) in the reference
    // with room for the split's groups at once (no regrowth item by item)
    let mut groups: Vec<Group> = Vec::with_capacity(ne + split.len());
    groups.extend_from_slice(exposed);
    let mut refs: Vec<GroupRef> = Vec::with_capacity(ne + split.len());
    refs.extend((0..ne).map(GroupRef::Declared));
    for (j, &id) in split.iter().enumerate() {
        let s = sg(id)?;
        let first = split[..j].iter().position(|&x| x == id).unwrap_or(j);
        groups.push(Group {
            kind: s.kind.clone(),
            tiles: s.tiles.clone(),
            exposed: false,
            concealed: true,
            pair: s.pair,
            kong: s.kong,
            has_win: false,
            value: s.value.clone().ok_or_else(|| fallback("a group's value the programs do not hold"))?,
            ident: (ne + first) as u16,
        });
        refs.push(GroupRef::Split { id, win_pos: -1, concealed: true });
    }
    let mut declared = vec![true; ne];
    declared.extend(std::iter::repeat_n(false, split.len()));
    let pair_when = ctx.program.form_conds.as_ref().ok().and_then(|c| c[fi].pair_when.as_ref());
    let any_pair = groups.iter().any(|g| g.pair);
    let vec_of = |r: &GroupRef, melds: &'a [super::MeldIn]| -> Option<&'a Vec<u64>> {
        match *r {
            GroupRef::Declared(i) => melds[i].vector.as_ref(),
            GroupRef::Split { id, win_pos, concealed } => {
                let v = &setup.split_groups[id as usize].vectors;
                (if win_pos < 0 { &v[0] } else if concealed { &v[1] } else { &v[2] }).as_ref()
            }
            GroupRef::Built(_) => None, // never among the groups of a split of natural tiles
        }
    };
    let pack = |refs: &[GroupRef]| -> Option<Vec<u8>> {
        if !setup.prefilter {
            return None;
        }
        packed(refs.iter().map(|r| vec_of(r, &input.melds)))
    };
    let mut keep = |r: RData, budget: &mut Budget, st: &mut WaitState| -> Result<(), Fallback> {
        if let (Some(node), true) = (pair_when, any_pair) {
            if !condition(ctx, node, &r, input, budget, waits, st)? {
                return Ok(());
            }
        }
        out.push(r);
        Ok(())
    };
    let Some(w) = input.win else {
        let pk = pack(&refs);
        let r = RData {
            form: fi,
            form_name: f.name.clone(),
            refs,
            groups,
            declared,
            listed: None,
            win_tile: V::None,
            win_group: V::None,
            packed: pk,
            built: Vec::new(),
        };
        return keep(r, budget, st);
    };
    let mut seen: Vec<u32> = Vec::new();
    for (gi, &id) in split.iter().enumerate() {
        let s = sg(id)?;
        let Some(ti) = s.kinds.iter().position(|&k| k == w) else { continue };
        if seen.contains(&id) {
            continue;
        }
        seen.push(id);
        let concealed = input.self_drawn || s.pair;
        let mut gs = groups.clone();
        let mut rf = refs.clone();
        let at = ne + gi;
        gs[at] = Group { concealed, has_win: true, ident: at as u16, ..groups[at].clone() };
        rf[at] = GroupRef::Split { id, win_pos: ti as i32, concealed };
        // a later group identical to this one keeps the identity of the first one without the tile
        let plain_first = (0..split.len()).find(|&j| j != gi && split[j] == id).map(|j| ne + j);
        for (j, g) in gs.iter_mut().enumerate().skip(ne) {
            if j != at && split[j - ne] == id {
                g.ident = plain_first.unwrap_or(j) as u16;
            }
        }
        let pk = pack(&rf);
        let r = RData {
            form: fi,
            form_name: f.name.clone(),
            refs: rf,
            groups: gs,
            declared: declared.clone(),
            listed: None,
            win_tile: V::Tile(setup.tile_codes[w]),
            win_group: V::Group(at as u16),
            packed: pk,
            built: Vec::new(),
        };
        keep(r, budget, st)?;
    }
    Ok(())
}
