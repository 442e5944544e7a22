//! The codec settings a run measures, made ready: each `--zstd-dict` dictionary trained
//! and placed after plain zstd, and the corruption hook of the end-to-end tests applied.
//! A run and each of its children make them ready alike, so their cells match.

use anyhow::{Context as _, Result};

use crate::codec::zstd_dict::{training_samples, ZstdDict};
use crate::codec::{Codec, Corrupting, Libzstd};
use crate::payload::RngKind;
use crate::vocab::CodecKind;

/// One codec and the levels to measure with it.
pub(crate) struct CodecSetting {
    /// The adapter.
    pub codec: Box<dyn Codec>,
    /// Levels, in the order to run them.
    pub levels: Vec<i32>,
}

/// Every cell of `settings`, codec by codec, level by level: the order a run measures
/// them in, and the index the instruction counter names a cell by.
pub(crate) fn cells(settings: &[CodecSetting]) -> Vec<(&dyn Codec, i32)> {
    settings
        .iter()
        .flat_map(|s| s.levels.iter().map(move |&level| (s.codec.as_ref(), level)))
        .collect()
}

/// The zstd dictionaries `--zstd-dict` asks for, checked but not yet trained.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct DictionaryPlan {
    /// Each dictionary's size in KiB, 1 to 1024, in the order given.
    pub sizes_kib: Vec<u32>,
    /// Records of the generator's stream to train on, at least 10.
    pub samples: usize,
    /// The generator's stream.
    pub rng: RngKind,
}

/// Makes `settings` ready to measure: trains each of `dictionaries` and adds its setting
/// right after plain zstd, at plain zstd's levels; then applies the test hook.
pub(crate) fn make_ready(
    settings: &mut Vec<CodecSetting>,
    dictionaries: Option<&DictionaryPlan>,
) -> Result<()> {
    if let Some(plan) = dictionaries {
        add_dictionaries(settings, plan)?;
    }
    corrupt_for_tests(settings);
    Ok(())
}

/// One setting per dictionary of `plan`, after plain zstd (which the config checked
/// is there).
fn add_dictionaries(settings: &mut Vec<CodecSetting>, plan: &DictionaryPlan) -> Result<()> {
    let Some(zstd_index) = settings
        .iter()
        .position(|s| s.codec.kind() == CodecKind::Zstd)
    else {
        return Ok(());
    };
    let levels = settings[zstd_index].levels.clone();
    let samples = training_samples(plan.samples, plan.rng);
    for (offset, &kib) in plan.sizes_kib.iter().enumerate() {
        let codec = ZstdDict::train(&samples, kib)
            .with_context(|| format!("training a {kib} KiB zstd dictionary"))?;
        settings.insert(
            zstd_index + 1 + offset,
            CodecSetting {
                codec: Box::new(codec),
                levels: levels.clone(),
            },
        );
    }
    Ok(())
}

/// The test aid: `CODECBENCH_TEST_CORRUPT=CODEC` puts a decoder that flips a bit in
/// front of that codec, so end-to-end tests of the release binary can prove that a
/// failed round trip never reaches a report as valid.
fn corrupt_for_tests(settings: &mut [CodecSetting]) {
    let Ok(name) = std::env::var("CODECBENCH_TEST_CORRUPT") else {
        return;
    };
    for setting in settings
        .iter_mut()
        .filter(|s| s.codec.kind().name() == name)
    {
        let inner = std::mem::replace(&mut setting.codec, Box::new(Libzstd));
        setting.codec = Box::new(Corrupting(inner));
    }
}
