//! One HTTP/1.1 request written by hand on a fresh TCP connection, and its answer as bytes:
//! for what a ready-made client would not send (any header, any body) or would hide (every
//! header, the body exactly as sent).

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::Server;

/// An answer: status, headers (lower-case names, in order), body bytes as sent (chunked
/// bodies are not decoded).
#[derive(Debug)]
pub struct Answer {
    /// The status code.
    pub status: u16,
    /// The headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body's bytes.
    pub body: Vec<u8>,
}

impl Answer {
    /// The first header of that (lower-case) name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as text (invalid UTF-8 replaced).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Sends `head` (the request line and any header lines, CRLF between them, no CRLF at the
/// end) with `Host`, `Content-Length` and `Connection: close` added, then `body`; reads the
/// whole answer.
pub async fn raw(server: &Server, head: &str, body: &[u8]) -> Answer {
    let addr = server.url.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut request = format!(
        "{head}\r\nHost: {addr}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    request.extend_from_slice(body);
    stream.write_all(&request).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let split = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a head");
    let head = String::from_utf8_lossy(&answer[..split]).into_owned();
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Answer {
        status,
        headers,
        body: answer[split + 4..].to_vec(),
    }
}
