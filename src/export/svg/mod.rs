//! `codecbench plot`: for each payload, compression ratio against compression speed and
//! against decompression speed (log scale), a series per codec and library, the Pareto
//! frontier through the settings worth considering, and each point's level beside it.
//!
//! The chart is laid out here ([`layout`]: scales, ticks, label spots) and written as
//! plain SVG by [`write`], so that tests can check what a reader sees: enough ticks on
//! every axis ([`axis`]) and labels that never overlap ([`labels`]). No font or system
//! library is needed; the viewer draws the text.

pub(crate) mod axis;
pub(crate) mod labels;
mod layout;
mod marks;
mod overlay;
mod write;

#[cfg(test)]
use layout::layout;
pub(crate) use layout::Caption;
pub(crate) use write::{interactive_panels, render_svg, swatch};

#[cfg(test)]
mod tests;
