//! Table benchmarks: probe latency warm (block cached) and cold (block read and
//! decoded), through `Table::get` and through the `TableOracle` of a game, and
//! block decode throughput. The uncached `load_block` path is the in-run baseline
//! a warm probe is compared with.

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use huntsolve::game::{Game, Oracle};
use huntsolve::table::{
    encode_table, table_path, write_table, write_table_with, TableMeta, TableOracle, TableSet,
    WriteOptions,
};
use huntsolve::Rng;
use huntsolve::RECORD_ENCODING;

#[path = "../tests/it/common/table.rs"]
mod table_common;

const RECORDS: usize = 4 << 20;

fn sample_records() -> Vec<u16> {
    // Shaped like solver output: runs of empty slots, many draws, short distances.
    let mut rng = Rng::new(1);
    let mut v = Vec::with_capacity(RECORDS);
    while v.len() < RECORDS {
        let run = 1 + rng.below(40);
        let r = match rng.below(4) {
            0 => 0,
            1 => 1,
            _ => 2 + rng.below(60) as u16,
        };
        v.extend(std::iter::repeat_n(r, run.min(RECORDS - v.len())));
    }
    v
}

fn bench(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("huntsolve-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let records = sample_records();
    let meta = TableMeta {
        rules: "bench".into(),
        fingerprint: 1,
        tier: "big".into(),
        index_version: 1,
        encoding: RECORD_ENCODING,
        positions: RECORDS as u64,
        extra: String::new(),
    };
    write_table(&table_path(&dir, "big"), &meta, &records).unwrap();
    let set = TableSet::new(&dir, 64 << 20).unwrap();
    let table = set.table("big").unwrap().unwrap();
    eprintln!(
        "table: {} records, {} blocks of {}, {} bytes ({:.3} bytes/record)",
        table.records(),
        table.blocks(),
        table.block_records(),
        table.file_len(),
        table.file_len() as f64 / RECORDS as f64
    );

    let mut g = c.benchmark_group("probe");
    // Warm: every block already decoded.
    for i in (0..RECORDS as u64).step_by(table.block_records() as usize) {
        table.get(i).unwrap();
    }
    let mut rng = Rng::new(7);
    g.bench_function("table_get_warm", |b| {
        b.iter(|| {
            let i = rng.below(RECORDS) as u64;
            assert_eq!(table.get(black_box(i)).unwrap(), records[i as usize]);
        })
    });
    g.bench_function("table_get_cold", |b| {
        b.iter_batched(
            || {
                set.cache().clear();
                rng.below(RECORDS) as u64
            },
            |i| table.get(i).unwrap(),
            BatchSize::SmallInput,
        )
    });
    // Cold probes by block size: the trade-off between latency and file size.
    for br in [4096u32, 16384, 65536] {
        let name = format!("b{br}");
        let mut m = meta.clone();
        m.tier = name.clone();
        let opts = WriteOptions {
            block_records: br,
            ..WriteOptions::default()
        };
        write_table_with(&table_path(&dir, &name), &m, &records, &opts).unwrap();
        let t = set.table(&name).unwrap().unwrap();
        eprintln!(
            "blocks of {br}: {} bytes ({:.3} bytes/record)",
            t.file_len(),
            t.file_len() as f64 / RECORDS as f64
        );
        g.bench_function(format!("table_get_cold_blocks_{br}"), |b| {
            b.iter_batched(
                || {
                    set.cache().clear();
                    rng.below(RECORDS) as u64
                },
                |i| t.get(i).unwrap(),
                BatchSize::SmallInput,
            )
        });
    }
    g.bench_function("load_block_uncached_baseline", |b| {
        b.iter(|| {
            let blk = rng.below(table.blocks());
            table.load_block(black_box(blk)).unwrap()
        })
    });

    // Through the oracle of a game: tier, rank, table lookup, record, decode.
    let tdir = table_common::solved_dir("bench-ttt");
    let game = table_common::TierTtt::default();
    let oracle = TableOracle::new(&game, &tdir).unwrap();
    let mut positions = Vec::new();
    let mut prng = Rng::new(3);
    for _ in 0..1000 {
        let mut pos = game.start();
        for _ in 0..prng.below(9) {
            if game.outcome(&pos).is_some() {
                break;
            }
            let mut moves = Vec::new();
            game.legal_moves(&pos, &mut moves);
            pos = game.play(&pos, moves[prng.below(moves.len())]);
        }
        positions.push(pos);
    }
    for p in &positions {
        oracle.probe(&game, p).unwrap();
    }
    let mut k = 0;
    g.bench_function("oracle_probe_warm_tictactoe", |b| {
        b.iter(|| {
            k = (k + 1) % positions.len();
            oracle.probe(&game, black_box(&positions[k])).unwrap()
        })
    });
    g.finish();

    let mut g = c.benchmark_group("decode");
    g.throughput(Throughput::Elements(RECORDS as u64));
    g.sample_size(10);
    g.bench_function("read_all_4Mi_records", |b| {
        b.iter(|| table.read_all().unwrap())
    });
    g.bench_function("encode_4Mi_records", |b| {
        b.iter(|| encode_table(&meta, &records, &WriteOptions::default()).unwrap())
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&tdir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
