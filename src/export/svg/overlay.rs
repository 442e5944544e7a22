//! A baseline run drawn under a run's points, as the dashboards overlay the commit
//! before: each setting's place in the baseline is a grey outline, joined by a thin line
//! to where the setting is now. A setting the baseline lacks has none.

use super::axis::Scale;
use crate::results::RunCell;

/// Where `cell` stood in the baseline's `before`, in pixels, with its speed there.
pub(super) fn place(
    cell: &RunCell,
    before: &[(RunCell, f64)],
    (x, y): (&Scale, &Scale),
) -> Option<((f64, f64), f64)> {
    let (was, speed) = before.iter().find(|(b, _)| b.key == cell.key)?;
    Some(((x.pixel(*speed), y.pixel(was.ratio())), *speed))
}

/// What a point's tip adds about its place in the baseline.
pub(super) fn tip(speed: f64, direction: &str) -> String {
    format!(
        "; baseline {direction} {} MB/s",
        crate::format::significant(speed, 3)
    )
}
