//! The part of the expression language the tile catalog needs (kind `enabled` / `copies`, computed
//! attributes, setting defaults): literals, names of settings, suits and tiles, fields of the tile `t`,
//! comparisons, `and`/`or`/`not`, integer arithmetic, `if`. Values follow the reference
//! (runtime/evaluate.py): `True == 1`, a tile equals only the same tile, `none` compares unequal and
//! never orders. A construct outside this part is `Error::NotCovered`: the rule set then stays on the
//! Python backend, which evaluates everything.

use std::collections::HashMap;

use serde_json::Value as J;

use crate::Error;

#[derive(Clone, Debug)]
pub enum Val {
    None,
    Bool(bool),
    Int(i64),
    Str(String),
    Tile(usize), // an index into the rule set's declared kinds
    List(Vec<Val>),
}

impl Val {
    pub fn truthy(&self) -> bool {
        match self {
            Val::None => false,
            Val::Bool(b) => *b,
            Val::Int(i) => *i != 0,
            Val::Str(s) => !s.is_empty(),
            Val::Tile(_) => true,
            Val::List(l) => !l.is_empty(),
        }
    }

    fn number(&self) -> Option<i64> {
        match self {
            Val::Bool(b) => Some(*b as i64),
            Val::Int(i) => Some(*i),
            _ => None,
        }
    }
}

pub fn equal(a: &Val, b: &Val) -> bool {
    match (a, b) {
        (Val::None, Val::None) => true,
        (Val::Str(x), Val::Str(y)) => x == y,
        (Val::Tile(x), Val::Tile(y)) => x == y,
        (Val::List(x), Val::List(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equal(p, q)),
        _ => match (a.number(), b.number()) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        },
    }
}

/// What a name or a field of a tile evaluates to; supplied by the catalog being built.
pub trait Scope {
    fn setting(&self, reference: &str) -> Option<Val>;
    fn tile(&self, name: &str) -> Option<Val>;
    fn current(&self) -> Option<usize>;
    fn field(&self, tile: usize, name: &str) -> Result<Val, Error>;
    /// A built-in name other than `t` (the game engine's bindings, such as `tile`); None: not covered.
    fn builtin(&self, _reference: &str) -> Option<Val> {
        None
    }
}

fn not_covered(what: &str) -> Error {
    Error::NotCovered(format!("the native catalog does not evaluate {what}"))
}

fn text<'a>(e: &'a serde_json::Map<String, J>, key: &str) -> Result<&'a str, Error> {
    e.get(key).and_then(J::as_str).ok_or_else(|| not_covered("a malformed expression"))
}

