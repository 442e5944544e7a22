//! Exports: pure functions from results and analyses to bytes. One file per format
//! (terminal table, Markdown, CSV, JSON, SVG) and one per report, which builds the
//! shared [`document::Document`] for the two human-readable formats. Only `commands`
//! writes them anywhere.

pub(crate) mod answer;
pub(crate) mod comparison;
pub(crate) mod comparison_notes;
pub(crate) mod csv;
pub(crate) mod dashboards;
pub(crate) mod document;
pub(crate) mod emit;
pub(crate) mod http;
pub(crate) mod json;
pub(crate) mod markdown;
pub(crate) mod matrix;
mod merge_parts;
pub(crate) mod merged;
pub(crate) mod merged_probe;
pub(crate) mod noise;
pub(crate) mod probe;
#[cfg(test)]
mod read_back;
pub(crate) mod recommendation;
pub(crate) mod reproduction;
pub(crate) mod seam;
pub(crate) mod svg;
pub(crate) mod table;
pub(crate) mod zstd_params;

pub(crate) use document::{Document, Style};
pub(crate) use seam::{exporter, Exporter, Subject};

use crate::results::codec::PayloadResult;

/// How a command prints its results on stdout: every command takes the formats that
/// can hold its results (`--format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Terminal tables, one per payload where there are several.
    Table,
    /// CSV, one row per measured result (cell, encoding or merged setting).
    Csv,
    /// One JSON document with everything, every sample included.
    Json,
    /// GitHub-flavoured Markdown tables, e.g. for a CI job summary.
    Markdown,
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use clap::ValueEnum as _;
        let value = self.to_possible_value().expect("no format is skipped");
        f.write_str(value.get_name())
    }
}

/// Documents in `style`, one after another with an empty line between: what `run`
/// and `http` print on stdout, payload by payload, and what `--export-markdown` holds.
pub(crate) fn render_each(documents: impl IntoIterator<Item = Document>, style: Style) -> Vec<u8> {
    let mut out = Vec::new();
    for (index, document) in documents.into_iter().enumerate() {
        if index > 0 {
            out.push(b'\n');
        }
        out.extend(render(&document, style));
    }
    out
}

/// The library, with the variant when it is not a fresh encoder: `libzstd, reused`.
pub(crate) fn library_text(id: &crate::vocab::CellId) -> String {
    match id.variant {
        crate::vocab::Variant::Fresh => id.library.to_string(),
        variant => format!("{}, {variant}", id.library),
    }
}

/// What the rows of a server's own encoders rest on, for each such variant among
/// `variants`: a model of its source, or a model checked against the live server.
pub(crate) fn server_notes(
    variants: impl IntoIterator<Item = crate::vocab::Variant>,
) -> Vec<String> {
    use crate::vocab::Variant;
    let (mut aspnetcore, mut nginx) = (false, false);
    for variant in variants {
        aspnetcore |= matches!(variant, Variant::Aspnetcore { .. });
        nginx |= variant == Variant::Nginx;
    }
    let mut notes = Vec::new();
    if aspnetcore {
        notes.push(
            "aspnetcore: modelled from ASP.NET Core's source (docs/servers.md), not measured against a live Kestrel"
                .to_string(),
        );
    }
    if nginx {
        notes.push(
            "nginx: predicted, and checked to the byte against a live nginx (tests/nginx.rs)"
                .to_string(),
        );
    }
    notes
}

/// How many iterations each cell ran, e.g. `60 timed iterations after 3 warm-up, in 5
/// rounds`, or the time budget that sized them.
pub(crate) fn iteration_text(payload: &PayloadResult) -> String {
    let count = match (payload.iterations, payload.min_time_s) {
        (Some(n), _) => format!("{n} timed iterations"),
        (None, Some(t)) => format!("at least {t} s of timed iterations"),
        (None, None) => "the timed iterations".to_string(),
    };
    let (warmup, rounds) = (payload.warmup, payload.rounds);
    let rounds_text = crate::format::count(u64::from(rounds), "round");
    // Later rounds re-warm with one, and long first runs skip it: not repeated here.
    match payload.processes {
        1 => format!("{count} after {warmup} warm-up, in {rounds_text}"),
        n => format!("{count} across {n} processes of {rounds_text}, after {warmup} warm-up"),
    }
}

/// Draws `document` in `style`.
pub(crate) fn render(document: &Document, style: Style) -> Vec<u8> {
    match style {
        Style::Terminal => table::render(document),
        Style::Markdown => markdown::render(document),
    }
    .into_bytes()
}

