//! A reveal's `moves_when` asked again only when what it reads has changed (runtime/game/setup.py
//! `_moves_reveals` asks it after every event). A condition that reads nothing but constants, settings,
//! context and reveal values and the tiles every seat sees (`visible_count`) has, on a state whose
//! `HandState::seen_marks` are those it was false on, the same value: false, without asking. Any other
//! condition is asked every time, as before.

use super::event_rules::Program;
use super::events::{unbound, Run, H};
use super::state::{get, HandState, Value};
use super::table::Table;
use super::scope::{GameScope, G, GF};
use crate::program::{children, Node};

/// Whether expression `e` reads only what `HandState::seen_marks` covers (and the table's constants).
pub fn reads_seen_only(sc: &GameScope, e: usize) -> bool {
    matches!(sc.exprs.get(e), Some(Ok(node)) if seen_only(sc, node))
}

fn seen_only(sc: &GameScope, node: &Node) -> bool {
    let parts = || children(node).into_iter().all(|c| seen_only(sc, c));
    match node {
        Node::Const(_) | Node::Setting(_) => true,
        Node::Game(g) => matches!(sc.games.get(*g), Some(G::Players | G::Context(_) | G::Reveal(_))),
        // (`next`, `after`: the table's seats and step; `visible_count`: the tiles seen)
        Node::GameCall(f, _) => matches!(sc.calls.get(*f), Some(GF::VisibleCount | GF::Next | GF::After)) && parts(),
        Node::List(_)
        | Node::Call(..)
        | Node::Not(_)
        | Node::Neg(_)
        | Node::And(..)
        | Node::Or(..)
        | Node::Arith(..)
        | Node::Compare(..)
        | Node::If(..) => parts(),
        // the bindings (the game's base values), a seat's or a tile's fields, comprehensions, readings
        _ => false,
    }
}

/// Whether the `j`-th moving reveal's `moves_when` is known false on `st` (false on the marks it still has).
fn kept_false(p: &Program, st: &HandState, j: usize) -> bool {
    p.moving_seen.get(j).copied().unwrap_or(false) && st.unmoved.get(j).is_some_and(|m| !m.is_empty() && st.seen_same(m))
}

/// Whether `Run::moves_reveals` would ask nothing on `st`: each moving reveal not turned, or its
/// `moves_when` known false (`kept_false`).
pub fn none_asked(p: &Program, t: &Table, st: &HandState) -> bool {
    p.moving.iter().enumerate().all(|(j, &(ri, _))| {
        matches!(get(&st.reveals, &t.rules.reveals[ri].name), None | Some(Value::None)) || kept_false(p, st, j)
    })
}

impl Run<'_> {
    /// The `moves_when` of the `j`-th moving reveal (`Program::moving`), `cond`: false without asking
    /// where it was false on the marks the state still has; the marks kept whenever it is false.
    pub fn moving_holds(&mut self, j: usize, cond: usize) -> H<bool> {
        let keeps = self.p.moving_seen.get(j).copied().unwrap_or(false);
        if kept_false(self.p, self.st, j) {
            return Ok(false);
        }
        let holds = self.holds(Some(cond), unbound(), "condition")?;
        if keeps && !holds {
            if self.st.unmoved.len() <= j {
                self.st.unmoved.resize(j + 1, Vec::new());
            }
            let mut marks = std::mem::take(&mut self.st.unmoved[j]);
            self.st.seen_marks(&mut marks);
            self.st.unmoved[j] = marks;
        }
        Ok(holds)
    }
}
