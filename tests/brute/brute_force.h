// Independent brute-force Grundy values for every game family in docs/games.md.
// Plain C++20 and no gdsl code: each game is a few lines that list a position's options and
// take their mex, so the tests can check gdsl (and the known values) against it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace brute {

using Value = uint64_t;
using Table = std::vector<Value>;  // g(0), g(1), ..., g(maxN)
using Grid = std::vector<Table>;   // grid[a][b]
using Heaps = std::vector<int>;
using Graph = std::vector<std::vector<int>>;  // adjacency lists, vertices 0..n-1

// mex: the least non-negative integer not among the values (d values: the answer is <= d).
inline Value mex(const std::vector<Value>& values) {
  std::vector<bool> seen(values.size() + 1, false);
  for (Value v : values) {
    if (v < seen.size()) seen[v] = true;
  }
  Value m = 0;
  while (seen[m]) ++m;
  return m;
}

inline Value xorOf(const std::vector<int>& xs) {
  Value x = 0;
  for (int v : xs) x ^= static_cast<Value>(v);
  return x;
}

// Memoized Grundy search over any ordered state type, for games that are not heap tables.
// `options(s)` returns the successors' values, calling back into the solver for sub-positions.
template <class State>
class Solver {
 public:
  using Options = std::function<std::vector<Value>(const State&, Solver&)>;
  explicit Solver(Options options) : options_(std::move(options)) {}
  Value operator()(const State& s) {
    auto it = memo_.find(s);
    if (it != memo_.end()) return it->second;
    Value g = mex(options_(s, *this));
    memo_.emplace(s, g);
    return g;
  }
  size_t size() const { return memo_.size(); }

 private:
  Options options_;
  std::map<State, Value> memo_;
};

// ---------------------------------------------------------------------------------------------
// One-heap games: tables g(0..maxN).

// Subtraction game: take s in S with s <= n.
inline Table subtraction(int maxN, const std::vector<int>& S) {
  Table g(maxN + 1, 0);
  for (int n = 0; n <= maxN; ++n) {
    std::vector<Value> options;
    for (int s : S)
      if (s >= 1 && s <= n) options.push_back(g[n - s]);
    g[n] = mex(options);
  }
  return g;
}

// Nim on one heap: take any positive number.
inline Table nim(int maxN) {
  Table g(maxN + 1, 0);
  for (int n = 0; n <= maxN; ++n) {
    std::vector<Value> options;
    for (int k = 1; k <= n; ++k) options.push_back(g[n - k]);
    g[n] = mex(options);
  }
  return g;
}

// Bash game: take 1..k.
inline Table bash(int maxN, int k) {
  std::vector<int> S;
  for (int s = 1; s <= k; ++s) S.push_back(s);
  return subtraction(maxN, S);
}

// Take up to half: take 1..floor(n/2).
inline Table takeHalf(int maxN) {
  Table g(maxN + 1, 0);
  for (int n = 0; n <= maxN; ++n) {
    std::vector<Value> options;
    for (int k = 1; k <= n / 2; ++k) options.push_back(g[n - k]);
    g[n] = mex(options);
  }
  return g;
}

// Split a heap into two non-empty heaps a + (n - a); `unequal` forbids a == n - a (Grundy's game).
inline Table split(int maxN, bool unequal) {
  Table g(maxN + 1, 0);
  for (int n = 0; n <= maxN; ++n) {
    std::vector<Value> options;
    for (int a = 1; a <= n - a; ++a)
      if (!unequal || a != n - a) options.push_back(g[a] ^ g[n - a]);
    g[n] = mex(options);
  }
  return g;
}
inline Table splitTwo(int maxN) {
  return split(maxN, false);
}
inline Table grundyGame(int maxN) {
  return split(maxN, true);
}

