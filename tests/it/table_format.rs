//! Table file format: round trips, one distinct error per corruption kind, and
//! truncation / bit-flip sweeps that must give errors, never panics.

use huntsolve::table::{
    decode_table, table_path, write_table, write_table_with, Table, TableMeta, WriteOptions,
};
use huntsolve::Error;
use huntsolve::Rng;
use huntsolve::RECORD_ENCODING;
use std::path::{Path, PathBuf};

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("huntsolve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn meta(tier: &str) -> TableMeta {
    TableMeta {
        rules: "tictactoe".into(),
        fingerprint: 0x1234_5678_9abc_def0,
        tier: tier.into(),
        index_version: 3,
        encoding: RECORD_ENCODING,
        positions: 777,
        extra: r#"{"wins":5}"#.into(),
    }
}

/// Records shaped like real ones: mostly small values, some large distances.
fn records(n: usize, seed: u64) -> Vec<u16> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| match rng.below(10) {
            0 => rng.below(65536) as u16,
            1..=3 => 0,
            _ => rng.below(40) as u16,
        })
        .collect()
}

fn reason(e: Error) -> String {
    match e {
        Error::Table { reason, .. } => reason,
        other => panic!("expected a table error, got {other}"),
    }
}

fn small_opts() -> WriteOptions {
    WriteOptions {
        block_records: 100,
        ..WriteOptions::default()
    }
}

