//! `huntsolve serve`: the JSON API on an ephemeral port, in process. Table
//! answers equal `huntsolve query --json` and the query library; positions the
//! tables miss are searched and say so; bad requests get a 400 with an error;
//! the page and its assets are served from the binary.

use crate::common::run;
use huntsolve::game::{Game, Notation};
use huntsolve::serve::{Config, Explorer, StopHandle};
use huntsolve::table::{query_tables, TableOracle};
use huntsolve::Rng;
use serde_json::Value as Json;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

/// `tables/kaooa` (complete) and `tables/kaooa-6` (without tier h0p0c1),
/// solved once for the whole test binary.
fn tables() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = std::env::temp_dir().join(format!("huntsolve-serve-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        for rules in ["kaooa", "kaooa-6"] {
            let out = d.join(rules);
            let (code, _, err) = run(&["solve", rules, "--out", out.to_str().unwrap()]);
            assert_eq!(code, 0, "{err}");
        }
        std::fs::remove_file(d.join("kaooa-6").join("h0p0c1.hst")).unwrap();
        d
    })
}

/// A server running on its own thread, stopped (and its result checked) when dropped.
pub(super) struct Running {
    pub(super) addr: SocketAddr,
    stop: StopHandle,
    thread: Option<std::thread::JoinHandle<huntsolve::Result<()>>>,
}

/// Runs `ex` on a thread of its own.
pub(super) fn run_in_background(ex: Explorer) -> Running {
    let addr = ex.addr();
    assert!(addr.ip().is_loopback());
    let stop = ex.stop_handle();
    Running {
        addr,
        stop,
        thread: Some(std::thread::spawn(move || ex.run())),
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop.stop();
        if let Some(t) = self.thread.take() {
            t.join().unwrap().unwrap();
        }
    }
}

fn start(dirs: Vec<PathBuf>) -> Running {
    start_with(dirs, 4)
}

fn start_with(dirs: Vec<PathBuf>, workers: usize) -> Running {
    let cfg = Config {
        tables: dirs,
        port: 0,
        workers,
        search_time: Duration::from_millis(300),
        ..Config::default()
    };
    run_in_background(Explorer::bind(&cfg).unwrap())
}

/// A plain HTTP/1.1 request; (status, headers, body).
fn request(addr: SocketAddr, method: &str, target: &str) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(
        s,
        "{method} {target} HTTP/1.1\r\nHost: localhost:{}\r\nConnection: close\r\n\r\n",
        addr.port()
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8(raw).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, head.to_string(), body.to_string())
}

fn get_json(addr: SocketAddr, target: &str) -> (u16, Json) {
    let (status, head, body) = request(addr, "GET", target);
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: application/json"),
        "{head}"
    );
    (
        status,
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}")),
    )
}

/// Percent-encodes a query value.
fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Non-terminal kaooa positions from seeded random playouts.
fn sample_positions(rules: &str, n: usize, seed: u64) -> Vec<String> {
    let g = huntsolve::hunt::from_spec(rules).unwrap();
    let mut rng = Rng::new(seed);
    let mut moves = Vec::new();
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = g.start();
        for _ in 0..rng.below(30) {
            g.legal_moves(&pos, &mut moves);
            if moves.is_empty() {
                break;
            }
            pos = g.play(&pos, moves[rng.below(moves.len())]);
        }
        if g.outcome(&pos).is_none() {
            out.push(g.format_position(&pos));
        }
    }
    out
}

fn strip(v: &Json, keys: &[&str]) -> Vec<Json> {
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let mut o = serde_json::Map::new();
            for k in keys {
                o.insert(k.to_string(), m[*k].clone());
            }
            Json::Object(o)
        })
        .collect()
}

/// The oracle of the library's PV walk (`huntsolve::answer::exact_pv`), the
/// slow way: each step plays the first (best) move of
/// [`huntsolve::table::query_with`], stopping at a terminal position, an
/// unknown value or after `max_plies` plies (draws go on for ever).
fn pv_by_queries<G: Notation>(
    game: &G,
    pos: &G::Pos,
    exact: &dyn Fn(&G::Pos) -> huntsolve::Result<huntsolve::table::Exact>,
    max_plies: usize,
) -> huntsolve::Result<Vec<String>> {
    let mut line = Vec::new();
    let mut p = pos.clone();
    let mut moves = Vec::new();
    while line.len() < max_plies {
        let q = huntsolve::table::query_with(game, &p, exact)?;
        let Some(best) = q.best else { break };
        // query_with formats moves; find the move itself to play it.
        game.legal_moves(&p, &mut moves);
        let Some(&m) = moves.iter().find(|&&m| game.format_move(&p, m) == best) else {
            break;
        };
        line.push(best);
        p = game.play(&p, m);
    }
    Ok(line)
}

