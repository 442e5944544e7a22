//! Number text: significant digits, thousands separators, counts with their nouns, and
//! durations; and text from outside made visible for a terminal. A leaf that every
//! layer that writes text may use; it uses nothing of codecbench.

use std::time::Duration;

/// Formats `value` with at least `digits` significant digits and no exponent:
/// 1234.5 → "1234", 98.76 → "98.8", 0.01234 → "0.0123", 0.099999 → "0.100".
pub(crate) fn significant(value: f64, digits: i32) -> String {
    if !value.is_finite() || value == 0.0 {
        return format!("{value}");
    }
    // The magnitude after rounding, so that 0.0999999 reads 0.1000, not 0.10000.
    let rounded: f64 = format!("{:.*e}", (digits - 1).max(0) as usize, value)
        .parse()
        .unwrap_or(value);
    let magnitude = rounded.abs().log10().floor() as i32;
    let decimals = (digits - 1 - magnitude).clamp(0, 9) as usize;
    format!("{value:.decimals$}")
}

/// Formats an integer with comma thousands separators.
pub(crate) fn thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// `1 record`, `2 records`: a count with its noun, plural when it is not one.
pub(crate) fn count(n: impl Into<u64>, noun: &str) -> String {
    counted(n.into(), noun, &format!("{noun}s"))
}

/// A count with the singular or the plural given, for nouns that do not take an `s`:
/// `1 size drift`, `2 missing from the candidate`.
pub(crate) fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Items as a sentence lists them: `a`, `a and b`, `a, b and c`.
pub(crate) fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [only] => only.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Seconds as milliseconds to 3 significant digits, without the unit: `0.00123` → `1.23`.
pub(crate) fn ms_figure(seconds: f64) -> String {
    significant(seconds * 1e3, 3)
}

/// Seconds as milliseconds to 3 significant digits, with the unit: `1.23 ms`.
pub(crate) fn ms(seconds: f64) -> String {
    ms_figure(seconds) + " ms"
}

/// A time per response to 3 significant digits in the unit that reads best: `850 ns`,
/// `12.3 µs`, `1.23 ms`, `2.50 s`.
pub(crate) fn duration_text(seconds: f64) -> String {
    let (value, unit) = match seconds {
        s if s < 1e-6 => (s * 1e9, "ns"),
        s if s < 1e-3 => (s * 1e6, "µs"),
        s if s < 1.0 => (s * 1e3, "ms"),
        s => (s, "s"),
    };
    format!("{} {unit}", significant(value, 3))
}

/// A wall-clock span as a progress line writes it: `42s`, `3m05s` or `1h02m`.
pub(crate) fn clock_text(duration: Duration) -> String {
    let seconds = duration.as_secs();
    match seconds {
        0..=59 => format!("{seconds}s"),
        60..=3599 => format!("{}m{:02}s", seconds / 60, seconds % 60),
        _ => format!("{}h{:02}m", seconds / 3600, seconds % 3600 / 60),
    }
}

/// A size in bytes: `4096`, `16KiB`, `64MiB`, `1GiB` (also `K`, `KB`, `M`, `MB`, `G`,
/// `GB`, as binary multiples); `None` for anything else or an overflow.
pub(crate) fn parse_bytes(text: &str) -> Option<u64> {
    let text = text.trim();
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let number: u64 = text[..digits].parse().ok()?;
    let unit: u64 = match text[digits..].trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        _ => return None,
    };
    number.checked_mul(unit)
}

/// A change in time, the one way every page and the terminal write one: words, then
/// the interval's ends as signed changes, `+` slower. `ratio` is new ÷ old time, and
/// so are the interval's ends: `30.0% slower [+26.0%, +34.1%]`, `12.0% faster
/// [-15.0%, -9.0%]`. An interval is never written as a ±, which a log band cannot be.
pub(crate) fn time_change(ratio: f64, interval: Option<(f64, f64)>) -> String {
    // A change that rounds to 0.0% is none, either way.
    let percent = (ratio - 1.0) * 100.0;
    let headline = match percent {
        p if p >= 0.05 => format!("{p:.1}% slower"),
        p if p <= -0.05 => format!("{:.1}% faster", -p),
        _ => "no change".to_string(),
    };
    match interval {
        Some((low, high)) => format!(
            "{headline} [{}, {}]",
            signed_change(low.min(high)),
            signed_change(low.max(high))
        ),
        None => headline,
    }
}

/// A time ratio as a signed change: `+26.0%` slower, `-9.0%` faster.
pub(crate) fn signed_change(ratio: f64) -> String {
    format!("{:+.1}%", (ratio - 1.0) * 100.0)
}

/// A change in time from a log time ratio and its band (half-width, log units): the
/// centre and the band's ends as ratios, for [`time_change`].
pub(crate) fn log_band(log_ratio: f64, band: Option<f64>) -> (f64, Option<(f64, f64)>) {
    let interval = band.map(|b| ((log_ratio - b).exp(), (log_ratio + b).exp()));
    (log_ratio.exp(), interval)
}

