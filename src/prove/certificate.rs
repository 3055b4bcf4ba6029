//! Proof certificates: the solution graph of a finished run, in a compact,
//! self-describing, checksummed file, and its extraction from the prover.
//!
//! # Byte layout (format version 1, integers little-endian, `varint` = LEB128 u64)
//!
//! ```text
//! offset   size   field
//! 0        8      magic b"HSPROOF\x1a"
//! 8        4      format version (u32) = 1
//! 12       4      header length H (u32), at most 1 MiB
//! 16       H      header: UTF-8 JSON of `CertHeader` (rules, fingerprint, root
//!                   position, goal side, kind "win"/"no-win", node count, the
//!                   tables the leaves come from with their file crc32s)
//! 16+H     4      crc32 of bytes [0, 16+H)
//! 20+H     ...    nodes 0..N in order (node 0 is the root), each a tag byte:
//!                   0 terminal leaf                      (no payload)
//!                   1 table leaf   varint table, u8 value (0 loss, 1 draw, 2 win,
//!                                  side to move's view), varint distance
//!                   2 one move     varint move index (in the rules engine's
//!                                  legal move order), varint child node
//!                   3 every move   varint count, then count varint child nodes
//!                                  (one per legal move, in legal move order)
//! end-12   4      crc32 of every byte before it
//! end-8    8      end magic b"HSPEND\r\n"
//! ```
//!
//! A node stands for one position: the root's is in the header, every other
//! one is reached by playing the moves from the root. For kind `win` the goal
//! side chooses (one move) and the opponent's nodes list every move; the graph
//! is acyclic and every leaf is a win for the goal side. For kind `no-win` the
//! opponent chooses and the goal side's nodes list every move; the graph may
//! have cycles (endless play is a draw) and no leaf is a win for the goal side.
//! A repetition in the prover's search is an edge back to a node of the graph.
//!
//! Every field is checked when reading; a damaged file is an error naming what
//! is wrong, never a panic.

use super::budget::{vec_bytes, MAX_SMALL_FRAME_DEPTH, MEMO_ENTRY_BYTES, SMALL_FRAME_BYTES};
use super::dfpn::{wins_for, Prover, RunOutcome};
use crate::error::{Error, Result};
use crate::game::{Game, Notation, Oracle, Value};
use hashbrown::{HashMap, HashSet};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// First eight bytes of a certificate.
pub const MAGIC: [u8; 8] = *b"HSPROOF\x1a";
/// Last eight bytes of a certificate.
pub const END_MAGIC: [u8; 8] = *b"HSPEND\r\n";
/// The format version this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;
/// Largest accepted header.
const MAX_HEADER: usize = 1 << 20;

/// What a certificate shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    /// The goal side forces a win.
    #[serde(rename = "win")]
    Win,
    /// The goal side cannot force a win (its opponent holds at least a draw).
    #[serde(rename = "no-win")]
    NoWin,
}

/// A table the leaves of a certificate come from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableRef {
    /// Tier name (the file is `<tier>.hst`).
    pub tier: String,
    /// crc32 of the whole table file (its stored trailer checksum).
    pub crc32: u32,
}

/// The self-describing header.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CertHeader {
    /// Canonical rules string.
    pub rules: String,
    /// Fingerprint of the rules.
    pub fingerprint: u64,
    /// The root position text.
    pub position: String,
    /// Index of the goal side.
    pub side: u8,
    /// Name of the goal side.
    pub side_name: String,
    /// What is shown.
    pub kind: Kind,
    /// Number of nodes.
    pub nodes: u64,
    /// Tables the leaves come from.
    pub tables: Vec<TableRef>,
    /// Who wrote it.
    pub writer: String,
}

/// Checks, before any work, that a certificate can be saved at `path`: its
/// directory exists, and `path` is absent or a regular file (not a device, a
/// FIFO or a directory).
pub fn check_save_path(path: &Path) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(Error::Input(format!(
            "cannot save to {}: {} is not a directory",
            path.display(),
            dir.display()
        )));
    }
    match std::fs::symlink_metadata(path) {
        Ok(m) if !m.is_file() => Err(Error::Input(format!(
            "cannot save to {}: it exists and is not a regular file",
            path.display()
        ))),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Error::io(format!("checking {}", path.display()), e)),
    }
}

