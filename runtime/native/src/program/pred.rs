//! Conditions compiled once: the connectives, single comparisons and binders' fields of the pattern
//! programs, resolved into a compact form of their own (`Pred`, `Opd`) that evaluates on the values
//! where they lie, whole numbers as plain integers, without building a value per node.
//!
//! The tree walk (eval.rs) charges the budget node by node and makes a value per node; a condition
//! such as `n.suit == m.suit and n.rank == m.rank + d` inside nested comprehensions is most of what a
//! reading evaluates. Here such a condition is one node of the lowered tree (`Node::Pred`), made after
//! the lowering and the memo marks (mod.rs `Program::build`), and evaluated with the nodes it charges
//! counted as it goes, then charged at once (`Eval::run_pred`). The count is the walk's, node for node,
//! up to where it stops: every stop inside its compiled parts is `Bail` (they read no pattern,
//! quantity, unit or waits), so charging the same nodes after the evaluation
//! rather than during it gives the same outcome and leaves the same budget — where the walk ran out of
//! budget, the charge runs out too (the budget left 0, `Bail`); where it stopped on a value, the nodes
//! counted to there are the ones the walk charged before stopping.
//!
//! A condition compiles as a whole (`cond_root`): `and`, `or`, `not`, a single comparison (charged one
//! node and its operands' nodes, at once before they are computed where `comparison` does so), truths and
//! operands made of constants, binders and their fields, the reading's builtins other than the waits
//! and settings and their fields, `len` of a reading list, arithmetic and the number functions, and
//! `count`/`any`/`all` loops of one or several binders over any source, remembered (memo.rs) or not.
//! A part that does not compile (a tally, `if`, `sum`, a pattern or quantity, the waits, a walked
//! source) is evaluated by the walk inside the compiled condition (`Pred::Walk`, `Opd::Walk`,
//! `Src::Walk`): the nodes counted before it are charged first, so the walk starts from the budget it
//! would have had, and any stop it makes (`NeedWaits` too) leaves the budget the walk leaves. A
//! builtin a compiled part reads is made before it is read (making one cannot stop and charges
//! nothing), so it is read where the builtins' cache keeps it.

use super::*;

/// A condition, compiled.
#[derive(Debug)]
pub(crate) enum Pred {
    And(Box<Pred>, Box<Pred>),
    Or(Box<Pred>, Box<Pred>),
    Not(Box<Pred>),
    /// a single comparison
    Cmp(Box<Compared>),
    /// a binder's field as a truth: (binder slot, field id)
    Field(usize, usize),
    /// a field of a field … of a binder as a truth: (binder slot, field ids in turn)
    Path(usize, Vec<usize>),
    /// a binder as a truth
    Binder(usize),
    /// a constant's truth
    Const(bool),
    /// a comprehension's truth
    Loop(Box<Looped>),
    /// an operand's truth (a reading's builtin or setting, their fields, `len` of a reading list),
    /// with the builtins it reads (a mask by `B`)
    Value(Box<Opd>, u32),
    /// a part that does not compile, evaluated by the tree walk (the nodes counted before it charged
    /// first, so the walk starts from the budget it would have had)
    Walk(Box<Node>),
    /// a condition (or a `count`/`any`/`all`) in the flat form (flat.rs), with the form it replaces
    Flat(Box<Flat>),
}

/// `count`, `any` or `all` of one or more binders (their combinations, as eval.rs `comp`) over a
/// reading list, a binder's list field, a constant or any other source, with a body that compiles,
/// neither remembered (memo.rs) nor answered from a tally (an `eq`).
#[derive(Debug)]
pub(crate) struct Looped {
    pub(super) memo: Option<Box<Memo>>,
    pub(super) func: CompFn,
    pub(super) slots: Vec<usize>,
    pub(super) src: Src,
    pub(super) body: Pred,
}

#[derive(Debug)]
pub(crate) enum Src {
    Builtin(B),
    Field(usize, usize),
    Const(V),
    /// a source the walk evaluates (after the comprehension's own node)
    Walk(Box<Node>),
}

/// A single comparison: its operands, the nodes they charge and when. `comparison` (eval.rs) charges
/// two `static_nodes` operands at once before computing them (`at_once`); any other pair is evaluated
/// by `eval`, node by node, the left operand first.
#[derive(Debug)]
pub(crate) struct Compared {
    pub(super) op: Cmp,
    pub(super) a: Opd,
    pub(super) b: Opd,
    pub(super) n: u64,
    pub(super) at_once: bool,
    pub(super) loops: bool, // an operand is a comprehension or walked: evaluated node by node, owned
    pub(super) builtins: u32, // the builtins the operands read (a mask by `B`), made before they are read
}

