#!/usr/bin/env bash
# Regenerates every golden expected file (tests/golden/**/*.out, *.err) from
# the current build. Read `git diff tests/golden` before committing.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
shopt -s globstar
cases=()
for f in tests/golden/**/*.cmd; do cases+=("$f"); done
for f in tests/golden/**/*.game; do [ -f "${f%.game}.cmd" ] || cases+=("$f"); done
python3 tests/golden/run_golden.py --gdsl build/gdsl --update "${cases[@]}"
