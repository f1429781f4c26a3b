// Build-time tool: writes, for every decision of the generated parser, the
// alternative that the next token alone decides, into the include file named
// by its argument (grammar/CMakeLists.txt runs it; compiler/parse/Predictor.h
// reads the table). A token decides a decision when it can begin exactly one
// alternative, whatever the context: it is in that alternative's lookahead set
// and in no other's, the sets being antlr4's own (LL1Analyzer), which follow a
// rule's end to every place the rule is called from. Decisions whose sets are
// not all known (a semantic predicate, an empty set) get no entries.
//
// Where one token does not decide, the next two or three may: for those, the
// tool follows the grammar as antlr4's SLL prediction does (every alternative's
// configurations, a state and a stack of rule returns each; at a rule's end
// with an empty stack, every place the rule is called from), token by token,
// and writes the sequences after which one alternative alone is left (kLl2,
// kLl3). It writes a sequence only when, after each shorter prefix, some state
// was reached by one alternative alone: antlr4's SLL prediction stops early on
// a conflict only when every state is reached by two alternatives or more, so
// after such prefixes it goes on, to the same single alternative.
// tests/unit/predictor_test.cpp and the fuzz pipeline compare every answer
// with antlr4's.
#include <antlr4-runtime.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "GdslParser.h"

