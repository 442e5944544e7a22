//! `--format`'s parser for a command that holds only some formats.

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::ValueEnum;

use crate::export::exporter::Format;

/// `--format` taking only the formats that can hold a command's results, so that help
/// lists those and clap refuses the rest with its usual message.
pub(crate) fn formats(allowed: &'static [Format]) -> impl TypedValueParser<Value = Format> {
    let values = allowed.iter().filter_map(Format::to_possible_value);
    PossibleValuesParser::new(values).map(|name| {
        // Only listed names reach here, and every listed name is a format.
        Format::from_str(&name, false).unwrap_or(Format::Table)
    })
}
