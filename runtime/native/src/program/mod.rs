//! Pattern programs: every pattern's `enabled`, `when` and `count` (and the quantities they read),
//! lowered once, at load, from the JSON rule set into a tree of enums with every name resolved to a
//! slot, and evaluated per reading into raw pattern counts — no Python callback.
//!
//! The semantics are the reference's (runtime/evaluate.py and runtime/scoring.py `ReadingEvaluator`):
//! `True == 1`, tiles equal by the kind they play as, groups by identity, numbers exact (integers and
//! fractions, here i64 rationals), `none` unequal to everything but `none` and never ordered, binders
//! kept in one environment per reading (an inner comprehension's binder is not restored, as in the
//! reference's dict), a pattern name read while that pattern is being counted is 0 (the reference's
//! re-entry guard). Wherever the reference would raise (a value it cannot use, a division by zero, a
//! number past its size) or a value leaves what this evaluator holds (an i64 overflow, a string
//! iterated over, a list ordered), evaluation stops with `Stop::Bail` and the caller lets the reference
//! evaluate that reading: the native result is only ever the reference's result.
//!
//! A rule set whose patterns this lowering does not take (a game function, patterns that read each
//! other in a cycle, a malformed node) is `Error::NotCovered` at load; a pattern that reads a unit (its
//! count depends on the other patterns' final counts) is left to the Python side (`python_owned`).

use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value as J;

use crate::catalog::Catalog;
use crate::Error;


mod counting;
mod eval;
mod flat;
mod flat_cols;
mod flat_eval;
mod flat_loops;
mod flat_typed;
mod funcs;
mod items;
mod lookup;
mod lower;
mod memo;
mod operands;
mod pred;
mod pred_eval;
mod prefilter;
mod setup;
mod sizes;
mod value;

pub(crate) use eval::*;
pub(crate) use flat::*;
pub(crate) use flat_eval::{flat_gave_up, GCol};
pub(crate) use funcs::*;
pub(crate) use lookup::*;
pub(crate) use lower::*;
pub(crate) use memo::*;
use operands::*;
pub(crate) use pred::*;
pub(crate) use sizes::*;
pub(crate) use value::*;

// ------------------------------------------------------------------ the program of a rule set

struct Pat {
    enabled: Option<Node>,
    when: Option<Node>,
    count: Option<Node>,
    // a `combine` pattern's count in the flat form, beside the comprehension `combos` reads
    count_flat: Option<Box<Flat>>,
}

pub struct Program {
    pats: Vec<Pat>,
    pub python_owned: Vec<bool>, // patterns that read units: counted by the Python side
    quantities: Vec<Node>,
    pub settings: Vec<String>, // the setting references read, by slot
    n_binders: usize,
    pub(crate) n_memo: usize, // memo ids of the remembered comprehensions (memo.rs)
    // per field id: group field index (< GROUP_FIELDS.len()) or a tile field
    n_group_fields: usize,
    tile_fields: Vec<Vec<Option<V>>>, // per kind, per field id
    f_wild: usize,
    f_joker: usize,
    kind_rank: Vec<i64>,
    kind_suit: Vec<Option<Arc<str>>>,
    pub fields: Vec<String>, // every field name the programs read, by field id
    pub kinds: Vec<String>,  // the catalog's kind names, in order
    // The reference's prefilter (runtime/prefilter.py), given by the Python side: per pattern, tests
    // (field, op, k) on the reading's packed counts; a pattern failing one counts 0 unevaluated.
    pub prefilter: Vec<Vec<(usize, u8, i64)>>,
    pf_table: prefilter::PfTable, // the same tests by field and value (`set_prefilter`)
    // values, requirements and the score formula lowered (score.rs), or why they are not
    pub scoring: Result<Scoring, String>,
    // per winning form of the rule set (its JSON order): its `instant` condition and its `pair_when`,
    // lowered for the native readings (src/hand/), or why they are not
    pub form_conds: Result<Vec<FormConds>, String>,
    // per pattern: the `{…}` expressions of its label, lowered, when it has some and they lower
    pub label_exprs: Vec<Option<Vec<Node>>>,
    // what decides which tiles of a hand are wild or stand in (runtime/hand_readings.py `classify`),
    // lowered for the native game's win questions, or why they are not
    pub classes: Result<ClassConds, String>,
    // what the flat conditions read (flat.rs)
    pub(crate) flat: FlatTables,
    // whether any of the programs reads the hand's waits / shape waits (a win question that reads
    // only whether the hand wins skips a refused reading's score only where skipping asks no waits)
    pub(crate) reads_waits: [bool; 2],
}

