//! From a measured matrix to a decision ([`advice`]), the answer a server is given
//! ([`answer`]), and the minimum body size placed between measured sizes ([`minimum`],
//! [`bracket`]).

mod advice;
mod answer;
mod body;
pub(crate) mod bracket;
pub(crate) mod close;
mod decided;
pub(crate) mod draws;
mod minimum;
mod options;
pub(crate) mod placed;
mod scenario;
mod setting;
pub(crate) mod span;
mod wire;

pub(crate) use advice::{advise, answers, answers_among, PayloadAdvice};
pub(crate) use answer::{Answer, AnswerLine, EncodingAnswer};
#[cfg(test)]
use body::setting;
pub(crate) use body::Body;
pub(crate) use minimum::Evidence;
#[cfg(test)]
pub(crate) use minimum::MinBody;
pub(crate) use options::AdviceOptions;
pub(crate) use scenario::{Scenario, ScenarioPick, Why};
pub(crate) use setting::Setting;
pub(crate) use wire::Link;

/// A matrix with the shape of the article's small payload, for tests here and in the
/// reporter.
#[cfg(test)]
pub(crate) mod fixtures;

#[cfg(test)]
mod tests;
