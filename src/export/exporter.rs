//! The one seam between results and bytes. A command hands what it has to write over as
//! a [`Subject`]; the [`Exporter`] of the format asked for turns it into bytes. Each
//! format is implemented once, here, for every kind of result, so a new format (or a
//! new kind of result) lands in one place.

use anyhow::{bail, Result};

use super::text::document::{Document, Style};
use super::{compare, merge, recommend, zstd_params};
use crate::analysis::compare::Comparison;
use crate::analysis::merge::Merged;
use crate::analysis::recommend::{AdviceOptions, Answer, PayloadAdvice};
use crate::results::http::{HttpPayloadResult, HttpReport};
use crate::results::run::{PayloadResult, RunReport};

/// How a command prints its results on stdout: every command takes the formats that
/// can hold its results (`--format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
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

/// Something a command writes.
pub(crate) enum Subject<'a> {
    /// A `run`, with the payload being measured, if any.
    Run {
        /// The finished payloads.
        report: &'a RunReport,
        /// The payload in progress.
        current: Option<&'a PayloadResult>,
    },
    /// An `http` run, with the payload being measured, if any.
    Http {
        /// The finished payloads.
        report: &'a HttpReport,
        /// The payload in progress.
        current: Option<&'a HttpPayloadResult>,
    },
    /// What `lab` measured through the real servers.
    Lab(&'a crate::results::lab::LabReport),
    /// A candidate judged against a baseline.
    Comparison(&'a Comparison),
    /// Runs side by side.
    Merged(&'a Merged),
    /// `recommend`'s answers and its advice per payload.
    Advice {
        /// The answers, first.
        answers: &'a [Answer],
        /// The advice per payload.
        advice: &'a [PayloadAdvice],
        /// The budgets and link they were judged at.
        options: &'a AdviceOptions,
    },
    /// `zstd-params`' tables.
    ZstdParams(&'a [super::zstd_params::ParamsTable]),
    /// A live server probed.
    Probe(&'a crate::results::probe::ProbeReport),
}

/// Turns any [`Subject`] into this format's bytes.
/// CSV as results come, for stdout while a command measures: the header once, then the
/// row of each result as it finishes, the same bytes [`Csv`]'s whole export holds.
pub(crate) struct CsvStream;

impl CsvStream {
    /// The header of `subject`'s kind of results; `None` for a kind not streamed.
    pub(crate) fn header(subject: &Subject) -> Option<Vec<u8>> {
        match subject {
            Subject::Run { .. } => Some(super::run::csv::header()),
            Subject::Http { .. } => Some(super::http::csv_header()),
            _ => None,
        }
    }

    /// The row of the result at `new` in `subject`'s result in progress; `None` when
    /// there is none there.
    pub(crate) fn row(subject: &Subject, new: usize) -> Option<Vec<u8>> {
        match subject {
            Subject::Run {
                current: Some(payload),
                ..
            } => Some(super::run::csv::row(payload, payload.cells.get(new)?)),
            Subject::Http {
                report,
                current: Some(payload),
            } => {
                let result = payload.encodings.get(new)?;
                Some(super::http::csv_row(payload, &report.load, result))
            }
            _ => None,
        }
    }
}

pub(crate) trait Exporter {
    /// `subject` in this format; an error where the format cannot hold it (the config
    /// refuses those combinations first, so this is the last line).
    fn export(&self, subject: &Subject) -> Result<Vec<u8>>;
}

/// CSV: a row per measured result.
pub(crate) struct Csv;

/// JSON: everything, every sample included.
pub(crate) struct Json;

/// Terminal tables or Markdown, through the shared [`Document`].
pub(crate) struct Text(pub Style);

/// The exporter of `format`.
pub(crate) fn exporter(format: Format) -> &'static dyn Exporter {
    match format {
        Format::Csv => &Csv,
        Format::Json => &Json,
        Format::Table => &Text(Style::Terminal),
        Format::Markdown => &Text(Style::Markdown),
    }
}

/// One self-contained HTML page of the text formats' tables.
pub(crate) struct Html;

impl Exporter for Html {
    fn export(&self, subject: &Subject) -> Result<Vec<u8>> {
        Ok(super::html::documents_page(
            &format!("codecbench {}", command(subject)),
            &documents(subject),
        ))
    }
}

/// The command that makes `subject`, for a page's title.
fn command(subject: &Subject) -> &'static str {
    match subject {
        Subject::Run { .. } => "run",
        Subject::Http { .. } => "http",
        Subject::Comparison(_) => "compare",
        Subject::Merged(_) => "merge",
        Subject::Advice { .. } => "recommend",
        Subject::ZstdParams(_) => "zstd-params",
        Subject::Probe(_) => "probe",
        Subject::Lab(_) => "lab",
    }
}

/// github-action-benchmark's custom JSON, for `run` results.
pub(crate) struct GithubBenchmark;
/// Bencher Metric Format, for `run` results.
pub(crate) struct Bencher;

impl Exporter for GithubBenchmark {
    fn export(&self, subject: &Subject) -> Result<Vec<u8>> {
        match subject {
            Subject::Run { report, current } => Ok(
                super::run::dashboards::render_github_benchmark(report, *current),
            ),
            _ => bail!("--export-github-benchmark takes `run` results"),
        }
    }
}

impl Exporter for Bencher {
    fn export(&self, subject: &Subject) -> Result<Vec<u8>> {
        match subject {
            Subject::Run { report, current } => {
                Ok(super::run::dashboards::render_bencher(report, *current))
            }
            _ => bail!("--export-bencher takes `run` results"),
        }
    }
}

impl Exporter for Csv {
    fn export(&self, subject: &Subject) -> Result<Vec<u8>> {
        Ok(match subject {
            Subject::Run { report, current } => super::run::csv::render_with(report, *current),
            Subject::Http { report, current } => super::http::render_csv(report, *current),
            // One CSV has one set of columns: codec runs and `http` runs each have theirs.
            Subject::Merged(m) => merge::table::render_csv(m)?,
            Subject::Probe(report) => super::probe::render_csv(report),
            Subject::Lab(lab) => super::run::csv::render_with(&lab.run, None),
            _ => bail!("this result has no CSV form"),
        })
    }
}

impl Exporter for Json {
    fn export(&self, subject: &Subject) -> Result<Vec<u8>> {
        Ok(match subject {
            Subject::Run { report, current } => super::run::json::render_with(report, *current),
            Subject::Http { report, current } => super::http::render_json(report, *current),
            Subject::Comparison(c) => compare::table::render_json(c),
            Subject::Advice {
                answers, advice, ..
            } => recommend::report::render_json(answers, advice),
            Subject::Probe(report) => super::probe::render_json(report),
            Subject::Lab(lab) => super::run::json::render_with(&lab.run, None),
            _ => bail!("this result has no JSON form"),
        })
    }
}

impl Exporter for Text {
    fn export(&self, subject: &Subject) -> Result<Vec<u8>> {
        Ok(super::text::draw::render_each(documents(subject), self.0))
    }
}

/// The documents the text formats draw for `subject`, one per payload where it has
/// several.
pub(crate) fn documents(subject: &Subject) -> Vec<Document> {
    match subject {
        Subject::Run { report, current } => report
            .payloads
            .iter()
            .chain(*current)
            .map(super::run::matrix::document)
            .collect(),
        Subject::Http { report, current } => report
            .payloads
            .iter()
            .chain(*current)
            .map(|p| super::http::document(p, &report.load))
            .collect(),
        Subject::Comparison(c) => vec![compare::table::document(c)],
        Subject::Merged(m) => vec![merge::table::document(m)],
        Subject::Advice {
            answers,
            advice,
            options,
        } => vec![recommend::report::document(answers, advice, options)],
        Subject::ZstdParams(tables) => vec![zstd_params::document(tables)],
        Subject::Probe(report) => report
            .urls
            .iter()
            .map(|url| super::probe::document(url, report))
            .collect(),
        Subject::Lab(lab) => super::lab::documents(lab),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_writes_a_run_as_its_own_renderer_does() {
        let report = super::super::fixtures::report();
        let run = Subject::Run {
            report: &report,
            current: None,
        };
        assert_eq!(
            exporter(Format::Csv).export(&run).unwrap(),
            super::super::run::csv::render(&report)
        );
        assert_eq!(
            exporter(Format::Json).export(&run).unwrap(),
            super::super::run::json::render(&report)
        );
        let markdown = exporter(Format::Markdown).export(&run).unwrap();
        assert!(String::from_utf8(markdown).unwrap().contains("| "));
    }

    #[test]
    fn a_format_that_cannot_hold_a_result_says_so() {
        let tables = [];
        let err = exporter(Format::Csv)
            .export(&Subject::ZstdParams(&tables))
            .unwrap_err();
        assert!(err.to_string().contains("no CSV form"), "{err}");
    }

    #[test]
    fn a_streamed_run_is_the_whole_csv_row_by_row() {
        let report = crate::export::fixtures::report();
        let kind = Subject::Run {
            report: &report,
            current: None,
        };
        let mut streamed = CsvStream::header(&kind).unwrap();
        for payload in &report.payloads {
            for new in 0..payload.cells.len() {
                let so_far = Subject::Run {
                    report: &report,
                    current: Some(payload),
                };
                streamed.extend(CsvStream::row(&so_far, new).unwrap());
            }
        }
        assert_eq!(streamed, Csv.export(&kind).unwrap());
        assert!(CsvStream::row(&kind, 0).is_none(), "no result in progress");
    }
}
