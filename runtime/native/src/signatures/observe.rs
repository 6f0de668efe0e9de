//! The observation sites of one form's readings under one context: the port of runtime/observe.py
//! `Observer`'s walk (the reference), over the rule set's JSON expressions. The walk finds the same
//! sites in the same order — `agg` (an aggregate over a reading list whose body reads only its item),
//! `pagg` (such an aggregate whose body reads more: decided item by item, three-valued), `bag` (a list
//! used any other way), `win` (a chain on the winning tile or its group), the first `pair`, `suits`,
//! `menqing`, and `identity` where the walk cannot see through — deciding `if` and `and`/`or` on the
//! values every reading shares as the reference does. A shared value the native programs cannot
//! evaluate (where the reference might raise or not) declines the observer: the caller asks the
//! reference instead.

use std::collections::{HashMap, HashSet};

use serde_json::Value as J;

pub(crate) const GROUP_LISTS: [&str; 7] = ["groups", "melds", "pairs", "runs", "triplets", "kongs", "exposed"];
pub(crate) const TILE_LISTS: [&str; 2] = ["tiles", "hand"];
const DERIVED: [&str; 3] = ["pattern", "quantity", "unit"];
const AGG: [&str; 6] = ["count", "any", "all", "sum", "max", "min"];
const PER_HAND: [&str; 3] = ["builtin:waits", "builtin:shape_waits", "builtin:flowers"];
const GAME_FUNCTIONS: [&str; 4] = ["visible_count", "held", "next", "waits_without"];

pub(crate) fn is_list(name: &str) -> bool {
    GROUP_LISTS.contains(&name) || TILE_LISTS.contains(&name)
}

/// An expression node: what the walk reads of it, its children in the reference's order.
pub(crate) enum K {
    Name(String), // its reference (`builtin:tiles`, `binder:m`, …)
    Attr,
    Comp { func: String, binders: Vec<String> }, // children: source, body
    If,                                           // children: cond, then, orelse
    Binary(String),
    Unary(String),
    Call(String),
    Compare(Vec<String>),
    Other, // literals and lists
}

pub(crate) struct Ex {
    pub k: K,
    pub kids: Vec<usize>,
    pub json: J,
}

/// A rule set's expressions as nodes (every root and what it reads), numbered.
#[derive(Default)]
pub(crate) struct Exprs {
    pub nodes: Vec<Ex>,
}

fn field<'j>(m: &'j serde_json::Map<String, J>, k: &str) -> Result<&'j J, String> {
    m.get(k).ok_or_else(|| "a malformed expression".to_owned())
}

fn text(m: &serde_json::Map<String, J>, k: &str) -> Result<String, String> {
    field(m, k)?.as_str().map(str::to_owned).ok_or_else(|| "a malformed expression".to_owned())
}

impl Exprs {
    /// Add an expression tree; its root's number.
    pub(crate) fn add(&mut self, j: &J, depth: usize) -> Result<usize, String> {
        if depth > 200 {
            return Err("an expression nested this deeply".into());
        }
        let m = j.as_object().ok_or("a malformed expression")?;
        let node = text(m, "_")?;
        let mut kids = Vec::new();
        let mut sub = |s: &mut Exprs, k: &str| -> Result<(), String> {
            let id = s.add(field(m, k)?, depth + 1)?;
            kids.push(id);
            Ok(())
        };
        let k = match node.as_str() {
            "Name" => K::Name(m.get("ref").and_then(J::as_str).unwrap_or("").to_owned()),
            "Attr" => {
                sub(self, "obj")?;
                K::Attr
            }
            "Comp" => {
                sub(self, "source")?;
                sub(self, "body")?;
                let binders = field(m, "binders")?.as_array().ok_or("a malformed comprehension")?;
                let binders = binders.iter().map(|b| b.as_str().map(str::to_owned).ok_or("a malformed comprehension")).collect::<Result<_, _>>()?;
                K::Comp { func: text(m, "func")?, binders }
            }
            "If" => {
                sub(self, "cond")?;
                sub(self, "then")?;
                sub(self, "orelse")?;
                K::If
            }
            "Binary" => {
                sub(self, "left")?;
                sub(self, "right")?;
                K::Binary(text(m, "op")?)
            }
            "Unary" => {
                sub(self, "operand")?;
                K::Unary(text(m, "op")?)
            }
            "Call" | "Compare" | "ListLit" => {
                let key = match node.as_str() {
                    "Call" => "args",
                    "Compare" => "operands",
                    _ => "items",
                };
                for x in field(m, key)?.as_array().ok_or("a malformed expression")? {
                    let id = self.add(x, depth + 1)?;
                    kids.push(id);
                }
                match node.as_str() {
                    "Call" => K::Call(text(m, "func")?),
                    "Compare" => K::Compare(
                        field(m, "ops")?.as_array().ok_or("a malformed comparison")?.iter().map(|o| o.as_str().unwrap_or("").to_owned()).collect(),
                    ),
                    _ => K::Other,
                }
            }
            _ => K::Other,
        };
        self.nodes.push(Ex { k, kids, json: j.clone() });
        Ok(self.nodes.len() - 1)
    }

