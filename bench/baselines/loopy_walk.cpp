// bench/LOOPY.md: games/loopy_walk.game by hand, the strongest simple C++ of
// the labelling algorithm (generalized Sprague-Grundy values, level by level
// with a count per position of the options blocking it): arrays indexed by
// the cell, successors in flat arrays, nothing allocated per position. Prints
// `Walk(0..30): ...` as gdsl's table does.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

int main() {
  const uint32_t n = 1000003;
  const uint32_t kUnlabelled = UINT32_MAX, kInfinite = UINT32_MAX - 1;
  // Moves: down 1 or 2 (when possible), and a jump from a cell ending in 9.
  std::vector<uint32_t> start(n + 1), next;
  next.reserve(3 * static_cast<size_t>(n));
  for (uint32_t c = 0; c < n; ++c) {
    start[c] = static_cast<uint32_t>(next.size());
    for (uint32_t k = 1; k <= 2; ++k)
      if (c >= k) next.push_back(c - k);
    if (c % 10 == 9) next.push_back(static_cast<uint32_t>((7ull * c + 3) % n));
  }
  start[n] = static_cast<uint32_t>(next.size());
  std::vector<uint32_t> prevStart(n + 1), prev(next.size());
  for (uint32_t v : next) ++prevStart[v + 1];
  for (uint32_t c = 0; c < n; ++c) prevStart[c + 1] += prevStart[c];
  {
    std::vector<uint32_t> fill(prevStart.begin(), prevStart.end() - 1);
    for (uint32_t c = 0; c < n; ++c)
      for (uint32_t e = start[c]; e < start[c + 1]; ++e) prev[fill[next[e]]++] = c;
  }
  std::vector<uint32_t> label(n, kUnlabelled), count(n), queue;
  std::vector<uint8_t> hasM(n);
  auto open = [&](uint32_t v) { return label[v] == kUnlabelled || label[v] == kInfinite; };
  size_t left = n;
  for (uint32_t m = 0; left > 0; ++m) {
    for (uint32_t c = 0; c < n; ++c) hasM[c] = 0;
    queue.clear();
    for (uint32_t c = 0; c < n; ++c) {
      if (label[c] != kUnlabelled) continue;
      uint32_t blocking = 0;
      for (uint32_t e = start[c]; e < start[c + 1]; ++e) blocking += open(next[e]);
      count[c] = blocking;
      if (blocking == 0) queue.push_back(c);
    }
    while (!queue.empty()) {
      uint32_t u = queue.back();
      queue.pop_back();
      if (label[u] != kUnlabelled || hasM[u] || count[u] != 0) continue;
      label[u] = m;
      --left;
      for (uint32_t e = prevStart[u]; e < prevStart[u + 1]; ++e) {
        uint32_t p = prev[e];
        if (hasM[p] || !open(p)) continue;
        hasM[p] = 1;
        for (uint32_t f = prevStart[p]; f < prevStart[p + 1]; ++f) {
          uint32_t q = prev[f];
          if (label[q] == kUnlabelled && !hasM[q] && --count[q] == 0) queue.push_back(q);
        }
      }
    }
    for (uint32_t c = 0; c < n; ++c)
      if (label[c] == kUnlabelled && !hasM[c]) {
        label[c] = kInfinite;
        --left;
      }
  }
  std::string out = "Walk(0..30):";
  for (uint32_t c = 0; c <= 30; ++c) {
    if (label[c] != kInfinite) {
      out += " " + std::to_string(label[c]);
      continue;
    }
    std::vector<bool> k(4);
    std::string ks;
    for (uint32_t e = start[c]; e < start[c + 1]; ++e)
      if (label[next[e]] != kInfinite && label[next[e]] < 4) k[label[next[e]]] = true;
    for (uint32_t v = 0; v < 4; ++v)
      if (k[v]) ks += (ks.empty() ? "" : ",") + std::to_string(v);
    out += " \u221e(" + (ks.empty() ? std::string("\u2205") : ks) + ")";
  }
  std::printf("%s\n", out.c_str());
}
