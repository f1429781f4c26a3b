#!/usr/bin/env bash
# The sanitizer and fuzzing part of CI (docs/testing.md): builds build-san with
# clang-14, AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer
# coverage (-DGDSL_FUZZ=ON), runs the whole test suite under the sanitizers,
# then each fuzz target for FUZZ_SECONDS (default 60) on the committed corpus.
# Any sanitizer report, failed test or fuzzing crash fails the script.
# Expects the packages of scripts/setup.sh (clang-14, libclang-rt-14-dev).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build-san"
CC=clang-14 CXX=clang++-14 cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DGDSL_FUZZ=ON
cmake --build "$build" -j "$(nproc)"

# Scripted tests spawn gdsl, which inherits these. A sanitizer report exits
# with 86, which no test accepts as gdsl's own status (0, 1 or 2).
export ASAN_OPTIONS="detect_leaks=1:exitcode=86:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=86:${UBSAN_OPTIONS:-}"
# The long brute-force tests run at a quarter of their sizes (docs/testing.md).
export GDSL_TEST_SCALE="${GDSL_TEST_SCALE:-4}"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"

for target in fuzz_pipeline fuzz_tokens; do
  echo "sanitize: $target for ${FUZZ_SECONDS:-60} s"
  BUILD="$build" bash "$root/tests/fuzz/run.sh" "$target" "${FUZZ_SECONDS:-60}"
done
