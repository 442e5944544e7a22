//! `recommend`, `zstd-params`, `reproduce` and `plot`: analyses of a run (saved or made
//! now), printed or written.

use super::output::{print, write_file};
use super::source::saved_or_measured;
use crate::analysis::recommend::{
    advise, answers, answers_among, AdviceOptions, Answer, AnswerLine, EncodingAnswer, Scenario,
};
use crate::analysis::zstd_params::selected;

use crate::config::analysis::{PlotConfig, RecommendConfig, ReproduceConfig, ZstdParamsConfig};
use crate::error::Failing;
use crate::export::exporter::{exporter, Exporter as _, Html, Subject};
use crate::export::text::document::Style;
use crate::export::text::draw::render;
use crate::export::zstd_params::ParamsTable;
use crate::export::{self, reproduce};
use crate::vocab::Server;
use crate::{payload, results};

/// Prints the advice for a run; a measured run's failed round trips fail the command
/// after the advice is printed.
pub(super) fn recommend(config: RecommendConfig) -> crate::error::Result {
    let (options, servers) = (config.options.clone(), config.emit.clone());
    let placed = |run: &results::LoadedRun| answers_to_place(run, &options, &servers);
    let answering = super::source::Answering {
        answers: &placed,
        options: &options,
    };
    let (run, outcome) = saved_or_measured(config.source, Some(answering))?;
    if let Err(crate::error::Error::Interrupted(_)) = &outcome {
        // An answer from the bodies measured before the stop would look whole.
        super::output::say(
            "codecbench: no answer printed: it would rest on part of the bodies; \
             recommend --from the saved run answers from those",
        );
        return outcome;
    }
    refuse_unknown_weights(&run, &config.options)?;
    let advice = advise(&run, &config.options);
    if advice.is_empty() {
        outcome?;
        return Err(anyhow::anyhow!(
            "{} has no cell with timings to advise on: every cell failed",
            run.label
        )
        .into());
    }
    if !config.emit.is_empty() {
        let text = emit(
            &run,
            &config.options,
            &config.emit,
            config.nginx_zstd_module,
        );
        print(text.as_bytes()).failing()?;
        return outcome;
    }
    let answers = answers(&run, &config.options);
    let subject = Subject::Advice {
        answers: &answers,
        advice: &advice,
        options: &config.options,
    };
    if let Some(html) = &config.html {
        write_file(html, &Html.export(&subject)?).failing()?;
    }
    let bytes = exporter(config.format).export(&subject)?;
    print(&bytes).failing()?;
    outcome
}

/// Refuses `--weights` that name a body the run does not hold: a typo would otherwise
/// leave that body at weight 1 without a word.
fn refuse_unknown_weights(
    run: &results::LoadedRun,
    options: &AdviceOptions,
) -> crate::error::Result {
    let cells = run.codec_cells();
    let unknown = options
        .weights
        .iter()
        .find(|(name, _)| !cells.iter().any(|c| c.key.payload == *name));
    match unknown {
        Some((name, _)) => Err(anyhow::anyhow!(
            "--weights names {name:?}, which is no body of {}",
            run.label
        )
        .into()),
        None => Ok(()),
    }
}

/// Every answer the report or the configurations give, whose minimum body sizes smaller
/// bodies should place: the general answers, and each `--emit` server's.
fn answers_to_place(
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
fn emit(
    run: &results::LoadedRun,
    options: &AdviceOptions,
    servers: &[Server],
    zstd_module: bool,
) -> String {
    let content_types = content_types(run);
    let general = answers(run, options);
    let mut sections = Vec::new();
    for &server in servers {
        let (shared, unshared) = server_answers(run, options, server);
        let alone = server
            .shares_one_level()
            .then(|| first_dynamic(&unshared).cloned())
            .flatten();
        let answers = shared.unwrap_or(unshared);
        if let (Some(dynamic), Some(fixed)) = (answers.first(), general.first()) {
            let alone = alone.as_ref();
            sections.push(server.render(dynamic, fixed, &content_types, zstd_module, alone));
        }
    }
    sections.join("\n")
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

/// Prints the parameters libzstd selects per level, per payload size and for an
/// unknown size.
pub(super) fn zstd_params(config: ZstdParamsConfig) -> crate::error::Result {
    let (payloads, _) = payload::load(&config.payloads, config.seed, config.rng)?;
    let table = |source: Option<(String, u64)>| ParamsTable {
        levels: config
            .levels
            .iter()
            .map(|&level| selected(level, source.as_ref().map(|(_, size)| *size)))
            .collect(),
        source,
    };
    let mut tables: Vec<ParamsTable> = payloads
        .iter()
        .map(|p| table(Some((p.name.clone(), p.bytes.len() as u64))))
        .collect();
    tables.push(table(None));
    let bytes = exporter(config.format).export(&Subject::ZstdParams(&tables))?;
    print(&bytes).failing()
}

/// Checks the article's claims against a run, prints them, and writes the Markdown
/// report if asked.
pub(super) fn reproduce(config: ReproduceConfig) -> crate::error::Result {
    let source = match &config.source.from {
        Some(path) => format!("`{}`", path.display()),
        None => "a run made by the same command".to_string(),
    };
    let (run, outcome) = saved_or_measured(config.source, None)?;
    let claims = crate::analysis::reproduce::check(&run);
    let findings = crate::analysis::reproduce::body_by_body(&run);
    if let Some(out) = &config.out {
        let file = reproduce::file_document(&claims, &findings, &source, run.machine().as_deref());
        write_file(out, &render(&file, Style::Markdown)).failing()?;
    }
    if let Some(html) = &config.html {
        let file = reproduce::file_document(&claims, &findings, &source, run.machine().as_deref());
        let page = crate::export::html::documents_page("codecbench reproduce", &[file]);
        write_file(html, &page).failing()?;
    }
    print(&render(
        &reproduce::document(&claims, &findings),
        Style::Terminal,
    ))
    .failing()?;
    outcome
}

/// Draws a saved run as SVG.
pub(super) fn plot(args: PlotConfig) -> crate::error::Result {
    let run = results::load(&args.run)?;
    let cells = run.cells()?.len();
    let options = AdviceOptions::default();
    let advice = advise(&run, &options);
    let caption = export::svg::Caption {
        run: run.label.clone(),
        machine: run.machine(),
        date: run.measured_on(),
    };
    let svg = export::svg::render_svg(&run, &advice, &caption);
    write_file(&args.out, &svg)?;
    println!(
        "{}: {}, {}",
        args.out.display(),
        crate::format::count(advice.len() as u64, "payload"),
        crate::format::count(cells as u64, "setting"),
    );
    Ok(())
}
