//! Checking the article's claims against a measured matrix, one row per claim.
//!
//! Sizes must match to the byte and ratios to two decimals. Speeds come from another
//! machine, so only their shape is checked: which is faster, and roughly by how much.
//! Each rule is written beside its claim below.

use serde::Serialize;

use crate::codec::CodecKind::{self, Brotli, Gzip, Zstd};
use crate::results::identity::{CellId, Variant};
use crate::results::{LoadedRun, RunCell};

/// Whether a claim holds here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// It holds as stated.
    Holds,
    /// Its direction holds, its size does not.
    Partly,
    /// It does not hold.
    Fails,
    /// The run lacks a cell the claim needs.
    Unmeasured,
}

impl Verdict {
    /// The word in the table.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Partly => "partly",
            Verdict::Fails => "does not hold",
            Verdict::Unmeasured => "not measured",
        }
    }
}

/// One claim of the article.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Claim {
    /// What the article says.
    pub claim: String,
    /// The article's figure.
    pub article: String,
    /// The figure measured here.
    pub measured: String,
    /// Whether it holds.
    pub verdict: Verdict,
}

/// The cells of one run, found by payload, codec and level; brotli prefers the C library
/// (what .NET ships) and falls back to the Rust port.
struct Matrix<'a> {
    run: &'a LoadedRun,
}

impl<'a> Matrix<'a> {
    fn cell(&self, payload: &str, codec: CodecKind, level: i32) -> Option<&'a RunCell> {
        let server = CellId::reference(codec, level);
        let fresh = |c: &&'a RunCell| {
            let id = c.key.id;
            c.key.payload == payload
                && id.codec == codec
                && id.level == level
                && id.variant == Variant::Fresh
        };
        let cells = self.run.codec_cells();
        self.run
            .cell_on(payload, &server)
            .or_else(|| cells.iter().find(fresh))
    }

    fn bytes(&self, payload: &str, codec: CodecKind, level: i32) -> Option<u64> {
        self.cell(payload, codec, level).map(|c| c.compressed_bytes)
    }

    fn ratio(&self, payload: &str, codec: CodecKind, level: i32) -> Option<f64> {
        self.cell(payload, codec, level).map(RunCell::ratio)
    }

    fn input(&self, payload: &str) -> Option<u64> {
        self.run
            .codec_cells()
            .iter()
            .find(|c| c.key.payload == payload)
            .map(|c| c.input_bytes)
    }

    fn compress_s(&self, payload: &str, codec: CodecKind, level: i32) -> Option<f64> {
        Some(
            self.cell(payload, codec, level)?
                .compress
                .as_ref()?
                .median_s,
        )
    }

    fn decompress_s(&self, payload: &str, codec: CodecKind, level: i32) -> Option<f64> {
        Some(
            self.cell(payload, codec, level)?
                .decompress
                .as_ref()?
                .median_s,
        )
    }

    fn mb_s(&self, payload: &str, seconds: f64) -> Option<f64> {
        Some(crate::stats::mb_per_s(self.input(payload)?, seconds))
    }
}

fn claim(claim: &str, article: &str, measured: Option<(String, Verdict)>) -> Claim {
    let (measured, verdict) =
        measured.unwrap_or_else(|| ("cell missing from the run".into(), Verdict::Unmeasured));
    Claim {
        claim: claim.to_string(),
        article: article.to_string(),
        measured,
        verdict,
    }
}

fn exact(expected: u64, measured: Option<u64>) -> Option<(String, Verdict)> {
    let measured = measured?;
    let verdict = if measured == expected {
        Verdict::Holds
    } else {
        Verdict::Fails
    };
    Some((format!("{} B", crate::export::thousands(measured)), verdict))
}

fn two_decimals(expected: &str, measured: Option<f64>) -> Option<(String, Verdict)> {
    let text = format!("{:.2}x", measured?);
    let verdict = if text == format!("{expected}x") {
        Verdict::Holds
    } else {
        Verdict::Fails
    };
    Some((format!("{text} ({:.3})", measured?), verdict))
}

/// The first zstd level above 1 whose ratio beats level 1's on `payload`.
fn first_level_beating_one(m: &Matrix, payload: &str) -> Option<Option<i32>> {
    let one = m.ratio(payload, Zstd, 1)?;
    Some((2..=19).find(|&level| m.ratio(payload, Zstd, level).is_some_and(|r| r > one)))
}

