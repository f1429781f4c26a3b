#!/usr/bin/env bash
# The sanitizer and fuzzing part of CI (docs/testing.md): builds build-san with
# clang-14, AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer
# coverage (-DGDSL_FUZZ=ON), runs the whole test suite under the sanitizers,
# replays the committed fuzz corpus, then fuzzes each target for FUZZ_SECONDS
# (default 20) from the examples.
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
# intercept_tls_get_addr=0: LeakSanitizer's tracking of dynamic TLS (the
# thread_local blocks of libraries loaded with dlopen, here the JIT plugin and
# libLLVM) records a bogus block in this environment, and its exit-time
# tracer then crashes reading it ("Tracer caught signal 11", "LeakSanitizer
# has encountered a fatal error"): see docs/testing.md.
export ASAN_OPTIONS="detect_leaks=1:exitcode=86:intercept_tls_get_addr=0:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=86:${UBSAN_OPTIONS:-}"
# The long brute-force tests run at an eighth of their sizes, sweeps over
# every code at one code in eight (docs/testing.md).
export GDSL_TEST_SCALE="${GDSL_TEST_SCALE:-8}"
ctest --test-dir "$build" --output-on-failure --timeout 900 -j "$(nproc)"

# A quarter of the committed corpus, on the sanitized pipeline (a replay; the
# whole corpus took 200 s of one core): the quarter turns with the day of the
# year, so four days' runs replay every input. A crash, sanitizer report or
# disagreement fails, and the log names the input. Two halves side by side.
quarter=$((10#$(date +%j) % 4))
echo "sanitize: quarter $quarter of the $(ls "$root/tests/fuzz/corpus" | wc -l) inputs of tests/fuzz/corpus"
replay() {  # replay HALF (0 or 1): every other input of the quarter
  local dir="$build/fuzz/replay/$1"
  mkdir -p "$dir"
  mapfile -t inputs < <(ls "$root"/tests/fuzz/corpus/* |
    awk -v q="$quarter" -v h="$1" 'NR % 4 == q { if (++n % 2 == h) print }')
  (cd "$dir" && GDSL_FUZZ_JIT_EVERY=8 "$build/tests/fuzz/fuzz_pipeline" -timeout=10 \
    -rss_limit_mb=2048 "${inputs[@]}" > replay.log 2>&1) || { tail -40 "$dir/replay.log"; return 1; }
}
replay 0 & first=$!
replay 1 & second=$!
status=0
wait "$first" || status=1
wait "$second" || status=1
[ "$status" = 0 ] || exit 1

# Then each target fuzzes for FUZZ_SECONDS, starting from the examples and the
# regressions: loading the whole corpus would take the minute (docs/testing.md).
# One process each, side by side on the two cores.
pids=()
for target in fuzz_pipeline fuzz_tokens; do
  echo "sanitize: $target for ${FUZZ_SECONDS:-20} s"
  SEEDS="$root/examples $root/stdlib $root/tests/fuzz/regressions" BUILD="$build" \
    bash "$root/tests/fuzz/run.sh" "$target" "${FUZZ_SECONDS:-20}" > "$build/fuzz/$target.log" 2>&1 &
  pids+=($!)
done
for i in 0 1; do
  wait "${pids[$i]}" || status=1
done
for target in fuzz_pipeline fuzz_tokens; do tail -15 "$build/fuzz/$target.log"; done
exit "$status"
