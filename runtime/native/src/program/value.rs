//! The values the programs compute with, and their arithmetic and comparison as the reference has them.

use super::*;

// ------------------------------------------------------------------ values

#[derive(Clone, Debug)]
pub enum V {
    None,
    Bool(bool),
    Int(i64),
    Rat(i64, i64), // reduced, denominator > 1
    Str(Arc<str>),
    Tile(u32), // kind << 2 | wild << 1 | physical joker
    Group(u16),
    List(Arc<Vec<V>>),
    Seat(u16), // a seat of the game (game scope), compared by index as the reference compares seats by identity
}

#[derive(Debug)]
pub enum Stop {
    Bail,           // the reference evaluates this reading
    NeedWaits,      // call again with the hand's waits
    NeedShapeWaits, // call again with the hand's shape waits
}

pub(crate) type R<T> = Result<T, Stop>;

pub(crate) fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// A rational from i128 parts, normalised (whole -> Int); out of i64 -> Bail.
pub(crate) fn rat(n: i128, d: i128) -> R<V> {
    if d == 0 {
        return Err(Stop::Bail);
    }
    let (mut n, mut d) = if d < 0 { (-n, -d) } else { (n, d) };
    let g = gcd(n, d);
    if g > 1 {
        n /= g;
        d /= g;
    }
    let n64 = i64::try_from(n).map_err(|_| Stop::Bail)?;
    if d == 1 {
        return Ok(V::Int(n64));
    }
    let d64 = i64::try_from(d).map_err(|_| Stop::Bail)?;
    Ok(V::Rat(n64, d64))
}

impl V {
    #[inline]
    pub(crate) fn truthy(&self) -> bool {
        match self {
            V::None => false,
            V::Bool(b) => *b,
            V::Int(i) => *i != 0,
            V::Rat(n, _) => *n != 0,
            V::Str(s) => !s.is_empty(),
            V::Tile(_) | V::Group(_) | V::Seat(_) => true,
            V::List(l) => !l.is_empty(),
        }
    }

    /// (numerator, denominator) of a number (bools are 0/1), None otherwise.
    pub(crate) fn num(&self) -> Option<(i128, i128)> {
        match self {
            V::Bool(b) => Some((*b as i128, 1)),
            V::Int(i) => Some((*i as i128, 1)),
            V::Rat(n, d) => Some((*n as i128, *d as i128)),
            _ => None,
        }
    }
}

#[inline]
pub(crate) fn kind_of(code: u32) -> u32 {
    code >> 2
}

#[inline]
pub fn equal(a: &V, b: &V) -> bool {
    match (a, b) {
        (V::Int(x), V::Int(y)) => x == y,
        (V::Bool(x), V::Bool(y)) => x == y,
        (V::None, V::None) => true,
        (V::Str(x), V::Str(y)) => Arc::ptr_eq(x, y) || x == y, // one kind's suit is one shared text
        (V::Tile(x), V::Tile(y)) => kind_of(*x) == kind_of(*y),
        (V::Group(x), V::Group(y)) => x == y, // identities
        (V::Seat(x), V::Seat(y)) => x == y,
        (V::List(x), V::List(y)) => x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| equal(p, q)),
        _ => match (a.num(), b.num()) {
            (Some((p, q)), Some((r, s))) => p * s == r * q,
            _ => false,
        },
    }
}

/// Python's ordering of two values, None where Python raises (or where lists would be compared).
pub fn order(a: &V, b: &V) -> Option<Ordering> {
    if let (V::Int(x), V::Int(y)) = (a, b) {
        return Some(x.cmp(y));
    }
    match (a.num(), b.num()) {
        (Some((p, q)), Some((r, s))) => Some((p * s).cmp(&(r * q))),
        _ => match (a, b) {
            (V::Str(x), V::Str(y)) => Some(x.as_bytes().cmp(y.as_bytes())), // UTF-8 order is code point order
            _ => None,
        },
    }
}

pub(crate) fn floor_div(n: i128, d: i128) -> i128 {
    let q = n / d;
    if n % d != 0 && ((n < 0) != (d < 0)) {
        q - 1
    } else {
        q
    }
}


pub(crate) const CN_DIGITS: [&str; 10] = ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九"];

pub(crate) fn cn(n: i64) -> String {
    if !(0..100).contains(&n) {
        return n.to_string();
    }
    if n < 10 {
        return CN_DIGITS[n as usize].to_owned();
    }
    let (tens, ones) = (n / 10, n % 10);
    let mut s = String::new();
    if tens != 1 {
        s.push_str(CN_DIGITS[tens as usize]);
    }
    s.push('十');
    if ones != 0 {
        s.push_str(CN_DIGITS[ones as usize]);
    }
    s
}

pub fn add(a: &V, b: &V) -> R<V> {
    arith(Op::Add, a, b)
}

pub fn mul(a: &V, b: &V) -> R<V> {
    arith(Op::Mul, a, b)
}

