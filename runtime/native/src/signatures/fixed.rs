//! What one rule set's native signature search reads, fixed at set-up (search.rs): its expressions as
//! nodes (observe.rs), what each pattern, quantity and unit name reads, the observers' roots, and the one
//! program of every expression the observers evaluate — the shared conditions, the aggregates, the
//! winning chains, each decided leaf as `max(x in L: leaf)` over one item, each list's membership —
//! lowered together (a node the programs do not lower has none: an observer needing it declines).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::{json, Value as J};

use super::observe::{Exprs, K, GROUP_LISTS};
use super::search::Spec;
use super::{RawTpl, Slots};
use crate::catalog::Catalog;
use crate::hash::{map, Map};
use crate::program::{Lowering, Program, V};

/// What one rule set's search reads, fixed at set-up.
/// `observe::unknown`'s answers by (node, wildcard winning tile), then by binder.
pub(crate) type Unknown = Map<(usize, bool), Vec<(Box<str>, bool)>>;

pub(crate) struct Fixed {
    pub prog: Program,
    pub ex: Exprs,
    pub derived: HashMap<String, Vec<usize>>,
    pub patterns: Vec<usize>,         // the patterns' when, count, enabled, value
    pub quantities: Vec<usize>,
    pub requires: Vec<(Vec<String>, Vec<usize>)>, // (forms, [expr, unless])
    pub wait_requires: Vec<usize>,    // requirement positions that decide the waits
    pub score: Vec<usize>,
    pub forms: Vec<(Arc<str>, Option<usize>)>, // name, pair_when
    pub exact: bool,
    // (the fast keyed hash: these are looked up for every part of every observer)
    pub own: Map<usize, usize>,           // node -> its quantity
    pub wrap: Map<(usize, usize), usize>, // (leaf, comprehension) -> max(x in L: leaf)
    pub member: Map<String, usize>,       // list -> count(x in L: true)
    /// `observe::unknown` of (node, wildcard winning tile) per binder, worked out once: a function of the
    /// rule set's expressions alone, asked for every part of every observer.
    pub unknown: Mutex<Unknown>,
    pub specs: Vec<Spec>,
    pub n_meld: usize,
    pub templates: Vec<Vec<Vec<RawTpl>>>, // per kind, per shape
    pub targets: Vec<Vec<Slots>>,         // per shape
    pub values: HashMap<(Arc<str>, Option<Arc<str>>), V>,
    pub suits: Vec<Option<Arc<str>>>,
    pub joker: Vec<bool>,
    pub room: HashMap<String, V>, // the room's settings (the callable's environment, search_binding.rs)
    pub limit: String,            // the work limit's sentence (the callable's refusal)
}

fn name_json(list: &str) -> J {
    json!({"_": "Name", "name": list, "ref": format!("builtin:{list}")})
}

