//! The readers against the exporters: what `export` writes, `results` reads back the
//! same, and damaged or impossible files are errors naming what is wrong. These tests
//! live above both layers, so that `results` never imports `export`.

use crate::results::{load, parse};

#[test]
fn csv_and_json_of_one_report_load_to_the_same_sizes_and_medians() {
    let report = crate::export::fixtures::report();
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("a.json");
    let csv = dir.path().join("a.csv");
    std::fs::write(&json, crate::export::run::json::render(&report)).unwrap();
    std::fs::write(&csv, crate::export::run::csv::render(&report)).unwrap();
    let from_json = load(&json).unwrap();
    let from_csv = load(&csv).unwrap();
    assert_eq!(from_json.label, "a.json");
    assert_eq!(from_json.codec_cells().len(), 4);
    assert_eq!(from_csv.machine(), None);
    // Four significant digits, as CSV writes them.
    let close = |a: f64, b: f64| (a - b).abs() <= a.abs() * 5e-4;
    for (j, c) in from_json.codec_cells().iter().zip(from_csv.codec_cells()) {
        assert_eq!(j.key, c.key);
        assert_eq!(j.payload.warmup, c.payload.warmup);
        let (jc, cc) = (j.cell, c.cell);
        assert_eq!(
            (
                jc.compressed_bytes,
                jc.encoder_bytes,
                &jc.dotnet_level,
                jc.status
            ),
            (
                cc.compressed_bytes,
                cc.encoder_bytes,
                &cc.dotnet_level,
                cc.status
            )
        );
        assert_eq!(
            (&jc.failure, jc.precision_met),
            (&cc.failure, cc.precision_met)
        );
        if let (Some(js), Some(cs)) = (&jc.compress, &cc.compress) {
            for (a, b) in [
                (js.median_s, cs.median_s),
                (js.min_s, cs.min_s),
                (js.max_s, cs.max_s),
                (js.mean_s, cs.mean_s),
            ] {
                assert!(close(a, b), "{a} against {b}");
            }
            assert_eq!(js.samples_s.len(), 3);
            assert!(cs.samples_s.is_empty());
            let (jcpu, ccpu) = (js.cpu.as_ref().unwrap(), cs.cpu.as_ref().unwrap());
            assert!(close(jcpu.median_s, ccpu.median_s) && close(jcpu.min_s, ccpu.min_s));
            assert!(
                jcpu.median_s < js.median_s,
                "the fixture's CPU time is its own"
            );
        }
        if let (Some(jt), Some(ct)) = (j.compress(), c.compress()) {
            assert_eq!((jt.sample_count(), ct.sample_count()), (3, 0));
            assert_eq!((jt.processes, ct.processes), (Some(1), None));
        }
    }
}

#[test]
fn http_runs_load_from_json_and_csv() {
    let report = crate::export::http::fixtures::report();
    let json = parse(
        &crate::export::http::render_json(&report, None),
        "h.json",
        "h.json",
    )
    .unwrap();
    let csv = parse(
        &crate::export::http::render_csv(&report, None),
        "h.csv",
        "h.csv",
    )
    .unwrap();
    assert!(json.codec_cells().is_empty() && csv.codec_cells().is_empty());
    assert!(json.cells().is_err());
    assert_eq!(json.http_cells().len(), 3);
    for (j, c) in json.http_cells().iter().zip(csv.http_cells()) {
        assert_eq!(j.key, c.key);
        assert_eq!(j.body_bytes(), c.body_bytes());
        let (jr, cr) = (j.result, c.result);
        assert_eq!((jr.requests, jr.errors), (cr.requests, cr.errors));
        for (a, b) in [
            (jr.p50_ms, cr.p50_ms),
            (jr.p90_ms, cr.p90_ms),
            (jr.p99_ms, cr.p99_ms),
        ] {
            assert!((a - b).abs() <= a * 5e-4, "{a} against {b}");
        }
        assert!((j.latency().median_s - c.latency().median_s).abs() < 1e-12);
    }
    let zstd = &json.http_cells()[0];
    assert_eq!(
        zstd.key.to_string(),
        "small zstd:1 over HTTP (1 connection, 10 Mbit/s)"
    );
    assert_eq!(zstd.body_bytes(), 41_132);
    assert_eq!(zstd.latency().sample_count(), 5);
    assert!((zstd.latency().median_s - 0.0328).abs() < 1e-12);
    assert_eq!(csv.http_cells()[0].latency().sample_count(), 0);

    let mut bad = String::from_utf8(crate::export::http::render_csv(&report, None)).unwrap();
    bad = bad.replacen(",32.80,", ",fast,", 1);
    let message = format!("{:#}", parse(bad.as_bytes(), "b", "b.csv").unwrap_err());
    assert!(
        message.contains("'fast' in column http_p50_ms is not a number"),
        "{message}"
    );
}

