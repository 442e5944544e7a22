//! Which settings each server's configuration names: the answers recomputed among the
//! settings a server can be set to (see [`Server::can_express`]), and the configurations
//! of `recommend --emit`, one server after another.

use super::syntax::Syntax;
use crate::analysis::recommend::{answers, answers_among, AdviceOptions, Answer, AnswerLine};
use crate::analysis::recommend::{EncodingAnswer, Scenario};
use crate::results;
use crate::vocab::{CellId, Server};

/// Every answer the report or the configurations give, whose minimum body sizes smaller
/// bodies should place: the general answers, and each `--emit` server's.
pub(crate) fn answers_to_place(
    run: &results::LoadedRun,
    options: &AdviceOptions,
    servers: &[Server],
) -> Vec<Answer> {
    let mut all = answers(run, options);
    for &server in servers {
        let (shared, unshared) = server_answers(run, options, server);
        all.extend(shared.into_iter().flatten().chain(unshared));
    }
    all
}

/// The content types to compress: those of a HAR capture's bodies (but "other text",
/// which names none), or JSON, which the generated payloads are. Only media types are
/// written into configuration, whatever the run holds.
fn content_types(run: &results::LoadedRun) -> Vec<String> {
    use crate::vocab::media_type::{essence, OTHER_TEXT};
    let mut types: Vec<String> = Vec::new();
    for cell in run.codec_cells() {
        let content_type = cell.payload.content_type.as_deref();
        let typed = content_type.and_then(essence).filter(|t| t != OTHER_TEXT);
        if let Some(content_type) = typed {
            if !types.contains(&content_type) {
                types.push(content_type);
            }
        }
    }
    if types.is_empty() {
        types.push("application/json".to_string());
    }
    types
}

/// Each server's configuration, one after another, for every body measured.
pub(crate) fn emit(
    run: &results::LoadedRun,
    options: &AdviceOptions,
    servers: &[Server],
    zstd_module: bool,
) -> String {
    let content_types = content_types(run);
    let places = places(run);
    let mut sections = Vec::new();
    for &server in servers {
        let (shared, unshared) = server_answers(run, options, server);
        let alone = server
            .shares_one_level()
            .then(|| first_dynamic(&unshared).cloned())
            .flatten();
        let answers = shared.unwrap_or(unshared);
        let general = not_served_elsewhere(run, options, server);
        if let (Some(dynamic), Some(fixed)) = (answers.first(), general.first()) {
            let alone = alone.as_ref();
            let rendered =
                server.render(dynamic, fixed, &content_types, zstd_module, alone, &places);
            let notes = substitutions(server, dynamic_line(&general), dynamic_line(&answers));
            sections.push(with_notes(&rendered, &notes, server.syntax()));
        }
    }
    sections.join("\n")
}

/// The general answers, without the cells a lab run measured through other servers: a
/// file precompressed elsewhere suits any server, but `server`'s output should not name
/// another's figures.
fn not_served_elsewhere(
    run: &results::LoadedRun,
    options: &AdviceOptions,
    server: Server,
) -> Vec<Answer> {
    use crate::vocab::Variant;
    let elsewhere =
        |id: &CellId| matches!(id.variant, Variant::Served { server: s } if s != server);
    if !run.codec_cells().iter().any(|c| elsewhere(&c.key.id)) {
        return answers(run, options);
    }
    answers_among(run, options, &|id| !elsewhere(id))
}

/// What `server`'s per-request line names in place of the general answer's, and why:
/// one sentence per encoding whose setting differs or is left out.
fn substitutions(
    server: Server,
    general: Option<&AnswerLine>,
    own: Option<&AnswerLine>,
) -> Vec<String> {
    use crate::export::recommend::names::deployable;
    let (Some(general), Some(own)) = (general, own) else {
        return Vec::new();
    };
    let why = |wanted: &CellId, named: Option<&EncodingAnswer>| {
        let as_named = CellId {
            level: wanted.level,
            ..named.map_or(*wanted, |e| e.id)
        };
        let own = named.is_some_and(|e| server.owns(e.id.variant));
        match (
            server.shares_one_level(),
            server.can_express(&as_named, None, own),
        ) {
            (true, _) => format!("{server} sets one level for every encoding"),
            (false, false) => format!("{server} cannot be set to {}", deployable(wanted)),
            (false, true) => format!("measured as {server} sends, its own settings rank otherwise"),
        }
    };
    general
        .encodings
        .iter()
        .filter_map(|wanted| {
            let named = own.encodings.iter().find(|e| e.id.codec == wanted.id.codec);
            let why = why(&wanted.id, named);
            match named {
                Some(e) if e.id.level == wanted.id.level => None,
                Some(e) => Some(format!(
                    "The answer names {} for dynamic responses; {why}, so this names {}, \
                     the best of what it can express.",
                    deployable(&wanted.id),
                    deployable(&e.id)
                )),
                None => Some(format!(
                    "The answer names {} for dynamic responses; {why}, and no {} setting it \
                     can express beats sending bodies as they are, so this leaves {} off.",
                    deployable(&wanted.id),
                    wanted.id.codec.content_coding(),
                    wanted.id.codec.content_coding()
                )),
            }
        })
        .collect()
}

