#!/usr/bin/env bash
# End-to-end check of `huntsolve solve --mpi` on this machine: 3 MPI processes
# (a manager and 2 workers, oversubscribed), against one-process solves.
#
#   scripts/mpi-check.sh
#
# Installs Open MPI and libclang when missing (scripts/mpi-install.sh), builds
# with `--features mpi` (dev profile), then, in a temporary directory:
# 1. solves kaooa, a 25-point-board variant (seed A rules with 4 cows, whole
#    game) and `diviyan-keliya --max-prey 3` once in one process and once under
#    `mpirun -np 3`: every table's records (examples/table_digest.rs), the
#    summary.json (without solve times and command lines) and `verify` must agree;
# 2. kills the busy worker of an MPI solve mid-tier: mpirun must fail naming the
#    unfinished tier, and a rerun must resume and end with the same records;
# 3. puts a directory where one tier's table belongs: the solve must refuse at
#    once naming the path and write nothing, and a rerun (after the fix) must
#    solve every tier to the one-process records;
# 4. starts the workers in another directory than the manager (a relative --out
#    that is not shared): the job must refuse, saying the workers cannot reach it.
# 5. solves with every tier split across the ranks (`--split-tiers`): kaooa, a
#    4-cow endgame of the 37-point mogol board (a 19.9 M-slot tier) and a Bagh-Chal
#    movement phase, each on 2 and on 3 ranks, against the one-process solves;
# 6. a per-rank --memory below the mogol tier's need: one process with the same
#    limit (full solver) refuses; workers solve whole tiers compact; 3 ranks under
#    19M choose the split solve on the compact encoding by themselves; a worker
#    under 12M goes out of core; all give the same records;
# 7. kills one rank of a split solve mid-tier: mpirun must fail with rank 0 naming
#    the unfinished tier, and a rerun must keep the finished table and end with
#    the same records.
# Ends with "mpi-check: N passed, M failed"; exits 1 when a check failed. About
# three minutes on 2 idle cores after the build.
set -uo pipefail
cd "$(dirname "$0")/.."

bash scripts/mpi-install.sh || { echo "mpi-check: installing Open MPI failed"; exit 1; }
echo "mpi-check: building with --features mpi"
timeout 1800 cargo build --quiet --features mpi --bin huntsolve --example table_digest || {
  echo "mpi-check: the build with --features mpi failed"
  exit 1
}
bin=$PWD/target/debug/huntsolve
digest=$PWD/target/debug/examples/table_digest

