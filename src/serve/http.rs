//! A strict HTTP/1.1 request reader and response writer over [`std::net`],
//! with hard limits, then routing and query strings. Every handler returns a
//! `Result` that becomes a JSON body; a bad request is a 400 with
//! `{"error": "..."}`, an unknown path a 404, a damaged table a 500.
//!
//! Why not an HTTP crate: the API is `GET` only, so a request is a request
//! line and headers, never a body. tiny_http 0.12 (used before) parsed
//! requests on its own threads and allocated an announced body in full
//! (`Content-Length: 99999999999` aborted the process, `18446744073709551615`
//! panicked a thread, ten connections announcing a body and sending none
//! stalled every worker), with no hook to refuse a request before that. Here a
//! connection is read by the worker that answers it, and:
//! - the request head (request line and headers) is at most [`MAX_HEAD`]
//!   bytes and [`MAX_HEADERS`] headers, and must arrive within [`HEAD_TIME`]
//!   (one deadline for the whole head, not per read), else 431 or 408;
//! - a request that announces a body (`Content-Length` above 0, or any
//!   `Transfer-Encoding`) is refused with 413 before any of it is read;
//! - the `Host` header must name this machine by `localhost` or an IP literal,
//!   with the server's port (else 421): a web page that rebinds its own domain
//!   name to 127.0.0.1 sends its domain name as `Host` (DNS rebinding);
//! - each connection carries one request (`Connection: close`), so an idle
//!   connection never holds a worker.

use super::api::{ApiError, Params, State};
use super::assets;
use std::io::{Read, Write};
use std::net::{IpAddr, TcpStream};
use std::time::{Duration, Instant};

/// Longest request head (request line and headers) in bytes.
pub(crate) const MAX_HEAD: usize = 32 * 1024;
/// Most header lines in a request.
pub(crate) const MAX_HEADERS: usize = 64;
/// Time a client has to send the whole request head.
pub(crate) const HEAD_TIME: Duration = Duration::from_secs(5);
/// Time a client has to take the answer.
const WRITE_TIME: Duration = Duration::from_secs(10);
/// After answering, how long unread input is drained before closing (closing
/// with unread input resets the connection, and the client may lose the answer).
const LINGER: Duration = Duration::from_millis(200);
/// Most bytes drained after answering.
const LINGER_BYTES: usize = 64 * 1024;

/// A request refused before routing: status and message.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Refusal {
    pub(super) status: u16,
    pub(super) message: String,
}

fn refuse(status: u16, message: impl Into<String>) -> Refusal {
    Refusal {
        status,
        message: message.into(),
    }
}

/// A parsed request head.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Head {
    pub(super) method: String,
    pub(super) target: String,
    pub(super) host: Option<String>,
}

/// Reads the request head from `stream` (up to the blank line), within
/// [`HEAD_TIME`] and [`MAX_HEAD`]. `Ok(None)`: the client closed first.
fn read_head(stream: &mut TcpStream) -> Result<Option<Vec<u8>>, Refusal> {
    let deadline = Instant::now() + HEAD_TIME;
    let mut buf: Vec<u8> = Vec::with_capacity(2048);
    let mut chunk = [0u8; 4096];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(too_slow());
        }
        // A zero timeout means "none" to the socket: `left` is never zero here.
        stream
            .set_read_timeout(Some(left))
            .map_err(|e| refuse(400, format!("socket: {e}")))?;
        let n = match stream.read(&mut chunk) {
            Ok(0) => return Ok(None),
            Ok(n) => n,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return Err(too_slow())
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return Ok(None),
        };
        let from = buf.len().saturating_sub(3);
        buf.extend_from_slice(&chunk[..n]);
        if let Some(end) = find_blank_line(&buf[from..]) {
            buf.truncate(from + end);
            return Ok(Some(buf));
        }
        if buf.len() > MAX_HEAD {
            return Err(refuse(
                431,
                format!("the request head is longer than {MAX_HEAD} bytes"),
            ));
        }
    }
}