// A one-heap game of removals and splits under a condition on the parts:
// remove k of `takes` (leaving one heap, or none when k == n), or remove k of
// `splits` and leave two non-empty heaps a <= b with a + b = n - k and
// allows(a, b). Written out: every pair, its condition asked.
struct ConditionedSplit {
  int k;
  std::function<bool(int, int)> allows;
};
inline Table takeAndSplit(int maxN, const std::vector<int>& takes,
                          const std::vector<ConditionedSplit>& splits) {
  Table g(maxN + 1, 0);
  for (int n = 0; n <= maxN; ++n) {
    std::vector<Value> options;
    for (int k : takes)
      if (k <= n) options.push_back(g[n - k]);
    for (const ConditionedSplit& s : splits)
      for (int a = 1; a <= n - s.k - a; ++a)
        if (s.allows(a, n - s.k - a)) options.push_back(g[a] ^ g[n - s.k - a]);
    g[n] = mex(options);
  }
  return g;
}

// Lasker's nim: take any positive number, or split into two non-empty heaps.
inline Table lasker(int maxN) {
  Table g(maxN + 1, 0);
  for (int n = 0; n <= maxN; ++n) {
    std::vector<Value> options;
    for (int k = 1; k <= n; ++k) options.push_back(g[n - k]);
    for (int a = 1; a <= n - a; ++a) options.push_back(g[a] ^ g[n - a]);
    g[n] = mex(options);
  }
  return g;
}

// Any octal game "d0.d1d2d3...": digit dk, bit 1 = remove k tokens emptying the heap, bit 2 =
// remove k leaving one non-empty heap, bit 4 = remove k leaving two non-empty heaps. For k = 0
// only bit 4 means anything (split without taking). An octal code is a hexadecimal one whose
// digits have no bit 8 (below): the same definition.
inline Table hexadecimal(const std::string& code, int maxN);
inline Table octal(const std::string& code, int maxN) {
  auto dot = code.find('.');
  if (dot == std::string::npos || dot != 1) throw std::invalid_argument("octal code: " + code);
  for (size_t i = 0; i < code.size(); ++i)
    if (i != dot && (code[i] < '0' || code[i] > '7'))
      throw std::invalid_argument("octal code: " + code);
  return hexadecimal(code, maxN);
}

// Any hexadecimal game "d0.d1d2...": digit dk (0-9, A-F), bit 1 = remove k tokens emptying
// the heap, bit 2 = leaving one non-empty heap, bit 4 = two, bit 8 = three non-empty heaps.
// For k = 0 only bits 4 and 8 mean anything (split without taking). Pairs a <= b; a split
// into three as every a <= b <= c with a + b + c = n - k; each option's value marked in an array.
inline Table hexadecimal(const std::string& code, int maxN) {
  auto dot = code.find('.');
  if (dot == std::string::npos || dot != 1) throw std::invalid_argument("hex code: " + code);
  auto value = [&](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    throw std::invalid_argument("hex code: " + code);
  };
  std::vector<int> digit{value(code[0])};
  for (size_t i = dot + 1; i < code.size(); ++i) digit.push_back(value(code[i]));
  Table g(maxN + 1, 0);
  std::vector<char> seen;  // seen[v]: some option has value v (values xor below 2 * max + 2)
  Value largest = 0;
  for (int n = 0; n <= maxN; ++n) {
    seen.assign(2 * static_cast<size_t>(largest) + 2, 0);
    auto see = [&](Value v) {
      if (v >= seen.size()) seen.resize(v + 1, 0);
      seen[v] = 1;
    };
    for (int k = 0; k < static_cast<int>(digit.size()) && k <= n; ++k) {
      int d = digit[k], rest = n - k;
      if (k > 0 && (d & 1) && rest == 0) see(0);
      if (k > 0 && (d & 2) && rest > 0) see(g[rest]);
      if (d & 4)
        for (int a = 1; a <= rest - a; ++a) see(g[a] ^ g[rest - a]);
      if (d & 8)  // a <= b <= c: every multiset of three parts once
        for (int a = 1; 3 * a <= rest; ++a)
          for (int b = a; 2 * b <= rest - a; ++b) see(g[a] ^ g[b] ^ g[rest - a - b]);
    }
    Value m = 0;
    while (m < seen.size() && seen[m]) ++m;
    g[n] = m;
    largest = std::max(largest, m);
  }
  return g;
}

