//! nginx's `send_timeout` for `serve`: a response whose client reads nothing for a
//! while is dropped with its connection, so clients that never read cannot hold
//! connections and memory.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A stream whose writes fail once one has waited `limit` for the client to read: the
/// timer starts when a write cannot go on and restarts when it does, as nginx's
/// `send_timeout` times the gap between two successive writes.
pub(crate) struct SendTimeout<S> {
    inner: S,
    limit: Duration,
    waiting: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<S> SendTimeout<S> {
    /// `inner`, whose writes may wait `limit` for the client.
    pub(crate) fn new(inner: S, limit: Duration) -> Self {
        SendTimeout {
            inner,
            limit,
            waiting: None,
        }
    }

    /// `progress` as it stands, or an error once the client has read nothing for the
    /// limit.
    fn timed<T>(
        &mut self,
        cx: &mut Context<'_>,
        progress: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if progress.is_ready() {
            self.waiting = None;
            return progress;
        }
        let limit = self.limit;
        let waiting = self
            .waiting
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match waiting.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client read nothing for --send-timeout",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for SendTimeout<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for SendTimeout<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let progress = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.timed(cx, progress)
    }

    // Vectored, as the stream is: hyper then writes a body from where it lies, where
    // without it hyper copies the whole body into its buffer for each response.
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let progress = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.timed(cx, progress)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let progress = Pin::new(&mut self.inner).poll_flush(cx);
        self.timed(cx, progress)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
