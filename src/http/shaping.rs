//! Sockets that count the bytes they read, and a token bucket that shapes what the
//! server writes to a given link speed.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

/// A TCP stream that counts the bytes it reads.
pub(crate) struct Counting {
    pub(crate) stream: TcpStream,
    pub(crate) read: Arc<AtomicU64>,
}

impl AsyncRead for Counting {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let poll = Pin::new(&mut self.stream).poll_read(cx, buf);
        let read = (buf.filled().len() - before) as u64;
        self.read.fetch_add(read, Ordering::Relaxed);
        poll
    }
}

impl AsyncWrite for Counting {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// A server-side TCP stream whose writes pass a token bucket: `rate` bytes per second,
/// at most `burst` bytes at once, so loopback behaves like a link of that speed.
pub(super) struct Throttled {
    pub(super) stream: TcpStream,
    pub(super) rate: f64,
    pub(super) burst: f64,
    pub(super) tokens: f64,
    // tokio's clock, so that tests can pause and advance it.
    pub(super) last: tokio::time::Instant,
    pub(super) sleep: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl Throttled {
    pub(super) fn new(stream: TcpStream, mbit: f64) -> Self {
        let rate = mbit * 1e6 / 8.0;
        // 16 KiB, or a millisecond's worth on links faster than 128 Mbit/s.
        let burst = (rate / 1000.0).max(16.0 * 1024.0);
        Throttled {
            stream,
            rate,
            burst,
            tokens: burst,
            last: tokio::time::Instant::now(),
            sleep: None,
        }
    }

    pub(super) fn refill(&mut self) {
        let now = tokio::time::Instant::now();
        let earned = now.duration_since(self.last).as_secs_f64() * self.rate;
        // Keep up to 2 ms of surplus past the burst: the timer wakes up to a millisecond
        // late, and dropping what was earned meanwhile would slow the link below its rate.
        self.tokens = (self.tokens + earned).min(self.burst + self.rate * 0.002);
        self.last = now;
    }
}

impl AsyncRead for Throttled {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Throttled {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        // Write in chunks of up to a burst, each once it has been earned in full: writing
        // whatever trickle has accrued would mean thousands of tiny writes a second.
        let wanted = (buf.len() as f64).min(self.burst).max(1.0);
        loop {
            self.refill();
            if self.tokens >= wanted {
                let allowed = buf.len().min(self.tokens as usize);
                let written =
                    std::task::ready!(Pin::new(&mut self.stream).poll_write(cx, &buf[..allowed]))?;
                self.tokens -= written as f64;
                return Poll::Ready(Ok(written));
            }
            let wait = Duration::from_secs_f64((wanted - self.tokens) / self.rate);
            let sleep = self
                .sleep
                .get_or_insert_with(|| Box::pin(tokio::time::sleep(wait)));
            std::task::ready!(sleep.as_mut().poll(cx));
            self.sleep = None;
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}