fn too_slow() -> Refusal {
    refuse(
        408,
        format!(
            "the request head did not arrive within {} s",
            HEAD_TIME.as_secs()
        ),
    )
}

/// End of the head (index after `\r\n\r\n`) in `buf`, if it is there.
fn find_blank_line(buf: &[u8]) -> Option<usize> {
    buf.windows(4).position(|w| w == b"\r\n\r\n").map(|i| i + 4)
}

/// Parses a request head (request line, headers, the blank line) strictly.
pub(super) fn parse_head(raw: &[u8]) -> Result<Head, Refusal> {
    if raw.len() > MAX_HEAD {
        return Err(refuse(
            431,
            format!("the request head is longer than {MAX_HEAD} bytes"),
        ));
    }
    let text =
        std::str::from_utf8(raw).map_err(|_| refuse(400, "the request head is not UTF-8"))?;
    let text = text
        .strip_suffix("\r\n\r\n")
        .ok_or_else(|| refuse(400, "the request head does not end with an empty line"))?;
    let mut lines = text.split("\r\n");
    let line = lines.next().unwrap_or_default();
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(refuse(400, "malformed request line"));
    };
    if method.is_empty() || !method.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(refuse(400, "malformed request method"));
    }
    if !target.starts_with('/') || target.bytes().any(|b| b.is_ascii_control()) {
        return Err(refuse(
            400,
            "the request target must be a path starting with /",
        ));
    }
    if version != "HTTP/1.1" && version != "HTTP/1.0" {
        return Err(refuse(505, "only HTTP/1.1 and HTTP/1.0 are served"));
    }
    let mut host = None;
    for (k, line) in lines.enumerate() {
        if k >= MAX_HEADERS {
            return Err(refuse(431, format!("more than {MAX_HEADERS} header lines")));
        }
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| refuse(400, "malformed header line"))?;
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
        {
            return Err(refuse(400, "malformed header name"));
        }
        let value = value.trim_matches(|c| c == ' ' || c == '\t');
        if name.eq_ignore_ascii_case("host") {
            if host.replace(value.to_string()).is_some() {
                return Err(refuse(400, "Host header given twice"));
            }
        } else if name.eq_ignore_ascii_case("content-length") {
            // Any length other than 0 (or not a number) announces a body.
            if value.is_empty() || !value.bytes().all(|b| b == b'0') {
                return Err(refuse(
                    413,
                    "request bodies are not accepted (the API is GET only)",
                ));
            }
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            return Err(refuse(
                413,
                "request bodies are not accepted (the API is GET only)",
            ));
        }
    }
    Ok(Head {
        method: method.to_string(),
        target: target.to_string(),
        host,
    })
}

/// Whether a `Host` header value names this server: `localhost` or an IP
/// literal (a page cannot get a browser to send either for its own origin),
/// with `port` (omitted only for port 80).
pub(super) fn host_allowed(host: &str, port: u16) -> bool {
    let (name, port_text) = if let Some(rest) = host.strip_prefix('[') {
        let Some((inside, after)) = rest.split_once(']') else {
            return false;
        };
        let port_text = match after {
            "" => None,
            p => match p.strip_prefix(':') {
                Some(p) => Some(p),
                None => return false,
            },
        };
        if inside.parse::<std::net::Ipv6Addr>().is_err() {
            return false;
        }
        (inside, port_text)
    } else {
        match host.rsplit_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (host, None),
        }
    };
    let port_ok = match port_text {
        None => port == 80,
        Some(p) => p.parse::<u16>().is_ok_and(|p| p == port),
    };
    let name_ok = name.eq_ignore_ascii_case("localhost") || name.parse::<IpAddr>().is_ok();
    port_ok && name_ok
}

/// A parsed request waiting for a worker, with where its answer goes.
pub(super) struct Job {
    head: Head,
    reply: std::sync::mpsc::SyncSender<Answer>,
}

/// Answers one job (on a worker thread).
pub(super) fn work(state: &State, job: Job, port: u16) {
    let a = answer(state, &job.head, port);
    let _ = job.reply.send(a);
}

