//! The melds a seat can lay down (runtime/game/moves.py `meld_options`, `Rules.meld_matches`): of one
//! kind, from its concealed tiles and optionally a tile it does not hold (a claimed discard, a robbed
//! kong tile, a turned card) — an upgrade of a meld it has (or of concealed tiles of a `hand` kind), a
//! growing kind formed anew or extended, any other kind formed anew from its shape. Tiles are catalog
//! indices; the usable tiles (`avail`) are (kind, count) in the order the hand first holds each kind, as
//! the reference's `Counter` over the hand, since the options come out in that order.

use std::borrow::Cow;
use std::sync::Arc;

use super::offer_rules::{ActionDef, KindDef, OfferRules};
use super::offers::{barred, refused, Bind, Ctx, Moves, Mv, Of, Why, R};
use super::state::{Seat, Value};
use super::table::Table;

mod fresh;
mod held;
use fresh::fresh;
use held::{claim_possible, fits_tiles, grow_possible, held_whole, same_possible};
pub(super) use held::{most_held, same_possible_with};

#[derive(Clone, Debug, PartialEq)]
pub struct MeldOption {
    pub kind: String,
    pub tiles: Vec<usize>,      // the whole meld, by catalog index
    pub from_hand: Vec<usize>,  // the tiles that leave the concealed hand
    pub extends: Option<usize>, // the seat's meld this one replaces (an upgrade or growth)
    pub key: usize,             // the tile the action uses (`tile` in guards)
}

pub fn count(avail: &[(usize, usize)], k: usize) -> usize {
    avail.iter().find(|(x, _)| *x == k).map_or(0, |(_, c)| *c)
}

fn sorted(mut v: Vec<usize>) -> Vec<usize> {
    v.sort_unstable();
    v
}

/// (kind, copies) of a list, in first-occurrence order (a `Counter`'s).
fn tally(tiles: &[usize]) -> Vec<(usize, i64)> {
    let mut out: Vec<(usize, i64)> = Vec::new();
    for &k in tiles {
        match out.iter_mut().find(|(x, _)| *x == k) {
            Some(e) => e.1 += 1,
            None => out.push((k, 1)),
        }
    }
    out
}

/// `Rules.meld_matches`: whether these tiles make a meld of the kind.
pub fn meld_matches(t: &Table, mk: &KindDef, tiles: &[usize]) -> bool {
    let s = &mk.shape;
    let n = tiles.len();
    if !(n == s.size || (mk.grows && s.size < n && n <= s.size + mk.grow_limit)) {
        return false;
    }
    let Some(&first) = tiles.first() else {
        return match s.kind.as_str() {
            "same" | "same_rank" => true,
            "tiles" => s.tiles.is_empty(),
            _ => false,
        };
    };
    match s.kind.as_str() {
        "same" => tiles.iter().all(|&x| x == first),
        "run" | "ranks" => {
            let Some(su) = t.suits.of[first] else { return false };
            if tiles.iter().any(|&x| t.suits.of[x] != Some(su)) {
                return false;
            }
            let mut ranks: Vec<i64> = tiles.iter().map(|&x| t.cat.kinds[x].rank).collect();
            ranks.sort_unstable();
            if s.kind == "run" {
                ranks.windows(2).all(|w| w[1] == w[0] + 1)
            } else {
                let mut want = s.ranks.clone();
                want.sort_unstable();
                ranks == want
            }
        }
        "tiles" => {
            // (the shape's tiles by kind, resolved once: kinds and their names are one to one)
            if let Some(ks) = &s.tile_kinds {
                let base = tally(ks);
                let got = tally(tiles);
                let of = |v: &[(usize, i64)], k: usize| v.iter().find(|(x, _)| *x == k).map_or(0, |(_, c)| *c);
                return if n > s.size {
                    base.iter().all(|&(k, c)| of(&got, k) >= c) && got.iter().all(|&(k, _)| of(&base, k) > 0)
                } else {
                    got.len() == base.len() && base.iter().all(|&(k, c)| of(&got, k) == c)
                };
            }
            let mut base: Vec<(&str, i64)> = Vec::new();
            for name in &s.tiles {
                match base.iter_mut().find(|(x, _)| *x == name.as_str()) {
                    Some(e) => e.1 += 1,
                    None => base.push((name.as_str(), 1)),
                }
            }
            let got: Vec<(&str, i64)> = tally(tiles)
                .into_iter()
                .map(|(k, c)| (t.names[k].as_str(), c))
                .collect();
            let of = |v: &[(&str, i64)], k: &str| v.iter().find(|(x, _)| *x == k).map_or(0, |(_, c)| *c);
            if n > s.size {
                base.iter().all(|(k, c)| of(&got, k) >= *c) && got.iter().all(|(k, _)| of(&base, k) > 0)
            } else {
                got.len() == base.len() && base.iter().all(|(k, c)| of(&got, k) == *c)
            }
        }
        "same_rank" => {
            let r = t.cat.kinds[first].rank;
            if tiles.iter().any(|&x| t.suits.of[x].is_none() || t.cat.kinds[x].rank != r) {
                return false;
            }
            let mut suits: Vec<Option<u16>> = tiles.iter().map(|&x| t.suits.of[x]).collect();
            suits.sort_unstable();
            suits.dedup();
            !s.mixed || suits.len() > 1
        }
        _ => false,
    }
}