    /// Every node of the tree at `e`, parents first.
    pub(crate) fn walk(&self, e: usize, out: &mut Vec<usize>) {
        out.push(e);
        for &c in &self.nodes[e].kids {
            self.walk(c, out);
        }
    }

    pub(crate) fn all(&self, e: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.walk(e, &mut out);
        out
    }

    /// Whether any node of the tree at `e` meets `f`.
    pub(crate) fn any(&self, e: usize, f: &mut dyn FnMut(&Ex) -> bool) -> bool {
        f(&self.nodes[e]) || self.nodes[e].kids.iter().any(|&c| self.any(c, f))
    }

    pub(crate) fn name(&self, e: usize) -> Option<&str> {
        match &self.nodes[e].k {
            K::Name(r) => Some(r),
            _ => None,
        }
    }

    /// The expression's structure without source positions (runtime/observe.py `structure`).
    pub(crate) fn structure(&self, e: usize) -> String {
        fn strip(j: &J) -> J {
            match j {
                J::Object(m) => J::Object(m.iter().filter(|(k, _)| *k != "span").map(|(k, v)| (k.clone(), strip(v))).collect()),
                J::Array(a) => J::Array(a.iter().map(strip).collect()),
                x => x.clone(),
            }
        }
        strip(&self.nodes[e].json).to_string()
    }

    /// The root of an attribute chain (the node itself when it is no `Attr`).
    pub(crate) fn chain_root(&self, mut e: usize) -> usize {
        while matches!(self.nodes[e].k, K::Attr) {
            e = self.nodes[e].kids[0];
        }
        e
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Sort {
    Agg,
    Pagg,
    Bag,
    Suits,
    Menqing,
    Win,
    Pair,
    Identity,
}

#[derive(Clone, Debug)]
pub(crate) struct Site {
    pub sort: Sort,
    pub lst: String,    // agg, pagg, bag: the reading list
    pub func: String,   // agg, pagg: the aggregate
    pub binder: String, // agg, pagg: the binder's reference (`binder:x`)
    pub node: usize,    // agg: the comprehension; pagg: its body; win: the chain
    pub comp: usize,    // pagg: the comprehension
}

impl Site {
    fn of(sort: Sort) -> Site {
        Site { sort, lst: String::new(), func: String::new(), binder: String::new(), node: 0, comp: 0 }
    }
}

/// A shared value's truth (`Observer._const_value`), or None where the reference raises.
pub(crate) type ConstTruth = Result<Option<bool>, String>;

/// The walk's result: the sites in order (an `identity` site last where signatures are not exact),
/// whether a natural winning tile was read as a shared value.
#[derive(Clone)]
pub(crate) struct Sites {
    pub sites: Vec<Site>,
    pub uses_win: bool,
}

pub(crate) struct Walk<'a> {
    pub ex: &'a Exprs,
    pub derived: &'a HashMap<String, Vec<usize>>,
    pub varying: HashSet<&'static str>,
    pub truth: &'a mut dyn FnMut(usize) -> ConstTruth,
    sites: Vec<Site>,
    keys: HashSet<String>,
    walked: HashSet<String>,
    exact: bool,
    uses_win: bool,
}

/// The reading builtins that may differ between readings of one hand (`varying_refs`).
pub(crate) fn varying(win_wild: bool) -> HashSet<&'static str> {
    let mut v: HashSet<&'static str> = [
        "builtin:melds", "builtin:groups", "builtin:pairs", "builtin:pair", "builtin:runs", "builtin:triplets",
        "builtin:kongs", "builtin:exposed", "builtin:tiles", "builtin:hand", "builtin:win_group", "builtin:suits",
        "builtin:menqing",
    ]
    .into_iter()
    .collect();
    if win_wild {
        v.insert("builtin:win_tile");
    }
    v
}

