//! Fuzz target `serve`: the explorer's request targets (paths and query
//! strings) sent to an in-process server on 127.0.0.1 serving kaooa's tables.
//! Seeds are the committed targets of `tests/data/fuzz/serve/` (`SET` stands
//! for the served table set's name). Mutated targets are made valid request
//! lines (bytes a request line cannot carry are percent-encoded, `%` is kept
//! raw), so what is fuzzed is the server's own parsing: every answer is a
//! complete response, never a 5xx, and an API answer is JSON, with an `error`
//! string when the status is 4xx. Searches are kept short: a target asking
//! for more than 50 ms of search is not sent.

use super::{case, corpus_lines, iters, kaooa_tables, Mutator};
use crate::serve::run_in_background;
use huntsolve::serve::{Config, Explorer};
use serde_json::Value as Json;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

const DICT: &[&str] = &[
    "?",
    "&",
    "=",
    "%",
    "%2",
    "%zz",
    "%00",
    "%FF",
    "%C3%A9",
    "%C3",
    "+",
    "rules",
    "position",
    "moves",
    "tables",
    "time",
    "start",
    "kaooa",
    "kaooa-6",
    "bagh-chal",
    "brandubh",
    "tablut-linnaeus",
    "board%3Dpentagram10",
    "board%3D%2Fetc%2Fpasswd",
    "%2C",
    "0.01",
    "1e999",
    "-0",
    "NaN",
    "inf",
    "/api/position",
    "/api/board",
    "/api/stats",
    "/api/presets",
    "/api/",
    "/../",
    "00",
    "05",
    "00-05",
    "h",
    "p",
];

/// `bytes` with every byte a request-target cannot hold (outside visible
/// ASCII, or not allowed in a URI) percent-encoded; `%` itself left as it is.
fn escape(bytes: &[u8]) -> String {
    let mut out = String::new();
    for &b in bytes {
        if (0x21..0x7f).contains(&b) && !b"\"#<>\\^`{|}".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `target` as a valid request-target: [`escape`]d, starting with `/`.
fn encode_target(target: &[u8]) -> String {
    let out = escape(target);
    if out.starts_with('/') {
        out
    } else {
        format!("/{out}")
    }
}

/// The decoded value of query parameter `key`, as the server would read it
/// (for the harness's bound on search time only; `None` if absent or not decodable).
fn param(target: &str, key: &str) -> Option<String> {
    let query = target.split_once('?')?.1;
    for pair in query.split('&') {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        if k == key {
            let v = v.replace('+', " ");
            let mut out = Vec::new();
            let b = v.as_bytes();
            let mut i = 0;
            while i < b.len() {
                if b[i] == b'%' {
                    let h = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
                    out.push(u8::from_str_radix(h, 16).ok()?);
                    i += 3;
                } else {
                    out.push(b[i]);
                    i += 1;
                }
            }
            return String::from_utf8(out).ok();
        }
    }
    None
}

/// One GET; `Err` when the connection ends without a complete response.
fn get(addr: SocketAddr, target: &str) -> Result<(u16, String, String), String> {
    let mut s = TcpStream::connect(addr).map_err(|e| format!("connect: {e}"))?;
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(
        s,
        "GET {target} HTTP/1.1\r\nHost: localhost:{}\r\nConnection: close\r\n\r\n",
        addr.port()
    )
    .map_err(|e| format!("write: {e}"))?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).map_err(|e| format!("read: {e}"))?;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| format!("no complete head in {} bytes: {text:?}", raw.len()))?;
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("no status in {head:?}"))?;
    Ok((status, head.to_string(), body.to_string()))
}

fn one(addr: SocketAddr, target: &str) -> u16 {
    let (status, head, body) = get(addr, target).unwrap_or_else(|e| panic!("{target}: {e}"));
    assert!(status < 500, "{target}: status {status}: {body}");
    assert!(
        status == 200 || (400..500).contains(&status),
        "{target}: status {status}"
    );
    let path = target.split('?').next().unwrap();
    if path.starts_with("/api/") {
        assert!(
            head.to_ascii_lowercase()
                .contains("content-type: application/json"),
            "{target}: {head}"
        );
        let v: Json = serde_json::from_str(&body)
            .unwrap_or_else(|e| panic!("{target}: status {status}, not JSON ({e}): {body}"));
        if status >= 400 {
            assert!(v["error"].is_string(), "{target}: {body}");
        }
    }
    status
}

#[test]
fn fuzz_http_query_strings() {
    let cfg = Config {
        tables: vec![kaooa_tables().clone()],
        port: 0,
        workers: 2,
        search_time: Duration::from_millis(30),
        ..Config::default()
    };
    let ex = Explorer::bind(&cfg).unwrap();
    let set = ex.table_sets()[0].0.clone();
    let srv = run_in_background(ex);
    let seeds: Vec<String> = corpus_lines("serve")
        .iter()
        .map(|l| l.replace("SET", &set))
        .collect();
    for (k, t) in seeds.iter().enumerate() {
        let (status, _, body) = get(srv.addr, t).unwrap();
        assert!(status == 200 || status == 400, "seed {t}: {status} {body}");
        case("serve-seed", k as u64, t.as_bytes(), || one(srv.addr, t));
    }
    let others: Vec<Vec<u8>> = seeds.iter().map(|s| s.as_bytes().to_vec()).collect();
    let mut m = Mutator::new("serve", DICT);
    let (mut sent, mut answered) = (0, 0);
    let mut i = 0u64;
    while sent < iters(600) {
        i += 1;
        let seed = m.pick(&seeds).clone();
        let target = if m.below(5) == 0 {
            encode_target(&m.mutate(seed.as_bytes(), &others))
        } else {
            // the path kept, the query mutated
            let (path, query) = seed.split_once('?').unwrap_or((&seed, ""));
            let q = m.mutate(query.as_bytes(), &others);
            format!("{path}?{}", escape(&q))
        };
        if let Some(t) = param(&target, "time") {
            if t.trim().parse::<f64>().is_ok_and(|s| s > 0.05) {
                continue;
            }
        }
        sent += 1;
        if case("serve", i, target.as_bytes(), || one(srv.addr, &target)) == 200 {
            answered += 1;
        }
    }
    eprintln!("serve: {sent} mutated requests, {answered} answered 200, the rest 4xx");
}
