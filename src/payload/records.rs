//! The customer-record JSON array that the article's C# program builds with
//! `MakeListPayload(count, seed)` and serialises with System.Text.Json's compact defaults.
//!
//! The JSON is written by hand rather than through serde_json because .NET's number
//! formatting differs from Rust's serialisers: doubles print as the shortest round-trip
//! string with no trailing `.0` (5000, not 5000.0), and dates use the "O" format.

use std::fmt::Write as _;

use super::rng::RecordRng;

const CITIES: [&str; 7] = [
    "Bucharest",
    "Berlin",
    "Lisbon",
    "Warsaw",
    "Dublin",
    "Madrid",
    "Helsinki",
];
const STATUSES: [&str; 4] = ["active", "pending", "suspended", "closed"];
const TAGS: [&str; 3] = ["vip", "eu", "newsletter"];
const NOTES: &str = "Imported from the legacy CRM during the 2024 migration.";
/// Minutes between consecutive records' `createdAt`, counted from 2024-01-01T00:00:00.
const MINUTES_PER_RECORD: u64 = 7;

/// Serialises `count` records drawn from `rng` as one compact JSON array.
pub(crate) fn make_list_payload(count: u64, rng: &mut dyn RecordRng) -> Vec<u8> {
    // ~300 bytes a record; reserving avoids regrowth on the 10,000-record payload.
    let mut json = String::with_capacity(2 + count as usize * 302);
    json.push('[');
    for i in 1..=count {
        if i > 1 {
            json.push(',');
        }
        write_record(&mut json, i, rng);
    }
    json.push(']');
    json.into_bytes()
}

/// Appends record `i`, drawing from `rng` in the C# program's order: GUID bytes, city,
/// status, balance, tag count.
fn write_record(json: &mut String, i: u64, rng: &mut dyn RecordRng) {
    let mut guid = [0u8; 16];
    rng.fill_bytes(&mut guid);
    let city = CITIES[rng.next_below(CITIES.len() as i32) as usize];
    let status = STATUSES[rng.next_below(STATUSES.len() as i32) as usize];
    let balance = round_half_even(rng.next_double() * 10000.0, 2);
    let tag_count = rng.next_in_range(1, TAGS.len() as i32 + 1) as usize;

    // `new Guid(byte[])` reads the first three groups little-endian, as from_bytes_le does.
    let external_id = uuid::Uuid::from_bytes_le(guid);
    let created_at = format_dotnet_roundtrip_date(i * MINUTES_PER_RECORD * 60);
    let _ = write!(
        json,
        "{{\"id\":{i},\"externalId\":\"{external_id}\",\"name\":\"Customer {i}\",\
         \"email\":\"user{i}@example.com\",\"city\":\"{city}\",\"status\":\"{status}\",\
         \"balance\":{balance},\"createdAt\":\"{created_at}\",\"tags\":[",
        balance = format_dotnet_double(balance),
    );
    for (n, tag) in TAGS[..tag_count].iter().enumerate() {
        if n > 0 {
            json.push(',');
        }
        let _ = write!(json, "\"{tag}\"");
    }
    let _ = write!(json, "],\"notes\":\"{NOTES}\"}}");
}

/// `Math.Round(value, digits)` as .NET computes it: scale by 10^digits, round half to
/// even (banker's rounding), scale back, all in f64.
pub(crate) fn round_half_even(value: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (value * scale).round_ties_even() / scale
}

/// Formats a double as System.Text.Json does: the shortest string that round-trips,
/// without a trailing `.0`. Rust's `Display` for f64 is also shortest-round-trip and never
/// adds `.0`, and for the magnitudes generated here (below 10^15) never uses an exponent.
pub(crate) fn format_dotnet_double(value: f64) -> String {
    debug_assert!(value.is_finite() && value.abs() < 1e15);
    format!("{value}")
}

/// Formats 2024-01-01T00:00:00 plus `seconds_after` in .NET's "O" round-trip format for a
/// DateTime of Kind Unspecified: seven fractional digits and no offset.
pub(crate) fn format_dotnet_roundtrip_date(seconds_after: u64) -> String {
    // Days from 1970-01-01 to 2024-01-01.
    const EPOCH_DAYS_2024: i64 = 19_723;
    let days = EPOCH_DAYS_2024 + (seconds_after / 86_400) as i64;
    let secs_of_day = seconds_after % 86_400;
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.0000000",
        secs_of_day / 3600,
        secs_of_day / 60 % 60,
        secs_of_day % 60
    )
}

