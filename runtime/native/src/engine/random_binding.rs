//! `EngineRandom`: Python's generator natively (engine/rng.rs) bound for the tests that prove it equal
//! to `random.Random`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::{rng, seed_words};

/// Python's `random.Random(seed)`, natively: the methods the engine calls, each drawing what Python draws.
#[pyclass(module = "_native")]
pub(super) struct EngineRandom {
    rng: rng::Rng,
}

#[pymethods]
impl EngineRandom {
    #[new]
    fn new(seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(EngineRandom {
            rng: rng::Rng::from_words(&seed_words(seed)?),
        })
    }

    fn random(&mut self) -> f64 {
        self.rng.random()
    }

    fn getrandbits(&mut self, k: u32) -> PyResult<u64> {
        if k > 64 {
            return Err(PyValueError::new_err("getrandbits takes at most 64 bits here"));
        }
        Ok(self.rng.getrandbits(k))
    }

    fn randrange(&mut self, n: u64) -> PyResult<u64> {
        if n == 0 {
            return Err(PyValueError::new_err("empty range for randrange()"));
        }
        Ok(self.rng.randrange(n))
    }

    /// The order `shuffle` leaves `list(range(n))` in.
    fn shuffled(&mut self, n: usize) -> PyResult<Vec<usize>> {
        if n > 1 << 20 {
            return Err(PyValueError::new_err("a shuffle of more than a million items"));
        }
        let mut v: Vec<usize> = (0..n).collect();
        self.rng.shuffle(&mut v);
        Ok(v)
    }

    /// The index `choice` picks from a sequence of n items.
    fn choice(&mut self, n: usize) -> PyResult<usize> {
        if n == 0 {
            return Err(PyValueError::new_err("Cannot choose from an empty sequence"));
        }
        Ok(self.rng.choice(n))
    }
}
