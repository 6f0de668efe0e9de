//! Signature values and their joins (runtime/observe.py `canon`, `contribution`, `_make_join`): a
//! signature is one value per place, compared as the reference compares its tuples (`True == 1`,
//! numbers exact, a group by its identity, a bag by its items whatever their order). Within one
//! observer a tile's identity is what it plays as and whether a wildcard plays it (the wildcards'
//! physical tile is the observer's), and a group's is its meld kind, tiles, concealment and whether it
//! holds the winning tile (its value follows from its kind and tiles).

use std::cmp::Ordering;
use std::sync::Arc;

use crate::program::V;

/// A group's identity (`group_identity` with what is the same for every group of one observer left out).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub(crate) struct GroupId {
    pub kind: Arc<str>,
    pub tiles: Vec<(u32, bool)>, // sorted
    pub concealed: bool,
    pub pair: bool,
    pub kong: bool,
    pub has_win: bool,
}

#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub(crate) enum SVal {
    Absent, // a winning group's part or the first pair not given (None in the reference)
    Empty,  // max/min over no item yet
    None,
    Num(i64, i64), // numbers and truth values, reduced, denominator > 0
    Str(Arc<str>),
    Tile(u32, bool),
    Kind(u32), // a tile kind (a tile's `kind`), told apart from a reading's tile as the reference does
    Group(Arc<GroupId>),
    Tuple(Vec<SVal>), // a list, or a bag (its items sorted)
    Set(Vec<Arc<str>>), // suits, sorted and distinct
}

/// A value the observer cannot compare as the reference would: the reference is asked instead.
pub(crate) struct Unsure;

impl SVal {
    pub(crate) fn truth(b: bool) -> SVal {
        SVal::Num(b as i64, 1)
    }

    fn truthy(&self) -> bool {
        !matches!(self, SVal::Num(0, _))
    }
}

/// A program value as a signature value (`canon`); `group`: the identity of `V::Group(0)`.
pub(crate) fn canon(v: &V, group: Option<&Arc<GroupId>>) -> Result<SVal, Unsure> {
    Ok(match v {
        V::None => SVal::None,
        V::Bool(b) => SVal::truth(*b),
        V::Int(i) => SVal::Num(*i, 1),
        V::Rat(n, d) => SVal::Num(*n, *d),
        V::Str(s) => SVal::Str(s.clone()),
        V::Group(0) => SVal::Group(group.ok_or(Unsure)?.clone()),
        // a tile value may be a reading's tile or a kind (told apart by the reference): not here
        _ => return Err(Unsure),
    })
}

fn add(a: &SVal, b: &SVal) -> Result<SVal, Unsure> {
    let (SVal::Num(p, q), SVal::Num(r, s)) = (a, b) else { return Err(Unsure) };
    let (p, q, r, s) = (*p as i128, *q as i128, *r as i128, *s as i128);
    let n = p.checked_mul(s).and_then(|x| r.checked_mul(q).and_then(|y| x.checked_add(y))).ok_or(Unsure)?;
    let d = q.checked_mul(s).ok_or(Unsure)?;
    num(n, d)
}

pub(crate) fn num(n: i128, d: i128) -> Result<SVal, Unsure> {
    let g = crate::program::gcd(n, d).max(1);
    let (n, d) = (n / g, d / g);
    Ok(SVal::Num(i64::try_from(n).map_err(|_| Unsure)?, i64::try_from(d).map_err(|_| Unsure)?))
}

/// Python's ordering of two values where it has one (numbers, texts).
pub(crate) fn order(a: &SVal, b: &SVal) -> Result<Ordering, Unsure> {
    match (a, b) {
        (SVal::Num(p, q), SVal::Num(r, s)) => Ok((*p as i128 * *s as i128).cmp(&(*r as i128 * *q as i128))),
        (SVal::Str(x), SVal::Str(y)) => Ok(x.as_bytes().cmp(y.as_bytes())),
        _ => Err(Unsure),
    }
}

/// How two parts of one place join, a first (`_join_op`), and the part of no group (`_unit`).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Join {
    Add,
    Or,
    And,
    Union,
    Bag,
    Max,
    Min,
    First,
}

impl Join {
    pub(crate) fn of_func(f: &str) -> Join {
        match f {
            "count" | "sum" => Join::Add,
            "any" => Join::Or,
            "all" => Join::And,
            "max" => Join::Max,
            _ => Join::Min,
        }
    }

    pub(crate) fn unit(self) -> SVal {
        match self {
            Join::Add | Join::Or => SVal::Num(0, 1),
            Join::And => SVal::Num(1, 1),
            Join::Union => SVal::Set(Vec::new()),
            Join::Bag => SVal::Tuple(Vec::new()),
            Join::Max | Join::Min => SVal::Empty,
            Join::First => SVal::Absent,
        }
    }

    pub(crate) fn apply(self, a: &SVal, b: &SVal) -> Result<SVal, Unsure> {
        Ok(match self {
            Join::Add => add(a, b)?,
            Join::Or => SVal::truth(a.truthy() || b.truthy()),
            Join::And => SVal::truth(a.truthy() && b.truthy()),
            Join::Union => match (a, b) {
                (SVal::Set(x), SVal::Set(y)) => {
                    let mut s: Vec<Arc<str>> = x.iter().chain(y.iter()).cloned().collect();
                    s.sort();
                    s.dedup();
                    SVal::Set(s)
                }
                _ => return Err(Unsure),
            },
            Join::Bag => match (a, b) {
                (SVal::Tuple(x), SVal::Tuple(y)) => {
                    let mut s: Vec<SVal> = x.iter().chain(y.iter()).cloned().collect();
                    s.sort();
                    SVal::Tuple(s)
                }
                _ => return Err(Unsure),
            },
            Join::Max | Join::Min => match (a, b) {
                (SVal::Empty, y) => y.clone(),
                (x, SVal::Empty) => x.clone(),
                (x, y) => {
                    let o = order(y, x)?;
                    let take = if matches!(self, Join::Max) { o.is_gt() } else { o.is_lt() };
                    if take { y.clone() } else { x.clone() }
                }
            },
            Join::First => if matches!(a, SVal::Absent) { b.clone() } else { a.clone() },
        })
    }
}

/// The aggregate of an item's decided values (`_partial_part`'s and `_part`'s): None where the
/// reference raises `Unobservable` (a sum over what is not a number, an ordering it has not).
pub(crate) fn aggregate(func: &str, vals: &[V]) -> Result<Option<SVal>, Unsure> {
    Ok(Some(match func {
        "count" => SVal::Num(vals.iter().filter(|v| v.truthy()).count() as i64, 1),
        "any" => SVal::truth(vals.iter().any(V::truthy)),
        "all" => SVal::truth(vals.iter().all(V::truthy)),
        "sum" => {
            let mut t = SVal::Num(0, 1);
            for v in vals {
                if !matches!(v, V::Int(_) | V::Bool(_) | V::Rat(..)) {
                    return Ok(None);
                }
                t = add(&t, &canon(v, None)?)?;
            }
            t
        }
        _ => {
            let mut best: Option<SVal> = None;
            for v in vals {
                let c = canon(v, None)?;
                best = Some(match best {
                    None => c,
                    Some(b) => {
                        let o = order(&c, &b)?;
                        let take = if func == "max" { o.is_gt() } else { o.is_lt() };
                        if take { c } else { b }
                    }
                });
            }
            best.unwrap_or(SVal::Empty)
        }
    }))
}