#[test]
fn round_trip_various_sizes() {
    let dir = tmpdir("rt");
    for (n, br) in [
        (0usize, 7u32),
        (1, 7),
        (7, 7),
        (8, 7),
        (1000, 64),
        (70_000, 16_384),
    ] {
        let recs = records(n, n as u64);
        let path = table_path(&dir, &format!("t{n}"));
        let opts = WriteOptions {
            block_records: br,
            ..WriteOptions::default()
        };
        write_table_with(&path, &meta("t"), &recs, &opts).unwrap();
        let t = Table::open(&path).unwrap();
        assert_eq!(t.meta(), &meta("t"));
        assert_eq!(t.records(), n as u64);
        assert_eq!(t.read_all().unwrap(), recs);
        for (i, &r) in recs.iter().enumerate() {
            assert_eq!(t.get(i as u64).unwrap(), r, "n={n} i={i}");
        }
        let e = reason(t.get(n as u64).unwrap_err());
        assert!(e.contains("out of range"), "{e}");
    }
    // No temporary files are left behind.
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(name.ends_with(".hst"), "stray file {name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn table_path_layout() {
    assert_eq!(
        table_path(Path::new("/x/y"), "h0p3c2"),
        PathBuf::from("/x/y/h0p3c2.hst")
    );
}

#[test]
fn writer_rejects_bad_input() {
    let dir = tmpdir("wr");
    let mut m = meta("t");
    m.encoding = RECORD_ENCODING + 1;
    assert!(write_table(&dir.join("a.hst"), &m, &[1, 2]).is_err());
    let mut m = meta("t");
    m.extra = "{not json".into();
    assert!(write_table(&dir.join("b.hst"), &m, &[1, 2]).is_err());
    let zero = WriteOptions {
        block_records: 0,
        ..WriteOptions::default()
    };
    assert!(write_table_with(&dir.join("c.hst"), &meta("t"), &[1], &zero).is_err());
    assert!(!dir.join("a.hst").exists() && !dir.join("b.hst").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Writes a table and returns its bytes.
fn sample_bytes(dir: &Path) -> (PathBuf, Vec<u8>, Vec<u16>) {
    let recs = records(450, 9);
    let path = dir.join("s.hst");
    write_table_with(&path, &meta("s"), &recs, &small_opts()).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    (path, bytes, recs)
}

/// Opens `bytes` as a file and reads everything: the error reason.
fn open_and_read(path: &Path, bytes: &[u8]) -> Result<Vec<u16>, String> {
    std::fs::write(path, bytes).unwrap();
    let t = Table::open(path).map_err(reason)?;
    t.read_all().map_err(reason)
}

fn header_len(bytes: &[u8]) -> usize {
    u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize
}

#[test]
fn each_corruption_has_its_own_error() {
    let dir = tmpdir("corrupt");
    let (_, good, recs) = sample_bytes(&dir);
    let p = dir.join("c.hst");
    assert_eq!(open_and_read(&p, &good).unwrap(), recs);

    let mut b = good.clone();
    b[0] ^= 1;
    assert!(open_and_read(&p, &b).unwrap_err().contains("bad magic"));

    let mut b = good.clone();
    b[8] = 9;
    let e = open_and_read(&p, &b).unwrap_err();
    assert!(e.contains("unsupported format version 9"), "{e}");

    let mut b = good.clone();
    b[20] ^= 0x40; // inside the header
    assert!(open_and_read(&p, &b)
        .unwrap_err()
        .contains("header checksum mismatch"));

    let idx = 20 + header_len(&good);
    let mut b = good.clone();
    b[idx + 3] ^= 2; // inside the block index
    assert!(open_and_read(&p, &b)
        .unwrap_err()
        .contains("block index checksum mismatch"));

    let data = idx + 16 * 5 + 4; // 450 records in blocks of 100: 5 blocks
    let mut b = good.clone();
    b[data + 5] ^= 0x10;
    let e = open_and_read(&p, &b).unwrap_err();
    assert!(e.contains("block 0 checksum mismatch"), "{e}");
    // A lazily read block reports the corruption on get, not on open.
    std::fs::write(&p, &b).unwrap();
    let t = Table::open(&p).unwrap();
    assert_eq!(t.get(120).unwrap(), recs[120]);
    assert!(reason(t.get(3).unwrap_err()).contains("block 0 checksum mismatch"));

    let n = good.len();
    let mut b = good.clone();
    b[n - 10] ^= 1; // the file checksum itself
    assert!(open_and_read(&p, &b)
        .unwrap_err()
        .contains("file checksum mismatch"));

    let mut b = good.clone();
    b[n - 1] ^= 1;
    assert!(open_and_read(&p, &b)
        .unwrap_err()
        .contains("bad end marker"));

    let e = open_and_read(&p, &good[..n - 1]).unwrap_err();
    assert!(e.contains("truncated"), "{e}");
    let mut b = good.clone();
    b.push(0);
    assert!(open_and_read(&p, &b)
        .unwrap_err()
        .contains("unexpected bytes"));
    assert!(open_and_read(&p, &good[..10])
        .unwrap_err()
        .contains("truncated"));

    let e = reason(Table::open(&dir.join("missing.hst")).unwrap_err());
    assert!(e.contains("no such file"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn wrong_rules_are_refused() {
    let dir = tmpdir("rules");
    let (path, _, _) = sample_bytes(&dir);
    let t = Table::open(&path).unwrap();
    t.check_rules("tictactoe", 0x1234_5678_9abc_def0).unwrap();
    let e = reason(t.check_rules("tictactoe", 1).unwrap_err());
    assert!(e.contains("wrong rules"), "{e}");
    assert!(t.check_rules("kaooa", 0x1234_5678_9abc_def0).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_truncation_is_an_error() {
    let dir = tmpdir("trunc");
    let (_, good, _) = sample_bytes(&dir);
    let p = dir.join("t.hst");
    for len in 0..good.len() {
        assert!(decode_table(&good[..len]).is_err(), "length {len}");
        assert!(open_and_read(&p, &good[..len]).is_err(), "length {len}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_bit_flip_is_an_error() {
    let dir = tmpdir("flip");
    let (_, good, recs) = sample_bytes(&dir);
    assert_eq!(decode_table(&good).unwrap().1, recs);
    let p = dir.join("f.hst");
    let mut b = good.clone();
    for byte in 0..good.len() {
        for bit in 0..8 {
            b[byte] ^= 1 << bit;
            assert!(decode_table(&b).is_err(), "flip byte {byte} bit {bit}");
            // The file path is slower: sample it.
            if bit == byte % 8 {
                assert!(open_and_read(&p, &b).is_err(), "file flip byte {byte}");
            }
            b[byte] ^= 1 << bit;
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn random_garbage_never_panics() {
    let mut rng = Rng::new(42);
    let dir = tmpdir("garbage");
    let (_, good, _) = sample_bytes(&dir);
    for round in 0..3000 {
        // Keep a valid prefix of random length so the parser gets past the magic.
        let keep = rng.below(good.len());
        let mut b = good[..keep].to_vec();
        let extra = rng.below(200);
        b.extend((0..extra).map(|_| rng.below(256) as u8));
        if round % 2 == 0 && b.len() > 16 {
            // Plausible header lengths and counts exercise the bounds checks.
            let at = rng.below(b.len() - 4);
            let v = rng.below(1 << 20) as u32;
            b[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
        let _ = decode_table(&b);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