namespace {

using antlr4::atn::ATNState;
using antlr4::atn::Transition;

// A configuration of the prediction: where the parse is in the grammar, and
// the states it returns to at the end of each rule it has entered.
struct Config {
  ATNState* state;
  std::vector<ATNState*> returns;
  bool operator<(const Config& other) const {
    return std::tie(state, returns) < std::tie(other.state, other.returns);
  }
};
using Configs = std::set<Config>;

// The prediction cannot be followed (a predicate, or rules entered without
// end): no rows for the first token concerned.
struct Unknown {};

// Adds to `out` the configurations that `config` reaches without a token:
// those at states that match a token.
void closure(const Config& config, Configs& out, std::set<Config>& seen) {
  if (!seen.insert(config).second) return;
  // Without left recursion (antlr4 rewrites it away), each rule entered on
  // the way to a token is entered once; a token can nest a few dozen.
  if (config.returns.size() > 1000) throw Unknown{};
  ATNState* state = config.state;
  if (state->getStateType() == ATNState::RULE_STOP && !config.returns.empty()) {
    Config back{config.returns.back(), config.returns};
    back.returns.pop_back();
    closure(back, out, seen);
    return;
  }
  // At a rule's end with nothing to return to, every transition of the stop
  // state: the places the rule is called from.
  for (Transition* t : state->transitions) {
    switch (t->getSerializationType()) {
      case Transition::RULE: {
        Config call{t->target, config.returns};
        call.returns.push_back(static_cast<antlr4::atn::RuleTransition*>(t)->followState);
        closure(call, out, seen);
        break;
      }
      case Transition::EPSILON:
      case Transition::ACTION:
        closure(Config{t->target, config.returns}, out, seen);
        break;
      case Transition::PREDICATE:
      case Transition::PRECEDENCE:
        throw Unknown{};
      default:
        out.insert(config);
        break;
    }
  }
}

// The configurations after `token`, from `configs`.
Configs step(const Configs& configs, size_t token, size_t maxTokenType) {
  Configs out, seen;
  for (const Config& config : configs)
    for (Transition* t : config.state->transitions)
      if (!t->isEpsilon() && t->matches(token, antlr4::Token::MIN_USER_TOKEN_TYPE, maxTokenType))
        closure(Config{t->target, config.returns}, out, seen);
  return out;
}

// Column of a token in the tables: 0 for end of file, t + 1 for type t.
size_t column(size_t token) {
  return token == antlr4::Token::EOF ? 0 : token + 1;
}

// The sequences of two and three tokens that decide `decision` where its
// first token does not: {decision, column..., alternative} rows.
void longerLookahead(antlr4::atn::DecisionState* decision, size_t number, size_t maxTokenType,
                     std::vector<std::array<size_t, 4>>& two,
                     std::vector<std::array<size_t, 5>>& three) {
  std::vector<Configs> start(decision->transitions.size());
  for (size_t alt = 0; alt < start.size(); ++alt) {
    Configs seen;
    closure(Config{decision->transitions[alt]->target, {}}, start[alt], seen);
  }
  std::vector<size_t> tokens{antlr4::Token::EOF};
  for (size_t t = antlr4::Token::MIN_USER_TOKEN_TYPE; t <= maxTokenType; ++t) tokens.push_back(t);
  // The alternatives left after a token, each with its configurations; and
  // whether every state is reached by two alternatives or more (then antlr4
  // may stop there on a conflict).
  auto advance = [&](const std::vector<Configs>& from, size_t token, bool& shared) {
    std::vector<Configs> next(from.size());
    std::map<ATNState*, std::set<size_t>> alternatives;
    for (size_t alt = 0; alt < from.size(); ++alt) {
      if (from[alt].empty()) continue;
      next[alt] = step(from[alt], token, maxTokenType);
      for (const Config& config : next[alt]) alternatives[config.state].insert(alt);
    }
    shared = true;
    for (const auto& [state, alts] : alternatives) shared = shared && alts.size() > 1;
    return next;
  };
  auto alive = [](const std::vector<Configs>& alts, size_t& only) {
    size_t count = 0;
    for (size_t alt = 0; alt < alts.size(); ++alt)
      if (!alts[alt].empty()) ++count, only = alt + 1;
    return count;
  };
  for (size_t t1 : tokens) {
    if (t1 == antlr4::Token::EOF) continue;  // nothing follows the end
    // The rows that begin with t1, kept only if the prediction could be
    // followed to their end.
    std::vector<std::array<size_t, 4>> twoHere;
    std::vector<std::array<size_t, 5>> threeHere;
    try {
      bool shared = false;
      std::vector<Configs> after1 = advance(start, t1, shared);
      size_t only = 0;
      if (alive(after1, only) < 2 || shared) continue;
      for (size_t t2 : tokens) {
        std::vector<Configs> after2 = advance(after1, t2, shared);
        size_t count = alive(after2, only);
        if (count == 1) twoHere.push_back({number, column(t1), column(t2), only});
        if (count < 2 || shared || t2 == antlr4::Token::EOF) continue;
        for (size_t t3 : tokens) {
          bool unused = false;
          if (alive(advance(after2, t3, unused), only) == 1)
            threeHere.push_back({number, column(t1), column(t2), column(t3), only});
        }
      }
    } catch (const Unknown&) {
      continue;
    }
    two.insert(two.end(), twoHere.begin(), twoHere.end());
    three.insert(three.end(), threeHere.begin(), threeHere.end());
  }
}

template <size_t N>
std::string rows(const char* name, std::vector<std::array<size_t, N>> entries) {
  std::sort(entries.begin(), entries.end());
  std::string out =
      "constexpr size_t k" + std::string(name) + "Rows = " + std::to_string(entries.size()) + ";\n";
  out += "constexpr unsigned char k" + std::string(name) + "[" +
         std::to_string(std::max<size_t>(entries.size(), 1)) + "][" + std::to_string(N) + "] = {\n";
  for (const auto& entry : entries) {
    out += "  {";
    for (size_t i = 0; i < N; ++i) out += (i ? "," : "") + std::to_string(entry[i]);
    out += "},\n";
  }
  if (entries.empty()) out += "  {},\n";
  return out + "};\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: gdsl_ll1_tables OUTPUT\n");
    return 2;
  }
  GdslParser parser(nullptr);
  GdslParser::loadAtn();
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
  // Two and three tokens, where one does not decide.
  std::vector<std::array<size_t, 4>> two;
  std::vector<std::array<size_t, 5>> three;
  for (size_t d = 0; d < decisions; ++d) {
    try {
      longerLookahead(atn.getDecisionState(d), d, atn.maxTokenType, two, three);
    } catch (const Unknown&) {
    }
  }
  if (decisions > 255 || columns > 255) {
    std::fprintf(stderr, "gdsl_ll1_tables: more decisions or tokens than a byte holds\n");
    return 1;
  }
  out +=
      "// kLl2: {decision, column, column, alternative} where the first two tokens\n"
      "// decide and the first does not; kLl3: the same for three tokens. Sorted.\n";
  out += rows("Ll2", two);
  out += rows("Ll3", three);
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