#[test]
fn table_answers_equal_query_json_and_the_query_library() {
    let dir = tables().join("kaooa");
    let srv = start(vec![tables().clone()]);
    let game = huntsolve::hunt::from_spec("kaooa").unwrap();
    let oracle = TableOracle::new(&game, &dir).unwrap();
    let positions = sample_positions("kaooa", 40, 5);
    for (i, text) in positions.iter().enumerate() {
        let (status, a) = get_json(
            srv.addr,
            &format!("/api/position?rules=kaooa&position={}", enc(text)),
        );
        assert_eq!(status, 200, "{a}");
        assert_eq!(a["source"], "table");
        assert_eq!(a["exact"], true);
        assert_eq!(a["tables"], "kaooa");
        let pos = game.parse_position(text).unwrap();
        let q = query_tables(&oracle, &pos).unwrap();
        assert_eq!(a["position"], q.position);
        assert_eq!(
            a["value"],
            q.value.map_or(Json::Null, |v| Json::from(v.name()))
        );
        assert_eq!(a["distance"], json_u32(q.distance));
        assert_eq!(a["best"], q.best.clone().map_or(Json::Null, Json::from));
        let moves = a["moves"].as_array().unwrap();
        assert_eq!(moves.len(), q.moves.len());
        for (m, e) in moves.iter().zip(&q.moves) {
            assert_eq!(m["move"], e.mv.as_str());
            assert_eq!(
                m["value"],
                e.value.map_or(Json::Null, |v| Json::from(v.name()))
            );
            assert_eq!(m["distance"], json_u32(e.distance));
            assert_eq!(m["source"], "table");
            // The resulting position is the move played.
            let mv = game.parse_move(&pos, &e.mv).unwrap();
            assert_eq!(m["position"], game.format_position(&game.play(&pos, mv)));
        }
        // The principal variation equals the library's exact_pv, and both
        // equal the walk by queries.
        let exact = |p: &<huntsolve::hunt::HuntGame as Game>::Pos| oracle.try_probe(p);
        let plies = match (q.value, q.distance) {
            (Some(huntsolve::Value::Draw), _) | (_, None) => 12,
            (_, Some(d)) => d as usize,
        };
        let pv = huntsolve::answer::exact_pv(&game, &pos, &exact, plies).unwrap();
        assert_eq!(a["pv"], serde_json::json!(pv), "{text}");
        assert_eq!(pv_by_queries(&game, &pos, &exact, plies).unwrap(), pv);
        // A few against the command line itself.
        if i < 4 {
            let (code, out, err) = run(&[
                "query",
                "kaooa",
                text,
                "--tables",
                dir.to_str().unwrap(),
                "--json",
            ]);
            assert_eq!(code, 0, "{err}");
            let cli: Json = serde_json::from_str(out.trim()).unwrap();
            for k in ["position", "value", "distance", "best", "score", "pv"] {
                assert_eq!(a[k], cli[k], "{k} of {text}");
            }
            let keys = ["move", "value", "distance", "score"];
            assert_eq!(strip(&a, &keys), strip(&cli, &keys));
        }
    }
    // `moves` plays a line first; the answer is that of the resulting position.
    let (_, a) = get_json(srv.addr, "/api/position?rules=kaooa&moves=t0");
    let (_, b) = get_json(
        srv.addr,
        &format!(
            "/api/position?rules=kaooa&position={}",
            enc("P........./h1p6c0/h")
        ),
    );
    assert_eq!(a, b);
    assert_eq!(a["side"], "hunter");
    assert_eq!(a["pieces"]["t0"], "P");
    assert_eq!(a["hand"], serde_json::json!([1, 6]));
}

fn json_u32(v: Option<u32>) -> Json {
    v.map_or(Json::Null, Json::from)
}

#[test]
fn moves_outside_the_tables_are_searched_and_marked() {
    let srv = start(vec![tables().join("kaooa-6")]);
    // A hunter able to capture from tier h0p0c0 into the missing h0p0c1.
    let g = huntsolve::hunt::from_spec("kaooa-6").unwrap();
    let text = sample_positions("kaooa-6", 400, 9)
        .into_iter()
        .find(|t| {
            let p = g.parse_position(t).unwrap();
            let mut ms = Vec::new();
            g.legal_moves(&p, &mut ms);
            p.hunters_in_hand == 0
                && p.prey_in_hand == 0
                && p.captured == 0
                && ms.iter().any(|&m| g.is_capture(&p, m))
        })
        .expect("a capture position of tier h0p0c0");
    let (status, a) = get_json(
        srv.addr,
        &format!("/api/position?rules=kaooa-6&position={}", enc(&text)),
    );
    assert_eq!(status, 200);
    assert_eq!(a["source"], "table");
    let moves = a["moves"].as_array().unwrap();
    let searched: Vec<&Json> = moves.iter().filter(|m| m["source"] == "search").collect();
    assert!(!searched.is_empty(), "{a}");
    for m in &searched {
        assert!(m["move"].as_str().unwrap().contains('x'), "{m}");
    }
    assert!(moves.iter().any(|m| m["source"] == "table"));
}

#[test]
fn positions_without_tables_are_proven_when_the_prover_finishes() {
    let srv = start(vec![tables().join("kaooa")]);
    // No table set holds kaooa-6: the prover shows the start is a draw (two
    // one-sided disproofs, well within the 10 s allowed).
    let (status, a) = get_json(srv.addr, "/api/position?rules=kaooa-6&time=10");
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["source"], "proof", "{a}");
    assert_eq!(a["value"], "draw");
    assert_eq!(a["exact"], true);
}

