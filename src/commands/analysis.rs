//! `recommend`, `zstd-params`, `reproduce` and `plot`: analyses of a run (saved or made
//! now), printed or written.

use super::output::{print, write_file};
use super::source::saved_or_measured;
use crate::analysis::recommend::{advise, answers, AdviceOptions};
use crate::analysis::zstd_params::selected;

use crate::config::analysis::{PlotConfig, RecommendConfig, ReproduceConfig, ZstdParamsConfig};
use crate::error::Failing;
use crate::export::exporter::{exporter, Exporter as _, Html, Subject};
use crate::export::text::document::Style;
use crate::export::text::draw::render;
use crate::export::zstd_params::ParamsTable;
use crate::export::{self, reproduce};
use crate::servers::{answers_to_place, emit};
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
    if config.emit.is_empty() {
        refuse_mixed_servers(&run)?;
    }
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

/// Refuses to answer for a lab run measured through several servers without `--emit`:
/// one answer would mix cells no single server sends.
fn refuse_mixed_servers(run: &results::LoadedRun) -> crate::error::Result {
    let mut servers: Vec<crate::vocab::Server> = Vec::new();
    for cell in run.codec_cells() {
        if let crate::vocab::Variant::Served { server } = cell.key.id.variant {
            if !servers.contains(&server) {
                servers.push(server);
            }
        }
    }
    match servers.as_slice() {
        [first, second, ..] => Err(anyhow::anyhow!(
            "{} was measured through {first} and {second}: one answer would mix them; name the server with --emit {first} (or {second})",
            run.label
        )
        .into()),
        _ => Ok(()),
    }
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
    let held = crate::analysis::reproduce::cells_held(&run);
    let machine = run.machine();
    if let Some(out) = &config.out {
        let file = reproduce::file_document(&claims, &findings, &source, machine.as_deref(), &held);
        write_file(out, &render(&file, Style::Markdown)).failing()?;
    }
    if let Some(html) = &config.html {
        let file = reproduce::file_document(&claims, &findings, &source, machine.as_deref(), &held);
        let page = crate::export::html::documents_page("codecbench reproduce", &[file]);
        write_file(html, &page).failing()?;
    }
    print(&render(
        &reproduce::document(&claims, &findings, &held),
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