/// Reads one request from `stream` (on the connection's own thread, so a slow
/// client holds no worker), has a worker answer it through `jobs`, writes the
/// answer and closes the connection.
pub(super) fn serve_connection(mut stream: TcpStream, jobs: &std::sync::mpsc::SyncSender<Job>) {
    let _ = stream.set_nodelay(true);
    let _ = stream.set_write_timeout(Some(WRITE_TIME));
    let (answer, head_only) = match read_head(&mut stream) {
        Ok(None) => return,
        Err(r) => (json_error(r.status, &r.message), false),
        Ok(Some(raw)) => match parse_head(&raw) {
            Err(r) => (json_error(r.status, &r.message), false),
            Ok(head) => {
                let head_only = head.method == "HEAD";
                let (reply, answer) = std::sync::mpsc::sync_channel(1);
                let got = jobs
                    .send(Job { head, reply })
                    .ok()
                    .and_then(|()| answer.recv().ok());
                match got {
                    Some(a) => (a, head_only),
                    None => (json_error(503, "the explorer is stopping"), false),
                }
            }
        },
    };
    let _ = stream.write_all(&answer.to_bytes(head_only));
    let _ = stream.flush();
    linger(stream);
}

/// Closes after draining what the client still sends, for at most [`LINGER`].
fn linger(mut stream: TcpStream) {
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let end = Instant::now() + LINGER;
    let mut chunk = [0u8; 4096];
    let mut drained = 0;
    while drained < LINGER_BYTES {
        let left = end.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            break;
        }
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => drained += n,
        }
    }
}

/// The answer to a parsed request.
fn answer(state: &State, head: &Head, port: u16) -> Answer {
    match &head.host {
        None => return json_error(400, "a Host header is required"),
        Some(h) if !host_allowed(h, port) => {
            return json_error(
                421,
                &format!(
                    "Host {} is not this server: use http://127.0.0.1:{port}/ or http://localhost:{port}/",
                    crate::error::quote(h)
                ),
            )
        }
        Some(_) => {}
    }
    if head.method != "GET" && head.method != "HEAD" {
        return json_error(405, "only GET is served");
    }
    let (path, query) = head
        .target
        .split_once('?')
        .unwrap_or((head.target.as_str(), ""));
    if let Some((body, mime)) = assets::get(path) {
        return Answer {
            status: 200,
            mime,
            body: body.to_vec(),
        };
    }
    match parse_query(query) {
        Err(e) => json_error(400, &e),
        Ok(params) => match route(state, path, &params) {
            Ok(body) => Answer {
                status: 200,
                mime: "application/json",
                body: body.into_bytes(),
            },
            Err(e) => json_error(e.status(), &e.message()),
        },
    }
}

fn route(state: &State, path: &str, params: &Params) -> Result<String, ApiError> {
    match path {
        "/api/presets" => state.presets(),
        "/api/board" => state.board(params),
        "/api/position" => state.position(params),
        "/api/stats" => state.stats(params),
        _ => Err(ApiError::NotFound(format!("no such page: {path}"))),
    }
}

/// A response: status, content type, body.
pub(super) struct Answer {
    status: u16,
    mime: &'static str,
    body: Vec<u8>,
}

impl Answer {
    /// The bytes on the wire, in one buffer (one write: no wait on Nagle's
    /// algorithm between head and body). `head_only` for a `HEAD` request.
    fn to_bytes(&self, head_only: bool) -> Vec<u8> {
        let mut out = format!(
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n",
            self.status,
            reason(self.status),
            self.mime,
            self.body.len()
        )
        .into_bytes();
        if !head_only {
            out.extend_from_slice(&self.body);
        }
        out
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        413 => "Content Too Large",
        421 => "Misdirected Request",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Error",
    }
}

fn json_error(status: u16, message: &str) -> Answer {
    Answer {
        status,
        mime: "application/json",
        body: serde_json::json!({ "error": message })
            .to_string()
            .into_bytes(),
    }
}

