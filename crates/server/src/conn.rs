//! The socket under hyper. hyper refuses a request it cannot read (a head
//! over [`HEAD_MAX`], a request line that is not HTTP) with a bare status
//! and no body; this wrapper writes the contract's JSON and the security
//! headers in its place, and names a request line over [`LINE_MAX`] as a
//! 414. It also lets a route shrink the socket's send buffer (an event
//! stream), so that a client that reads nothing holds little of the
//! kernel's memory.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};

use axum::http::StatusCode;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::error::ApiError;
use crate::routes::SECURITY_HEADERS;

/// The longest request head (request line and headers) read; a longer one
/// is refused with 431 `head_too_large`.
pub const HEAD_MAX: usize = 16 * 1024;
/// The longest request line (method, path and query); a longer one is
/// refused with 414 `uri_too_long`.
pub const LINE_MAX: usize = 8 * 1024;

/// What a route may ask of the connection it came on.
#[derive(Debug, Default)]
pub struct Control {
    send_buffer: AtomicUsize,
}

impl Control {
    /// Asks for the socket's send buffer to be `bytes` (the kernel may
    /// round it) before the reply is written.
    pub fn shrink_send_buffer(&self, bytes: usize) {
        self.send_buffer.store(bytes, Ordering::Relaxed);
    }
}

/// A socket whose send buffer can be set.
pub trait Socket: AsyncRead + AsyncWrite + Unpin {
    /// Sets the send buffer; a socket that cannot does nothing.
    fn set_send_buffer(&self, bytes: usize);
}

impl Socket for tokio::net::TcpStream {
    fn set_send_buffer(&self, bytes: usize) {
        let _ = socket2::SockRef::from(self).set_send_buffer_size(bytes);
    }
}

/// How far the first line of the request being read has come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Line {
    /// This many bytes read and no line end yet.
    Open(usize),
    /// The line ended after this many bytes.
    Ended(usize),
}

impl Line {
    fn len(self) -> usize {
        match self {
            Line::Open(n) | Line::Ended(n) => n,
        }
    }
}

/// `io`, with hyper's own refusals answered as the contract says.
pub struct Conn<T> {
    io: T,
    control: Arc<Control>,
    /// The first line of the request being read.
    line: Line,
    /// Our refusal, still to be written (the rest of it).
    refusal: Option<Vec<u8>>,
}

impl<T: Socket> Conn<T> {
    /// Wraps `io`; routes reach `control` through the request's
    /// extensions.
    pub fn new(io: T, control: Arc<Control>) -> Conn<T> {
        Conn {
            io,
            control,
            line: Line::Open(0),
            refusal: None,
        }
    }

    fn tune(&self) {
        let bytes = self.control.send_buffer.swap(0, Ordering::Relaxed);
        if bytes > 0 {
            self.io.set_send_buffer(bytes);
        }
    }

    /// Writes what is left of our refusal; ready once it is all written.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some(out) = self.refusal.as_mut() {
            if out.is_empty() {
                break;
            }
            match Pin::new(&mut self.io).poll_write(cx, out) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => {
                    out.drain(..n);
                }
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        Poll::Ready(Ok(()))
    }

    /// Looks at bytes hyper writes: a response head starts a new request's
    /// line count, and one of hyper's bare refusals is replaced by ours.
    /// Returns whether `head` was taken (and is not to be written).
    fn intercept(&mut self, head: &[u8]) -> bool {
        if !head.starts_with(b"HTTP/1.") {
            return false;
        }
        let line = self.line;
        self.line = Line::Open(0);
        let Some(status) = bare_refusal(head) else {
            return false;
        };
        self.refusal = Some(refusal(status, line.len()));
        true
    }
}

/// The status of one of hyper's own refusals (a 4xx head with no body and
/// none of the headers every reply of the router carries).
fn bare_refusal(head: &[u8]) -> Option<u16> {
    let end = head.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = head.get(..end)?;
    let status = match head.get(9..12)? {
        b"400" => 400,
        b"414" => 414,
        b"431" => 431,
        _ => return None,
    };
    let ours = head.split(|&b| b == b'\n').any(|l| {
        l.to_ascii_lowercase()
            .starts_with(b"content-security-policy:")
    });
    (!ours).then_some(status)
}

/// The contract's refusal for hyper's `status`, given the length of the
/// request line read.
fn refusal(status: u16, line: usize) -> Vec<u8> {
    let error = match status {
        414 | 431 if line > LINE_MAX => ApiError::new(
            StatusCode::URI_TOO_LONG,
            "uri_too_long",
            format!("a request line (method, path and query) may hold at most {LINE_MAX} bytes"),
        ),
        414 | 431 => ApiError::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "head_too_large",
            format!("a request head (request line and headers) may hold at most {HEAD_MAX} bytes"),
        ),
        _ => ApiError::bad_request("the request is not HTTP/1.1 that the server can read"),
    };
    reply(error.status, "application/json", &error.body())
}