/// The conditions `classify` evaluates in a hand's environment: per wildcard declaration its
/// `active` condition; per stand-in what it plays and its `unless` (the rule set's order).
pub(crate) struct ClassConds {
    pub wild_active: Vec<Option<Node>>,
    pub standins: Vec<(Node, Option<Node>)>,
}

/// A winning form's conditions on a reading, as the readings of a hand test them.
pub(crate) struct FormConds {
    pub instant: Option<Node>,
    pub pair_when: Option<Node>,
    // the size tests leading `instant` (sizes.rs): a reading failing one fails it unevaluated
    pub instant_sizes: Vec<SizeTest>,
}

pub(crate) struct Requirement {
    pub forms: Vec<Arc<str>>,
    pub expr: Node,
    pub unless: Option<Node>,
    /// Reads no pattern and no unit, itself or through a quantity: its truth on a reading does not
    /// depend on the tally (score/choose.rs holds a win question's readings to it before counting).
    pub untallied: bool,
}

/// What scoring a reading reads after the raw counts: each pattern's value, the requirements in
/// order, the score's expressions; the one pattern that reads a unit and the units it reads.
pub(crate) struct Scoring {
    pub values: Vec<Node>,
    pub requires: Vec<Requirement>,
    pub score: Option<Node>,
    pub total: Option<Node>,
    pub best: Option<Node>,
    pub reader: Option<usize>,
    pub reader_units: Vec<usize>,
}

fn lower_scoring(
    rs: &serde_json::Map<String, J>,
    pats_j: &[J],
    lw: &mut Lowering,
    python_owned: &[bool],
    units_read: &[Vec<usize>],
    q_tallied: &[bool],
) -> Result<Scoring, Error> {
    let empty = Vec::new();
    let mut values = Vec::new();
    for p in pats_j {
        let e = p.get("value").filter(|v| !v.is_null()).ok_or_else(|| nc("a pattern without a value".into()))?;
        values.push(lw.lower(e, 0)?);
    }
    let mut requires = Vec::new();
    for q in rs.get("requires").and_then(J::as_array).unwrap_or(&empty) {
        let forms = q
            .get("forms")
            .and_then(J::as_array)
            .unwrap_or(&empty)
            .iter()
            .map(|f| f.as_str().map(Arc::from).ok_or_else(|| nc("a malformed requirement".into())))
            .collect::<Result<Vec<_>, Error>>()?;
        lw.reads_patterns.clear();
        lw.reads_quantities.clear();
        lw.reads_unit = false;
        let expr = lw.lower(q.get("expr").ok_or_else(|| nc("a requirement without a condition".into()))?, 0)?;
        let unless = match q.get("unless").filter(|v| !v.is_null()) {
            Some(e) => Some(lw.lower(e, 0)?),
            None => None,
        };
        let untallied = lw.reads_patterns.is_empty()
            && !lw.reads_unit
            && lw.reads_quantities.iter().all(|&i| q_tallied.get(i) == Some(&false));
        requires.push(Requirement { forms, expr, unless, untallied });
    }
    let sc = rs.get("score").filter(|v| !v.is_null());
    let part = |lw: &mut Lowering, k: &str| -> Result<Option<Node>, Error> {
        match sc.and_then(|s| s.get(k)).filter(|v| !v.is_null()) {
            Some(e) => Ok(Some(lw.lower(e, 0)?)),
            None => Ok(None),
        }
    };
    let score = part(lw, "expr")?;
    let total = part(lw, "total")?;
    let best = part(lw, "best")?;
    let reader = python_owned.iter().position(|&x| x);
    Ok(Scoring {
        values,
        requires,
        score,
        total,
        best,
        reader,
        reader_units: reader.map(|k| units_read[k].clone()).unwrap_or_default(),
    })
}

