//! System.Text.Json as it serializes a body into ASP.NET Core's response `PipeWriter`:
//! which calls its `Utf8JsonWriter` makes, how much room each asks for, where the
//! serializer checks whether to flush, and so which writes reach the stream.
//!
//! The rules, read from merged code (`docs/servers.md` cites each with its commit):
//!
//! - Each writer call first asks for its worst case (`maxRequired`): a start token 2
//!   bytes, an end token 1, a property name section (`"name":`) its length + 1, a
//!   string `3 × UTF-16 length + 3`, an `Int64` 21, a `double` 129, `true`/`false`/`null`
//!   their length + 1, a null property (`WriteNullSection`) name + 5.
//! - When the room left is smaller, `Grow` advances the pipe by what is pending and
//!   asks it for `max(4096, maxRequired)` (the first call after a flush asks for
//!   `max(256, maxRequired)`).
//! - `StreamPipeWriter` opens a new segment whenever its tail has less room than asked:
//!   `GetSegmentSize` = `max(4096, sizeHint)`, rented from the shared array pool (a
//!   power of two). Segments never double; that was dotnet/runtime#66930, not merged.
//! - The serializer checks after each property and after each element of an array of
//!   objects or arrays; an array of strings, numbers or literals takes the fast path and
//!   is checked once, after it ends. It flushes once pending and unflushed bytes pass
//!   14,745, and once at the end. A flush writes each segment with its own `WriteAsync`,
//!   then flushes the stream.
//!
//! What the JSON cannot say is assumed: a string is a .NET `string` (not a `Guid` or a
//! `DateTime`), a number is a `double` when any number under the same property name
//! has a fraction or an exponent and an `Int64` otherwise, a null property is a
//! reference type's. White space before a token counts as part of it. Bytes that are not
//! JSON, and nesting deeper than the writer's 1,000 levels, are written as one call.
//!
//! The body is read twice, so that memory stays small whatever its size: once for what
//! only its end tells (whether an array holds objects, which property names carry
//! fractions), then again to make the calls one by one into the pipe model.

mod calls;
mod pipe;
mod tokens;

pub(crate) use pipe::flushed_segments;

#[cfg(test)]
use calls::{writer_calls, WriterCall};
#[cfg(test)]
use pipe::MINIMUM_SEGMENT;

#[cfg(test)]
mod tests;
