//! The hidden `count-instructions` command: one child of `run --measure instructions`,
//! running one cell's calls for callgrind to count (see [`crate::bench::instructions`]).

use anyhow::Context as _;

use crate::bench::instructions::run_counted;
use crate::bench::settings::make_ready;
use crate::config::CountConfig;
use crate::error::Failing;

/// The hidden child: builds the run's cell `config.cell` and runs its counted calls.
pub(super) fn run(mut config: CountConfig) -> crate::error::Result {
    let measure = &mut config.measure;
    make_ready(&mut measure.settings, measure.dictionaries.as_ref()).failing()?;
    let input = std::fs::read(&config.input)
        .with_context(|| format!("cannot read {}", config.input.display()))
        .failing()?;
    let cells = crate::bench::settings::cells(&config.measure.settings);
    let Some(&(codec, level)) = cells.get(config.cell) else {
        return Err(anyhow::anyhow!("no cell {} in these settings", config.cell).into());
    };
    run_counted(codec, level, &input, config.calls).failing()
}
