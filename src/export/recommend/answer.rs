//! The one-answer block `recommend` opens with: per scenario, the settings to deploy in
//! the order to prefer them, the minimum body size, and one line on why.

use super::names::{as_is, deployable, how_sure, marked, redrawn};
use crate::analysis::recommend::bracket::narrow;
use crate::analysis::recommend::placed::PlacedBy;
use crate::analysis::recommend::{
    AdviceOptions, Answer, AnswerLine, EncodingAnswer, Evidence, Scenario,
};
use crate::export::text::document::Document;
use crate::format::{list, ms, significant, thousands};
use crate::vocab::CodecKind;

fn bodies(n: usize) -> String {
    match n {
        1 => "1 body".to_string(),
        n => format!("{n} bodies"),
    }
}

/// e.g. `dynamic responses: zstd 1 (picked in 97 of 100 redraws); fall back to br 4,
/// then gzip 6; don't compress bodies under 640 bytes`. Where the first setting is over
/// the budget, the line says so first, naming the body that breaks it as `named`
/// writes a name.
pub(crate) fn headline(line: &AnswerLine, named: &dyn Fn(&str) -> String) -> String {
    let Some((first, rest)) = line.encodings.split_first() else {
        return format!(
            "{}: don't compress (nothing beat sending as is in {} of {} redraws)",
            line.scenario.short(),
            line.uncompressed_in,
            line.draws
        );
    };
    let mut text = format!("{}: ", line.scenario.short());
    let broken = !first.within_budget && line.budget_s.is_some();
    if let (true, Some(budget)) = (broken, line.budget_s) {
        text += &format!(
            "no setting compresses {} within the {} budget, so the least slow: ",
            named(&first.slowest_body),
            ms(budget)
        );
    }
    // Once the line has named the budget and the body, a mark need not again.
    let mark = |e: &EncodingAnswer| match (broken, e.within_budget) {
        (true, false) => format!("{} (over budget)", deployable(&e.id)),
        _ => marked(e, line.budget_s, named),
    };
    text += &format!("{}{}", mark(first), how_sure(first));
    let fallbacks: Vec<String> = rest
        .iter()
        .map(|e| match e.near_tie {
            false => mark(e),
            true => format!("{} (a near-tie)", mark(e)),
        })
        .collect();
    if !fallbacks.is_empty() {
        text += &format!("; fall back to {}", fallbacks.join(", then "));
    }
    text += &format!(
        "; don't compress bodies under {} bytes",
        thousands(first.min_body.bytes)
    );
    if let Evidence::AtMost { .. } = first.min_body.evidence {
        text += " (estimated)";
    }
    text
}

/// `1,670 bytes (real-json/fruits.json)`: a size measured, with the body it was.
fn sized(answer: &Answer, bytes: u64) -> String {
    match answer.body_named(bytes) {
        Some(name) => format!("{} bytes ({name})", thousands(bytes)),
        None => format!("{} bytes", thousands(bytes)),
    }
}

/// What the measured sizes say about the minimum, and how to narrow it, naming the
/// bodies at the bracket's ends.
fn evidence(first: &EncodingAnswer, answer: &Answer) -> String {
    let name = deployable(&first.id);
    let mut text = match first.min_body.evidence {
        Evidence::Between {
            identity_wins,
            compression_wins,
        } => {
            let mut text = format!(
                "sending it as is won at {} and {name} at {}, the next size measured",
                sized(answer, identity_wins),
                sized(answer, compression_wins)
            );
            if !narrow((identity_wins, compression_wins)) {
                text += &format!(
                    "; to narrow that bracket, add bodies of your own between those sizes (a \
                     measuring recommend, not --from, cuts them from {} where it can)",
                    answer.body_named(compression_wins).unwrap_or("the larger")
                );
            }
            text
        }
        Evidence::AtMost { smallest } => format!(
            "{name} won at every size measured, down to {}, so the sizes do not bracket the \
             minimum: {} bytes is the wire model's estimate from that size, which errs large; \
             a measuring recommend, not --from, cuts smaller bodies from it to place it",
            sized(answer, smallest),
            thousands(first.min_body.bytes)
        ),
    };
    if first.min_body.losses_above > 0 {
        text += &format!(
            " ({} above it lost to sending as is, and does not move it: a minimum size \
             cannot switch compression off for one body)",
            bodies(first.min_body.losses_above).replace("bod", "larger bod")
        );
    }
    if first.min_body.wins_below > 0 {
        text += &format!(
            " (it also won on {} below it, so the figure is rough)",
            bodies(first.min_body.wins_below).replace("bod", "smaller bod")
        );
    }
    text
}