/// Converts days since 1970-01-01 to a proleptic Gregorian (year, month, day).
/// Howard Hinnant's `civil_from_days`, <https://howardhinnant.github.io/date_algorithms.html>.
pub(crate) fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::payload::dotnet_random::DotnetRandom;

    #[test]
    fn doubles_print_like_system_text_json() {
        assert_eq!(format_dotnet_double(5000.0), "5000");
        assert_eq!(format_dotnet_double(0.5), "0.5");
        assert_eq!(format_dotnet_double(1234.5), "1234.5");
        assert_eq!(format_dotnet_double(0.07), "0.07");
        assert_eq!(format_dotnet_double(0.0), "0");
        assert_eq!(format_dotnet_double(8141.37), "8141.37");
        assert_eq!(format_dotnet_double(9999.99), "9999.99");
    }

    #[test]
    fn rounding_is_bankers_on_exact_halves() {
        // Exact binary halves after scaling: ties go to the even neighbour.
        assert_eq!(round_half_even(0.125, 2), 0.12);
        assert_eq!(round_half_even(0.375, 2), 0.38);
        assert_eq!(round_half_even(2.5, 0), 2.0);
        assert_eq!(round_half_even(3.5, 0), 4.0);
        assert_eq!(round_half_even(-2.5, 0), -2.0);
        assert_eq!(
            round_half_even(1234.565, 2),
            1234.56,
            "1234.565 is below the half in f64"
        );
        assert_eq!(round_half_even(4999.995, 2), 5000.0);
        assert_eq!(format_dotnet_double(round_half_even(4999.999, 2)), "5000");
    }

    #[test]
    fn dates_use_the_roundtrip_o_format_without_offset() {
        assert_eq!(
            format_dotnet_roundtrip_date(0),
            "2024-01-01T00:00:00.0000000"
        );
        assert_eq!(
            format_dotnet_roundtrip_date(7 * 60),
            "2024-01-01T00:07:00.0000000"
        );
        // Record 10,000: 70,000 minutes later.
        assert_eq!(
            format_dotnet_roundtrip_date(70_000 * 60),
            "2024-02-18T14:40:00.0000000"
        );
        // 2024 is a leap year.
        assert_eq!(
            format_dotnet_roundtrip_date(59 * 86_400),
            "2024-02-29T00:00:00.0000000"
        );
        assert_eq!(
            format_dotnet_roundtrip_date(366 * 86_400 + 3_661),
            "2025-01-01T01:01:01.0000000"
        );
    }

    #[test]
    fn first_record_with_seed_42_matches_the_article() {
        let json = make_list_payload(1, &mut DotnetRandom::new(42));
        let text = String::from_utf8(json).unwrap();
        assert_eq!(
            text,
            "[{\"id\":1,\"externalId\":\"96ba173e-04ae-3bcd-9986-9e56f0adbf3a\",\
             \"name\":\"Customer 1\",\"email\":\"user1@example.com\",\"city\":\"Warsaw\",\
             \"status\":\"active\",\"balance\":8141.37,\
             \"createdAt\":\"2024-01-01T00:07:00.0000000\",\"tags\":[\"vip\",\"eu\"],\
             \"notes\":\"Imported from the legacy CRM during the 2024 migration.\"}]"
        );
        assert_eq!(text.len(), 290);
    }

    #[test]
    fn output_is_valid_json_with_the_expected_shape() {
        let json = make_list_payload(50, &mut DotnetRandom::new(3));
        let value: serde_json::Value = serde_json::from_slice(&json).unwrap();
        let records = value.as_array().unwrap();
        assert_eq!(records.len(), 50);
        for (n, record) in records.iter().enumerate() {
            assert_eq!(record["id"], n as u64 + 1);
            let tags = record["tags"].as_array().unwrap();
            assert!((1..=3).contains(&tags.len()));
            let balance = record["balance"].as_f64().unwrap();
            assert!((0.0..=10000.0).contains(&balance));
        }
    }

    #[test]
    fn empty_list_is_an_empty_array() {
        assert_eq!(make_list_payload(0, &mut DotnetRandom::new(42)), b"[]");
    }
}