/// A new file beside `path` named `.<name>.<pid>.<k>.tmp`, created with
/// `create_new` (O_EXCL): the first `k` whose name is free.
fn new_temp_beside(path: &Path) -> Result<(std::path::PathBuf, std::fs::File)> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "certificate".into());
    let pid = std::process::id();
    for k in 0..1000u32 {
        let tmp = path.with_file_name(format!(".{name}.{pid}.{k}.tmp"));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(Error::io(format!("creating {}", tmp.display()), e)),
        }
    }
    Err(Error::Input(format!(
        "cannot save to {}: no free temporary name beside it",
        path.display()
    )))
}

/// One node of the solution graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// The game is over here.
    Terminal,
    /// A table knows this position.
    Table {
        /// Index into [`CertHeader::tables`].
        table: u32,
        /// The value stored (side to move's view).
        value: Value,
        /// The distance stored.
        distance: u32,
    },
    /// The choosing side plays move `mv` (index in the legal move list).
    One {
        /// Index of the move in the legal move list.
        mv: u32,
        /// The node reached.
        child: u32,
    },
    /// The other side: one child per legal move, in legal move order.
    All(Vec<u32>),
}

/// A certificate: header and nodes (node 0 is the root).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The header.
    pub header: CertHeader,
    /// The nodes.
    pub nodes: Vec<Node>,
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> std::result::Result<u8, String> {
        let v = *self
            .b
            .get(self.at)
            .ok_or_else(|| format!("node data ends early at byte {}", self.at))?;
        self.at += 1;
        Ok(v)
    }
    fn varint(&mut self) -> std::result::Result<u64, String> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= ((b & 0x7f) as u64) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(format!("varint too long before byte {}", self.at))
    }
    fn u32_below(&mut self, bound: u64, what: &str) -> std::result::Result<u32, String> {
        let v = self.varint()?;
        if v >= bound {
            return Err(format!("{what} {v} out of range (< {bound} expected)"));
        }
        Ok(v as u32)
    }
}

fn value_code(v: Value) -> u8 {
    match v {
        Value::Loss => 0,
        Value::Draw => 1,
        Value::Win => 2,
    }
}

