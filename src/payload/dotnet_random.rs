//! .NET's legacy seeded `System.Random`: Knuth's subtractive generator.
//!
//! `new Random(seed)` in .NET (Framework and Core alike, including .NET 10/11) still runs
//! this algorithm for seeded instances, for compatibility. It is the lagged-Fibonacci
//! subtractive method of Knuth, *The Art of Computer Programming*, vol. 2, §3.2.2
//! (Program A), with .NET's own seeding and its quirks kept: the `r == MBIG` nudge and
//! the `inextp = 21` lag. The reference is .NET's `Random.Net5CompatImpl`
//! (`src/libraries/System.Private.CoreLib/src/System/Random.Net5CompatImpl.cs` in
//! dotnet/runtime).
//!
//! Reproducing it exactly is what makes codecbench's payloads byte-identical to the ones
//! the article's C# program serialised.

const MBIG: i32 = i32::MAX;
const MSEED: i32 = 161_803_398;

/// A seeded generator that yields the same stream as .NET's `new Random(seed)`.
#[derive(Clone, Debug)]
pub(crate) struct DotnetRandom {
    seed_array: [i32; 56],
    inext: usize,
    inextp: usize,
}

impl DotnetRandom {
    /// Seeds the generator the way .NET's `Random(int Seed)` constructor does.
    pub(crate) fn new(seed: i32) -> Self {
        let mut seed_array = [0i32; 56];
        let subtraction = if seed == i32::MIN { MBIG } else { seed.abs() };
        let mut mj = MSEED - subtraction;
        seed_array[55] = mj;
        let mut mk = 1i32;
        let mut ii = 0usize;
        for _ in 1..55 {
            ii += 21;
            if ii >= 55 {
                ii -= 55;
            }
            seed_array[ii] = mk;
            mk = mj.wrapping_sub(mk);
            if mk < 0 {
                mk = mk.wrapping_add(MBIG);
            }
            mj = seed_array[ii];
        }
        for _ in 0..4 {
            for i in 1..56 {
                let mut n = i + 30;
                if n >= 55 {
                    n -= 55;
                }
                seed_array[i] = seed_array[i].wrapping_sub(seed_array[1 + n]);
                if seed_array[i] < 0 {
                    seed_array[i] = seed_array[i].wrapping_add(MBIG);
                }
            }
        }
        DotnetRandom {
            seed_array,
            inext: 0,
            inextp: 21,
        }
    }

    /// The raw step: a value in `0..MBIG` (`InternalSample` in .NET).
    fn internal_sample(&mut self) -> i32 {
        self.inext += 1;
        if self.inext >= 56 {
            self.inext = 1;
        }
        self.inextp += 1;
        if self.inextp >= 56 {
            self.inextp = 1;
        }
        let mut r = self.seed_array[self.inext].wrapping_sub(self.seed_array[self.inextp]);
        if r == MBIG {
            r -= 1;
        }
        if r < 0 {
            r = r.wrapping_add(MBIG);
        }
        self.seed_array[self.inext] = r;
        r
    }

    /// A double in `[0, 1)`, as .NET's protected `Sample()`.
    fn sample(&mut self) -> f64 {
        f64::from(self.internal_sample()) * (1.0 / f64::from(MBIG))
    }

    /// `Next(maxValue)`: an integer in `0..max`. `max` must be non-negative.
    pub(crate) fn next_below(&mut self, max: i32) -> i32 {
        debug_assert!(max >= 0);
        (self.sample() * f64::from(max)) as i32
    }

    /// `Next(minValue, maxValue)`: an integer in `min..max`, for ranges that fit in an `i32`.
    pub(crate) fn next_in_range(&mut self, min: i32, max: i32) -> i32 {
        debug_assert!(min <= max);
        let range = i64::from(max) - i64::from(min);
        debug_assert!(range <= i64::from(i32::MAX));
        (self.sample() * range as f64) as i32 + min
    }

    /// `NextDouble()`: a double in `[0, 1)`.
    pub(crate) fn next_double(&mut self) -> f64 {
        self.sample()
    }

    /// `NextBytes(buffer)`: each byte is the low 8 bits of one raw step.
    pub(crate) fn fill_bytes(&mut self, buffer: &mut [u8]) {
        for byte in buffer {
            *byte = self.internal_sample() as u8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_42_first_record_draws_match_dotnet() {
        // The first record of MakeListPayload(_, 42) draws a GUID, then Next(7), Next(4),
        // NextDouble() and Next(1, 4); FIGURES.md gives what .NET made of them.
        let mut rng = DotnetRandom::new(42);
        let mut guid = [0u8; 16];
        rng.fill_bytes(&mut guid);
        assert_eq!(
            uuid::Uuid::from_bytes_le(guid).hyphenated().to_string(),
            "96ba173e-04ae-3bcd-9986-9e56f0adbf3a"
        );
        assert_eq!(rng.next_below(7), 3, "city index: Warsaw");
        assert_eq!(rng.next_below(4), 0, "status index: active");
        let balance = (rng.next_double() * 10000.0 * 100.0).round_ties_even() / 100.0;
        assert_eq!(balance, 8141.37);
        assert_eq!(rng.next_in_range(1, 4), 2, "two tags: vip, eu");
    }

    #[test]
    fn same_seed_same_stream_and_different_seed_different_stream() {
        let mut a = DotnetRandom::new(7);
        let mut b = DotnetRandom::new(7);
        let mut c = DotnetRandom::new(8);
        let xs: Vec<i32> = (0..100).map(|_| a.next_below(1_000_000)).collect();
        let ys: Vec<i32> = (0..100).map(|_| b.next_below(1_000_000)).collect();
        let zs: Vec<i32> = (0..100).map(|_| c.next_below(1_000_000)).collect();
        assert_eq!(xs, ys);
        assert_ne!(xs, zs);
    }

    #[test]
    fn negative_seed_behaves_like_its_absolute_value_and_min_does_not_overflow() {
        let mut pos = DotnetRandom::new(42);
        let mut neg = DotnetRandom::new(-42);
        for _ in 0..50 {
            assert_eq!(pos.internal_sample(), neg.internal_sample());
        }
        let mut min = DotnetRandom::new(i32::MIN);
        let mut max = DotnetRandom::new(i32::MAX);
        for _ in 0..50 {
            assert_eq!(min.internal_sample(), max.internal_sample());
        }
    }

    #[test]
    fn outputs_stay_in_their_ranges() {
        let mut rng = DotnetRandom::new(0);
        for _ in 0..10_000 {
            let d = rng.next_double();
            assert!((0.0..1.0).contains(&d));
            assert!((0..7).contains(&rng.next_below(7)));
            assert!((1..4).contains(&rng.next_in_range(1, 4)));
            assert!((0..MBIG).contains(&rng.internal_sample()));
        }
    }
}