#[test]
fn positions_without_tables_are_searched_not_proven() {
    let srv = start(vec![tables().join("kaooa")]);
    // Games far too large to prove in 0.2 s: answered by search, not proven.
    for (rules, family) in [("caikaboroda", "tafl"), ("cows-leopards-mogol", "hunt")] {
        let (status, a) = get_json(srv.addr, &format!("/api/position?rules={rules}&time=0.2"));
        assert_eq!(status, 200, "{a}");
        assert_eq!(a["source"], "search", "{rules}");
        assert_eq!(a["family"], family);
        assert_eq!(a["exact"], false);
        assert_eq!(a["tables"], Json::Null);
        assert!(a["depth"].as_u64().unwrap() >= 1);
        assert!(!a["moves"].as_array().unwrap().is_empty());
        for m in a["moves"].as_array().unwrap() {
            assert_eq!(m["source"], "search");
        }
        // Beside its own unknown, the explorer names what results/ records
        // at the seed start (nothing for Caikabōraḍa's start: only bounded
        // claims within some plies, listed by page).
        if rules == "cows-leopards-mogol" {
            let recorded = a["recorded"].as_array().expect("a recorded list");
            assert!(
                recorded.iter().any(|c| c["page"] == "results/mogol.md"),
                "{a}"
            );
        }
    }
    // A finished game is answered by the rules.
    let (_, a) = get_json(
        srv.addr,
        &format!(
            "/api/position?rules=kaooa&position={}",
            enc("HPPP....../h0p0c4/p")
        ),
    );
    assert_eq!(a["source"], "rules");
    assert_eq!(a["over"], "loss");
    assert_eq!(a["moves"], serde_json::json!([]));
}

#[test]
fn bad_requests_get_400_with_an_error() {
    let srv = start(vec![tables().join("kaooa")]);
    let bad = [
        ("/api/position", 400, "missing parameter 'rules'"),
        ("/api/position?rules=nope", 400, "unknown preset"),
        ("/api/position?rules=kaooa,hunters=x", 400, "invalid rules"),
        (
            "/api/position?rules=kaooa&position=HHHH",
            400,
            "invalid position",
        ),
        ("/api/position?rules=kaooa&moves=t0+t0", 400, "ply 2"),
        ("/api/position?rules=kaooa&moves=zz9", 400, "invalid move"),
        ("/api/position?rules=kaooa&time=-1", 400, "positive"),
        ("/api/position?rules=kaooa&time=abc", 400, "seconds"),
        (
            "/api/position?rules=kaooa&color=red",
            400,
            "unknown parameter",
        ),
        ("/api/position?rules=kaooa&rules=kaooa", 400, "twice"),
        ("/api/position?rules=%ZZ", 400, "percent"),
        (
            "/api/position?rules=kaooa-6&tables=kaooa",
            400,
            "holds kaooa",
        ),
        ("/api/position?rules=kaooa&tables=none", 404, "no table set"),
        ("/api/board", 400, "missing parameter"),
        (
            "/api/board?rules=brandubh,board=banana",
            400,
            "invalid rules",
        ),
        ("/api/stats", 400, "missing parameter 'tables'"),
        ("/api/stats?tables=nope", 404, "no table set 'nope'"),
        ("/api/nothing", 404, "no such page"),
    ];
    for (target, want, text) in bad {
        let (status, body) = get_json(srv.addr, target);
        assert_eq!(status, want, "{target}: {body}");
        let msg = body["error"].as_str().unwrap_or_else(|| panic!("{body}"));
        assert!(msg.contains(text), "{target}: '{msg}' lacks '{text}'");
    }
    // A huge time is capped (10 s), not an overflow; this position is in the tables.
    let (status, body) = get_json(srv.addr, "/api/position?rules=kaooa&time=1e308");
    assert_eq!(status, 200, "{body}");
    let (status, _, body) = request(srv.addr, "POST", "/api/presets");
    assert_eq!(status, 405, "{body}");
    // The server still answers after all that.
    let (status, _) = get_json(srv.addr, "/api/position?rules=kaooa");
    assert_eq!(status, 200);
}

