#!/bin/sh
# The symbols gdsl exports: a linker dynamic list (docs/architecture.md,
# "Start-up"), written at build time.
#
# usage: export-list.sh OUTPUT LIBRARY...
#
# The LIBRARYs are what gdsl may load at run time: its plugins (libgdsl-jit.so,
# libgdsl-mpi.so) and the libraries it opens itself (libsqlite3, libedit). With
# the libraries they load in turn (ldd), the list names every symbol any of
# them imports or binds through its relocations. The executable exports those
# of them it defines, and nothing else: the plugins reach the engine, and
# libLLVM and libstdc++.so the C++ runtime linked into gdsl, exactly as when
# everything was exported, but the dynamic loader's tables of gdsl hold about
# 2300 symbols instead of 10600, which every start pays for in page faults.
# Every symbol with C linkage stays exported as well (the JIT's code resolves
# the names it calls with dlsym). Names absent from gdsl are ignored by the
# linker.
set -eu
output=$1
shift

libraries=$(
  for library in "$@"; do
    echo "$library"
    ldd "$library" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }'
  done | sort -u
)

{
  echo "{"
  echo '  "[!_]*";'
  echo '  "_[!Z]*";'
  for library in $libraries; do
    nm -D --undefined-only "$library" | awk '{ print $NF }'
    readelf -rW "$library" | awk '$3 ~ /^R_/ && NF >= 5 { print $5 }'
  done | sed 's/@.*//' | sort -u | sed 's/.*/  "&";/'
  echo "};"
} >"$output.tmp"
mv "$output.tmp" "$output"