/// An operand of a compiled comparison (what `static_nodes` takes, fields of fields of a binder, the
/// reading's builtins and settings and their fields, `len` of a reading list).
#[derive(Debug)]
pub(crate) enum Opd {
    Int(i64),
    Const(V),
    Binder(usize),
    Field(usize, usize),
    Path(usize, Vec<usize>),
    Arith(Op, Box<Opd>, Box<Opd>),
    Neg(Box<Opd>),
    Call(Func, Box<Opd>, Option<Box<Opd>>),
    /// a builtin of the reading (not the waits) and the fields read from it in turn
    Builtin(B, Vec<usize>),
    /// a setting and the fields read from it in turn
    Setting(usize, Vec<usize>),
    /// `len` of a reading list
    Len(B),
    /// a comprehension's value: a comparison's operand only
    Loop(Box<Looped>),
    /// an operand the walk evaluates: a comparison's operand only
    Walk(Box<Node>),
}

/// A builtin a compiled condition may read: made on demand without reading anything that can stop
/// it (the waits are asked for where they are first read, `Stop::NeedWaits`: not here).
fn plain_builtin(b: B) -> bool {
    !matches!(b, B::Waits | B::ShapeWaits)
}

/// A builtin that is always a list.
fn list_builtin(b: B) -> bool {
    matches!(
        b,
        B::Melds | B::Groups | B::Pairs | B::Runs | B::Triplets | B::Kongs | B::Exposed | B::Tiles | B::Hand | B::Suits | B::Flowers
    )
}

/// Whether e, in a truth's place, is compiled as a whole (the connectives, a comparison, a
/// comprehension `looped` takes); its parts that do not compile are walked (`Pred::Walk`).
fn cond_root(e: &Node) -> bool {
    match e {
        Node::And(..) | Node::Or(..) | Node::Not(_) | Node::Compare(..) => true,
        Node::Comp { func: CompFn::Any | CompFn::All, .. } => loopable(e),
        _ => false,
    }
}

fn loopable(e: &Node) -> bool {
    matches!(e, Node::Comp { func: CompFn::Count | CompFn::Any | CompFn::All, slots, eq: None, .. } if !slots.is_empty() && slots.len() <= 8)
}

/// e as a compiled condition (e in a truth's place): flat where it compiles flat (flat.rs), its
/// compiled form kept beside it for where the flat form gives up.
fn pred_own(e: Node, cx: &mut FlatCx) -> Pred {
    if let Some(mut f) = cx.cond(&e) {
        cx.off += 1;
        f.orig = Orig::Pred(pred_plain(e, cx));
        cx.off -= 1;
        return Pred::Flat(Box::new(f));
    }
    pred_plain(e, cx)
}

fn pred_plain(e: Node, cx: &mut FlatCx) -> Pred {
    match e {
        Node::And(l, r) => Pred::And(Box::new(pred_own(*l, cx)), Box::new(pred_own(*r, cx))),
        Node::Or(l, r) => Pred::Or(Box::new(pred_own(*l, cx)), Box::new(pred_own(*r, cx))),
        Node::Not(o) => Pred::Not(Box::new(pred_own(*o, cx))),
        Node::Compare(ops, xs) if ops.len() == 1 && xs.len() == 2 => {
            // `comparison` charges a single comparison of `static_nodes` operands at once; any other
            // operand is charged node by node by eval before it compares, so the same count, and
            // every stop there is `Bail` too (or the walk's own, where a part is walked)
            let at_once = static_nodes(&xs[0]).is_some() && static_nodes(&xs[1]).is_some();
            let mut it = xs.into_iter();
            let (x0, x1) = (it.next().unwrap_or(Node::Const(V::None)), it.next().unwrap_or(Node::Const(V::None)));
            let mut side = |x: Node| -> (Opd, u64) {
                if loopable(&x) {
                    match looped_own(x, cx) {
                        Ok(l) => (Opd::Loop(Box::new(l)), 0),
                        Err(x) => (Opd::Walk(Box::new(walked(x, cx))), 0),
                    }
                } else {
                    match opd_own(x) {
                        Ok(o) => o,
                        Err(x) => (Opd::Walk(Box::new(walked(x, cx))), 0),
                    }
                }
            };
            let (a, na) = side(x0);
            let (b, nb) = side(x1);
            let loops = matches!(a, Opd::Loop(_) | Opd::Walk(_)) || matches!(b, Opd::Loop(_) | Opd::Walk(_));
            let builtins = mask(&a) | mask(&b);
            Pred::Cmp(Box::new(Compared { op: ops[0], a, b, n: na + nb, at_once, loops, builtins }))
        }
        Node::Binder(i) => Pred::Binder(i),
        Node::Const(v) => Pred::Const(v.truthy()),
        e @ Node::Comp { .. } if loopable(&e) => match looped_own(e, cx) {
            Ok(l) => Pred::Loop(Box::new(l)),
            Err(e) => Pred::Walk(Box::new(walked(e, cx))),
        },
        e @ (Node::Attr(..) | Node::Builtin(_) | Node::Setting(_) | Node::Call(..)) => match opd_own(e) {
            Ok((Opd::Field(i, f), _)) => Pred::Field(i, f),
            Ok((Opd::Path(i, fs), _)) => Pred::Path(i, fs),
            Ok((o @ (Opd::Builtin(..) | Opd::Setting(..) | Opd::Len(_)), _)) => {
                let m = mask(&o);
                Pred::Value(Box::new(o), m)
            }
            Ok((o, _)) => Pred::Walk(Box::new(walked(opd_node(o), cx))),
            Err(e) => Pred::Walk(Box::new(walked(e, cx))),
        },
        e => Pred::Walk(Box::new(walked(e, cx))),
    }
}