/// One sentence on why, with the figures behind it.
pub(crate) fn why(line: &AnswerLine, answer: &Answer, options: &AdviceOptions) -> String {
    let bodies = answer.bodies;
    let budget = line.scenario.budget_s(options);
    let per = if bodies == 1 {
        "per response".to_string()
    } else {
        format!("per response on average over {bodies} bodies")
    };
    let Some(first) = line.encodings.first() else {
        let within = budget.map_or(String::new(), |b| format!(" within {}", ms(b)));
        return format!(
            "no setting{within} beats sending the bodies as they are, {} {per}",
            ms(line.identity_s)
        );
    };
    let fits = |verb: &str| {
        let slowest = match first.slowest_compress_s > first.compress_s * 1.5 {
            true => format!(", {} the largest", ms(first.slowest_compress_s)),
            false => String::new(),
        };
        let judged = if first.within_budget {
            "within"
        } else {
            "over"
        };
        format!(
            "{} to {verb}{slowest}, {judged} {}",
            ms(first.compress_s),
            ms(budget.unwrap_or(0.0))
        )
    };
    // A lab's cell holds the server's own CPU per response, not codecbench's encoder.
    let served = match first.id.variant {
        crate::vocab::Variant::Served { server } => {
            format!("compress a body, of {server}'s own CPU as measured through it")
        }
        _ => "compress a body".to_string(),
    };
    let compression = match line.scenario {
        Scenario::Dynamic => fits(&served),
        Scenario::Cached => fits("compress it once"),
        Scenario::Static => format!("{} to compress it at build time", ms(first.compress_s)),
    };
    let mut text = format!(
        "{} {per} against {} uncompressed ({:.2}x, {compression}); {}",
        ms(first.mean_s),
        ms(line.identity_s),
        first.ratio,
        evidence(first, answer)
    );
    text += &redrawn(line);
    if !line.left_out.is_empty() {
        text +=
            &format!(
            "; every setting lost to sending as is on {}, though smaller bodies won: no minimum \
             size can spare {} without switching compression off below, so {} no choice \
             here (such a body is better served uncompressed by its own route)",
            list(&line.left_out),
            if line.left_out.len() == 1 { "it" } else { "them" },
            if line.left_out.len() == 1 { "it weighs in" } else { "they weigh in" }
        );
    }
    text += &over_budget(line, budget);
    if let Some(edge) = edge(line, budget) {
        text += &edge;
    }
    text
}

/// `; over the 5.00 ms budget (zstd 1 takes up to 14.2 ms on canada.json): ...`, for
/// the encodings whose setting does not fit, naming the body that breaks it.
fn over_budget(line: &AnswerLine, budget: Option<f64>) -> String {
    let mut text = String::new();
    let over: Vec<String> = line
        .encodings
        .iter()
        .filter(|e| !e.within_budget)
        .map(|e| {
            let slowest = ms(e.slowest_compress_s);
            format!(
                "{} takes up to {slowest} on {}",
                deployable(&e.id),
                e.slowest_body
            )
        })
        .collect();
    if !over.is_empty() {
        text += &format!(
            "; over the {} budget ({}): no setting of {} fits, so the one with the least \
             time per response at the link is kept for the clients that accept nothing better",
            ms(budget.unwrap_or(0.0)),
            over.join("; "),
            if over.len() == 1 {
                "that encoding"
            } else {
                "those encodings"
            }
        );
    }
    text
}