#[test]
fn an_http_csv_of_two_loads_is_refused() {
    let report = crate::export::http::fixtures::report();
    let mut csv = crate::export::http::render_csv(&report, None);
    let mut other = report.clone();
    other.load.concurrency = 4;
    let rows = crate::export::http::render_csv(&other, None);
    let header_end = rows.iter().position(|&b| b == b'\n').unwrap() + 1;
    csv.extend_from_slice(&rows[header_end..]);
    let message = format!("{:#}", parse(&csv, "h", "h.csv").unwrap_err());
    assert!(
        message.contains("line 5: its load") && message.contains("one load per file"),
        "{message}"
    );
}

mod garbage {
    use crate::results::parse;
    use proptest::prelude::*;

    const JSON: &[u8] = include_bytes!("../../../tests/fixtures/base.json");
    const CSV: &[u8] = include_bytes!("../../../tests/fixtures/base.csv");
    const HTTP_JSON: &[u8] = include_bytes!("../../../tests/fixtures/http.json");
    const HTTP_CSV: &[u8] = include_bytes!("../../../tests/fixtures/http.csv");

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn arbitrary_bytes_give_a_run_or_an_error(
            bytes in proptest::collection::vec(any::<u8>(), 0..4096)
        ) {
            let _ = parse(&bytes, "garbage", "garbage");
        }

        #[test]
        fn damaged_runs_give_a_run_or_an_error(
            which in 0usize..4,
            cut in 0.0f64..=1.0,
            flips in proptest::collection::vec((0.0f64..1.0, any::<u8>()), 0..16),
        ) {
            let original = [JSON, CSV, HTTP_JSON, HTTP_CSV][which];
            let mut bytes = original[..(original.len() as f64 * cut) as usize].to_vec();
            for (at, byte) in flips {
                if !bytes.is_empty() {
                    let index = (at * bytes.len() as f64) as usize % bytes.len();
                    bytes[index] = byte;
                }
            }
            // A run of either kind holds at least one result of that kind.
            if let Ok(run) = parse(&bytes, "damaged", "damaged") {
                prop_assert!(!run.results.is_empty());
            }
        }
    }
}

#[test]
fn malformed_runs_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let cases = [
        (write("empty.json", "  "), "empty"),
        (
            write("small.json", "[{\"id\": 1}]"),
            "a JSON array (a payload?), not a saved run",
        ),
        (
            write("cut.json", "{\"schema_version\": 1, \"environ"),
            "not a valid",
        ),
        (
            write("future.json", "{\"schema_version\": 9}"),
            "schema_version 9",
        ),
        (
            write("bad.csv", "payload,codec\nsmall,zstd\n"),
            "no column named",
        ),
        (
            write("nan.csv", &{
                // Every column plausible but input_bytes.
                let columns = crate::results::columns::run::ALL;
                let row: Vec<&str> = columns
                    .iter()
                    .map(|&c| match c {
                        "payload" => "small",
                        "input_bytes" => "x",
                        "codec" => "zstd",
                        "library" => "libzstd",
                        "variant" => "fresh",
                        "status" => "ok",
                        "failure" => "",
                        _ => "1",
                    })
                    .collect();
                format!("{}\n{}\n", columns.join(","), row.join(","))
            }),
            "not a number",
        ),
    ];
    for (path, expected) in cases {
        let message = format!("{:#}", load(&path).unwrap_err());
        assert!(message.contains(expected), "{}: {message}", path.display());
    }
    assert!(
        format!("{:#}", load(&dir.path().join("missing.json")).unwrap_err())
            .contains("cannot read")
    );
}