// Row of n tokens: remove a block of k in K adjacent tokens and the token on each side of it,
// where present (Dawson's chess is K = {1}). Written by positions, not by octal digits.
inline Table removeWithNeighbours(int maxN, const std::vector<int>& K) {
  Table g(maxN + 1, 0);
  for (int n = 0; n <= maxN; ++n) {
    std::vector<Value> options;
    for (int k : K)
      for (int i = 0; i + k <= n; ++i) {  // block i..i+k-1, kills i-1..i+k
        int left = std::max(i - 1, 0), right = std::max(n - (i + k) - 1, 0);
        options.push_back(g[left] ^ g[right]);
      }
    g[n] = mex(options);
  }
  return g;
}

// Removing k adjacent tokens anywhere from a row of n (`remove K`): n -> i + (n - k - i).
inline Table removeBlock(int maxN, const std::vector<int>& K) {
  Table g(maxN + 1, 0);
  for (int n = 0; n <= maxN; ++n) {
    std::vector<Value> options;
    for (int k : K)
      for (int i = 0; i + k <= n; ++i) options.push_back(g[i] ^ g[n - k - i]);
    g[n] = mex(options);
  }
  return g;
}

// Crosses (Treblecross) on a 1 x n strip of empty cells 0..n-1: an X at i kills cells
// i-2..i+2, leaving strips of max(i-2, 0) and max(n-i-3, 0) cells.
inline Table crosses(int maxN) {
  Table g(maxN + 1, 0);
  for (int n = 0; n <= maxN; ++n) {
    std::vector<Value> options;
    for (int i = 0; i < n; ++i)
      options.push_back(g[std::max(i - 2, 0)] ^ g[std::max(n - i - 3, 0)]);
    g[n] = mex(options);
  }
  return g;
}

// L-tromino placement counted by free cells: a piece uses 3 cells and leaves two fields of any
// sizes a + b = n - 3 (either may be empty).
inline Table trominoCells(int maxN) {
  Table g(maxN + 1, 0);
  for (int n = 0; n <= maxN; ++n) {
    std::vector<Value> options;
    for (int a = 0; a <= n - 3; ++a) options.push_back(g[a] ^ g[n - 3 - a]);
    g[n] = mex(options);
  }
  return g;
}

// L-trominoes on the real 2 x n board (bit 2c+r = cell (r, c) taken), by full search.
inline Value trominoBoard(int n) {
  Solver<uint64_t> solve([n](const uint64_t& used, Solver<uint64_t>& self) {
    std::vector<Value> options;
    for (int c = 0; c + 1 < n; ++c) {
      uint64_t square = uint64_t{15} << (2 * c);  // the 2 x 2 block at columns c, c+1
      for (int skip = 0; skip < 4; ++skip) {
        uint64_t piece = square & ~(uint64_t{1} << (2 * c + skip));
        if ((used & piece) == 0) options.push_back(self(used | piece));
      }
    }
    return options;
  });
  return solve(0);
}

// ---------------------------------------------------------------------------------------------
// Two-parameter games: grids g[a][b].

// Cutting game: cut a w x h sheet into two along a grid line; no piece may be 1 wide (so a
// sheet with a side below 2 cannot be cut at all).
inline Grid cut(int maxW, int maxH) {
  int m = std::max(maxW, maxH);
  Grid g(m + 1, Table(m + 1, 0));
  for (int w = 0; w <= m; ++w)
    for (int h = 0; h <= m; ++h) {
      std::vector<Value> options;
      if (w < 2 || h < 2) continue;
      for (int a = 2; a <= w - 2; ++a) options.push_back(g[a][h] ^ g[w - a][h]);
      for (int b = 2; b <= h - 2; ++b) options.push_back(g[w][b] ^ g[w][h - b]);
      g[w][h] = mex(options);
    }
  return g;
}

// Wythoff's game: take from one heap, or the same positive number from both.
inline Grid wythoff(int maxA, int maxB) {
  Grid g(maxA + 1, Table(maxB + 1, 0));
  for (int a = 0; a <= maxA; ++a)
    for (int b = 0; b <= maxB; ++b) {
      std::vector<Value> options;
      for (int k = 1; k <= a; ++k) options.push_back(g[a - k][b]);
      for (int k = 1; k <= b; ++k) options.push_back(g[a][b - k]);
      for (int k = 1; k <= std::min(a, b); ++k) options.push_back(g[a - k][b - k]);
      g[a][b] = mex(options);
    }
  return g;
}