tmp=$(mktemp -d -t huntsolve-mpi.XXXXXX)
job=""
cleanup() {
  if [ -n "$job" ] && kill -0 "$job" 2>/dev/null; then
    kill "$job" 2>/dev/null || true
    wait "$job" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

mpi=(timeout 300 mpirun --allow-run-as-root --oversubscribe -np 3)
passed=0
failed=0
ok() {
  echo "mpi-check: ok: $*"
  passed=$((passed + 1))
}
fail() {
  echo "mpi-check: FAIL: $*"
  failed=$((failed + 1))
}

# compare SINGLE DIR LABEL [noverify]: records, summary and verify of DIR against $tmp/SINGLE.
compare() {
  local single=$tmp/$1 dir=$2 label=$3 check=${4:-verify} n
  "$digest" "$single" >"$tmp/a.digest" && "$digest" "$dir" >"$tmp/b.digest"
  n=$(wc -l <"$tmp/b.digest")
  if [ "$n" -gt 0 ] && cmp -s "$tmp/a.digest" "$tmp/b.digest"; then
    ok "$label: all $n tables hold the records of the one-process solve"
  else
    fail "$label: records differ from the one-process solve ($n tables)"
    diff "$tmp/a.digest" "$tmp/b.digest" | head -10
  fi
  if cmp -s <(grep -v -e '"seconds"' -e '"command"' "$single/summary.json") <(grep -v -e '"seconds"' -e '"command"' "$dir/summary.json"); then
    ok "$label: summary.json agrees (solve times and command lines aside)"
  else
    fail "$label: summary.json differs"
    diff <(grep -v -e '"seconds"' -e '"command"' "$single/summary.json") <(grep -v -e '"seconds"' -e '"command"' "$dir/summary.json") | head -10
  fi
  [ "$check" = noverify ] && return
  if timeout 300 "$bin" verify --tables "$dir" --threads 2 >"$tmp/verify.log" 2>&1; then
    ok "$label: verify passes"
  else
    fail "$label: verify failed"
    tail -5 "$tmp/verify.log"
  fi
}

# solve_both NAME RULES [SCOPE OPTIONS...]: one process into $tmp/NAME-single,
# MPI into $tmp/NAME, then compare.
solve_both() {
  local name=$1 rules=$2
  shift 2
  if ! timeout 300 "$bin" solve "$rules" "$@" --threads 2 --out "$tmp/$name-single" \
    >"$tmp/$name-single.log" 2>&1; then
    fail "$name: the one-process solve failed"
    tail -5 "$tmp/$name-single.log"
    return
  fi
  if "${mpi[@]}" "$bin" solve "$rules" "$@" --mpi --threads 1 --out "$tmp/$name" \
    >"$tmp/$name.log" 2>&1; then
    ok "$name: solved by 2 MPI workers ($(grep -c 'solved by rank' "$tmp/$name.log") tiers)"
  else
    fail "$name: mpirun failed"
    tail -20 "$tmp/$name.log"
    return
  fi
  compare "$name-single" "$tmp/$name" "$name"
}

# single NAME RULES [SCOPE...]: the one-process solve into $tmp/NAME-single.
single() {
  local name=$1 rules=$2
  shift 2
  timeout 300 "$bin" solve "$rules" "$@" --threads 2 --out "$tmp/$name-single" \
    >"$tmp/$name-single.log" 2>&1 || {
    fail "$name: the one-process solve failed"
    tail -5 "$tmp/$name-single.log"
  }
}

solve_both kaooa kaooa
solve_both alquerque25-4cows "diviyan-keliya,board=alquerque25,prey=4,hunter_win=captures>=4"
solve_both diviyan-keliya-max-prey-3 diviyan-keliya --max-prey 3

# 2. A worker killed mid-tier. The scope's 4 tiers form a chain whose last tier
# holds most of the slots (61 M: about 10 s of work on one thread; the 3-cow
# scope's last tier took 0.5 s on an idle machine, less than this script's
# reaction): once three tables exist, the worker using CPU is inside that tier.
single diviyan-keliya-max-prey-4 diviyan-keliya --max-prey 4
dir=$tmp/killed
"${mpi[@]}" "$bin" solve diviyan-keliya --max-prey 4 --mpi --threads 1 --out "$dir" \
  >"$tmp/killed.log" 2>&1 &
job=$!
for _ in $(seq 1 2400); do
  [ "$(find "$dir" -maxdepth 1 -name '*.hst' 2>/dev/null | wc -l)" -ge 3 ] && break
  kill -0 "$job" 2>/dev/null || break
  sleep 0.05
done
# The worker ranks: descendants of the job whose environment gives a rank other than 0.
workers=()
for p in $(pgrep -P "$job") $(for c in $(pgrep -P "$job"); do pgrep -P "$c"; done); do
  r=$(tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | sed -n 's/^OMPI_COMM_WORLD_RANK=//p')
  [ -n "$r" ] && [ "$r" != 0 ] && workers+=("$p")
done
cpu() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
declare -A before=()
for p in "${workers[@]}"; do before[$p]=$(cpu "$p"); done
sleep 0.5
victim=""
best=-1
for p in "${workers[@]}"; do
  d=$(($(cpu "$p") - ${before[$p]}))
  if [ "$d" -gt "$best" ]; then
    best=$d
    victim=$p
  fi
done
if [ -n "$victim" ]; then
  kill -9 "$victim"
  wait "$job"
  rc=$?
  job=""
  if [ "$rc" -ne 0 ] && grep -q "unfinished: h" "$tmp/killed.log"; then
    ok "killed worker: mpirun exited $rc, the manager named the unfinished tier ($(grep -o 'unfinished: [^;]*' "$tmp/killed.log"))"
  else
    fail "killed worker: mpirun exited $rc without naming the unfinished tier"
    tail -20 "$tmp/killed.log"
  fi
  if "${mpi[@]}" "$bin" solve diviyan-keliya --max-prey 4 --mpi --threads 1 --out "$dir" \
    >"$tmp/rerun.log" 2>&1 && grep -q "[1-9][0-9]* kept from disk" "$tmp/rerun.log"; then
    ok "killed worker: the rerun resumed ($(grep -o '[0-9]* solved, [0-9]* kept from disk' "$tmp/rerun.log"))"
    compare diviyan-keliya-max-prey-4-single "$dir" "killed worker, rerun"
  else
    fail "killed worker: the rerun did not resume"
    tail -20 "$tmp/rerun.log"
  fi
else
  wait "$job"
  job=""
  fail "killed worker: found no worker process to kill (the job had ended?)"
  tail -20 "$tmp/killed.log"
fi

# 3. A directory where a tier's table belongs: the solve refuses at once, naming
#    the path (a table is never replaced by, nor written over, what is not a
#    regular file), and writes nothing; once it is gone the rerun solves every
#    tier to the one-process records.
dir=$tmp/unwritable
mkdir -p "$dir/h1p7c0.hst"
if "${mpi[@]}" "$bin" solve kaooa --mpi --threads 1 --out "$dir" >"$tmp/unwritable.log" 2>&1; then
  fail "unwritable table: the job succeeded"
elif grep -q "h1p7c0.hst: not a regular file" "$tmp/unwritable.log" &&
  [ "$(find "$dir" -maxdepth 1 -name '*.hst' -type f | wc -l)" -eq 0 ]; then
  ok "unwritable table: refused at once naming the path, exit non-zero, no table written"
else
  fail "unwritable table: no error naming $dir/h1p7c0.hst, or tables written"
  tail -20 "$tmp/unwritable.log"
fi
rmdir "$dir/h1p7c0.hst"
if "${mpi[@]}" "$bin" solve kaooa --mpi --threads 1 --out "$dir" >"$tmp/unwritable2.log" 2>&1 &&
  grep -q "52 solved, 0 kept from disk\|52 to solve" "$tmp/unwritable2.log"; then
  ok "unwritable table: the rerun solved every tier"
  compare kaooa-single "$dir" "unwritable table, rerun"
else
  fail "unwritable table: the rerun did not solve as expected"
  tail -20 "$tmp/unwritable2.log"
fi

# 4. Workers that do not see the manager's directory (relative --out, other working directory).
mkdir -p "$tmp/manager" "$tmp/workers"
if timeout 300 mpirun --allow-run-as-root --oversubscribe -np 1 -wdir "$tmp/manager" \
  "$bin" solve kaooa --mpi --out shared : -np 2 -wdir "$tmp/workers" \
  "$bin" solve kaooa --mpi --out shared >"$tmp/unshared.log" 2>&1; then
  fail "unshared directory: the job succeeded"
elif grep -q "cannot reach the shared output directory" "$tmp/unshared.log"; then
  ok "unshared directory: refused, the workers say they cannot reach it"
else
  fail "unshared directory: no clear message"
  tail -20 "$tmp/unshared.log"
fi

# 5. Every tier split across the ranks.
# split_both NAME NP CHECK RULES [SCOPE...]: a split solve on NP ranks into
# $tmp/NAME-splitNP, compared with $tmp/NAME-single (CHECK: verify or noverify).
split_both() {
  local name=$1 np=$2 check=$3 rules=$4 dir=$tmp/$1-split$2
  shift 4
  if timeout 600 mpirun --allow-run-as-root --oversubscribe -np "$np" "$bin" solve "$rules" "$@" \
    --mpi --split-tiers --threads 1 --out "$dir" >"$dir.log" 2>&1; then
    ok "$name: every tier split across $np ranks ($(grep -c 'solved split' "$dir.log") tiers; $(grep -o 'memory per rank ≈ [^ ]* [^ ]*' "$dir.log"))"
  else
    fail "$name: the split solve on $np ranks failed"
    tail -20 "$dir.log"
    return
  fi
  compare "$name-single" "$dir" "$name split across $np ranks" "$check"
}
mogol="cows-leopards-mogol,hunter_win=captures>=22"
bagh="bagh-chal,prey=3,hunter_win=captures>=2"
single mogol4 "$mogol" --max-prey 4
single bagh-movement "$bagh" --phase movement
split_both kaooa 2 verify kaooa
split_both kaooa 3 noverify kaooa
split_both mogol4 2 noverify "$mogol" --max-prey 4
split_both mogol4 3 verify "$mogol" --max-prey 4
split_both bagh-movement 2 noverify "$bagh" --phase movement
split_both bagh-movement 3 verify "$bagh" --phase movement

# 6. A per-rank memory limit below the largest tier's need with the full solver
# (about 124 MB whole, 58 MB a rank in 3 parts).
if timeout 300 "$bin" solve "$mogol" --max-prey 4 --memory 90M --compact never --threads 2 \
  --out "$tmp/limit-single" >"$tmp/limit-single.log" 2>&1; then
  fail "memory limit: one process solved under --memory 90M with the full solver"
elif grep -q "not enough memory" "$tmp/limit-single.log"; then
  ok "memory limit: one process refuses under --memory 90M ($(grep -o 'needs about [^ ]* [^ ]*' "$tmp/limit-single.log" | head -1))"
else
  fail "memory limit: one process failed without saying it lacks memory"
  tail -5 "$tmp/limit-single.log"
fi
# Under that limit whole tiers still fit a worker with the compact solver
# (about 24 MiB): the workers solve them compact, as one process would, and no
# tier is split (a split share is 6 + 2 bytes a slot: more than compact's 2).
dir=$tmp/limit-compact3
if timeout 600 mpirun --allow-run-as-root --oversubscribe -np 3 "$bin" solve "$mogol" --max-prey 4 \
  --mpi --memory 90M --threads 1 --out "$dir" >"$dir.log" 2>&1 &&
  ! grep -q "does not fit --memory whole" "$dir.log"; then
  ok "memory limit: 3 ranks under --memory 90M each solved whole tiers compact ($(grep -o 'memory per worker ≈ .*sparse' "$dir.log" | head -1))"
  compare mogol4-single "$dir" "memory limit, workers compact" noverify
else
  fail "memory limit: the 3-rank job under --memory 90M did not solve whole tiers compact"
  tail -20 "$dir.log"
fi
# Below even the compact solver's need with children sparse (about 19.4 MiB),
# 3 ranks' shares on the compact encoding (two bytes a slot of a third of the
# tier, the children sparse: about 14 MB each) fit: the split solve is chosen,
# on the compact encoding (the full split solver needed 12 ranks here).
dir=$tmp/limit-split3
if timeout 600 mpirun --allow-run-as-root --oversubscribe -np 3 "$bin" solve "$mogol" --max-prey 4 \
  --mpi --memory 19M --threads 1 --out "$dir" >"$dir.log" 2>&1 &&
  grep -q "does not fit --memory whole" "$dir.log" &&
  grep -q "solved split on the compact encoding" "$dir.log"; then
  ok "memory limit: 3 ranks under --memory 19M each chose the split solve on the compact encoding ($(grep -o 'memory per rank ≈ [^ ]* [^ ]*' "$dir.log"))"
  compare mogol4-single "$dir" "memory limit, split across 3 ranks" noverify
else
  fail "memory limit: the 3-rank job under --memory 19M did not split on the compact encoding and succeed"
  tail -20 "$dir.log"
fi

# Below the compact need and with 2 ranks (one worker: nothing to split), the
# worker solves the largest tier out of core (parts on disk), same records.
dir=$tmp/limit-ooc2
if timeout 600 mpirun --allow-run-as-root --oversubscribe -np 2 "$bin" solve "$mogol" --max-prey 4 \
  --mpi --memory 12M --threads 1 --out "$dir" >"$dir.log" 2>&1 &&
  grep -q "out of core" "$dir.log"; then
  ok "memory limit: a worker under --memory 12M solved the largest tier out of core"
  compare mogol4-single "$dir" "memory limit, out of core on a worker" noverify
  leftover=$(find "$dir" -name '*.ooc' | head -1)
  [ -z "$leftover" ] && ok "out of core on a worker: no part directory left" ||
    fail "out of core on a worker left $leftover"
else
  fail "memory limit: the 2-rank job under --memory 12M did not go out of core and succeed"
  tail -20 "$dir.log"
fi

# A --compact choice other than auto is not carried to the workers: refused, exit 2.
code=0
mpirun --allow-run-as-root --oversubscribe -np 2 "$bin" solve "$mogol" --max-prey 4 --mpi \
  --compact never --out "$tmp/compact-never" >"$tmp/compact-never.log" 2>&1 || code=$?
if [ "$code" = 2 ] && grep -q "with --mpi: MPI workers choose" "$tmp/compact-never.log"; then
  ok "--compact never with --mpi is refused (exit 2), not ignored"
else
  fail "--compact never with --mpi: exit $code, not a clear refusal"
  tail -5 "$tmp/compact-never.log"
fi

# 7. One rank of a split solve killed mid-tier: the 3-cow tier (2.5 M slots) is
# solved first, then the 4-cow tier (19.9 M slots, seconds of work on every rank).
dir=$tmp/split-killed
mpirun --allow-run-as-root --oversubscribe -np 3 "$bin" solve "$mogol" --max-prey 4 --mpi \
  --split-tiers --threads 1 --out "$dir" >"$tmp/split-killed.log" 2>&1 &
job=$!
for _ in $(seq 1 1200); do
  [ "$(find "$dir" -maxdepth 1 -name '*.hst' 2>/dev/null | wc -l)" -ge 1 ] && break
  kill -0 "$job" 2>/dev/null || break
  sleep 0.05
done
# At once: on an idle machine the 4-cow tier takes about 2 s across the ranks.
sleep 0.2
victim=""
for p in $(pgrep -P "$job") $(for c in $(pgrep -P "$job"); do pgrep -P "$c"; done); do
  r=$(tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | sed -n 's/^OMPI_COMM_WORLD_RANK=//p')
  [ "$r" = 2 ] && victim=$p
done
if [ -n "$victim" ] && kill -0 "$job" 2>/dev/null; then
  kill -9 "$victim"
  wait "$job"
  rc=$?
  job=""
  # mpirun may return before the surviving ranks are gone (rank 0 ends itself at most 2 s
  # after the stop): wait for them, so that the rerun finds the directory unlocked.
  for _ in $(seq 1 100); do
    pgrep -f -- "--out $dir" >/dev/null || break
    sleep 0.1
  done
  # Rank 0 names the unfinished tier when the stop reaches it, but mpirun may kill
  # it or stop forwarding its output first (a race on a loaded machine): the rerun
  # names it from the mark the killed run left in the directory, always.
  named_by_run=no
  grep -q "unfinished: h0p0c20 (split)" "$tmp/split-killed.log" && named_by_run=yes
  if [ "$rc" -ne 0 ]; then
    ok "split solve, killed rank: mpirun exited $rc (rank 0's own notice forwarded: $named_by_run)"
  else
    fail "split solve, killed rank: mpirun exited 0 after a rank was killed"
    tail -20 "$tmp/split-killed.log"
  fi
  if [ -e "$dir/h0p0c20.hst" ]; then
    fail "split solve, killed rank: the killed tier's table exists"
  fi
  if timeout 600 mpirun --allow-run-as-root --oversubscribe -np 3 "$bin" solve "$mogol" --max-prey 4 \
    --mpi --split-tiers --threads 1 --out "$dir" >"$tmp/split-rerun.log" 2>&1 &&
    grep -q "1 kept from disk, 1 to solve" "$tmp/split-rerun.log" &&
    grep -q "ended with tier h0p0c20 unfinished: h0p0c20 (split)" "$tmp/split-rerun.log"; then
    ok "split solve, killed rank: the rerun named the unfinished tier, kept the finished one and solved the other"
    if [ -e "$dir/.split-unfinished" ]; then
      fail "split solve, killed rank: the finished rerun left its unfinished-tier mark"
    fi
    compare mogol4-single "$dir" "split solve, killed rank, rerun" noverify
  else
    fail "split solve, killed rank: the rerun did not resume as expected"
    tail -20 "$tmp/split-rerun.log"
  fi
else
  [ -n "$job" ] && wait "$job"
  job=""
  fail "split solve, killed rank: found no running rank 2 to kill (the job had ended?)"
  tail -20 "$tmp/split-killed.log"
fi

echo "mpi-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
