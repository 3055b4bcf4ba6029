//! Table files as untrusted input, past their checksums: forged headers whose CRCs are
//! recomputed so the parser behind them is exercised, and non-regular files named like
//! tables.

use huntsolve::table::{decode_table, encode_table, TableMeta, WriteOptions};
use huntsolve::RECORD_ENCODING;
use serde::Serialize;

/// The header fields in file order (the layout in `src/table/format.rs`): bincode of
/// this struct is byte-for-byte the header a table carries.
#[derive(Serialize, Clone, Debug)]
struct Header {
    rules: String,
    fingerprint: u64,
    tier: String,
    index_version: u32,
    encoding: u32,
    positions: u64,
    extra: String,
    records: u64,
    block_records: u32,
    blocks: u64,
}

const PREFIX: usize = 16;
const ENTRY: usize = 16;
const TRAILER: usize = 12;

fn header_bytes(h: &Header) -> Vec<u8> {
    bincode::serde::encode_to_vec(h, bincode::config::standard()).unwrap()
}

/// A file with `header`, then `index` and `data` bytes, every checksum valid.
fn forge(h: &Header, index: &[u8], data: &[u8]) -> Vec<u8> {
    let hb = header_bytes(h);
    let mut f = b"HSTABLE\x1a".to_vec();
    f.extend_from_slice(&1u32.to_le_bytes());
    f.extend_from_slice(&(hb.len() as u32).to_le_bytes());
    f.extend_from_slice(&hb);
    f.extend_from_slice(&crc32fast::hash(&f).to_le_bytes());
    f.extend_from_slice(index);
    f.extend_from_slice(&crc32fast::hash(index).to_le_bytes());
    f.extend_from_slice(data);
    f.extend_from_slice(&crc32fast::hash(&f).to_le_bytes());
    f.extend_from_slice(b"HSTEND\r\n");
    f
}

fn header(records: u64, block_records: u32, blocks: u64) -> Header {
    Header {
        rules: "toy".into(),
        fingerprint: 7,
        tier: "t".into(),
        index_version: 1,
        encoding: RECORD_ENCODING,
        positions: records,
        extra: String::new(),
        records,
        block_records,
        blocks,
    }
}

#[test]
fn forged_block_count_near_the_overflow_is_refused() {
    // blocks * 17 fits in a u64, but the header offset plus it does not.
    for blocks in [u64::MAX / 17, u64::MAX / 17 - 1, u64::MAX / 18, u64::MAX] {
        let h = header(blocks, 1, blocks);
        let e = decode_table(&forge(&h, &[], &[0; 64])).unwrap_err();
        assert!(
            e.reason.contains("truncated") || e.reason.contains("overflows"),
            "{blocks}: {e}"
        );
    }
}

/// A tiny deterministic generator (xorshift64*), so a failure names its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    /// Values near the edges a parser gets wrong, or anything.
    fn field(&mut self, near: u64) -> u64 {
        match self.below(8) {
            0 => 0,
            1 => u64::MAX - self.below(4),
            2 => u64::MAX / 17 + self.below(3) - 1,
            3 => u32::MAX as u64 + self.below(3) - 1,
            4 => near.wrapping_add(self.below(3)).wrapping_sub(1),
            5 => 1 << self.below(64),
            _ => self.next(),
        }
    }
}

