// Independent brute-force misère play (the player who makes the last move loses) for sums of
// small games. Plain C++20 and no gdsl code: a sum is a list of parts, each part's moves are
// written from the game's rules (Kayles and Dawson's Kayles as bit masks of standing pins, not
// as heaps), and the whole game tree of the sum is searched, memoized on the sorted list of
// parts only. Nothing is dropped or recognised: no nim heaps, no terminal parts removed.
#pragma once

#include <algorithm>
#include <compare>
#include <cstdint>
#include <map>
#include <vector>

namespace brute {

struct MiserePart {
  enum Kind : uint8_t {
    Nim,     // take any positive number
    Kayles,  // a row of pins: knock down one pin or two adjacent ones
    Dawson,  // a row of pins: knock down two adjacent pins (Dawson's Kayles, 0.07)
    Sub134,  // take 1, 3 or 4
    Sub237,  // take 2, 3 or 7
    Grundy,  // split a heap into two non-empty heaps of different sizes
    Pad,     // move to a nim heap k < n together with an empty Kayles row
  };
  Kind kind = Nim;
  int size = 0;       // tokens of a heap, or the length of a row
  uint64_t pins = 0;  // rows: bit i is set while pin i stands
  auto operator<=>(const MiserePart&) const = default;
};
using MisereSum = std::vector<MiserePart>;

inline MiserePart misereHeap(MiserePart::Kind kind, int n) {
  if (kind == MiserePart::Kayles || kind == MiserePart::Dawson)
    return {kind, n, n == 0 ? 0 : (~uint64_t{0} >> (64 - n))};
  return {kind, n, 0};
}

// Every move of one part: what the part becomes (a heap of Grundy's game becomes two parts).
inline std::vector<MisereSum> misereOptions(const MiserePart& p) {
  std::vector<MisereSum> out;
  auto heap = [&](int n) { return MiserePart{p.kind, n, 0}; };
  switch (p.kind) {
    case MiserePart::Nim:
      for (int n = 0; n < p.size; ++n) out.push_back({heap(n)});
      break;
    case MiserePart::Sub134:
    case MiserePart::Sub237: {
      std::vector<int> s =
          p.kind == MiserePart::Sub134 ? std::vector<int>{1, 3, 4} : std::vector<int>{2, 3, 7};
      for (int k : s)
        if (k <= p.size) out.push_back({heap(p.size - k)});
      break;
    }
    case MiserePart::Grundy:
      for (int a = 1; a < p.size - a; ++a) out.push_back({heap(a), heap(p.size - a)});
      break;
    case MiserePart::Pad:
      for (int n = 0; n < p.size; ++n)
        out.push_back({MiserePart{MiserePart::Nim, n, 0}, misereHeap(MiserePart::Kayles, 0)});
      break;
    case MiserePart::Kayles:
    case MiserePart::Dawson:
      for (int i = 0; i < p.size; ++i) {
        uint64_t one = uint64_t{1} << i, two = one | (one << 1);
        if (p.kind == MiserePart::Kayles && (p.pins & one))
          out.push_back({MiserePart{p.kind, p.size, p.pins & ~one}});
        if (i + 1 < p.size && (p.pins & two) == two)
          out.push_back({MiserePart{p.kind, p.size, p.pins & ~two}});
      }
      break;
  }
  return out;
}

// The lengths of the runs of standing pins of a row (its heaps), or the heap itself.
inline std::vector<int> misereHeapsOf(const MiserePart& p) {
  if (p.kind != MiserePart::Kayles && p.kind != MiserePart::Dawson) return {p.size};
  std::vector<int> runs;
  int run = 0;
  for (int i = 0; i <= p.size; ++i) {
    if (i < p.size && ((p.pins >> i) & 1)) {
      ++run;
    } else if (run > 0) {
      runs.push_back(run);
      run = 0;
    }
  }
  return runs;
}

// Misère outcomes by full game-tree search, memoized across calls.
class MisereSearch {
 public:
  // True iff the player to move wins `sum` (a player with no move wins).
  bool wins(MisereSum sum) {
    std::sort(sum.begin(), sum.end());
    auto it = memo_.find(sum);
    if (it != memo_.end()) return it->second;
    bool anyMove = false, winningMove = false;
    for (size_t i = 0; i < sum.size() && !winningMove; ++i) {
      for (const MisereSum& o : misereOptions(sum[i])) {
        MisereSum next;
        for (size_t j = 0; j < sum.size(); ++j)
          if (j != i) next.push_back(sum[j]);
        next.insert(next.end(), o.begin(), o.end());
        anyMove = true;
        if (!wins(next)) {
          winningMove = true;
          break;
        }
      }
    }
    // With no move at all the opponent moved last and lost.
    bool win = !anyMove || winningMove;
    memo_.emplace(std::move(sum), win);
    return win;
  }
  size_t size() const { return memo_.size(); }

 private:
  std::map<MisereSum, bool> memo_;
};

// One row of n <= 24 pins of Kayles (or Dawson's Kayles) in misère play, by a table over all
// 2^n sets of standing pins: a move only removes pins, so smaller masks are done first.
inline bool misereRowWins(int n, bool dawson) {
  std::vector<uint8_t> win(size_t{1} << n, 0);
  for (uint64_t mask = 0; mask < win.size(); ++mask) {
    bool anyMove = false, w = false;
    for (int i = 0; i < n && !w; ++i) {
      uint64_t one = uint64_t{1} << i, two = one | (one << 1);
      if (!dawson && (mask & one)) {
        anyMove = true;
        w = !win[mask & ~one];
      }
      if (!w && i + 1 < n && (mask & two) == two) {
        anyMove = true;
        w = !win[mask & ~two];
      }
    }
    win[mask] = !anyMove || w;
  }
  return win.back();
}

}  // namespace brute
