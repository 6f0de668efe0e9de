//! The prefilter's tests before a pattern's program: the reading's packed counts (6-bit fields, the
//! reference's prefilter vector summed over the reading's groups) against the pattern's constants; a
//! pattern whose test fails counts 0 without its program being evaluated.

use super::*;

impl Eval<'_, '_> {
    /// Whether pattern i's prefilter tests (if the reading has packed counts) rule it out.
    #[inline]
    pub(super) fn prefiltered_out(&mut self, i: usize) -> bool {
        let (Some(packed), Some(tests)) = (self.r.packed, self.p.prefilter.get(i)) else { return false };
        if tests.is_empty() {
            return false;
        }
        if !self.pf_made {
            // the packed counts' fields unpacked once a reading: a test then reads one byte
            unpack_fields(packed, &mut self.pf);
            self.pf_made = true;
        }
        for &(f, op, k) in tests {
            let v = self.pf.get(f).map_or(0, |x| *x as i64); // a field past the end is 0
            if !prefilter_cmp(v, op, k) {
                return true;
            }
        }
        false
    }
}

const PREFILTER_FIELD: usize = 6;

/// The 6-bit field f of the packed counts (a prefilter test compares it with a constant).
#[inline]
fn prefilter_field(packed: &[u8], f: usize) -> i64 {
    // the field's bits lie in two bytes at most (6 bits from any bit offset); a byte past the end is 0
    let bit = f * PREFILTER_FIELD;
    let byte = |i: usize| packed.get(i).map_or(0u16, |b| *b as u16);
    let two = byte(bit / 8) | byte(bit / 8 + 1) << 8;
    (two >> (bit % 8) & ((1 << PREFILTER_FIELD) - 1)) as i64
}

/// Every field the packed counts hold (the bytes' bits in fields of 6), in order.
fn unpack_fields(packed: &[u8], out: &mut Vec<u8>) {
    out.clear();
    let n = (packed.len() * 8).div_ceil(PREFILTER_FIELD);
    out.extend((0..n).map(|f| prefilter_field(packed, f) as u8));
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
