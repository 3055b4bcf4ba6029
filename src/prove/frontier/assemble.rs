//! Step 5 of the frontier method: the start's certificate assembled from the
//! graph above the frontier and the frontier positions' certificates, each
//! mapped by the symmetry onto the image of its class that occurs.

use super::graph::{evaluate, key_of, Eval, Graph, Kind2};
use super::run::{Ctx, Marks};
use super::state::{Entry, State, STATE_FILE};
use super::{FrontierConfig, StartCert, MAX_START_CERT_NODES};
use crate::error::{Error, Result};
use crate::game::{Game, Notation};
use crate::hunt::{HuntGame, HuntPos};
use crate::prove::certificate::{CertHeader, Certificate, Kind, Node, TableRef};
use crate::prove::check::check_with_tables;
use crate::prove::dfpn::RunOutcome;
use crate::prove::tables::TableDirs;
use hashbrown::HashMap;
use std::collections::VecDeque;

/// A resumed position's certificate, read from its file and matched to its entry.
fn load_cert(game: &HuntGame, cfg: &FrontierConfig, e: &Entry) -> Result<Certificate> {
    let out = cfg
        .out
        .as_ref()
        .ok_or_else(|| Error::Internal("a resumed position without an output directory".into()))?;
    let name = e.certificate.as_ref().ok_or_else(|| {
        Error::input(
            out.join(STATE_FILE),
            format!(
                "the frontier state names no certificate for the decided position {}",
                crate::error::bounded(&e.position)
            ),
        )
    })?;
    if name.contains('/') || name.contains('\\') || name.starts_with('.') {
        return Err(Error::input(
            out.join(STATE_FILE),
            format!(
                "the frontier state names certificate '{}' outside certs/",
                crate::error::bounded(name)
            ),
        ));
    }
    let path = out.join("certs").join(name);
    let c = Certificate::read(&path)?;
    let want = if e.outcome == RunOutcome::Proven {
        Kind::Win
    } else {
        Kind::NoWin
    };
    if c.header.rules != game.rules_string()
        || c.header.kind != want
        || c.header.side != e.side
        || c.header.position != e.position
    {
        return Err(Error::certificate(
            &path,
            "does not match its frontier state entry; remove the output directory to start again",
        ));
    }
    Ok(c)
}

/// The symmetry that maps `from` onto `to` (positions of one class).
fn symmetry_between(game: &HuntGame, from: &HuntPos, to: &HuntPos) -> Option<usize> {
    let syms = game.board().symmetries.len().max(1);
    (0..syms).find(|&s| {
        if game.board().symmetries.is_empty() {
            from == to
        } else {
            game.map_pos(s, from) == *to
        }
    })
}

/// `cert` (of position R) mapped by symmetry `s` onto the image of R: the
/// same graph, each move index renumbered into the image's legal move order.
fn map_cert(game: &HuntGame, cert: &Certificate, s: usize) -> Result<Vec<Node>> {
    let root = game.parse_position(&cert.header.position)?;
    let n = cert.nodes.len();
    let map = |p: &HuntPos| {
        if game.board().symmetries.is_empty() {
            *p
        } else {
            game.map_pos(s, p)
        }
    };
    // A certificate read back from certs/ is decoded, not checked: one that
    // does not replay is taken for a damaged or foreign file.
    let bad = |i: usize| {
        Error::certificate_data(format!(
            "node {i} does not replay from {}",
            crate::error::bounded(&cert.header.position)
        ))
    };
    let mut pos: Vec<Option<HuntPos>> = vec![None; n];
    pos[0] = Some(root);
    let mut out = cert.nodes.clone();
    let mut queue = VecDeque::from([0usize]);
    let (mut moves, mut img_moves) = (Vec::new(), Vec::new());
    while let Some(v) = queue.pop_front() {
        let p = pos[v].ok_or_else(|| bad(v))?;
        let q = map(&p);
        let mut reach: Vec<(u32, HuntPos)> = Vec::new();
        match &cert.nodes[v] {
            Node::One { mv, child } => {
                game.legal_moves(&p, &mut moves);
                let m = *moves.get(*mv as usize).ok_or_else(|| bad(v))?;
                let c = game.play(&p, m);
                let target = map(&c);
                game.legal_moves(&q, &mut img_moves);
                let j = img_moves
                    .iter()
                    .position(|&m2| game.play(&q, m2) == target)
                    .ok_or_else(|| bad(v))?;
                out[v] = Node::One {
                    mv: j as u32,
                    child: *child,
                };
                reach.push((*child, c));
            }
            Node::All(children) => {
                game.legal_moves(&p, &mut moves);
                if moves.len() != children.len() {
                    return Err(bad(v));
                }
                let mut by_image: HashMap<u64, u32> = HashMap::new();
                for (&c, &m) in children.iter().zip(moves.iter()) {
                    let cp = game.play(&p, m);
                    by_image.insert(game.hash(&map(&cp)), c);
                    reach.push((c, cp));
                }
                game.legal_moves(&q, &mut img_moves);
                let mut kids = Vec::with_capacity(img_moves.len());
                for &m2 in &img_moves {
                    let h = game.hash(&game.play(&q, m2));
                    kids.push(*by_image.get(&h).ok_or_else(|| bad(v))?);
                }
                out[v] = Node::All(kids);
            }
            _ => {}
        }
        for (c, cp) in reach {
            let c = c as usize;
            if c >= n {
                return Err(bad(v));
            }
            if pos[c].is_none() {
                pos[c] = Some(cp);
                queue.push_back(c);
            }
        }
    }
    Ok(out)
}

