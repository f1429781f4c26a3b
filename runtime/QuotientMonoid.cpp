// Bipartite monoids given by generator actions (see QuotientMonoid.h).
#include "runtime/QuotientMonoid.h"

#include <algorithm>
#include <deque>
#include <unordered_map>

#include "compiler/support/Interrupt.h"

namespace gdsl {

uint32_t BipartiteMonoid::product(uint32_t x, uint32_t y) const {
  while (y != 0) {
    x = act[static_cast<size_t>(parentGen[y])][x];
    y = parent[y];
  }
  return x;
}

size_t BipartiteMonoid::pCount() const {
  return static_cast<size_t>(std::count(inP.begin(), inP.end(), uint8_t{1}));
}

namespace {

// Numbers the elements reached from 0 breadth-first, generators in order;
// returns old -> new (UINT32_MAX for an element not reached).
std::vector<uint32_t> breadthFirstOrder(const BipartiteMonoid& m, std::vector<uint32_t>& parent,
                                        std::vector<int32_t>& parentGen) {
  std::vector<uint32_t> order(m.size, UINT32_MAX);
  std::vector<uint32_t> queue{0};
  order[0] = 0;
  parent.assign(1, 0);
  parentGen.assign(1, -1);
  for (size_t head = 0; head < queue.size(); ++head) {
    uint32_t x = queue[head];
    for (size_t g = 0; g < m.act.size(); ++g) {
      uint32_t y = m.act[g][x];
      if (order[y] != UINT32_MAX) continue;
      order[y] = static_cast<uint32_t>(queue.size());
      queue.push_back(y);
      parent.push_back(order[x]);
      parentGen.push_back(static_cast<int32_t>(g));
    }
  }
  return order;
}

void renumberWith(BipartiteMonoid& m, std::vector<uint32_t>* map) {
  std::vector<uint32_t> parent;
  std::vector<int32_t> parentGen;
  std::vector<uint32_t> order = breadthFirstOrder(m, parent, parentGen);
  uint32_t count = static_cast<uint32_t>(parent.size());
  BipartiteMonoid out;
  out.size = count;
  out.act.assign(m.act.size(), std::vector<uint32_t>(count));
  out.inP.assign(count, 0);
  for (uint32_t x = 0; x < m.size; ++x) {
    if (order[x] == UINT32_MAX) continue;
    out.inP[order[x]] = m.inP.empty() ? 0 : m.inP[x];
    for (size_t g = 0; g < m.act.size(); ++g) out.act[g][order[x]] = order[m.act[g][x]];
  }
  out.parent = std::move(parent);
  out.parentGen = std::move(parentGen);
  if (map) *map = std::move(order);
  m = std::move(out);
}

}  // namespace

void renumber(BipartiteMonoid& m) {
  renumberWith(m, nullptr);
}

BipartiteMonoid productWithCyclic(const BipartiteMonoid& base, const std::vector<int>& keep,
                                  const std::vector<Cyclic>& cyclic) {
  // An element is (base element, one exponent per cyclic component), packed
  // in mixed radix with the base element last.
  std::vector<uint64_t> radix;
  uint64_t span = 1;
  for (const Cyclic& c : cyclic) {
    radix.push_back(span);
    span *= c.index + c.period;
  }
  auto exponent = [&](uint64_t key, size_t i) {
    return static_cast<uint32_t>(key / radix[i] % (cyclic[i].index + cyclic[i].period));
  };
  std::unordered_map<uint64_t, uint32_t> id{{0, 0}};
  std::vector<uint64_t> keys{0};
  size_t gens = keep.size() + cyclic.size();
  BipartiteMonoid m;
  m.act.assign(gens, {});
  for (size_t head = 0; head < keys.size(); ++head) {
    // A guess can have millions of elements: time limits and Ctrl-C are
    // polled here, or the watchdog's hard stop would end the process before
    // the heaps finished are printed.
    if ((head & 4095) == 0) checkInterrupt();
    uint64_t key = keys[head];
    uint32_t b = static_cast<uint32_t>(key / span);
    uint64_t low = key % span;
    for (size_t g = 0; g < gens; ++g) {
      uint64_t next;
      if (g < keep.size()) {
        next = uint64_t{base.act[static_cast<size_t>(keep[g])][b]} * span + low;
      } else {
        size_t i = g - keep.size();
        uint32_t e = exponent(key, i);
        next = key - uint64_t{e} * radix[i] + uint64_t{cyclic[i].next(e)} * radix[i];
      }
      auto [it, added] = id.try_emplace(next, static_cast<uint32_t>(keys.size()));
      if (added) keys.push_back(next);
      m.act[g].push_back(it->second);
    }
  }
  m.size = static_cast<uint32_t>(keys.size());
  m.inP.assign(m.size, 0);
  renumber(m);
  return m;
}

BipartiteMonoid reduce(const BipartiteMonoid& m, std::vector<uint32_t>* classOf) {
  std::vector<uint32_t> cls(m.size);
  uint32_t count = 0;
  {
    bool seen[2] = {false, false};
    uint32_t first[2] = {0, 0};
    for (uint32_t x = 0; x < m.size; ++x) {
      int p = m.inP[x] ? 1 : 0;
      if (!seen[p]) {
        seen[p] = true;
        first[p] = count++;
      }
      cls[x] = first[p];
    }
  }
  // Moore: split classes by the classes their generators lead to, until no
  // class splits.
  std::vector<uint32_t> next(m.size);
  std::unordered_map<uint64_t, uint32_t> pairs;
  while (true) {
    std::vector<uint32_t> sig = cls;
    for (const std::vector<uint32_t>& a : m.act) {
      checkInterrupt();
      pairs.clear();
      for (uint32_t x = 0; x < m.size; ++x) {
        uint64_t key = (uint64_t{sig[x]} << 32) | cls[a[x]];
        next[x] = pairs.try_emplace(key, static_cast<uint32_t>(pairs.size())).first->second;
      }
      sig.swap(next);
    }
    uint32_t newCount = static_cast<uint32_t>(pairs.empty() ? count : pairs.size());
    if (m.act.empty() || newCount == count) break;
    cls = std::move(sig);
    count = newCount;
  }
  BipartiteMonoid q;
  q.size = count;
  q.act.assign(m.act.size(), std::vector<uint32_t>(count));
  q.inP.assign(count, 0);
  for (uint32_t x = 0; x < m.size; ++x) {
    q.inP[cls[x]] = m.inP[x];
    for (size_t g = 0; g < m.act.size(); ++g) q.act[g][cls[x]] = cls[m.act[g][x]];
  }
  std::vector<uint32_t> order;
  renumberWith(q, &order);
  if (classOf) {
    classOf->resize(m.size);
    for (uint32_t x = 0; x < m.size; ++x) (*classOf)[x] = order[cls[x]];
  }
  return q;
}

std::vector<uint32_t> productTable(const BipartiteMonoid& m) {
  // Column y is column parent[y] times generator parentGen[y].
  size_t n = m.size;
  std::vector<uint32_t> t(n * n);
  for (uint32_t x = 0; x < n; ++x) t[x * n] = x;
  for (uint32_t y = 1; y < n; ++y) {
    const std::vector<uint32_t>& a = m.act[static_cast<size_t>(m.parentGen[y])];
    uint32_t p = m.parent[y];
    for (uint32_t x = 0; x < n; ++x) t[x * n + y] = a[t[x * n + p]];
  }
  return t;
}

uint32_t cyclicIndex(const BipartiteMonoid& m, uint32_t x) {
  std::vector<uint32_t> firstAt(m.size, UINT32_MAX);
  uint32_t power = 0;
  for (uint32_t i = 0;; ++i) {
    if (firstAt[power] != UINT32_MAX) return firstAt[power];
    firstAt[power] = i;
    power = m.product(power, x);
  }
}

bool isTame(const BipartiteMonoid& m, const std::vector<uint32_t>& table) {
  size_t n = m.size;
  auto mul = [&](uint32_t x, uint32_t y) { return table[x * n + y]; };
  if (n == 1) return m.pCount() == 0;
  // a: the element with a^2 = 1 in P, other than 1.
  for (uint32_t a = 1; a < n; ++a) {
    if (!m.inP[a] || mul(a, a) != 0 || m.inP[0]) continue;
    if (n == 2) return m.pCount() == 1;
    size_t g = n - 2;
    if (g < 4 || (g & (g - 1)) != 0) return false;
    // G = everything but 1 and a: closed, with an identity z, every square z.
    uint32_t z = UINT32_MAX;
    for (uint32_t x = 1; x < n && z == UINT32_MAX; ++x)
      if (x != a && mul(x, x) == x) z = x;
    if (z == UINT32_MAX) return false;
    for (uint32_t x = 1; x < n; ++x) {
      if (x == a) continue;
      if (mul(x, z) != x || mul(x, x) != z) return false;
      for (uint32_t y = 1; y < n; ++y)
        if (y != a && (mul(x, y) == 0 || mul(x, y) == a)) return false;
    }
    uint32_t az = mul(a, z);
    if (az == z || az == 0 || az == a) return false;
    for (uint32_t x = 0; x < n; ++x)
      if (static_cast<bool>(m.inP[x]) != (x == a || x == z)) return false;
    return true;
  }
  return false;
}

}  // namespace gdsl
