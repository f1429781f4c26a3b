// The heap-by-heap misère quotient construction (see MisereQuotient.h and
// docs/misere.md, "Quotients"). A pretension is a bipartite monoid with the
// generator each heap maps to; it is marked, reduced and verified here.
#include "runtime/MisereQuotient.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "compiler/support/Hash.h"
#include "compiler/support/Interrupt.h"

namespace gdsl {

namespace {

using Bits = std::vector<uint64_t>;

bool testBit(const Bits& b, uint32_t i) {
  return (b[i >> 6] >> (i & 63)) & 1;
}
void setBit(Bits& b, uint32_t i) {
  b[i >> 6] |= uint64_t{1} << (i & 63);
}

// A guess: a monoid and, per heap, the generator it maps to (-1: the heap has
// no move, and is the identity).
struct Pretension {
  BipartiteMonoid m;
  std::vector<int> genOf;
  uint32_t phi(size_t heap) const {
    return genOf[heap] < 0 ? 0 : m.generator(static_cast<size_t>(genOf[heap]));
  }
};

// A sum of heaps (a word) whose outcome the pretension gets wrong.
struct Failure {
  std::vector<int64_t> counts;  // copies of each heap
  bool shouldBeP = false;
};

// One repair of a guess: these heaps given cyclic monoids of their own.
struct RepairStep {
  std::vector<int64_t> heaps;
  std::vector<Cyclic> cyclic;
};

// How the guess for an expansion at `heap` was repaired: the least failure
// of the first guess (heaps with their counts) and the steps that followed
// until a guess checked. Wild games often repeat their repairs shifted by a
// few heaps (0.54: every 7 heaps), so a later expansion whose first failure
// is this one shifted tries these steps, shifted, first (QuotientSteps::replay).
struct Repair {
  int64_t heap = 0;
  std::vector<std::pair<int64_t, int64_t>> failure;
  std::vector<RepairStep> steps;
};

// Too many candidate elements or verification states: the guess is given up.
constexpr uint32_t kMaxCandidate = 1u << 21;
constexpr size_t kMaxStates = 4'000'000;

// Every sum of heaps 0..n, as states (x, D): x its element, D the elements w
// for which some option of the sum times w is in P. A sum is consistent when x
// is in P exactly when the identity is not in D; a state's successor under a
// heap h is (x h, h^-1 D + the union over h's options o of {w : x o w in P}).
// The states are kept with the quotient, so that a heap that leaves it
// unchanged is checked by its own letter alone.
// A new state (x, D) with D a superset of an earlier state's (x, D0) goes no
// further: the successors keep the inclusion, so a sum that it extends into
// a sum claimed N without a P option has a counterpart from (x, D0) that
// fails the same way, and is smaller (docs/misere.md, "How it is computed", step 4).
// The claims of P are checked apart, per element and heap (checkClaimsOfP).
struct Letter {
  size_t heap;
  int gen;
  std::vector<uint32_t> options;  // the elements of its options, sorted
};

// The states' index: open addressing over state numbers, hashed by (x, D).
class StateIndex {
 public:
  static constexpr uint32_t kEmpty = UINT32_MAX, kGone = UINT32_MAX - 1;
  static uint64_t hash(uint32_t x, const uint64_t* d, size_t words) {
    uint64_t h = x;
    for (size_t j = 0; j < words; ++j) h = hashCombine(h, d[j]);
    return hashFinish(h);
  }
  // The slot holding the state equal to (x, d), or the slot to put it in.
  template <typename Equal>
  size_t find(uint64_t h, Equal&& equal) const {
    size_t mask = slots_.size() - 1, at = h & mask, free = SIZE_MAX;
    for (;; at = (at + 1) & mask) {
      uint32_t s = slots_[at];
      if (s == kEmpty) return free != SIZE_MAX ? free : at;
      if (s == kGone) {
        if (free == SIZE_MAX) free = at;
      } else if (equal(s)) {
        return at;
      }
    }
  }
  uint32_t at(size_t slot) const { return slots_[slot]; }
  bool holds(size_t slot) const { return slots_[slot] < kGone; }
  // Puts state `s` in `slot` (from find; when full(), reset and refill first).
  void put(size_t slot, uint32_t s) {
    if (slots_[slot] == kGone) --gone_;
    slots_[slot] = s;
    ++used_;
  }
  void erase(size_t slot) {
    slots_[slot] = kGone;
    --used_;
    ++gone_;
  }
  bool full() const { return (used_ + gone_ + 1) * 4 > slots_.size() * 3; }
  // An empty table of 2^k slots, room for `states` at most 3/8 full.
  void reset(size_t states) {
    size_t size = 16;
    while (size * 3 < states * 8) size *= 2;
    slots_.assign(size, kEmpty);
    used_ = gone_ = 0;
  }

