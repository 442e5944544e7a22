use std::path::PathBuf;

use super::*;
use crate::bench::protocol::{BodyFile, SettingName, Work, PROTOCOL};
use crate::bench::schedule::{Iterations, Plan};

/// A result of one cell and the job it answers.
fn answered() -> (PayloadResult, Job) {
    let mut result = crate::export::fixtures::report().payloads.remove(0);
    result.cells.truncate(1);
    let id = result.cells[0].id;
    let job = Job {
        protocol: PROTOCOL,
        body: BodyFile {
            name: result.payload.clone(),
            path: PathBuf::from("body"),
            bytes: result.input_bytes,
            sha256: result.sha256.clone().unwrap_or_default(),
        },
        work: Work::Time(Plan {
            warmup: 1,
            iterations: Iterations::Fixed(1),
            rounds: 1,
            precision: None,
            processes: 1,
        }),
        settings: vec![SettingName {
            codec: id.codec,
            library: id.library,
            variant: id.variant,
            levels: vec![id.level],
            dictionary: None,
        }],
        identify: false,
    };
    (result, job)
}

fn refused(change: impl Fn(&mut PayloadResult)) -> String {
    let (mut result, job) = answered();
    change(&mut result);
    format!("{:#}", checked(result, &job).unwrap_err())
}

#[test]
fn the_batch_asked_for_is_taken() {
    let (result, job) = answered();
    let cell = checked(result, &job).unwrap();
    assert_eq!(cell.id.level, job.settings[0].levels[0]);
}

#[test]
fn an_answer_for_anything_else_is_refused_saying_what() {
    let times =
        |f: fn(&mut Summary)| move |r: &mut PayloadResult| f(r.cells[0].compress.as_mut().unwrap());
    for (why, expected) in [
        (refused(|r| r.payload = "other".into()), "another payload"),
        (refused(|r| r.input_bytes += 1), "another payload"),
        (refused(|r| r.sha256 = Some("00".into())), "another SHA-256"),
        (refused(|r| r.interrupted = true), "cut short"),
        (refused(|r| r.cells.clear()), "answered 0 cells"),
        (
            refused(|r| r.cells.push(r.cells[0].clone())),
            "answered 2 cells",
        ),
        (refused(|r| r.cells[0].id.level += 1), "was asked"),
        (
            refused(|r| r.cells[0].decompress = None),
            "no decompress times",
        ),
        (refused(times(|s| s.min_s = 0.0)), "no clock gives"),
        (refused(times(|s| s.median_s = -1.0)), "no clock gives"),
        (refused(times(|s| s.min_s = f64::NAN)), "no clock gives"),
        (
            refused(times(|s| s.median_s = f64::INFINITY)),
            "no clock gives",
        ),
        (
            refused(times(|s| s.min_s = s.median_s * 2.0)),
            "no clock gives",
        ),
    ] {
        assert!(why.contains(expected), "{why} (expected {expected})");
    }
}

#[test]
fn a_failed_round_trip_is_a_cell_without_times() {
    let (mut result, job) = answered();
    result.cells[0].fail("round trip mismatch".into());
    assert!(checked(result, &job).unwrap().failure.is_some());
}