// Wythoff P-positions (a_k, b_k), a_k <= b_k, from the complementary-sequence construction
// a_k = mex of all earlier a_j and b_j, b_k = a_k + k (no game search).
inline std::vector<std::pair<int, int>> wythoffPPositions(int count) {
  std::vector<std::pair<int, int>> p;
  std::vector<bool> used(3 * count + 3, false);
  int a = 0;
  for (int k = 0; k < count; ++k) {
    while (used[a]) ++a;
    p.push_back({a, a + k});
    used[a] = true;
    used[a + k] = true;
  }
  return p;
}

// ---------------------------------------------------------------------------------------------
// Graph games.

// Chips on a DAG: g(v) = mex over the successors of v.
inline Table dagChips(const Graph& adj) {
  Solver<int> solve([&adj](const int& v, Solver<int>& self) {
    std::vector<Value> options;
    for (int u : adj[v]) options.push_back(self(u));
    return options;
  });
  Table g;
  for (int v = 0; v < static_cast<int>(adj.size()); ++v) g.push_back(solve(v));
  return g;
}

// Several chips: xor of the single-chip values (checked against a search over the multiset).
inline Value dagChipsSearch(const Graph& adj, std::vector<int> chips) {
  Solver<std::vector<int>> solve([&adj](const std::vector<int>& c, Solver<std::vector<int>>& self) {
    std::vector<Value> options;
    for (size_t i = 0; i < c.size(); ++i)
      for (int u : adj[c[i]]) {
        std::vector<int> next = c;
        next[i] = u;
        std::sort(next.begin(), next.end());
        options.push_back(self(next));
      }
    return options;
  });
  std::sort(chips.begin(), chips.end());
  return solve(chips);
}

// Breadth-first distances from `source` (undirected adjacency lists); -1 if unreachable.
inline std::vector<int> bfs(const Graph& adj, int source) {
  std::vector<int> dist(adj.size(), -1);
  std::queue<int> q;
  dist[source] = 0;
  q.push(source);
  while (!q.empty()) {
    int v = q.front();
    q.pop();
    for (int u : adj[v])
      if (dist[u] < 0) {
        dist[u] = dist[v] + 1;
        q.push(u);
      }
  }
  return dist;
}

// Robot and fire: the fire starts at `capital` on day 1 and each day spreads along every road,
// so city v burns from day dist(v) + 1 on. On day d the pilot must move the robot from v to a
// neighbour that is not burning on day d; state (vertex, day). The pilot with no safe move
// loses the robot (normal play). Value of the state (v, day); the game starts at (capital, 1).
inline Value robotFireAt(const Graph& adj, int capital, int vertex, int day) {
  std::vector<int> dist = bfs(adj, capital);
  using State = std::pair<int, int>;
  Solver<State> solve([&](const State& s, Solver<State>& self) {
    std::vector<Value> options;
    auto [v, d] = s;
    for (int u : adj[v]) {
      bool burning = dist[u] >= 0 && dist[u] + 1 <= d;
      if (!burning) options.push_back(self({u, d + 1}));
    }
    return options;
  });
  return solve({vertex, day});
}
inline Value robotFire(const Graph& adj, int capital) {
  return robotFireAt(adj, capital, capital, 1);
}

// ---------------------------------------------------------------------------------------------
// List-position games (memoized search; values of the full game, not of a formula).

// Moore's Nim_k: reduce between 1 and k heaps (each by a positive amount).
inline Value moore(int k, Heaps heaps) {
  Solver<Heaps> solve([k](const Heaps& h, Solver<Heaps>& self) {
    std::vector<Value> options;
    Heaps next = h;
    // choose heaps in increasing index order, each reduced; at least one, at most k
    std::function<void(size_t, int)> pick = [&](size_t from, int chosen) {
      if (chosen > 0) {
        Heaps s = next;
        std::sort(s.begin(), s.end());
        options.push_back(self(s));
      }
      if (chosen == k) return;
      for (size_t i = from; i < h.size(); ++i)
        for (int x = 0; x < h[i]; ++x) {
          next[i] = x;
          pick(i + 1, chosen + 1);
          next[i] = h[i];
        }
    };
    pick(0, 0);
    return options;
  });
  std::sort(heaps.begin(), heaps.end());
  return solve(heaps);
}