fn lower_forms(rs: &serde_json::Map<String, J>, lw: &mut Lowering) -> Result<Vec<FormConds>, Error> {
    let empty = Vec::new();
    let mut out = Vec::new();
    for f in rs.get("forms").and_then(J::as_array).unwrap_or(&empty) {
        let f = f.as_object().ok_or_else(|| nc("a malformed winning form".into()))?;
        let instant = opt(f, "instant").map(|e| lw.lower(e, 0)).transpose()?;
        let pair_when = opt(f, "pair_when").map(|e| lw.lower(e, 0)).transpose()?;
        let instant_sizes = instant.as_ref().map(size_tests).unwrap_or_default();
        out.push(FormConds { instant, pair_when, instant_sizes });
    }
    Ok(out)
}

fn lower_classes(rs: &serde_json::Map<String, J>, lw: &mut Lowering) -> Result<ClassConds, Error> {
    let empty = Vec::new();
    let list = |k: &str| rs.get(k).and_then(J::as_array).unwrap_or(&empty);
    let mut wild_active = Vec::new();
    for w in list("wilds") {
        let w = w.as_object().ok_or_else(|| nc("a malformed wildcard".into()))?;
        wild_active.push(opt(w, "active").map(|e| lw.lower(e, 0)).transpose()?);
    }
    let mut standins = Vec::new();
    for s in list("standins") {
        let s = s.as_object().ok_or_else(|| nc("a malformed stand-in".into()))?;
        let plays = opt(s, "plays").ok_or_else(|| nc("a stand-in without what it plays".into()))?;
        standins.push((lw.lower(plays, 0)?, opt(s, "unless").map(|e| lw.lower(e, 0)).transpose()?));
    }
    Ok(ClassConds { wild_active, standins })
}

fn opt<'j>(m: &'j serde_json::Map<String, J>, key: &str) -> Option<&'j J> {
    m.get(key).filter(|v| !v.is_null())
}

