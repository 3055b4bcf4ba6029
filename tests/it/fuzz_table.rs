//! Fuzz target `table`: table files. The seeds are a tic-tac-toe table set
//! written at test time (ten tiers, blocks of 1000 records) and the committed
//! tables of `tests/data/fuzz/table/` (tiers of the same game). One tier's file
//! of a copy of the set is damaged in one of three ways:
//! - bytes mutated as they are (checksums then mostly refuse it);
//! - bytes mutated in place and every checksum resealed (header, block index,
//!   blocks, file), so the parsers behind the checksums see the damage;
//! - records changed and the file written again with valid checksums.
//!
//! Then `decode_table`, `Table::open` and its reads, `TableOracle` probes and
//! `verify_dir_scoped` on that tier: never a panic, and never a wrong record
//! reported as fine: when the file reads as records other than the solver's,
//! verification does not say that every record agrees.

use super::{case, corpus_files, iters, tmpdir, Mutator};
use crate::common::table::{meta, solved_dir, TierTtt};
use huntsolve::table::{
    decode_table, encode_table, table_path, verify_dir_scoped, Table, TableOracle, VerifyScope,
    WriteOptions,
};
use huntsolve::{encode, Game, NoProgress, TierGame, Value, REC_NONE};
use std::path::Path;

const DICT: &[&str] = &[
    "HSTABLE\u{1a}",
    "HSTEND\r\n",
    "\u{1}\u{0}\u{0}\u{0}",
    "p9",
    "{}",
    "\u{fb}",
];

/// The checksums of `b` recomputed at the offsets of the original file's layout
/// (`hlen` header bytes, `blocks` = (offset, length) of each block).
fn reseal(b: &mut [u8], hlen: usize, blocks: &[(u64, u32)]) {
    let end = b.len();
    let crc = crc32fast::hash(&b[..16 + hlen]);
    b[16 + hlen..20 + hlen].copy_from_slice(&crc.to_le_bytes());
    let index = 20 + hlen;
    for (k, &(off, len)) in blocks.iter().enumerate() {
        let (off, len) = (off as usize, len as usize);
        if off + len <= end {
            let crc = crc32fast::hash(&b[off..off + len]);
            let at = index + 16 * k + 12;
            b[at..at + 4].copy_from_slice(&crc.to_le_bytes());
        }
    }
    let iend = index + 16 * blocks.len();
    let crc = crc32fast::hash(&b[index..iend]);
    b[iend..iend + 4].copy_from_slice(&crc.to_le_bytes());
    let crc = crc32fast::hash(&b[..end - 12]);
    b[end - 12..end - 8].copy_from_slice(&crc.to_le_bytes());
}

/// Every reader on a damaged tier file `name` in `dir` whose intact records
/// are `good`.
fn readers(
    g: &TierTtt,
    dir: &Path,
    tier: u8,
    good: &[u16],
    bytes: &[u8],
    rng: &mut huntsolve::Rng,
) {
    let name = g.tier_name(tier);
    let path = table_path(dir, &name);
    let decoded = decode_table(bytes).ok().map(|(_, r)| r);
    let mut read = None;
    if let Ok(t) = Table::open(&path) {
        let _ = (t.meta(), t.blocks(), t.block_records(), t.file_len());
        let _ = t.check_rules(&g.rules_string(), g.fingerprint());
        let n = t.records();
        for i in [
            0,
            n.saturating_sub(1),
            n,
            n.saturating_add(1),
            u64::MAX,
            rng.next_u64() % n.saturating_add(1),
        ] {
            let _ = t.get(i);
        }
        for b in [0, t.blocks().saturating_sub(1), t.blocks(), usize::MAX] {
            let _ = t.load_block(b);
        }
        read = t.read_all().ok();
        if let (Some(a), Some(b)) = (&read, &decoded) {
            assert!(a == b, "read_all and decode_table disagree");
        }
    }
    if let Ok(o) = TableOracle::new(g, dir) {
        let mut pos_rng = huntsolve::Rng::new(rng.next_u64());
        for p in super::random_positions(g, &mut pos_rng, 8) {
            let _ = o.try_probe(&p);
            let _ = o.record(&p);
        }
        let _ = o.take_error();
    }
    let scope = VerifyScope {
        full: Some(vec![name.clone()]),
        sample: None,
    };
    if let Ok(report) = verify_dir_scoped(g, dir, 1 << 20, None, &scope, &NoProgress) {
        let records = read.or(decoded);
        if let Some(r) = records {
            assert!(
                r == good || !report.all_agree(),
                "tier {name}: records changed ({} of {}), yet verify says every record agrees",
                r.iter().zip(good).filter(|(a, b)| a != b).count(),
                r.len()
            );
        }
    }
}