fn cat(r: &str) -> &str {
    r.split_once(':').map_or(r, |x| x.0)
}

fn rest(r: &str) -> &str {
    r.split_once(':').map_or("", |x| x.1)
}

impl<'a> Walk<'a> {
    pub(crate) fn new(ex: &'a Exprs, derived: &'a HashMap<String, Vec<usize>>, win_wild: bool, truth: &'a mut dyn FnMut(usize) -> ConstTruth) -> Self {
        Walk { ex, derived, varying: varying(win_wild), truth, sites: Vec::new(), keys: HashSet::new(), walked: HashSet::new(), exact: true, uses_win: false }
    }

    /// `Observer.__init__`'s walk of `roots`; `exact` as the rule set has it (no `combine` blocks).
    pub(crate) fn run(mut self, roots: &[usize], exact: bool) -> Result<Sites, String> {
        self.exact = exact;
        for &r in roots {
            self.walk(r, &HashSet::new())?;
        }
        if !self.exact {
            self.add("identity".into(), Site::of(Sort::Identity));
        }
        Ok(Sites { sites: self.sites, uses_win: self.uses_win })
    }

    fn add(&mut self, key: String, s: Site) {
        if self.keys.insert(key) {
            self.sites.push(s);
        }
    }

    fn reads(&self, e: usize, covered: &HashSet<String>) -> bool {
        self.ex.any(e, &mut |n| match &n.k {
            K::Name(r) => self.varying.contains(r.as_str()) || DERIVED.contains(&cat(r)) || (cat(r) == "binder" && covered.contains(r)),
            _ => false,
        })
    }

    fn note_win(&mut self, e: usize) {
        if self.ex.any(e, &mut |n| matches!(&n.k, K::Name(r) if r == "builtin:win_tile")) {
            self.uses_win = true;
        }
    }

    fn truth(&mut self, e: usize) -> ConstTruth {
        self.note_win(e);
        (self.truth)(e)
    }

    fn walk(&mut self, e: usize, covered: &HashSet<String>) -> Result<(), String> {
        if !self.reads(e, covered) {
            return Ok(());
        }
        let ex = self.ex;
        let node = &ex.nodes[e];
        match &node.k {
            K::Name(r) => {
                let (c, name) = (cat(r), rest(r));
                if DERIVED.contains(&c) {
                    if self.walked.insert(r.clone()) {
                        for &x in self.derived.get(r).map(Vec::as_slice).unwrap_or(&[]) {
                            self.walk(x, &HashSet::new())?;
                        }
                    }
                    return Ok(());
                }
                if c == "binder" {
                    return Ok(());
                }
                if is_list(name) {
                    self.add(format!("bag\u{0}{name}"), Site { lst: name.into(), ..Site::of(Sort::Bag) });
                } else if name == "suits" {
                    self.add("suits".into(), Site::of(Sort::Suits));
                } else if name == "menqing" {
                    self.add("menqing".into(), Site::of(Sort::Menqing));
                } else if ["win_group", "win_tile", "pair"].contains(&name) {
                    self.win_site(e);
                } else {
                    self.exact = false;
                }
                return Ok(());
            }
            K::Attr => {
                let root = ex.chain_root(e);
                if matches!(ex.name(root), Some("builtin:win_group" | "builtin:win_tile" | "builtin:pair")) {
                    self.win_site(e);
                    return Ok(());
                }
                return self.walk(node.kids[0], covered);
            }
            K::Comp { func, binders } => {
                let (src, body) = (node.kids[0], node.kids[1]);
                if let Some(sref) = ex.name(src).filter(|r| r.starts_with("builtin:")) {
                    if binders.len() == 1 && AGG.contains(&func.as_str()) {
                        let name = rest(sref);
                        let binder = format!("binder:{}", binders[0]);
                        if is_list(name) {
                            let pure = self.pure_body(body, &binder);
                            self.note_win(body);
                            let sort = if pure { Sort::Agg } else { Sort::Pagg };
                            let key = format!("{sort:?}\u{0}{name}\u{0}{func}\u{0}{}\u{0}{}", binders[0], ex.structure(body));
                            let site = Site { sort, lst: name.into(), func: func.clone(), binder: binder.clone(), node: if pure { e } else { body }, comp: e };
                            self.add(key, site);
                            if !pure {
                                let mut cov = covered.clone();
                                cov.insert(binder);
                                self.walk(body, &cov)?;
                            }
                            return Ok(());
                        }
                    }
                }
                self.walk(src, covered)?;
                let mut cov = covered.clone();
                cov.extend(binders.iter().map(|b| format!("binder:{b}")));
                return self.walk(body, &cov);
            }
            K::If => {
                let (c, t, f) = (node.kids[0], node.kids[1], node.kids[2]);
                if !self.reads(c, covered) {
                    if let Some(v) = self.truth(c)? {
                        return self.walk(if v { t } else { f }, covered);
                    }
                }
                for x in [c, t, f] {
                    self.walk(x, covered)?;
                }
                return Ok(());
            }
            K::Binary(op) if op == "and" || op == "or" => {
                let (l, r) = (node.kids[0], node.kids[1]);
                if !self.reads(l, covered) {
                    if let Some(lv) = self.truth(l)? {
                        if lv == (op == "and") {
                            self.walk(r, covered)?;
                        }
                        return Ok(()); // decided by the left side alone
                    }
                }
                self.walk(l, covered)?;
                return self.walk(r, covered);
            }
            _ => {}
        }
        for &c in &node.kids {
            self.walk(c, covered)?;
        }
        Ok(())
    }