// Moore's theorem: P iff for every bit the number of heaps with that bit is 0 mod k+1.
inline bool moorePPosition(int k, const Heaps& heaps) {
  for (int bit = 0; bit < 31; ++bit) {
    int count = 0;
    for (int h : heaps) count += (h >> bit) & 1;
    if (count % (k + 1) != 0) return false;
  }
  return true;
}

// Staircase nim: c[i] coins on step i; move any positive number of coins from step i >= 1 to
// step i - 1. Step 0 is the floor (its coins are out of play).
inline Value staircase(const std::vector<int>& coins) {
  Solver<std::vector<int>> solve([](const std::vector<int>& c, Solver<std::vector<int>>& self) {
    std::vector<Value> options;
    for (size_t i = 1; i < c.size(); ++i)
      for (int t = 1; t <= c[i]; ++t) {
        std::vector<int> next = c;
        next[i] -= t;
        next[i - 1] = (i - 1 == 0) ? 0 : next[i - 1] + t;
        options.push_back(self(next));
      }
    return options;
  });
  std::vector<int> c = coins;
  if (!c.empty()) c[0] = 0;
  return solve(c);
}
inline Value staircaseFormula(const std::vector<int>& coins) {
  Value x = 0;
  for (size_t i = 1; i < coins.size(); i += 2) x ^= static_cast<Value>(coins[i]);
  return x;
}

// Nimble: coins on cells 0, 1, ... (several may share a cell); move one coin left any number of
// cells, not past cell 0.
inline Value nimble(std::vector<int> cells) {
  Solver<std::vector<int>> solve([](const std::vector<int>& p, Solver<std::vector<int>>& self) {
    std::vector<Value> options;
    for (size_t i = 0; i < p.size(); ++i)
      for (int t = 0; t < p[i]; ++t) {
        std::vector<int> next = p;
        next[i] = t;
        std::sort(next.begin(), next.end());
        options.push_back(self(next));
      }
    return options;
  });
  std::sort(cells.begin(), cells.end());
  return solve(cells);
}
inline Value nimbleFormula(const std::vector<int>& cells) {
  return xorOf(cells);
}

// Nimble-2: distinct cells; a coin moves left but not onto or past another coin.
inline Value nimble2(std::vector<int> cells) {
  Solver<std::vector<int>> solve([](const std::vector<int>& p, Solver<std::vector<int>>& self) {
    std::vector<Value> options;
    for (size_t i = 0; i < p.size(); ++i) {
      int lowest = i == 0 ? 0 : p[i - 1] + 1;
      for (int t = lowest; t < p[i]; ++t) {
        std::vector<int> next = p;
        next[i] = t;
        options.push_back(self(next));
      }
    }
    return options;
  });
  std::sort(cells.begin(), cells.end());
  return solve(cells);
}
// Gaps gap_i = p_i - p_{i-1} - 1 (p_{-1} = -1) form a staircase that descends to the right:
// xor of the last, third-to-last, ... gaps.
inline Value nimble2Formula(std::vector<int> cells) {
  std::sort(cells.begin(), cells.end());
  Value x = 0;
  int m = static_cast<int>(cells.size());
  for (int i = m - 1; i >= 0; i -= 2)
    x ^= static_cast<Value>(cells[i] - (i ? cells[i - 1] : -1) - 1);
  return x;
}

