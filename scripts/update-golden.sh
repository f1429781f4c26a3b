#!/usr/bin/env bash
# Regenerates every golden expected file (tests/golden/**/*.out, *.err) from
# the current build, and docs/errors.md from the error cases. Read
# `git diff tests/golden docs/errors.md` before committing.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
shopt -s globstar
cases=()
for f in tests/golden/**/*.cmd; do cases+=("$f"); done
for f in tests/golden/**/*.game; do [ -f "${f%.game}.cmd" ] || cases+=("$f"); done
python3 tests/golden/run_golden.py --gdsl build/gdsl --update "${cases[@]}"
python3 scripts/errors-doc.py