impl Program {
    pub fn build(text: &str, cat: &Catalog) -> Result<Program, Error> {
        let doc = crate::ruleset::json_doc(text)?;
        let rs = doc.get("ruleset").and_then(J::as_object).ok_or_else(|| nc("a rule set without patterns".into()))?;
        let empty = Vec::new();
        let pats_j = rs.get("patterns").and_then(J::as_array).unwrap_or(&empty);
        let qs_j = rs.get("quantities").and_then(J::as_array).unwrap_or(&empty);
        let mut lw = Lowering::new(cat, None);
        lw.units = rs
            .get("units")
            .and_then(J::as_array)
            .unwrap_or(&empty)
            .iter()
            .enumerate()
            .filter_map(|(j, u)| u.get("name").and_then(J::as_str).map(|n| (n.to_owned(), j)))
            .collect();
        for (i, p) in pats_j.iter().enumerate() {
            let name = p.get("name").and_then(J::as_str).ok_or_else(|| nc("a pattern without a name".into()))?;
            lw.patterns.entry(name.to_owned()).or_insert(i);
        }
        for (i, q) in qs_j.iter().enumerate() {
            let name = q.get("name").and_then(J::as_str).ok_or_else(|| nc("a quantity without a name".into()))?;
            lw.quantities.entry(name.to_owned()).or_insert(i);
        }
        // quantities: what each reads directly
        let mut quantities = Vec::new();
        let mut q_pats: Vec<Vec<usize>> = Vec::new();
        let mut q_qs: Vec<Vec<usize>> = Vec::new();
        let mut q_unit: Vec<bool> = Vec::new();
        let mut q_units: Vec<Vec<usize>> = Vec::new();
        for q in qs_j {
            let e = q.get("expr").ok_or_else(|| nc("a quantity without an expression".into()))?;
            lw.reads_patterns.clear();
            lw.reads_quantities.clear();
            lw.reads_unit = false;
            lw.reads_units.clear();
            quantities.push(lw.lower(e, 0)?);
            q_pats.push(std::mem::take(&mut lw.reads_patterns));
            q_qs.push(std::mem::take(&mut lw.reads_quantities));
            q_unit.push(lw.reads_unit);
            q_units.push(std::mem::take(&mut lw.reads_units));
        }
        // through quantities, transitively (a quantity reading itself is refused)
        let nq = quantities.len();
        let mut q_all_pats: Vec<Vec<usize>> = vec![Vec::new(); nq];
        let mut q_all_unit = vec![false; nq];
        let mut q_all_units: Vec<Vec<usize>> = vec![Vec::new(); nq];
        for i in 0..nq {
            let mut seen = vec![false; nq];
            let mut stack = vec![i];
            while let Some(j) = stack.pop() {
                if seen[j] {
                    continue;
                }
                seen[j] = true;
                q_all_pats[i].extend(&q_pats[j]);
                q_all_unit[i] |= q_unit[j];
                q_all_units[i].extend(&q_units[j]);
                for &k in &q_qs[j] {
                    if k == i {
                        return Err(nc("a quantity that reads itself".into()));
                    }
                    stack.push(k);
                }
            }
        }
        // A pattern of a `combine` block counts its combinations (runtime/scoring.py `combos`).
        let mut combined: Vec<&str> = Vec::new();
        for c in rs.get("combines").and_then(J::as_array).unwrap_or(&empty) {
            for n in c.get("patterns").and_then(J::as_array).unwrap_or(&empty) {
                combined.extend(n.as_str());
            }
        }
        let mut pats = Vec::new();
        let mut deps: Vec<Vec<usize>> = Vec::new();
        let mut python_owned = Vec::new();
        let mut units_read: Vec<Vec<usize>> = Vec::new();
        for p in pats_j {
            let p = p.as_object().ok_or_else(|| nc("a malformed pattern".into()))?;
            lw.reads_patterns.clear();
            lw.reads_quantities.clear();
            lw.reads_unit = false;
            lw.reads_units.clear();
            let low = |key: &str, lw: &mut Lowering| -> Result<Option<Node>, Error> {
                opt(p, key).map(|e| lw.lower(e, 0)).transpose()
            };
            let enabled = low("enabled", &mut lw)?;
            // A `when` conjunct that only compares the number of waits goes last: the waits are a search
            // of their own, and the other conjuncts usually decide first. (Pure values: the same result;
            // a moved-up conjunct that raises makes the reference evaluate the reading.)
            let when = match opt(p, "when") {
                None => None,
                Some(e) => {
                    let mut parts = Vec::new();
                    conjuncts(e, &mut parts);
                    let (mut first, last): (Vec<&J>, Vec<&J>) = parts.into_iter().partition(|c| !late(c));
                    first.extend(last);
                    let mut node: Option<Node> = None;
                    for c in first {
                        let n = lw.lower(c, 0)?;
                        node = Some(match node {
                            None => n,
                            Some(prev) => Node::And(Box::new(prev), Box::new(n)),
                        });
                    }
                    node
                }
            };
            let mut count = low("count", &mut lw)?;
            let pname = p.get("name").and_then(J::as_str).unwrap_or("");
            if combined.contains(&pname) {
                match &mut count {
                    Some(Node::Comp { func, eq, .. }) => {
                        *func = CompFn::Count;
                        *eq = None;
                    }
                    _ => return Err(nc("a combine pattern without a comprehension count".into())),
                }
            }
            let mut d = std::mem::take(&mut lw.reads_patterns);
            let mut unit = lw.reads_unit;
            let mut ur = std::mem::take(&mut lw.reads_units);
            for &q in &lw.reads_quantities {
                d.extend(&q_all_pats[q]);
                unit |= q_all_unit[q];
                ur.extend(&q_all_units[q]);
            }
            ur.sort_unstable();
            ur.dedup();
            units_read.push(ur);
            d.sort_unstable();
            d.dedup();
            deps.push(d);
            python_owned.push(unit);
            pats.push(Pat { enabled, when, count, count_flat: None });
        }
        // No cycles among the patterns, and none reads a pattern the Python side counts.
        let n = pats.len();
        let mut state = vec![0u8; n];
        fn visit(i: usize, deps: &[Vec<usize>], state: &mut [u8]) -> Result<(), Error> {
            if state[i] == 2 {
                return Ok(());
            }
            if state[i] == 1 {
                return Err(nc("patterns that read each other".into()));
            }
            state[i] = 1;
            for &j in &deps[i] {
                visit(j, deps, state)?;
            }
            state[i] = 2;
            Ok(())
        }
        for i in 0..n {
            visit(i, &deps, &mut state)?;
            if deps[i].iter().any(|&j| python_owned[j]) {
                return Err(nc("a pattern that reads a pattern which reads a unit".into()));
            }
        }
        if python_owned.iter().filter(|&&x| x).count() > 1 {
            return Err(nc("several patterns that read units".into()));
        }
        // what scoring reads after the counts (score.rs): lowered where it can be; else the reason
        let q_tallied: Vec<bool> = (0..nq).map(|i| !q_all_pats[i].is_empty() || q_all_unit[i]).collect();
        let scoring = lower_scoring(rs, pats_j, &mut lw, &python_owned, &units_read, &q_tallied).map_err(|e| match e {
            Error::NotCovered(m) | Error::Input(m) | Error::Internal(m) => m,
        });
        let form_conds = lower_forms(rs, &mut lw).map_err(|e| match e {
            Error::NotCovered(m) | Error::Input(m) | Error::Internal(m) => m,
        });
        let classes = lower_classes(rs, &mut lw).map_err(|e| match e {
            Error::NotCovered(m) | Error::Input(m) | Error::Internal(m) => m,
        });
        let mut label_exprs = Vec::with_capacity(pats_j.len());
        for p in pats_j {
            let got = match p.get("label_exprs").and_then(J::as_array) {
                Some(xs) if !xs.is_empty() => xs.iter().map(|e| lw.lower(e, 0)).collect::<Result<Vec<_>, _>>().ok(),
                _ => None,
            };
            label_exprs.push(got);
        }
        // tile fields by field id, per kind: as TileInfo.fill_fields makes them
        let fields = lw.fields.clone();
        let reads_waits = lw.reads_waits;
        let n_fields = fields.len();
        let _ = n_fields;
        let f_wild = fields.iter().position(|f| f == F_WILD);
        let f_joker = fields.iter().position(|f| f == F_JOKER);
        let kind_suit = suit_texts(cat);
        let tile_fields = kind_fields_with(cat, &fields, &kind_suit);
        let mut prog = Program {
            pats,
            python_owned,
            quantities,
            settings: lw.settings,
            n_binders: lw.binders.len(),
            n_memo: 0,
            n_group_fields: GROUP_FIELDS.len(),
            tile_fields,
            f_wild: f_wild.unwrap_or(usize::MAX),
            f_joker: f_joker.unwrap_or(usize::MAX),
            kind_rank: cat.kinds.iter().map(|k| k.rank).collect(),
            kind_suit,
            fields,
            kinds: cat.kinds.iter().map(|k| k.name.clone()).collect(),
            prefilter: Vec::new(),
            pf_table: Default::default(),
            scoring,
            form_conds,
            label_exprs,
            classes,
            flat: FlatTables::default(),
            reads_waits,
        };
        prog.n_memo = mark(&mut prog.roots());
        let scoped = all_scoped(&prog.roots());
        let mut cx = FlatCx::new(&prog, scoped);
        // a `combine` pattern's count stays a comprehension (eval.rs `combos` reads its parts)
        let keep: Vec<bool> = pats_j
            .iter()
            .map(|p| combined.contains(&p.get("name").and_then(J::as_str).unwrap_or("")))
            .collect();
        let mut kept: Vec<Option<Node>> = prog.pats.iter_mut().zip(&keep).map(|(p, &k)| if k { p.count.take() } else { None }).collect();
        // a count of another shape than a condition or a `count`/`any`/`all` (arithmetic, `if`, `sum`,
        // `max`, `min`): a flat copy
        // beside it where it compiles, the count itself compiled as the form it falls back to
        let mut exprs: Vec<Option<Node>> = Vec::new();
        for p in prog.pats.iter_mut() {
            let other = matches!(&p.count, Some(c) if !matches!(c, Node::Comp { func: CompFn::Count | CompFn::Any | CompFn::All | CompFn::Filter, .. } | Node::And(..) | Node::Or(..) | Node::Not(_) | Node::Compare(..) | Node::Const(_)));
            let flat = if other { p.count.as_ref().and_then(|c| cx.expr(c)) } else { None };
            exprs.push(if flat.is_some() { p.count.take() } else { None });
            p.count_flat = flat.map(Box::new);
        }
        for r in prog.roots() {
            compile_preds(r, &mut cx);
        }
        for (p, c) in prog.pats.iter_mut().zip(exprs.iter_mut()) {
            if let Some(mut c) = c.take() {
                cx.off += 1;
                compile_preds(&mut c, &mut cx);
                cx.off -= 1;
                p.count = Some(c);
            }
        }
        for (p, c) in prog.pats.iter_mut().zip(kept.iter_mut()) {
            if let Some(mut c) = c.take() {
                p.count_flat = cx.value(&c).map(Box::new);
                compile_children(&mut c, &mut cx);
                p.count = Some(c);
            }
        }
        prog.flat = cx.t;
        Ok(prog)
    }

