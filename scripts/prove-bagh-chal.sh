#!/usr/bin/env bash
# Bagh-Chal from the empty board by df-pn, backed by end-of-placement tables: the two
# one-sided runs ("the tigers force a win", "the goats force a win"), each saved as a
# certificate and re-checked by `check-proof`.
#
#   [TIME_LIMIT=S] scripts/prove-bagh-chal.sh N [WHOLE_DIR] [THREADS] [HASH_MIB]
#
# The leaves are the tables of every tier with at most N goats in hand, hard-linked from
# WHOLE_DIR (default tables/bagh-chal-whole, made by scripts/solve-bagh-chal.sh, or by
# `huntsolve solve bagh-chal --max-in-hand N`) into tables/bagh-chal-leaves-N; the
# prover sees no other table. Certificates and JSON reports go to
# tables/bagh-chal-leaves-N/ (certificates can be large); a short log to
# results/proofs/bagh-chal-leaves-N.log.
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:?usage: scripts/prove-bagh-chal.sh N [WHOLE_DIR] [THREADS] [HASH_MIB]}"
whole="${2:-tables/bagh-chal-whole}"
threads="${3:-$(nproc)}"
hash="${4:-4096}"
leaves="tables/bagh-chal-leaves-$n"
log="results/proofs/bagh-chal-leaves-$n.log"
cargo build --release --quiet --bin huntsolve
bin=target/release/huntsolve
mkdir -p "$leaves" results/proofs
count=0
for f in "$whole"/h0p*c*.hst; do
  t="$(basename "$f" .hst)"
  p="${t#h0p}"
  p="${p%%c*}"
  if [ "$p" -le "$n" ]; then
    ln -f "$f" "$leaves/$t.hst"
    count=$((count + 1))
  fi
done
echo "bagh-chal start, leaves: $count tables with at most $n goats in hand ($(date -u +%FT%TZ)); load $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$log"
for side in hunter prey; do
  cert="$leaves/start.$side.proof"
  echo "prove --side $side:" | tee -a "$log"
  rm -f "$cert" # an unknown result writes none: never re-check an older run's certificate
  set +e
  /usr/bin/time -v -o "$leaves/time-$side.log" "$bin" prove bagh-chal start --side "$side" \
    --tables "$leaves" --threads "$threads" --hash "$hash" ${TIME_LIMIT:+--time "$TIME_LIMIT"} \
    --save "$cert" --json \
    >"$leaves/start.$side.json"
  status=$?
  set -e
  cat "$leaves/start.$side.json" | tee -a "$log"
  grep -E 'Maximum resident|Elapsed|User time' "$leaves/time-$side.log" | tee -a "$log"
  if [ "$status" -eq 0 ] && [ -f "$cert" ]; then
    echo "check-proof $cert ($(stat -c %s "$cert") bytes):" | tee -a "$log"
    "$bin" check-proof "$cert" --tables "$leaves" --json | tee -a "$log"
  fi
done
