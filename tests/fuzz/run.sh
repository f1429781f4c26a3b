#!/usr/bin/env bash
# Runs a fuzz target of the sanitizer build for a while (tests/fuzz/README.md):
#   tests/fuzz/run.sh TARGET SECONDS [libFuzzer options...]
# TARGET is fuzz_pipeline or fuzz_tokens. New inputs go to
# $BUILD/fuzz/work/TARGET (the committed corpus tests/fuzz/corpus is read, not
# written); crashes, timeouts and OOMs to $BUILD/fuzz/artifacts/. One process,
# one core. Exits non-zero when the target found a bug.
# BUILD defaults to build-san (configured with -DGDSL_FUZZ=ON). SEEDS, a list
# of directories, replaces the committed corpus as the inputs to start from.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
target="${1:?usage: run.sh fuzz_pipeline|fuzz_tokens SECONDS [options]}"
seconds="${2:?usage: run.sh TARGET SECONDS [options]}"
shift 2
build="${BUILD:-$root/build-san}"
binary="$build/tests/fuzz/$target"
[ -x "$binary" ] || { echo "run.sh: no $binary (configure with -DGDSL_FUZZ=ON)" >&2; exit 2; }
work="$build/fuzz/work/$target"
artifacts="$build/fuzz/artifacts"
mkdir -p "$work" "$artifacts"
dict=()
[ "$target" = fuzz_pipeline ] && dict=(-dict="$root/tests/fuzz/gdsl.dict")
# One program in eight also runs on the JIT and is compared with the interpreter.
export GDSL_FUZZ_JIT_EVERY="${GDSL_FUZZ_JIT_EVERY:-8}"
export GDSL_FUZZ_STATS="${GDSL_FUZZ_STATS:-1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
# Relative imports in fuzzed programs resolve against the work directory.
cd "$work"
exec "$binary" -max_len=4096 -timeout=2 -rss_limit_mb=2048 -max_total_time="$seconds" \
  -print_final_stats=1 -artifact_prefix="$artifacts/" "${dict[@]}" "$@" \
  "$work" ${SEEDS:-"$root/tests/fuzz/corpus"}
