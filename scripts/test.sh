#!/usr/bin/env bash
# Sets up (installs missing Debian packages, builds in Release) and runs the
# whole test suite with ctest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh" --all
ctest --test-dir "$root/build" --output-on-failure --timeout 900 -j "$(nproc)"