/// `meld_options`: every distinct meld of kind `mk` the seat can make (with `required` in it when given),
/// from the usable concealed tiles `avail`.
pub fn meld_options(
    t: &Table,
    rules: &OfferRules,
    seat: &Seat,
    mk: &KindDef,
    required: Option<usize>,
    avail: &[(usize, usize)],
) -> Vec<MeldOption> {
    let s = &mk.shape;
    let growing = !mk.upgrades.is_empty() || mk.grows;
    if !growing {
        if s.kind == "same" {
            if let Some(r) = required {
                if (count(avail, r) as i64) < s.size as i64 - 1 {
                    return Vec::new();
                }
            } else if !held_whole(s, avail) {
                return Vec::new();
            }
        } else if s.kind == "run" {
            if let Some(r) = required {
                let Some(su) = t.suits.of[r] else { return Vec::new() };
                // a run with r takes size - 1 more tiles of r's suit, of ranks other than r's and within
                // size - 1 of it, from the hand: fewer such kinds held, no option (`fresh` finds none)
                let rank = t.cat.kinds[r].rank;
                let near = avail
                    .iter()
                    .filter(|&&(k, c)| {
                        let x = &t.cat.kinds[k];
                        c > 0 && x.rank != rank && (x.rank - rank).unsigned_abs() < s.size as u64 && t.suits.of[k] == Some(su)
                    })
                    .count();
                if near + 1 < s.size {
                    return Vec::new();
                }
            }
        } else if s.kind == "ranks" {
            if let Some(r) = required {
                // `fresh` proposes the shape's ranks in r's suit when r's rank is one of them; each other
                // rank's kind is then needed from the hand: one not in the suit or not held, no option
                let Some(su) = t.suits.of[r] else { return Vec::new() };
                let rank = t.cat.kinds[r].rank;
                if !s.ranks.contains(&rank) {
                    return Vec::new();
                }
                let ranks_of = &t.suits.ranks[su as usize];
                for &x in s.ranks.iter().filter(|&&x| x != rank) {
                    match ranks_of.iter().find(|(y, _)| *y == x) {
                        Some(&(_, k)) if count(avail, k) > 0 => {}
                        _ => return Vec::new(),
                    }
                }
            }
        } else if s.kind == "same_rank" {
            if let Some(r) = required {
                // every candidate is r and size - 1 more tiles of r's rank (in suits): fewer held, none fits
                if t.suits.truthy_of(r).is_none() {
                    return Vec::new();
                }
                let rank = t.cat.kinds[r].rank;
                let held: usize = avail
                    .iter()
                    .filter(|&&(k, _)| t.suits.truthy_of(k).is_some() && t.cat.kinds[k].rank == rank)
                    .map(|&(_, c)| c)
                    .sum();
                if held + 1 < s.size {
                    return Vec::new();
                }
            }
        }
    }
    let mut out: Vec<MeldOption> = Vec::new();
    let add = |out: &mut Vec<MeldOption>, o: MeldOption| {
        if !out
            .iter()
            .any(|x| x.kind == o.kind && x.tiles == o.tiles && x.extends == o.extends)
        {
            out.push(o);
        }
    };
    let fits = |need: &[(usize, i64)]| need.iter().all(|&(k, c)| count(avail, k) as i64 >= c);
    let from_hand = |need: &[(usize, i64)]| -> Vec<usize> {
        sorted(
            need.iter()
                .flat_map(|&(k, c)| std::iter::repeat_n(k, c.max(0) as usize))
                .collect(),
        )
    };
    // (the tiles a growing kind's melds may take, asked only of a seat holding a meld it grows from)
    let grows_from = |m: &super::state::Meld| if mk.upgrades.is_empty() { m.kind == mk.name } else { mk.upgrades.contains(&m.kind) };
    if growing {
        let adds: Vec<usize> = match required {
            Some(r) => vec![r],
            None if !seat.melds.iter().any(grows_from) => Vec::new(),
            None => {
                // (only a kind that can join a meld, before the sort: a `same` meld's own kind, one of a
                // `tiles` shape's tiles — `meld_matches` refuses any other)
                let joins = |k: usize| match (s.kind.as_str(), &s.tile_kinds) {
                    ("same", _) => seat.melds.iter().any(|m| grows_from(m) && m.tiles.first() == Some(&k)),
                    ("tiles", Some(ks)) => ks.contains(&k),
                    _ => true,
                };
                let mut v: Vec<usize> = avail.iter().map(|(k, _)| *k).filter(|&k| joins(k)).collect();
                v.sort_by(|a, b| t.names[*a].cmp(&t.names[*b]));
                v
            }
        };
        for (i, m) in seat.melds.iter().enumerate() {
            if !grows_from(m) {
                continue;
            }
            for &x in &adds {
                if s.kind == "same" && m.tiles.first() != Some(&x) {
                    continue;
                }
                let mut tiles = m.tiles.clone();
                tiles.push(x);
                if meld_matches(t, mk, &tiles) {
                    let fh = if required.is_some() { Vec::new() } else { vec![x] };
                    add(
                        &mut out,
                        MeldOption {
                            kind: mk.name.clone(),
                            tiles: sorted(tiles),
                            from_hand: fh,
                            extends: Some(i),
                            key: x,
                        },
                    );
                }
            }
        }
        if !mk.upgrades.is_empty() {
            // (the kinds upgraded from concealed tiles looked up only for a hand `fresh` proposes any of)
            // (a `same` shape's one candidate with r needs size - 1 of r held: fewer, it is not fitted)
            // (without one, `fresh` proposes only the kinds held `size` times: none held, no candidate)
            let hopeless = s.kind == "same"
                && match required {
                    Some(r) => count(avail, r) + 1 < s.size,
                    None => !held_whole(s, avail),
                };
            let mut cands: Vec<Vec<usize>> = Vec::new();
            if !hopeless {
                fresh(t, s, avail, required, &mut |c| cands.push(c.to_vec()));
            }
            let concealed: Vec<&KindDef> = if cands.is_empty() {
                Vec::new()
            } else {
                mk.upgrades.iter().filter_map(|u| rules.kind(u)).filter(|k| k.hand).collect()
            };
            if !concealed.is_empty() {
                for tiles in cands {
                    let mut need = tally(&tiles);
                    if let Some(r) = required {
                        match need.iter_mut().find(|(k, _)| *k == r) {
                            Some(e) => e.1 -= 1,
                            None => need.push((r, -1)),
                        }
                    }
                    if !fits(&need) {
                        continue;
                    }
                    let added: Vec<usize> = match required {
                        Some(r) => vec![r],
                        None => tally(&tiles).into_iter().map(|(k, _)| k).collect(),
                    };
                    for x in added {
                        let mut rest = tiles.clone();
                        if let Some(p) = rest.iter().position(|&y| y == x) {
                            rest.remove(p);
                        } else {
                            continue; // the reference's `list.remove` raises: no such option
                        }
                        if concealed.iter().any(|k| meld_matches(t, k, &rest)) {
                            add(
                                &mut out,
                                MeldOption {
                                    kind: mk.name.clone(),
                                    tiles: sorted(tiles.clone()),
                                    from_hand: from_hand(&need),
                                    extends: None,
                                    key: x,
                                },
                            );
                            break;
                        }
                    }
                }
            }
            return out;
        }
    }
    if let (None, "tiles", Some(ks)) = (required, s.kind.as_str(), &s.tile_kinds) {
        // `fresh` proposes the shape's tiles alone: too few of them held, `fits` refuses it
        if !ks.iter().all(|&k| ks.iter().filter(|&&x| x == k).count() <= count(avail, k)) {
            return out;
        }
    }
    fresh(t, s, avail, required, &mut |tiles| {
        // (the counts checked before anything is made for the candidate: most fail them)
        if !fits_tiles(avail, tiles, required) {
            return;
        }
        // (the tiles by kind less one required, sorted: the candidate's own tiles sorted, one r out)
        let tiles = sorted(tiles.to_vec());
        let mut from_hand = tiles.clone();
        if let Some(p) = required.and_then(|r| from_hand.iter().position(|&x| x == r)) {
            from_hand.remove(p);
        }
        let key = required.unwrap_or_else(|| *tiles.first().unwrap_or(&0));
        add(
            &mut out,
            MeldOption {
                kind: mk.name.clone(),
                tiles,
                from_hand,
                extends: None,
                key,
            },
        );
    });
    out
}