/// Seeded mutations of a real table (header fields, index entries, bytes anywhere),
/// every checksum recomputed afterwards: the decoder must answer `Ok` or `Err`,
/// never panic, overflow or allocate beyond what the file allows.
#[test]
fn mutated_tables_with_valid_checksums_never_panic() {
    let records: Vec<u16> = (0..3000u32).map(|i| (i * 7 % 300) as u16).collect();
    let meta = TableMeta {
        rules: "toy".into(),
        fingerprint: 7,
        tier: "t".into(),
        index_version: 1,
        encoding: RECORD_ENCODING,
        positions: records.len() as u64,
        extra: String::new(),
    };
    let opts = WriteOptions {
        block_records: 512,
        level: 1,
    };
    let good = encode_table(&meta, &records, &opts).unwrap();
    let (_, back) = decode_table(&good).unwrap();
    assert_eq!(back, records);
    let base = header(
        records.len() as u64,
        512,
        records.len().div_ceil(512) as u64,
    );
    let hlen = header_bytes(&base).len();
    let index_start = PREFIX + hlen + 4;
    let nblocks = base.blocks as usize;
    let index = good[index_start..index_start + ENTRY * nblocks].to_vec();
    let data = good[index_start + ENTRY * nblocks + 4..good.len() - TRAILER].to_vec();
    assert_eq!(
        forge(&base, &index, &data),
        good,
        "the mirror header is exact"
    );

    for seed in 1..=3000u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let mut h = base.clone();
        let mut index = index.clone();
        let mut data = data.clone();
        for _ in 0..1 + rng.below(3) {
            match rng.below(7) {
                0 => h.records = rng.field(h.records),
                1 => h.block_records = rng.field(h.block_records as u64) as u32,
                2 => h.blocks = rng.field(h.blocks),
                3 => {
                    // Keep the header self-consistent so the index checks are reached.
                    h.block_records = match rng.below(2) {
                        0 => 1,
                        _ => 1 + rng.below(4096) as u32,
                    };
                    h.blocks = rng.field(h.blocks);
                    h.records = match h.blocks.checked_mul(h.block_records as u64) {
                        Some(r) => r.saturating_sub(rng.below(h.block_records as u64)),
                        None => {
                            h.block_records = 1;
                            h.blocks
                        }
                    };
                }
                4 => {
                    let e = rng.below(nblocks as u64) as usize * ENTRY;
                    let v = rng.field(0);
                    match rng.below(2) {
                        0 => index[e..e + 8].copy_from_slice(&v.to_le_bytes()),
                        _ => index[e + 8..e + 12].copy_from_slice(&(v as u32).to_le_bytes()),
                    }
                }
                5 => {
                    let i = rng.below(data.len() as u64) as usize;
                    data[i] ^= 1 + rng.below(255) as u8;
                }
                _ => {
                    let n = rng.below(data.len() as u64) as usize;
                    data.truncate(n);
                }
            }
        }
        let bytes = forge(&h, &index, &data);
        let result = std::panic::catch_unwind(|| decode_table(&bytes));
        match result {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => assert!(!e.reason.is_empty(), "seed {seed}"),
            Err(_) => panic!("seed {seed}: the decoder panicked on {h:?}"),
        }
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_named_like_a_table_is_refused_not_opened() {
    let d = std::env::temp_dir().join(format!("huntsolve-fifo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let fifo = d.join("h0p3c0.hst");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let dir = d.to_str().unwrap();
    for args in [
        vec!["verify", "--tables", dir],
        vec!["analyze", "--tables", dir],
        vec!["query", "kaooa", "start", "--tables", dir],
    ] {
        let (code, _, err) = crate::harden_cli::run_within(&args, 60);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains("not a regular file"), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

/// A deleted tier table: verify and analyze refuse instead of passing with fewer
/// positions; verify --search refuses the long distances the search cannot reach.
#[test]
fn a_missing_tier_is_an_error() {
    use crate::harden_cli::run_within;
    let d = std::env::temp_dir().join(format!("huntsolve-missing-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    let dir = d.to_str().unwrap();
    let (code, _, err) = run_within(&["solve", "kaooa-6", "--out", dir], 120);
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = run_within(
        &[
            "verify",
            "--tables",
            dir,
            "--search",
            "3",
            "--max-distance",
            "4294967295",
        ],
        60,
    );
    assert_eq!(code, Some(2), "{err}");
    // Refused while the arguments are parsed: the search reaches MAX_DEPTH = 120 plies,
    // 2 past a checked distance.
    assert!(
        err.contains("for '--max-distance") && err.contains("from 0 to 118"),
        "{err}"
    );
    let mut names: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .filter_map(|e| e.unwrap().file_name().into_string().ok())
        .filter(|n| n.ends_with(".hst"))
        .collect();
    names.sort();
    assert!(names.len() >= 3, "{names:?}");
    // A tier whose parents are present (a child), and the last one (listed only in
    // summary.json when no present tier needs it).
    for victim in [&names[0], names.last().unwrap()] {
        let path = d.join(victim);
        let saved = std::fs::read(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        for cmd in ["verify", "analyze"] {
            let (code, out, err) = run_within(&[cmd, "--tables", dir], 60);
            assert_eq!(code, Some(2), "{cmd} without {victim}: {out}{err}");
            let tier = victim.trim_end_matches(".hst");
            assert!(
                err.contains("incomplete") && err.contains(tier),
                "{cmd}: {err}"
            );
        }
        std::fs::write(&path, saved).unwrap();
    }
    let (code, _, err) = run_within(&["verify", "--tables", dir], 60);
    assert_eq!(code, Some(0), "{err}");
    std::fs::remove_dir_all(&d).unwrap();
}
