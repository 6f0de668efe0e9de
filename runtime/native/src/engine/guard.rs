//! A condition's leading conjuncts decided from the event's bindings before an evaluation is set up.
//!
//! Most hook and phase conditions begin with a flag of a binding or a comparison of seats (`tile.wild and
//! …`, `not tile.wild and table.X == actor`, `actor.flag and …`), and at most events the first of them
//! already answers the condition. The conjuncts of `A and B and C` (parsed `(A and B) and C`) are read
//! left to right, as the evaluator reads them, while each is one of these shapes:
//!
//! - a field of a binding, under any number of `not`s: a seat's own state or phase where the seat holds
//!   a flag, a whole number or none; a tile's `wild` (as `Game.tv` gives the tile of the moment), its
//!   `joker`, or a field its kind holds; a field of none (none);
//! - one `==` or `!=` between two of: a binding, a table state, the dealer, the constant none — where
//!   both are seats or none.
//!
//! The first conjunct found false answers false; all of them found true answer true. Where a conjunct is
//! of another shape, or its value is not one of those above (where the evaluator might stop or read
//! further), the whole condition is evaluated as before. Exact: these conjuncts read no question, no
//! reading and change nothing, and the evaluator's `and` stops at the first false one.

use super::events::{Bind, Run};
use super::scope::{GameScope, B_TILE, G};
use super::state::{get_at, Value};
use crate::program::{kind_of, Cmp, Node, V};

/// The leading conjuncts of a condition that may be decided from its bindings (leftmost first), and
/// whether they make up the whole condition.
pub struct Guard {
    atoms: Vec<Atom>,
    whole: bool,
}

enum Atom {
    /// `not`s applied (odd: negated), the binding's slot, the field.
    Flag { negated: bool, slot: usize, field: usize },
    /// `a == b` (`eq`) or `a != b`.
    Same { eq: bool, a: Side, b: Side },
}

#[derive(Clone, Copy)]
enum Side {
    Bound(usize),
    TableVar(usize), // by game value id
    Dealer,
    None,
}

/// The guard of expression `e`, where its leftmost conjunct has one of the shapes.
pub fn guard_of(sc: &GameScope, e: usize) -> Option<Guard> {
    let Some(Ok(whole)) = sc.exprs.get(e) else { return None };
    // the conjuncts down the left, leftmost first
    let mut chain = Vec::new();
    let mut node = whole;
    while let Node::And(l, r) = node {
        chain.push(&**r);
        node = l;
    }
    chain.push(node);
    chain.reverse();
    let mut atoms = Vec::new();
    for c in &chain {
        match atom(sc, c) {
            Some(a) => atoms.push(a),
            None => break,
        }
    }
    let whole = atoms.len() == chain.len();
    (!atoms.is_empty()).then_some(Guard { atoms, whole })
}

/// A node under any number of `not`s: whether they negate it, and the node itself.
pub(crate) fn under_nots(mut node: &Node) -> (bool, &Node) {
    let mut negated = false;
    while let Node::Not(o) = node {
        negated = !negated;
        node = o;
    }
    (negated, node)
}

fn atom(sc: &GameScope, node: &Node) -> Option<Atom> {
    let (negated, node) = under_nots(node);
    match node {
        Node::Attr(o, f) => match &**o {
            Node::Bound(s) => Some(Atom::Flag { negated, slot: *s, field: *f }),
            _ => None,
        },
        Node::Compare(ops, operands) if !negated => {
            let eq = match ops.as_slice() {
                [Cmp::Eq] => true,
                [Cmp::Ne] => false,
                _ => return None,
            };
            let [a, b] = operands.as_slice() else { return None };
            Some(Atom::Same { eq, a: side(sc, a)?, b: side(sc, b)? })
        }
        _ => None,
    }
}

fn side(sc: &GameScope, node: &Node) -> Option<Side> {
    match node {
        Node::Bound(s) => Some(Side::Bound(*s)),
        Node::Const(V::None) => Some(Side::None),
        Node::Game(g) => match sc.games.get(*g)? {
            G::TableVar(_) => Some(Side::TableVar(*g)),
            G::Dealer => Some(Side::Dealer),
            _ => None,
        },
        _ => None,
    }
}

/// The binding in `slot` as the evaluator finds it (`values::Bound::Over`): the event's, else the
/// game's base value; None where the slot is past the base's (unbound).
fn bound<'b>(b: &'b Bind, base: &'b [V], slot: usize) -> Option<&'b V> {
    let d = base.get(slot)?;
    Some(b.given.get(slot).and_then(Option::as_ref).unwrap_or(d))
}

impl Run<'_> {
    /// The answer of the condition with guard `g` under bindings `b`, where its guarded conjuncts give
    /// it; None: to be evaluated.
    pub(super) fn guarded(&mut self, g: &Guard, b: &Bind) -> Option<bool> {
        for a in &g.atoms {
            let holds = match *a {
                Atom::Flag { negated, slot, field } => self.flag(b, slot, field)? != negated,
                Atom::Same { eq, a, b: other } => (self.side(b, a)? == self.side(b, other)?) == eq,
            };
            if !holds {
                return Some(false);
            }
        }
        g.whole.then_some(true)
    }

    /// The truth of `slot.field`, where it is read without the evaluator.
    fn flag(&mut self, b: &Bind, slot: usize, f: usize) -> Option<bool> {
        let sc = &self.p.scope;
        match *bound(b, &self.base, slot)? {
            V::None => Some(false), // (a field of none is none)
            V::Seat(s) => {
                let seat = self.st.seats.get(s as usize)?;
                match get_at(&seat.vars, sc.var_hint[f], &sc.fields[f])? {
                    Value::None => Some(false),
                    Value::Bool(x) => Some(*x),
                    Value::Int(i) => Some(*i != 0),
                    _ => None,
                }
            }
            V::Tile(c) => {
                let k = kind_of(c) as usize;
                if f == sc.f_wild {
                    if slot != B_TILE {
                        return Some(c & 2 != 0);
                    }
                    // the tile of the moment: `wild` as the hand's wildcards give it (`Ev::on`)
                    let wins = self.wins;
                    let wild = match wins.hand_wild(self.st) {
                        Some(w) => w,
                        None => self.wild.get_or_insert_with(|| super::values::hand_wilds(self.t, self.st)).as_slice(),
                    };
                    return Some(wild.get(k).copied().unwrap_or(false));
                }
                if f == sc.f_joker {
                    return Some(c & 1 != 0);
                }
                sc.tile_fields.get(k)?.get(f)?.as_ref().map(V::truthy)
            }
            _ => None,
        }
    }

    /// A side of a comparison as a seat (Some(Some(s))) or none (Some(None)); None: another value.
    fn side(&self, b: &Bind, side: Side) -> Option<Option<u16>> {
        match side {
            Side::None => Some(None),
            Side::Dealer => Some(Some(self.st.dealer as u16)),
            Side::Bound(s) => match bound(b, &self.base, s)? {
                V::None => Some(None),
                V::Seat(x) => Some(Some(*x)),
                _ => None,
            },
            Side::TableVar(g) => {
                let sc = &self.p.scope;
                let G::TableVar(name) = &sc.games[g] else { return None };
                match get_at(&self.st.table, sc.game_hints[g], name)? {
                    Value::None => Some(None),
                    Value::Seat(x) => Some(Some(*x as u16)),
                    _ => None,
                }
            }
        }
    }
}
