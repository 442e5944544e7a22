//! The `Utf8JsonWriter` calls that write a body: what each asks room for, and after
//! which the serializer checks whether to flush.

use std::collections::HashSet;
use std::ops::Range;

use super::tokens::{Token, Tokens};

/// One call the serializer makes on its `Utf8JsonWriter`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WriterCall {
    /// Where its bytes end in the body; each call starts where the one before ended.
    pub(crate) end: usize,
    /// The room it checks for before writing (`maxRequired`).
    pub(crate) max_required: usize,
    /// Whether the serializer checks whether to flush right after it.
    pub(crate) flush_check: bool,
}

/// `MaximumFormatInt64Length` + 1 list separator.
const INT64_MAX_REQUIRED: usize = 21;

/// `MaximumFormatDoubleLength` + 1 list separator.
const DOUBLE_MAX_REQUIRED: usize = 129;

/// What only the whole body tells: read in a first pass.
struct Shape<'a> {
    /// Per array, in the order they open: whether an element is an object or an array,
    /// so that the serializer checks after each element (no fast path).
    checked_arrays: Vec<bool>,
    /// Property names under which some number has a fraction: their numbers are doubles.
    doubles: HashSet<&'a [u8]>,
}

/// An open level, while the shape is read.
struct Level {
    object: bool,
    /// The array's place in `checked_arrays`, for an array.
    ordinal: usize,
}

impl<'a> Shape<'a> {
    fn of(json: &'a [u8]) -> Self {
        let mut shape = Shape {
            checked_arrays: Vec::new(),
            doubles: HashSet::new(),
        };
        let mut levels: Vec<Level> = Vec::new();
        let mut keys = Keys::default();
        for (token, _) in Tokens::new(json) {
            if let Some(level) = levels.last() {
                if !level.object && matches!(token, Token::Open { .. }) {
                    shape.checked_arrays[level.ordinal] = true;
                }
            }
            match &token {
                Token::Open { object } => {
                    let ordinal = shape.checked_arrays.len();
                    if !object {
                        shape.checked_arrays.push(false);
                    }
                    levels.push(Level {
                        object: *object,
                        ordinal,
                    });
                }
                Token::Close => {
                    levels.pop();
                }
                Token::Number { fractional: true } => {
                    if let Some(key) = keys.of_value() {
                        shape.doubles.insert(&json[key]);
                    }
                }
                _ => {}
            }
            keys.after(&token);
        }
        shape
    }
}

/// The property name each value is typed by: its own, or its array's.
#[derive(Default)]
struct Keys {
    /// Per open level: the name of the property holding it.
    held_by: Vec<Option<Range<usize>>>,
    /// The name read last, while its value is awaited.
    pending: Option<Range<usize>>,
}

impl Keys {
    /// The name the value read now is typed by.
    fn of_value(&self) -> Option<Range<usize>> {
        self.pending
            .clone()
            .or_else(|| self.held_by.last().cloned().flatten())
    }

    fn after(&mut self, token: &Token) {
        match token {
            Token::Name { content } => {
                self.pending = Some(content.clone());
                return;
            }
            Token::Open { object } => {
                let key = if *object { None } else { self.of_value() };
                self.held_by.push(key);
            }
            Token::Close => {
                self.held_by.pop();
            }
            _ => {}
        }
        self.pending = None;
    }
}

/// The calls that write `json`, one by one.
pub(crate) fn writer_calls(json: &[u8]) -> impl Iterator<Item = WriterCall> + '_ {
    Calls::new(json)
}

/// Makes the calls from the tokens and the body's shape.
struct Calls<'a> {
    json: &'a [u8],
    shape: Shape<'a>,
    tokens: Tokens<'a>,
    keys: Keys,
    /// Per open level: whether each element or property is checked after it.
    checked: Vec<bool>,
    arrays_opened: usize,
    /// Where the last call ended.
    end: usize,
    /// A property name not yet written: it joins a null that follows it.
    name: Option<WriterCall>,
    /// A call made, to hand out after the name before it.
    queued: Option<WriterCall>,
}

impl<'a> Calls<'a> {
    fn new(json: &'a [u8]) -> Self {
        Calls {
            json,
            shape: Shape::of(json),
            tokens: Tokens::new(json),
            keys: Keys::default(),
            checked: Vec::new(),
            arrays_opened: 0,
            end: 0,
            name: None,
            queued: None,
        }
    }

    /// The call for `token`, ending at `end`; a name waits for its value.
    fn call(&mut self, token: &Token, end: usize) -> Option<WriterCall> {
        let start = self.end;
        let (max_required, value_done) = match token {
            Token::Open { object } => {
                let checked = *object || self.next_array_checked();
                self.checked.push(checked);
                (2, false)
            }
            Token::Close => {
                self.checked.pop();
                (1, true)
            }
            Token::Name { content } => {
                // `WritePropertyNameSection`: the section `"name":` + 1.
                let section = end - (content.start - 1);
                let name = WriterCall {
                    end,
                    max_required: (section + 1).max(end - start),
                    flush_check: false,
                };
                self.name = Some(name);
                self.end = end;
                return None;
            }
            Token::Text { content } => (utf16_units(&self.json[content.clone()]) * 3 + 3, true),
            Token::Number { fractional } => {
                let key = self.keys.of_value();
                let shared = key.is_some_and(|k| self.shape.doubles.contains(&self.json[k]));
                let max = if *fractional || shared {
                    DOUBLE_MAX_REQUIRED
                } else {
                    INT64_MAX_REQUIRED
                };
                (max, true)
            }
            Token::Literal { length, .. } => (length + 1, true),
            Token::Rest => (0, false),
        };
        // A value is checked where its level says: after the pop above, a closing token
        // asks the level around it.
        let checked = value_done && self.checked.last().copied().unwrap_or(false);
        self.end = end;
        Some(WriterCall {
            end,
            max_required: max_required.max(end - start),
            flush_check: checked,
        })
    }

    /// Whether the array opening now is checked element by element.
    fn next_array_checked(&mut self) -> bool {
        let checked = self.shape.checked_arrays.get(self.arrays_opened).copied();
        self.arrays_opened += 1;
        checked.unwrap_or(false)
    }
}

impl Iterator for Calls<'_> {
    type Item = WriterCall;

    fn next(&mut self) -> Option<WriterCall> {
        if let Some(call) = self.queued.take() {
            return Some(call);
        }
        loop {
            let Some((token, end)) = self.tokens.next() else {
                // A name with nothing after it is still written.
                return self.name.take();
            };
            let name = self.name.take();
            let call = self.call(&token, end);
            self.keys.after(&token);
            match (name, call) {
                (None, None) => continue,
                (Some(name), None) => return Some(name),
                (None, Some(call)) => return Some(call),
                (Some(name), Some(call)) if matches!(token, Token::Literal { null: true, .. }) => {
                    // `WriteNullSection`: the name's section and null in one call, + 1.
                    let null = call.end - name.end;
                    return Some(WriterCall {
                        max_required: name.max_required + null,
                        ..call
                    });
                }
                (Some(name), Some(call)) => {
                    self.queued = Some(call);
                    return Some(name);
                }
            }
        }
    }
}

/// The UTF-16 code units of a string's bytes, as .NET holds it (bytes that are not
/// UTF-8 count one each).
fn utf16_units(bytes: &[u8]) -> usize {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.chars().map(char::len_utf16).sum(),
        Err(_) => bytes.len(),
    }
}