    /// Every expression an `Eval` of this program evaluates (they share its binders).
    fn roots(&mut self) -> Vec<&mut Node> {
        let mut out: Vec<&mut Node> = Vec::new();
        for p in &mut self.pats {
            out.extend(p.enabled.as_mut());
            out.extend(p.when.as_mut());
            out.extend(p.count.as_mut());
        }
        out.extend(self.quantities.iter_mut());
        if let Ok(sc) = &mut self.scoring {
            out.extend(sc.values.iter_mut());
            for q in &mut sc.requires {
                out.push(&mut q.expr);
                out.extend(q.unless.as_mut());
            }
            out.extend(sc.score.as_mut());
            out.extend(sc.total.as_mut());
            out.extend(sc.best.as_mut());
        }
        if let Ok(fc) = &mut self.form_conds {
            for f in fc {
                out.extend(f.instant.as_mut());
                out.extend(f.pair_when.as_mut());
            }
        }
        for xs in self.label_exprs.iter_mut().flatten() {
            out.extend(xs.iter_mut());
        }
        if let Ok(c) = &mut self.classes {
            out.extend(c.wild_active.iter_mut().flatten());
            for (plays, unless) in &mut c.standins {
                out.push(plays);
                out.extend(unless.as_mut());
            }
        }
        out
    }

