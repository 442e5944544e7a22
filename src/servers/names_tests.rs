//! Arbitrary payload names through every emitter: whatever a name holds, each output
//! has the lines the same answer has with a plain name, comment for comment and
//! directive for directive, and nothing its format would read as a line break or a
//! continuation inside a comment.

use proptest::prelude::*;

use super::tests::typical;
use crate::analysis::recommend::Answer;
use crate::format::{breaks_line, terminal_acts};
use crate::vocab::Server;

/// What a hostile name is made of: every line break, each format's comment and string
/// syntax, substitutions, controls and bidirectional overrides. The end-to-end tests
/// draw from the same list.
fn pieces() -> Vec<String> {
    let list = include_str!("../../tests/fixtures/hostile-name-pieces.json");
    serde_json::from_str(list).expect("a JSON list of strings")
}

/// The typical answer over its budget on `name`, per request and static, so that both
/// headlines name it.
fn over_budget_on(name: &str) -> Answer {
    let mut answer = typical();
    for line in &mut answer.lines {
        line.budget_s = Some(0.005);
        for encoding in &mut line.encodings {
            encoding.within_budget = false;
            encoding.slowest_body = name.to_string();
        }
    }
    answer
}

/// `server`'s output for an answer over budget on `name`, the run holding `places`.
fn emitted(server: Server, name: &str, places: &[String]) -> String {
    let answer = over_budget_on(name);
    let types = ["application/json".to_string()];
    server.render(&answer, &answer, &types, true, None, places)
}

/// Whether `line` is a comment in `server`'s format.
fn is_comment(server: Server, line: &str) -> bool {
    line.trim_start().starts_with(server.syntax().lead())
}

/// Checks `server`'s output with `name` against the same answer with a plain name.
fn same_directives(server: Server, name: &str) -> Result<(), TestCaseError> {
    let places = vec!["first.json".to_string(), name.to_string()];
    let plain = emitted(server, "plain.json", &places);
    let hostile = emitted(server, name, &places);
    let (plain_lines, lines): (Vec<&str>, Vec<&str>) =
        (plain.split('\n').collect(), hostile.split('\n').collect());
    prop_assert_eq!(lines.len(), plain_lines.len(), "{}:\n{}", server, hostile);
    for (line, plain_line) in lines.iter().zip(&plain_lines) {
        match is_comment(server, plain_line) {
            true => prop_assert!(is_comment(server, line), "{}: {:?}", server, line),
            false => prop_assert_eq!(line, plain_line),
        }
        // nginx refuses a comment of 4 KB; no line of ours comes near.
        prop_assert!(line.len() < 1000, "{}: {} bytes", server, line.len());
        let acts = |c: char| breaks_line(c) || (terminal_acts(c) && c != '\t');
        prop_assert!(!line.chars().any(acts), "{}: {:?}", server, line);
        // Apache joins a line ending in a backslash to the next, comments included.
        prop_assert!(!line.ends_with('\\'), "{}: {:?}", server, line);
    }
    if server == Server::Caddy {
        // Caddy substitutes `{$VAR}` before it strips comments.
        prop_assert!(!hostile.contains("{$"), "{}", hostile);
    }
    Ok(())
}

fn hostile_name() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => proptest::sample::select(pieces()),
        1 => any::<char>().prop_map(String::from),
    ];
    proptest::collection::vec(piece, 0..16).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn no_name_changes_a_directive_of_any_emitter(name in hostile_name()) {
        for server in <Server as clap::ValueEnum>::value_variants() {
            same_directives(*server, &name)?;
        }
    }
}

#[test]
fn a_name_too_long_for_a_line_is_its_place_in_the_run() {
    let long = format!("x\n{}", "y".repeat(10_000));
    for &server in <Server as clap::ValueEnum>::value_variants() {
        same_directives(server, &long).unwrap();
        let text = emitted(server, &long, &["a".into(), "b".into(), long.clone()]);
        assert!(
            text.contains("payload 3 of the run (its 10,002-character name is in the run)"),
            "{server}:\n{text}"
        );
    }
}