#[test]
fn board_geometry_presets_stats_and_assets() {
    let srv = start(vec![tables().clone()]);
    let (_, b) = get_json(srv.addr, "/api/board?rules=kaooa");
    assert_eq!(b["kind"], "points");
    assert_eq!(b["points"].as_array().unwrap().len(), 10);
    assert_eq!(b["lines"].as_array().unwrap().len(), 5);
    assert_eq!(
        b["points"][0],
        serde_json::json!({"id": 0, "x": 4, "y": 6, "name": "t0"})
    );
    let (_, b) = get_json(srv.addr, "/api/board?rules=bagh-chal");
    assert_eq!(b["points"].as_array().unwrap().len(), 25);
    let (_, b) = get_json(srv.addr, "/api/board?rules=caikaboroda");
    assert_eq!(b["kind"], "grid");
    assert_eq!(b["n"], 9);
    assert_eq!(b["throne"], "e5");
    assert_eq!(b["corners"], serde_json::json!(["a1", "i1", "a9", "i9"]));
    let (_, b) = get_json(srv.addr, "/api/board?rules=brandubh");
    assert_eq!(b["n"], 7);

    let (_, p) = get_json(srv.addr, "/api/presets");
    assert_eq!(
        p["presets"].as_array().unwrap().len(),
        huntsolve::all_presets().len()
    );
    let sets: Vec<&str> = p["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(sets, ["kaooa", "kaooa-6"]);

    let dir = tables().join("kaooa");
    let (_, s) = get_json(srv.addr, "/api/stats?tables=kaooa");
    let (code, out, err) = run(&["analyze", "--tables", dir.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let cli: Json = serde_json::from_str(&out).unwrap();
    for k in ["rules", "positions", "wins", "losses", "draws"] {
        assert_eq!(s[k], cli[k], "{k}");
    }
    assert_eq!(s["tiers"].as_array().unwrap().len(), 52);
    assert!(!s["longest_wins"].as_array().unwrap().is_empty());

    for (path, mime, has) in [
        ("/", "text/html", "/app.js"),
        ("/app.js", "text/javascript", "api('position'"),
        ("/style.css", "text/css", ".board"),
    ] {
        let (status, head, body) = request(srv.addr, "GET", path);
        assert_eq!(status, 200, "{path}");
        assert!(head.contains(mime), "{head}");
        assert!(body.contains(has), "{path}");
    }
}

#[test]
fn sides_keep_their_machine_names_beside_the_games_own_words() {
    use serde_json::json;
    let srv = start(vec![tables().clone()]);
    // Kaooa: the crows drop first, then the vulture (docs/rules.md).
    for (moves, side, label) in [("", "prey", "crows"), ("t0", "hunter", "vulture")] {
        let (status, a) = get_json(
            srv.addr,
            &format!("/api/position?rules=kaooa&moves={moves}"),
        );
        assert_eq!(status, 200, "{a}");
        assert_eq!(a["source"], "table");
        assert_eq!(a["side"], side);
        assert_eq!(a["sides"], json!(["hunter", "prey"]));
        assert_eq!(a["side_label"], label);
        assert_eq!(a["side_labels"], json!(["vulture", "crows"]));
    }
    let hunt = ["hunter", "prey"];
    for (rules, machine, words) in [
        ("kaooa-6", hunt, ["vulture", "crows"]),
        ("kaooa,capture_compulsory=true", hunt, ["vulture", "crows"]),
        ("bagh-chal", hunt, ["tigers", "goats"]),
        ("bagh-chal-ludii", hunt, ["tigers", "goats"]),
        ("diviyan-keliya", hunt, ["leopards", "cows"]),
        ("cows-leopards-mogol", hunt, ["leopards", "cows"]),
        ("kungser", hunt, ["leopards", "cows"]),
        ("cows-leopards-peralikatuma", hunt, ["leopards", "cows"]),
        (
            "caikaboroda",
            ["attackers", "defenders"],
            ["kalikiris", "citikiris"],
        ),
        (
            "brandubh",
            ["attackers", "defenders"],
            ["attackers", "defenders"],
        ),
    ] {
        let (status, b) = get_json(srv.addr, &format!("/api/board?rules={}", enc(rules)));
        assert_eq!(status, 200, "{rules}: {b}");
        assert_eq!(b["sides"], json!(machine), "{rules}");
        assert_eq!(b["side_labels"], json!(words), "{rules}");
    }
}

#[test]
fn fifty_concurrent_requests_are_all_answered() {
    let srv = start(vec![tables().join("kaooa")]);
    let positions = sample_positions("kaooa", 50, 21);
    let addr = srv.addr;
    let handles: Vec<_> = positions
        .into_iter()
        .map(|p| {
            std::thread::spawn(move || {
                get_json(
                    addr,
                    &format!("/api/position?rules=kaooa&position={}", enc(&p)),
                )
            })
        })
        .collect();
    for h in handles {
        let (status, a) = h.join().unwrap();
        assert_eq!(status, 200);
        assert_eq!(a["source"], "table");
    }
}

#[test]
fn a_directory_without_tables_is_refused() {
    let d = std::env::temp_dir().join(format!("huntsolve-serve-empty-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let cfg = Config {
        tables: vec![d.clone()],
        port: 0,
        ..Config::default()
    };
    let err = Explorer::bind(&cfg).err().expect("refused").to_string();
    assert!(err.contains("no table files"), "{err}");
    let (code, _, err) = run(&["serve", "--tables", d.to_str().unwrap(), "--port", "0"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: "), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

// No request can crash the server, stall it or make it read
// files; the Host header names this machine; `time` bounds the whole answer.

/// Sends `bytes` on a new connection and reads the answer for at most 10 s:
/// (status, body), or `None` when the connection closed without an answer.
fn raw(addr: SocketAddr, bytes: &[u8]) -> Option<(u16, String)> {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    // The server may answer and close before it has read everything.
    let _ = s.write_all(bytes);
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n")?;
    let status = head.split(' ').nth(1)?.parse().ok()?;
    Some((status, body.to_string()))
}

fn host(addr: SocketAddr) -> String {
    format!("Host: 127.0.0.1:{}\r\n", addr.port())
}

#[test]
fn requests_announcing_a_body_are_refused_and_the_server_lives() {
    let srv = start(vec![tables().join("kaooa")]);
    let h = host(srv.addr);
    // Before: the first aborted the process (tiny_http allocated the body),
    // eight of the second ended it ("a server thread panicked"). Hyper itself
    // refuses the second (431: it reserves the largest lengths).
    for (cl, want) in [
        ("99999999999", 413),
        ("18446744073709551615", 431),
        ("1", 413),
    ] {
        for _ in 0..8 {
            let req = format!("GET /api/presets HTTP/1.1\r\n{h}Content-Length: {cl}\r\n\r\n");
            let (status, body) = raw(srv.addr, req.as_bytes()).expect("an answer");
            assert_eq!(status, want, "{cl}: {body}");
            if want == 413 {
                assert!(body.contains("not accepted"), "{body}");
            }
        }
    }
    let req = format!("POST /api/presets HTTP/1.1\r\n{h}Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n");
    assert_eq!(raw(srv.addr, req.as_bytes()).unwrap().0, 413);
    let (status, _) = get_json(srv.addr, "/api/position?rules=kaooa");
    assert_eq!(status, 200);
}

#[test]
fn silent_and_slow_connections_do_not_stall_the_server() {
    let srv = start(vec![tables().join("kaooa")]);
    let h = host(srv.addr);
    // Ten that announce a body and never send it, ten that never finish the
    // head: before, these held all four workers and nothing was answered.
    let mut idle = Vec::new();
    for k in 0..20 {
        let mut s = TcpStream::connect(srv.addr).unwrap();
        let text = if k % 2 == 0 {
            format!("GET /api/presets HTTP/1.1\r\n{h}Content-Length: 10\r\n\r\n")
        } else {
            format!("GET /api/presets HTTP/1.1\r\n{h}")
        };
        s.write_all(text.as_bytes()).unwrap();
        idle.push(s);
    }
    std::thread::sleep(Duration::from_millis(100));
    let t = std::time::Instant::now();
    let (status, _) = get_json(srv.addr, "/api/position?rules=kaooa");
    assert_eq!(status, 200);
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    drop(idle);
}

#[test]
fn a_request_head_must_arrive_in_time_and_be_small() {
    let srv = start(vec![tables().join("kaooa")]);
    let h = host(srv.addr);
    // Half a head, then silence: 408 after the 5 s deadline, not a held worker.
    let t = std::time::Instant::now();
    let mut s = TcpStream::connect(srv.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(format!("GET /api/presets HTTP/1.1\r\n{h}").as_bytes())
        .unwrap();
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(t.elapsed() < Duration::from_secs(8), "{:?}", t.elapsed());
    // A 40 KB header and 100 headers are refused.
    let big = format!("GET / HTTP/1.1\r\n{h}X-Big: {}\r\n\r\n", "a".repeat(40_000));
    assert_eq!(raw(srv.addr, big.as_bytes()).unwrap().0, 431);
    let many: String = (0..100).map(|i| format!("X-{i}: y\r\n")).collect();
    let req = format!("GET / HTTP/1.1\r\n{h}{many}\r\n");
    assert_eq!(raw(srv.addr, req.as_bytes()).unwrap().0, 431);
    // Garbage is a 400.
    assert_eq!(raw(srv.addr, b"\x00\x01\x02 hello\r\n\r\n").unwrap().0, 400);
    let (status, _) = get_json(srv.addr, "/api/presets");
    assert_eq!(status, 200);
}

#[test]
fn the_host_header_must_name_this_machine() {
    let srv = start(vec![tables().join("kaooa")]);
    let port = srv.addr.port();
    for (host_line, want) in [
        (format!("Host: 127.0.0.1:{port}\r\n"), 200),
        (format!("Host: localhost:{port}\r\n"), 200),
        // DNS rebinding: a page of evil.example whose name now resolves to 127.0.0.1.
        (format!("Host: evil.example:{port}\r\n"), 421),
        (format!("Host: 127.0.0.1.nip.io:{port}\r\n"), 421),
        ("Host: localhost:1\r\n".to_string(), 421),
        (String::new(), 400),
    ] {
        let req = format!("GET /api/presets HTTP/1.1\r\n{host_line}\r\n");
        let (status, body) = raw(srv.addr, req.as_bytes()).unwrap();
        assert_eq!(status, want, "{host_line}: {body}");
    }
}

#[test]
fn boards_in_requests_are_built_in_names_only() {
    let srv = start(vec![tables().join("kaooa")]);
    for target in [
        "/api/board?rules=kaooa,board=/etc/passwd",
        "/api/board?rules=kaooa,board=/dev/zero",
        "/api/position?rules=kaooa,board=/etc/passwd",
        "/api/board?rules=kaooa,board=../../etc/hosts",
    ] {
        let t = std::time::Instant::now();
        let (status, body) = get_json(srv.addr, target);
        assert_eq!(status, 400, "{target}: {body}");
        let msg = body["error"].as_str().unwrap();
        assert!(msg.contains("built-in"), "{target}: {msg}");
        assert!(!msg.contains("root:"), "{target}: {msg}");
        assert!(t.elapsed() < Duration::from_secs(2));
    }
    // A built-in board by name still works.
    let (status, _) = get_json(srv.addr, "/api/board?rules=kaooa,board=pentagram10");
    assert_eq!(status, 200);
}

#[test]
fn board_files_at_the_command_line_are_regular_small_files() {
    use huntsolve::{Board, MAX_BOARD_FILE};
    let d = std::env::temp_dir().join(format!("huntsolve-serve-boards-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let big = d.join("big.txt");
    std::fs::write(&big, vec![b'#'; MAX_BOARD_FILE as usize + 1]).unwrap();
    let fifo = d.join("fifo");
    let made_fifo = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let mut cases = vec![
        (std::path::PathBuf::from("/dev/zero"), "not a regular file"),
        (d.clone(), "not a regular file"),
        (big, "too large"),
    ];
    if made_fifo {
        // Opening a FIFO would block until a writer comes: refused before opening.
        cases.push((fifo, "not a regular file"));
    }
    for (path, want) in cases {
        let t = std::time::Instant::now();
        let e = Board::from_file(&path).unwrap_err().to_string();
        assert!(e.contains(want), "{}: {e}", path.display());
        assert!(t.elapsed() < Duration::from_secs(2));
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_time_parameter_bounds_the_whole_answer() {
    let srv = start(vec![tables().join("kaooa")]);
    // No table and no quick proof: the prover and then the search ran, each
    // for the whole time (2 s and more for time=1).
    let t = std::time::Instant::now();
    let (status, a) = get_json(srv.addr, "/api/position?rules=bagh-chal&time=1");
    let took = t.elapsed();
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["source"], "search", "{a}");
    assert!(took < Duration::from_millis(1600), "{took:?}");
}

// The server runs on hyper; one test per limit. A head hyper refuses
// gets hyper's own bare status (400 or 431, no body); the server's own
// refusals are JSON.

/// The full answer (head and body) to `bytes`, as text.
fn raw_text(addr: SocketAddr, bytes: &[u8]) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let _ = s.write_all(bytes);
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    String::from_utf8_lossy(&raw).into_owned()
}

#[test]
fn every_announced_body_is_refused() {
    let srv = start(vec![tables().join("kaooa")]);
    let h = host(srv.addr);
    // A length is refused with a JSON 413; what hyper does not take as a
    // length (the two largest a u64 holds, which it reserves: 431; too large
    // for a u64, negative, not a number, empty: 400) hyper refuses itself.
    for (cl, want) in [
        ("1", 413),
        ("99999999999", 413),
        ("18446744073709551615", 431),
        ("18446744073709551614", 431),
        ("99999999999999999999999", 400),
        ("-1", 400),
        ("x", 400),
        ("", 400),
    ] {
        let req = format!("GET /api/presets HTTP/1.1\r\n{h}Content-Length: {cl}\r\n\r\n");
        let (status, body) = raw(srv.addr, req.as_bytes()).expect("an answer");
        assert_eq!(status, want, "Content-Length: {cl}: {body}");
        if want == 413 {
            let j: Json =
                serde_json::from_str(&body).unwrap_or_else(|e| panic!("{cl}: {e}: {body}"));
            assert!(j["error"].as_str().unwrap().contains("not accepted"), "{j}");
        }
    }
    // A body sent along with its head, a chunked GET; hyper refuses a chunked
    // HTTP/1.0 request and a coding other than chunked.
    for (req, want) in [
        (format!("GET /api/presets HTTP/1.1\r\n{h}Content-Length: 5\r\n\r\nhello"), 413),
        (format!("GET /api/presets HTTP/1.1\r\n{h}Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"), 413),
        (format!("GET /api/presets HTTP/1.0\r\n{h}Transfer-Encoding: chunked\r\n\r\n"), 400),
        (format!("GET /api/presets HTTP/1.1\r\n{h}Transfer-Encoding: gzip\r\n\r\n"), 400),
    ] {
        let (status, body) = raw(srv.addr, req.as_bytes()).expect("an answer");
        assert_eq!(status, want, "{req}: {body}");
    }
    // Content-Length: 0 is no body.
    let req = format!("GET /api/presets HTTP/1.1\r\n{h}Content-Length: 0\r\n\r\n");
    assert_eq!(raw(srv.addr, req.as_bytes()).unwrap().0, 200);
}

#[test]
fn a_stalled_head_gets_408_while_others_are_served() {
    let srv = start(vec![tables().join("kaooa")]);
    let h = host(srv.addr);
    let mut stalled: Vec<TcpStream> = (0..8)
        .map(|_| {
            let mut s = TcpStream::connect(srv.addr).unwrap();
            s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
            s.write_all(format!("GET /api/presets HTTP/1.1\r\n{h}X-Half").as_bytes())
                .unwrap();
            s
        })
        .collect();
    // With eight heads stalled (twice the four workers), thirty requests at once are answered.
    let addr = srv.addr;
    let positions = sample_positions("kaooa", 30, 4);
    let handles: Vec<_> = positions
        .into_iter()
        .map(|p| {
            std::thread::spawn(move || {
                get_json(
                    addr,
                    &format!("/api/position?rules=kaooa&position={}", enc(&p)),
                )
                .0
            })
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap(), 200);
    }
    // Each stalled client gets a JSON 408 in the end.
    for s in &mut stalled {
        let mut answer = String::new();
        let _ = s.read_to_string(&mut answer);
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
        let body = answer.split_once("\r\n\r\n").unwrap().1;
        let j: Json = serde_json::from_str(body).unwrap();
        assert!(
            j["error"].as_str().unwrap().contains("did not arrive"),
            "{j}"
        );
    }
}

#[test]
fn header_count_and_head_size_limits_are_exact() {
    let srv = start(vec![tables().join("kaooa")]);
    let h = host(srv.addr);
    // 64 header lines with Host: served; 65: 431.
    for (extra, want) in [(63, 200), (64, 431)] {
        let many: String = (0..extra).map(|i| format!("X-{i}: y\r\n")).collect();
        let req = format!("GET /api/presets HTTP/1.1\r\n{h}{many}\r\n");
        let (status, body) = raw(srv.addr, req.as_bytes()).unwrap();
        assert_eq!(status, want, "{extra} extra headers: {body}");
    }
    // A head of 30 KB is served; one of 33 KB is not, whether it comes in one
    // write or a byte at a time would not matter.
    for (size, want) in [(30_000, 200), (33_000, 431)] {
        let req = format!(
            "GET /api/presets HTTP/1.1\r\n{h}X-Big: {}\r\n\r\n",
            "a".repeat(size)
        );
        let (status, body) = raw(srv.addr, req.as_bytes()).unwrap();
        assert_eq!(status, want, "{size}: {body}");
    }
}

#[test]
fn malformed_heads_are_refused() {
    let srv = start(vec![tables().join("kaooa")]);
    let h = host(srv.addr);
    for (req, want) in [
        (format!("GET /api/presets HTTP/1.0\r\n{h}\r\n"), 200),
        (format!("GET /api/presets HTTP/2\r\n{h}\r\n"), 400),
        (format!("GET /api/presets HTTP/3.0\r\n{h}\r\n"), 400),
        (format!("GET  /api/presets HTTP/1.1\r\n{h}\r\n"), 400),
        (format!("GET http://x/api/presets HTTP/1.1\r\n{h}\r\n"), 400),
        (format!("OPTIONS * HTTP/1.1\r\n{h}\r\n"), 400),
        (
            format!("GET /api/presets HTTP/1.1\r\n{h}no colon\r\n\r\n"),
            400,
        ),
        (
            format!("GET /api/presets HTTP/1.1\r\n{h} folded: x\r\n\r\n"),
            400,
        ),
        (
            format!("GET /api/presets HTTP/1.1\r\n{h}Host: localhost:1\r\n\r\n"),
            400,
        ),
        (format!("GET /api/presets\x01 HTTP/1.1\r\n{h}\r\n"), 400),
    ] {
        let (status, body) = raw(srv.addr, req.as_bytes()).unwrap_or_else(|| panic!("{req:?}"));
        assert_eq!(status, want, "{req:?}: {body}");
        // Hyper's refusals have no body; the server's own are JSON.
        if !body.is_empty() {
            serde_json::from_str::<Json>(&body).unwrap_or_else(|e| panic!("{req:?}: {e}: {body}"));
        }
    }
    // HEAD: the head of the GET answer, without its body.
    let req = format!("HEAD /api/presets HTTP/1.1\r\n{h}\r\n");
    let text = raw_text(srv.addr, req.as_bytes());
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(
        head.to_ascii_lowercase().contains("content-length: "),
        "{head}"
    );
    assert_eq!(body, "");
}

#[test]
fn the_host_header_is_checked_for_every_form() {
    let srv = start(vec![tables().join("kaooa")]);
    let port = srv.addr.port();
    for (host_line, want) in [
        (format!("Host: [::1]:{port}\r\n"), 200),
        (format!("Host: LOCALHOST:{port}\r\n"), 200),
        (format!("host: 127.0.0.1:{port}\r\n"), 200),
        (format!("Host: attacker.test:{port}\r\n"), 421),
        (format!("Host: localhost.attacker.test:{port}\r\n"), 421),
        (format!("Host: 127.0.0.1:{}\r\n", port.wrapping_add(1)), 421),
        ("Host: 127.0.0.1\r\n".to_string(), 421),
        (format!("Host: [evil]:{port}\r\n"), 421),
        ("Host: \r\n".to_string(), 421),
    ] {
        for path in ["/api/presets", "/", "/api/position?rules=kaooa"] {
            let req = format!("GET {path} HTTP/1.1\r\n{host_line}\r\n");
            let (status, body) = raw(srv.addr, req.as_bytes()).unwrap();
            assert_eq!(status, want, "{host_line} {path}: {body}");
            if want == 421 {
                assert!(body.contains("is not this server"), "{body}");
            }
        }
    }
}

#[test]
fn no_path_reads_a_file_and_unknown_paths_are_404() {
    let srv = start(vec![tables().join("kaooa")]);
    let h = host(srv.addr);
    for path in [
        "/../../../../etc/passwd",
        "/..%2f..%2f..%2fetc%2fpasswd",
        "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "/app.js/../../Cargo.toml",
        "/./Cargo.toml",
        "//etc/passwd",
        "/etc/passwd",
        "/assets/explorer/index.html",
        "/src/serve/http.rs",
        "/api/../Cargo.toml",
        "/nothing-here",
        "/api/presets/",
        "/API/PRESETS",
    ] {
        let req = format!("GET {path} HTTP/1.1\r\n{h}\r\n");
        let (status, body) = raw(srv.addr, req.as_bytes()).unwrap();
        assert_eq!(status, 404, "{path}: {body}");
        let j: Json = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(j["error"].as_str().unwrap().contains("no such page"), "{j}");
        assert!(
            !body.contains("root:") && !body.contains("[package]"),
            "{body}"
        );
    }
    // A target in absolute form (a URL, even of this server) is not a path: 400.
    for target in [
        format!("http://127.0.0.1:{}/etc/passwd", srv.addr.port()),
        format!("http://localhost:{}/api/presets", srv.addr.port()),
        "file:///etc/passwd".to_string(),
    ] {
        let req = format!("GET {target} HTTP/1.1\r\n{h}\r\n");
        let (status, body) = raw(srv.addr, req.as_bytes()).unwrap();
        assert_eq!(status, 400, "{target}: {body}");
        assert!(!body.contains("root:"), "{body}");
    }
}

#[test]
fn connections_beyond_the_limit_get_a_whole_503_and_freed_slots_serve_at_once() {
    let srv = start(vec![tables().join("kaooa")]);
    let h = host(srv.addr);
    // 256 connections that send nothing fill the server; the next ones are
    // told it is busy: the whole answer and the end of the stream, whether
    // their request arrives before or after the server wrote the 503 (before:
    // unread, it turned the close into a reset).
    let idle: Vec<TcpStream> = (0..256)
        .map(|_| TcpStream::connect(srv.addr).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    for k in 0..20 {
        let mut s = TcpStream::connect(srv.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        if k % 2 == 1 {
            std::thread::sleep(Duration::from_millis(50));
        }
        s.write_all(format!("GET /api/presets HTTP/1.1\r\n{h}\r\n").as_bytes())
            .unwrap();
        std::thread::sleep(Duration::from_millis(20));
        let mut answer = Vec::new();
        s.read_to_end(&mut answer)
            .unwrap_or_else(|e| panic!("try {k}: {e}"));
        let text = String::from_utf8(answer).unwrap();
        assert!(text.starts_with("HTTP/1.1 503"), "try {k}: {text}");
        let body = text.split_once("\r\n\r\n").unwrap().1;
        let j: Json = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"));
        assert!(j["error"].as_str().unwrap().contains("busy"), "{j}");
    }
    // Once they are closed (and the server has seen it), every slot is free:
    // the first request is served (before: 503 until the loop woke again).
    drop(idle);
    std::thread::sleep(Duration::from_millis(500));
    let (status, body) = raw(
        srv.addr,
        format!("GET /api/presets HTTP/1.1\r\n{h}\r\n").as_bytes(),
    )
    .expect("an answer");
    assert_eq!(status, 200, "{body}");
}

// Searches have their own workers and a bounded queue; everything else is
// answered beside them, and a search whose client left stops.

/// A search the prover skips (repetition is not a draw), so that it stops as
/// soon as its client leaves.
const SEARCH: &str = "/api/position?rules=bagh-chal,repetition%3Dforbid&time=3";

#[test]
fn quick_answers_never_wait_behind_searches_and_abandoned_searches_stop() {
    let srv = start_with(vec![tables().join("kaooa")], 2);
    let h = host(srv.addr);
    // Two searches running and sixteen waiting: 18 × 3 s on two workers.
    let searches: Vec<TcpStream> = (0..18)
        .map(|_| {
            let mut s = TcpStream::connect(srv.addr).unwrap();
            s.write_all(format!("GET {SEARCH} HTTP/1.1\r\n{h}\r\n").as_bytes())
                .unwrap();
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    // One more search is refused at once: the queue is full.
    let t = std::time::Instant::now();
    let (status, v) = get_json(srv.addr, SEARCH);
    assert_eq!(status, 503, "{v}");
    assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());
    // Presets, a board, a position from the tables, the page: at once
    // (before: behind every search, 27 s).
    for target in [
        "/api/presets",
        "/api/board?rules=bagh-chal",
        "/api/position?rules=kaooa&position=start",
        "/",
    ] {
        let t = std::time::Instant::now();
        let (status, _, body) = request(srv.addr, "GET", target);
        assert_eq!(status, 200, "{target}: {body}");
        assert!(
            t.elapsed() < Duration::from_secs(1),
            "{target}: {:?}",
            t.elapsed()
        );
    }
    let (_, v) = get_json(srv.addr, "/api/position?rules=kaooa&position=start");
    assert_eq!(v["source"], "table", "{v}");
    // The clients leave: the waiting searches are dropped, the running ones
    // stop, and a new search is answered in its own time.
    drop(searches);
    std::thread::sleep(Duration::from_millis(300));
    let t = std::time::Instant::now();
    let (status, v) = get_json(srv.addr, &SEARCH.replace("time=3", "time=0.3"));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["source"], "search", "{v}");
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}
