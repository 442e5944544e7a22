//! `codecbench serve`: loads the payloads, prints the URLs, serves until a stop request.

use std::io::Write;

use crate::config::http::ServeConfig;
use crate::error::Failing;
use crate::http::dictionary::Prepared;
use crate::http::serve::{listen, routes, serve, Served};
use crate::payload;

/// Serves every payload of `config` at every encoding until Ctrl-C.
pub(super) fn run(config: ServeConfig) -> crate::error::Result {
    let (payloads, notes) = payload::load(&config.payloads, config.seed, config.rng)?;
    notes.iter().for_each(super::output::say);
    let prepared = config
        .dictionary
        .map(|source| Prepared::new(source, config.seed, config.rng))
        .transpose()?;
    let mut served: Vec<Served> = Vec::new();
    for payload in &payloads {
        let (body, dictionary) = super::http::version(prepared.as_ref(), payload)?;
        let mut entry = Served::new(&payload.name, body, dictionary);
        // Two payloads whose names read alike get -2, -3.
        let base = entry.slug.clone();
        let mut n = 1;
        while served.iter().any(|s| s.slug == entry.slug) {
            n += 1;
            entry.slug = format!("{base}-{n}");
        }
        served.push(entry);
    }
    let (router, urls) = routes(&served, &config.encodings);
    let listener = listen(config.address)?;
    if !config.address.ip().is_loopback() {
        eprintln!(
            "codecbench: warning: --bind {} reaches beyond this machine: anyone who can connect gets every payload served",
            config.address.ip()
        );
    }
    let address = listener.local_addr().map_err(anyhow::Error::from)?;
    let mut out = std::io::stdout().lock();
    let mut announce = || -> std::io::Result<()> {
        writeln!(out, "serving on http://{address}, until Ctrl-C")?;
        for url in &urls {
            writeln!(out, "http://{address}{}  {}", url.path, url.what)?;
        }
        out.flush()
    };
    announce().map_err(anyhow::Error::from).failing()?;
    drop(out);
    serve(router, listener, config.send_timeout).failing()?;
    eprintln!("stopped");
    match crate::process::interrupt::by_sigterm() {
        // SIGTERM says so in the exit code, as every other command's does.
        true => Err(crate::error::Error::Interrupted("serve stopped".into())),
        false => Ok(()),
    }
}