/// `; zstd 16 (and zstd 17) would send 8.9% fewer bytes than zstd 11 but sits at the
/// edge of the 1000 ms budget (...)`: per pick, the lowest setting another run may find
/// fits, and the others like it.
fn edge(line: &AnswerLine, budget: Option<f64>) -> Option<String> {
    let budget = budget?;
    let option = match line.scenario {
        Scenario::Dynamic => "--latency-budget-ms",
        _ => "--cache-budget-ms",
    };
    let parts: Vec<String> = line
        .encodings
        .iter()
        .filter_map(|pick| {
            let mut edge = line.at_edge.iter().filter(|e| e.id.codec == pick.id.codec);
            let first = edge.next()?;
            let more: Vec<String> = edge.map(|e| deployable(&e.id)).collect();
            let more = match more.is_empty() {
                true => String::new(),
                false => format!(" (and {})", list(&more)),
            };
            Some(format!(
                "{}{more} would send {:.1}% fewer bytes than {} but sits at the edge of the \
                 {} budget (its slowest body takes {} to {})",
                deployable(&first.id),
                100.0 * (1.0 - first.bytes_sent / pick.bytes_sent),
                deployable(&pick.id),
                ms(budget),
                ms(first.slowest_compress_fast_s),
                ms(first.slowest_compress_s)
            ))
        })
        .collect();
    if parts.is_empty() {
        return None;
    }
    Some(format!(
        "; {}: another run may find it fits, so measure again on a quieter machine, or \
         set {option}",
        parts.join("; ")
    ))
}

/// Which clients ask for `codec`, as browsers and HTTP libraries stood at the end of
/// 2026.
pub(crate) fn reach(codec: CodecKind) -> &'static str {
    match codec {
        CodecKind::Zstd => {
            "zstd reaches Chrome and Edge 123+, Firefox 126+ and Safari 26+, over HTTPS only, and few API clients"
        }
        CodecKind::Brotli => {
            "br reaches every current browser over HTTPS (Chrome offers it over plain HTTP only to localhost) and some API clients"
        }
        CodecKind::Gzip => "gzip reaches every browser and nearly every HTTP client library",
    }
}

/// What the answer is for: the bodies and the link.
pub(crate) fn scope_text(answer: &Answer, options: &AdviceOptions) -> String {
    let sizes = if answer.smallest_bytes == answer.largest_bytes {
        format!("{} bytes", thousands(answer.smallest_bytes))
    } else {
        format!(
            "{} to {} bytes",
            thousands(answer.smallest_bytes),
            thousands(answer.largest_bytes)
        )
    };
    let share = if answer.share < 1.0 {
        format!(", {:.0}% of the responses", answer.share * 100.0)
    } else {
        String::new()
    };
    let weighted = match options.weights.is_empty() {
        true => "",
        false => ", weighted by --weights",
    };
    format!(
        "For {} ({}{weighted}, {sizes}{share}) at {} Mbit/s and {} round trip (--link, --rtt):",
        answer.group,
        bodies(answer.bodies),
        significant(options.link.mbit, 3),
        ms(options.link.rtt_s)
    )
}

/// Each codec the answer names, once, in codec order.
pub(crate) fn codecs_named(answer: &Answer) -> Vec<CodecKind> {
    let mut codecs: Vec<CodecKind> = answer
        .lines
        .iter()
        .flat_map(|line| line.encodings.iter().map(|e| e.id.codec))
        .collect();
    codecs.sort();
    codecs.dedup();
    codecs
}

/// Which smaller bodies placed the minimum sizes, and with which settings.
pub(crate) fn placed_text(placed: &PlacedBy) -> String {
    let settings: Vec<String> = placed.settings.iter().map(deployable).collect();
    let sizes: Vec<String> = placed.sizes.iter().map(|&s| thousands(s)).collect();
    format!(
        "Minimum sizes placed by measuring {} on {} cut from {}: {} bytes.",
        list(&settings),
        match sizes.len() {
            1 => "1 smaller body".to_string(),
            n => format!("{n} smaller bodies"),
        },
        list(&placed.cut_from),
        list(&sizes)
    )
}

/// The block for each answer, under one heading.
pub(crate) fn add(document: &mut Document, answers: &[Answer], options: &AdviceOptions) {
    if answers.is_empty() {
        return;
    }
    document.heading("What to deploy");
    for answer in answers {
        document.paragraph(scope_text(answer, options));
        let mut lines: Vec<String> = answer
            .lines
            .iter()
            .flat_map(|line| {
                [
                    headline(line, &as_is),
                    format!("  why: {}", why(line, answer, options)),
                ]
            })
            .collect();
        if let Some(placed) = &answer.placed_by {
            lines.push(placed_text(placed));
        }
        let codecs = codecs_named(answer);
        if !codecs.is_empty() {
            let reached: Vec<&str> = codecs.into_iter().map(reach).collect();
            lines.push(format!("Clients: {}.", reached.join("; ")));
        }
        document.prose(lines).gap();
    }
}