impl Fixed {
    /// The rule set's expressions and the quantities the observers evaluate, lowered into one program.
    pub(crate) fn build(rs: &serde_json::Map<String, J>, cat: &Catalog, wait_requires: Vec<usize>) -> Result<Fixed, String> {
        let empty = Vec::new();
        let list = |k: &str| rs.get(k).and_then(J::as_array).unwrap_or(&empty);
        let mut ex = Exprs::default();
        let root = |ex: &mut Exprs, j: Option<&J>| -> Result<Option<usize>, String> {
            match j.filter(|v| !v.is_null()) {
                Some(v) => ex.add(v, 0).map(Some),
                None => Ok(None),
            }
        };
        let mut derived: HashMap<String, Vec<usize>> = HashMap::new();
        let mut patterns = Vec::new();
        for p in list("patterns") {
            let mut parts = Vec::new();
            for k in ["when", "count", "enabled", "value"] {
                parts.extend(root(&mut ex, p.get(k))?);
            }
            let name = p.get("name").and_then(J::as_str).unwrap_or("");
            derived.insert(format!("pattern:{name}"), parts.clone());
            if let Some(u) = p.get("unit").and_then(J::as_str) {
                derived.entry(format!("unit:{u}")).or_default().extend(parts.iter().copied());
            }
            patterns.extend(parts);
        }
        let mut quantities = Vec::new();
        for q in list("quantities") {
            let e = root(&mut ex, q.get("expr"))?;
            derived.insert(format!("quantity:{}", q.get("name").and_then(J::as_str).unwrap_or("")), e.into_iter().collect());
            quantities.extend(e);
        }
        let mut requires = Vec::new();
        for q in list("requires") {
            let forms = q.get("forms").and_then(J::as_array).unwrap_or(&empty).iter().filter_map(|f| f.as_str().map(str::to_owned)).collect();
            let mut xs = Vec::new();
            xs.extend(root(&mut ex, q.get("expr"))?);
            xs.extend(root(&mut ex, q.get("unless"))?);
            requires.push((forms, xs));
        }
        let mut score = Vec::new();
        if let Some(s) = rs.get("score").filter(|v| !v.is_null()) {
            for k in ["expr", "best", "total"] {
                score.extend(root(&mut ex, s.get(k))?);
            }
        }
        let mut forms = Vec::new();
        for f in list("forms") {
            let name: Arc<str> = Arc::from(f.get("name").and_then(J::as_str).unwrap_or(""));
            forms.push((name, root(&mut ex, f.get("pair_when"))?));
        }
        let exact = list("combines").is_empty();
        // the quantities: shared conditions, aggregates, winning chains, decided leaves, list members
        let mut quants: Vec<J> = Vec::new();
        let try_add = |j: J, quants: &mut Vec<J>| -> Option<usize> {
            let mut lw = Lowering::new(cat, None);
            lw.lower(&j, 0).ok()?;
            quants.push(json!({"_": "Quantity", "name": format!("q{}", quants.len()), "expr": j}));
            Some(quants.len() - 1)
        };
        let mut own = map();
        let mut wrap = map();
        let mut member = map();
        for l in GROUP_LISTS {
            let j = json!({"_": "Comp", "func": "count", "binders": ["_item"], "source": name_json(l), "body": {"_": "Bool", "value": true}});
            if let Some(q) = try_add(j, &mut quants) {
                member.insert(l.to_owned(), q);
            }
        }
        let n = ex.nodes.len();
        let mut wanted = vec![false; n];
        for i in 0..n {
            let node = &ex.nodes[i];
            match &node.k {
                K::If => wanted[node.kids[0]] = true,
                K::Binary(op) if op == "and" || op == "or" => wanted[node.kids[0]] = true,
                K::Attr | K::Name(_) => {
                    let r = ex.chain_root(i);
                    if matches!(ex.name(r), Some("builtin:win_group" | "builtin:win_tile")) {
                        wanted[i] = true;
                    }
                }
                K::Comp { func, binders } => {
                    let src = ex.name(node.kids[0]).and_then(|r| r.strip_prefix("builtin:")).map(str::to_owned);
                    if let (Some(l), 1) = (src, binders.len()) {
                        if super::observe::is_list(&l) && ["count", "any", "all", "sum", "max", "min"].contains(&func.as_str()) {
                            wanted[i] = true;
                            let mut leaves = Vec::new();
                            decide_leaves(&ex, node.kids[1], &mut leaves);
                            for leaf in leaves {
                                let j = json!({"_": "Comp", "func": "max", "binders": [binders[0]], "source": name_json(&l), "body": ex.nodes[leaf].json});
                                if let Some(q) = try_add(j, &mut quants) {
                                    wrap.insert((leaf, i), q);
                                }
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        for (i, w) in wanted.into_iter().enumerate() {
            if w {
                if let Some(q) = try_add(ex.nodes[i].json.clone(), &mut quants) {
                    own.insert(i, q);
                }
            }
        }
        let doc = json!({"ruleset": {"quantities": quants}}).to_string();
        let prog = Program::build(&doc, cat).map_err(|e| e.to_string())?;
        let suits = crate::program::suit_texts(cat);
        let joker = cat.kinds.iter().map(|k| k.category == "joker").collect();
        Ok(Fixed {
            prog, ex, derived, patterns, quantities, requires, wait_requires, score, forms, exact, own, wrap, member,
            unknown: Mutex::new(map()),
            specs: Vec::new(), n_meld: 0, templates: Vec::new(), targets: Vec::new(), values: HashMap::new(), suits, joker,
            room: HashMap::new(),
            limit: String::new(),
        })
    }

    /// `observe::unknown(e, binder, varying(win_wild))`, worked out once per node, binder and kind of
    /// winning tile.
    pub(crate) fn unknown(&self, e: usize, binder: &str, win_wild: bool) -> bool {
        let mut memo = self.unknown.lock().unwrap_or_else(|e| e.into_inner());
        let list = memo.entry((e, win_wild)).or_default();
        if let Some(&(_, u)) = list.iter().find(|(b, _)| &**b == binder) {
            return u;
        }
        let u = super::observe::unknown(&self.ex, e, binder, &super::observe::varying(win_wild));
        list.push((binder.into(), u));
        u
    }

    /// The observer's roots (`HandSignatures._observer`).
    pub(crate) fn roots(&self, form: usize, waits: bool) -> Vec<usize> {
        let fname = &*self.forms[form].0;
        let applies = |forms: &Vec<String>| forms.is_empty() || forms.iter().any(|f| f == fname);
        let mut out = Vec::new();
        if waits {
            for &i in &self.wait_requires {
                if let Some((forms, xs)) = self.requires.get(i) {
                    if applies(forms) {
                        out.extend(xs);
                    }
                }
            }
        } else {
            out.extend(&self.patterns);
            out.extend(&self.quantities);
            for (forms, xs) in &self.requires {
                if applies(forms) {
                    out.extend(xs);
                }
            }
            out.extend(&self.score);
        }
        out.extend(self.forms[form].1);
        out
    }

    /// A context value as engine/winning/wild.rs `env_json` writes it (a tile as {"t": kind}).
    pub(crate) fn json_value(&self, v: &J) -> Option<V> {
        Some(match v {
            J::Null => V::None,
            J::Bool(b) => V::Bool(*b),
            J::Number(n) => V::Int(n.as_i64()?),
            J::String(s) => V::Str(Arc::from(s.as_str())),
            J::Object(m) => {
                let k = m.get("t")?.as_u64()? as usize;
                if k >= self.joker.len() {
                    return None;
                }
                self.code(k, k, false)
            }
            J::Array(a) => V::List(Arc::new(a.iter().map(|x| self.json_value(x)).collect::<Option<Vec<_>>>()?)),
        })
    }

    /// A winning chain whose value is a tile: `win_tile` itself (false: a reading's tile) or its
    /// `kind` (true: a kind); None for any other chain.
    pub(crate) fn tile_chain(&self, chain: usize) -> Option<bool> {
        let node = &self.ex.nodes[chain];
        match &node.k {
            K::Name(r) if r == "builtin:win_tile" => Some(false),
            K::Attr if node.json.get("name").and_then(J::as_str) == Some("kind") && self.ex.name(node.kids[0]) == Some("builtin:win_tile") => Some(true),
            _ => None,
        }
    }

    pub(crate) fn code(&self, kind: usize, phys: usize, wild: bool) -> V {
        V::Tile(((kind as u32) << 2) | if wild { 2 } else { 0 } | self.joker.get(phys).copied().unwrap_or(false) as u32)
    }
}

/// The leaves `Observer._decide` evaluates in a body: below `and`, `or`, `not` and `if`.
fn decide_leaves(ex: &Exprs, e: usize, out: &mut Vec<usize>) {
    let node = &ex.nodes[e];
    match &node.k {
        K::Binary(op) if op == "and" || op == "or" => node.kids.iter().for_each(|&c| decide_leaves(ex, c, out)),
        K::Unary(op) if op == "not" => decide_leaves(ex, node.kids[0], out),
        K::If => node.kids.iter().for_each(|&c| decide_leaves(ex, c, out)),
        _ => out.push(e),
    }
}