struct Assembler<'a> {
    game: &'a HuntGame,
    tables: &'a TableDirs<HuntGame>,
    g: &'a Graph,
    ev: &'a Eval,
    certs: &'a [Option<Certificate>],
    side: usize,
    sym: bool,
    nodes: Vec<Node>,
    tables_used: Vec<TableRef>,
    memo: HashMap<u64, u32>,
    spliced: usize,
}

impl Assembler<'_> {
    fn class(&self, p: &HuntPos) -> Result<usize> {
        self.g
            .index
            .get(&key_of(self.game, self.sym, p))
            .map(|&i| i as usize)
            .ok_or_else(|| Error::Internal("frontier: a position outside the graph".into()))
    }

    fn table_index(&mut self, t: TableRef) -> u32 {
        match self.tables_used.iter().position(|x| *x == t) {
            Some(i) => i as u32,
            None => {
                self.tables_used.push(t);
                self.tables_used.len() as u32 - 1
            }
        }
    }

    fn push(&mut self, n: Node) -> Result<u32> {
        if self.nodes.len() >= MAX_START_CERT_NODES {
            return Err(Error::Memory(format!(
                "the start's certificate would exceed {MAX_START_CERT_NODES} nodes"
            )));
        }
        self.nodes.push(n);
        Ok(self.nodes.len() as u32 - 1)
    }

    /// A leaf node (terminal or table) at `p`.
    fn leaf(&mut self, p: &HuntPos) -> Result<Node> {
        if self.game.outcome(p).is_some() {
            return Ok(Node::Terminal);
        }
        let (t, value, distance) = self.tables.leaf(self.game, p)?.ok_or_else(|| {
            Error::Internal("frontier: a leaf neither over nor in a table".into())
        })?;
        Ok(Node::Table {
            table: self.table_index(t),
            value,
            distance,
        })
    }

    /// The frontier certificate of class `i` on the actual position `p`.
    fn splice(&mut self, i: usize, p: &HuntPos) -> Result<u32> {
        let cert = self.certs[i].as_ref().ok_or_else(|| {
            Error::Internal("frontier: a decided position without a certificate".into())
        })?;
        let root = self.game.parse_position(&cert.header.position)?;
        let s = symmetry_between(self.game, &root, p).ok_or_else(|| {
            Error::Internal("frontier: no symmetry maps a certificate onto its position".into())
        })?;
        let nodes = map_cert(self.game, cert, s)?;
        let base = self.nodes.len() as u32;
        let remap: Vec<u32> = cert
            .header
            .tables
            .iter()
            .map(|t| self.table_index(t.clone()))
            .collect();
        for nd in nodes {
            let nd = match nd {
                Node::One { mv, child } => Node::One {
                    mv,
                    child: child + base,
                },
                Node::All(c) => Node::All(c.into_iter().map(|x| x + base).collect()),
                Node::Table {
                    table,
                    value,
                    distance,
                } => Node::Table {
                    table: remap[table as usize],
                    value,
                    distance,
                },
                Node::Terminal => Node::Terminal,
                Node::Horizon => Node::Horizon,
            };
            self.push(nd)?;
        }
        self.spliced += 1;
        Ok(base)
    }

    /// The proof of the goal side's win at `p` (its class won with a rank).
    fn win(&mut self, p: &HuntPos) -> Result<u32> {
        let h = self.game.hash(p);
        if let Some(&id) = self.memo.get(&h) {
            return Ok(id);
        }
        let i = self.class(p)?;
        let id = match self.g.nodes[i].kind {
            Kind2::Leaf(_) => {
                let n = self.leaf(p)?;
                self.push(n)?
            }
            Kind2::Frontier => self.splice(i, p)?,
            Kind2::Inner => {
                let rank = self.ev.win_rank[i];
                let mut moves = Vec::new();
                self.game.legal_moves(p, &mut moves);
                if self.g.nodes[i].or {
                    let mut pick = None;
                    for (k, &m) in moves.iter().enumerate() {
                        let c = self.game.play(p, m);
                        if self.ev.win_rank[self.class(&c)?] < rank {
                            pick = Some((k, c));
                            break;
                        }
                    }
                    let (k, c) = pick.ok_or_else(|| {
                        Error::Internal("frontier: a won node without a smaller won child".into())
                    })?;
                    let child = self.win(&c)?;
                    self.push(Node::One {
                        mv: k as u32,
                        child,
                    })?
                } else {
                    let mut kids = Vec::with_capacity(moves.len());
                    for &m in &moves {
                        let c = self.game.play(p, m);
                        kids.push(self.win(&c)?);
                    }
                    self.push(Node::All(kids))?
                }
            }
        };
        self.memo.insert(h, id);
        Ok(id)
    }

    /// The opponent's closed strategy at `p` (its class a non-win).
    fn no_win(&mut self, p: &HuntPos) -> Result<u32> {
        let h = self.game.hash(p);
        if let Some(&id) = self.memo.get(&h) {
            return Ok(id);
        }
        let i = self.class(p)?;
        match self.g.nodes[i].kind {
            Kind2::Leaf(_) => {
                let n = self.leaf(p)?;
                let id = self.push(n)?;
                self.memo.insert(h, id);
                Ok(id)
            }
            Kind2::Frontier => {
                let id = self.splice(i, p)?;
                self.memo.insert(h, id);
                Ok(id)
            }
            Kind2::Inner => {
                // Placeholder first: a cycle back here closes on this node.
                let id = self.push(Node::Terminal)?;
                self.memo.insert(h, id);
                let mut moves = Vec::new();
                self.game.legal_moves(p, &mut moves);
                let node = if self.g.nodes[i].or {
                    let mut kids = Vec::with_capacity(moves.len());
                    for &m in &moves {
                        let c = self.game.play(p, m);
                        kids.push(self.no_win(&c)?);
                    }
                    Node::All(kids)
                } else {
                    let mut pick = None;
                    for (k, &m) in moves.iter().enumerate() {
                        let c = self.game.play(p, m);
                        if self.ev.no_win[self.class(&c)?] {
                            pick = Some((k, c));
                            break;
                        }
                    }
                    let (k, c) = pick.ok_or_else(|| {
                        Error::Internal("frontier: a non-win without a non-win reply".into())
                    })?;
                    Node::One {
                        mv: k as u32,
                        child: self.no_win(&c)?,
                    }
                };
                self.nodes[id as usize] = node;
                Ok(id)
            }
        }
    }
}

