// Build-time tool: writes, for every decision of the generated parser, the
// alternative that the next token alone decides, into the include file named
// by its argument (grammar/CMakeLists.txt runs it; compiler/parse/Predictor.h
// reads the table). A token decides a decision when it can begin exactly one
// alternative, whatever the context: it is in that alternative's lookahead set
// and in no other's, the sets being antlr4's own (LL1Analyzer), which follow a
// rule's end to every place the rule is called from. Decisions whose sets are
// not all known (a semantic predicate, an empty set) get no entries.
#include <antlr4-runtime.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "GdslParser.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: gdsl_ll1_tables OUTPUT\n");
    return 2;
  }
  GdslParser parser(nullptr);
  const antlr4::atn::ATN& atn = parser.getATN();
  antlr4::atn::LL1Analyzer analyzer(atn);
  size_t decisions = atn.getNumberOfDecisions();
  // Column 0 is end of file, column t + 1 token type t.
  size_t columns = atn.maxTokenType + 2;
  std::string out =
      "// Generated at build time by grammar/Ll1Tables.cpp from the generated parser's ATN.\n"
      "// kLl1[decision][column]: the alternative the next token decides, or 0;\n"
      "// column 0 is end of file, column t + 1 token type t.\n";
  out += "constexpr size_t kLl1Decisions = " + std::to_string(decisions) + ";\n";
  out += "constexpr size_t kLl1Columns = " + std::to_string(columns) + ";\n";
  out += "constexpr unsigned char kLl1[kLl1Decisions][kLl1Columns] = {\n";
  size_t decided = 0;
  for (size_t d = 0; d < decisions; ++d) {
    antlr4::atn::DecisionState* state = atn.getDecisionState(d);
    std::vector<antlr4::misc::IntervalSet> look = analyzer.getDecisionLookahead(state);
    bool known = look.size() == state->transitions.size() && look.size() < 256;
    for (const antlr4::misc::IntervalSet& set : look)
      known = known && !set.isEmpty() && !set.contains(antlr4::Token::EPSILON);
    out += "  {";
    for (size_t column = 0; column < columns; ++column) {
      ssize_t token = column == 0 ? -1 : static_cast<ssize_t>(column - 1);
      size_t alternative = 0, count = 0;
      for (size_t alt = 0; known && alt < look.size(); ++alt)
        if (look[alt].contains(token)) alternative = alt + 1, ++count;
      size_t entry = count == 1 ? alternative : 0;
      decided += entry != 0;
      out += (column ? "," : "") + std::to_string(entry);
    }
    out += "},\n";
  }
  out += "};\n";
  std::ofstream file(argv[1], std::ios::binary);
  file << out;
  file.close();
  if (!file || decided == 0) {
    std::fprintf(stderr, "gdsl_ll1_tables: cannot write %s, or no decision is LL(1)\n", argv[1]);
    return 1;
  }
  // Without the destructors of antlr4's static tables, which only free memory
  // (and would be reported as leaks in sanitizer builds).
  std::fflush(nullptr);
  std::_Exit(0);
}