/// A whole reply that closes the connection, with the security headers,
/// written outside hyper.
pub(crate) fn reply(status: StatusCode, content_type: &str, body: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\n\
         connection: close\r\ncache-control: no-store\r\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or(""),
        body.len()
    );
    for (name, value) in SECURITY_HEADERS {
        out.push_str(name);
        out.push_str(": ");
        out.push_str(value);
        out.push_str("\r\n");
    }
    out.push_str("\r\n");
    let mut out = out.into_bytes();
    out.extend_from_slice(body);
    out
}

impl<T: Socket> AsyncRead for Conn<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let poll = Pin::new(&mut this.io).poll_read(cx, buf);
        if let (Poll::Ready(Ok(())), Line::Open(n)) = (&poll, this.line) {
            let read = buf.filled().get(before..).unwrap_or_default();
            this.line = match read.iter().position(|&b| b == b'\n') {
                Some(at) => Line::Ended(n + at),
                None => Line::Open(n + read.len()),
            };
        }
        poll
    }
}

impl<T: Socket> AsyncWrite for Conn<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.refusal.is_some() {
            // After a refusal hyper closes the connection: what it still
            // writes of its own is dropped.
            return this.drain(cx).map_ok(|()| buf.len());
        }
        this.tune();
        if this.intercept(buf) {
            return this.drain(cx).map_ok(|()| buf.len());
        }
        Pin::new(&mut this.io).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let all = || bufs.iter().map(|b| b.len()).sum::<usize>();
        if this.refusal.is_some() {
            return this.drain(cx).map_ok(|()| all());
        }
        this.tune();
        if let Some(first) = bufs.iter().find(|b| !b.is_empty())
            && this.intercept(first)
        {
            return this.drain(cx).map_ok(|()| all());
        }
        Pin::new(&mut this.io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match this.drain(cx) {
            Poll::Ready(Ok(())) => Pin::new(&mut this.io).poll_flush(cx),
            other => other,
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match this.drain(cx) {
            Poll::Ready(Ok(())) => Pin::new(&mut this.io).poll_shutdown(cx),
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};

    impl Socket for DuplexStream {
        fn set_send_buffer(&self, _: usize) {}
    }

    async fn through(read: &[u8], hyper_writes: &[u8]) -> String {
        let (near, mut far) = tokio::io::duplex(1 << 16);
        let mut conn = Conn::new(near, Arc::default());
        far.write_all(read).await.unwrap();
        let mut buf = vec![0; read.len()];
        conn.read_exact(&mut buf).await.unwrap();
        conn.write_all(hyper_writes).await.unwrap();
        conn.shutdown().await.unwrap();
        drop(conn);
        let mut out = String::new();
        far.read_to_string(&mut out).await.unwrap();
        out
    }

    const BARE_431: &[u8] =
        b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: x\r\n\r\n";

    #[tokio::test]
    async fn hypers_bare_refusals_become_the_contracts_json() {
        let long_header = format!("GET / HTTP/1.1\r\nx: {}", "a".repeat(20_000));
        let out = through(long_header.as_bytes(), BARE_431).await;
        assert!(out.starts_with("HTTP/1.1 431 "), "{out}");
        assert!(
            out.contains("content-security-policy: default-src 'none'"),
            "{out}"
        );
        assert!(out.ends_with(r#"{"error":{"code":"head_too_large","message":"a request head (request line and headers) may hold at most 16384 bytes"}}"#), "{out}");

        let long_line = format!("GET /{} HTTP/1.1\r\n", "a".repeat(20_000));
        let out = through(long_line.as_bytes(), BARE_431).await;
        assert!(out.starts_with("HTTP/1.1 414 "), "{out}");
        assert!(out.contains(r#""code":"uri_too_long""#), "{out}");

        let bare_400 = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n";
        let out = through(b"\x01\x02 nonsense\r\n\r\n", bare_400).await;
        assert!(out.starts_with("HTTP/1.1 400 "), "{out}");
        assert!(out.contains(r#""code":"bad_request""#), "{out}");
    }

    #[tokio::test]
    async fn the_routers_own_replies_pass_untouched() {
        let ours = b"HTTP/1.1 400 Bad Request\r\ncontent-security-policy: x\r\ncontent-length: 2\r\n\r\n{}";
        let out = through(b"GET / HTTP/1.1\r\n\r\n", ours).await;
        assert_eq!(out.as_bytes(), ours);
        let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok";
        assert_eq!(through(b"GET / HTTP/1.1\r\n\r\n", ok).await.as_bytes(), ok);
    }
}
