//! Where and with what a run measured: host, toolchain, codec libraries, time.
//! Saved with every JSON result so that runs from different machines can be told apart.

use serde::{Deserialize, Serialize};

use crate::codec::all_implementations;

/// The context of one run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Environment {
    /// codecbench's version.
    pub codecbench_version: String,
    /// The git commit codecbench was built from; `None` when built outside a git checkout.
    pub git_commit: Option<String>,
    /// Whether its sources or lock file had changes not in that commit; `None` where
    /// the build did not say (outside a checkout, or a build before this field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub git_dirty: Option<bool>,
    /// When the run started, UTC, RFC 3339 (e.g. `2026-11-30T10:00:00Z`).
    pub timestamp: String,
    /// CPU model as the OS reports it; `None` where it cannot be read.
    pub cpu: Option<String>,
    /// Logical cores available to the process.
    pub logical_cores: usize,
    /// Operating system, e.g. `linux`.
    pub os: String,
    /// CPU architecture, e.g. `x86_64`.
    pub arch: String,
    /// The compiler that built codecbench, e.g. `rustc 1.95.0 (59807616e 2026-04-14)`.
    pub rustc: Option<String>,
    /// The CPU `--pin` asked for and whether pinning worked; `None` without `--pin`.
    #[serde(default)]
    pub pin: Option<Pin>,
    /// Each codec library's name and version, keyed by library name, e.g.
    /// `"libzstd": "libzstd 1.5.7"`.
    pub codecs: std::collections::BTreeMap<String, String>,
    /// The cells the calibration hook slowed on purpose (`CODECBENCH_CALIBRATE_SLOWDOWN`),
    /// e.g. `zstd:3=1.05`; absent for a run measured as it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calibration: Option<String>,
}

/// The outcome of `--pin CPU`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Pin {
    /// The logical CPU asked for.
    pub cpu: usize,
    /// Whether the OS accepted it (macOS, for one, does not let a thread be pinned).
    pub pinned: bool,
}

impl Environment {
    /// Reads the environment of the current process.
    pub(crate) fn current() -> Self {
        Environment {
            codecbench_version: env!("CARGO_PKG_VERSION").to_string(),
            git_commit: option_env!("CODECBENCH_GIT_COMMIT").map(String::from),
            git_dirty: option_env!("CODECBENCH_GIT_DIRTY").map(|d| d == "true"),
            timestamp: utc_timestamp(std::time::SystemTime::now()),
            cpu: cpu_model(),
            logical_cores: machine_cores(),
            os: std::env::consts::OS.to_string(),
            arch: std::env::consts::ARCH.to_string(),
            rustc: option_env!("CODECBENCH_RUSTC_VERSION").map(String::from),
            pin: None,
            calibration: None,
            codecs: all_implementations()
                .iter()
                .map(|codec| (codec.library().name().to_string(), codec.label()))
                .collect(),
        }
    }

    /// The build it was measured with: its version, and its commit where recorded, with
    /// whether its sources differed from that commit, e.g. `0.1.0 at 3063b6d...`.
    pub(crate) fn build(&self) -> String {
        let changes = match self.git_dirty {
            Some(true) => " with uncommitted changes",
            _ => "",
        };
        match &self.git_commit {
            Some(commit) => format!("{} at {commit}{changes}", self.codecbench_version),
            None => self.codecbench_version.clone(),
        }
    }

    /// The day the run started, e.g. `2026-11-30`.
    pub(crate) fn day(&self) -> String {
        self.timestamp
            .get(..10)
            .unwrap_or(&self.timestamp)
            .to_string()
    }

    /// Each codec library with its version, e.g. `brotli-rs 9.1.1, zlib-rs 0.6.8`.
    pub(crate) fn libraries(&self) -> String {
        let all: Vec<&str> = self.codecs.values().map(String::as_str).collect();
        all.join(", ")
    }

    /// One line naming the machine, e.g. `AMD EPYC, 2 cores, linux x86_64`, and the
    /// cells slowed on purpose where the calibration hook ran.
    pub(crate) fn machine(&self) -> String {
        let slowed = self
            .calibration
            .as_deref()
            .map(|c| format!("; cells slowed on purpose: {}", crate::format::one_line(c)))
            .unwrap_or_default();
        format!(
            "{}, {}, {} {}{slowed}",
            self.cpu.as_deref().unwrap_or("unknown CPU"),
            crate::format::counted(self.logical_cores as u64, "core", "cores"),
            self.os,
            self.arch
        )
    }
}

