//! End to end: one answer everywhere. Weights count by their ratios only, and every
//! server's configuration names the answer's settings and minimum, or says what it
//! names instead and why.

use crate::common::{codec_coding, codecbench, succeed};
use serde_json::Value;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/real-json-quick.json"
);

/// The article's matrix, measured in full.
const REFERENCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/results/reference.json");

/// `recommend --from FILE --format json` with the `--weights` of `weights`, if any.
fn answers_with_weights(run: &str, weights: Option<&str>) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let mut command = codecbench();
    command.args(["recommend", "--format", "json", "--from", run]);
    if let Some(weights) = weights {
        let path = dir.path().join("weights.csv");
        std::fs::write(&path, weights).unwrap();
        command.arg("--weights").arg(&path);
    }
    let report: Value = serde_json::from_slice(&succeed(&mut command).stdout).unwrap();
    report["answers"].clone()
}

#[test]
fn equal_weights_of_any_size_give_the_answer_no_weights_give() {
    let run: Value = serde_json::from_slice(&std::fs::read(FIXTURE).unwrap()).unwrap();
    let names: Vec<&str> = run["payloads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["payload"].as_str().unwrap())
        .collect();
    let unweighted = answers_with_weights(FIXTURE, None);
    for weight in ["1e308", "5e-324", "1e300", "0.001"] {
        let mut csv = "payload,weight\n".to_string();
        for name in &names {
            csv += &format!("{name},{weight}\n");
        }
        let weighted = answers_with_weights(FIXTURE, Some(&csv));
        assert_eq!(weighted, unweighted, "every weight {weight}");
    }
}

#[test]
fn every_server_names_the_answer_or_says_what_it_used_instead() {
    for fixture in [FIXTURE, REFERENCE] {
        let text =
            succeed(codecbench().args(["recommend", "--format", "markdown", "--from", fixture]));
        let text = String::from_utf8(text.stdout).unwrap();
        let headline = text
            .lines()
            .find_map(|l| l.strip_prefix("- dynamic responses: "))
            .unwrap()
            .to_string();
        let report: Value = serde_json::from_slice(
            &succeed(codecbench().args(["recommend", "--format", "json", "--from", fixture]))
                .stdout,
        )
        .unwrap();
        let line = &report["answers"][0]["lines"][0];
        for server in ["nginx", "caddy", "aspnetcore", "tower-http"] {
            let emitted =
                succeed(codecbench().args(["recommend", "--emit", server, "--from", fixture]));
            let emitted = String::from_utf8(emitted.stdout).unwrap();
            let first = emitted.lines().next().unwrap();
            let substituted: Vec<&str> = emitted
                .lines()
                .filter(|l| l.contains("The answer names "))
                .collect();
            for encoding in line["encodings"].as_array().unwrap() {
                let level = encoding["id"]["level"].as_i64().unwrap();
                let coding = codec_coding(encoding["id"]["codec"].as_str().unwrap());
                let named = format!("{coding} {level}");
                let kept = [" ", ";", ","]
                    .iter()
                    .any(|end| first.contains(&format!(" {named}{end}")));
                let said = substituted.iter().any(|l| {
                    l.contains(&format!("The answer names {named} "))
                        && (l.contains("cannot be set to")
                            || l.contains("one level")
                            || l.contains("rank otherwise"))
                });
                assert!(
                    kept || said,
                    "{server} on {fixture}: {named} neither named nor replaced:\n{emitted}"
                );
            }
            // Unless the first setting was replaced, the same minimum size.
            let minimum = headline
                .rsplit("don't compress bodies under ")
                .next()
                .unwrap();
            let first_replaced = substituted.iter().any(|l| {
                let id = &line["encodings"][0]["id"];
                let coding = codec_coding(id["codec"].as_str().unwrap());
                l.contains(&format!("The answer names {coding} {} ", id["level"]))
            });
            if !first_replaced {
                assert!(
                    first.ends_with(minimum),
                    "{server}: {first}\nagainst {headline}"
                );
            }
        }
    }
}
