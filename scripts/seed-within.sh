#!/usr/bin/env bash
# Bounded claims from a start position: `prove RULES --within D --side S --save`,
# then `check-proof` of the certificate, one TSV line per claim.
#
#   scripts/seed-within.sh RESULTS_TSV CERT_DIR RULES SIDE D [D...]
#
# e.g. scripts/seed-within.sh results/seed-values/within.tsv results/seed-values/within \
#        caikaboroda defenders 5 7
# Columns: rules, side, within, claim, positions searched, positions kept, search s, cert
# nodes, cert bytes, sha256, check-proof exit, check s, peak RSS kB, load at start and end,
# build, UTC time. A certificate over 10 MB is kept in CERT_DIR/large/ (git-ignored by
# being re-created in seconds by the same command). BIN/BUILD: scripts/huntsolve-bin.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
tsv="$1" dir="$2" rules="$3" side="$4"
shift 4
source scripts/huntsolve-bin.sh
mkdir -p "$(dirname "$tsv")" "$dir"
[ -s "$tsv" ] || printf 'rules\tside\twithin\tclaim\tsearched\tkept\tsearch_s\tcert_nodes\tcert_bytes\tsha256\tcheck_exit\tcheck_s\tpeak_rss_kb\tload_start\tload_end\tbuild\tutc\n' >"$tsv"
for d in "$@"; do
  name="$(echo "$rules" | sed "s/,/_/g; s/>=/-ge-/g; s/=/-/g").$side.within$d.proof"
  cert="$dir/$name"
  load0=$(cut -d' ' -f1 /proc/loadavg)
  utc=$(date -u +%FT%TZ)
  json=$(mktemp)
  /usr/bin/time -f '%M' -o "$json.time" "$bin" prove "$rules" --within "$d" --side "$side" \
    --hash "${HASH:-8192}" --time "${TIME:-1800}" --save "$cert" --json >"$json"
  start=$(date +%s.%N)
  set +e
  "$bin" check-proof "$cert" >"$json.check" 2>&1
  code=$?
  set -e
  check_s=$(echo "$(date +%s.%N) - $start" | bc)
  bytes=$(stat -c %s "$cert" 2>/dev/null || echo 0)
  sha=$( (sha256sum "$cert" 2>/dev/null || true) | cut -d" " -f1)
  if [ "$bytes" -gt 10000000 ]; then
    mkdir -p "$dir/large"
    mv "$cert" "$dir/large/"
  fi
  load1=$(cut -d' ' -f1 /proc/loadavg)
  python3 - "$json" "$rules" "$side" "$d" "$bytes" "$sha" "$code" "$check_s" "$(cat "$json.time")" \
    "$load0" "$load1" "$build" "$utc" >>"$tsv" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
rules, side, d, nbytes, sha, code, check_s, rss, load0, load1, build, utc = sys.argv[2:]
c = o["claims"][0]
cert = c.get("certificate") or {}
print("\t".join(str(x) for x in [rules, side, d, c["claim"], c["nodes"], c["positions"],
      f'{c["seconds"]:.2f}', cert.get("nodes", 0), nbytes, sha, code, f"{float(check_s):.2f}",
      rss, load0, load1, build, utc]))
PY
  rm -f "$json" "$json.time" "$json.check"
  tail -1 "$tsv"
done