pub fn eval(e: &J, scope: &dyn Scope, depth: usize) -> Result<Val, Error> {
    if depth > 64 {
        return Err(not_covered("an expression nested this deeply"));
    }
    let m = match e {
        J::Null => return Ok(Val::None),
        J::Object(m) => m,
        _ => return Err(not_covered("a malformed expression")),
    };
    let node = text(m, "_")?;
    let sub = |key: &str| -> Result<Val, Error> {
        eval(m.get(key).ok_or_else(|| not_covered("a malformed expression"))?, scope, depth + 1)
    };
    match node {
        "Num" => {
            let t = text(m, "text")?;
            t.parse::<i64>().map(Val::Int).map_err(|_| not_covered("a fractional number"))
        }
        "Bool" => Ok(Val::Bool(m.get("value").and_then(J::as_bool).unwrap_or(false))),
        "Str" => Ok(Val::Str(text(m, "value")?.to_owned())),
        "NoneLit" => Ok(Val::None),
        "ListLit" => {
            let items = m.get("items").and_then(J::as_array).map(Vec::as_slice).unwrap_or(&[]);
            Ok(Val::List(items.iter().map(|x| eval(x, scope, depth + 1)).collect::<Result<_, _>>()?))
        }
        "Name" => {
            let name = text(m, "name")?;
            let reference = m.get("ref").and_then(J::as_str).unwrap_or("");
            let (cat, _) = reference.split_once(':').unwrap_or((reference, ""));
            match cat {
                "tile" => Ok(scope.tile(name).unwrap_or(Val::None)),
                "suit" | "meld" | "form" | "flowerclass" => Ok(Val::Str(name.to_owned())),
                "option" | "context" => scope.setting(reference).ok_or_else(|| not_covered("a setting without a value")),
                "builtin" if reference == "builtin:t" => {
                    scope.current().map(Val::Tile).ok_or_else(|| not_covered("`t` outside a tile attribute"))
                }
                "builtin" => scope.builtin(reference).ok_or_else(|| not_covered(&format!("the name `{reference}`"))),
                _ => Err(not_covered(&format!("the name `{reference}`"))),
            }
        }
        "Attr" => match sub("obj")? {
            Val::None => Ok(Val::None),
            Val::Tile(t) => scope.field(t, text(m, "name")?),
            _ => Err(not_covered("a field of a value that is not a tile")),
        },
        "Unary" => {
            let v = sub("operand")?;
            match text(m, "op")? {
                "not" => Ok(Val::Bool(!v.truthy())),
                "-" => v.number().map(|x| Val::Int(-x)).ok_or_else(|| not_covered("`-` on a non-number")),
                _ => Err(not_covered("this unary operator")),
            }
        }
        "Binary" => {
            let op = text(m, "op")?;
            if op == "and" {
                return Ok(Val::Bool(sub("left")?.truthy() && sub("right")?.truthy()));
            }
            if op == "or" {
                return Ok(Val::Bool(sub("left")?.truthy() || sub("right")?.truthy()));
            }
            let (a, b) = (sub("left")?, sub("right")?);
            let (x, y) = match (a.number(), b.number()) {
                (Some(x), Some(y)) => (x, y),
                _ => return Err(not_covered("arithmetic on a non-number")),
            };
            let r = match op {
                "+" => x.checked_add(y),
                "-" => x.checked_sub(y),
                "*" => x.checked_mul(y),
                "//" if y != 0 => Some(floor_div(x, y)),
                "%" if y != 0 => Some(x - y * floor_div(x, y)),
                _ => None,
            };
            r.map(Val::Int).ok_or_else(|| not_covered(&format!("`{op}` here")))
        }
        "Compare" => {
            let ops = m.get("ops").and_then(J::as_array).ok_or_else(|| not_covered("a malformed comparison"))?;
            let operands =
                m.get("operands").and_then(J::as_array).ok_or_else(|| not_covered("a malformed comparison"))?;
            if operands.len() != ops.len() + 1 {
                return Err(not_covered("a malformed comparison"));
            }
            let mut left = eval(&operands[0], scope, depth + 1)?;
            for (op, o) in ops.iter().zip(&operands[1..]) {
                let right = eval(o, scope, depth + 1)?;
                if !compare(op.as_str().unwrap_or(""), &left, &right)? {
                    return Ok(Val::Bool(false));
                }
                left = right;
            }
            Ok(Val::Bool(true))
        }
        "If" => {
            if sub("cond")?.truthy() {
                sub("then")
            } else {
                sub("orelse")
            }
        }
        _ => Err(not_covered(&format!("a {node} expression"))),
    }
}

/// Python's `//` on integers: the quotient rounded down.
fn floor_div(x: i64, y: i64) -> i64 {
    let q = x / y;
    if x % y != 0 && ((x < 0) != (y < 0)) {
        q - 1
    } else {
        q
    }
}

fn compare(op: &str, a: &Val, b: &Val) -> Result<bool, Error> {
    match op {
        "==" => Ok(equal(a, b)),
        "!=" => Ok(!equal(a, b)),
        "in" | "not in" => {
            let inside = match b {
                Val::List(items) => items.iter().any(|x| equal(a, x)),
                _ => return Err(not_covered("`in` over a value that is not a list")),
            };
            Ok(inside == (op == "in"))
        }
        _ => {
            if matches!(a, Val::None) || matches!(b, Val::None) {
                return Ok(false);
            }
            let ord = match (a.number(), b.number(), a, b) {
                (Some(x), Some(y), _, _) => x.cmp(&y),
                (_, _, Val::Str(x), Val::Str(y)) => x.cmp(y),
                _ => return Err(not_covered("an ordering of these values")),
            };
            Ok(match op {
                "<" => ord.is_lt(),
                "<=" => ord.is_le(),
                ">" => ord.is_gt(),
                ">=" => ord.is_ge(),
                _ => return Err(not_covered("this comparison")),
            })
        }
    }
}

/// Setting values as given by the caller, by reference (`option:NAME`).
pub type Settings = HashMap<String, Val>;
