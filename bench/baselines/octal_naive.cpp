// Research-scale rows: any octal game "d0.d1d2..." (or "grundy" for Grundy's game), g(0..N)
// by the plain O(N^2) method, the way a researcher writes it by hand: per heap a vector of
// option values (every take, every split) and a mex. With --period it also prints the
// smallest period p of the values and its preperiod n0 (g(n + p) = g(n) for n0 <= n <= N - p,
// accepted when the repeating part holds two periods and half the values), to check what
// gdsl proves against a computation that shares no code with it.
//   usage: octal_naive CODE N [--period]
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include "common.h"

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  std::string code = argv[1];
  int N = std::atoi(argv[2]);
  bool period = argc > 3 && std::strcmp(argv[3], "--period") == 0;
  bool grundy = code == "grundy";
  std::vector<int> digit;  // digit[k] for k = 0, 1, ...
  if (!grundy) {
    digit.push_back(code[0] - '0');
    for (size_t i = 2; i < code.size(); ++i) digit.push_back(code[i] - '0');
  }
  std::vector<int> g(N + 1, 0);
  for (int n = 0; n <= N; ++n) {
    std::vector<int> opts;
    if (grundy) {
      for (int a = 1; 2 * a < n; ++a) opts.push_back(g[a] ^ g[n - a]);
    } else {
      for (int k = 0; k < (int)digit.size() && k <= n; ++k) {
        int d = digit[k], rest = n - k;
        if (k > 0 && (d & 1) && rest == 0) opts.push_back(0);
        if (k > 0 && (d & 2) && rest > 0) opts.push_back(g[rest]);
        if (d & 4)
          for (int a = 1; 2 * a <= rest; ++a) opts.push_back(g[a] ^ g[rest - a]);
      }
    }
    std::vector<char> seen(opts.size() + 1, 0);
    for (int o : opts)
      if (o < (int)seen.size()) seen[o] = 1;
    int m = 0;
    while (seen[m]) ++m;
    g[n] = m;
  }
  Checksum c;
  for (int n = 0; n <= N; ++n) c.add(g[n]);
  report(g[N], c);
  if (period) {
    long count = N + 1;
    for (long p = 1; 2 * p <= count; ++p) {
      long n = count - 1 - p;
      while (n >= 0 && g[n + p] == g[n]) --n;
      long n0 = n + 1, repeating = count - n0;
      if (repeating >= 2 * p && 2 * repeating >= count) {
        std::printf("preperiod=%ld period=%ld\n", n0, p);
        return 0;
      }
    }
    std::printf("preperiod=none period=none\n");
  }
}
