//! An evaluation's setup on one reading: its buffers, kept for the next evaluation of the thread
//! when it ends; its groups' fields, made at their first read; the reading's builtins, made on demand.
//!
//! A hand's scoring and its wait trials make many evaluations one after another (one a reading, one
//! a trial's form condition): each taking the vectors the previous one left (cleared, resized)
//! rather than allocating and freeing its own is the same evaluation without those allocations; the
//! groups' fields (every group's fields as values) are made only by an evaluation that reads one.

use std::cell::{Cell, OnceCell, RefCell};

use super::*;

/// An evaluation's vectors, cleared, kept for the next one.
#[derive(Default)]
struct Buffers {
    binders: Vec<V>,
    counts: Vec<Option<i64>>,
    quantities: Vec<Option<V>>,
    gfields: Vec<V>,
    cols: Vec<GCol>,
    pf: Vec<u8>,
    pf_out: Vec<u64>,
    memo: Vec<Vec<(MemoKey, V, u64)>>, // per memo id, emptied (its lists keep their room)
}

/// Buffers kept per thread (a bound: evaluations alive at once beyond it allocate their own).
const KEPT: usize = 32;

thread_local! {
    static SPARE: RefCell<Vec<Buffers>> = const { RefCell::new(Vec::new()) };
}

impl<'p, 'r> Eval<'p, 'r> {
    pub(crate) fn new(p: &'p Program, r: &'r Reading<'r>) -> Eval<'p, 'r> {
        let mut b = SPARE.with(|s| s.borrow_mut().pop()).unwrap_or_default();
        // (filled by a loop that makes each empty value, not `resize`'s clone of one: the generic
        // `resize::<V>` is not always inlined, and then clones item by item through `V::clone`)
        b.binders.truncate(p.n_binders);
        let more = p.n_binders - b.binders.len();
        b.binders.extend(std::iter::repeat_with(|| V::None).take(more));
        b.counts.resize(p.pats.len(), None);
        b.quantities.truncate(p.quantities.len());
        let more = p.quantities.len() - b.quantities.len();
        b.quantities.extend(std::iter::repeat_with(|| None).take(more));
        Eval {
            p,
            r,
            builtins: std::array::from_fn(|_| None),
            binders: b.binders,
            counts: b.counts,
            quantities: b.quantities,
            gfields: OnceCell::new(),
            gf_spare: Cell::new(b.gfields),
            budget: BUDGET,
            tallies: Vec::new(),
            tally_built: 0,
            memo: RefCell::new(b.memo),
            cols: b.cols,
            cols_state: 0,
            fpending: Default::default(),
            fkeys: Default::default(),
            pf: b.pf,
            pf_out: b.pf_out,
            pf_all: false,
            fbv: std::array::from_fn(|_| Cell::new(None)),
            pf_made: false,
            units: None,
            waits: r.waits.clone(),
            shape_waits: r.shape_waits.clone(),
        }
    }

    /// Every group's fields, in GROUP_FIELDS order one group after another (made at the first read).
    #[inline]
    pub(super) fn gf(&self) -> &[V] {
        self.gfields.get_or_init(|| {
            let mut gf = self.gf_spare.take();
            for g in &self.r.groups {
                group_fields_into(&self.p.kind_rank, &self.p.kind_suit, g, &mut gf);
            }
            gf
        })
    }

    fn group_list(&self, keep: impl Fn(&Group) -> bool) -> V {
        // room for every group at once (a filtered `collect` would grow the list item by item)
        let mut out = Vec::with_capacity(self.r.groups.len());
        out.extend(self.r.groups.iter().filter(|g| keep(g)).map(|g| V::Group(g.ident)));
        V::List(Arc::new(out))
    }

    fn all_tiles(&self, hand_only: bool) -> Arc<Vec<V>> {
        let mut out = Vec::with_capacity(self.r.groups.iter().map(|g| g.tiles.len()).sum());
        for (g, &d) in self.r.groups.iter().zip(&self.r.declared) {
            if !(hand_only && d) {
                out.extend(g.tiles.iter().cloned());
            }
        }
        Arc::new(out)
    }

    pub(super) fn builtin(&mut self, b: B) -> R<V> {
        if let Some(v) = &self.builtins[b as usize] {
            return Ok(v.clone());
        }
        self.make_builtin(b)?;
        self.builtins[b as usize].clone().ok_or(Stop::Bail)
    }

