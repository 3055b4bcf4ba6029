//! Request plumbing: routing, query strings, responses. Every handler returns a
//! `Result` that becomes a JSON body; a bad request is a 400 with
//! `{"error": "..."}`, an unknown path a 404, a damaged table a 500.

use super::api::{ApiError, Params, State};
use super::assets;
use tiny_http::{Header, Method, Request, Response};

/// Answers one request (errors writing the answer mean the client left).
pub(super) fn handle(state: &State, rq: Request) {
    let url = rq.url().to_string();
    let (path, query) = match url.split_once('?') {
        Some((p, q)) => (p.to_string(), q.to_string()),
        None => (url.clone(), String::new()),
    };
    let response = if *rq.method() != Method::Get && *rq.method() != Method::Head {
        json_error(405, "only GET is served")
    } else if let Some((body, mime)) = assets::get(&path) {
        bytes(200, body.to_vec(), mime)
    } else {
        match parse_query(&query) {
            Err(e) => json_error(400, &e),
            Ok(params) => match route(state, &path, &params) {
                Ok(body) => bytes(200, body.into_bytes(), "application/json"),
                Err(e) => json_error(e.status(), &e.message()),
            },
        }
    };
    let _ = rq.respond(response);
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

fn header(name: &str, value: &str) -> Header {
    // Both are ASCII constants of this file, so the header is always valid.
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("ASCII header")
}

fn bytes(status: u16, body: Vec<u8>, mime: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    // The body is in memory, so always send its length: tiny_http would switch large
    // bodies (a stats report with many diagrams) to chunked encoding otherwise.
    Response::from_data(body)
        .with_chunked_threshold(usize::MAX)
        .with_status_code(status)
        .with_header(header("Content-Type", mime))
        .with_header(header("Cache-Control", "no-store"))
}

fn json_error(status: u16, message: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    let body = serde_json::json!({ "error": message }).to_string();
    bytes(status, body.into_bytes(), "application/json")
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
}
