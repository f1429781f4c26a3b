#!/usr/bin/env bash
# Minimizes the committed corpus (tests/fuzz/README.md): merges it and the
# fuzzing work directories into an empty directory with libFuzzer's -merge=1
# (an input is kept only when it adds coverage), then replaces
# tests/fuzz/corpus with the result. BUILD defaults to build-san.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${BUILD:-$root/build-san}"
corpus="$root/tests/fuzz/corpus"
merged="$(mktemp -d)"
trap 'rm -rf "$merged"' EXIT
inputs=("$corpus")
for dir in "$build"/fuzz/work/*/; do [ -d "$dir" ] && inputs+=("$dir"); done
cd "$merged"
GDSL_FUZZ_STATS=0 "$build/tests/fuzz/fuzz_pipeline" -merge=1 -max_len=4096 -timeout=5 \
  -rss_limit_mb=2048 "$merged" "${inputs[@]}"
rm -f "$corpus"/*
cp "$merged"/* "$corpus"/
echo "merge.sh: $(ls "$corpus" | wc -l) inputs, $(du -sb "$corpus" | cut -f1) bytes in $corpus"
