// The hashes of compiler/support/Hash.h keep their values: a table file's
// checksum is stored on disk (runtime/TableFile.h), and the packed word
// memo's home slot is computed by the JIT's code as well (runtime/WordMemo.h).
// The expected numbers were computed before the hashes moved to Hash.h.
#include "compiler/support/Hash.h"

#include <catch2/catch.hpp>
#include <cstdint>

#include "runtime/Position.h"
#include "runtime/TableFile.h"
#include "runtime/WordMemo.h"

TEST_CASE("the hashes keep their values") {
  uint64_t h = gdsl::kTableHashStart;
  for (uint32_t v : {0u, 1u, 2u, 65535u, 70000u, 3u}) h = gdsl::tableValuesHash(h, v);
  CHECK(h == 0x84377d9b5f28bcdaull);

  gdsl::Position p;
  p.game = 7;
  p.words.push_back(3);
  p.words.push_back(-5);
  p.words.push_back(int64_t{1} << 40);
  CHECK(gdsl::PositionHash{}(p) == 0xff3547a744f1861eull);
  gdsl::Position q;
  CHECK(gdsl::PositionHash{}(q) == 0x9e3779bd8ef1b1deull);

  CHECK(gdsl::WordMemo::kMultiplier == 0x9E3779B97F4A7C15ull);
  CHECK(gdsl::WordMemo::home(123456789, 40) == 0xbe71d0u);
  CHECK(gdsl::fnv1a("gdsl", 4) == 0x5fb3b571ebcb4819ull);
}
