//! The commands: one file each, orchestration only. Inputs arrive checked by `config`;
//! every file and terminal write happens here; the rest returns data.

mod analysis;
mod bracket;
mod compare;
mod count_instructions;
mod http;
mod measure;
mod merge;
mod output;
mod payloads;
mod pool;
mod probe;
pub(crate) mod progress;
mod run;
mod serve;
mod source;
mod time_worker;

use crate::cli::{Cli, Command};
use crate::config::analysis::{PlotConfig, RecommendConfig, ReproduceConfig, ZstdParamsConfig};
use crate::config::compare::{CompareConfig, MergeConfig, PoolConfig};
use crate::config::http::{HttpConfig, ServeConfig};
use crate::config::{PayloadsConfig, RunConfig};
use crate::error::Result;

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result {
    match cli.command {
        Command::Run(args) => run::run(RunConfig::from_args(args)?),
        Command::Payloads(args) => payloads::run(PayloadsConfig::from_args(args)?),
        Command::Compare(args) => compare::run(CompareConfig::from_args(args)?),
        Command::Merge(args) => merge::run(MergeConfig::from_args(args)?),
        Command::Pool(args) => pool::run(PoolConfig::from_args(args)?),
        Command::Recommend(args) => analysis::recommend(RecommendConfig::from_args(args)?),
        Command::ZstdParams(args) => analysis::zstd_params(ZstdParamsConfig::from_args(args)?),
        Command::Reproduce(args) => analysis::reproduce(ReproduceConfig::from_args(args)?),
        Command::Plot(args) => analysis::plot(PlotConfig::from_args(args)?),
        Command::Http(args) => http::run(HttpConfig::from_args(args)?),
        Command::Serve(args) => serve::run(ServeConfig::from_args(args)?),
        Command::Probe(args) => probe::run(crate::config::probe::ProbeConfig::from_args(args)?),
        Command::CountInstructions(args) => {
            count_instructions::run(crate::config::CountConfig::from_args(args)?)
        }
        Command::TimeWorker(args) => {
            time_worker::run(crate::config::TimeWorkerConfig::from_args(args)?)
        }
    }
}
