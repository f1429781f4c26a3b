#!/usr/bin/env bash
# Copies the seed programs (examples/*.game, stdlib/*.game,
# tests/golden/**/*.game) into tests/fuzz/corpus/, each named by the SHA-1 of
# its contents as libFuzzer names its inputs, so that copies are stored once.
# Inputs already in the corpus stay.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
corpus="$root/tests/fuzz/corpus"
mkdir -p "$corpus"
added=0
while IFS= read -r -d '' file; do
  name="$(sha1sum "$file" | cut -d' ' -f1)"
  if [ ! -e "$corpus/$name" ]; then
    cp "$file" "$corpus/$name"
    added=$((added + 1))
  fi
done < <(find "$root/examples" "$root/stdlib" "$root/tests/golden" -name '*.game' -print0 | sort -z)
echo "seed_corpus: $added new inputs; $(ls "$corpus" | wc -l) in $corpus"