/// A measured figure for CSV: 4 significant digits (more digits than the noise allows
/// would be float noise, e.g. `32.401475999999995`), empty when absent.
pub(crate) fn csv_figure(value: Option<f64>) -> String {
    value
        .map(|v| {
            let text = crate::format::significant(v, 4);
            // A decimal point always, so that a column of `1347` or `0` is not read as
            // integers in one file and as floats in the next (pandas, spreadsheets).
            match text.contains(['.', 'e', 'N', 'i']) {
                true => text,
                false => text + ".0",
            }
        })
        .unwrap_or_default()
}

/// A compression ratio for CSV: 4 decimals.
pub(crate) fn csv_ratio(value: Option<f64>) -> String {
    value.map(|v| format!("{v:.4}")).unwrap_or_default()
}

#[cfg(test)]
pub(crate) mod fixtures {
    //! A fixed, hand-made report for the reporters' snapshot tests.

    use crate::results::codec::{CellResult, PayloadResult, RunReport, SCHEMA_VERSION};
    use crate::results::environment::{Environment, Pin};
    use crate::stats::Summary;

    fn cell(
        codec: &str,
        level: i32,
        dotnet: Option<&str>,
        bytes: u64,
        c: &[f64],
        d: &[f64],
    ) -> CellResult {
        let codec = codec.parse().expect("a codec name");
        CellResult {
            id: crate::vocab::CellId::reference(codec, level),
            version: "1.0".into(),
            dotnet_level: dotnet.map(Into::into),
            compressed_bytes: bytes,
            encoder_bytes: Some(bytes * 10),
            compress: Summary::from_seconds(c.to_vec()),
            decompress: Summary::from_seconds(d.to_vec()),
            compress_instructions: None,
            decompress_instructions: None,
            precision_met: None,
            status: crate::results::codec::Status::Ok,
            failure: None,
        }
    }

    /// Two zstd cells, one brotli, one failed gzip cell.
    pub(crate) fn report() -> RunReport {
        let mut failed = cell("gzip", 1, Some("Fastest"), 69_832, &[], &[]);
        failed.fail(
            "round trip mismatch: decompressed 5 bytes differ from the 298727-byte input".into(),
        );
        RunReport {
            schema_version: SCHEMA_VERSION,
            environment: Environment {
                codecbench_version: "0.0.0-test".into(),
                git_commit: Some("0123456789abcdef0123456789abcdef01234567".into()),
                timestamp: "2026-11-30T10:00:00Z".into(),
                cpu: Some("Test CPU @ 1 GHz".into()),
                logical_cores: 2,
                os: "linux".into(),
                arch: "x86_64".into(),
                rustc: Some("rustc 1.95.0".into()),
                pin: Some(Pin {
                    cpu: 1,
                    pinned: true,
                }),
                codecs: [
                    ("zstd-lib", "zstd-lib 1.0"),
                    ("brotli-lib", "brotli-lib 1.0"),
                    ("gzip-lib", "gzip-lib 1.0"),
                ]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            },
            seed: 42,
            rng: "dotnet".into(),
            instructions: None,
            payloads: vec![PayloadResult {
                payload: "small".into(),
                input_bytes: 298_727,
                sha256: Some(
                    "9729ade45b4123a360f345e1d0ba07aac996416fc75817c524070de5d648d578".into(),
                ),
                warmup: 3,
                iterations: Some(3),
                min_time_s: None,
                rounds: 3,
                processes: 1,
                precision: None,
                interrupted: false,
                content_type: None,
                cut_from: None,
                cells: vec![
                    cell(
                        "zstd",
                        1,
                        Some("Fastest"),
                        41_132,
                        &[0.0005, 0.0004, 0.0006],
                        &[0.0001, 0.0002, 0.00015],
                    ),
                    cell(
                        "zstd",
                        3,
                        Some("Optimal"),
                        43_644,
                        &[0.001, 0.0009, 0.0011],
                        &[0.0002, 0.0002, 0.0002],
                    ),
                    cell(
                        "brotli",
                        11,
                        Some("SmallestSize"),
                        34_020,
                        &[0.27, 0.28, 0.26],
                        &[0.0006, 0.0007, 0.0008],
                    ),
                    failed,
                ],
            }],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_figures_keep_four_significant_digits() {
        assert_eq!(csv_figure(Some(32.401475999999995)), "32.40");
        assert_eq!(csv_figure(None), "");
        assert_eq!(csv_figure(Some(1347.2)), "1347.0");
        assert_eq!(csv_figure(Some(0.0)), "0.0");
    }
}
