// Hexadecimal games "d0.d1d2..." (digits 0-9, A-F): g(0..N) by the plain method, the way a
// researcher writes it by hand from the definition. Digit dk's bit 1 lets a move remove k
// tokens and leave no heap, bit 2 one heap, bit 4 two heaps a + b, bit 8 three heaps
// a + b + c (every split, equal parts allowed). Per heap every option is marked in one
// array of flags reused from heap to heap, and the mex read off it.
//   usage: hex_naive CODE N
#include <cstdlib>
#include <string>
#include <vector>

#include "common.h"

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  const std::string code = argv[1];
  const int N = std::atoi(argv[2]);
  auto digitValue = [](char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; };
  std::vector<int> digit{digitValue(code[0])};  // digit[k] for k = 0, 1, ...
  for (size_t i = 2; i < code.size(); ++i) digit.push_back(digitValue(code[i]));
  std::vector<int> g(N + 1, 0);
  std::vector<char> seen(2, 0);  // flags for values 0..; at least twice the largest value
  int largest = 0;
  for (int n = 0; n <= N; ++n) {
    std::fill(seen.begin(), seen.end(), 0);
    for (int k = 0; k < (int)digit.size() && k <= n; ++k) {
      const int d = digit[k], r = n - k;
      if (k > 0 && (d & 1) && r == 0) seen[0] = 1;
      if (k > 0 && (d & 2) && r > 0) seen[g[r]] = 1;
      if (d & 4)
        for (int a = 1; 2 * a <= r; ++a) seen[g[a] ^ g[r - a]] = 1;
      if (d & 8)
        for (int a = 1; 3 * a <= r; ++a)
          for (int b = a; 2 * b <= r - a; ++b) seen[g[a] ^ g[b] ^ g[r - a - b]] = 1;
    }
    int m = 0;
    while (seen[m]) ++m;
    g[n] = m;
    if (m > largest) {
      largest = m;
      // Values xor below the next power of two: flags up to twice it.
      size_t size = 2;
      while (size <= (size_t)largest) size *= 2;
      if (2 * size > seen.size()) seen.assign(2 * size, 0);
    }
  }
  Checksum c;
  for (int n = 0; n <= N; ++n) c.add(g[n]);
  report(g[N], c);
}
