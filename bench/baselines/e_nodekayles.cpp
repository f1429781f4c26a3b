// Row (e), the reference C++ (`cpp` in bench/run.py): Node Kayles on the W x 5 grid (W from the
// command line, 7 by default). The free cells are the bits of a 64-bit board; a move picks a
// free cell and removes it and its free neighbours. A memoized recursion on the board, as the
// reachable boards are only known by searching: std::unordered_map<uint64_t, uint32_t>,
// reserved once for 8^W boards (the boards reached grow about 7.5 times per column: 1.85
// million at W = 7) so that it does not rehash, and a small grid does not pay for a big table.
// Nothing is allocated per position but the map's node: the free cells are walked bit by bit,
// and the options' values are the bits of one word for the mex (a board has at most 5W <= 60
// free cells, so at most 60 options, and every value is below 64). Prints the full board's
// value, a checksum over the values of its options (cell order), and the positions memoized.
// vector/e_nodekayles.cpp is the contest-style version (a std::vector of options per position,
// the map not reserved).
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <unordered_map>

#include "common.h"

static uint64_t nb[64];  // the closed neighbourhood of each cell
static std::unordered_map<uint64_t, uint32_t> memo;

static uint32_t grundy(uint64_t board) {
  auto it = memo.find(board);
  if (it != memo.end()) return it->second;
  uint64_t seen = 0;
  for (uint64_t rest = board; rest; rest &= rest - 1)  // each free cell
    seen |= uint64_t(1) << grundy(board & ~nb[std::countr_zero(rest)]);
  uint32_t m = std::countr_one(seen);
  memo.emplace(board, m);
  return m;
}

int main(int argc, char** argv) {
  const int H = 5;
  int W = argc > 1 ? std::atoi(argv[1]) : 7;
  if (W < 0 || W > 12) {
    std::fprintf(stderr, "W must be 0..12 (5W cells in 64 bits)\n");
    return 2;
  }
  const int cells = W * H;
  for (int v = 0; v < cells; ++v) {
    int x = v % W, y = v / W;
    uint64_t m = uint64_t(1) << v;
    if (x > 0) m |= uint64_t(1) << (v - 1);
    if (x < W - 1) m |= uint64_t(1) << (v + 1);
    if (y > 0) m |= uint64_t(1) << (v - W);
    if (y < H - 1) m |= uint64_t(1) << (v + W);
    nb[v] = m;
  }
  memo.reserve(std::size_t(1) << std::min(3 * W, 24));
  const uint64_t full = cells == 0 ? 0 : ~uint64_t(0) >> (64 - cells);
  uint32_t top = grundy(full);
  Checksum c;
  for (int v = 0; v < cells; ++v) c.add(grundy(full & ~nb[v]));
  std::printf("value=%u checksum=%llu count=%llu positions=%zu\n", top, (unsigned long long)c.h,
              (unsigned long long)c.count, memo.size());
}