// Turning turtles (optional second flip) and Twins (second flip required) on a 0/1 row
// (1 = head): turn a head at i to tails and flip one coin at j < i.
inline Value turningCoins(const std::vector<int>& row, bool twins) {
  Solver<std::vector<int>> solve(
      [twins](const std::vector<int>& c, Solver<std::vector<int>>& self) {
        std::vector<Value> options;
        for (size_t i = 0; i < c.size(); ++i) {
          if (c[i] != 1) continue;
          std::vector<int> next = c;
          next[i] = 0;
          if (!twins) options.push_back(self(next));
          for (size_t j = 0; j < i; ++j) {
            std::vector<int> two = next;
            two[j] ^= 1;
            options.push_back(self(two));
          }
        }
        return options;
      });
  return solve(row);
}
inline Value turtles(const std::vector<int>& row) {
  return turningCoins(row, false);
}
inline Value twins(const std::vector<int>& row) {
  return turningCoins(row, true);
}
// Nim on the heads' positions: 1-based for turtles, 0-based for twins.
inline Value turtlesFormula(const std::vector<int>& row) {
  Value x = 0;
  for (size_t i = 0; i < row.size(); ++i)
    if (row[i] == 1) x ^= static_cast<Value>(i + 1);
  return x;
}
inline Value twinsFormula(const std::vector<int>& row) {
  Value x = 0;
  for (size_t i = 0; i < row.size(); ++i)
    if (row[i] == 1) x ^= static_cast<Value>(i);
  return x;
}

// Northcott's game, finite impartial form: each row holds two chips at columns (x, y), x != y;
// a move slides either chip of one row toward the other, without jumping (retreats are left out,
// which keeps the game finite; see examples/northcott.game).
inline Value northcott(const std::vector<std::pair<int, int>> rows) {
  using Rows = std::vector<std::pair<int, int>>;
  Solver<Rows> solve([](const Rows& r, Solver<Rows>& self) {
    std::vector<Value> options;
    for (size_t i = 0; i < r.size(); ++i) {
      auto [x, y] = r[i];
      int lo = std::min(x, y), hi = std::max(x, y);
      for (int t = lo + 1; t < hi; ++t) {
        Rows a = r, b = r;
        a[i] = {t, hi};  // the left chip moves right
        b[i] = {lo, t};  // the right chip moves left
        options.push_back(self(a));
        options.push_back(self(b));
      }
    }
    return options;
  });
  return solve(rows);
}
inline Value northcottFormula(const std::vector<std::pair<int, int>>& rows) {
  Value x = 0;
  for (auto [a, b] : rows) x ^= static_cast<Value>(std::abs(a - b) - 1);
  return x;
}

// Georgia and Bob: chips on distinct cells 1, 2, ...; move one chip left, not onto or past
// another chip, and not past cell 1.
inline Value georgiaBob(std::vector<int> cells) {
  Solver<std::vector<int>> solve([](const std::vector<int>& p, Solver<std::vector<int>>& self) {
    std::vector<Value> options;
    for (size_t i = 0; i < p.size(); ++i) {
      int lowest = i == 0 ? 1 : p[i - 1] + 1;
      for (int t = lowest; t < p[i]; ++t) {
        std::vector<int> next = p;
        next[i] = t;
        options.push_back(self(next));
      }
    }
    return options;
  });
  std::sort(cells.begin(), cells.end());
  return solve(cells);
}
// The pairing solution (docs/games.md): sort, pad an odd count with a chip at 0, pair
// neighbours from the left, and xor the gaps inside the pairs.
inline Value georgiaBobFormula(std::vector<int> a) {
  if (a.size() % 2 == 1) a.push_back(0);
  std::sort(a.begin(), a.end());
  Value x = 0;
  for (size_t i = 1; i < a.size(); i += 2) x ^= static_cast<Value>(a[i] - a[i - 1] - 1);
  return x;
}

// ---------------------------------------------------------------------------------------------
// Games that are not normal play as stated.

// Parity game: a heap of n stones, take 1..4; at the end the player holding an odd number of
// stones wins. State: (n, mine, theirs) with the parities of the holdings of the player to move
// and of the other player. Made normal play by giving a player who ends holding an odd number
// one last move to the empty game.
inline Value parityGame(int n, int mine, int theirs) {
  using State = std::tuple<int, int, int>;
  Solver<State> solve([](const State& s, Solver<State>& self) {
    auto [heap, me, them] = s;
    std::vector<Value> options;
    for (int k = 1; k <= 4 && k <= heap; ++k)
      options.push_back(self({heap - k, them, (me + k) % 2}));
    if (heap == 0 && me == 1) options.push_back(0);
    return options;
  });
  return solve({n, mine, theirs});
}

