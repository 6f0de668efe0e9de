//! What the rule set defines, asked of the observer once and kept in the memo: a tile kind's
//! placements per shape (`Decomposer.templates`) turned into the search's templates, the choices a
//! state may try at a kind, a shape's pure-wildcard groups, and a placement's signature part. The
//! search itself (mod.rs) reads only these kept answers after the first question.

use pyo3::exceptions::PyValueError;

use super::{Memo, Run, Stop, Template, PER_WORD, WORDS};
use crate::blocks::MAX_COUNT;

impl Memo {
    pub(super) fn item(&mut self, src: u32, wp: i32) -> u32 {
        if let Some(&i) = self.item_ids.get(&(src, wp)) {
            return i;
        }
        let i = self.items.len() as u32;
        self.items.push((src, wp));
        self.item_ids.insert((src, wp), i);
        i
    }

    /// The part's number and the group's item of one placement with its winning slot (-1: none).
    pub(super) fn part(&mut self, run: &mut Run<'_>, src: u32, wp: i32) -> Result<(u32, u32), Stop> {
        if let Some(&got) = self.parts.get(&(src, wp)) {
            return Ok(got);
        }
        let (s, slots) = &self.placed[src as usize];
        let pid = run.ask.part(*s, slots, wp)?;
        let iid = self.item(src, wp);
        self.parts.insert((src, wp), (pid, iid));
        Ok((pid, iid))
    }

    /// `Decomposer.templates(spec, i)` for every spec, asked once per tile kind.
    pub(super) fn fetch(&mut self, run: &mut Run<'_>, i: usize) -> Result<(), Stop> {
        if self.fetched[i] {
            return Ok(());
        }
        let got = run.ask.templates(i)?;
        if got.len() != self.n_specs {
            return Err(Stop::Py(PyValueError::new_err("one list of templates per shape")));
        }
        let mut per = Vec::with_capacity(got.len());
        for (s, list) in got.into_iter().enumerate() {
            let mut ids = Vec::new();
            for (slots, nat, nw, fw, first_nat) in list {
                let mut delta = [0u64; WORDS];
                let mut ok = true;
                for &(k, c) in &nat {
                    if k >= self.n {
                        return Err(Stop::Py(PyValueError::new_err("a template names a kind outside the catalog")));
                    }
                    if c > MAX_COUNT as usize {
                        ok = false; // more of a kind than any hand the tables take holds: never held
                    } else {
                        delta[k / PER_WORD] += (c as u64) << (4 * (k % PER_WORD));
                    }
                }
                if !ok {
                    continue;
                }
                let src = self.placed.len() as u32;
                self.placed.push((s as u32, slots));
                ids.push(self.tpls.len() as u32);
                self.tpls.push(Template { src, delta, nw, fw, first_nat, pair: self.pair[s] });
            }
            per.push(ids);
        }
        self.tpl_of[i] = per;
        self.fetched[i] = true;
        Ok(())
    }

    /// `Decomposer.packed_choices`: the templates a state may try at tile i, meld shapes first.
    pub(super) fn choices(&mut self, run: &mut Run<'_>, i: usize, melds: bool, pairs: bool, w: u32) -> Result<std::sync::Arc<[u32]>, Stop> {
        let key = (i as u32, melds, pairs, w);
        if let Some(got) = self.choices.get(&key) {
            return Ok(got.clone());
        }
        self.fetch(run, i)?;
        let mut out = Vec::new();
        for (s, ids) in self.tpl_of[i].iter().enumerate() {
            let is_meld = s < self.n_meld;
            if (is_meld && !melds) || (!is_meld && !pairs) {
                continue;
            }
            out.extend(ids.iter().copied().filter(|&t| self.tpls[t as usize].nw <= w));
        }
        let got: std::sync::Arc<[u32]> = out.into();
        self.choices.insert(key, got.clone());
        Ok(got)
    }

    /// `Decomposer.wild_targets_for(spec)`, asked once per shape.
    pub(super) fn targets(&mut self, run: &mut Run<'_>, s: usize) -> Result<std::sync::Arc<[u32]>, Stop> {
        if let Some(got) = &self.targets[s] {
            return Ok(got.clone());
        }
        let got = run.ask.targets(s)?;
        let mut ids = Vec::with_capacity(got.len());
        for slots in got {
            ids.push(self.placed.len() as u32);
            self.placed.push((s as u32, slots));
        }
        let ids: std::sync::Arc<[u32]> = ids.into();
        self.targets[s] = Some(ids.clone());
        Ok(ids)
    }
}