 private:
  std::vector<uint32_t> slots_ = std::vector<uint32_t>(16, kEmpty);
  size_t used_ = 0, gone_ = 0;
};

struct CheckedStates {
  uint32_t n = 0;
  size_t words = 0;
  // Computed when first asked (rowOf, annOf): a large guess needs few.
  std::vector<std::vector<uint32_t>> rows;  // rows[o][w] = w o
  std::vector<Bits> ann;                    // ann[t] = {w : t w in P}
  std::vector<Letter> letters;
  std::vector<uint32_t> x;                          // per state, its element
  std::vector<uint64_t> d;                          // per state, D: `words` words
  std::vector<uint64_t> hashes;                     // per state, of (x, D)
  std::vector<std::pair<uint32_t, uint32_t>> from;  // (state, letter) that reached it
  StateIndex index;
  // Per element, its states in the order found (the first has its least
  // word), for covered(): a state whose D contains a later one's leaves the
  // list (whatever it covers, the later one covers), but not the passes (its
  // sums are smaller than the later one's). A failed extension puts them back
  // (rollBack); a finished one drops them.
  std::vector<std::vector<uint32_t>> ofElement;
  std::vector<uint32_t> firstOf;  // per element, its first state (UINT32_MAX: none yet)
  std::vector<uint8_t> dominated;
  std::vector<std::pair<uint32_t, uint32_t>> dominatedBy;  // (state, the state that did it)

  size_t size() const { return x.size(); }
  const uint64_t* dOf(size_t s) const { return d.data() + s * words; }
  size_t slotOf(uint32_t xs, const uint64_t* ds) const {
    return slotOf(xs, ds, StateIndex::hash(xs, ds, words));
  }
  size_t slotOf(uint32_t xs, const uint64_t* ds, uint64_t h) const {
    return index.find(h, [&](uint32_t s) {
      return hashes[s] == h && x[s] == xs && std::equal(ds, ds + words, dOf(s));
    });
  }
  void add(uint32_t xs, const uint64_t* ds, std::pair<uint32_t, uint32_t> reachedFrom) {
    uint64_t h = StateIndex::hash(xs, ds, words);
    x.push_back(xs);
    d.insert(d.end(), ds, ds + words);
    hashes.push_back(h);
    from.push_back(reachedFrom);
    dominated.push_back(0);
    uint32_t s = static_cast<uint32_t>(x.size() - 1);
    ofElement[xs].push_back(s);
    if (firstOf[xs] == UINT32_MAX) firstOf[xs] = s;
    if (index.full()) reindex();
    index.put(slotOf(xs, ds, h), s);
  }
  // Whether the set a (`words` words) is inside the set b.
  bool inside(const uint64_t* a, const uint64_t* b) const {
    for (size_t j = 0; j < words; ++j)
      if (a[j] & ~b[j]) return false;
    return true;
  }
  // Whether a state of element xs found before has a D inside ds.
  bool covered(uint32_t xs, const uint64_t* ds) const {
    for (uint32_t s : ofElement[xs])
      if (!dominated[s] && inside(dOf(s), ds)) return true;
    return false;
  }
  // Takes out of xs's list the states whose D contains state s's.
  void dominate(uint32_t xs, uint32_t s) {
    for (uint32_t o : ofElement[xs]) {
      if (o == s || dominated[o]) continue;
      if (inside(dOf(s), dOf(o))) {
        dominated[o] = 1;
        dominatedBy.emplace_back(o, s);
      }
    }
  }
  // After a finished extension: the states taken out leave the lists.
  void dropDominated() {
    for (std::vector<uint32_t>& list : ofElement)
      std::erase_if(list, [&](uint32_t s) { return dominated[s] != 0; });
    dominatedBy.clear();
  }
  void reindex() {
    index.reset(size() + 1);
    for (size_t s = 0; s + 1 < size(); ++s)
      index.put(slotOf(x[s], dOf(s), hashes[s]), static_cast<uint32_t>(s));
  }
};

// w o for every w: from the row of o's parent on its breadth-first path.
const std::vector<uint32_t>& rowOf(CheckedStates& c, const BipartiteMonoid& m, uint32_t o) {
  if (c.rows[0].empty()) {
    c.rows[0].resize(c.n);
    for (uint32_t w = 0; w < c.n; ++w) c.rows[0][w] = w;
  }
  std::vector<uint32_t> chain;
  for (uint32_t y = o; c.rows[y].empty(); y = m.parent[y]) chain.push_back(y);
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    uint32_t z = *it;
    const std::vector<uint32_t>& a = m.act[static_cast<size_t>(m.parentGen[z])];
    std::vector<uint32_t> row(c.n);
    const std::vector<uint32_t>& before = c.rows[m.parent[z]];
    for (uint32_t w = 0; w < c.n; ++w) row[w] = a[before[w]];
    c.rows[z] = std::move(row);
  }
  return c.rows[o];
}

const Bits& annOf(CheckedStates& c, const BipartiteMonoid& m, uint32_t t) {
  if (c.ann[t].empty()) {
    const std::vector<uint32_t>& row = rowOf(c, m, t);
    Bits bits(c.words, 0);
    for (uint32_t w = 0; w < c.n; ++w)
      if (m.inP[row[w]]) setBit(bits, w);
    c.ann[t] = std::move(bits);
  }
  return c.ann[t];
}

void startStates(const BipartiteMonoid& m, CheckedStates& c) {
  c = CheckedStates{};
  c.n = m.size;
  c.words = (c.n + 63) / 64;
  c.rows.assign(c.n, {});
  c.ann.assign(c.n, {});
  c.ofElement.assign(c.n, {});
  c.firstOf.assign(c.n, UINT32_MAX);
  Bits none(c.words, 0);
  c.add(0, none.data(), {0, UINT32_MAX});
}

// Undoes what extendStates added after `states` states and `letters` letters.
void rollBack(CheckedStates& c, size_t states, size_t letters) {
  for (size_t s = states; s < c.size(); ++s) {
    c.index.erase(c.slotOf(c.x[s], c.dOf(s)));
    c.ofElement[c.x[s]].pop_back();
    if (c.firstOf[c.x[s]] == s) c.firstOf[c.x[s]] = UINT32_MAX;
  }
  while (!c.dominatedBy.empty() && c.dominatedBy.back().second >= states) {
    c.dominated[c.dominatedBy.back().first] = 0;
    c.dominatedBy.pop_back();
  }
  c.dominated.resize(states);
  c.x.resize(states);
  c.d.resize(states * c.words);
  c.hashes.resize(states);
  c.from.resize(states);
  c.letters.resize(letters);
}

// The sum of state s's word and one more copy of letter `lastLetter`'s heap.
// `heaps` is the number of heaps so far (the length of the counts).
Failure wordOf(const CheckedStates& c, size_t heaps, uint32_t s, size_t lastLetter) {
  Failure f;
  f.counts.assign(heaps, 0);
  ++f.counts[c.letters[lastLetter].heap];
  for (; c.from[s].second != UINT32_MAX; s = c.from[s].first)
    ++f.counts[c.letters[c.from[s].second].heap];
  return f;
}

// Sums compared from the largest heap down (fewer copies first): the order
// in which the states are found.
bool lessWord(const Failure& a, const Failure& b) {
  for (size_t h = std::max(a.counts.size(), b.counts.size()); h-- > 0;) {
    int64_t x = h < a.counts.size() ? a.counts[h] : 0;
    int64_t y = h < b.counts.size() ? b.counts[h] : 0;
    if (x != y) return x < y;
  }
  return false;
}

}  // namespace