impl Certificate {
    /// The file bytes.
    pub fn encode(&self) -> Vec<u8> {
        let header = serde_json::to_vec(&self.header).unwrap_or_default();
        let mut out = Vec::with_capacity(64 + header.len() + 4 * self.nodes.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(header.len() as u32).to_le_bytes());
        out.extend_from_slice(&header);
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        for n in &self.nodes {
            match n {
                Node::Terminal => out.push(0),
                Node::Table {
                    table,
                    value,
                    distance,
                } => {
                    out.push(1);
                    put_varint(&mut out, *table as u64);
                    out.push(value_code(*value));
                    put_varint(&mut out, *distance as u64);
                }
                Node::One { mv, child } => {
                    out.push(2);
                    put_varint(&mut out, *mv as u64);
                    put_varint(&mut out, *child as u64);
                }
                Node::All(children) => {
                    out.push(3);
                    put_varint(&mut out, children.len() as u64);
                    for &c in children {
                        put_varint(&mut out, c as u64);
                    }
                }
            }
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out.extend_from_slice(&END_MAGIC);
        out
    }

    /// Parses file bytes (untrusted input: every field is checked).
    pub fn decode(bytes: &[u8]) -> std::result::Result<Certificate, String> {
        if bytes.len() < 32 {
            return Err(format!(
                "{} bytes: too short for a certificate",
                bytes.len()
            ));
        }
        if bytes[..8] != MAGIC {
            return Err("not a huntsolve proof certificate (bad magic)".into());
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap_or_default());
        if version != FORMAT_VERSION {
            return Err(format!(
                "format version {version}; this build reads version {FORMAT_VERSION}"
            ));
        }
        let end = bytes.len();
        if bytes[end - 8..] != END_MAGIC {
            return Err("bad end magic (truncated file?)".into());
        }
        let stored = u32::from_le_bytes(bytes[end - 12..end - 8].try_into().unwrap_or_default());
        if crc32fast::hash(&bytes[..end - 12]) != stored {
            return Err("file checksum mismatch (corrupt file)".into());
        }
        let hlen = u32::from_le_bytes(bytes[12..16].try_into().unwrap_or_default()) as usize;
        if hlen > MAX_HEADER || 16 + hlen + 4 > end - 12 {
            return Err(format!("header length {hlen} does not fit the file"));
        }
        let hcrc = u32::from_le_bytes(bytes[16 + hlen..20 + hlen].try_into().unwrap_or_default());
        if crc32fast::hash(&bytes[..16 + hlen]) != hcrc {
            return Err("header checksum mismatch (corrupt header)".into());
        }
        let header: CertHeader = serde_json::from_slice(&bytes[16..16 + hlen])
            .map_err(|e| format!("header is not valid: {e}"))?;
        let body = &bytes[20 + hlen..end - 12];
        // Every node takes at least one byte.
        if header.nodes == 0 || header.nodes > body.len() as u64 {
            return Err(format!(
                "header says {} nodes but the node data has {} bytes",
                header.nodes,
                body.len()
            ));
        }
        if header.side > 1 {
            return Err(format!("goal side {} (0 or 1 expected)", header.side));
        }
        let n = header.nodes;
        let tables = header.tables.len() as u64;
        let mut r = Reader { b: body, at: 0 };
        let mut nodes = Vec::with_capacity(n as usize);
        for i in 0..n {
            let node = match r.byte()? {
                0 => Node::Terminal,
                1 => {
                    let table = r.u32_below(tables, "table index")?;
                    let value = match r.byte()? {
                        0 => Value::Loss,
                        1 => Value::Draw,
                        2 => Value::Win,
                        v => return Err(format!("node {i}: value code {v}")),
                    };
                    let distance = r.u32_below(u32::MAX as u64, "distance")?;
                    Node::Table {
                        table,
                        value,
                        distance,
                    }
                }
                2 => {
                    let mv = r.u32_below(u16::MAX as u64 + 1, "move index")?;
                    let child = r.u32_below(n, "child node")?;
                    Node::One { mv, child }
                }
                3 => {
                    let count = r.varint()?;
                    if count == 0 || count > (body.len() - r.at) as u64 {
                        return Err(format!("node {i}: {count} children do not fit"));
                    }
                    let mut ch = Vec::with_capacity(count as usize);
                    for _ in 0..count {
                        ch.push(r.u32_below(n, "child node")?);
                    }
                    Node::All(ch)
                }
                t => return Err(format!("node {i}: unknown tag {t}")),
            };
            nodes.push(node);
        }
        if r.at != body.len() {
            return Err(format!("{} bytes after the last node", body.len() - r.at));
        }
        Ok(Certificate { header, nodes })
    }

    /// Writes the certificate to `path`: into a new temporary file beside it
    /// (a unique name, created with `create_new`, so no other file is ever
    /// overwritten), then renamed over `path`. Refuses a `path` that exists
    /// and is not a regular file (`/dev/null` would be replaced by a file).
    pub fn write(&self, path: &Path) -> Result<()> {
        check_save_path(path)?;
        let (tmp, mut file) = new_temp_beside(path)?;
        let written = std::io::Write::write_all(&mut file, &self.encode())
            .and_then(|()| file.sync_all())
            .map_err(|e| Error::io(format!("writing {}", tmp.display()), e))
            .and_then(|()| {
                std::fs::rename(&tmp, path)
                    .map_err(|e| Error::io(format!("renaming to {}", path.display()), e))
            });
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        written
    }

    /// Reads and parses `path`.
    pub fn read(path: &Path) -> Result<Certificate> {
        let bytes =
            std::fs::read(path).map_err(|e| Error::io(format!("reading {}", path.display()), e))?;
        Certificate::decode(&bytes)
            .map_err(|e| Error::Input(format!("proof file {}: {e}", path.display())))
    }

    /// Longest path from the root in plies, for an acyclic (`win`) graph: an
    /// upper bound on the plies the goal side needs. `None` if there is a cycle.
    pub fn depth(&self) -> Option<u32> {
        let n = self.nodes.len();
        let mut depth = vec![u32::MAX; n];
        // 0 new, 1 open, 2 done; iterative post-order.
        let mut state = vec![0u8; n];
        let mut stack = vec![(0usize, 0usize)];
        while let Some(&mut (v, ref mut k)) = stack.last_mut() {
            if state[v] == 0 {
                state[v] = 1;
            }
            let kids: &[u32] = match &self.nodes[v] {
                Node::One { child, .. } => std::slice::from_ref(child),
                Node::All(c) => c,
                _ => &[],
            };
            if *k < kids.len() {
                let c = kids[*k] as usize;
                *k += 1;
                match state[c] {
                    0 => stack.push((c, 0)),
                    1 => return None,
                    _ => {}
                }
            } else {
                depth[v] = kids
                    .iter()
                    .map(|&c| depth[c as usize] + 1)
                    .max()
                    .unwrap_or(0);
                state[v] = 2;
                stack.pop();
            }
        }
        Some(depth[0])
    }
}

/// crc32 stored in the trailer of a table file (identifies its contents).
pub fn table_file_crc(path: &Path) -> Result<u32> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = std::fs::File::open(path)
        .map_err(|e| Error::io(format!("opening {}", path.display()), e))?;
    f.seek(SeekFrom::End(-12))
        .map_err(|e| Error::io(format!("reading {}", path.display()), e))?;
    let mut b = [0u8; 4];
    f.read_exact(&mut b)
        .map_err(|e| Error::io(format!("reading {}", path.display()), e))?;
    Ok(u32::from_le_bytes(b))
}