    /// Field `f` (an index into `fields`) of kind i as the program reads it from a natural tile of
    /// that kind (None: the kind has no such field), for the Python side's check that the native
    /// catalog matches its own.
    pub fn kind_field(&self, i: usize, f: usize) -> Option<V> {
        self.tile_fields.get(i)?.get(f)?.clone()
    }

    pub fn n_kinds(&self) -> usize {
        self.tile_fields.len()
    }
}

/// Tile fields by field id, per kind: as TileInfo.fill_fields makes them (None: the kind has no such field).
pub(crate) fn kind_fields(cat: &Catalog, fields: &[String]) -> Vec<Vec<Option<V>>> {
    kind_fields_with(cat, fields, &suit_texts(cat))
}

/// Each kind's suit as a text, one shared text per suit (equal() tries the pointer first).
pub(crate) fn suit_texts(cat: &Catalog) -> Vec<Option<Arc<str>>> {
    let mut seen: Vec<Arc<str>> = Vec::new();
    cat.kinds
        .iter()
        .map(|k| {
            k.suit.as_deref().map(|s| match seen.iter().find(|x| &***x == s) {
                Some(x) => x.clone(),
                None => {
                    seen.push(Arc::from(s));
                    seen[seen.len() - 1].clone()
                }
            })
        })
        .collect()
}

/// `kind_fields` with the kinds' suit texts given (`suit_texts`).
pub(crate) fn kind_fields_with(cat: &Catalog, fields: &[String], suits: &[Option<Arc<str>>]) -> Vec<Vec<Option<V>>> {
    let mut tile_fields = Vec::new();
    for (i, k) in cat.kinds.iter().enumerate() {
        let mut row = Vec::with_capacity(fields.len());
        for f in fields {
            let v = match f.as_str() {
                "kind" => Some(V::Tile(((i as u32) << 2) | (k.category == "joker") as u32)),
                "suit" => Some(suits[i].clone().map(V::Str).unwrap_or(V::None)),
                "rank" => Some(V::Int(k.rank)),
                "honor" => Some(V::Bool(k.category == "honor")),
                "flower" => Some(V::Bool(k.category == "flower")),
                "joker" => Some(V::Bool(k.category == "joker")),
                "wild" => Some(V::Bool(false)),
                "name" => Some(V::Str(Arc::from(k.name.as_str()))),
                other => k.attrs.get(other).map(|b| V::Bool(*b)),
            };
            row.push(v);
        }
        tile_fields.push(row);
    }
    tile_fields
}
