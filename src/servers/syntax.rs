//! How each format `recommend --emit` writes carries text from outside: a payload's name
//! reaches a configuration only inside a line comment, and there it stays text.
//!
//! A line comment ends at a line break, and the formats disagree on which characters
//! break a line: nginx, Apache and Rust end one at a line feed only, Caddy at a carriage
//! return too, JavaScript also at U+2028 and U+2029 (ECMA-262 §12.3), C# at NEL as well
//! (ECMA-334 §6.3.2). Each is shown as an escape in every format, with the characters a
//! format reads inside a comment: Apache joins a line ending in `\` to the next,
//! comments included, and Caddy substitutes `{$VAR}` before it strips comments.
//! Quotes are shown too, so that a comment pasted into a string does not close it. A
//! name too long for one line (nginx refuses a comment over 4 KB) is written as its
//! place in the run, where it is kept whole.

use crate::format::{breaks_line, breaks_shown, terminal_acts, thousands};

/// The most bytes a name takes in a comment, escaped; longer, it is written as its place
/// in the run. A headline names a body at most three times, so its line stays far under
/// the 4 KB nginx takes.
const MOST_NAME_BYTES: usize = 240;

/// A format codecbench writes configuration or code in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Syntax {
    /// nginx.conf.
    Nginx,
    /// httpd.conf.
    Apache,
    /// A Caddyfile.
    Caddyfile,
    /// JavaScript (Node.js).
    JavaScript,
    /// Rust.
    Rust,
    /// C#.
    CSharp,
}

impl Syntax {
    /// What starts a line comment: `#` or `//`.
    pub(crate) fn lead(self) -> &'static str {
        match self {
            Syntax::Nginx | Syntax::Apache | Syntax::Caddyfile => "#",
            Syntax::JavaScript | Syntax::Rust | Syntax::CSharp => "//",
        }
    }

    /// Whether the format reads `c` inside a comment, or a string would: shown escaped.
    fn special(self, c: char) -> bool {
        match c {
            '\\' | '"' | '\'' | '`' => true,
            '$' | '{' | '}' => self == Syntax::Caddyfile,
            _ => false,
        }
    }

    /// `name` as text inside one of this format's line comments: every line break, the
    /// controls a terminal acts on and the characters the format reads there shown as
    /// `\n` or `\u{..}`. A name whose escaped form is over [`MOST_NAME_BYTES`] is written
    /// as its 1-based `place` among the run's payloads.
    pub(crate) fn name(self, name: &str, place: Option<usize>) -> String {
        let mut out = String::with_capacity(name.len());
        for c in name.chars() {
            match c {
                c if breaks_line(c) => out.push_str(&breaks_shown(c.encode_utf8(&mut [0; 4]))),
                c if terminal_acts(c) || self.special(c) => {
                    out.push_str(&format!("\\u{{{:x}}}", u32::from(c)))
                }
                c => out.push(c),
            }
        }
        if out.len() <= MOST_NAME_BYTES {
            return out;
        }
        let length = thousands(name.chars().count() as u64);
        match place {
            Some(index) => format!(
                "payload {} of the run (its {length}-character name is in the run)",
                index + 1
            ),
            None => format!("a body whose {length}-character name is in the run"),
        }
    }

    /// `text` as comment lines: the lead before each of its lines. The text is ours, but
    /// a line break of another kind that reached it is shown, so no line of it escapes
    /// the comment whatever it quotes.
    pub(crate) fn comment(self, text: &str) -> String {
        let lead = self.lead();
        text.split('\n')
            .map(|line| format!("{lead} {}\n", breaks_shown(line)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_break_and_what_each_format_reads_is_shown() {
        let name = "a\nb\rc\u{85}d\u{2028}e\u{2029}f\u{b}\u{c}g";
        for syntax in [Syntax::Nginx, Syntax::JavaScript, Syntax::CSharp] {
            assert_eq!(
                syntax.name(name, None),
                "a\\nb\\rc\\u{85}d\\u{2028}e\\u{2029}f\\u{b}\\u{c}g"
            );
        }
        assert_eq!(Syntax::Apache.name("x\\", None), "x\\u{5c}");
        assert_eq!(
            Syntax::Caddyfile.name("{$HOME}", None),
            "\\u{7b}\\u{24}HOME\\u{7d}"
        );
        assert_eq!(Syntax::Nginx.name("{$HOME}", None), "{$HOME}");
        assert_eq!(
            Syntax::Rust.name("a\"b'c`", None),
            "a\\u{22}b\\u{27}c\\u{60}"
        );
        assert_eq!(Syntax::Rust.name("\u{202e}x", None), "\\u{202e}x");
        assert_eq!(Syntax::Nginx.name("données.json", None), "données.json");
    }

    #[test]
    fn a_name_too_long_for_a_line_is_written_as_its_place() {
        let long = "x".repeat(5000);
        assert_eq!(
            Syntax::Nginx.name(&long, Some(2)),
            "payload 3 of the run (its 5,000-character name is in the run)"
        );
        assert_eq!(Syntax::Nginx.name(&"x".repeat(240), None).len(), 240);
        // Escapes count: 121 line feeds are 242 bytes written, and so do letters of
        // more than one byte.
        let long = |name: &str| Syntax::Nginx.name(name, None).starts_with("a body");
        assert!(long(&"\n".repeat(121)));
        assert!(long(&"名".repeat(81)));
        assert!(!long(&"名".repeat(80)));
    }

    #[test]
    fn comment_lines_keep_to_their_line() {
        assert_eq!(
            Syntax::JavaScript.comment("one\ntwo\u{2028}three"),
            "// one\n// two\\u{2028}three\n"
        );
    }
}
