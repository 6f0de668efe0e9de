//! Python's `random.Random`, bit for bit: the Mersenne Twister MT19937 as CPython's
//! Modules/_randommodule.c runs it (an int seed goes through `init_by_array` with the seed's absolute
//! value split into 32-bit words, least significant first), and the methods of Lib/random.py the engine
//! calls (`random`, `getrandbits`, `_randbelow` by rejection on `getrandbits(n.bit_length())`,
//! `randrange(n)`, `shuffle`, `choice`), so a native game draws exactly what the Python engine draws
//! for the same seed.

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

#[derive(Clone)]
pub struct Rng {
    mt: [u32; N],
    index: usize,
}

impl Rng {
    /// `random.Random(seed)` from the absolute value of the seed as 32-bit words, least significant first
    /// (none, or all zero: the seed 0, whose key is the one word 0).
    pub fn from_words(words: &[u32]) -> Rng {
        let mut len = words.len();
        while len > 1 && words[len - 1] == 0 {
            len -= 1;
        }
        let key: &[u32] = if len == 0 { &[0] } else { &words[..len] };
        // `init_genrand(19650218)`, the same for every seed: worked out once, copied
        let mut r = Rng::genrand_base().clone();
        // `init_by_array`'s first pass adds `key[j] + j`, j cycling over the key: a seed of one word (any
        // below 2^32) adds the same word at every step, taken out of the loop (the pass is a chain of
        // 624 dependent steps, run for every seeded generator: three a hand)
        let prev = match key {
            [k] => first_pass(&mut r.mt, N, || *k),
            _ => {
                let mut j = 0;
                first_pass(&mut r.mt, N.max(key.len()), || {
                    let add = key[j].wrapping_add(j as u32);
                    j = if j + 1 >= key.len() { 0 } else { j + 1 };
                    add
                })
            }
        };
        // its second pass, from where the first stopped (its position after max(N, len) steps from 1)
        let mt = &mut r.mt;
        let mut i = (N.max(key.len()) % (N - 1)) + 1;
        let mut prev = prev;
        let mut left = N - 1;
        while left > 0 {
            let run = (N - i).min(left);
            for (x, k) in mt[i..i + run].iter_mut().zip(i as u32..) {
                let p = prev ^ (prev >> 30);
                prev = (*x ^ p.wrapping_mul(1_566_083_941)).wrapping_sub(k);
                *x = prev;
            }
            left -= run;
            i += run;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        r.mt[0] = 0x8000_0000; // MSB is 1, assuring a non-zero initial array
        r.index = N;
        r
    }

    /// `random.Random(0)`: made once per process and copied (the seeding is ~30,000 instructions, the
    /// copy 2.5 KB), for the runs that draw from a fresh generator (a win's trial on a copy).
    pub fn seed_zero() -> Rng {
        static ZERO: std::sync::OnceLock<Rng> = std::sync::OnceLock::new();
        ZERO.get_or_init(|| Rng::from_words(&[0])).clone()
    }

    /// The generator in the state `random.Random.getstate()` gives: its 624 words and the position of
    /// the next one (None: not that many words, or a position past them).
    pub fn from_state(words: &[u32], index: usize) -> Option<Rng> {
        if words.len() != N || index > N {
            return None;
        }
        let mut mt = [0u32; N];
        mt.copy_from_slice(words);
        Some(Rng { mt, index })
    }

    /// `random.Random.getstate()`'s words and position, for `from_state`.
    pub fn state(&self) -> (Vec<u32>, usize) {
        (self.mt.to_vec(), self.index)
    }

    /// The generator after `init_genrand(19650218)`, where `init_by_array` starts from for any key.
    fn genrand_base() -> &'static Rng {
        static BASE: std::sync::OnceLock<Rng> = std::sync::OnceLock::new();
        BASE.get_or_init(|| {
            let mut r = Rng { mt: [0; N], index: N + 1 };
            r.init_genrand(19_650_218);
            r
        })
    }

