//! The worker protocol: what a coordinator sends a `time-worker` process on stdin, and
//! what the worker answers on stdout, one JSON object per line (docs/workers.md).
//!
//! A worker never sees the user's options. The [`Job`] names everything it measures: its
//! share of the plan, each setting by codec, library, variant and levels, any trained
//! dictionary's bytes, and the body's file with its length and SHA-256. The worker builds
//! the codecs from those names ([`crate::codec::rebuild`]), reads the body bounded by
//! the length it was told, and answers [`Answer::Step`] lines as it goes, then one
//! [`Answer::Result`] (or [`Answer::Refused`]). Since version 2 a `time-worker` takes
//! jobs until stdin closes, so that `ab` starts each build's worker once. A job of
//! another [`PROTOCOL`] version is refused with one line. Two builds that speak the same
//! version can be measured by one coordinator (`ab`).

use std::io::{BufRead, Read};
use std::path::PathBuf;

use anyhow::{bail, Context as _, Result};
use base64::Engine as _;
use serde::{Deserialize, Serialize};

use super::schedule::Plan;
use super::settings::CodecSetting;
use super::Step;
use crate::codec::rebuild::codec_named;
use crate::results::environment::Environment;
use crate::results::run::PayloadResult;
use crate::vocab::{CodecKind, Library, Variant};

/// The protocol version this build speaks.
pub(crate) const PROTOCOL: u32 = 2;

/// The longest line either side reads: a job with dictionaries of up to 1 MiB each, or a
/// result with every sample of a long run.
pub(crate) const MOST_LINE_BYTES: u64 = 64 * 1024 * 1024;

/// One job for a worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Job {
    /// The protocol version: [`PROTOCOL`].
    pub protocol: u32,
    /// The body to measure.
    pub body: BodyFile,
    /// What to do with the body.
    pub work: Work,
    /// The settings, in the run's order.
    pub settings: Vec<SettingName>,
    /// Whether the worker is to say first which build it is ([`Answer::Build`]). A
    /// worker from before this field ignores it, and never says.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub identify: bool,
}

/// What a job asks of its worker.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Work {
    /// Time every cell under this plan, the worker's share, in one process
    /// (`time-worker`).
    Time(Plan),
    /// Run the one cell's calls, this many each way, for callgrind to count
    /// (`count-instructions`).
    Count {
        /// Calls per direction.
        calls: u32,
    },
}

/// The body, in a file the coordinator wrote.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct BodyFile {
    /// The payload's name, for the result and the steps.
    pub name: String,
    /// Where it is.
    pub path: PathBuf,
    /// Its length in bytes: the most the worker reads.
    pub bytes: u64,
    /// Its SHA-256, hex: the worker checks what it read.
    pub sha256: String,
}

/// One setting by name: what builds its codec again, and its levels.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct SettingName {
    /// The codec.
    pub codec: CodecKind,
    /// Its library.
    pub library: Library,
    /// How each response's encoder comes to be.
    pub variant: Variant,
    /// The levels, in order.
    pub levels: Vec<i32>,
    /// A trained dictionary's bytes, base64, for a dictionary variant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dictionary: Option<String>,
}

impl SettingName {
    /// `codec` at `levels`, by name.
    pub(crate) fn of(codec: &dyn crate::codec::Codec, levels: Vec<i32>) -> SettingName {
        let dictionary = codec.dictionary();
        SettingName {
            codec: codec.kind(),
            library: codec.library(),
            variant: codec.variant(),
            levels,
            dictionary: dictionary.map(|d| base64::engine::general_purpose::STANDARD.encode(d)),
        }
    }
}

/// A job a worker took: the job, its body and its settings, ready.
pub(crate) struct Taken {
    /// The job.
    pub job: Job,
    /// The body it names, read and checked.
    pub body: Vec<u8>,
    /// Its settings, built and made ready.
    pub settings: Vec<CodecSetting>,
}

/// One line of a worker's answer.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Answer {
    /// About to measure this step.
    Step(Step),
    /// The measured share; also when a stop cut it short (it then says so).
    Result(Box<PayloadResult>),
    /// The job was refused: why, in one line.
    Refused(String),
    /// Which build the worker is (its version, commit, compiler and libraries), before
    /// anything else, when the job asks.
    Build(Box<Environment>),
}

impl BodyFile {
    /// `body`, named `name`, as written at `path`: hashed once for every job that names it.
    pub(crate) fn of(name: &str, path: PathBuf, body: &[u8]) -> BodyFile {
        BodyFile {
            name: name.to_string(),
            path,
            bytes: body.len() as u64,
            sha256: crate::payload::sha256_hex(body),
        }
    }
}