/// The start's certificate from the graph's values and the frontier's
/// certificates, with the number of certificates spliced in.
#[allow(clippy::too_many_arguments)]
fn assemble(
    game: &HuntGame,
    tables: &TableDirs<HuntGame>,
    g: &Graph,
    ev: &Eval,
    certs: &[Option<Certificate>],
    side: usize,
    win: bool,
    sym: bool,
) -> Result<(Certificate, usize)> {
    let start = game.start();
    let game_ref = game;
    // The recursion is as deep as the graph above the frontier plus nothing
    // more (frontier certificates are spliced, not walked): a large stack anyway.
    let (nodes, root, tables_used, spliced) = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("frontier-assemble".into())
            .stack_size(crate::prove::budget::STACK_BYTES)
            .spawn_scoped(
                scope,
                || -> Result<(Vec<Node>, u32, Vec<TableRef>, usize)> {
                    let mut a = Assembler {
                        game: game_ref,
                        tables,
                        g,
                        ev,
                        certs,
                        side,
                        sym,
                        nodes: Vec::new(),
                        tables_used: Vec::new(),
                        memo: HashMap::new(),
                        spliced: 0,
                    };
                    let root = if win {
                        a.win(&start)?
                    } else {
                        a.no_win(&start)?
                    };
                    let _ = a.side;
                    Ok((a.nodes, root, a.tables_used, a.spliced))
                },
            )
            .map_err(|e| Error::io("starting the assembly thread", e))?
            .join()
            .unwrap_or_else(|_| Err(Error::Internal("the assembly thread panicked".into())))
    })?;
    let nodes = crate::prove::certificate::renumber(&nodes, root);
    let cert = Certificate {
        header: CertHeader {
            rules: game.rules_string(),
            fingerprint: game.fingerprint(),
            position: game.format_position(&game.start()),
            side: side as u8,
            side_name: game.side_name(side).to_string(),
            kind: if win { Kind::Win } else { Kind::NoWin },
            nodes: nodes.len() as u64,
            tables: tables_used,
            writer: format!("huntsolve {} frontier", env!("CARGO_PKG_VERSION")),
            within: None,
        },
        nodes,
    };
    Ok((cert, spliced))
}

