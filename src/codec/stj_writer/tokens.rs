//! The tokens of a JSON body, each with the offset its bytes end at (white space and
//! commas before a token belong to it). Memory stays at one bit per open level.

use std::ops::Range;

/// `JsonWriterOptions.MaxDepth`'s default: the writer refuses to nest deeper.
pub(super) const MAX_DEPTH: usize = 1_000;

/// One token, as the writer would write it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Token {
    /// `{` or `[`.
    Open { object: bool },
    /// `}` or `]`.
    Close,
    /// A property name and its colon; `content` is the name between the quotes.
    Name { content: Range<usize> },
    /// A string value; `content` is what is between the quotes.
    Text { content: Range<usize> },
    /// A number; whether it has a fraction or an exponent.
    Number { fractional: bool },
    /// `true`, `false` or `null`, and its length.
    Literal { null: bool, length: usize },
    /// The rest of a body that is not JSON, or nests too deep.
    Rest,
}

/// White space, or the comma between values.
fn is_separator(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | b',')
}

/// Reads `json` token by token.
pub(super) struct Tokens<'a> {
    json: &'a [u8],
    at: usize,
    /// Whether each open level is an object.
    objects: Vec<bool>,
    /// Whether a property name was read and its value not yet.
    after_name: bool,
}

impl<'a> Tokens<'a> {
    pub(super) fn new(json: &'a [u8]) -> Self {
        Tokens {
            json,
            at: 0,
            objects: Vec::new(),
            after_name: false,
        }
    }

    /// Moves past a string from its opening quote; returns the range of its content.
    fn skip_string(&mut self) -> Range<usize> {
        let start = self.at + 1;
        let mut i = start;
        while i < self.json.len() {
            match self.json[i] {
                b'\\' => i += 2,
                b'"' => break,
                _ => i += 1,
            }
        }
        let end = i.min(self.json.len());
        self.at = (end + 1).min(self.json.len());
        start..end
    }

    fn skip_while(&mut self, keep: impl Fn(u8) -> bool) {
        while self.json.get(self.at).is_some_and(|&b| keep(b)) {
            self.at += 1;
        }
    }

    fn read(&mut self, byte: u8) -> Token {
        let in_object = self.objects.last() == Some(&true);
        match byte {
            b'{' | b'[' if self.objects.len() < MAX_DEPTH => {
                self.at += 1;
                self.objects.push(byte == b'{');
                Token::Open {
                    object: byte == b'{',
                }
            }
            b'}' | b']' if !self.objects.is_empty() => {
                self.at += 1;
                self.objects.pop();
                Token::Close
            }
            b'"' if in_object && !self.after_name => {
                let content = self.skip_string();
                self.skip_while(|b| b != b':');
                self.at = (self.at + 1).min(self.json.len());
                Token::Name { content }
            }
            b'"' => Token::Text {
                content: self.skip_string(),
            },
            b'-' | b'0'..=b'9' => {
                let start = self.at;
                self.skip_while(|b| matches!(b, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'));
                let fractional = self.json[start..self.at]
                    .iter()
                    .any(|b| matches!(b, b'.' | b'e' | b'E'));
                Token::Number { fractional }
            }
            b't' | b'f' | b'n' => {
                let start = self.at;
                self.skip_while(|b| b.is_ascii_alphabetic());
                Token::Literal {
                    null: &self.json[start..self.at] == b"null",
                    length: self.at - start,
                }
            }
            _ => {
                self.at = self.json.len();
                Token::Rest
            }
        }
    }
}

impl Iterator for Tokens<'_> {
    type Item = (Token, usize);

    fn next(&mut self) -> Option<Self::Item> {
        self.skip_while(is_separator);
        let &byte = self.json.get(self.at)?;
        let token = self.read(byte);
        self.after_name = matches!(token, Token::Name { .. });
        // Separators after the last token go with it.
        if self.json[self.at..].iter().all(|&b| is_separator(b)) {
            self.at = self.json.len();
        }
        Some((token, self.at))
    }
}
