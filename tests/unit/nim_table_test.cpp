// The compact table of nim values: 16-bit entries that widen to 32 bits when
// a value does not fit, and kernels of both backends reading either width.
#include <catch2/catch.hpp>

#include "driver/Stack.h"
#include "runtime/NimTable.h"
#include "test_backends.h"

namespace {

struct NoOracle final : gdsl::ValueOracle {
  uint32_t valueOf(const gdsl::Position&) override {
    FAIL("the kernel asked for a value outside its table");
    return 0;
  }
};

}  // namespace

TEST_CASE("a nim table keeps every value across growth and widening", "[table]") {
  gdsl::NimTable table;
  std::vector<uint32_t> expected;
  for (uint32_t i = 0; i < 300000; ++i) {
    uint32_t v = (i * 2654435761u) % 1000;
    if (i == 200000) v = 70000;  // does not fit in 16 bits
    table.push(v);
    expected.push_back(v);
    if (i == 199999) CHECK_FALSE(table.wide());
  }
  CHECK(table.wide());
  REQUIRE(table.size() == static_cast<int64_t>(expected.size()));
  for (size_t i = 0; i < expected.size(); ++i)
    if (table[static_cast<int64_t>(i)] != expected[i]) FAIL("value " << i << " changed");
  CHECK(table.view()[200000] == 70000);
  // 2 bytes per heap before widening; the mapping at most doubles that.
  gdsl::NimTable narrow;
  for (int i = 0; i < 1000000; ++i) narrow.push(static_cast<uint32_t>(i % 7));
  CHECK_FALSE(narrow.wide());
  CHECK(narrow.bytes() <= 4u * 1000000u);
}

TEST_CASE("kernels of both backends read 16-bit and 32-bit tables", "[table]") {
  for (gdsl::BackendKind kind : testing::backends()) {
    gdsl::Stack stack{gdsl::StackOptions(kind)};
    REQUIRE(stack.load("t.game", "", "game T(n) { take 1..3 }\n"));
    std::string error;
    REQUIRE(stack.start(error));
    gdsl::Backend* backend = &stack.backend();
    NoOracle oracle;
    // g(10) = mex{g(9), g(8), g(7)} read from a table holding made-up values.
    for (bool wide : {false, true}) {
      gdsl::NimTable table;
      for (int i = 0; i < 10; ++i) table.push(i == 0 && wide ? 100000u : 0u);
      table.truncate(7);
      table.push(0);
      table.push(wide ? 70001 : 1);
      table.push(2);
      INFO(backend->name() << (wide ? " wide" : " narrow"));
      CHECK(table.wide() == wide);
      CHECK(backend->heapValue(0, 10, table.view(), oracle) == (wide ? 1u : 3u));
    }
  }
}
