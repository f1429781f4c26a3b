// PositionTable (runtime/PositionTable.h): one-word positions kept in their slots and other
// positions behind their hashes, in one table, against a std::map of the same positions; a stop
// asked during a rehash.
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <vector>

#include "compiler/support/Interrupt.h"
#include "runtime/PositionTable.h"

TEST_CASE("the position table interns one-word and longer positions alike") {
  // Games 0 and 2 are one word; game 1 has two words, game 3 a list (length, then items).
  gdsl::PositionTable table({true, false, true, false});
  std::map<gdsl::Position, uint32_t> want;
  std::mt19937_64 random(3);
  auto make = [&](uint32_t game) {
    gdsl::Position p;
    p.game = game;
    int64_t w = static_cast<int64_t>(random() % 5000);  // many repeats, and equal words
    if (game == 0 || game == 2) {
      // Small words (found by their index), negative and large ones (in the slots).
      p.words.push_back(w % 3 == 0 ? w : w % 3 == 1 ? -w : w << 30);
    } else if (game == 1) {
      p.words.push_back(w);
      p.words.push_back(static_cast<int64_t>(random() % 3));
    } else {
      int64_t n = static_cast<int64_t>(random() % 3);
      p.words.push_back(n);
      for (int64_t i = 0; i < n; ++i) p.words.push_back(w + i);
    }
    return p;
  };
  for (int i = 0; i < 60000; ++i) {  // grows through several rehashes
    gdsl::Position p = make(static_cast<uint32_t>(random() % 4));
    bool added = false;
    uint32_t id = table.intern(p, added);
    auto it = want.find(p);
    if (it == want.end()) {
      REQUIRE(added);
      REQUIRE(id == want.size());
      want.emplace(p, id);
    } else {
      REQUIRE_FALSE(added);
      REQUIRE(id == it->second);
    }
  }
  REQUIRE(table.size() == want.size());
  for (const auto& [p, id] : want) {
    REQUIRE(table.find(p) == id);
    REQUIRE(table.at(id) == p);
  }
  // The same word in two one-word games whose slots collide: a fresh table starts with 1024
  // slots, so a word whose two hashes agree in their low 10 bits has one home slot for both.
  // Words from 2^40: smaller ones are found by their index, not in the slots.
  gdsl::PositionTable fresh({true, false, true});
  for (int64_t w = int64_t{1} << 40;; ++w) {
    gdsl::Position x, y;
    x.game = 0;
    x.words.push_back(w);
    y.game = 2;
    y.words.push_back(w);
    if (((gdsl::PositionHash{}(x) ^ gdsl::PositionHash{}(y)) & 1023) != 0) continue;
    bool added = false;
    uint32_t iy = fresh.intern(y, added);
    CHECK_FALSE(fresh.find(x).has_value());
    uint32_t ix = fresh.intern(x, added);
    CHECK(added);
    CHECK(ix != iy);
    CHECK(fresh.find(x) == ix);
    CHECK(fresh.find(y) == iy);
    break;
  }
  // The same word in two one-word games, and positions never interned.
  gdsl::Position a, b;
  a.game = 0;
  a.words.push_back(123456789);
  b.game = 2;
  b.words.push_back(123456789);
  bool added = false;
  uint32_t ia = table.intern(a, added), ib = table.intern(b, added);
  CHECK(ia != ib);
  gdsl::Position missing;
  missing.game = 1;
  missing.words.push_back(123456789);
  missing.words.push_back(7);
  CHECK_FALSE(table.find(missing).has_value());
}

TEST_CASE("a stop asked while the position table rehashes leaves it as it was") {
  // 65536 slots hold 32768 positions; the next one doubles the table, and the
  // rehash polls for a stop every 65536 slots it moves.
  gdsl::PositionTable table({true});
  auto word = [](int64_t w) {
    gdsl::Position p;
    p.game = 0;
    p.words.push_back((w + 1) << 30);  // in the slots, not found by index
    return p;
  };
  bool added = false;
  for (int64_t w = 0; w < 32768; ++w) REQUIRE(table.intern(word(w), added) == w);
  gdsl::requestInterrupt(gdsl::StopReason::User);
  CHECK_THROWS_AS(table.intern(word(32768), added), gdsl::Interrupted);
  gdsl::clearInterrupt();
  REQUIRE(table.size() == 32768);
  for (int64_t w = 0; w < 32768; ++w) REQUIRE(table.find(word(w)) == w);
  CHECK_FALSE(table.find(word(32768)).has_value());
  CHECK(table.intern(word(32768), added) == 32768);
  CHECK(added);
  for (int64_t w = 0; w <= 32768; ++w) REQUIRE(table.find(word(w)) == w);
}
