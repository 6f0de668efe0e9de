//! A fast keyed hash for the tables' memo keys (packed count vectors, option sets). Keyed by a random
//! seed per process, so crafted hands cannot be made to collide.

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};

const K: u64 = 0x9e37_79b9_7f4a_7c15;

#[derive(Clone, Copy)]
pub struct Keyed {
    seed: u64,
}

impl Default for Keyed {
    fn default() -> Self {
        Keyed { seed: RandomState::new().build_hasher().finish() | 1 }
    }
}

pub struct Mix(u64);

impl Hasher for Mix {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(b));
        }
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        let x = (self.0 ^ i).wrapping_mul(K);
        self.0 = x ^ (x >> 29);
    }

    #[inline]
    fn write_u128(&mut self, i: u128) {
        self.write_u64(i as u64);
        self.write_u64((i >> 64) as u64);
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.write_u64(i as u64);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        let x = self.0.wrapping_mul(K);
        x ^ (x >> 32)
    }
}

impl BuildHasher for Keyed {
    type Hasher = Mix;

    #[inline]
    fn build_hasher(&self) -> Mix {
        Mix(self.seed)
    }
}

pub type Map<K2, V> = HashMap<K2, V, Keyed>;

pub fn map<K2, V>() -> Map<K2, V> {
    HashMap::with_hasher(Keyed::default())
}