/// Every claim, in the order of FIGURES.md.
pub fn check(run: &LoadedRun) -> Vec<Claim> {
    let m = Matrix { run };
    let mut claims = vec![
        claim(
            "the 1,000-record payload",
            "298,727 B",
            exact(298_727, m.input("small")),
        ),
        claim(
            "the 10,000-record payload",
            "3,018,756 B",
            exact(3_018_756, m.input("large")),
        ),
        claim(
            "small, zstd 1 (streaming)",
            "41,132 B",
            exact(41_132, m.bytes("small", Zstd, 1)),
        ),
        claim(
            "small, zstd 3 (streaming)",
            "43,644 B",
            exact(43_644, m.bytes("small", Zstd, 3)),
        ),
        claim(
            "small, brotli Fastest",
            "44,606 B",
            exact(44_606, m.bytes("small", Brotli, 1)),
        ),
        claim(
            "small, gzip Fastest (zlib-ng)",
            "69,832 B",
            exact(69_832, m.bytes("small", Gzip, 1)),
        ),
        claim(
            "large, zstd 1 ratio",
            "7.37x",
            two_decimals("7.37", m.ratio("large", Zstd, 1)),
        ),
        claim(
            "large, zstd 3 ratio",
            "6.66x",
            two_decimals("6.66", m.ratio("large", Zstd, 3)),
        ),
        claim(
            "large, zstd -5 ratio",
            "3.81x",
            two_decimals("3.81", m.ratio("large", Zstd, -5)),
        ),
        claim(
            "large, zstd 19 ratio",
            "8.34x",
            two_decimals("8.34", m.ratio("large", Zstd, 19)),
        ),
        claim(
            "small, brotli 11 ratio",
            "8.78x",
            two_decimals("8.78", m.ratio("small", Brotli, 11)),
        ),
    ];

    // Shape: gzip Fastest makes one record larger than it was.
    claims.push(claim(
        "one record grows under gzip Fastest",
        "179 → 188 B",
        (|| {
            let (input, output) = (m.input("single")?, m.bytes("single", Gzip, 1)?);
            let verdict = if output > input {
                Verdict::Holds
            } else {
                Verdict::Fails
            };
            Some((format!("{input} → {output} B"), verdict))
        })(),
    ));

    // Shape: zstd 3 is larger and slower than zstd 1; the article's sizes are 1.9x the
    // CPU and 11% more bytes. Holds when both are worse, on both payloads.
    for payload in ["small", "large"] {
        claims.push(claim(
            &format!("{payload}: zstd 3 is worse than zstd 1 on both size and CPU"),
            "1.9x the CPU, +11% bytes",
            (|| {
                let cpu = m.compress_s(payload, Zstd, 3)? / m.compress_s(payload, Zstd, 1)?;
                let bytes = m.bytes(payload, Zstd, 3)? as f64 / m.bytes(payload, Zstd, 1)? as f64;
                let verdict = if cpu > 1.0 && bytes > 1.0 {
                    Verdict::Holds
                } else {
                    Verdict::Fails
                };
                Some((
                    format!("{cpu:.2}x the CPU, {:+.1}% bytes", (bytes - 1.0) * 100.0),
                    verdict,
                ))
            })(),
        ));
    }

    // Shape: the ratio falls at every step from level 1 to 4, then rises at 5.
    for payload in ["small", "large"] {
        claims.push(claim(
            &format!("{payload}: the zstd ratio falls from level 1 to 4, then rises"),
            "falls 1→4, rises after",
            (|| {
                let r: Vec<f64> = (1..=5)
                    .map(|l| m.ratio(payload, Zstd, l))
                    .collect::<Option<_>>()?;
                let falls = r[..4].windows(2).all(|w| w[1] < w[0]);
                let verdict = if falls && r[4] > r[3] {
                    Verdict::Holds
                } else {
                    Verdict::Fails
                };
                let text: Vec<String> = r.iter().map(|x| format!("{x:.2}")).collect();
                Some((format!("levels 1-5: {}", text.join(", ")), verdict))
            })(),
        ));
    }

    // Shape: the first level to beat level 1's ratio again is 9.
    for payload in ["small", "large"] {
        claims.push(claim(
            &format!("{payload}: the first zstd level to beat level 1's ratio again"),
            "level 9",
            first_level_beating_one(&m, payload).map(|level| match level {
                Some(9) => ("level 9".into(), Verdict::Holds),
                Some(level) => (format!("level {level}"), Verdict::Fails),
                None => ("none up to 19".into(), Verdict::Fails),
            }),
        ));
    }

    // Speed shape: zstd 1 and brotli Fastest compress about as fast (572 vs 564 MB/s).
    // Holds when within 20% of each other; partly when zstd is still the faster.
    claims.push(claim(
        "small: zstd 1 compresses about as fast as brotli Fastest",
        "572 vs 564 MB/s (1.01x)",
        (|| {
            let zstd = m.mb_s("small", m.compress_s("small", Zstd, 1)?)?;
            let brotli = m.mb_s("small", m.compress_s("small", Brotli, 1)?)?;
            let ratio = zstd / brotli;
            let verdict = if (0.8..=1.25).contains(&ratio) {
                Verdict::Holds
            } else if ratio > 1.0 {
                Verdict::Partly
            } else {
                Verdict::Fails
            };
            Some((
                format!("{zstd:.0} vs {brotli:.0} MB/s ({ratio:.2}x)"),
                verdict,
            ))
        })(),
    ));

    // Speed shape: zstd 1 decompresses 3.8x faster than brotli Fastest. Holds within 25%
    // of 3.8x; partly when zstd is faster by less or more.
    claims.push(claim(
        "small: zstd 1 decompresses 3.8x as fast as brotli Fastest",
        "3.8x",
        (|| {
            let ratio = m.decompress_s("small", Brotli, 1)? / m.decompress_s("small", Zstd, 1)?;
            let verdict = if (2.85..=4.75).contains(&ratio) {
                Verdict::Holds
            } else if ratio > 1.0 {
                Verdict::Partly
            } else {
                Verdict::Fails
            };
            Some((format!("{ratio:.2}x"), verdict))
        })(),
    ));

    // Speed shape: zstd -5 is the fastest zstd level (1635 MB/s). Holds within 5% of the
    // fastest level, as levels -5 to -1 differ by less than the noise.
    claims.push(claim(
        "small: zstd -5 compresses fastest of the zstd levels",
        "1635 MB/s",
        (|| {
            let at = |level| m.compress_s("small", Zstd, level);
            let fastest = (-5..=19)
                .filter(|&l| l != 0)
                .filter_map(|l| Some((l, at(l)?)))
                .min_by(|a, b| a.1.total_cmp(&b.1))?;
            let minus_five = at(-5)?;
            let verdict = if minus_five <= fastest.1 * 1.05 {
                Verdict::Holds
            } else {
                Verdict::Fails
            };
            Some((
                format!(
                    "{:.0} MB/s (fastest: level {}, {:.0} MB/s)",
                    m.mb_s("small", minus_five)?,
                    fastest.0,
                    m.mb_s("small", fastest.1)?
                ),
                verdict,
            ))
        })(),
    ));

    // Speed shape: brotli 11 is far too slow per response: hundreds of milliseconds on
    // small, seconds on large.
    for (payload, article, floor_s) in [("small", "272 ms", 0.1), ("large", "3.2 s", 1.0)] {
        claims.push(claim(
            &format!("{payload}: brotli 11 takes too long per response"),
            article,
            m.compress_s(payload, Brotli, 11).map(|s| {
                let verdict = if s >= floor_s {
                    Verdict::Holds
                } else {
                    Verdict::Fails
                };
                (format!("{:.0} ms", s * 1e3), verdict)
            }),
        ));
    }
    claims
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{CellKey, Timing};

    fn cell(payload: &str, codec: &str, level: i32, input: u64, bytes: u64, ms: f64) -> RunCell {
        let timing = Timing::of(ms / 1e3, vec![]);
        let key = CellKey::new(payload, codec, level);
        RunCell::for_test(key, input, bytes, timing.clone(), timing)
    }

    fn verdict_of(claims: &[Claim], start: &str) -> Verdict {
        claims
            .iter()
            .find(|c| c.claim.starts_with(start))
            .unwrap_or_else(|| panic!("no claim {start}"))
            .verdict
    }

    #[test]
    fn exact_sizes_hold_and_a_missing_cell_is_unmeasured() {
        let run = LoadedRun {
            label: "run".into(),
            machine: None,
            results: crate::results::Results::Codec(vec![
                cell("small", "zstd", 1, 298_727, 41_132, 0.7),
                cell("small", "zstd", 3, 298_727, 43_645, 1.0),
            ]),
        };
        let claims = check(&run);
        assert_eq!(verdict_of(&claims, "the 1,000-record"), Verdict::Holds);
        assert_eq!(
            verdict_of(&claims, "small, zstd 1 (streaming)"),
            Verdict::Holds
        );
        assert_eq!(
            verdict_of(&claims, "small, zstd 3 (streaming)"),
            Verdict::Fails
        );
        assert_eq!(
            verdict_of(&claims, "the 10,000-record"),
            Verdict::Unmeasured
        );
        assert_eq!(
            verdict_of(&claims, "small: zstd 3 is worse"),
            Verdict::Holds,
            "larger and slower"
        );
    }

    #[test]
    fn shape_claims_follow_the_matrix() {
        // Ratios 7.3, 7.2, 7.0, 6.9, 7.1, then level 6 and beyond beat level 1 from 16 on.
        let input = 3_000_000;
        let mut cells: Vec<RunCell> = [7.3, 7.2, 7.0, 6.9, 7.1]
            .iter()
            .enumerate()
            .map(|(i, r)| {
                cell(
                    "large",
                    "zstd",
                    i as i32 + 1,
                    input,
                    (input as f64 / r) as u64,
                    5.0,
                )
            })
            .collect();
        for level in 6..=19 {
            let ratio = if level >= 16 { 7.5 } else { 7.2 };
            cells.push(cell(
                "large",
                "zstd",
                level,
                input,
                (input as f64 / ratio) as u64,
                50.0,
            ));
        }
        let run = LoadedRun {
            label: "run".into(),
            machine: None,
            results: crate::results::Results::Codec(cells),
        };
        let claims = check(&run);
        assert_eq!(
            verdict_of(&claims, "large: the zstd ratio falls"),
            Verdict::Holds
        );
        let first = claims
            .iter()
            .find(|c| c.claim.starts_with("large: the first zstd level"))
            .unwrap();
        assert_eq!(
            (first.measured.as_str(), first.verdict),
            ("level 16", Verdict::Fails)
        );
    }
}
