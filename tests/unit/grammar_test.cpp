// The generated lexer and parser (grammar/Gdsl.g4): gdsl builds their ATNs
// without ANTLR's structural check, and the parser's with its own loader
// (grammar/LazyInit.cmake, grammar/AtnLoader.h), to start faster; so the check
// runs here once, on the ATNs that gdsl uses, and the loader's ATN is compared
// field by field with the one antlr4's deserializer makes.
#include <antlr4-runtime.h>

#include <catch2/catch.hpp>
#include <sstream>

#include "AtnLoader.h"
#include "GdslLexer.h"
#include "GdslParser.h"

namespace {

using namespace antlr4::atn;

std::string number(ATNState* state) {
  return state == nullptr ? "null" : std::to_string(state->stateNumber);
}

// Everything the parser's simulation reads from an ATN, one line per state.
std::string describe(const ATN& atn) {
  std::ostringstream out;
  out << "type " << static_cast<int>(atn.grammarType) << " maxTokenType " << atn.maxTokenType
      << "\n";
  for (ATNState* s : atn.states) {
    if (s == nullptr) {
      out << "null\n";
      continue;
    }
    out << s->stateNumber << " type " << s->getStateType() << " rule " << s->ruleIndex
        << " epsilonOnly " << s->epsilonOnlyTransitions;
    if (auto* d = dynamic_cast<DecisionState*>(s))
      out << " decision " << d->decision << " nonGreedy " << d->nonGreedy;
    if (auto* b = dynamic_cast<BlockStartState*>(s)) out << " end " << number(b->endState);
    if (auto* b = dynamic_cast<BlockEndState*>(s)) out << " start " << number(b->startState);
    if (auto* l = dynamic_cast<LoopEndState*>(s)) out << " loopBack " << number(l->loopBackState);
    if (auto* e = dynamic_cast<StarLoopEntryState*>(s))
      out << " loopBack " << number(e->loopBackState) << " precedence " << e->isPrecedenceDecision;
    if (auto* p = dynamic_cast<PlusBlockStartState*>(s))
      out << " loopBack " << number(p->loopBackState);
    if (auto* r = dynamic_cast<RuleStartState*>(s))
      out << " stop " << number(r->stopState) << " leftRecursive " << r->isLeftRecursiveRule;
    for (Transition* t : s->transitions) {
      out << " | " << t->getSerializationType() << " -> " << number(t->target) << " eps "
          << t->isEpsilon() << " label " << t->label().toString();
      if (auto* r = dynamic_cast<RuleTransition*>(t))
        out << " rule " << r->ruleIndex << " prec " << r->precedence << " follow "
            << number(r->followState);
      if (auto* e = dynamic_cast<EpsilonTransition*>(t))
        out << " outermost " << e->outermostPrecedenceReturn();
      if (auto* p = dynamic_cast<PredicateTransition*>(t))
        out << " pred " << p->ruleIndex << " " << p->predIndex << " " << p->isCtxDependent;
      if (auto* p = dynamic_cast<PrecedencePredicateTransition*>(t))
        out << " precedence " << p->precedence;
    }
    out << "\n";
  }
  auto list = [&](const char* name, const auto& states) {
    out << name;
    for (ATNState* s : states) out << " " << number(s);
    out << "\n";
  };
  list("decisions", atn.decisionToState);
  list("rule starts", atn.ruleToStartState);
  list("rule stops", atn.ruleToStopState);
  list("modes", atn.modeToStartState);
  return out.str();
}

}  // namespace

TEST_CASE("gdsl's ATN loader builds the ATN antlr4's deserializer builds", "[grammar]") {
  GdslParser parser(nullptr);          // the ATN it uses is built by gdsl's loader
  antlr4::atn::ATNDeserializer antlr;  // default options: verifyATN on
  ATN expected = antlr.deserialize(GdslParser::serializedAtn());
  ATN loaded = gdsl::loadParserAtn(GdslParser::serializedAtn());
  CHECK(describe(loaded) == describe(expected));
  CHECK(describe(parser.getATN()) == describe(expected));  // the one the parser uses
  CHECK_NOTHROW(antlr.verifyATN(loaded));
  CHECK(expected.states.size() > 100);
  CHECK(expected.decisionToState.size() > 20);
}

TEST_CASE("gdsl's ATN loader refuses what it cannot read", "[grammar]") {
  std::vector<uint16_t> serialized = GdslParser::serializedAtn();
  std::vector<uint16_t> version = serialized;
  version[0] = 4;
  CHECK_THROWS_AS(gdsl::loadParserAtn(version), antlr4::UnsupportedOperationException);
  std::vector<uint16_t> uuid = serialized;
  uuid[3] ^= 1;
  CHECK_THROWS_AS(gdsl::loadParserAtn(uuid), antlr4::UnsupportedOperationException);
  std::vector<uint16_t> truncated(serialized.begin(), serialized.begin() + serialized.size() / 2);
  CHECK_THROWS_AS(gdsl::loadParserAtn(truncated), antlr4::IllegalStateException);
  GdslLexer lexer(nullptr);  // a lexer's ATN
  CHECK_THROWS_AS(gdsl::loadParserAtn(lexer.getSerializedATN()),
                  antlr4::UnsupportedOperationException);
}

TEST_CASE("the ATNs gdsl deserializes without checking pass ANTLR's check", "[grammar]") {
  antlr4::ANTLRInputStream input("game K = octal \"0.77\"\n");
  GdslLexer lexer(&input);
  antlr4::CommonTokenStream tokens(&lexer);
  GdslParser parser(&tokens);
  GdslParser::loadAtn();
  antlr4::atn::ATNDeserializer checking;  // default options: verifyATN on
  CHECK_NOTHROW(checking.verifyATN(lexer.getATN()));
  CHECK_NOTHROW(checking.verifyATN(parser.getATN()));
  CHECK(lexer.getATN().states.size() > 100);
  CHECK(parser.getATN().states.size() > 100);
  // The ATN the lexer deserialized equals a checked deserialization of the
  // same serialized form (state by state: type and transitions).
  antlr4::atn::ATN checked = checking.deserialize(lexer.getSerializedATN());
  REQUIRE(checked.states.size() == lexer.getATN().states.size());
  for (size_t i = 0; i < checked.states.size(); ++i) {
    CHECK(checked.states[i]->getStateType() == lexer.getATN().states[i]->getStateType());
    CHECK(checked.states[i]->transitions.size() == lexer.getATN().states[i]->transitions.size());
  }
}