/// Names the table a leaf comes from: `(tier, file crc32)`.
pub type LeafTable<'a, G> = dyn Fn(&<G as Game>::Pos) -> Result<Option<TableRef>> + Sync + 'a;

struct Builder<'a, 'b, G: Game, O: Oracle<G>> {
    prover: &'a Prover<'a, G, O>,
    worker: super::dfpn::Worker<'a, G, O>,
    side: usize,
    kind: Kind,
    memo: HashMap<u64, u32>,
    stack: HashSet<u64>,
    nodes: Vec<Node>,
    tables: Vec<TableRef>,
    leaf_table: &'b LeafTable<'b, G>,
    max_nodes: usize,
    /// Stack-set entries charged (its largest size so far).
    stack_charged: usize,
    /// Frames of the recursion now (at most [`MAX_SMALL_FRAME_DEPTH`]).
    depth: usize,
}

/// Bytes a node may take in the builder's vector (with growth slack) and its
/// list of children.
fn node_bytes(n: &Node) -> usize {
    2 * std::mem::size_of::<Node>()
        + match n {
            Node::All(k) => vec_bytes::<u32>(k.capacity()),
            _ => 0,
        }
}

impl<'a, G: Notation, O: Oracle<G>> Builder<'a, '_, G, O> {
    /// Charges `n` bytes to the prover's memory budget, or fails with
    /// "out of memory budget".
    fn charge(&mut self, n: usize) -> Result<()> {
        if self.worker.acct.charge(n) {
            return Ok(());
        }
        Err(Error::Memory(format!(
            "out of memory budget: the certificate needs more than the {} MiB of --hash \
             ({} nodes built so far)",
            self.prover.tt.budget().cap() >> 20,
            self.nodes.len()
        )))
    }

    /// Records `id` as the certificate node of position `h`.
    fn memo_insert(&mut self, h: u64, id: u32) -> Result<()> {
        self.charge(MEMO_ENTRY_BYTES)?;
        self.memo.insert(h, id);
        Ok(())
    }

    fn stack_insert(&mut self, h: u64) -> Result<()> {
        if self.stack.len() >= self.stack_charged {
            self.charge(MEMO_ENTRY_BYTES)?;
            self.stack_charged += 1;
        }
        self.stack.insert(h);
        Ok(())
    }

    /// Charges a frame of `positions` children (and their move list).
    fn frame<P>(&mut self, positions: usize, moves: usize) -> Result<usize> {
        if self.depth >= MAX_SMALL_FRAME_DEPTH {
            return Err(Error::Memory(format!(
                "the certificate is deeper than a prover thread's stack holds ({MAX_SMALL_FRAME_DEPTH} levels)"
            )));
        }
        self.depth += 1;
        let n = SMALL_FRAME_BYTES
            + vec_bytes::<(u32, usize, P)>(positions)
            + vec_bytes::<G::Move>(moves)
            + vec_bytes::<u32>(positions);
        self.charge(n)?;
        Ok(n)
    }

    fn table_leaf(&mut self, pos: &G::Pos, value: Value, distance: u32) -> Result<Node> {
        let t = (self.leaf_table)(pos)?.ok_or_else(|| {
            Error::Internal(format!(
                "a leaf's table could not be named: {}",
                self.prover.game.format_position(pos)
            ))
        })?;
        let i = match self.tables.iter().position(|x| *x == t) {
            Some(i) => i,
            None => {
                self.tables.push(t);
                self.tables.len() - 1
            }
        };
        Ok(Node::Table {
            table: i as u32,
            value,
            distance,
        })
    }

    fn push(&mut self, n: Node) -> Result<u32> {
        self.charge(node_bytes(&n))?;
        if self.nodes.len() >= self.max_nodes {
            return Err(Error::Memory(format!(
                "the certificate would exceed {} nodes",
                self.max_nodes
            )));
        }
        self.nodes.push(n);
        Ok(self.nodes.len() as u32 - 1)
    }

    /// Proves `pos` for the goal side if the table does not already say so.
    fn outcome_of(&mut self, pos: &G::Pos) -> RunOutcome {
        let h = self.worker.key(pos);
        let l = self.worker.look(pos, h);
        let (pn, dn) = if l.pn == 0 || l.dn == 0 {
            (l.pn, l.dn)
        } else {
            let r = self.worker.run_root(pos);
            (r.0, r.1)
        };
        if pn == 0 {
            RunOutcome::Proven
        } else if dn == 0 {
            RunOutcome::Disproven
        } else {
            RunOutcome::Unknown
        }
    }

    fn unknown(&self, pos: &G::Pos) -> Error {
        if self.prover.out_of_memory() {
            return Error::Memory(format!(
                "out of memory budget: re-proving {} for the certificate needs more than \
                 the {} MiB of --hash",
                self.prover.game.format_position(pos),
                self.prover.tt.budget().cap() >> 20
            ));
        }
        Error::Input(format!(
            "certificate: position {} could not be re-proven within the budget \
             (a larger --hash keeps proofs in the table)",
            self.prover.game.format_position(pos)
        ))
    }

    /// Returns a frame's charge when it ends.
    fn end_frame(&mut self, frame: usize) {
        self.depth -= 1;
        self.worker.acct.release(frame);
    }

    /// An acyclic proof of `pos`; `None` when every way leads back to the stack.
    fn win(&mut self, pos: &G::Pos) -> Result<Option<u32>> {
        let g = self.prover.game;
        let h = g.hash(pos);
        if let Some(&id) = self.memo.get(&h) {
            return Ok(Some(id));
        }
        if self.stack.contains(&h) {
            return Ok(None);
        }
        let mover = g.side_to_move(pos);
        if let Some(v) = g.outcome(pos) {
            if !wins_for(v, mover, self.side) {
                return Ok(None);
            }
            let id = self.push(Node::Terminal)?;
            self.memo_insert(h, id)?;
            return Ok(Some(id));
        }
        if let Some((v, d)) = self.prover.oracle.probe(g, pos) {
            if !wins_for(v, mover, self.side) {
                return Ok(None);
            }
            let n = self.table_leaf(pos, v, d)?;
            let id = self.push(n)?;
            self.memo_insert(h, id)?;
            return Ok(Some(id));
        }
        let mut moves = Vec::new();
        g.legal_moves(pos, &mut moves);
        let frame = self.frame::<G::Pos>(moves.len(), moves.capacity())?;
        self.stack_insert(h)?;
        let node = if mover == self.side {
            // Proven children first, shortest stored proof first.
            let mut cands: Vec<(u32, usize, G::Pos)> = moves
                .iter()
                .enumerate()
                .map(|(i, &m)| {
                    let c = g.play(pos, m);
                    let l = self.worker.look(&c, self.worker.key(&c));
                    let key = if l.pn == 0 {
                        l.dist
                    } else if l.dn == 0 {
                        u32::MAX
                    } else {
                        u32::MAX - 1
                    };
                    (key, i, c)
                })
                .collect();
            cands.sort_by_key(|c| c.0);
            let mut found = None;
            for (key, i, c) in cands {
                if key == u32::MAX {
                    break;
                }
                if key == u32::MAX - 1 && self.outcome_of(&c) != RunOutcome::Proven {
                    continue;
                }
                if let Some(cid) = self.win(&c)? {
                    found = Some(Node::One {
                        mv: i as u32,
                        child: cid,
                    });
                    break;
                }
            }
            found
        } else {
            let mut kids = Vec::with_capacity(moves.len());
            let mut ok = true;
            for &m in &moves {
                let c = g.play(pos, m);
                match self.outcome_of(&c) {
                    RunOutcome::Proven => {}
                    RunOutcome::Disproven => {
                        return Err(Error::Internal(format!(
                            "certificate: a reply from {} is disproven; the run's proof is inconsistent",
                            g.format_position(pos)
                        )))
                    }
                    RunOutcome::Unknown => return Err(self.unknown(&c)),
                }
                match self.win(&c)? {
                    Some(cid) => kids.push(cid),
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            ok.then_some(Node::All(kids))
        };
        self.stack.remove(&h);
        self.end_frame(frame);
        match node {
            Some(n) => {
                let id = self.push(n)?;
                self.memo_insert(h, id)?;
                Ok(Some(id))
            }
            None => Ok(None),
        }
    }

    /// A closed strategy graph of the opponent from `pos` (a true non-win).
    fn no_win(&mut self, pos: &G::Pos) -> Result<u32> {
        let g = self.prover.game;
        let h = g.hash(pos);
        if let Some(&id) = self.memo.get(&h) {
            return Ok(id);
        }
        let id = self.push(Node::Terminal)?;
        self.memo_insert(h, id)?;
        let mover = g.side_to_move(pos);
        if g.outcome(pos).is_some() {
            return Ok(id);
        }
        if let Some((v, d)) = self.prover.oracle.probe(g, pos) {
            self.nodes[id as usize] = self.table_leaf(pos, v, d)?;
            return Ok(id);
        }
        let mut moves = Vec::new();
        g.legal_moves(pos, &mut moves);
        let frame = self.frame::<G::Pos>(moves.len(), moves.capacity())?;
        let children: Vec<G::Pos> = moves.iter().map(|&m| g.play(pos, m)).collect();
        if mover == self.side {
            let mut kids = Vec::with_capacity(children.len());
            // The node's list of children stays (charged here, not in `push`).
            self.charge(vec_bytes::<u32>(children.len()))?;
            for c in &children {
                kids.push(self.no_win(c)?);
            }
            self.nodes[id as usize] = Node::All(kids);
            self.end_frame(frame);
            return Ok(id);
        }
        // A child already in the graph closes a cycle at no cost; then a known
        // disproof; then the prover, most promising first.
        let pick = children
            .iter()
            .position(|c| self.memo.contains_key(&g.hash(c)));
        let pick = match pick {
            Some(i) => Some(i),
            None => {
                let mut order: Vec<(u32, usize)> = children
                    .iter()
                    .enumerate()
                    .map(|(i, c)| (self.worker.look(c, self.worker.key(c)).dn, i))
                    .collect();
                order.sort();
                let mut found = None;
                for (_, i) in order {
                    match self.outcome_of(&children[i]) {
                        RunOutcome::Disproven => {
                            found = Some(i);
                            break;
                        }
                        RunOutcome::Unknown => return Err(self.unknown(&children[i])),
                        RunOutcome::Proven => {}
                    }
                }
                found
            }
        };
        let i = pick.ok_or_else(|| {
            Error::Internal(format!(
                "certificate: every reply from {} is proven; the run's disproof is inconsistent",
                g.format_position(pos)
            ))
        })?;
        let cid = self.no_win(&children[i])?;
        self.nodes[id as usize] = Node::One {
            mv: i as u32,
            child: cid,
        };
        self.end_frame(frame);
        Ok(id)
    }
}

/// Renumbers `nodes` so that `root` is 0 and nodes follow in breadth-first
/// order; unreachable nodes are dropped.
pub(crate) fn renumber(nodes: &[Node], root: u32) -> Vec<Node> {
    let mut new_id = vec![u32::MAX; nodes.len()];
    let mut order = vec![root];
    new_id[root as usize] = 0;
    let mut i = 0;
    while i < order.len() {
        let v = order[i] as usize;
        i += 1;
        let kids: &[u32] = match &nodes[v] {
            Node::One { child, .. } => std::slice::from_ref(child),
            Node::All(c) => c,
            _ => &[],
        };
        for &c in kids {
            if new_id[c as usize] == u32::MAX {
                new_id[c as usize] = order.len() as u32;
                order.push(c);
            }
        }
    }
    order
        .iter()
        .map(|&v| match &nodes[v as usize] {
            Node::One { mv, child } => Node::One {
                mv: *mv,
                child: new_id[*child as usize],
            },
            Node::All(c) => Node::All(c.iter().map(|&x| new_id[x as usize]).collect()),
            other => other.clone(),
        })
        .collect()
}

/// Extracts the certificate of a finished run (`outcome` proven or disproven
/// for goal `side` at `pos`), re-proving positions whose entries were
/// overwritten. `leaf_table` names the table of a table leaf; `max_nodes`
/// bounds the certificate.
pub fn extract<G: Notation, O: Oracle<G>>(
    prover: &Prover<'_, G, O>,
    pos: &G::Pos,
    side: usize,
    outcome: RunOutcome,
    leaf_table: &LeafTable<'_, G>,
    max_nodes: usize,
) -> Result<Certificate> {
    let kind = match outcome {
        RunOutcome::Proven => Kind::Win,
        RunOutcome::Disproven => Kind::NoWin,
        RunOutcome::Unknown => {
            return Err(Error::Input(
                "no certificate: the run ended before a proof or disproof".into(),
            ))
        }
    };
    let game = prover.game;
    // The recursion is as deep as the longest line; give it the prover's stack.
    std::thread::scope(|scope| {
        let job = std::thread::Builder::new()
            .name("certificate".into())
            .stack_size(super::dfpn::STACK_BYTES)
            .spawn_scoped(scope, || -> Result<Certificate> {
                let mut b = Builder {
                    prover,
                    worker: prover.worker(side, 0),
                    side,
                    kind,
                    memo: HashMap::new(),
                    stack: HashSet::new(),
                    nodes: Vec::new(),
                    tables: Vec::new(),
                    leaf_table,
                    max_nodes,
                    stack_charged: 0,
                    depth: 0,
                };
                let root = match b.kind {
                    Kind::Win => b.win(pos)?.ok_or_else(|| {
                        Error::Internal(
                            "certificate: no acyclic proof found among the stored proofs".into(),
                        )
                    })?,
                    Kind::NoWin => b.no_win(pos)?,
                };
                // The renumbered copy and its two index vectors.
                let copy = b.nodes.iter().map(node_bytes).sum::<usize>()
                    + vec_bytes::<u32>(2 * b.nodes.len());
                b.charge(copy)?;
                let nodes = renumber(&b.nodes, root);
                Ok(Certificate {
                    header: CertHeader {
                        rules: game.rules_string(),
                        fingerprint: game.fingerprint(),
                        position: game.format_position(pos),
                        side: side as u8,
                        side_name: game.side_name(side).to_string(),
                        kind: b.kind,
                        nodes: nodes.len() as u64,
                        tables: b.tables,
                        writer: format!("huntsolve {} prove", env!("CARGO_PKG_VERSION")),
                    },
                    nodes,
                })
            })
            .map_err(|e| Error::io("starting the certificate thread", e))?;
        job.join()
            .unwrap_or_else(|_| Err(Error::Internal("the certificate thread panicked".into())))
    })
}
