#!/usr/bin/env bash
# The house rules of src/ (docs/architecture.md, "House rules"): no file over 700 lines of
# non-test code, no file circles, at most 200 `pub fn`. Prints what it measured; exits 1
# naming each violation. How each rule is measured: the header of scripts/house-check.py.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/house-check.py "$@"
