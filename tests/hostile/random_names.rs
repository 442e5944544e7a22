//! Names nobody chose, through every `recommend --emit` output and each server's own
//! parser: 40 names drawn from every line break, each format's comment, string and
//! substitution syntax, controls and any character, each the payload name of a saved
//! run. All 40 outputs of a server go to its parser at once (a server block, a virtual
//! host or a site each, or a block of JavaScript), against the same 40 with plain
//! names: nginx -t, Apache's directives as httpd parses them, `caddy adapt`'s JSON,
//! `node --check`; line for line for all six.

use super::emitted::{emitted_from, plain_run, renamed, save};
use super::parsers::Outputs;

/// What the names are made of: the pieces the property test of the emitters draws.
fn pieces() -> Vec<String> {
    let list = include_str!("../fixtures/hostile-name-pieces.json");
    serde_json::from_str(list).expect("a JSON list of strings")
}

/// How many names.
const NAMES: usize = 40;

/// A fixed sequence of numbers (xorshift64*), so that every run draws the same names.
struct Draws(u64);

impl Draws {
    fn next(&mut self, below: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % below
    }

    /// A name of up to 12 of `pieces`, one in four any character at all.
    fn name(&mut self, pieces: &[String]) -> String {
        let mut name = String::new();
        for _ in 0..1 + self.next(12) {
            match self.next(4) {
                0 => name.extend(char::from_u32(self.next(0x11_0000) as u32)),
                _ => name.push_str(&pieces[self.next(pieces.len())]),
            }
        }
        name + ".json"
    }
}

#[test]
fn forty_names_drawn_at_random_change_no_directive_of_any_output() {
    let dir = tempfile::tempdir().unwrap();
    let (plain_run, plain) = plain_run(dir.path());
    let plain_outputs = emitted_from(&plain_run);
    let (mut draws, pieces) = (Draws(0x9e37_79b9_7f4a_7c15), pieces());
    let mut all = Outputs::default();
    for index in 0..NAMES {
        let name = draws.name(&pieces);
        let run = save(
            dir.path(),
            &format!("run-{index}.json"),
            &renamed(&plain, "plain.json", &name),
        );
        all.add(&emitted_from(&run), &plain_outputs, &name);
    }
    all.parsed_alike();
}
