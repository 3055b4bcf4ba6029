#!/usr/bin/env bash
# Same-run rounds of the out-of-core bench (results/retro-speed.md): per round, each variant once,
# in the order given; prints the counted and out-of-core wall and CPU seconds, bytes written and
# whether the records equal the stored table. TABLES: a directory with the solved tier (default
# tables/mogol4); TIER: the tier (default h0p0c20).
# usage: scripts/retro-speed-rounds.sh OUTLOG ROUNDS "name|binary|ENV=value ..." ...
echo 10 > /proc/self/autogroup
out=$1; reps=$2; shift 2
TABLES=${TABLES:-tables/mogol4}
for r in $(seq 1 $reps); do
  for v in "$@"; do
    IFS='|' read -r name bin envs <<<"$v"
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    res=$(env $envs nice -n 10 $bin bench --retro cows-leopards-mogol --tiers ${TIER:-h0p0c20} --tables $TABLES --no-baseline --out-of-core 3 --threads 1 2>/dev/null)
    cnt=$(echo "$res" | awk '$2=="counted" {print $5, $6}')
    ooc=$(echo "$res" | awk '$2 ~ /out-of-core|ooc/ {print $5, $6}')
    ratio=$(echo "$res" | grep -o '[0-9.]*x the counted compact solver.s wall' | cut -dx -f1)
    disk=$(echo "$res" | grep -o '[0-9]* bytes written to disk ([0-9.]* a slot)')
    same=$(echo "$res" | grep -c 'records identical across all runs and equal')
    echo "rep=$r var=$name load=[$load] counted=[$cnt] ooc=[$ooc] ratio=$ratio disk=[$disk] same=$same" | tee -a $out
    echo "$res" >> $out.raw
  done
done
