//! Proof certificates: the file format of a solution graph, compact,
//! self-describing and checksummed. The prover writes it
//! ([`crate::prove::dfpn::extract`]), the checker ([`crate::prove::check`])
//! reads it; this module knows neither.
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
//!                   4 horizon      (no payload; only in a `no-win` certificate
//!                                  bounded by `within`: the plies are used up)
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
//! A header with `within: D` bounds the claim by D plies from the root (a
//! field older files lack, and which is not written when absent, so their bytes
//! are unchanged): kind `win` then says the goal side forces a win within D
//! plies (the acyclic graph's longest line is at most D), kind `no-win` that
//! it cannot force one within D plies. A node met after k plies needs its
//! claim for D - k plies only, so a `no-win` graph may stop at a *horizon*
//! leaf (tag 4) where no plies are left, and a table leaf may be a win for
//! the goal side if its distance is beyond the plies left
//! (`Certificate::plies_left`).
//!
//! Every field is checked when reading; a damaged file is a [`CertError`]
//! naming what is wrong, never a panic.

use crate::error::{Error, Result};
use crate::game::Value;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

/// First eight bytes of a certificate.
pub(crate) const MAGIC: [u8; 8] = *b"HSPROOF\x1a";
/// Last eight bytes of a certificate.
pub(crate) const END_MAGIC: [u8; 8] = *b"HSPEND\r\n";
/// The format version this build writes and reads.
pub(crate) const FORMAT_VERSION: u32 = 1;
/// Largest accepted header.
const MAX_HEADER: usize = 1 << 20;

/// What a certificate shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Kind {
    /// The goal side forces a win.
    #[serde(rename = "win")]
    Win,
    /// The goal side cannot force a win (its opponent holds at least a draw).
    #[serde(rename = "no-win")]
    NoWin,
}

impl Kind {
    /// The claim's name in certificates and reports (`win`, `no-win`).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Win => "win",
            Kind::NoWin => "no-win",
        }
    }
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
    /// The claim holds within this many plies from the root (absent: for
    /// ever); see the module docs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within: Option<u32>,
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
        return Err(Error::Usage(format!(
            "cannot save to {}: {} is not a directory",
            path.display(),
            dir.display()
        )));
    }
    match std::fs::symlink_metadata(path) {
        Ok(m) if !m.is_file() => Err(Error::Usage(format!(
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
    Err(Error::io(
        format!("cannot save to {}", path.display()),
        std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            "no free temporary name beside it",
        ),
    ))
}

/// What is wrong with the bytes of a certificate ([`Certificate::decode`]).
#[derive(Debug)]
#[non_exhaustive]
pub enum CertError {
    /// Fewer bytes than the smallest certificate.
    TooShort(usize),
    /// The first eight bytes are not `MAGIC`.
    BadMagic,
    /// A format version this build does not read.
    Version(u32),
    /// The last eight bytes are not `END_MAGIC`.
    BadEndMagic,
    /// The whole-file checksum does not match.
    FileChecksum,
    /// The header length does not fit the file.
    HeaderLength(usize),
    /// The header checksum does not match.
    HeaderChecksum,
    /// The header is not the JSON of a [`CertHeader`].
    Header(serde_json::Error),
    /// The header counts more nodes than the node data can hold (or none).
    NodeCount {
        /// Nodes the header counts.
        nodes: u64,
        /// Bytes of node data.
        bytes: usize,
    },
    /// The goal side is not 0 or 1.
    Side(u8),
    /// The node data ends inside a node.
    EndsEarly {
        /// Offset in the node data.
        at: usize,
    },
    /// A varint runs past 64 bits.
    VarintTooLong {
        /// Offset in the node data.
        at: usize,
    },
    /// A number is out of its range.
    OutOfRange {
        /// Which number (table index, distance, move index, child node).
        what: &'static str,
        /// The number read.
        value: u64,
        /// The bound it must be below.
        bound: u64,
    },
    /// A table leaf's value code is not 0, 1 or 2.
    ValueCode {
        /// The node.
        node: u64,
        /// The code read.
        code: u8,
    },
    /// An every-move node lists no children, or more than the bytes left.
    Children {
        /// The node.
        node: u64,
        /// The count read.
        count: u64,
    },
    /// A node tag other than 0 to 4.
    Tag {
        /// The node.
        node: u64,
        /// The tag read.
        tag: u8,
    },
    /// Bytes after the last node.
    Trailing(usize),
}

impl fmt::Display for CertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CertError::TooShort(n) => write!(f, "{n} bytes: too short for a certificate"),
            CertError::BadMagic => write!(f, "not a huntsolve proof certificate (bad magic)"),
            CertError::Version(v) => write!(
                f,
                "format version {v}; this build reads version {FORMAT_VERSION}"
            ),
            CertError::BadEndMagic => write!(f, "bad end magic (truncated file?)"),
            CertError::FileChecksum => write!(f, "file checksum mismatch (corrupt file)"),
            CertError::HeaderLength(n) => write!(f, "header length {n} does not fit the file"),
            CertError::HeaderChecksum => write!(f, "header checksum mismatch (corrupt header)"),
            CertError::Header(e) => write!(f, "header is not valid: {e}"),
            CertError::NodeCount { nodes, bytes } => write!(
                f,
                "header says {nodes} nodes but the node data has {bytes} bytes"
            ),
            CertError::Side(s) => write!(f, "goal side {s} (0 or 1 expected)"),
            CertError::EndsEarly { at } => write!(f, "node data ends early at byte {at}"),
            CertError::VarintTooLong { at } => write!(f, "varint too long before byte {at}"),
            CertError::OutOfRange { what, value, bound } => {
                write!(f, "{what} {value} out of range (< {bound} expected)")
            }
            CertError::ValueCode { node, code } => write!(f, "node {node}: value code {code}"),
            CertError::Children { node, count } => {
                write!(f, "node {node}: {count} children do not fit")
            }
            CertError::Tag { node, tag } => write!(f, "node {node}: unknown tag {tag}"),
            CertError::Trailing(n) => write!(f, "{n} bytes after the last node"),
        }
    }
}

