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

NativeKind nativeKind(const ir::Game& g) {
  if (g.params.empty()) return NativeKind::None;
  if (g.params.size() == 1 && g.params[0].type == ir::Type::List) return NativeKind::List;
  for (const ir::Param& p : g.params)
    if (p.type != ir::Type::Int) return NativeKind::None;
  if (g.normalize)
    for (const ir::Expr& e : *g.normalize)
      if (!cannotFail(e)) return NativeKind::None;
  if (g.params.size() >= 2) return NativeKind::Box;
  // A one-heap game without normalize is tabled by its kernel.
  return g.bitSet || g.normalize ? NativeKind::Word : NativeKind::None;
}

bool emits(const ir::Game& g, Emitted what) {
  switch (what) {
    case Emitted::Kernel16:
    case Emitted::Kernel32:
      return hasKernel(g);
    case Emitted::Enumerator:
      return true;
    case Emitted::Search:
      return nativeKind(g) != NativeKind::None;
    case Emitted::SearchWide:
      return nativeKind(g) == NativeKind::Box;
  }
  return false;
}

bool isCold(const ir::Game& g, Emitted what) {
  return what == Emitted::Enumerator && (hasKernel(g) || nativeKind(g) != NativeKind::None);
}

}  // namespace gdsl::jit
