//! A `Utf8JsonWriter` over a `StreamPipeWriter`, by byte offsets into the body: where
//! `Grow` opens segments, and which segments each flush writes.

use std::ops::Range;

use super::calls::writer_calls;

/// The serializer hands its output on once more than this many bytes are pending:
/// `(int)(4 * 4096 * 0.9f)` for a `PipeWriter`, `(int)(16384 * 0.9f)` for a `Stream`.
pub(crate) const FLUSH_THRESHOLD: usize = 14_745;

/// `StreamPipeWriter`'s `_minimumBufferSize`: `PipeOptions.Default.MinimumSegmentSize`.
pub(crate) const MINIMUM_SEGMENT: usize = 4_096;

/// `Utf8JsonWriter.DefaultGrowthSize`: what `Grow` asks the pipe for at least.
const DEFAULT_GROWTH: usize = 4_096;

/// `Utf8JsonWriter.InitialGrowthSize`: what the first call after a flush asks for.
const INITIAL_GROWTH: usize = 256;

/// The writes the serializer's output reaches the response stream in: for each flush,
/// the `StreamPipeWriter` segments it writes, in order.
pub(crate) fn flushed_segments(json: &[u8]) -> Vec<Vec<Range<usize>>> {
    let mut pipe = PipeModel::default();
    let mut start = 0;
    for call in writer_calls(json) {
        pipe.write(call.end - start, call.max_required);
        start = call.end;
        if call.flush_check && pipe.unflushed() > FLUSH_THRESHOLD {
            pipe.flush();
        }
    }
    pipe.flush();
    pipe.flushes
}

/// The writer's and the pipe's state.
#[derive(Default)]
struct PipeModel {
    /// The room the writer was last handed (`_memory.Length`); 0 after a flush.
    memory: usize,
    /// The writer's `BytesPending`.
    pending: usize,
    /// The body offset the pipe has been advanced to.
    committed: usize,
    /// Where the last flush ended.
    flushed: usize,
    /// The tail segment: its start and capacity.
    tail: Option<(usize, usize)>,
    /// The segments closed since the last flush.
    closed: Vec<Range<usize>>,
    flushes: Vec<Vec<Range<usize>>>,
}

impl PipeModel {
    fn write(&mut self, length: usize, max_required: usize) {
        if self.memory - self.pending < max_required {
            if self.memory == 0 {
                self.get_memory(INITIAL_GROWTH.max(max_required));
            } else {
                self.advance();
                self.get_memory(DEFAULT_GROWTH.max(max_required));
            }
        }
        self.pending += length;
    }

    /// What `ShouldFlush` compares: `UnflushedBytes + BytesPending`.
    fn unflushed(&self) -> usize {
        self.committed + self.pending - self.flushed
    }

    fn advance(&mut self) {
        self.committed += self.pending;
        self.pending = 0;
    }

    /// `StreamPipeWriter.GetMemory(hint)`: the tail's room, or a new segment of
    /// `max(4096, hint)` rented from the array pool (a power of two).
    fn get_memory(&mut self, hint: usize) {
        let (start, capacity) = match self.tail {
            Some((start, capacity)) if start + capacity - self.committed >= hint => {
                (start, capacity)
            }
            _ => {
                self.close_tail();
                let wanted = MINIMUM_SEGMENT.max(hint);
                let capacity = wanted.checked_next_power_of_two().unwrap_or(wanted);
                (self.committed, capacity)
            }
        };
        self.tail = Some((start, capacity));
        self.memory = start + capacity - self.committed;
    }

    fn close_tail(&mut self) {
        if let Some((start, _)) = self.tail.take() {
            if self.committed > start {
                self.closed.push(start..self.committed);
            }
        }
    }

    /// `writer.Flush()` then `pipeWriter.FlushAsync()`: nothing when nothing is buffered.
    fn flush(&mut self) {
        self.advance();
        self.memory = 0;
        self.close_tail();
        if self.committed > self.flushed {
            self.flushes.push(std::mem::take(&mut self.closed));
        }
        self.flushed = self.committed;
    }
}
