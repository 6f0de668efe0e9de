//! The prefilter's tests before a pattern's program: the reading's packed counts (6-bit fields, the
//! reference's prefilter vector summed over the reading's groups) against the pattern's constants; a
//! pattern whose test fails counts 0 without its program being evaluated.

use super::*;

impl Eval<'_, '_> {
    /// Whether pattern i's prefilter tests (if the reading has packed counts) rule it out.
    #[inline]
    pub(super) fn prefiltered_out(&mut self, i: usize) -> bool {
        if self.pf_all {
            return self.pf_out.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 != 0);
        }
        let (Some(packed), Some(tests)) = (self.r.packed, self.p.prefilter.get(i)) else { return false };
        if tests.is_empty() {
            return false;
        }
        if !self.pf_made {
            // the packed counts' fields unpacked once a reading: a test then reads one byte
            unpack_fields(packed, &mut self.pf);
            self.pf_made = true;
        }
        !passes(&self.pf, tests)
    }

    /// Every pattern's prefilter tests asked at once, before the patterns are counted (`all_counts`):
    /// a bit per pattern they rule out, read there and by `prefiltered_out` — one pass over the
    /// program's list of every test (`PfTable`), each the field's value looked up in the values that
    /// pass it, instead of a call per pattern to ask its tests (half the patterns of a reading are
    /// ruled out, and nothing else is asked of them).
    pub(super) fn prefilter_all(&mut self) {
        let Some(packed) = self.r.packed else { return };
        let t = &self.p.pf_table;
        if t.words == 0 {
            return; // no tests given for every pattern: asked per pattern
        }
        if !self.pf_made {
            unpack_fields(packed, &mut self.pf);
            self.pf_made = true;
        }
        self.pf_out.clear();
        self.pf_out.resize(t.words, 0);
        for &(i, f, allowed) in &t.tests {
            let v = self.pf.get(f as usize).map_or(0, |x| *x); // a field past the end is 0
            if allowed >> v & 1 == 0 {
                self.pf_out[i as usize / 64] |= 1 << (i % 64);
            }
        }
        self.pf_all = true;
    }
}

/// The prefilter's tests as one list, when they are given: each (pattern, field, the values of the
/// field that pass it as a bit set over the 64 a 6-bit field may hold).
#[derive(Default)]
pub(crate) struct PfTable {
    words: usize, // a bit per pattern
    tests: Vec<(u32, u32, u64)>,
}

impl PfTable {
    fn new(tests: &[Vec<(usize, u8, i64)>]) -> PfTable {
        let mut t = PfTable { words: tests.len().div_ceil(64), tests: Vec::new() };
        for (i, ts) in tests.iter().enumerate() {
            for &(f, op, k) in ts {
                let allowed = (0..64u32).filter(|&v| prefilter_cmp(v as i64, op, k)).fold(0u64, |m, v| m | 1 << v);
                let Ok(f) = u32::try_from(f) else { return PfTable::default() };
                t.tests.push((i as u32, f, allowed));
            }
        }
        t
    }
}

impl Program {
    /// The reference's prefilter tests (runtime/prefilter.py), per pattern (field, op, k), and the
    /// table `all_counts` reads them from.
    pub fn set_prefilter(&mut self, tests: Vec<Vec<(usize, u8, i64)>>) {
        self.pf_table = if tests.len() == self.pats.len() { PfTable::new(&tests) } else { PfTable::default() };
        self.prefilter = tests;
    }
}

/// Whether the unpacked fields pass every test (none: they do).
#[inline(always)]
fn passes(pf: &[u8], tests: &[(usize, u8, i64)]) -> bool {
    tests.iter().all(|&(f, op, k)| {
        let v = pf.get(f).map_or(0, |x| *x as i64); // a field past the end is 0
        prefilter_cmp(v, op, k)
    })
}

const PREFILTER_FIELD: usize = 6;

/// Every field the packed counts hold (the bytes' bits in fields of 6, little-endian), in order; a
/// last field short of bits has them 0.
fn unpack_fields(packed: &[u8], out: &mut Vec<u8>) {
    out.clear();
    out.reserve((packed.len() * 8).div_ceil(PREFILTER_FIELD));
    let (mut acc, mut bits) = (0u32, 0u32);
    for &b in packed {
        acc |= (b as u32) << bits;
        bits += 8;
        while bits >= PREFILTER_FIELD as u32 {
            out.push((acc & ((1 << PREFILTER_FIELD) - 1)) as u8);
            acc >>= PREFILTER_FIELD;
            bits -= PREFILTER_FIELD as u32;
        }
    }
    if bits > 0 {
        out.push(acc as u8);
    }
}

/// A prefilter test's comparison of a field's value v with k (op: 0 ==, 1 !=, 2 <, 3 <=, 4 >, 5 >=).
#[inline]
fn prefilter_cmp(v: i64, op: u8, k: i64) -> bool {
    match op {
        0 => v == k,
        1 => v != k,
        2 => v < k,
        3 => v <= k,
        4 => v > k,
        _ => v >= k,
    }
}
