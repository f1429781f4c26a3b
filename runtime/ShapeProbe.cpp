// probeShape: read a take-and-break shape off a game's moves and check it.
#include "runtime/ShapeProbe.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "compiler/support/Interrupt.h"

namespace gdsl {
namespace {

// One option of heap n as the shape sees it: kind 0 (no heap left), 1 (one
// heap) or 2 (two heaps, the smaller `part`), and the tokens taken.
using Option = std::tuple<int, int64_t, int64_t>;  // kind, taken, smaller part

struct Collector final : MoveSink {
  int game = 0;
  int64_t n = 0;
  bool foreign = false;  // a component of another game, or too many
  std::set<Option> options;

  bool onMove(const ir::Move&, const ir::Frame&, std::span<const Position> components) override {
    std::vector<int64_t> sizes;
    for (const Position& c : components) {
      if (static_cast<int>(c.game) != game || c.words.size() != 1) {
        foreign = true;
        return false;
      }
      if (c.words[0] > 0) sizes.push_back(c.words[0]);  // G(0) has no moves: value 0
    }
    std::sort(sizes.begin(), sizes.end());
    int64_t left = 0;
    for (int64_t s : sizes) left += s;
    if (sizes.size() > 2) {
      foreign = true;
      return false;
    }
    int kind = static_cast<int>(sizes.size());
    options.emplace(kind, n - left, kind == 2 ? sizes[0] : 0);
    return true;
  }
};

std::set<Option> predicted(const ir::TakeBreakShape& s, int64_t n) {
  std::set<Option> out;
  for (int64_t k : s.whole)
    if (n == k) out.emplace(0, k, 0);
  for (int64_t k : s.one)
    if (n - k >= 1) out.emplace(1, k, 0);
  for (int64_t k : s.two)
    for (int64_t a = 1; 2 * a <= n - k; ++a) out.emplace(2, k, a);
  for (int64_t k : s.twoUnequal)
    for (int64_t a = 1; 2 * a < n - k; ++a) out.emplace(2, k, a);
  return out;
}

}  // namespace

std::optional<ir::TakeBreakShape> probeShape(Backend& backend, int game, int64_t heaps) {
  std::vector<std::set<Option>> seen;
  try {
    for (int64_t n = 0; n <= heaps; ++n) {
      checkInterrupt();
      Collector c;
      c.game = game;
      c.n = n;
      Position p;
      p.game = static_cast<uint32_t>(game);
      p.words.push_back(n);
      backend.enumerate(p, c);
      if (c.foreign) return std::nullopt;
      seen.push_back(std::move(c.options));
    }
  } catch (const RuntimeError&) {
    return std::nullopt;  // the rules fail somewhere: the kernel reports it
  }
  ir::TakeBreakShape s;
  std::set<int64_t> whole, one, two, equal;
  for (size_t n = 0; n < seen.size(); ++n)
    for (const auto& [kind, k, part] : seen[n]) {
      if (k < (kind == 2 ? 0 : 1)) return std::nullopt;  // a move to the same heap or more
      (kind == 0 ? whole : kind == 1 ? one : two).insert(k);
      if (kind == 2 && static_cast<int64_t>(n) - k == 2 * part) equal.insert(k);  // a + a
    }
  s.whole.assign(whole.begin(), whole.end());
  s.one.assign(one.begin(), one.end());
  for (int64_t k : two) (equal.count(k) ? s.two : s.twoUnequal).push_back(k);
  for (auto* v : {&s.whole, &s.one, &s.two, &s.twoUnequal})
    if (!v->empty()) s.maxTake = std::max(s.maxTake, v->back());
  if (4 * s.maxTake > heaps) return std::nullopt;
  for (int64_t n = 0; n <= heaps; ++n)
    if (predicted(s, n) != seen[static_cast<size_t>(n)]) return std::nullopt;
  return s;
}

}  // namespace gdsl