// The heap-by-heap computation behind QuotientBuilder.
class QuotientSteps {
 public:
  QuotientSteps(HeapOptionsFn options, const QuotientOptions& o);

  // Computes heaps up to `to` (or until final or stopped); the result so far.
  const QuotientResult& extend(int64_t to);
  const QuotientResult& result() const { return r_; }

 private:
  // Heap n's options, read once, sorted, without empty heaps and repeats.
  void readOptions(int64_t n);
  bool terminal(size_t heap) const { return options_[heap].empty(); }
  // x times the option `parts`, in t's monoid.
  uint32_t times(const Pretension& t, uint32_t x, const std::vector<int64_t>& parts) const {
    for (int64_t part : parts) {
      int g = t.genOf[static_cast<size_t>(part)];
      if (g >= 0) x = t.m.act[static_cast<size_t>(g)][x];
    }
    return x;
  }
  void mark(Pretension& t) const;
  Pretension reduced(const Pretension& t) const;
  Letter letterOf(const Pretension& t, size_t heap) const;
  bool addLetter(const Pretension& t, CheckedStates& c, size_t heap) const;
  std::optional<Failure> verifyInto(const Pretension& t, CheckedStates& c) const;
  std::optional<Failure> extendStates(const Pretension& t, CheckedStates& c, size_t first) const;
  std::optional<Failure> checkClaimsOfP(const Pretension& t, CheckedStates& c, size_t first,
                                        size_t states) const;
  bool classifies(const Pretension& t, const Failure& f) const;
  std::optional<Pretension> recalibrate(const Pretension& t, const Failure& f,
                                        RepairStep* step = nullptr) const;
  std::optional<Pretension> replay(const Pretension& t, const Failure& f, Repair& repair) const;
  Pretension withCyclic(const Pretension& t, const std::vector<int64_t>& heaps,
                        const std::vector<Cyclic>& cyclic) const;
  bool addHeap(int64_t n);  // false: the guess could not be repaired (sets renumbered_)
  void findPeriod(QuotientResult& r) const;
  void finish();

  HeapOptionsFn optionsFn_;
  QuotientOptions o_;
  std::vector<std::vector<std::vector<int64_t>>> options_;
  Pretension q_;
  std::vector<int64_t> expansions_;
  std::vector<Repair> repairs_;  // of the last expansions, the newest last
  std::string stopped_;
  bool renumbered_ = false;  // the last heap changed the elements' numbers
  CheckedStates checked_;    // every sum of the heaps so far, checked in q_
  QuotientResult r_;
};

