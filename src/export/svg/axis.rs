//! Axes for the chart: a log scale for speeds and a linear one for ratios, each with
//! enough readable ticks over the whole range.
//!
//! Log ticks follow the usual 1-2-5 progression per decade, densest first where the
//! range is narrow, as matplotlib's `LogLocator(subs=…)` and gnuplot's `mxtics` do; a
//! range narrower than about a factor of three gets plain linear ticks instead, so a
//! decompression panel spanning 1,000 to 3,000 MB/s still has labels under its points.
//! Linear ticks use Heckbert's "nice numbers" (Graphics Gems, 1990): steps of 1, 2, 2.5
//! or 5 × 10^k.

/// Fewest ticks an axis should have.
pub(crate) const MIN_TICKS: usize = 4;
/// Most ticks an axis should have before they crowd.
pub(crate) const MAX_TICKS: usize = 11;

/// A mapping from data values to pixels along one axis.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scale {
    /// Data range.
    pub lo: f64,
    /// Data range.
    pub hi: f64,
    /// Pixel at `lo`.
    pub from: f64,
    /// Pixel at `hi`.
    pub to: f64,
    /// Logarithmic, or linear.
    pub log: bool,
}

impl Scale {
    /// The pixel of `value`.
    pub(crate) fn pixel(&self, value: f64) -> f64 {
        let t = if self.log {
            (value.ln() - self.lo.ln()) / (self.hi.ln() - self.lo.ln())
        } else {
            (value - self.lo) / (self.hi - self.lo)
        };
        self.from + t * (self.to - self.from)
    }
}

/// A log range around `min..=max` with a margin, so no point sits on the frame.
pub(crate) fn log_range(min: f64, max: f64) -> (f64, f64) {
    (min / 1.35, max * 1.35)
}

/// Ticks for a log axis over `lo..=hi`: the sparsest 1-2-5 family giving at least
/// [`MIN_TICKS`], thinned to at most [`MAX_TICKS`]; linear ticks for narrow ranges.
pub(crate) fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let families: [&[f64]; 4] = [
        &[1.0],
        &[1.0, 3.0],
        &[1.0, 2.0, 5.0],
        &[1.0, 1.5, 2.0, 3.0, 5.0, 7.0],
    ];
    for mantissas in families {
        let ticks = decade_ticks(lo, hi, mantissas);
        if ticks.len() >= MIN_TICKS {
            let step = ticks.len().div_ceil(MAX_TICKS);
            return ticks.into_iter().step_by(step).collect();
        }
    }
    linear_ticks(lo, hi).0
}

/// Every `m × 10^k` inside `lo..=hi`, ascending.
fn decade_ticks(lo: f64, hi: f64, mantissas: &[f64]) -> Vec<f64> {
    let mut ticks = Vec::new();
    let first = lo.log10().floor() as i32;
    let last = hi.log10().ceil() as i32;
    for exponent in first..=last {
        for m in mantissas {
            let value = round_to_precision(m * 10f64.powi(exponent));
            if value >= lo && value <= hi {
                ticks.push(value);
            }
        }
    }
    ticks
}

/// Nice linear ticks over `lo..=hi` (at least [`MIN_TICKS`] where the range allows), and
/// their step.
pub(crate) fn linear_ticks(lo: f64, hi: f64) -> (Vec<f64>, f64) {
    let step = nice_step((hi - lo) / (MIN_TICKS + 1) as f64);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    let ticks = (first..=last)
        .map(|i| round_to_precision(i as f64 * step))
        .collect();
    (ticks, step)
}

/// A linear range around `min..=max` that starts and ends on a nice step.
pub(crate) fn linear_range(min: f64, max: f64) -> (f64, f64) {
    let span = (max - min).max(max.abs() * 0.05).max(1e-9);
    let step = nice_step(span / (MIN_TICKS + 1) as f64);
    let lo = ((min - step * 0.5) / step).floor() * step;
    let hi = ((max + step * 0.5) / step).ceil() * step;
    (lo.max(0.0), hi)
}

/// The nice number (1, 2, 2.5 or 5 × 10^k) nearest above `raw`.
fn nice_step(raw: f64) -> f64 {
    let magnitude = 10f64.powf(raw.log10().floor());
    let fraction = raw / magnitude;
    let nice = [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .find(|n| *n >= fraction - 1e-9)
        .unwrap_or(10.0);
    nice * magnitude
}

/// Drops the float noise of `m × 10^k` (0.30000000000000004 → 0.3).
fn round_to_precision(value: f64) -> f64 {
    format!("{value:.10e}").parse().unwrap_or(value)
}

/// A tick as a person writes it: `0.05`, `1`, `1.5`, `200`, `1000`, `20,000`.
pub(crate) fn tick_text(value: f64) -> String {
    if value >= 10_000.0 && value.fract() == 0.0 {
        return crate::format::thousands(value as u64);
    }
    let text = crate::format::significant(value, 3);
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_ranges_get_decades_and_narrow_ones_get_more() {
        // The compression panel of the full matrix: 0.5 to 1,500 MB/s.
        let (lo, hi) = log_range(0.5, 1500.0);
        let ticks = log_ticks(lo, hi);
        assert_eq!(
            ticks,
            [1.0, 10.0, 100.0, 1000.0].map(f64::from),
            "{ticks:?}"
        );
        // The decompression panel: 900 to 3,100 MB/s had one label before.
        let (lo, hi) = log_range(900.0, 3100.0);
        let ticks = log_ticks(lo, hi);
        assert!(ticks.len() >= MIN_TICKS, "{ticks:?}");
        assert!(
            ticks[0] <= 900.0 && *ticks.last().unwrap() >= 3000.0,
            "{ticks:?}"
        );
        // Very narrow: linear steps.
        let ticks = log_ticks(2800.0, 3200.0);
        assert!(ticks.len() >= MIN_TICKS, "{ticks:?}");
        // Very wide: thinned, never crowded.
        let ticks = log_ticks(1e-4, 1e8);
        assert!(
            ticks.len() <= MAX_TICKS && ticks.len() >= MIN_TICKS,
            "{ticks:?}"
        );
    }

    #[test]
    fn ticks_read_without_float_noise() {
        let texts: Vec<String> = log_ticks(0.04, 2.5).into_iter().map(tick_text).collect();
        assert_eq!(texts, ["0.05", "0.1", "0.2", "0.5", "1", "2"]);
        assert_eq!(tick_text(1000.0), "1000");
        assert_eq!(tick_text(20_000.0), "20,000");
        assert_eq!(tick_text(1.5), "1.5");
    }

    #[test]
    fn a_linear_range_holds_its_values_on_nice_steps() {
        let (lo, hi) = linear_range(3.75, 8.78);
        assert!(lo <= 3.75 && hi >= 8.78, "{lo}..{hi}");
        let (ticks, step) = linear_ticks(lo, hi);
        assert_eq!((lo, hi, step), (2.0, 10.0, 2.0));
        assert_eq!(ticks, [2.0, 4.0, 6.0, 8.0, 10.0]);
    }

    #[test]
    fn scales_map_ends_to_ends() {
        let scale = Scale {
            lo: 1.0,
            hi: 100.0,
            from: 0.0,
            to: 200.0,
            log: true,
        };
        assert!((scale.pixel(10.0) - 100.0).abs() < 1e-9);
    }
}