/// Step 5 once the start is decided (`win`: the goal side wins): the start's
/// certificate assembled (the resumed positions' certificates read from
/// their files), written with an output directory, and checked.
pub(super) fn start_certificate(
    ctx: &Ctx,
    state: &State,
    marks: &mut Marks,
    win: bool,
) -> Result<StartCert> {
    let (game, tables, cfg, side) = (ctx.game, ctx.tables, ctx.cfg, ctx.side);
    // Certificates of resumed positions come from their files.
    for &i in ctx.frontier {
        let i = i as usize;
        if marks.known[i].is_some() && marks.certs[i].is_none() {
            let e = &state.entries[marks.entry_of[i].unwrap_or(0)];
            marks.certs[i] = Some(load_cert(game, cfg, e)?);
        }
    }
    let ev = evaluate(ctx.g, &marks.known);
    let (cert, spliced) = assemble(
        game,
        tables,
        ctx.g,
        &ev,
        &marks.certs,
        side,
        win,
        cfg.symmetry,
    )?;
    let bytes = cert.encode();
    let mut file = None;
    if let Some(d) = &cfg.out {
        let safe: String = game
            .rules_string()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let path = d.join(format!(
            "{safe}.s{side}.d{}.{}.proof",
            cfg.depth,
            if win { "win" } else { "no-win" }
        ));
        cert.write(&path)?;
        file = Some(path.display().to_string());
    }
    let want = if win { Kind::Win } else { Kind::NoWin };
    let claim = cert.header.kind == want
        && cert.header.side as usize == side
        && cert.header.position == game.format_position(&game.start());
    let fail = |why: &str| {
        Error::Disagreement(format!(
            "frontier: the start's certificate ({}) does not hold: {why}",
            file.as_deref().unwrap_or("in memory"),
        ))
    };
    if !claim {
        return Err(fail("it does not state the start's claim"));
    }
    let dirs = tables.dirs();
    let leaves = cert
        .nodes
        .iter()
        .filter(|n| matches!(n, Node::Table { .. }))
        .count() as u64;
    // Assembled from a saved state without tables: the bytes are the same, but
    // its table leaves cannot be checked here; the check is a separate step.
    if dirs.is_empty() && leaves > 0 {
        return Ok(StartCert {
            file,
            nodes: cert.nodes.len(),
            bytes: bytes.len(),
            sha256: crate::prove::certificate::sha256_hex(&bytes),
            spliced,
            table_leaves: leaves,
            holds: None,
        });
    }
    let report = check_with_tables(game, &cert, &dirs)?;
    if !report.ok() {
        return Err(fail(report.examples.first().map_or("", |s| s.as_str())));
    }
    Ok(StartCert {
        file,
        nodes: cert.nodes.len(),
        bytes: bytes.len(),
        sha256: crate::prove::certificate::sha256_hex(&bytes),
        spliced,
        table_leaves: report.table_leaves,
        holds: Some(true),
    })
}
