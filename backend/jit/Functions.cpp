// The native functions of a game and their names (see Functions.h).
#include "backend/jit/Functions.h"

namespace gdsl::jit {

std::string functionName(int game, Emitted what, int64_t length) {
  static const char* const prefixes[] = {"gdsl_kernel16_", "gdsl_kernel32_", "gdsl_enumerate_",
                                         "gdsl_search_", "gdsl_search_wide_"};
  std::string name = prefixes[static_cast<int>(what)] + std::to_string(game);
  return length >= 0 ? name + "_" + std::to_string(length) : name;
}

bool hasKernel(const ir::Game& g) {
  return g.oneHeap() && !g.normalize;
}

bool cannotFail(const ir::Expr& e) {
  return ir::neverFails(e);
}

bool hasSearch(const ir::Game& g) {
  switch (memoKind(g)) {
    case MemoKind::None:
      return false;
    case MemoKind::Lists:
      return true;
    case MemoKind::Box:
    case MemoKind::Words:
      break;
  }
  if (g.normalize)
    for (const ir::Expr& e : *g.normalize)
      if (!cannotFail(e)) return false;
  return memoKind(g) == MemoKind::Box || g.bitSet || g.normalize;
}

bool emits(const ir::Game& g, Emitted what) {
  switch (what) {
    case Emitted::Kernel16:
    case Emitted::Kernel32:
      return hasKernel(g);
    case Emitted::Enumerator:
      return true;
    case Emitted::Search:
      return hasSearch(g);
    case Emitted::SearchWide:
      return hasSearch(g) && memoKind(g) == MemoKind::Box;
  }
  return false;
}

bool isCold(const ir::Game& g, Emitted what) {
  return what == Emitted::Enumerator && (hasKernel(g) || hasSearch(g));
}

}  // namespace gdsl::jit
