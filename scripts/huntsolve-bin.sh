# Sourced by the run scripts: sets `bin` (the huntsolve binary) and `build` (its commit).
# BIN: a huntsolve binary to use instead of building this checkout (BUILD: its commit).
if [ -n "${BIN:-}" ]; then
  bin=$BIN
  build=${BUILD:-unknown}
else
  cargo build --release --quiet --bin huntsolve
  bin=target/release/huntsolve
  build="$(git rev-parse --short HEAD)$(git diff --quiet || echo +dirty)"
fi
