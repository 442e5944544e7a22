//! The random draws the record generator needs, behind one trait, so that the same
//! record shape can come from .NET's generator (for the exact reproduction) or from a
//! Rust-native ChaCha stream.

use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::dotnet_random::DotnetRandom;

/// The draws `MakeListPayload` makes, named after their .NET counterparts.
pub(crate) trait RecordRng {
    /// `NextBytes`: fills `buffer` with random bytes.
    fn fill_bytes(&mut self, buffer: &mut [u8]);
    /// `Next(max)`: an integer in `0..max`.
    fn next_below(&mut self, max: i32) -> i32;
    /// `Next(min, max)`: an integer in `min..max`.
    fn next_in_range(&mut self, min: i32, max: i32) -> i32;
    /// `NextDouble()`: a double in `[0, 1)`.
    fn next_double(&mut self) -> f64;
}

impl RecordRng for DotnetRandom {
    fn fill_bytes(&mut self, buffer: &mut [u8]) {
        DotnetRandom::fill_bytes(self, buffer)
    }
    fn next_below(&mut self, max: i32) -> i32 {
        DotnetRandom::next_below(self, max)
    }
    fn next_in_range(&mut self, min: i32, max: i32) -> i32 {
        DotnetRandom::next_in_range(self, min, max)
    }
    fn next_double(&mut self) -> f64 {
        DotnetRandom::next_double(self)
    }
}

/// A Rust-native stream (ChaCha8 from rand_chacha) with the same record shape. Its
/// payloads do not match .NET's; use it to check that a conclusion does not hinge on one
/// generator.
pub(crate) struct ChaChaRecordRng(ChaCha8Rng);

impl ChaChaRecordRng {
    /// Seeds ChaCha8 from `seed` with `SeedableRng::seed_from_u64`.
    pub(crate) fn new(seed: u64) -> Self {
        ChaChaRecordRng(ChaCha8Rng::seed_from_u64(seed))
    }
}

impl RecordRng for ChaChaRecordRng {
    fn fill_bytes(&mut self, buffer: &mut [u8]) {
        self.0.fill_bytes(buffer)
    }
    fn next_below(&mut self, max: i32) -> i32 {
        self.0.random_range(0..max)
    }
    fn next_in_range(&mut self, min: i32, max: i32) -> i32 {
        self.0.random_range(min..max)
    }
    fn next_double(&mut self) -> f64 {
        self.0.random::<f64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chacha_is_deterministic_per_seed() {
        let draw = |seed| {
            let mut rng = ChaChaRecordRng::new(seed);
            let mut bytes = [0u8; 16];
            rng.fill_bytes(&mut bytes);
            (
                bytes,
                rng.next_below(7),
                rng.next_in_range(1, 4),
                rng.next_double(),
            )
        };
        assert_eq!(draw(42), draw(42));
        assert_ne!(draw(42), draw(43));
        let (_, city, tags, double) = draw(42);
        assert!((0..7).contains(&city));
        assert!((1..4).contains(&tags));
        assert!((0.0..1.0).contains(&double));
    }
}