/// The run's payloads by name, in file order: where a name too long for a comment is
/// found.
fn places(run: &results::LoadedRun) -> Vec<String> {
    let mut places: Vec<String> = Vec::new();
    for cell in run.codec_cells() {
        if places.last() != Some(&cell.key.payload) {
            places.push(cell.key.payload);
        }
    }
    places
}

/// `rendered` with `notes` (comment lines, or none) after its first line.
fn with_notes(rendered: &str, notes: &[String], syntax: Syntax) -> String {
    let Some((first, rest)) = rendered.split_once('\n') else {
        return rendered.to_string();
    };
    match notes.is_empty() {
        true => rendered.to_string(),
        false => format!("{first}\n{}{rest}", syntax.comment(&notes.join("\n"))),
    }
}

/// The answers among the settings `server` can express: at one level for every
/// encoding, for a server that sets one and where the run has a level to share (see
/// [`one_level_for_all`]), and with each encoding at its own level.
fn server_answers(
    run: &results::LoadedRun,
    options: &AdviceOptions,
    server: Server,
) -> (Option<Vec<Answer>>, Vec<Answer>) {
    let own = run
        .codec_cells()
        .iter()
        .any(|c| server.owns(c.key.id.variant));
    let among = |shared: Option<i32>| {
        answers_among(run, options, &|id| server.can_express(id, shared, own))
    };
    let shared = server
        .shares_one_level()
        .then(|| one_level_for_all(run, &among))
        .flatten();
    (shared, among(None))
}

/// The first answer's per-request line, if any.
fn dynamic_line(answers: &[Answer]) -> Option<&AnswerLine> {
    let lines = &answers.first()?.lines;
    lines.iter().find(|l| l.scenario == Scenario::Dynamic)
}

/// The first encoding of the first answer's per-request line, if any.
fn first_dynamic(answers: &[Answer]) -> Option<&EncodingAnswer> {
    dynamic_line(answers)?.encodings.first()
}

/// For a server that sets one level for every encoding: the answers at the level
/// that keeps the most encodings worth sending (so that clients without the first one
/// still get compressed bodies), the fastest first encoding among those (ties to fewer
/// bytes, see [`crate::analysis::recommend::span`]). Each zstd
/// level measured is a candidate; `None` when the run has none.
fn one_level_for_all(
    run: &results::LoadedRun,
    among: &dyn Fn(Option<i32>) -> Vec<Answer>,
) -> Option<Vec<Answer>> {
    let mut levels: Vec<i32> = run
        .codec_cells()
        .iter()
        .filter(|c| c.key.id.codec == crate::vocab::CodecKind::Zstd)
        .map(|c| c.key.id.level)
        .collect();
    levels.sort_unstable();
    levels.dedup();
    let encodings = |answers: &[Answer]| dynamic_line(answers).map_or(0, |l| l.encodings.len());
    let per_level: Vec<Vec<Answer>> = levels
        .into_iter()
        .map(|level| among(Some(level)))
        .filter(|answers| first_dynamic(answers).is_some())
        .collect();
    let most = per_level.iter().map(|a| encodings(a)).max()?;
    let mut kept: Vec<Vec<Answer>> = per_level
        .into_iter()
        .filter(|a| encodings(a) == most)
        .collect();
    let firsts: Vec<EncodingAnswer> = kept
        .iter()
        .filter_map(|a| first_dynamic(a).cloned())
        .collect();
    let (index, _) = crate::analysis::recommend::span::pick(&firsts)?;
    Some(kept.swap_remove(index))
}