void QuotientSteps::readOptions(int64_t n) {
  std::vector<std::vector<int64_t>> out;
  for (std::vector<int64_t> parts : optionsFn_(n)) {
    std::erase_if(parts,
                  [&](int64_t h) { return h >= 0 && h < n && terminal(static_cast<size_t>(h)); });
    for (int64_t h : parts)
      if (h < 0 || h >= n)
        throw std::runtime_error(fmt::format(
            "heap {} has a move that leaves heap {}: a quotient needs every move to leave "
            "smaller heaps of the same game",
            n, h));
    std::sort(parts.begin(), parts.end());
    out.push_back(std::move(parts));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  options_.push_back(std::move(out));
}

// The P-portion from the least word of each element (heaps compared from the
// largest down, so that a word's options come before it): an element is in P
// when that word has an option and none of its options is in P.
void QuotientSteps::mark(Pretension& t) const {
  const BipartiteMonoid& m = t.m;
  size_t words = (m.size + 63) / 64;
  std::vector<uint8_t> seen(m.size, 0), inP(m.size, 0);
  std::vector<uint32_t> created{0};
  std::vector<Bits> optionSets(1, Bits(words, 0));
  seen[0] = 1;
  std::vector<uint32_t> cur;
  std::vector<Bits> curT;
  for (size_t h = 1; h < options_.size(); ++h) {
    if (terminal(h)) continue;
    checkInterrupt();
    const std::vector<uint32_t>& act = m.act[static_cast<size_t>(t.genOf[h])];
    cur = created;
    curT = optionSets;
    size_t rows = cur.size();
    for (bool grew = true; grew;) {
      grew = false;
      for (size_t i = 0; i < rows; ++i) {
        uint32_t z = cur[i];
        Bits next(words, 0);
        for (size_t w = 0; w < words; ++w)
          for (uint64_t bits = curT[i][w]; bits; bits &= bits - 1)
            setBit(next, act[w * 64 + static_cast<size_t>(__builtin_ctzll(bits))]);
        for (const std::vector<int64_t>& option : options_[h]) setBit(next, times(t, z, option));
        uint32_t zh = act[z];
        if (!seen[zh]) {
          seen[zh] = 1;
          bool anyP = false;
          for (size_t w = 0; w < words && !anyP; ++w) {
            uint64_t bits = next[w];
            while (bits && !anyP) {
              uint32_t y =
                  static_cast<uint32_t>(w * 64 + static_cast<size_t>(__builtin_ctzll(bits)));
              anyP = inP[y];
              bits &= bits - 1;
            }
          }
          inP[zh] = !anyP;  // a heap with a move: the option set is not empty
          created.push_back(zh);
          optionSets.push_back(next);
          grew = true;
        }
        cur[i] = zh;
        curT[i] = std::move(next);
      }
    }
  }
  t.m.inP = std::move(inP);
}

Pretension QuotientSteps::reduced(const Pretension& t) const {
  Pretension r;
  BipartiteMonoid q = reduce(t.m);
  // One generator per element: heaps with equal images share it.
  std::map<uint32_t, int> genOfElement;
  std::vector<int> remap(q.act.size(), -1);
  BipartiteMonoid out;
  out.size = q.size;
  out.inP = q.inP;
  for (size_t g = 0; g < q.act.size(); ++g) {
    auto [it, added] = genOfElement.try_emplace(q.act[g][0], static_cast<int>(out.act.size()));
    if (added) out.act.push_back(q.act[g]);
    remap[g] = it->second;
  }
  renumber(out);
  r.m = std::move(out);
  r.genOf = t.genOf;
  for (int& g : r.genOf)
    if (g >= 0) g = remap[static_cast<size_t>(g)];
  return r;
}

Letter QuotientSteps::letterOf(const Pretension& t, size_t heap) const {
  std::vector<uint32_t> opts;
  for (const std::vector<int64_t>& option : options_[heap]) opts.push_back(times(t, 0, option));
  std::sort(opts.begin(), opts.end());
  opts.erase(std::unique(opts.begin(), opts.end()), opts.end());
  return Letter{heap, t.genOf[heap], std::move(opts)};
}

// Adds heap `heap`'s letter unless an equal one is there; true when added.
bool QuotientSteps::addLetter(const Pretension& t, CheckedStates& c, size_t heap) const {
  Letter l = letterOf(t, heap);
  for (const Letter& other : c.letters)
    if (other.gen == l.gen && other.options == l.options) return false;
  c.letters.push_back(std::move(l));
  return true;
}

std::optional<Failure> QuotientSteps::verifyInto(const Pretension& t, CheckedStates& c) const {
  if (t.m.inP[0]) return Failure{std::vector<int64_t>(options_.size(), 0), false};
  for (size_t h = 1; h < options_.size(); ++h)
    if (!terminal(h)) addLetter(t, c, h);
  return extendStates(t, c, 0);
}

// Heaps are taken in increasing order, each as often as it adds states:
// states are found in the order of their least words (compared from the
// largest heap down), so the first inconsistent one is the least failure,
// whose options are all smaller words and so classified right. Letters
// before `first` have been taken already. A state covered by one found
// before (the same element, a D inside its D) goes no further; the claims of
// P are checked after, per element and letter (checkClaimsOfP), and the
// lesser of the two failures is the least.
std::optional<Failure> QuotientSteps::extendStates(const Pretension& t, CheckedStates& c,
                                                   size_t first) const {
  const BipartiteMonoid& m = t.m;
  const size_t words = c.words;
  Bits next(words);
  std::vector<uint32_t> frontier, reached;
  // Per element x, the union over the letter's options o of Ann(x o): made
  // when first met during the letter's pass.
  std::vector<uint64_t> optionAnn;
  std::vector<uint8_t> haveOptionAnn;
  std::optional<Failure> failure;  // the least sum claimed N without a P option
  const size_t statesBefore = c.size();
  for (size_t l = first; l < c.letters.size() && !failure; ++l) {
    const Letter& letter = c.letters[l];
    const std::vector<uint32_t>& act = m.act[static_cast<size_t>(letter.gen)];
    optionAnn.assign(c.n * words, 0);
    haveOptionAnn.assign(c.n, 0);
    // Pass k adds the sums with k copies of the heap. A state whose successor
    // is known stops: the successor's successor comes from the state that
    // made it (an earlier one in the same order, so the order of least words
    // holds).
    frontier.resize(c.size());
    for (size_t i = 0; i < frontier.size(); ++i) frontier[i] = static_cast<uint32_t>(i);
    while (!frontier.empty() && !failure) {
      reached.clear();
      for (size_t i = 0; i < frontier.size(); ++i) {
        if ((i & 1023) == 0) checkInterrupt();
        uint32_t s = frontier[i];
        uint32_t x = c.x[s];
        uint64_t* u = optionAnn.data() + size_t{x} * words;
        if (!haveOptionAnn[x]) {
          for (uint32_t o : letter.options) {
            const Bits& a = annOf(c, m, rowOf(c, m, o)[x]);
            for (size_t j = 0; j < words; ++j) u[j] |= a[j];
          }
          haveOptionAnn[x] = 1;
        }
        // h^-1 D: w is in it when w h is in D.
        const uint64_t* d = c.dOf(s);
        for (size_t j = 0; j < words; ++j) {
          uint64_t word = u[j];
          uint32_t end = std::min<uint32_t>(64, c.n - static_cast<uint32_t>(j * 64));
          const uint32_t* image = act.data() + j * 64;
          for (uint32_t b = 0; b < end; ++b) {
            uint32_t y = image[b];
            word |= ((d[y >> 6] >> (y & 63)) & 1) << b;
          }
          next[j] = word;
        }
        uint32_t xh = act[x];
        if (c.index.holds(c.slotOf(xh, next.data()))) continue;
        if (!m.inP[xh] && !testBit(next, 0)) {
          failure = wordOf(c, options_.size(), s, l);
          failure->shouldBeP = true;
          break;
        }
        if (c.covered(xh, next.data())) continue;
        if (c.size() >= kMaxStates)
          throw std::runtime_error(
              fmt::format("checking the quotient of heaps 0..{} needs more than {} states",
                          options_.size() - 1, kMaxStates));
        uint32_t added = static_cast<uint32_t>(c.size());
        reached.push_back(added);
        c.add(xh, next.data(), {s, static_cast<uint32_t>(l)});
        c.dominate(xh, added);
      }
      frontier.swap(reached);
    }
  }
  std::optional<Failure> claimOfP = checkClaimsOfP(t, c, first, statesBefore);
  if (claimOfP && (!failure || lessWord(*claimOfP, *failure))) failure = std::move(claimOfP);
  if (!failure) c.dropDominated();
  return failure;
}

// The least sum claimed P with an option claimed P: such a sum is a word w
// times a heap h whose option o gives the other (x h and x o both in P, x
// the element of w), and the least is the least word of x times h. The pairs
// of letters before `first` and elements reached before state `states` were
// checked by an earlier call, in the same monoid.
std::optional<Failure> QuotientSteps::checkClaimsOfP(const Pretension& t, CheckedStates& c,
                                                     size_t first, size_t states) const {
  const BipartiteMonoid& m = t.m;
  std::optional<Failure> least;
  for (size_t l = 0; l < c.letters.size(); ++l) {
    const Letter& letter = c.letters[l];
    const std::vector<uint32_t>& act = m.act[static_cast<size_t>(letter.gen)];
    for (uint32_t x = 0; x < c.n; ++x) {
      if (c.firstOf[x] == UINT32_MAX || !m.inP[act[x]]) continue;
      if (l < first && c.firstOf[x] < states) continue;
      bool optionInP = false;
      for (uint32_t o : letter.options)
        if (m.inP[rowOf(c, m, o)[x]]) {
          optionInP = true;
          break;
        }
      if (!optionInP) continue;
      Failure f = wordOf(c, options_.size(), c.firstOf[x], l);
      f.shouldBeP = false;
      if (!least || lessWord(f, *least)) least = std::move(f);
    }
  }
  return least;
}

bool QuotientSteps::classifies(const Pretension& t, const Failure& f) const {
  uint32_t x = 0;
  for (size_t h = 0; h < f.counts.size(); ++h)
    for (int64_t i = 0; i < f.counts[h]; ++i)
      if (t.genOf[h] >= 0) x = t.m.act[static_cast<size_t>(t.genOf[h])][x];
  return static_cast<bool>(t.m.inP[x]) == f.shouldBeP;
}

// t's monoid on the generators of the heaps not in `heaps`, times a cyclic
// monoid for each heap of `heaps`, marked.
Pretension QuotientSteps::withCyclic(const Pretension& t, const std::vector<int64_t>& heaps,
                                     const std::vector<Cyclic>& cyclic) const {
  std::vector<int> keep;
  std::vector<int> newGen(t.m.act.size(), -1);
  for (size_t h = 0; h < t.genOf.size(); ++h) {
    int g = t.genOf[h];
    if (g < 0 || std::find(heaps.begin(), heaps.end(), static_cast<int64_t>(h)) != heaps.end())
      continue;
    if (newGen[static_cast<size_t>(g)] < 0) {
      newGen[static_cast<size_t>(g)] = static_cast<int>(keep.size());
      keep.push_back(g);
    }
  }
  Pretension r;
  r.m = productWithCyclic(t.m, keep, cyclic);
  r.genOf.assign(options_.size(), -1);
  for (size_t h = 0; h < options_.size(); ++h) {
    if (terminal(h)) continue;
    auto at = std::find(heaps.begin(), heaps.end(), static_cast<int64_t>(h));
    if (at != heaps.end())
      r.genOf[h] = static_cast<int>(keep.size() + static_cast<size_t>(at - heaps.begin()));
    else
      r.genOf[h] = newGen[static_cast<size_t>(t.genOf[h])];
  }
  mark(r);
  return r;
}

// A new guess that gets `f` right: the heaps in f (one, then two, then three
// of them) each given a cyclic monoid of their own, long enough for their
// count in f.
std::optional<Pretension> QuotientSteps::recalibrate(const Pretension& t, const Failure& f,
                                                     RepairStep* step) const {
  std::vector<int64_t> involved;
  for (size_t h = 0; h < f.counts.size(); ++h)
    if (f.counts[h] > 0 && !terminal(h)) involved.push_back(static_cast<int64_t>(h));
  // Larger heaps first: the newest heap is the likeliest to need its own.
  std::reverse(involved.begin(), involved.end());
  auto cyclicFor = [&](int64_t h, uint32_t periodChoice) {
    uint32_t index = std::max<uint32_t>(cyclicIndex(t.m, t.phi(static_cast<size_t>(h))),
                                        static_cast<uint32_t>(f.counts[static_cast<size_t>(h)]));
    index = std::max<uint32_t>(index, 2);
    uint32_t period = periodChoice == 0 ? 2 : std::max<uint32_t>(2, 2 * ((index - 2) / 2));
    return Cyclic{index, period};
  };
  size_t most = std::min<size_t>(5, involved.size());
  for (size_t size = 1; size <= most; ++size) {
    std::vector<bool> pick(involved.size(), false);
    std::fill(pick.begin(), pick.begin() + static_cast<long>(size), true);
    do {
      std::vector<int64_t> heaps;
      for (size_t i = 0; i < involved.size(); ++i)
        if (pick[i]) heaps.push_back(involved[i]);
      for (uint32_t choice = 0; choice < 2; ++choice) {
        checkInterrupt();
        std::vector<Cyclic> cyclic;
        uint64_t span = t.m.size;
        for (int64_t h : heaps) {
          cyclic.push_back(cyclicFor(h, choice));
          span *= cyclic.back().index + cyclic.back().period;
        }
        if (span > kMaxCandidate) continue;
        Pretension trial = reduced(withCyclic(t, heaps, cyclic));
        if (classifies(trial, f)) {
          if (step) *step = RepairStep{heaps, cyclic};
          return trial;
        }
      }
    } while (std::prev_permutation(pick.begin(), pick.end()));
  }
  return std::nullopt;
}

// The steps of an earlier expansion whose first failure, with its larger
// heaps shifted by d = (this heap - that one), is `f` (the heaps it shares
// unshifted stay), applied shifted to `t`: a guess that gets `f` right, or
// nothing. Only a guess: the full check decides, and any guess that checks
// is the quotient (docs/misere.md, "Quotients").
std::optional<Pretension> QuotientSteps::replay(const Pretension& t, const Failure& f,
                                                Repair& repair) const {
  const int64_t n = repair.heap;
  for (auto past = repairs_.rbegin(); past != repairs_.rend(); ++past) {
    const int64_t d = n - past->heap;
    if (past->steps.empty() || past->failure.size() != repair.failure.size()) continue;
    std::vector<int64_t> fixed;  // heaps of the earlier failure matched unshifted
    bool matches = true;
    for (const std::pair<int64_t, int64_t>& entry : repair.failure) {
      const int64_t h = entry.first, count = entry.second;
      auto has = [&](int64_t heap) {
        return std::find(past->failure.begin(), past->failure.end(),
                         std::pair<int64_t, int64_t>{heap, count}) != past->failure.end();
      };
      if (has(h - d)) continue;
      if (!has(h)) {
        matches = false;
        break;
      }
      fixed.push_back(h);
    }
    if (!matches) continue;
    Pretension trial = t;
    std::vector<RepairStep> steps;
    for (const RepairStep& step : past->steps) {
      RepairStep shifted{{}, step.cyclic};
      uint64_t span = trial.m.size;
      for (size_t i = 0; i < step.heaps.size(); ++i) {
        int64_t h = step.heaps[i];
        bool keep = std::find(fixed.begin(), fixed.end(), h) != fixed.end() || h + d > n;
        int64_t to = keep ? h : h + d;
        if (to < 1 || to > n || terminal(static_cast<size_t>(to))) {
          matches = false;
          break;
        }
        shifted.heaps.push_back(to);
        span *= step.cyclic[i].index + step.cyclic[i].period;
      }
      if (!matches || span > kMaxCandidate) {
        matches = false;
        break;
      }
      checkInterrupt();
      trial = reduced(withCyclic(trial, shifted.heaps, shifted.cyclic));
      steps.push_back(std::move(shifted));
    }
    if (!matches || !classifies(trial, f)) continue;
    repair.steps = std::move(steps);
    return trial;
  }
  return std::nullopt;
}

bool QuotientSteps::addHeap(int64_t n) {
  readOptions(n);
  size_t h = static_cast<size_t>(n);
  q_.genOf.push_back(-1);
  if (terminal(h)) return true;
  // Heap n alone: in P when none of its options is.
  bool aloneP = true;
  for (const std::vector<int64_t>& option : options_[h])
    if (q_.m.inP[times(q_, 0, option)]) aloneP = false;
  // The quotient unchanged, heap n one of its elements: only the sums with
  // heap n need a check, from the states already checked. First the element
  // of an earlier heap with the same option elements (then heap n's letter is
  // that heap's, and adds nothing), then every element in order.
  std::vector<uint32_t> candidates;
  Letter own = letterOf(q_, h);
  for (const Letter& l : checked_.letters)
    if (l.options == own.options) {
      candidates.push_back(q_.m.generator(static_cast<size_t>(l.gen)));
      break;
    }
  for (uint32_t x = 0; x < q_.m.size; ++x)
    if (candidates.empty() || x != candidates[0]) candidates.push_back(x);
  for (uint32_t x : candidates) {
    if (static_cast<bool>(q_.m.inP[x]) != aloneP) continue;
    int g = -1;
    for (size_t i = 0; i < q_.m.act.size(); ++i)
      if (q_.m.generator(i) == x) g = static_cast<int>(i);
    bool newGenerator = g < 0;
    if (newGenerator) {
      // x is not a generator yet: add its action (element numbers stay).
      std::vector<uint32_t> column(q_.m.size);
      for (uint32_t y = 0; y < q_.m.size; ++y) column[y] = q_.m.product(y, x);
      g = static_cast<int>(q_.m.act.size());
      q_.m.act.push_back(std::move(column));
    }
    q_.genOf[h] = g;
    size_t states = checked_.size(), letters = checked_.letters.size();
    if (!addLetter(q_, checked_, h) || !extendStates(q_, checked_, letters)) return true;
    rollBack(checked_, states, letters);
    q_.genOf[h] = -1;
    if (newGenerator) q_.m.act.pop_back();
  }
  // The quotient grows: a cyclic monoid for heap n, repaired until it checks.
  Pretension trial = reduced(withCyclic(q_, {n}, {Cyclic{2, 2}}));
  Repair repair{n, {}, {}};
  for (int round = 0; round < 200; ++round) {
    CheckedStates checkedTrial;
    startStates(trial.m, checkedTrial);
    std::optional<Failure> f = verifyInto(trial, checkedTrial);
    if (!f) {
      q_ = std::move(trial);
      checked_ = std::move(checkedTrial);
      expansions_.push_back(n);
      renumbered_ = true;
      repairs_.push_back(std::move(repair));
      if (repairs_.size() > 16) repairs_.erase(repairs_.begin());
      return true;
    }
    if (round == 0) {
      for (size_t h = 0; h < f->counts.size(); ++h)
        if (f->counts[h] > 0) repair.failure.push_back({static_cast<int64_t>(h), f->counts[h]});
      if (std::optional<Pretension> guess = replay(trial, *f, repair)) {
        trial = std::move(*guess);
        continue;
      }
    }
    RepairStep step;
    std::optional<Pretension> next = recalibrate(trial, *f, &step);
    if (!next) break;
    repair.steps.push_back(std::move(step));
    trial = std::move(*next);
    if (trial.m.size > o_.maxOrder * 4u) break;
  }
  return false;
}

// Φ's smallest period, and the theorem's check (docs/misere.md): with
// Φ(n) = Φ(n - p) for n0 + p <= n <= N and N >= parts (n0 + p - 1) + take,
// every larger heap has the options, and so the element, of heap n - p.
void QuotientSteps::findPeriod(QuotientResult& r) const {
  int64_t last = r.lastHeap;
  for (int64_t p = 1; 2 * p <= last + 1; ++p) {
    int64_t n = last;
    while (n - p >= 0 && r.phi[static_cast<size_t>(n)] == r.phi[static_cast<size_t>(n - p)]) --n;
    int64_t n0 = n + 1 - p;  // Φ(m) = Φ(m - p) for m in n0 + p .. last
    if (n0 < 0) n0 = 0;
    // A part shifted down by p must stay a heap (n0 at least 1) and meet
    // the smallest part a split allows; a parity condition needs an even
    // shift (Φ with period p has period 2p from the same n0).
    int64_t start = std::max<int64_t>({n0, 1, o_.minStart});
    int64_t shift = o_.evenPeriod && p % 2 != 0 ? 2 * p : p;
    if (o_.take && last >= o_.parts * (start + shift - 1) + *o_.take) {
      r.period = p;
      r.preperiod = n0;
      r.finalHeap = last;
      return;
    }
    // Observed only: at least two whole periods and half of the heaps, so
    // that a late coincidence is not taken for a period (as runtime/Period.h).
    if (!r.period && last + 1 - n0 >= 2 * p && 2 * (last + 1 - n0) >= last + 1) {
      r.period = p;
      r.preperiod = n0;
      if (!o_.take) return;
    }
  }
}

QuotientSteps::QuotientSteps(HeapOptionsFn options, const QuotientOptions& o)
    : optionsFn_(std::move(options)), o_(o) {
  q_.m.inP = {0};
  q_.m.parent = {0};
  q_.m.parentGen = {-1};
  r_.lastHeap = -1;
}

const QuotientResult& QuotientSteps::extend(int64_t to) {
  bool grew = false;
  try {
    for (int64_t n = r_.lastHeap + 1; n <= to && stopped_.empty() && !r_.finalHeap; ++n) {
      checkInterrupt();
      if (!addHeap(n)) {
        options_.pop_back();
        q_.genOf.pop_back();
        stopped_ = fmt::format("the quotient could not be found at heap {} (|Q| was {} at heap {})",
                               n, q_.m.size, n - 1);
        break;
      }
      grew = true;
      r_.lastHeap = n;
      if (o_.progress) o_.progress(n, q_.m.size);
      if (q_.m.size > o_.maxOrder) {
        stopped_ = fmt::format("the quotient has {} elements at heap {}, more than --max-order {}",
                               q_.m.size, n, o_.maxOrder);
        break;
      }
      if (renumbered_) {
        r_.phi.assign(static_cast<size_t>(n + 1), 0);
        for (size_t h = 0; h <= static_cast<size_t>(n); ++h) r_.phi[h] = q_.phi(h);
        renumbered_ = false;
      } else {
        r_.phi.push_back(q_.phi(static_cast<size_t>(n)));
      }
      // Only the theorem needs the period at every heap.
      if (o_.take) {
        r_.period.reset();
        r_.preperiod.reset();
        findPeriod(r_);
      }
    }
  } catch (const Interrupted&) {
    // The heaps finished stay a valid result; the half-done heap leaves the
    // computation unusable (QuotientBuilder's owner drops it).
    if (grew) finish();
    throw;
  }
  if (grew) finish();
  r_.stopped = stopped_;
  return r_;
}

// The result for heaps 0..lastHeap from the quotient kept.
void QuotientSteps::finish() {
  r_.phi.assign(static_cast<size_t>(r_.lastHeap + 1), 0);
  for (size_t h = 0; h < r_.phi.size(); ++h) r_.phi[h] = q_.phi(h);
  if (!r_.finalHeap) {
    r_.period.reset();
    r_.preperiod.reset();
    findPeriod(r_);
  }
  r_.quotient = q_.m;
  r_.expansions = expansions_;
  r_.stopped = stopped_;
}

QuotientBuilder::QuotientBuilder(HeapOptionsFn options, const QuotientOptions& o)
    : impl_(std::make_unique<QuotientSteps>(std::move(options), o)) {}
QuotientBuilder::~QuotientBuilder() = default;
const QuotientResult& QuotientBuilder::extendTo(int64_t heap) {
  return impl_->extend(heap);
}
const QuotientResult& QuotientBuilder::result() const {
  return impl_->result();
}

QuotientResult computeQuotient(const HeapOptionsFn& options, const QuotientOptions& o) {
  QuotientBuilder b(options, o);
  return b.extendTo(o.maxHeap);
}

uint32_t elementOf(const QuotientResult& q, const std::vector<int64_t>& heaps) {
  uint32_t x = 0;
  for (int64_t h : heaps) x = q.quotient.product(x, q.phi[static_cast<size_t>(h)]);
  return x;
}

Presentation presentation(const QuotientResult& q) {
  const BipartiteMonoid& m = q.quotient;
  Presentation pr;
  // Generators: heaps whose element the smaller heaps do not reach.
  std::vector<uint8_t> reached(m.size, 0);
  std::vector<uint32_t> reachedList{0};
  reached[0] = 1;
  std::vector<uint32_t> gens;
  for (size_t h = 0; h < q.phi.size(); ++h) {
    uint32_t x = q.phi[h];
    if (reached[x]) continue;
    gens.push_back(x);
    pr.heapOf.push_back(static_cast<int64_t>(h));
    pr.names.push_back(gens.size() <= 26 ? std::string(1, static_cast<char>('a' + gens.size() - 1))
                                         : fmt::format("g{}", gens.size()));
    for (size_t i = 0; i < reachedList.size(); ++i) {
      uint32_t y = m.product(reachedList[i], x);
      if (!reached[y]) {
        reached[y] = 1;
        reachedList.push_back(y);
      }
    }
  }
  // Normal forms: the least word of each element, comparing the exponents
  // of later generators first.
  size_t k = gens.size();
  using Word = std::vector<uint32_t>;
  std::vector<Word> normal(m.size);
  std::vector<uint8_t> has(m.size, 0);
  std::vector<uint32_t> created{0};
  normal[0] = Word(k, 0);
  has[0] = 1;
  for (size_t g = 0; g < k; ++g) {
    std::vector<uint32_t> cur = created;
    std::vector<Word> curWords;
    for (uint32_t x : cur) curWords.push_back(normal[x]);
    size_t rows = cur.size();
    for (bool grew = true; grew;) {
      grew = false;
      for (size_t i = 0; i < rows; ++i) {
        cur[i] = m.product(cur[i], gens[g]);
        ++curWords[i][g];
        if (!has[cur[i]]) {
          has[cur[i]] = 1;
          normal[cur[i]] = curWords[i];
          created.push_back(cur[i]);
          grew = true;
        }
      }
    }
  }
  std::map<Word, uint32_t> isNormal;
  for (uint32_t x = 0; x < m.size; ++x) isNormal.emplace(normal[x], x);
  auto text = [&](const Word& w) {
    std::string s;
    for (size_t g = 0; g < k; ++g) {
      if (w[g] == 0) continue;
      if (!s.empty()) s += ' ';
      s += pr.names[g];
      if (w[g] > 1) s += fmt::format("^{}", w[g]);
    }
    return s.empty() ? std::string("1") : s;
  };
  for (uint32_t x = 0; x < m.size; ++x) pr.elements.push_back(text(normal[x]));
  std::set<Word> done;
  for (uint32_t x = 0; x < m.size; ++x) {
    for (size_t g = 0; g < k; ++g) {
      Word w = normal[x];
      ++w[g];
      if (isNormal.count(w) || done.count(w)) continue;
      bool minimal = true;
      for (size_t j = 0; j < k && minimal; ++j) {
        if (w[j] == 0) continue;
        Word v = w;
        --v[j];
        if (!isNormal.count(v)) minimal = false;
      }
      if (!minimal) continue;
      done.insert(w);
      pr.relations.push_back(text(w) + " = " + text(normal[m.product(x, gens[g])]));
    }
  }
  return pr;
}

}  // namespace gdsl
