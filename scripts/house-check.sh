#!/usr/bin/env bash
# The house rules of src/ (docs/architecture.md, "House rules"): no file over 1,200 lines of
# non-test code (a ceiling, not a target), no file circles. First the checker's own tests
# (scripts/test_house_check.py: each rule on tiny fake crates, a failure exits 1), then the
# check of src/: prints what it measured; exits 1 naming each violation. How each rule is
# measured: the header of scripts/house-check.py.
set -euo pipefail
cd "$(dirname "$0")/.."
env -u HOUSE_CHECK python3 scripts/test_house_check.py
exec python3 scripts/house-check.py "$@"
