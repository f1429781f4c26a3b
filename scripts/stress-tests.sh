#!/usr/bin/env bash
# The test suite on a busy machine (docs/testing.md, "A busy machine"): sets
# up and builds as scripts/test.sh does, then runs the whole suite ROUNDS times
# in a row (default 3) with `ctest -j4`, while a build of the project in a
# scratch directory runs beside it, again and again, on every core. Stops at
# the first round with a failure (status 1); the load is stopped either way.
#   bash scripts/stress-tests.sh            three rounds
#   ROUNDS=1 bash scripts/stress-tests.sh   one
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${ROUNDS:-3}"
bash "$root/scripts/setup.sh" --all

scratch="$(mktemp -d /tmp/gdsl-stress-load.XXXXXX)"
# The load: configure and build the unit tests (the largest target) from
# nothing, over and over, in a process group of its own so that it can be
# stopped whole.
setsid bash -c '
  while true; do
    rm -rf "$1"/build
    cmake -S "$2" -B "$1"/build -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null
    cmake --build "$1"/build -j "$(nproc)" --target gdsl_unit_tests > /dev/null 2>&1 || true
  done' load "$scratch" "$root" &
load=$!
stop_load() {
  kill -- "-$load" 2> /dev/null || true
  wait "$load" 2> /dev/null || true
  rm -rf "$scratch"
}
trap stop_load EXIT

for round in $(seq 1 "$rounds"); do
  echo "stress: round $round of $rounds (ctest -j4 beside a build)"
  start=$(date +%s)
  if ! ctest --test-dir "$root/build" --output-on-failure --timeout 900 -j4; then
    echo "stress: round $round failed"
    exit 1
  fi
  echo "stress: round $round passed in $(($(date +%s) - start)) s"
done
echo "stress: $rounds rounds passed"