    /// `_pure_body`: the body reads nothing of the reading but its own binder (and its inner
    /// comprehensions' binders).
    fn pure_body(&self, body: usize, binder: &str) -> bool {
        let all = self.ex.all(body);
        let inner = inner_binders(self.ex, &all);
        for &n in &all {
            match &self.ex.nodes[n].k {
                K::Name(r) => {
                    if r == binder || inner.contains(r) {
                        continue;
                    }
                    if self.varying.contains(r.as_str()) || DERIVED.contains(&cat(r)) || r.starts_with("binder:") || PER_HAND.contains(&r.as_str()) {
                        return false;
                    }
                }
                K::Call(f) if GAME_FUNCTIONS.contains(&f.as_str()) => return false,
                _ => {}
            }
        }
        true
    }

    fn win_site(&mut self, e: usize) {
        let root = self.ex.chain_root(e);
        let r = self.ex.name(root).unwrap_or("");
        let name = rest(r);
        if name == "pair" {
            self.add("pair".into(), Site::of(Sort::Pair));
            return;
        }
        if !self.varying.contains(r) && name == "win_tile" {
            return; // a natural winning tile is the same in every reading
        }
        self.add(format!("win\u{0}{}", self.ex.structure(e)), Site { node: e, ..Site::of(Sort::Win) });
    }
}

/// The binders of the comprehensions among `nodes`, as references.
pub(crate) fn inner_binders(ex: &Exprs, nodes: &[usize]) -> HashSet<String> {
    let mut out = HashSet::new();
    for &n in nodes {
        if let K::Comp { binders, .. } = &ex.nodes[n].k {
            out.extend(binders.iter().map(|b| format!("binder:{b}")));
        }
    }
    out
}

/// `Observer._unknown`: whether `e` reads something the three-valued decision does not know.
pub(crate) fn unknown(ex: &Exprs, e: usize, binder: &str, varying: &HashSet<&'static str>) -> bool {
    let all = ex.all(e);
    let mut local = inner_binders(ex, &all);
    local.insert(binder.to_owned());
    all.iter().any(|&n| match &ex.nodes[n].k {
        K::Name(r) => {
            !local.contains(r) && (varying.contains(r.as_str()) || PER_HAND.contains(&r.as_str()) || DERIVED.contains(&cat(r)) || r.starts_with("binder:"))
        }
        K::Call(f) => GAME_FUNCTIONS.contains(&f.as_str()),
        _ => false,
    })
}

/// `Observer._simple`: names, fields, literals, equality, `not`, `and`, `or`.
pub(crate) fn simple(ex: &Exprs, e: usize) -> bool {
    ex.all(e).iter().all(|&n| {
        let node = &ex.nodes[n];
        match &node.k {
            K::Compare(ops) => ops.iter().all(|o| o == "==" || o == "!="),
            K::Binary(op) => op == "and" || op == "or",
            K::Unary(op) => op == "not",
            K::Name(_) | K::Attr => true,
            K::Other => matches!(node.json.get("_").and_then(J::as_str), Some("Num" | "Str" | "Bool" | "NoneLit" | "TileLit")),
            _ => false,
        }
    })
}