/// A compiled operand back as the node it came from (a truth's operand that `Pred::Value` does not
/// take: walked as written).
fn opd_node(o: Opd) -> Node {
    match o {
        Opd::Int(n) => Node::Const(V::Int(n)),
        Opd::Const(v) => Node::Const(v),
        Opd::Binder(i) => Node::Binder(i),
        Opd::Field(i, f) => Node::Attr(Box::new(Node::Binder(i)), f),
        Opd::Path(i, fs) => fs.into_iter().fold(Node::Binder(i), |n, f| Node::Attr(Box::new(n), f)),
        Opd::Arith(op, l, r) => Node::Arith(op, Box::new(opd_node(*l)), Box::new(opd_node(*r))),
        Opd::Neg(x) => Node::Neg(Box::new(opd_node(*x))),
        Opd::Call(f, a, b) => Node::Call(f, std::iter::once(opd_node(*a)).chain(b.map(|b| opd_node(*b))).collect()),
        Opd::Builtin(b, fs) => fs.into_iter().fold(Node::Builtin(b), |n, f| Node::Attr(Box::new(n), f)),
        Opd::Setting(i, fs) => fs.into_iter().fold(Node::Setting(i), |n, f| Node::Attr(Box::new(n), f)),
        Opd::Len(b) => Node::Call(Func::Len, vec![Node::Builtin(b)]),
        Opd::Loop(_) | Opd::Walk(_) => Node::Const(V::None), // never: opd_own makes neither
    }
}

/// The builtins an operand reads, a mask by `B`.
fn mask(o: &Opd) -> u32 {
    match o {
        Opd::Builtin(b, _) | Opd::Len(b) => 1 << (*b as u32),
        Opd::Arith(_, l, r) => mask(l) | mask(r),
        Opd::Neg(x) => mask(x),
        Opd::Call(_, a, b) => mask(a) | b.as_ref().map_or(0, |b| mask(b)),
        _ => 0,
    }
}

/// A node the walk evaluates, its own parts compiled where they compile.
fn walked(mut e: Node, cx: &mut FlatCx) -> Node {
    compile_children(&mut e, cx);
    e
}

/// A comprehension `run_loop` evaluates as eval.rs `comp` does (e: `loopable`), or e back.
fn looped_own(e: Node, cx: &mut FlatCx) -> Result<Looped, Node> {
    let Node::Comp { func, slots, src, body, eq: None, memo } = e else { return Err(e) };
    let src = match *src {
        Node::Builtin(b) if plain_builtin(b) => Src::Builtin(b),
        Node::Attr(o, f) if matches!(*o, Node::Binder(_)) => match *o {
            Node::Binder(i) => Src::Field(i, f),
            _ => return Err(Node::Const(V::None)), // never
        },
        Node::Const(v) => Src::Const(v),
        other => Src::Walk(Box::new(walked(other, cx))),
    };
    Ok(Looped { memo, func, slots, src, body: pred_own(*body, cx) })
}

/// A binder and the fields read from it in turn (`x.a.b`: x, [a]; the last field is the caller's).
fn path(e: &Node) -> Option<(usize, Vec<usize>)> {
    match e {
        Node::Binder(i) => Some((*i, Vec::new())),
        Node::Attr(o, f) => {
            let (i, mut fs) = path(o)?;
            fs.push(*f);
            Some((i, fs))
        }
        _ => None,
    }
}

