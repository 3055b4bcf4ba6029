//! The page, embedded in the binary (no CDN, no build step, works offline).

const INDEX: &str = include_str!("../../assets/explorer/index.html");
const APP: &str = include_str!("../../assets/explorer/app.js");
const STYLE: &str = include_str!("../../assets/explorer/style.css");
const ICON: &str = include_str!("../../assets/explorer/icon.svg");

/// The asset at `path` with its MIME type, if there is one.
pub(super) fn get(path: &str) -> Option<(&'static [u8], &'static str)> {
    let (body, mime) = match path {
        "/" | "/index.html" => (INDEX, "text/html; charset=utf-8"),
        "/app.js" => (APP, "text/javascript; charset=utf-8"),
        "/style.css" => (STYLE, "text/css; charset=utf-8"),
        "/favicon.ico" | "/icon.svg" => (ICON, "image/svg+xml"),
        _ => return None,
    };
    Some((body.as_bytes(), mime))
}