/// The most bytes a text of another build's environment keeps (`ab`'s baseline).
const MOST_SAID_BYTES: usize = 256;

/// The most codec libraries another build's environment keeps.
const MOST_SAID_CODECS: usize = 16;

impl Environment {
    /// What another build said of itself, each text cut to [`MOST_SAID_BYTES`] and its
    /// libraries to [`MOST_SAID_CODECS`], each cut marked: a build can say anything, and
    /// every output copies it.
    pub(crate) fn bounded(self) -> Self {
        let cut = |text: String| cut_marked(text, MOST_SAID_BYTES);
        let many = self.codecs.len();
        let mut codecs: std::collections::BTreeMap<String, String> = self
            .codecs
            .into_iter()
            .take(MOST_SAID_CODECS)
            .map(|(name, version)| (cut(name), cut(version)))
            .collect();
        if many > MOST_SAID_CODECS {
            let more = many - MOST_SAID_CODECS;
            codecs.insert("…".into(), format!("{more} more, left out"));
        }
        Environment {
            codecbench_version: cut(self.codecbench_version),
            git_commit: self.git_commit.map(cut),
            timestamp: cut(self.timestamp),
            cpu: self.cpu.map(cut),
            os: cut(self.os),
            arch: cut(self.arch),
            rustc: self.rustc.map(cut),
            calibration: self.calibration.map(cut),
            codecs,
            ..self
        }
    }
}

/// `text` cut to at most `most` bytes at a character's edge, with what was cut said.
fn cut_marked(text: String, most: usize) -> String {
    if text.len() <= most {
        return text;
    }
    let mut end = most;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes cut)", &text[..end], text.len() - end)
}

/// The logical CPUs this process may use, as counted the first time it is asked:
/// `main` asks before anything pins a thread. `--pin` narrows the pinned thread's
/// affinity to one CPU, and counting after it would name a 2-core machine "1 cores".
pub(crate) fn machine_cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    })
}

/// The CPU model from /proc/cpuinfo (Linux); `None` elsewhere.
fn cpu_model() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    info.lines()
        .find(|line| line.starts_with("model name") || line.starts_with("Model"))
        .and_then(|line| line.split_once(':'))
        .map(|(_, model)| model.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Formats a time as RFC 3339 UTC with whole seconds.
fn utc_timestamp(time: std::time::SystemTime) -> String {
    let seconds = time
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (year, month, day) = crate::payload::records::civil_from_days((seconds / 86_400) as i64);
    let of_day = seconds % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn timestamps_are_rfc3339_utc() {
        assert_eq!(utc_timestamp(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        let t = UNIX_EPOCH + Duration::from_secs(1_795_996_800 + 3_723);
        assert_eq!(utc_timestamp(t), "2026-11-30T01:02:03Z");
    }

    #[test]
    fn current_environment_names_every_codec() {
        let env = Environment::current();
        assert_eq!(env.codecs["libzstd"], "libzstd 1.5.7");
        assert!(env.codecs["brotli-rs"].starts_with("brotli-rs 9."));
        assert!(env.codecs["libbrotli"].starts_with("libbrotli 1."));
        assert!(env.codecs["zlib-rs"].starts_with("zlib-rs 0."));
        assert!(env.logical_cores >= 1);
        assert!(env.machine().contains(&env.os));
    }

    #[test]
    fn what_another_build_says_is_cut_to_a_bound() {
        let mut said = Environment::current();
        said.codecbench_version = "9".repeat(50_000_000);
        said.git_commit = Some("é".repeat(200));
        for i in 0..100 {
            said.codecs.insert(format!("lib{i:03}"), "x".into());
        }
        let bounded = said.bounded();
        assert_eq!(
            bounded.codecbench_version.len(),
            256 + "… (49999744 bytes cut)".len()
        );
        assert!(bounded
            .codecbench_version
            .ends_with("… (49999744 bytes cut)"));
        assert!(bounded
            .git_commit
            .as_deref()
            .unwrap()
            .ends_with("é… (144 bytes cut)"));
        assert_eq!(bounded.codecs.len(), 17);
        assert_eq!(bounded.codecs["…"], "88 more, left out");
        assert!(bounded.build().len() < 1024);
    }

    #[test]
    fn one_core_is_one_core() {
        let env = Environment {
            logical_cores: 1,
            ..Environment::current()
        };
        assert!(env.machine().contains(", 1 core, "), "{}", env.machine());
    }
}