#[test]
fn fuzz_table_files() {
    let g = TierTtt::default();
    let dir = solved_dir("fuzz-table");
    let work = tmpdir("table-work");
    for t in 0..=9u8 {
        let p = table_path(&dir, &g.tier_name(t));
        std::fs::copy(&p, table_path(&work, &g.tier_name(t))).unwrap();
    }
    // Per tier: the file's bytes, its records, header length and block geometry.
    let mut tiers = Vec::new();
    for t in 0..=9u8 {
        let bytes = std::fs::read(table_path(&dir, &g.tier_name(t))).unwrap();
        let (layout, records) = decode_table(&bytes).unwrap();
        let hlen = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
        let blocks: Vec<(u64, u32)> = layout.blocks.iter().map(|b| (b.offset, b.length)).collect();
        tiers.push((t, bytes, records, hlen, blocks));
    }
    // Committed seeds: tables of tiers of the same game, named `p<tier>.hst`.
    let mut seeds: Vec<(u8, Vec<u8>)> = Vec::new();
    for (name, bytes) in corpus_files("table") {
        let t: u8 = name
            .trim_start_matches('p')
            .trim_end_matches(".hst")
            .parse()
            .unwrap();
        let (_, recs) = decode_table(&bytes).unwrap_or_else(|e| panic!("seed {name}: {e}"));
        assert!(
            recs == tiers[t as usize].2,
            "seed {name}: not the solver's records"
        );
        seeds.push((t, bytes));
    }
    let all: Vec<Vec<u8>> = tiers.iter().map(|t| t.1.clone()).collect();
    let mut m = Mutator::new("table", DICT);
    for i in 0..iters(800) {
        let (tier, bytes, good, hlen, blocks) = &tiers[m.below(tiers.len())];
        let tier = *tier;
        let damaged = match i % 3 {
            0 => {
                let base = match m.below(3) {
                    0 if !seeds.is_empty() => {
                        let (t, b) = m.pick(&seeds).clone();
                        // a committed seed stands in for its own tier
                        if t == tier {
                            b
                        } else {
                            bytes.clone()
                        }
                    }
                    _ => bytes.clone(),
                };
                m.mutate(&base, &all)
            }
            1 => {
                // in place, resealed: the header, the index or a block
                let len = bytes.len();
                let at = match m.below(3) {
                    0 => 16..16 + hlen,
                    1 => 20 + hlen..20 + hlen + 16 * blocks.len(),
                    _ => 24 + hlen + 16 * blocks.len()..len - 12,
                };
                let mut b = m.overwrite(bytes, at);
                reseal(&mut b, *hlen, blocks);
                b
            }
            _ => {
                // records changed, file rewritten with valid checksums
                let mut recs = good.clone();
                for _ in 0..1 + m.below(3) {
                    let k = m.below(recs.len());
                    let new = match m.below(4) {
                        0 => REC_NONE,
                        1 => m.rng.next_u64() as u16,
                        _ => {
                            let v = *m.pick(&[Value::Win, Value::Loss, Value::Draw]);
                            encode(v, m.below(12) as u32)
                        }
                    };
                    recs[k] = new;
                }
                let opts = WriteOptions {
                    block_records: 1000,
                    ..WriteOptions::default()
                };
                match encode_table(&meta(&g, tier), &recs, &opts) {
                    Ok(b) => b,
                    Err(_) => continue,
                }
            }
        };
        let path = table_path(&work, &g.tier_name(tier));
        std::fs::write(&path, &damaged).unwrap();
        let mut rng = huntsolve::Rng::new(i);
        case("table", i, &damaged, || {
            readers(&g, &work, tier, good, &damaged, &mut rng)
        });
        std::fs::write(&path, bytes).unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&work);
}