impl std::error::Error for CertError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CertError::Header(e) => Some(e),
            _ => None,
        }
    }
}

/// One node of the solution graph.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
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
    /// The plies of a bounded `no-win` claim are used up here (the game
    /// goes on).
    Horizon,
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
    fn byte(&mut self) -> std::result::Result<u8, CertError> {
        let v = *self
            .b
            .get(self.at)
            .ok_or(CertError::EndsEarly { at: self.at })?;
        self.at += 1;
        Ok(v)
    }
    fn varint(&mut self) -> std::result::Result<u64, CertError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= ((b & 0x7f) as u64) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(CertError::VarintTooLong { at: self.at })
    }
    fn u32_below(&mut self, bound: u64, what: &'static str) -> std::result::Result<u32, CertError> {
        let value = self.varint()?;
        if value >= bound {
            return Err(CertError::OutOfRange { what, value, bound });
        }
        Ok(value as u32)
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
                Node::Horizon => out.push(4),
            }
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out.extend_from_slice(&END_MAGIC);
        out
    }

    /// Parses file bytes (untrusted input: every field is checked).
    pub fn decode(bytes: &[u8]) -> std::result::Result<Certificate, CertError> {
        if bytes.len() < 32 {
            return Err(CertError::TooShort(bytes.len()));
        }
        if bytes[..8] != MAGIC {
            return Err(CertError::BadMagic);
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap_or_default());
        if version != FORMAT_VERSION {
            return Err(CertError::Version(version));
        }
        let end = bytes.len();
        if bytes[end - 8..] != END_MAGIC {
            return Err(CertError::BadEndMagic);
        }
        let stored = u32::from_le_bytes(bytes[end - 12..end - 8].try_into().unwrap_or_default());
        if crc32fast::hash(&bytes[..end - 12]) != stored {
            return Err(CertError::FileChecksum);
        }
        let hlen = u32::from_le_bytes(bytes[12..16].try_into().unwrap_or_default()) as usize;
        if hlen > MAX_HEADER || 16 + hlen + 4 > end - 12 {
            return Err(CertError::HeaderLength(hlen));
        }
        let hcrc = u32::from_le_bytes(bytes[16 + hlen..20 + hlen].try_into().unwrap_or_default());
        if crc32fast::hash(&bytes[..16 + hlen]) != hcrc {
            return Err(CertError::HeaderChecksum);
        }
        let header: CertHeader =
            serde_json::from_slice(&bytes[16..16 + hlen]).map_err(CertError::Header)?;
        let body = &bytes[20 + hlen..end - 12];
        // Every node takes at least one byte.
        if header.nodes == 0 || header.nodes > body.len() as u64 {
            return Err(CertError::NodeCount {
                nodes: header.nodes,
                bytes: body.len(),
            });
        }
        if header.side > 1 {
            return Err(CertError::Side(header.side));
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
                        code => return Err(CertError::ValueCode { node: i, code }),
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
                        return Err(CertError::Children { node: i, count });
                    }
                    let mut ch = Vec::with_capacity(count as usize);
                    for _ in 0..count {
                        ch.push(r.u32_below(n, "child node")?);
                    }
                    Node::All(ch)
                }
                4 => Node::Horizon,
                tag => return Err(CertError::Tag { node: i, tag }),
            };
            nodes.push(node);
        }
        if r.at != body.len() {
            return Err(CertError::Trailing(body.len() - r.at));
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
            .and_then(|()| crate::durable::sync(&file))
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
        let bytes = crate::regular::read(path)
            .map_err(|e| Error::io(format!("reading {}", path.display()), e))?;
        Certificate::decode(&bytes).map_err(|e| Error::certificate(path, e.to_string()))
    }

    /// Longest path from the root in plies, for an acyclic (`win`) graph: an
    /// upper bound on the plies the goal side needs. `None` if there is a cycle.
    pub fn depth(&self) -> Option<u32> {
        self.depth_with(&|_| 0)
    }

    /// [`Certificate::depth`] with `leaf(node)` plies added at each leaf (a
    /// table leaf's stored distance: the plies the goal side still needs there).
    pub(crate) fn depth_with(&self, leaf: &dyn Fn(&Node) -> u32) -> Option<u32> {
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
                    .map(|&c| depth[c as usize].saturating_add(1))
                    .max()
                    .unwrap_or_else(|| leaf(&self.nodes[v]));
                state[v] = 2;
                stack.pop();
            }
        }
        Some(depth[0])
    }

    /// For a claim bounded by `within` plies: the plies each node's own claim
    /// must cover, the most any line from the root leaves it (the root
    /// `within`, a child one less than its parent, at least 0). Lines may
    /// cycle, so this is a longest-path problem on a graph whose values only
    /// fall along edges: nodes are settled from the most plies down, by a
    /// queue per ply count, each once. Unreached nodes get 0.
    pub(crate) fn plies_left(&self, within: u32) -> Vec<u32> {
        let n = self.nodes.len();
        let mut left = vec![0u32; n];
        // The most plies a node has been queued with (-1: not yet).
        let mut queued = vec![-1i64; n];
        let mut settled = vec![false; n];
        if n == 0 {
            return left;
        }
        let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); within as usize + 1];
        queued[0] = within as i64;
        buckets[within as usize].push(0);
        for k in (0..=within as usize).rev() {
            while let Some(v) = buckets[k].pop() {
                let v = v as usize;
                if settled[v] {
                    continue;
                }
                settled[v] = true;
                left[v] = k as u32;
                let kids: &[u32] = match &self.nodes[v] {
                    Node::One { child, .. } => std::slice::from_ref(child),
                    Node::All(c) => c,
                    _ => &[],
                };
                let next = k.saturating_sub(1);
                for &c in kids {
                    let c = c as usize;
                    if !settled[c] && queued[c] < next as i64 {
                        queued[c] = next as i64;
                        buckets[next].push(c as u32);
                    }
                }
            }
        }
        left
    }
}

/// The name of a certificate file: the sha256 of its bytes, in hex. Not the
/// trailer crc32: that crc runs over the header and the header's own crc32,
/// and a crc over a message followed by its crc always ends in one state, so
/// the trailer depends on the node data alone (two certificates of other
/// rules or positions with equal node bytes share it). The crc32s stay as
/// what they are for: catching damaged bytes.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
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
