// The vector baseline (`cpp-vector` in bench/run.py, and `cpp-glibc`: the same program with
// glibc's allocator defaults): contest style, a fresh std::vector of options per position. The
// reference C++ (`cpp`) is ../e_nodekayles.cpp, the same computation with its arrays reused.
// Row (e): Node Kayles on the W x 5 grid (W from the command line, 7 by default). The free
// cells are the bits of a 64-bit board; a move picks a free cell and removes it and its free
// neighbours. A memoized recursion with std::unordered_map<uint64_t, int>, a vector of
// options and a mex per position, as a contest user writes it. Prints the full board's value,
// a checksum over the values of its options (cell order), and the positions memoized.
#include <cstdint>
#include <cstdlib>
#include <unordered_map>
#include <vector>

#include "../common.h"

static int cells;
static std::vector<uint64_t> nb;  // the closed neighbourhood of each cell
static std::unordered_map<uint64_t, int> memo;

static int grundy(uint64_t board) {
  auto it = memo.find(board);
  if (it != memo.end()) return it->second;
  std::vector<int> opts;
  for (int v = 0; v < cells; ++v)
    if ((board >> v) & 1) opts.push_back(grundy(board & ~nb[v]));
  std::vector<char> seen(opts.size() + 1, 0);
  for (int o : opts)
    if (o < (int)seen.size()) seen[o] = 1;
  int m = 0;
  while (seen[m]) ++m;
  memo.emplace(board, m);
  return m;
}

int main(int argc, char** argv) {
  const int H = 5;
  int W = argc > 1 ? std::atoi(argv[1]) : 7;
  cells = W * H;
  for (int v = 0; v < cells; ++v) {
    int x = v % W, y = v / W;
    uint64_t m = uint64_t(1) << v;
    if (x > 0) m |= uint64_t(1) << (v - 1);
    if (x < W - 1) m |= uint64_t(1) << (v + 1);
    if (y > 0) m |= uint64_t(1) << (v - W);
    if (y < H - 1) m |= uint64_t(1) << (v + W);
    nb.push_back(m);
  }
  uint64_t full = cells == 0 ? 0 : (~uint64_t(0) >> (64 - cells));
  int top = grundy(full);
  Checksum c;
  for (int v = 0; v < cells; ++v) c.add(grundy(full & ~nb[v]));
  std::printf("value=%d checksum=%llu count=%llu positions=%zu\n", top, (unsigned long long)c.h,
              (unsigned long long)c.count, memo.size());
}