    fn init_genrand(&mut self, s: u32) {
        self.mt[0] = s;
        for i in 1..N {
            let prev = self.mt[i - 1] ^ (self.mt[i - 1] >> 30);
            self.mt[i] = 1_812_433_253u32.wrapping_mul(prev).wrapping_add(i as u32);
        }
        self.index = N;
    }

    /// One 32-bit output (`genrand_uint32`).
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            let mag = |y: u32| if y & 1 == 1 { MATRIX_A } else { 0 };
            for kk in 0..N - M {
                let y = (self.mt[kk] & UPPER_MASK) | (self.mt[kk + 1] & LOWER_MASK);
                self.mt[kk] = self.mt[kk + M] ^ (y >> 1) ^ mag(y);
            }
            for kk in N - M..N - 1 {
                let y = (self.mt[kk] & UPPER_MASK) | (self.mt[kk + 1] & LOWER_MASK);
                self.mt[kk] = self.mt[kk + M - N] ^ (y >> 1) ^ mag(y);
            }
            let y = (self.mt[N - 1] & UPPER_MASK) | (self.mt[0] & LOWER_MASK);
            self.mt[N - 1] = self.mt[M - 1] ^ (y >> 1) ^ mag(y);
            self.index = 0;
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `random()`: a float in [0, 1) with 53 random bits.
    pub fn random(&mut self) -> f64 {
        let a = (self.next_u32() >> 5) as f64;
        let b = (self.next_u32() >> 6) as f64;
        (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// `getrandbits(k)` for k ≤ 64 (the engine never asks more: `_randbelow` of a length or a seed
    /// bound). Words are drawn least significant first; the last (most significant) one is cut to size.
    pub fn getrandbits(&mut self, k: u32) -> u64 {
        assert!(k <= 64, "getrandbits above 64 bits");
        if k == 0 {
            return 0;
        }
        if k <= 32 {
            return (self.next_u32() >> (32 - k)) as u64;
        }
        let lo = self.next_u32() as u64;
        let hi = (self.next_u32() >> (64 - k)) as u64;
        lo | (hi << 32)
    }

    /// `_randbelow(n)` (with `getrandbits`): a uniform int in [0, n), n > 0.
    pub fn randbelow(&mut self, n: u64) -> u64 {
        let k = 64 - n.leading_zeros(); // n.bit_length()
        let mut r = self.getrandbits(k);
        while r >= n {
            r = self.getrandbits(k);
        }
        r
    }

    /// `randrange(n)`, n > 0.
    pub fn randrange(&mut self, n: u64) -> u64 {
        self.randbelow(n)
    }

    /// `shuffle(x)` in place.
    pub fn shuffle<T>(&mut self, x: &mut [T]) {
        for i in (1..x.len()).rev() {
            let j = self.randbelow(i as u64 + 1) as usize;
            x.swap(i, j);
        }
    }

    /// The index `choice(seq)` picks from a sequence of `len` items, len > 0.
    pub fn choice(&mut self, len: usize) -> usize {
        self.randbelow(len as u64) as usize
    }
}

/// `init_by_array`'s first pass over `mt` for `steps` steps from `mt[1]` (the word before `mt[i]` carried
/// along, `mt[0]` set to the last word at each wrap, as the C code does), `add` giving each step's
/// `key[j] + j`; the last word written, which the second pass carries on from.
#[inline(always)]
fn first_pass(mt: &mut [u32; N], steps: usize, mut add: impl FnMut() -> u32) -> u32 {
    let mut prev = mt[0];
    let (mut i, mut left) = (1usize, steps);
    while left > 0 {
        let run = (N - i).min(left);
        for x in &mut mt[i..i + run] {
            let p = prev ^ (prev >> 30);
            prev = (*x ^ p.wrapping_mul(1_664_525)).wrapping_add(add());
            *x = prev;
        }
        left -= run;
        i += run;
        if i >= N {
            mt[0] = mt[N - 1];
            i = 1;
        }
    }
    prev
}
