//! How the answer names a setting, and how sure the redraws made it: the words the
//! report, the page and every server's configuration share.

use crate::analysis::recommend::{AnswerLine, EncodingAnswer, Scenario};
use crate::format::{list, ms};
use crate::vocab::{CellId, Library, Variant};

/// `zstd 1`, `br 11`, with the library or variant only when it is not what a server
/// runs by default.
pub(crate) fn deployable(id: &CellId) -> String {
    let mut name = format!("{} {}", id.codec.content_coding(), id.level);
    if id.library == Library::BrotliRs {
        name.push_str(" (brotli-rs)");
    }
    match id.variant {
        Variant::Reused => name.push_str(" (pooled encoder)"),
        Variant::OneShot
        | Variant::Flushed { .. }
        | Variant::Nginx
        | Variant::TowerHttp
        | Variant::Apache
        | Variant::Served { .. }
        | Variant::Aspnetcore { .. } => name.push_str(&format!(" ({})", id.variant)),
        Variant::Fresh | Variant::Dictionary { .. } => {}
    }
    name
}

/// `zstd 3`, or `br 1 (over the 5 ms budget on canada.json)`: a setting as a server
/// names it, marked when it does not fit its scenario's budget. `named` writes the
/// body's name as the output it goes into must (see [`as_is`]).
pub(crate) fn marked(
    encoding: &EncodingAnswer,
    budget_s: Option<f64>,
    named: &dyn Fn(&str) -> String,
) -> String {
    let name = deployable(&encoding.id);
    match (encoding.within_budget, budget_s) {
        (false, Some(budget)) => format!(
            "{name} (over the {} budget on {})",
            ms(budget),
            named(&encoding.slowest_body)
        ),
        _ => name,
    }
}

/// A name as it is, for an output whose renderer escapes every text it draws (the
/// terminal, Markdown, HTML).
pub(crate) fn as_is(name: &str) -> String {
    name.to_string()
}

/// `zstd 3 in 46, br 4 in 30`: the settings the redraws picked, with how often.
pub(crate) fn picked_list(first: &EncodingAnswer) -> String {
    let mut all = vec![(first.id, first.picked_in)];
    all.extend(first.alternatives.iter().map(|a| (a.id, a.picked_in)));
    all.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let named: Vec<String> = all
        .iter()
        .map(|(id, n)| format!("{} in {n}", deployable(id)))
        .collect();
    list(&named)
}

/// `(picked in 84 of 100 redraws)`, or for a near-tie `(a near-tie: ...)`.
pub(crate) fn how_sure(encoding: &EncodingAnswer) -> String {
    match encoding.near_tie {
        false => format!(
            " (picked in {} of {} redraws)",
            encoding.picked_in, encoding.draws
        ),
        true => format!(
            " (a near-tie: {} of {} redraws)",
            picked_list(encoding),
            encoding.draws
        ),
    }
}

/// How a near-tie was settled, where the line has one: the headline says how often the
/// redraws picked each setting.
pub(crate) fn redrawn(line: &AnswerLine) -> String {
    let ties: Vec<String> = line
        .encodings
        .iter()
        .filter(|e| e.near_tie)
        .map(|e| {
            format!(
                "{} ({} of {})",
                e.id.codec.content_coding(),
                picked_list(e),
                e.draws
            )
        })
        .collect();
    let mut text = String::new();
    if !ties.is_empty() {
        let order = match line.scenario {
            Scenario::Dynamic => "the lowest setting (the least CPU per response)",
            _ => "the one that sends the fewest bytes",
        };
        text += &format!(
            "; a near-tie: the run redrawn {} times, each cell's times moved inside their \
             intervals, picked no setting in 80% of them ({}); of those picked in 5% or more, \
             {order} is named, so the same data gives the same answer",
            line.draws,
            ties.join("; ")
        );
    }
    let standing: Vec<String> = line
        .encodings
        .iter()
        .filter(|e| !e.standing_for.is_empty())
        .map(|e| {
            let others: Vec<String> = e.standing_for.iter().map(deployable).collect();
            format!("{} for {}", deployable(&e.id), list(&others))
        })
        .collect();
    if !standing.is_empty() {
        text += &format!(
            "; the redraws that picked a setting sending within 1% of the bytes of a lower one \
             count for the lower one ({})",
            standing.join("; ")
        );
    }
    text
}
