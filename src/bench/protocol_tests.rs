//! The worker protocol: a job survives the line it travels on, and what does not match
//! is refused.

use super::*;
use crate::bench::schedule::Iterations;
use crate::codec::zstd_dict::{training_samples, ZstdDict};
use crate::codec::EncoderChoice;

fn plan() -> Plan {
    Plan {
        warmup: 1,
        iterations: Iterations::Fixed(2),
        rounds: 2,
        precision: None,
        processes: 1,
    }
}

fn settings() -> Vec<CodecSetting> {
    let samples = training_samples(50, crate::payload::RngKind::Dotnet);
    vec![
        CodecSetting {
            codec: crate::codec::server_codec(CodecKind::Zstd),
            levels: vec![1, 3],
        },
        CodecSetting {
            codec: Box::new(ZstdDict::train(&samples, 4).unwrap()),
            levels: vec![1],
        },
        CodecSetting {
            codec: EncoderChoice::reused(CodecKind::Gzip).unwrap(),
            levels: vec![6],
        },
    ]
}

#[test]
fn a_job_survives_its_line_and_builds_the_same_codecs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("body");
    let body = br#"[{"id":1,"name":"a"},{"id":2,"name":"b"}]"#;
    std::fs::write(&path, body).unwrap();
    let sent = settings();
    let job = Job::new(
        BodyFile::of("single", path, body),
        &sent,
        Work::Time(plan()),
    );
    let line = serde_json::to_string(&job).unwrap();
    let read = Job::parse(&line).unwrap();
    assert_eq!(read, job);
    assert_eq!(read.read_body().unwrap(), body);
    let built = read.codec_settings().unwrap();
    for (again, first) in built.iter().zip(&sent) {
        assert_eq!(again.levels, first.levels);
        let level = first.levels[0];
        assert_eq!(again.codec.id(level), first.codec.id(level));
        let (a, b) = (
            again.codec.compress(level, body),
            first.codec.compress(level, body),
        );
        assert_eq!(a.unwrap(), b.unwrap());
    }
}

#[test]
fn another_version_or_a_changed_body_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("body");
    std::fs::write(&path, b"0123456789").unwrap();
    let body = BodyFile::of("b", path.clone(), b"0123456789");
    let mut job = Job::new(body, &settings()[..1], Work::Time(plan()));
    job.protocol = 1;
    let line = serde_json::to_string(&job).unwrap();
    let refused = Job::parse(&line).unwrap_err().to_string();
    assert_eq!(
        refused,
        "protocol 1 is not spoken here: this build speaks 2"
    );
    let no_version = Job::parse("{\"body\": 1}").unwrap_err().to_string();
    assert_eq!(
        no_version,
        "the job names no protocol version: this build speaks 2"
    );
    std::fs::write(&path, b"0123456789 and more").unwrap();
    let changed = job.read_body().unwrap_err().to_string();
    assert!(
        changed.ends_with("is not the 10-byte body the job names"),
        "{changed}"
    );
}

#[test]
fn a_line_past_the_bound_is_refused_without_reading_on() {
    let long = vec![b'x'; (MOST_LINE_BYTES + 10) as usize];
    let refused = read_line(&long[..]).unwrap_err().to_string();
    assert_eq!(
        refused,
        format!("a line longer than {MOST_LINE_BYTES} bytes")
    );
    assert_eq!(read_line(&b""[..]).unwrap(), None);
}