// Direct win/lose search of the parity game as stated (no Grundy values, no final move):
// true iff the player to move wins.
inline bool parityGameWins(int n, int mine, int theirs) {
  std::map<std::tuple<int, int, int>, bool> memo;
  std::function<bool(int, int, int)> wins = [&](int heap, int me, int them) -> bool {
    if (heap == 0) return me == 1;  // stones all taken: the odd holder wins
    auto key = std::make_tuple(heap, me, them);
    auto it = memo.find(key);
    if (it != memo.end()) return it->second;
    bool w = false;
    for (int k = 1; k <= 4 && k <= heap && !w; ++k) w = !wins(heap - k, them, (me + k) % 2);
    return memo[key] = w;
  };
  return wins(n, mine, theirs);
}

// Misère nim by full game-tree search: true iff the player to move wins (the player who makes
// the last move loses, so a player facing an empty position wins).
inline bool misereNimWins(Heaps heaps) {
  std::map<Heaps, bool> memo;
  std::function<bool(Heaps)> wins = [&](Heaps h) -> bool {
    std::sort(h.begin(), h.end());
    bool any = false;
    for (int x : h) any = any || x > 0;
    if (!any) return true;  // the opponent took the last stone and lost
    auto it = memo.find(h);
    if (it != memo.end()) return it->second;
    bool w = false;
    for (size_t i = 0; i < h.size() && !w; ++i)
      for (int x = 0; x < h[i] && !w; ++x) {
        Heaps next = h;
        next[i] = x;
        w = !wins(next);
      }
    return memo[h] = w;
  };
  return wins(heaps);
}
// Bouton's misère rule: N iff xor != 0, except when all heaps are <= 1: N iff the number of
// 1-heaps is even.
inline bool misereNimFormula(const Heaps& heaps) {
  bool small = std::all_of(heaps.begin(), heaps.end(), [](int h) { return h <= 1; });
  if (small) return std::count(heaps.begin(), heaps.end(), 1) % 2 == 0;
  return xorOf(heaps) != 0;
}

// ---------------------------------------------------------------------------------------------
// Position generators for exhaustive tests of list games.

// All lists of length 0..maxLen with entries lo..hi.
inline std::vector<std::vector<int>> allLists(int maxLen, int lo, int hi) {
  std::vector<std::vector<int>> out{{}}, layer{{}};
  for (int len = 1; len <= maxLen; ++len) {
    std::vector<std::vector<int>> next;
    for (const auto& l : layer)
      for (int v = lo; v <= hi; ++v) {
        next.push_back(l);
        next.back().push_back(v);
      }
    out.insert(out.end(), next.begin(), next.end());
    layer = std::move(next);
  }
  return out;
}

// All strictly increasing lists drawn from lo..hi with at most maxLen elements.
inline std::vector<std::vector<int>> allSets(int maxLen, int lo, int hi) {
  std::vector<std::vector<int>> out;
  for (const auto& l : allLists(maxLen, lo, hi))
    if (std::adjacent_find(l.begin(), l.end(), std::greater_equal<int>()) == l.end())
      out.push_back(l);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Periodicity of a table: the smallest period p, and for it the smallest n0, such that
// g(n + p) == g(n) for every n >= n0 with n + p in the table (p <= maxPeriod).
struct Periodicity {
  int preperiod = -1;
  int period = -1;
};
inline Periodicity findPeriod(const Table& g, int maxPeriod) {
  int size = static_cast<int>(g.size());
  for (int p = 1; p <= maxPeriod && 2 * p < size; ++p) {
    int n0 = size - p;  // scan down while the equation holds
    while (n0 > 0 && g[n0 - 1] == g[n0 - 1 + p]) --n0;
    if (n0 + 2 * p <= size / 2) return {n0, p};  // require plenty of confirming repeats
  }
  return {};
}

}  // namespace brute