/// runtime/evaluate.py `power` (a count as the exponent), bounded as `^` is.
pub fn power(a: &V, n: i64) -> R<V> {
    arith(Op::Pow, a, &V::Int(n))
}

pub(crate) fn arith(op: Op, a: &V, b: &V) -> R<V> {
    if let (V::List(x), V::List(y), Op::Add) = (a, b, op) {
        let mut out = Vec::with_capacity(x.len() + y.len());
        out.extend(x.iter().cloned());
        out.extend(y.iter().cloned());
        return Ok(V::List(Arc::new(out)));
    }
    if let (V::Str(x), V::Str(y), Op::Add) = (a, b, op) {
        return Ok(V::Str(Arc::from(format!("{x}{y}"))));
    }
    // whole numbers added, taken or multiplied: the same result as the exact path below (an i64
    // overflow there is a result past i64 here), without the i128 gcd
    if let (V::Int(_) | V::Bool(_), V::Int(_) | V::Bool(_), Op::Add | Op::Sub | Op::Mul) = (a, b, op) {
        let whole = |v: &V| match v {
            V::Int(n) => *n,
            V::Bool(b) => *b as i64,
            _ => 0,
        };
        let (x, y) = (whole(a), whole(b));
        let got = match op {
            Op::Add => x.checked_add(y),
            Op::Sub => x.checked_sub(y),
            _ => x.checked_mul(y),
        };
        return got.map(V::Int).ok_or(Stop::Bail);
    }
    let (Some((p, q)), Some((r, s))) = (a.num(), b.num()) else { return Err(Stop::Bail) };
    let mul = |x: i128, y: i128| x.checked_mul(y).ok_or(Stop::Bail);
    match op {
        Op::Add => rat(mul(p, s)?.checked_add(mul(r, q)?).ok_or(Stop::Bail)?, mul(q, s)?),
        Op::Sub => rat(mul(p, s)?.checked_sub(mul(r, q)?).ok_or(Stop::Bail)?, mul(q, s)?),
        Op::Mul => rat(mul(p, r)?, mul(q, s)?),
        Op::Div => {
            if r == 0 {
                return Err(Stop::Bail);
            }
            rat(mul(p, s)?, mul(q, r)?)
        }
        Op::FloorDiv => {
            if r == 0 {
                return Err(Stop::Bail);
            }
            let (n, d) = (mul(p, s)?, mul(q, r)?);
            i64::try_from(floor_div(n, d)).map(V::Int).map_err(|_| Stop::Bail)
        }
        Op::Mod => {
            if r == 0 {
                return Err(Stop::Bail);
            }
            // a - b * floor(a / b), exactly
            let fl = floor_div(mul(p, s)?, mul(q, r)?);
            let bf = (mul(r, fl)?, s); // b * floor
            rat(mul(p, bf.1)?.checked_sub(mul(bf.0, q)?).ok_or(Stop::Bail)?, mul(q, bf.1)?)
        }
        Op::Pow => {
            // int(b): truncated toward zero
            let e = r / s;
            let base_small = q == 1 && (-1..=1).contains(&p);
            if e.abs() > 1000 && !base_small {
                return Err(Stop::Bail);
            }
            if p == 0 && e < 0 {
                return Err(Stop::Bail);
            }
            if base_small {
                return Ok(V::Int(match p {
                    0 => (e == 0) as i64,
                    1 => 1,
                    _ => if e % 2 == 0 { 1 } else { -1 },
                }));
            }
            let (mut n, mut d) = (1i128, 1i128);
            let (bn, bd) = if e < 0 { (q, p) } else { (p, q) };
            for _ in 0..e.abs() {
                n = n.checked_mul(bn).ok_or(Stop::Bail)?;
                d = d.checked_mul(bd).ok_or(Stop::Bail)?;
                if n.abs() > i64::MAX as i128 || d.abs() > i64::MAX as i128 {
                    return Err(Stop::Bail);
                }
            }
            rat(n, d)
        }
    }
}

pub(crate) fn compare(op: Cmp, a: &V, b: &V) -> R<bool> {
    match op {
        Cmp::Eq => Ok(equal(a, b)),
        Cmp::Ne => Ok(!equal(a, b)),
        Cmp::In | Cmp::NotIn => {
            let inside = match (a, b) {
                (_, V::List(items)) => items.iter().any(|x| equal(a, x)),
                (V::Str(x), V::Str(y)) => y.contains(&**x),
                _ => return Err(Stop::Bail),
            };
            Ok(inside == matches!(op, Cmp::In))
        }
        _ => {
            if matches!(a, V::None) || matches!(b, V::None) {
                return Ok(false);
            }
            let ord = order(a, b).ok_or(Stop::Bail)?;
            Ok(match op {
                Cmp::Lt => ord.is_lt(),
                Cmp::Le => ord.is_le(),
                Cmp::Gt => ord.is_gt(),
                _ => ord.is_ge(),
            })
        }
    }
}
