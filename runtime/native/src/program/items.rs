//! A comprehension's items, where they lie: a reading list in the builtins' cache, a group's list
//! field in the reading's group fields, or a list of its own (eval.rs `comp` reads them by index).

use super::*;

/// Where a comprehension's items lie (`items_of`).
pub(super) enum Items {
    Builtin(usize), // a reading list, in the builtins' cache
    GField(usize),  // a group's list field, in the reading's group fields (its index there)
    Own(Arc<Vec<V>>),
}

impl Eval<'_, '_> {
    /// Where the items of a comprehension's source lie, its node(s) charged as `eval` charges them: a
    /// reading list in the builtins' cache or a group's list field in the reading's group fields are
    /// read there, by index, rather than copied (no reference count taken and dropped per comprehension).
    pub(super) fn items_of(&mut self, src: &Node) -> R<(Items, usize)> {
        match src {
            Node::Builtin(b) => {
                self.charge()?;
                return match self.ensure_builtin(*b)? {
                    v if !v.truthy() => Ok((Items::Own(Arc::new(Vec::new())), 0)), // `src or ()`
                    V::List(l) => Ok((Items::Builtin(*b as usize), l.len())),
                    _ => Err(Stop::Bail), // iterating a string or a non-list
                };
            }
            Node::Attr(o, f) => {
                if let (Node::Binder(i), true) = (&**o, *f < self.p.n_group_fields) {
                    if let V::Group(g) = self.binders[*i] {
                        let at = g as usize * GROUP_FIELDS.len() + *f;
                        if let Some(V::List(l)) = self.gf().get(at) {
                            let n = l.len();
                            self.charge()?;
                            return Ok(if n == 0 { (Items::Own(Arc::new(Vec::new())), 0) } else { (Items::GField(at), n) });
                        }
                    }
                }
            }
            _ => {}
        }
        match self.eval(src)? {
            v if !v.truthy() => Ok((Items::Own(Arc::new(Vec::new())), 0)), // `src or ()`
            V::List(l) => {
                let n = l.len();
                Ok((Items::Own(l), n))
            }
            _ => Err(Stop::Bail), // iterating a string or a non-list
        }
    }

    /// Item i of a comprehension's items (`items_of`).
    #[inline]
    pub(super) fn item(&self, items: &Items, i: usize) -> V {
        let list = match items {
            Items::Builtin(b) => match &self.builtins[*b] {
                Some(V::List(l)) => l,
                _ => return V::None, // never: kept as a list by items_of
            },
            Items::GField(at) => match &self.gf()[*at] {
                V::List(l) => l,
                _ => return V::None,
            },
            Items::Own(l) => l,
        };
        list[i].clone()
    }
}