/// `text` with what a terminal would act on made visible: C0 controls but line feed
/// and tab, DEL, C1 controls (ECMA-48's escape sequences start with one of these) and
/// the bidirectional controls (Unicode TR9, "Trojan Source"), each as `\u{..}`.
pub(crate) fn visible(text: &str) -> std::borrow::Cow<'_, str> {
    let acts = |c: char| c != '\n' && c != '\t' && terminal_acts(c);
    if !text.chars().any(acts) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match acts(c) {
            true => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            false => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Whether a terminal would act on `c` rather than show it: a C0 or C1 control or DEL,
/// or a bidirectional control. Line feed and tab are controls too.
pub(crate) fn terminal_acts(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` as one line that a terminal shows rather than obeys: [`visible`], with every
/// line break shown ([`breaks_shown`]). For an error or a progress line, which is one
/// line whatever a file name or a peer put in it.
pub(crate) fn one_line(text: &str) -> String {
    visible(&breaks_shown(text)).into_owned()
}

/// Whether `c` ends a line in some format codecbench writes: line feed and carriage
/// return everywhere, vertical tab and form feed for a terminal, NEL for C#, and the
/// line and paragraph separators for JavaScript and C#.
pub(crate) fn breaks_line(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{b}' | '\u{c}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// `text` with each line break ([`breaks_line`]) shown: `\n` and `\r`, the others as
/// `\u{..}`. Nothing else changes.
pub(crate) fn breaks_shown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if breaks_line(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_examples() {
        assert_eq!(thousands(298_727), "298,727");
    }

    #[test]
    fn count_examples() {
        assert_eq!(count(1u64, "cell"), "1 cell");
        assert_eq!(count(66u64, "cell"), "66 cells");
    }

    #[test]
    fn list_examples() {
        let items = ["zstd 1", "br 1", "gzip 6"].map(String::from);
        assert_eq!(list(&items), "zstd 1, br 1 and gzip 6");
        assert_eq!(list(&items[..1]), "zstd 1");
    }

    #[test]
    fn what_a_terminal_would_act_on_is_shown_not_sent() {
        assert_eq!(visible("small"), "small");
        assert_eq!(visible("a\tb\nc"), "a\tb\nc");
        assert_eq!(
            visible("\u{1b}]0;owned\u{7}\u{1b}[2J"),
            "\\u{1b}]0;owned\\u{7}\\u{1b}[2J"
        );
        assert_eq!(visible("\u{9b}31m"), "\\u{9b}31m");
        assert_eq!(visible("abc\u{202e}fdp.exe"), "abc\\u{202e}fdp.exe");
        assert_eq!(visible("\r"), "\\u{d}");
    }

    #[test]
    fn one_line_shows_every_kind_of_line_break() {
        assert_eq!(
            one_line("a\nb\rc\u{b}d\u{c}e\u{85}f\u{2028}g\u{2029}h"),
            "a\\nb\\rc\\u{b}d\\u{c}e\\u{85}f\\u{2028}g\\u{2029}h"
        );
        assert_eq!(breaks_shown("a\r\nb"), "a\\r\\nb");
        assert!(!one_line("x\u{2028}require('y')").chars().any(breaks_line));
    }

    #[test]
    fn parse_bytes_examples() {
        assert_eq!(parse_bytes("64MiB"), Some(64 << 20));
    }

    #[test]
    fn times_read_in_the_unit_that_fits() {
        assert_eq!(duration_text(850e-9), "850 ns");
        assert_eq!(duration_text(12.34e-6), "12.3 µs");
        assert_eq!(duration_text(0.116), "116 ms");
        assert_eq!(duration_text(2.5), "2.50 s");
        assert_eq!(ms(0.00123), "1.23 ms");
    }

    #[test]
    fn durations_read_as_a_person_writes_them() {
        assert_eq!(clock_text(Duration::from_millis(42_900)), "42s");
        assert_eq!(clock_text(Duration::from_secs(185)), "3m05s");
        assert_eq!(clock_text(Duration::from_secs(3720)), "1h02m");
    }

    #[test]
    fn speeds_keep_three_significant_digits() {
        assert_eq!(significant(1991.513, 3), "1992");
        assert_eq!(significant(597.454, 3), "597");
        assert_eq!(significant(98.76, 3), "98.8");
        assert_eq!(significant(1.106, 3), "1.11");
        assert_eq!(significant(0.01234, 3), "0.0123");
        assert_eq!(significant(0.0, 3), "0");
        assert_eq!(significant(0.099999, 3), "0.100");
        assert_eq!(significant(9.9996, 4), "10.00");
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(298_727), "298,727");
        assert_eq!(thousands(3_018_756), "3,018,756");
    }

    #[test]
    fn counts_agree_with_their_noun() {
        assert_eq!(counted(2, "size drift", "size drifts"), "2 size drifts");
        assert_eq!(count(1u64, "cell"), "1 cell");
    }

    #[test]
    fn a_change_in_time_reads_the_same_way_up_everywhere() {
        assert_eq!(
            time_change(1.3, Some((1.26, 1.341))),
            "30.0% slower [+26.0%, +34.1%]"
        );
        assert_eq!(
            time_change(0.88, Some((0.91, 0.85))),
            "12.0% faster [-15.0%, -9.0%]"
        );
        assert_eq!(time_change(1.0, None), "no change");
        assert_eq!(
            time_change(0.9999, Some((0.996, 1.004))),
            "no change [-0.4%, +0.4%]"
        );
        // A band of ±0.262 in log units around a 30% slowdown is not ±26%: its ends
        // are +0.0% and +68.9%, not added to the centre.
        let (ratio, interval) = log_band(1.3f64.ln(), Some(0.262));
        assert_eq!(time_change(ratio, interval), "30.0% slower [+0.0%, +68.9%]");
    }
}