/// How many barred kinds `unusable_form` keeps for a decision (a larger set is worked out where asked).
const KEPT_KINDS: usize = 4;

/// A set of a form's barred wildcards (by index into `rules.wilds`) and the kinds they stand for at one
/// decision (`Ctx::unusable_kept`).
pub(super) struct KeptKinds<'a> {
    wilds: &'a [usize],
    len: usize,
    kinds: [usize; KEPT_KINDS],
}

/// The meld moves of a decision (offers.py `_meld_moves` and what it asks: the wildcards a meld may not
/// use, the usable tiles, the options a kind's `grow` allows, one kind per set of tiles).
impl Ctx<'_> {
    /// `_unusable`: the wildcard kinds barred from this action's melds of this kind.
    pub(super) fn unusable(&self, a: &ActionDef, kind: &str) -> Vec<usize> {
        self.wild_kinds(barred(&self.o.rules, a, kind))
    }

    /// `unusable` of action `i`'s meld form `fi` (its wildcards found once, `Offers::form_wilds`; their
    /// kinds lent where none is a reveal's, `Offers::form_barred`).
    /// A set naming a reveal is kept for the decision (the first asked: most rule sets bar one set of
    /// wildcards from all their melds), so a claim's seats and forms do not each look the reveal up.
    pub(super) fn unusable_form(&self, i: usize, fi: usize) -> Cow<'_, [usize]> {
        if let Some(kinds) = &self.o.form_barred[i][fi] {
            return Cow::Borrowed(kinds);
        }
        let wilds = self.o.form_wilds[i][fi].as_slice();
        let kept = self.unusable_kept.get_or_init(|| {
            let mut k = KeptKinds { wilds, len: 0, kinds: [0; KEPT_KINDS] };
            for kind in wilds.iter().filter_map(|&j| self.wild_kind(j)) {
                *k.kinds.get_mut(k.len)? = kind;
                k.len += 1;
            }
            Some(k)
        });
        match kept {
            Some(k) if k.wilds == wilds => Cow::Borrowed(&k.kinds[..k.len]),
            _ => Cow::Owned(self.wild_kinds(wilds.iter().copied())),
        }
    }

    /// The kinds these wildcards (by index into `rules.wilds`) stand for now: a kind's name, or a reveal's.
    fn wild_kinds(&self, wilds: impl IntoIterator<Item = usize>) -> Vec<usize> {
        wilds.into_iter().filter_map(|j| self.wild_kind(j)).collect()
    }

    /// The kind wildcard j stands for now (none for a reveal not made).
    fn wild_kind(&self, j: usize) -> Option<usize> {
        match self.o.wild_tiles[j] {
            Some(k) => Some(k),
            None => match super::state::get(&self.st.reveals, &self.o.rules.wilds[j].tiles) {
                Some(Value::Tile(k)) => Some(*k),
                _ => None,
            },
        }
    }

    /// `_avail`: the usable concealed tiles, (kind, count) in the order the hand first holds them (with
    /// no kind barred, worked out once a decision and lent).
    /// With kinds barred, the same list without them (the order of the kinds left is unchanged): borrowed
    /// where the seat holds none of them, else kept for the first such set asked (`avail_less`).
    pub(super) fn avail(&self, seat: usize, unusable: &[usize]) -> Cow<'_, [(usize, usize)]> {
        let Some(kept) = self.kept(seat) else {
            return Cow::Owned(self.avail_of(seat, unusable));
        };
        let all = &kept.all;
        if unusable.is_empty() {
            return Cow::Borrowed(all.get_or_init(|| self.avail_of(seat, &[])));
        }
        // the whole list only where it is made already: making it to filter it costs two passes where a
        // seat's claims are asked once (most four-seat tables), one pass is `avail_of` with the bar
        if let Some(all) = all.get() {
            if !all.iter().any(|(k, _)| unusable.contains(k)) {
                return Cow::Borrowed(all);
            }
        }
        let (key, less) = kept.less.get_or_init(|| (unusable.to_vec(), self.avail_of(seat, unusable)));
        if key.as_slice() == unusable {
            return Cow::Borrowed(less);
        }
        Cow::Owned(self.avail_of(seat, unusable))
    }

    fn avail_of(&self, seat: usize, unusable: &[usize]) -> Vec<(usize, usize)> {
        let hand = &self.st.seats[seat].hand;
        let mut out: Vec<(usize, usize)> = Vec::with_capacity(hand.len());
        // each kind's place in `out` by kind (kinds in the order first held), not searched for per tile
        const FEW: usize = 256;
        let mut at = [u8::MAX; FEW];
        for &k in hand {
            if unusable.contains(&k) {
                continue;
            }
            if k < FEW && hand.len() < u8::MAX as usize {
                match at[k] {
                    u8::MAX => {
                        at[k] = out.len() as u8;
                        out.push((k, 1));
                    }
                    i => out[i as usize].1 += 1,
                }
                continue;
            }
            match out.iter_mut().find(|(x, _)| *x == k) {
                Some(e) => e.1 += 1,
                None => out.push((k, 1)),
            }
        }
        out
    }

    /// `_grown`: the options of a growing kind the action's `grow` allows.
    pub(super) fn grown(a: &ActionDef, grows: bool, opts: Vec<MeldOption>) -> Vec<MeldOption> {
        if !grows || a.grow == "any" {
            return opts;
        }
        let extend = a.grow == "extend";
        opts.into_iter().filter(|o| o.extends.is_some() == extend).collect()
    }

    /// A kind's declared value for the option's suit (`_meld_value`).
    pub(super) fn meld_value(&self, o: &MeldOption) -> R<(i64, i64)> {
        let Some(mk) = self.o.rules.kind(&o.kind) else {
            return Err(Why::Stop);
        };
        let su = o.tiles.first().and_then(|&k| self.t.cat.kinds[k].suit.clone());
        let chosen = mk
            .values
            .iter()
            .find(|(s, _)| Some(s) == su.as_ref())
            .or_else(|| mk.values.iter().find(|(s, _)| s.is_empty()));
        match chosen {
            None => Ok((0, 1)),
            Some((_, Some(v))) => Ok(*v),
            Some((_, None)) => refused("a meld kind's value that is not a number"),
        }
    }

    /// `_one_kind`: of options laying down the same tiles in the same place as several kinds, those of
    /// the highest value (only an action forming several kinds can offer the same tiles twice).
    pub(super) fn one_kind(&self, a: &ActionDef, opts: Vec<MeldOption>) -> R<Vec<MeldOption>> {
        if a.forms.len() <= 1 {
            return Ok(opts);
        }
        let vals: Vec<(i64, i64)> = opts.iter().map(|o| self.meld_value(o)).collect::<R<_>>()?;
        let gt = |x: (i64, i64), y: (i64, i64)| (x.0 as i128) * (y.1 as i128) > (y.0 as i128) * (x.1 as i128);
        let mut keep = Vec::new();
        for (i, o) in opts.iter().enumerate() {
            let best = opts
                .iter()
                .zip(&vals)
                .filter(|(p, _)| p.tiles == o.tiles && p.extends == o.extends)
                .any(|(_, v)| gt(*v, vals[i]));
            if !best {
                keep.push(o.clone());
            }
        }
        Ok(keep)
    }

    pub(super) fn meld_move(&self, i: usize, o: &MeldOption) -> (Mv, Of) {
        self.meld_move_owned(i, o.clone())
    }

    /// `meld_move` of an option no longer needed: moved into the move's record, not copied.
    fn meld_move_owned(&self, i: usize, o: MeldOption) -> (Mv, Of) {
        let a = self.action(i);
        let meld = if a.forms.len() > 1 { Some(o.kind.as_str().into()) } else { None };
        (
            Mv {
                action: self.o.act(i),
                tiles: o.tiles.as_slice().into(),
                choice: None,
                meld,
            },
            Of {
                action: Some(i),
                compulsory: a.compulsory,
                meld: true,
                win: false,
                opt: Some(Arc::new(o)),
                won: None,
            },
        )
    }

    /// `_meld_moves`.
    pub(super) fn meld_moves(&self, i: usize, seat: usize, required: Option<usize>, bind: &Bind) -> R<Moves> {
        let a = self.action(i);
        let s = &self.st.seats[seat];
        let mut found = Vec::new();
        let mut checked = false;
        for (fi, kind) in self.o.form_kinds[i].iter().enumerate() {
            let Some(mk) = kind.map(|x| &self.o.rules.kinds[x]) else { continue };
            // (a turn's `same` meld is read off the raw hand first: the usable tiles and the barred kinds
            // are not worked out for a seat that can make none, as at most turns)
            if required.is_none() && mk.shape.kind == "same" && !same_possible(s, mk) {
                continue;
            }
            let unusable = self.unusable_form(i, fi);
            // (a claim's counts read off the hand: the usable tiles are not worked out for a seat
            // holding too few of r or of its neighbours, most seats at most claims)
            if required.is_some_and(|r| !claim_possible(self.t, s, mk, r, &unusable))
                || !grow_possible(s, mk, &a.grow, required, &unusable)
            {
                continue;
            }
            let avail = self.avail(seat, &unusable);
            let opts = Self::grown(
                a,
                mk.grows,
                meld_options(self.t, &self.o.rules, s, mk, required, &avail),
            );
            for o in opts {
                if required.is_none()
                    && (!self.holds(a.when, seat, Some(o.key), bind, None)?
                        || self.restricted(&a.name, seat, Some(o.key))?)
                {
                    continue;
                }
                found.push(o);
            }
            // a claim's guard read once its first option is found (the reference reads it after all the
            // forms, when there is any): where it refuses, the other forms are not worked out
            if let (Some(r), false, false) = (required, checked, found.is_empty()) {
                if !self.holds(a.when, seat, Some(r), bind, None)? || self.restricted(&a.name, seat, Some(r))? {
                    return Ok(Vec::new());
                }
                checked = true;
            }
        }
        if required.is_some() && found.is_empty() {
            return Ok(Vec::new());
        }
        Ok(self.one_kind(a, found)?.into_iter().map(|o| self.meld_move_owned(i, o)).collect())
    }
}