/// Tells a connection the server is busy (every worker and the queue full).
pub(super) fn busy(mut stream: TcpStream) {
    let _ = stream.set_write_timeout(Some(Duration::from_millis(100)));
    let _ = stream.write_all(&json_error(503, "the explorer is busy; try again").to_bytes(false));
}

/// Splits `a=1&b=x%20y` into decoded pairs (`+` is a space, as in HTML forms).
pub(super) fn parse_query(query: &str) -> Result<Params, String> {
    let mut params = Params::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let key = decode(k)?;
        let value = decode(v)?;
        if params.insert(key.clone(), value).is_some() {
            return Err(format!(
                "parameter {} given twice",
                crate::error::quote(&key)
            ));
        }
    }
    Ok(params)
}

/// Percent-decoding of one query component.
fn decode(s: &str) -> Result<String, String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| format!("bad percent escape in {}", crate::error::quote(s)))?;
                out.push(hex);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out)
        .map_err(|_| format!("{} is not UTF-8 once decoded", crate::error::quote(s)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_strings_decode() {
        let p = parse_query("rules=kaooa&position=..P%2F..+a&moves=t0%20i1").unwrap();
        assert_eq!(p["rules"], "kaooa");
        assert_eq!(p["position"], "..P/.. a");
        assert_eq!(p["moves"], "t0 i1");
        assert!(parse_query("a=%zz").is_err());
        assert!(parse_query("a=%4").is_err());
        assert!(parse_query("a=1&a=2").is_err());
        assert!(parse_query("a=%FF").is_err());
    }

    fn status(raw: &str) -> u16 {
        match parse_head(raw.as_bytes()) {
            Ok(_) => 200,
            Err(r) => r.status,
        }
    }

    #[test]
    fn request_heads_are_parsed_strictly() {
        let h = parse_head(
            b"GET /api/presets?x=1 HTTP/1.1\r\nHost: localhost:80\r\nAccept: */*\r\n\r\n",
        )
        .unwrap();
        assert_eq!(h.method, "GET");
        assert_eq!(h.target, "/api/presets?x=1");
        assert_eq!(h.host.as_deref(), Some("localhost:80"));
        assert_eq!(status("GET / HTTP/1.1\r\nContent-Length: 0\r\n\r\n"), 200);
        for cl in [
            "1",
            "99999999999",
            "18446744073709551615",
            "99999999999999999999999",
            "-1",
            "x",
            "",
        ] {
            assert_eq!(
                status(&format!("GET / HTTP/1.1\r\nContent-Length: {cl}\r\n\r\n")),
                413,
                "{cl}"
            );
        }
        assert_eq!(
            status("GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"),
            413
        );
        assert_eq!(status("GET / HTTP/2\r\n\r\n"), 505);
        assert_eq!(status("GET  / HTTP/1.1\r\n\r\n"), 400);
        assert_eq!(status("GET http://x/ HTTP/1.1\r\n\r\n"), 400);
        assert_eq!(status("GET / HTTP/1.1\r\nno colon\r\n\r\n"), 400);
        assert_eq!(status("GET / HTTP/1.1\r\n folded: x\r\n\r\n"), 400);
        assert_eq!(status("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"), 400);
        let many: String = (0..=MAX_HEADERS).map(|i| format!("X-{i}: y\r\n")).collect();
        assert_eq!(status(&format!("GET / HTTP/1.1\r\n{many}\r\n")), 431);
    }

    #[test]
    fn only_this_machine_by_ip_or_localhost_is_a_host() {
        for ok in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST:8080",
            "[::1]:8080",
            "192.168.1.5:8080",
        ] {
            assert!(host_allowed(ok, 8080), "{ok}");
        }
        for bad in [
            "evil.example:8080",
            "127.0.0.1.nip.io:8080",
            "localhost",
            "127.0.0.1:8081",
            "127.0.0.1:",
            "[::1]",
            "[::1]8080",
            "[evil]:8080",
            "",
        ] {
            assert!(!host_allowed(bad, 8080), "{bad}");
        }
        assert!(host_allowed("localhost", 80));
    }
}