/// A reading's builtin or setting and the fields read from it in turn.
fn base_path(e: &Node) -> Option<(Opd, u64)> {
    match e {
        Node::Builtin(b) if plain_builtin(*b) => Some((Opd::Builtin(*b, Vec::new()), 1)),
        Node::Setting(i) => Some((Opd::Setting(*i, Vec::new()), 1)),
        Node::Attr(o, f) => {
            let (mut o, n) = base_path(o)?;
            match &mut o {
                Opd::Builtin(_, fs) | Opd::Setting(_, fs) => fs.push(*f),
                _ => return None,
            }
            Some((o, n + 1))
        }
        _ => None,
    }
}

/// An operand compiled, with the nodes `eval` charges for it: `static_nodes`'s operands, fields of
/// fields of a binder (one node a field, as eval charges `Attr` of what is not a binder), builtins and
/// settings and their fields, `len` of a reading list; or the node back.
fn opd_own(e: Node) -> Result<(Opd, u64), Node> {
    match opd_of(&e) {
        Some(o) => Ok(o),
        None => Err(e),
    }
}

fn opd_of(e: &Node) -> Option<(Opd, u64)> {
    Some(match e {
        Node::Const(V::Int(n)) => (Opd::Int(*n), 1),
        Node::Const(v) => (Opd::Const(v.clone()), 1),
        Node::Binder(i) => (Opd::Binder(*i), 1),
        Node::Builtin(_) | Node::Setting(_) => base_path(e)?,
        Node::Attr(o, f) => match path(o) {
            Some((i, fs)) if fs.is_empty() => (Opd::Field(i, *f), 1),
            Some((i, mut fs)) => {
                fs.push(*f);
                let n = fs.len() as u64;
                (Opd::Path(i, fs), n)
            }
            None => base_path(e)?,
        },
        Node::Arith(op, l, r) => {
            let ((a, na), (b, nb)) = (opd_of(l)?, opd_of(r)?);
            (Opd::Arith(*op, Box::new(a), Box::new(b)), 1 + na + nb)
        }
        Node::Neg(o) => {
            let (a, n) = opd_of(o)?;
            (Opd::Neg(Box::new(a)), 1 + n)
        }
        Node::Call(Func::Len, args) if args.len() == 1 && matches!(args[0], Node::Builtin(b) if list_builtin(b)) => {
            let Node::Builtin(b) = args[0] else { return None };
            (Opd::Len(b), 2)
        }
        Node::Call(f @ (Func::Abs | Func::Floor), args) if args.len() == 1 => {
            let (a, n) = opd_of(&args[0])?;
            (Opd::Call(*f, Box::new(a), None), 1 + n)
        }
        Node::Call(f @ (Func::Max | Func::Min), args) if args.len() == 2 => {
            let ((a, na), (b, nb)) = (opd_of(&args[0])?, opd_of(&args[1])?);
            (Opd::Call(*f, Box::new(a), Some(Box::new(b))), 1 + na + nb)
        }
        _ => return None,
    })
}

/// Replaces every condition of e that compiles by its `Node::Pred`, outermost first, and every
/// `count`/`any`/`all`/`sum` in a value's place that compiles flat by its flat form (a `sum` as a
/// whole-number expression: the walk's sum of whole numbers is the same `Int`, and any other term
/// makes the flat form give up; `max`/`min` stay walked, their value may be a truth). The body of a
/// comprehension answered from a tally (an `eq`) stays as lowered: eval.rs reads its shape.
pub(crate) fn compile_preds(e: &mut Node, cx: &mut FlatCx) {
    if cond_root(e) {
        let owned = std::mem::replace(e, Node::Const(V::None));
        *e = Node::Pred(Box::new(pred_own(owned, cx)));
        return;
    }
    if matches!(e, Node::Comp { .. }) {
        let flat = if matches!(e, Node::Comp { func: CompFn::Sum, .. }) { cx.expr(e) } else { cx.value(e) };
        if let Some(mut f) = flat {
            let mut orig = std::mem::replace(e, Node::Const(V::None));
            cx.off += 1;
            compile_children(&mut orig, cx);
            cx.off -= 1;
            f.orig = Orig::Node(orig);
            *e = Node::Pred(Box::new(Pred::Flat(Box::new(f))));
            return;
        }
    }
    compile_children(e, cx);
}

/// `compile_preds` on e's parts (e itself stays).
pub(crate) fn compile_children(e: &mut Node, cx: &mut FlatCx) {
    match e {
        Node::Comp { src, body, eq, .. } => {
            compile_preds(src, cx);
            if let Some(q) = eq.as_deref_mut() {
                compile_preds(q, cx);
            } else {
                compile_preds(body, cx);
            }
        }
        _ => super::memo::children_mut(e).into_iter().for_each(|c| compile_preds(c, cx)),
    }
}
