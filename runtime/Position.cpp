// Text forms of positions, sums and nimbers.
#include "runtime/Position.h"

#include <fmt/format.h>

namespace gdsl {

std::string formatPosition(const ir::Program& program, const Position& position) {
  const ir::Game& g = program.games[position.game];
  if (g.listOf >= 0) {  // an integer game standing for a list game: as the list
    std::string out = program.games[static_cast<size_t>(g.listOf)].name + "([";
    for (size_t i = 0; i < position.words.size(); ++i)
      out += (i ? ", " : "") + std::to_string(position.words[i]);
    return out + "])";
  }
  std::string out = g.name + "(";
  size_t w = 0;
  for (size_t i = 0; i < g.params.size(); ++i) {
    if (i) out += ", ";
    if (w >= position.words.size()) break;
    if (g.params[i].type == ir::Type::List) {
      auto n = static_cast<size_t>(position.words[w++]);
      out += "[";
      for (size_t j = 0; j < n && w < position.words.size(); ++j, ++w)
        out += (j ? ", " : "") + std::to_string(position.words[w]);
      out += "]";
    } else {
      out += std::to_string(position.words[w++]);
    }
  }
  return out + ")";
}

std::string formatSum(const ir::Program& program, const Sum& sum) {
  if (sum.empty()) return "0";
  std::string out;
  for (size_t i = 0; i < sum.size(); ++i) {
    if (i) out += " + ";
    out += formatPosition(program, sum[i]);
  }
  return out;
}

std::string negativeParameterText(const ir::Program& program, const Position& position,
                                  const char* what) {
  for (int64_t w : position.words)
    if (w < 0)
      return fmt::format("the {} {} has a negative parameter; parameters are non-negative integers",
                         what, formatPosition(program, position));
  return "";
}

std::string formatNimber(uint64_t value) {
  return value == 0 ? "0" : fmt::format("*{}", value);
}

}  // namespace gdsl
