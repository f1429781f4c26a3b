// Independent win/lose/draw analysis of games with cycles, for the tests of
// loopy games (runtime/Loopy.h). Plain C++20 and no gdsl code: a game is an
// explicit directed graph (a position's moves go to the vertices listed), and
// its outcomes come from the plain retrograde analysis: a position with no
// move is lost (P); one with a move to a lost position is won (N); one whose
// every move goes to a won position is lost; what is left is a draw (D).
// Sums are built as their product graph, so the sum rule is checked, not
// assumed.
#pragma once

#include <cstddef>
#include <vector>

namespace brute {

using Digraph = std::vector<std::vector<int>>;  // moves of vertex v: to each of graph[v]

// 'P', 'N' or 'D' for each vertex.
inline std::vector<char> retrograde(const Digraph& graph) {
  const size_t n = graph.size();
  std::vector<std::vector<int>> back(n);
  std::vector<size_t> left(n);
  for (size_t v = 0; v < n; ++v) {
    left[v] = graph[v].size();
    for (int w : graph[v]) back[static_cast<size_t>(w)].push_back(static_cast<int>(v));
  }
  std::vector<char> out(n, 'D');
  std::vector<int> queue;
  for (size_t v = 0; v < n; ++v)
    if (graph[v].empty()) {
      out[v] = 'P';
      queue.push_back(static_cast<int>(v));
    }
  for (size_t i = 0; i < queue.size(); ++i) {
    const auto v = static_cast<size_t>(queue[i]);
    for (int u : back[v]) {
      const auto p = static_cast<size_t>(u);
      if (out[p] != 'D') continue;
      if (out[v] == 'P') {
        out[p] = 'N';
        queue.push_back(u);
      } else if (--left[p] == 0) {
        out[p] = 'P';
        queue.push_back(u);
      }
    }
  }
  return out;
}

// The sum of two games as one graph: vertex a * |h| + b is (a, b), and a
// move is a move in either.
inline Digraph product(const Digraph& g, const Digraph& h) {
  Digraph out(g.size() * h.size());
  for (size_t a = 0; a < g.size(); ++a)
    for (size_t b = 0; b < h.size(); ++b) {
      auto& moves = out[a * h.size() + b];
      for (int x : g[a]) moves.push_back(static_cast<int>(static_cast<size_t>(x) * h.size() + b));
      for (int y : h[b]) moves.push_back(static_cast<int>(a * h.size() + static_cast<size_t>(y)));
    }
  return out;
}

// A nim heap of size 0..n as a graph: heap k moves to every smaller heap.
inline Digraph nimHeaps(int n) {
  Digraph out(static_cast<size_t>(n) + 1);
  for (int k = 0; k <= n; ++k)
    for (int j = 0; j < k; ++j) out[static_cast<size_t>(k)].push_back(j);
  return out;
}

}  // namespace brute
