// Row (c), the reference C++ (`cpp` in bench/run.py): the seed's own program for the cutting
// game, in the style of the classic POJ 2311 solutions, kept as the seed writes it: SG[w][h]
// for every 2 <= w, h <= W (both orientations computed, no normalization), filled for
// increasing w and then h (every option has a smaller side, so it is known), one `vis` array
// reused and cleared over its W + 1 entries for each sheet before the mex; nothing allocated
// per sheet. The project takes the seed's program where the seed has one (bench/README.md);
// tuned/c_cut.cpp writes mirror cells instead and is shown for information. `vis` has W + 1
// entries although the xor of two values could in principle reach 4W; the values stay far
// smaller (at most 9 up to W = 600, their xors at most 15), so it does not overflow at the
// sizes run here.
#include <cstdlib>
#include <vector>

#include "common.h"

int main(int argc, char** argv) {
  int M = argc > 1 ? std::atoi(argv[1]) : 600;
  std::vector<std::vector<int>> SG(M + 1, std::vector<int>(M + 1, 0));
  std::vector<char> vis(M + 1);
  for (int i = 2; i <= M; i++)
    for (int j = 2; j <= M; j++) {
      for (int k = 0; k <= M; k++) vis[k] = false;
      for (int k = 2; k < i - 1; k++) vis[SG[i - k][j] ^ SG[k][j]] = true;
      for (int k = 2; k < j - 1; k++) vis[SG[i][j - k] ^ SG[i][k]] = true;
      for (int k = 0; k <= M; k++)
        if (!vis[k]) {
          SG[i][j] = k;
          break;
        }
    }
  Checksum c;
  for (int w = 2; w <= M; ++w)
    for (int h = 2; h <= M; ++h) c.add(SG[w][h]);
  report(SG[M][M], c);
}
