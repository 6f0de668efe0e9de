//! What an instant form's condition says of the hand's size and of its distinct tiles, read once from the
//! rule set (as runtime/ir/wilds.py `wilds_needed` reads the wildcards it asks for): the conjuncts first
//! evaluated of its `and`s that compare `len(hand)` or `len(distinct(hand))` with a number. A hand such a
//! conjunct rules out gets no reading of the form, so the win's structural test skips its scoring (the
//! conjuncts evaluated before any other, none of which can stop the evaluation: the condition is false
//! there whatever follows, never an error).

use serde_json::Value as J;

/// Per instant form, by name: the hand's size it asks for, and the fewest distinct tiles.
#[derive(Default)]
pub(super) struct InstantBounds(Vec<(String, Bound)>);

#[derive(Default, Clone, Copy)]
struct Bound {
    size: Option<i64>,     // `len(hand) == N`
    distinct: Option<i64>, // `len(distinct(hand)) == N`, `>= N`, `> N - 1`
}

fn is_hand(x: &J) -> bool {
    x.get("_").and_then(J::as_str) == Some("Name") && x.get("ref").and_then(J::as_str) == Some("builtin:hand")
}

/// `f(arg)` with one argument: the argument.
fn call1<'a>(x: &'a J, f: &str) -> Option<&'a J> {
    if x.get("_").and_then(J::as_str) != Some("Call") || x.get("func").and_then(J::as_str) != Some(f) {
        return None;
    }
    match x.get("args").and_then(J::as_array).map(Vec::as_slice) {
        Some([a]) => Some(a),
        _ => None,
    }
}

/// A whole number literal.
fn num(x: &J) -> Option<i64> {
    if x.get("_").and_then(J::as_str) != Some("Num") {
        return None;
    }
    x.get("text").and_then(J::as_str)?.parse().ok()
}

/// The bound one conjunct sets (None: not a conjunct read here).
fn conjunct(x: &J) -> Option<Bound> {
    if x.get("_").and_then(J::as_str) != Some("Compare") {
        return None;
    }
    let ops = x.get("ops")?.as_array()?;
    let operands = x.get("operands")?.as_array()?;
    let ([op], [a, b]) = (ops.as_slice(), operands.as_slice()) else { return None };
    let mut op = op.as_str()?;
    let (len, n) = match (num(a), num(b)) {
        (None, Some(n)) => (a, n),
        (Some(n), None) => {
            op = match op {
                "==" => "==",
                "<=" => ">=",
                "<" => ">",
                _ => return None,
            };
            (b, n)
        }
        _ => return None,
    };
    let arg = call1(len, "len")?;
    if is_hand(arg) {
        return (op == "==").then_some(Bound { size: Some(n), distinct: None });
    }
    if !call1(arg, "distinct").is_some_and(is_hand) {
        return None;
    }
    match op {
        "==" | ">=" => Some(Bound { size: None, distinct: Some(n) }),
        ">" => Some(Bound { size: None, distinct: Some(n + 1) }),
        _ => None,
    }
}

/// The conjuncts of `x` in the order they are evaluated, as long as each is one read here.
fn leading(x: &J, out: &mut Bound) -> bool {
    if x.get("_").and_then(J::as_str) == Some("Binary") && x.get("op").and_then(J::as_str) == Some("and") {
        return match (x.get("left"), x.get("right")) {
            (Some(l), Some(r)) => leading(l, out) && leading(r, out),
            _ => false,
        };
    }
    match conjunct(x) {
        Some(b) => {
            out.size = out.size.or(b.size);
            out.distinct = match (out.distinct, b.distinct) {
                (Some(a), Some(c)) => Some(a.max(c)),
                (a, c) => a.or(c),
            };
            true
        }
        None => false,
    }
}

impl InstantBounds {
    pub(super) fn build(ruleset_json: &str) -> InstantBounds {
        let Ok(doc) = crate::ruleset::json_doc(ruleset_json) else { return InstantBounds::default() };
        let forms = doc.get("ruleset").and_then(|r| r.get("forms")).and_then(J::as_array).cloned().unwrap_or_default();
        let mut out = Vec::new();
        for f in &forms {
            let (Some(name), Some(cond)) = (f.get("name").and_then(J::as_str), f.get("instant")) else { continue };
            let mut b = Bound::default();
            leading(cond, &mut b);
            if b.size.is_some() || b.distinct.is_some() {
                out.push((name.to_owned(), b));
            }
        }
        InstantBounds(out)
    }

    /// Whether the instant form `name` gives no reading to a hand of `size` tiles (concealed and the
    /// winning tile) whose tiles are the natural `naturals` and `wilds` free ones.
    pub(super) fn rules_out(&self, name: &str, size: usize, naturals: &[usize], wilds: usize) -> bool {
        let Some((_, b)) = self.0.iter().find(|(n, _)| n == name) else { return false };
        if b.size.is_some_and(|n| n != size as i64) {
            return true;
        }
        // (the distinct tiles counted where none is free: a free tile's value is not its kind's)
        let Some(d) = b.distinct else { return false };
        if wilds > 0 || naturals.len() != size {
            return false;
        }
        let mut kinds = naturals.to_vec();
        kinds.sort_unstable();
        kinds.dedup();
        (kinds.len() as i64) < d
    }
}

impl super::StateWins<'_> {
    /// Whether form `f`, one that builds no split, may still take seat's `hand` (with the winning `tile`
    /// among it when `in_hand`, else beside it) by the tests `_could_win` puts such a form to past its
    /// split test (could.rs `could_win_past_split`): an orphans form only a hand of its size whose
    /// natural tiles (not free, the winning tile not wild as one) all hold its attribute; an instant
    /// form only a hand holding as many tiles of a wildcard's kind as its condition asks
    /// (`instant_wilds`; a stand-in is no such tile). Where it may not, `_could_win` finds no win by it.
    pub(super) fn special_may_take_hand(&self, f: &crate::hand::FormSpec, hand: &[usize], tile: usize, in_hand: bool) -> bool {
        // the concealed tiles without the winning one (one copy of it taken out where it is among them)
        let cut = if in_hand {
            match hand.iter().position(|&x| x == tile) {
                Some(i) => Some(i),
                None => return true, // (not the hand the question means: no shortcut)
            }
        } else {
            None
        };
        let conc = || hand.iter().enumerate().filter(move |&(i, _)| Some(i) != cut).map(|(_, &x)| x);
        let wild_kind = |x: usize, win: bool| self.on.wild_kinds.iter().any(|&(w, win_scope)| w == Some(x) && (win || !win_scope));
        if let Some(members) = &f.orphans {
            if hand.len() - usize::from(in_hand) != members.len() {
                return false;
            }
            let free = |x: usize| self.on.hand_wild.get(x).copied().unwrap_or(false) || self.on.standin_kinds.iter().flatten().any(|&y| y == x);
            let win_natural = !(free(tile) || self.on.wild_kinds.iter().any(|&(w, win_scope)| win_scope && w == Some(tile)));
            return conc().all(|x| free(x) || members.contains(&x)) && (!win_natural || members.contains(&tile));
        }
        if f.instant {
            return conc().filter(|&x| wild_kind(x, false)).count() + usize::from(wild_kind(tile, true)) >= f.instant_wilds;
        }
        true
    }
}
