//! What both evaluators of the lowered trees share (the pattern programs' `Eval` and the game scope's,
//! engine/values.rs): a group's fields, the pure functions, the combination step of comprehensions.

use super::*;

pub(crate) fn is_run(kind_rank: &[i64], kind_suit: &[Option<Arc<str>>], g: &Group) -> bool {
    let t = &g.tiles;
    if t.len() < 3 {
        return false;
    }
    let kind = |x: &V| if let V::Tile(c) = x { kind_of(*c) as usize } else { 0 };
    let suit = &kind_suit[kind(&t[0])];
    if suit.is_none() || t.iter().any(|x| &kind_suit[kind(x)] != suit) {
        return false;
    }
    // the ranks sorted, on the stack for the groups readings make (a few tiles)
    let mut buf = [0i64; 16];
    let mut heap = Vec::new();
    let ranks: &mut [i64] = if t.len() <= buf.len() {
        for (r, x) in buf.iter_mut().zip(t.iter()) {
            *r = kind_rank[kind(x)];
        }
        &mut buf[..t.len()]
    } else {
        heap.extend(t.iter().map(|x| kind_rank[kind(x)]));
        &mut heap
    };
    ranks.sort_unstable();
    ranks.windows(2).all(|w| w[1] == w[0] + 1)
}

pub(crate) fn is_triplet(g: &Group) -> bool {
    let t = &g.tiles;
    t.len() >= 3 && t.iter().all(|x| match (x, &t[0]) {
        (V::Tile(a), V::Tile(b)) => kind_of(*a) == kind_of(*b),
        _ => false,
    })
}

/// Every field of group g, in GROUP_FIELDS order, as runtime/reading.py `Group.field` gives them (the
/// kinds' ranks and suits by catalog index).
pub(crate) fn group_fields(kind_rank: &[i64], kind_suit: &[Option<Arc<str>>], g: &Group) -> Vec<V> {
    let mut out = Vec::with_capacity(GROUP_FIELDS.len());
    group_fields_into(kind_rank, kind_suit, g, &mut out);
    out
}

/// `group_fields` appended to `out`.
pub(crate) fn group_fields_into(kind_rank: &[i64], kind_suit: &[Option<Arc<str>>], g: &Group, out: &mut Vec<V>) {
    let t = &g.tiles;
    let kind = |x: &V| if let V::Tile(c) = x { kind_of(*c) as usize } else { 0 };
    let ranks = t.iter().map(|x| kind_rank[kind(x)]);
    // min by kind index: the first of the lowest
    let mut tile: Option<&V> = None;
    for x in t.iter() {
        match (tile, x) {
            (None, _) => tile = Some(x),
            (Some(V::Tile(b)), V::Tile(c)) if kind_of(*c) < kind_of(*b) => tile = Some(x),
            _ => {}
        }
    }
    let rank = V::Int(ranks.clone().min().unwrap_or(0));
    out.extend([
        V::Str(g.kind.clone()),
        V::Int(t.len() as i64),
        V::List(t.clone()),
        tile.cloned().unwrap_or(V::None),
        match t.first() {
            Some(x) => kind_suit[kind(x)].clone().map(V::Str).unwrap_or(V::None),
            None => V::None,
        },
        rank.clone(),
        rank,
        V::Int(ranks.max().unwrap_or(0)),
        V::Bool(is_run(kind_rank, kind_suit, g)),
        V::Bool(is_triplet(g)),
        V::Bool(g.kong),
        V::Bool(g.pair),
        V::Bool(g.exposed),
        V::Bool(g.concealed),
        g.value.clone(),
        V::Int(t.iter().filter(|x| matches!(x, V::Tile(c) if c & 2 != 0)).count() as i64),
        V::Bool(g.has_win),
    ]);
}

