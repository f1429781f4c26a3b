#!/usr/bin/env bash
# Installs the Debian 12 packages gdsl needs (skipping those already present)
# and builds gdsl in Release mode into build/. Safe to run again.
#   bash scripts/setup.sh          builds what `gdsl` runs: the executable and
#                                  its plugins (the JIT, the census's MPI one)
#   bash scripts/setup.sh --all    builds every target: the tests and the
#                                  fuzzers too (scripts/test.sh does this)
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config lld
  default-jre-headless antlr4 libantlr4-runtime-dev
  llvm-14-dev clang-14 libclang-rt-14-dev clang-format-14 clang-tidy-14
  libfmt-dev catch2 libcli11-dev nlohmann-json3-dev libedit-dev
  libsqlite3-dev sqlite3 openmpi-bin libopenmpi-dev
  python3 python3-ipykernel python3-jupyter-client python3-nbclient python3-nbformat
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release
if [ "${1:-}" = "--all" ]; then
  cmake --build "$root/build" -j "$(nproc)"
else
  # The first README command shows the tour: the unit tests and the fuzz
  # pipeline (most of the build) wait for scripts/test.sh.
  cmake --build "$root/build" -j "$(nproc)" --target gdsl
fi