#[test]
fn impossible_values_are_refused_naming_the_field_and_row() {
    let report = crate::export::fixtures::report();
    let csv = String::from_utf8(crate::export::run::csv::render(&report)).unwrap();
    let columns = crate::results::columns::run::ALL;
    let with = |column: &str, value: &str| -> String {
        let index = columns.iter().position(|c| *c == column).unwrap();
        let mut lines: Vec<String> = csv.lines().map(String::from).collect();
        let mut fields: Vec<String> = lines[1].split(',').map(String::from).collect();
        fields[index] = value.to_string();
        lines[1] = fields.join(",");
        lines.join("\n") + "\n"
    };
    for (column, value, expected) in [
        ("compressed_bytes", "-5", "not a whole number"),
        ("compressed_bytes", "1e30", "not a whole number"),
        ("compressed_bytes", "12.7", "not a whole number"),
        ("input_bytes", "0", "not a whole number of at least 1"),
        ("compress_median_ms", "0", "must be above 0"),
        ("decompress_median_ms", "-1", "must be above 0"),
    ] {
        let text = with(column, value);
        let message = format!("{:#}", parse(text.as_bytes(), "b", "b.csv").unwrap_err());
        assert!(
            message.contains("line 2") && message.contains(column) && message.contains(expected),
            "{column}={value}: {message}"
        );
    }
    let mut zero = report.clone();
    zero.payloads[0].cells[0]
        .compress
        .as_mut()
        .unwrap()
        .median_s = 0.0;
    let json = crate::export::run::json::render(&zero);
    let message = format!("{:#}", parse(&json, "z", "z.json").unwrap_err());
    assert!(
        message.contains("payload small, cell zstd 1 (libzstd): compress time 0 s"),
        "{message}"
    );
}

#[test]
fn probes_load_from_json_and_csv_with_their_failed_rows() {
    let report = crate::export::probe::fixtures::report();
    let json = crate::export::probe::render_json(&report);
    let csv = crate::export::probe::render_csv(&report);
    let json = parse(&json, "p.json", "p.json").unwrap();
    let csv = parse(&csv, "p.csv", "p.csv").unwrap();
    assert!(json.cells().is_err() && json.http_cells().is_empty());
    assert_eq!(json.probe_cells().len(), 3);
    for (j, c) in json.probe_cells().iter().zip(csv.probe_cells()) {
        assert_eq!(j.key, c.key);
        assert_eq!(j.url.identity_bytes, c.url.identity_bytes);
        let (jr, cr) = (j.row, c.row);
        assert_eq!(
            (&jr.encoding, jr.status, &jr.vary, jr.requests),
            (&cr.encoding, cr.status, &cr.vary, cr.requests)
        );
        assert_eq!(
            (jr.predicted_level, jr.predicted_body_bytes),
            (cr.predicted_level, cr.predicted_body_bytes)
        );
        assert_eq!(
            (j.input_bytes(), j.body_bytes()),
            (c.input_bytes(), c.body_bytes())
        );
        assert_eq!(jr.failure, cr.failure);
        assert!((j.latency().median_s - c.latency().median_s).abs() < 1e-12);
    }
    let gzip = &json.probe_cells()[1];
    assert_eq!(
        gzip.key.to_string(),
        "http://127.0.0.1:8080/small.json (Accept-Encoding: gzip)"
    );
    assert_eq!((gzip.body_bytes(), gzip.input_bytes()), (47_113, 298_727));
    assert_eq!(gzip.latency().sample_count(), 3);
    assert!(csv.probe_cells()[2]
        .row
        .failure
        .as_deref()
        .unwrap()
        .contains("differ"));
}

#[test]
fn a_probe_compares_sizes_exactly_and_lists_failed_rows() {
    use crate::analysis::compare::{compare, CompareOptions};
    let report = crate::export::probe::fixtures::report();
    let baseline = parse(&crate::export::probe::render_json(&report), "a", "a").unwrap();
    let mut changed = report.clone();
    changed.urls[0].rows[1].body_bytes = 47_000.0;
    let candidate = parse(&crate::export::probe::render_json(&changed), "b", "b").unwrap();
    let options = CompareOptions::default();
    let same = compare(&baseline, &baseline, &options).unwrap();
    assert_eq!(same.kind, "probe");
    assert_eq!((same.rows.len(), same.failed.len()), (2, 1));
    assert!(same.rows[0].is_reference, "identity is the reference");
    let drifted = compare(&baseline, &candidate, &options).unwrap();
    assert_eq!(drifted.size_drifts().count(), 1);
    assert!(drifted.failed());
}
