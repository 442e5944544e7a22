use std::ops::Range;

use super::*;
use crate::payload::{generate, RngKind};

/// Each call as (its text, maxRequired, checked after).
fn calls_of(json: &str) -> Vec<(&str, usize, bool)> {
    let mut start = 0;
    writer_calls(json.as_bytes())
        .map(|call| {
            let text = &json[start..call.end];
            start = call.end;
            (text, call.max_required, call.flush_check)
        })
        .collect()
}

#[test]
fn each_call_asks_for_its_worst_case_as_utf8jsonwriter_does() {
    // Worked from Utf8JsonWriter's sources: a start 2, an end 1, a name section its
    // length + 1, a string 3 per UTF-16 unit + 3, an Int64 21, a double 129, a literal
    // its length + 1, a null property the section + 4 + 1.
    let json = r#"[{"a":1,"b":"xé","c":[true,null],"d":null,"e":2.5},{"a":3}]"#;
    assert_eq!(
        calls_of(json),
        [
            ("[", 2, false),
            ("{", 2, false),
            (r#""a":"#, 5, false),
            ("1", 21, true),
            (r#","b":"#, 5, false),
            (r#""xé""#, 9, true),
            (r#","c":"#, 5, false),
            ("[", 2, false),
            ("true", 5, false),
            (",null", 5, false),
            ("]", 1, true),
            (r#","d":null"#, 9, true),
            (r#","e":"#, 5, false),
            ("2.5", 129, true),
            ("}", 1, true),
            (",{", 2, false),
            (r#""a":"#, 5, false),
            ("3", 21, true),
            ("}", 1, true),
            ("]", 1, false),
        ]
    );
}

#[test]
fn a_number_is_a_double_when_its_property_ever_has_a_fraction() {
    let calls = calls_of(r#"[{"x":1,"n":[1,2]},{"x":2.5,"n":[3]}]"#);
    let numbers: Vec<(&str, usize)> = calls
        .iter()
        .filter(|(text, ..)| text.trim_start_matches(',').parse::<f64>().is_ok())
        .map(|&(text, max, _)| (text, max))
        .collect();
    assert_eq!(
        numbers,
        [("1", 129), ("1", 21), (",2", 21), ("2.5", 129), ("3", 21)]
    );
}

#[test]
fn white_space_and_bytes_that_are_not_json_are_written_too() {
    let calls = writer_calls(b" {\"a\" : [1, 2] } \n");
    assert_eq!(calls.last().unwrap().end, 18);
    assert_eq!(writer_calls(b"\x89PNG\r\n").count(), 1);
    assert!(flushed_segments(b"").is_empty());
    // Every call asks for at least what it writes.
    let mut start = 0;
    for call in writer_calls(b"[123456789012345678901234567890, \"a\"]") {
        assert!(call.max_required >= call.end - start, "{call:?}");
        start = call.end;
    }
}

#[test]
fn the_first_two_pieces_of_small_as_worked_out_by_hand() {
    // Worked from the rules above on the parsed records, not from this module: the
    // writer fills 4,096-byte segments. The first ends at 4,057 B, in the 14th record:
    // its "notes" string (55 chars) asks for 168 B where 39 are left, so Grow takes a
    // new segment. A piece ends at the first check past 14,745 B: after 4 writes.
    let body = generate(1000, 42, RngKind::Dotnet);
    let flushes = flushed_segments(&body);
    let lengths: Vec<Vec<usize>> = flushes
        .iter()
        .take(2)
        .map(|f| f.iter().map(|s| s.len()).collect())
        .collect();
    assert_eq!(
        lengths,
        [vec![4057, 4069, 4046, 2611], vec![4021, 4000, 4038, 2687]]
    );
    assert_eq!(&body[4057 - 8..4057], br#""notes":"#);
    // 21 flushes, 81 writes, every byte once and in order.
    assert_eq!(flushes.len(), 21);
    assert_eq!(flushes.iter().map(Vec::len).sum::<usize>(), 81);
    let all: Vec<&Range<usize>> = flushes.iter().flatten().collect();
    assert_eq!(all[0].start, 0);
    assert_eq!(all.last().unwrap().end, body.len());
    assert!(all.windows(2).all(|w| w[0].end == w[1].start));
    // No segment holds more than the pipe's 4,096 bytes.
    assert!(all.iter().all(|s| s.len() <= MINIMUM_SEGMENT));
}

#[test]
fn arrays_of_scalars_are_checked_once_arrays_of_objects_per_element() {
    let calls = calls_of(r#"{"t":["a","b"],"o":[{},{}]}"#);
    let checked: Vec<&str> = calls.iter().filter(|c| c.2).map(|c| c.0).collect();
    // "a" and "b" are not checked; each {} is, and each property after its value.
    assert_eq!(checked, ["]", "}", "}", "]"]);
    let root = calls_of(r#"[1,2,3]"#);
    assert!(root.iter().all(|c| !c.2));
}

#[test]
fn a_string_longer_than_a_segment_gets_a_segment_of_its_own_size() {
    let long = "x".repeat(3000);
    // "[" takes a 4,096-byte segment; 3,000 chars ask for 9,003 B, so Grow takes a
    // 16 KiB one (the array pool rents powers of two) and "[" is a write of its own.
    let json = format!(r#"["{long}","y"]"#);
    assert_eq!(
        flushed_segments(json.as_bytes()),
        [vec![0..1, 1..json.len()]]
    );
    // Three strings fit in 16,384 B; the fourth asks for 9,003 where 7,376 are left.
    let json = format!(r#"["{long}","{long}","{long}","{long}"]"#);
    let writes: Vec<usize> = flushed_segments(json.as_bytes())[0]
        .iter()
        .map(Range::len)
        .collect();
    assert_eq!(writes, [1, 9008, 3004]);
}

#[test]
fn nesting_deeper_than_the_writer_allows_is_written_as_one_call() {
    let json = "[".repeat(5_000);
    let calls: Vec<WriterCall> = writer_calls(json.as_bytes()).collect();
    // 1,000 levels the writer would open, then the rest in one call.
    assert_eq!(calls.len(), 1_001);
    assert_eq!(calls.last().unwrap().end, json.len());
    let written: usize = flushed_segments(json.as_bytes())
        .iter()
        .flatten()
        .map(Range::len)
        .sum();
    assert_eq!(written, json.len());
}

#[test]
fn separators_at_the_end_go_with_the_last_call() {
    let calls: Vec<WriterCall> = writer_calls(b"[1,2], \n").collect();
    assert_eq!(calls.last().unwrap().end, 8);
    // A name with no value is still written.
    assert_eq!(writer_calls(br#"{"a":"#).last().unwrap().end, 5);
}
