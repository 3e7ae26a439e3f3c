//! A connection whose writes may not stall for long: a client that stops
//! reading (its window full) is cut off instead of holding a connection,
//! a task and a buffered reply for ever.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// `io`, with every write failing (`TimedOut`) once no byte could be
/// written for `limit`.
pub struct WriteTimeout<T> {
    io: T,
    limit: Duration,
    stall: Option<Pin<Box<Sleep>>>,
}

impl<T> WriteTimeout<T> {
    /// Wraps `io`.
    pub fn new(io: T, limit: Duration) -> WriteTimeout<T> {
        WriteTimeout {
            io,
            limit,
            stall: None,
        }
    }

    /// Called when the inner write is not ready: pending until the stall
    /// has lasted `limit`, then an error.
    fn stalled<R>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<R>> {
        let limit = self.limit;
        let sleep = self
            .stall
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match sleep.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client read nothing for too long",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn settle<R>(
        &mut self,
        cx: &mut Context<'_>,
        poll: Poll<io::Result<R>>,
    ) -> Poll<io::Result<R>> {
        match poll {
            Poll::Ready(result) => {
                self.stall = None;
                Poll::Ready(result)
            }
            Poll::Pending => self.stalled(cx),
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for WriteTimeout<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for WriteTimeout<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_write(cx, buf);
        this.settle(cx, poll)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        this.settle(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_flush(cx);
        this.settle(cx, poll)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_shutdown(cx);
        this.settle(cx, poll)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test]
    async fn a_reader_that_stops_is_cut_off_and_one_that_reads_is_not() {
        let (near, _far) = tokio::io::duplex(16);
        let mut io = WriteTimeout::new(near, Duration::from_millis(50));
        let e = io.write_all(&[7; 64]).await.unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);

        let (near, mut far) = tokio::io::duplex(16);
        let mut io = WriteTimeout::new(near, Duration::from_millis(50));
        let reader = tokio::spawn(async move {
            let mut got = Vec::new();
            let mut buf = [0; 8];
            while got.len() < 64 {
                tokio::time::sleep(Duration::from_millis(10)).await;
                let n = far.read(&mut buf).await.unwrap();
                got.extend_from_slice(&buf[..n]);
            }
            got
        });
        io.write_all(&[7; 64]).await.unwrap();
        assert_eq!(reader.await.unwrap(), vec![7; 64]);
    }
}