    /// Builtin b's value, made and kept in the builtins' cache if it is not there yet (read it there:
    /// a reading list is not copied).
    pub(super) fn ensure_builtin(&mut self, b: B) -> R<&V> {
        if self.builtins[b as usize].is_none() {
            self.make_builtin(b)?;
        }
        self.builtins[b as usize].as_ref().ok_or(Stop::Bail)
    }

    fn make_builtin(&mut self, b: B) -> R<()> {
        let r = self.r;
        let v = match b {
            B::Groups => self.group_list(|_| true),
            B::Melds => self.group_list(|g| !g.pair),
            B::Pairs => self.group_list(|g| g.pair),
            B::Pair => match r.groups.iter().find(|g| g.pair) {
                Some(g) => V::Group(g.ident),
                None => V::None,
            },
            B::Runs | B::Triplets if self.cols_usable() => {
                // from the flat form's columns (flat_eval.rs): the same flags, without every group's values
                let bit = if b == B::Runs { G_RUN } else { G_TRIPLET };
                let mut out = Vec::with_capacity(r.groups.len());
                out.extend(
                    r.groups.iter().zip(&self.cols).filter(|(_, c)| c.flags & (G_PAIR | bit) == bit).map(|(g, _)| V::Group(g.ident)),
                );
                V::List(Arc::new(out))
            }
            B::Runs | B::Triplets => {
                let f = if b == B::Runs { F_RUN } else { F_TRIPLET };
                let mut out = Vec::with_capacity(r.groups.len());
                out.extend(
                    r.groups
                        .iter()
                        .zip(self.gf().chunks(GROUP_FIELDS.len()))
                        .filter(|(g, fs)| !g.pair && fs[f].truthy())
                        .map(|(g, _)| V::Group(g.ident)),
                );
                V::List(Arc::new(out))
            }
            B::Kongs => self.group_list(|g| !g.pair && g.kong),
            B::Exposed => self.group_list(|g| g.exposed),
            B::Tiles => V::List(match &r.tiles {
                Some(t) => t.clone(),
                None => self.all_tiles(false),
            }),
            B::Hand => V::List(match &r.hand {
                Some(t) => t.clone(),
                None => self.all_tiles(true),
            }),
            B::WinTile => r.win_tile.clone(),
            B::WinGroup => r.win_group.clone(),
            B::Form => r.form.clone(),
            B::Suits => {
                let tiles = match self.builtin(B::Tiles)? {
                    V::List(l) => l,
                    _ => return Err(Stop::Bail),
                };
                let mut suits: Vec<Arc<str>> = Vec::new();
                for t in tiles.iter() {
                    if let V::Tile(c) = t {
                        if let Some(s) = &self.p.kind_suit[kind_of(*c) as usize] {
                            if !s.is_empty() && !suits.iter().any(|x| x == s) {
                                suits.push(s.clone());
                            }
                        }
                    }
                }
                suits.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
                V::List(Arc::new(suits.into_iter().map(V::Str).collect()))
            }
            B::Menqing => V::Bool(!r.groups.iter().any(|g| g.exposed)),
            B::Flowers => V::List(r.flowers.clone()),
            B::SelfDrawn => V::Bool(r.self_drawn),
            B::Waits => match &self.waits {
                Some(w) => w.clone(),
                None => return Err(Stop::NeedWaits),
            },
            B::ShapeWaits => match &self.shape_waits {
                Some(w) => w.clone(),
                None => return Err(Stop::NeedShapeWaits),
            },
        };
        self.builtins[b as usize] = Some(v);
        Ok(())
    }

}

impl Drop for Eval<'_, '_> {
    fn drop(&mut self) {
        let mut b = Buffers {
            binders: std::mem::take(&mut self.binders),
            counts: std::mem::take(&mut self.counts),
            quantities: std::mem::take(&mut self.quantities),
            gfields: self.gfields.take().unwrap_or_else(|| self.gf_spare.take()),
            memo: std::mem::take(self.memo.get_mut()),
            cols: std::mem::take(&mut self.cols),
            pf: std::mem::take(&mut self.pf),
            pf_out: std::mem::take(&mut self.pf_out),
        };
        for m in b.memo.iter_mut() {
            m.clear();
        }
        b.binders.clear();
        b.counts.clear();
        b.quantities.clear();
        b.gfields.clear();
        b.cols.clear();
        // a thread being torn down has no spare list any more: the buffers are freed
        let _ = SPARE.try_with(|s| {
            if let Ok(mut s) = s.try_borrow_mut() {
                if s.len() < KEPT {
                    s.push(b);
                }
            }
        });
    }
}
