//! "What to deploy" on a page: per group of bodies, a table with a row per scenario
//! (setting, fallbacks, minimum size, time per response, bytes), each row's reason one
//! click away, and the clients each encoding reaches below.

use maud::{html, Markup};

use crate::analysis::recommend::{AdviceOptions, Answer, AnswerLine};
use crate::export::recommend::answer::{codecs_named, placed_text, reach, scope_text, why};
use crate::export::recommend::names::{as_is, deployable, marked};
use crate::format::{duration_text, thousands};

/// The answers as tables, under one heading; nothing without answers.
pub(crate) fn answers(answers: &[Answer], options: &AdviceOptions) -> Markup {
    if answers.is_empty() {
        return html! {};
    }
    html! {
        h3 { "What to deploy" }
        @for answer in answers { (one(answer, options)) }
    }
}

const HEADER: [&str; 7] = [
    "scenario",
    "setting",
    "fall back to",
    "compress bodies from",
    "time per response",
    "bytes sent per response",
    "why",
];

fn one(answer: &Answer, options: &AdviceOptions) -> Markup {
    let codecs = codecs_named(answer);
    html! {
        p { (scope_text(answer, options)) }
        div.scroll { table.answer {
            thead { tr { @for title in HEADER { th scope="col" { (title) } } } }
            tbody { @for line in &answer.lines { (row(line, answer, options)) } }
        } }
        ul.notes {
            @if let Some(placed) = &answer.placed_by { li { (placed_text(placed)) } }
            @for codec in codecs { li { (reach(codec)) } }
        }
    }
}

fn row(line: &AnswerLine, answer: &Answer, options: &AdviceOptions) -> Markup {
    let reason = why(line, answer, options);
    let Some((first, rest)) = line.encodings.split_first() else {
        return html! {
            tr {
                th scope="row" { (line.scenario.short()) }
                td colspan="5" { "don't compress" }
                td { details { summary { "why" } (reason) } }
            }
        };
    };
    let fallbacks: Vec<String> = rest
        .iter()
        .map(|e| marked(e, line.budget_s, &as_is))
        .collect();
    html! {
        tr {
            th scope="row" { (line.scenario.short()) }
            td {
                strong { (marked(first, line.budget_s, &as_is)) }
                br; small {
                    @if first.near_tie { "a near-tie: " } @else { "picked in " (first.picked_in) " of " (first.draws) " redraws" }
                    @if first.near_tie {
                        @let others: Vec<String> = first.alternatives.iter().map(|a| format!("{} in {}", deployable(&a.id), a.picked_in)).collect();
                        (first.picked_in) " of " (first.draws) " redraws; also " (others.join(", "))
                    }
                }
            }
            td { (if fallbacks.is_empty() { "none".to_string() } else { fallbacks.join(", then ") }) }
            td.n { (thousands(first.min_body.bytes)) " bytes" }
            td.n {
                (duration_text(first.mean_s))
                small { " (" (duration_text(first.mean_span.low_s)) " to " (duration_text(first.mean_span.high_s)) ")" }
            }
            td.n { (thousands(first.bytes_sent.round() as u64)) }
            td { details { summary { "why" } (reason) } }
        }
    }
}