/// A pure function on its arguments' values (`b`: the second, for `max` and `min`), as the reference's
/// built-ins compute it; shared with the game scope (engine/values.rs).
pub(crate) fn apply(func: Func, a: V, b: Option<V>) -> R<V> {
    match func {
        Func::Len => match &a {
            V::List(l) => Ok(V::Int(l.len() as i64)),
            V::Str(s) => Ok(V::Int(s.chars().count() as i64)),
            _ => Err(Stop::Bail),
        },
        Func::Distinct => match &a {
            V::List(l) => {
                let mut out: Vec<V> = Vec::with_capacity(l.len()); // at most every item: no regrowth
                // a list of tiles alone (as a hand is): `equal` compares their kinds, so a set of the
                // kinds seen keeps the same first tile of each (no pairwise comparisons)
                if l.iter().all(|x| matches!(x, V::Tile(c) if kind_of(*c) < 128)) {
                    let mut seen = 0u128;
                    for x in l.iter() {
                        if let V::Tile(c) = x {
                            let bit = 1u128 << kind_of(*c);
                            if seen & bit == 0 {
                                seen |= bit;
                                out.push(x.clone());
                            }
                        }
                    }
                    return Ok(V::List(Arc::new(out)));
                }
                for x in l.iter() {
                    if !out.iter().any(|y| equal(x, y)) {
                        out.push(x.clone());
                    }
                }
                Ok(V::List(Arc::new(out)))
            }
            _ => Err(Stop::Bail),
        },
        Func::Abs => match a {
            V::Bool(b) => Ok(V::Int(b as i64)),
            V::Int(n) => n.checked_abs().map(V::Int).ok_or(Stop::Bail),
            V::Rat(n, d) => n.checked_abs().map(|n| V::Rat(n, d)).ok_or(Stop::Bail),
            _ => Err(Stop::Bail),
        },
        Func::Floor => match a.num() {
            Some((n, d)) => i64::try_from(floor_div(n, d)).map(V::Int).map_err(|_| Stop::Bail),
            None => Err(Stop::Bail),
        },
        Func::Max | Func::Min => {
            let b = b.ok_or(Stop::Bail)?;
            // Python's max(a, b) keeps a unless b > a; min(a, b) keeps a unless b < a
            let ord = order(&b, &a).ok_or(Stop::Bail)?;
            let take_b = if matches!(func, Func::Max) { ord.is_gt() } else { ord.is_lt() };
            Ok(if take_b { b } else { a })
        }
        Func::Cn => match a {
            V::Bool(b) => Ok(V::Str(Arc::from(cn(b as i64)))),
            V::Int(n) => Ok(V::Str(Arc::from(cn(n)))),
            V::Rat(n, d) => Ok(V::Str(Arc::from(cn(n / d)))),
            _ => Err(Stop::Bail),
        },
    }
}

/// How many items `distinct` keeps of l (`apply`'s `Distinct`, counted without the list).
pub(crate) fn distinct_len(l: &[V]) -> usize {
    // tiles alone: one per kind seen (`equal` compares their kinds), as `apply` keeps them
    let mut seen = 0u128;
    for x in l {
        match x {
            V::Tile(c) if kind_of(*c) < 128 => seen |= 1u128 << kind_of(*c),
            _ => {
                let mut kept: Vec<&V> = Vec::with_capacity(l.len());
                for x in l {
                    if !kept.iter().any(|y| equal(x, y)) {
                        kept.push(x);
                    }
                }
                return kept.len();
            }
        }
    }
    seen.count_ones() as usize
}

/// The next combination of `idx.len()` indices out of n (itertools.combinations order), in place;
/// false after the last.
pub(crate) fn next_combination(idx: &mut [usize], n: usize) -> bool {
    let k = idx.len();
    let mut j = k;
    loop {
        if j == 0 {
            return false;
        }
        j -= 1;
        if idx[j] != j + n - k {
            break;
        }
    }
    idx[j] += 1;
    for t in j + 1..k {
        idx[t] = idx[t - 1] + 1;
    }
    true
}