impl Job {
    /// The job of `work` on `body` with `settings`.
    pub(crate) fn new(body: BodyFile, settings: &[CodecSetting], work: Work) -> Job {
        let named = |s: &CodecSetting| SettingName::of(s.codec.as_ref(), s.levels.clone());
        Job {
            protocol: PROTOCOL,
            body,
            work,
            settings: settings
                .iter()
                .filter(|s| !s.levels.is_empty())
                .map(named)
                .collect(),
            identify: false,
        }
    }

    /// The job of `work` on `body` with `codec` at `level` alone: a cell's instructions
    /// counted, or one batch of `ab`.
    pub(crate) fn of_level(
        body: BodyFile,
        codec: &dyn crate::codec::Codec,
        level: i32,
        work: Work,
    ) -> Job {
        Job {
            protocol: PROTOCOL,
            body,
            work,
            settings: vec![SettingName::of(codec, vec![level])],
            identify: false,
        }
    }

    /// The job on the first line of `input`, taken as [`Job::take_line`] says; refused
    /// when there is none.
    pub(crate) fn take(input: impl BufRead) -> Result<Taken> {
        Job::next(input)?.context("no job on stdin")
    }

    /// The next job on `input`, taken as [`Job::take_line`] says; `None` once `input`
    /// ends.
    pub(crate) fn next(input: impl BufRead) -> Result<Option<Taken>> {
        match read_line(input)? {
            Some(line) => Job::take_line(&line).map(Some),
            None => Ok(None),
        }
    }

    /// The job `line` holds, with its body read and its settings built and made ready
    /// (the end-to-end tests' corruption hook applies): what a worker measures. Anything
    /// it cannot take is refused with why.
    pub(crate) fn take_line(line: &str) -> Result<Taken> {
        let job = Job::parse(line)?;
        let body = job.read_body()?;
        let mut settings = job.codec_settings()?;
        super::settings::make_ready(&mut settings, None)?;
        Ok(Taken {
            job,
            body,
            settings,
        })
    }

    /// The job `line` holds; one of another version, or one that does not parse, is
    /// refused with why.
    pub(crate) fn parse(line: &str) -> Result<Job> {
        let value: serde_json::Value = serde_json::from_str(line).context("the job is not JSON")?;
        match value.get("protocol").and_then(serde_json::Value::as_u64) {
            Some(version) if version == u64::from(PROTOCOL) => {}
            Some(version) => {
                bail!("protocol {version} is not spoken here: this build speaks {PROTOCOL}")
            }
            None => bail!("the job names no protocol version: this build speaks {PROTOCOL}"),
        }
        serde_json::from_value(value).context("the job does not parse")
    }

    /// The settings the job names, built again.
    pub(crate) fn codec_settings(&self) -> Result<Vec<CodecSetting>> {
        self.settings
            .iter()
            .map(|s| {
                let dictionary = match &s.dictionary {
                    Some(text) => Some(
                        base64::engine::general_purpose::STANDARD
                            .decode(text)
                            .context("a dictionary is not base64")?,
                    ),
                    None => None,
                };
                let codec = codec_named(s.codec, s.library, s.variant, dictionary)
                    .map_err(anyhow::Error::msg)?;
                Ok(CodecSetting {
                    codec,
                    levels: s.levels.clone(),
                })
            })
            .collect()
    }

    /// The body, read from its file: no more than its length, and refused unless it is
    /// that long with that SHA-256.
    pub(crate) fn read_body(&self) -> Result<Vec<u8>> {
        let file = std::fs::File::open(&self.body.path)
            .with_context(|| format!("cannot read {}", self.body.path.display()))?;
        let mut body = Vec::new();
        file.take(self.body.bytes + 1).read_to_end(&mut body)?;
        if body.len() as u64 != self.body.bytes
            || crate::payload::sha256_hex(&body) != self.body.sha256
        {
            bail!(
                "{} is not the {}-byte body the job names",
                self.body.path.display(),
                self.body.bytes
            );
        }
        Ok(body)
    }
}

/// The next line of `input`, at most [`MOST_LINE_BYTES`] long; `None` at its end.
pub(crate) fn read_line(input: impl BufRead) -> Result<Option<String>> {
    let mut line = Vec::new();
    let read = input
        .take(MOST_LINE_BYTES + 1)
        .read_until(b'\n', &mut line)?;
    if read == 0 {
        return Ok(None);
    }
    if line.len() as u64 > MOST_LINE_BYTES {
        bail!("a line longer than {MOST_LINE_BYTES} bytes");
    }
    Ok(Some(
        String::from_utf8(line)
            .context("a line that is not UTF-8")?
            .trim_end()
            .to_string(),
    ))
}

#[cfg(test)]
#[path = "protocol_tests.rs"]
mod tests;
