// The parser's LL(1) shortcut (compiler/parse/Predictor.h) against antlr4's
// adaptive prediction: on every program in the repository, each prediction the
// parser asks for in SLL mode is made both ways, and wherever the table has an
// answer it must be antlr4's.
#include "compiler/parse/Predictor.h"

#include <antlr4-runtime.h>

#include <catch2/catch.hpp>

#include "GdslParser.h"
#include "compiler/parse/Lexer.h"
#include "repository_programs.h"

namespace {

struct Counts {
  size_t predictions = 0, answered = 0, wrong = 0;
  std::string firstWrong;
};

// antlr4's prediction, with the table's answer compared to it.
class CheckingPredictor : public antlr4::atn::ParserATNSimulator {
 public:
  CheckingPredictor(antlr4::Parser* parser, std::vector<antlr4::dfa::DFA>& dfa,
                    antlr4::atn::PredictionContextCache& cache, Counts& counts)
      : ParserATNSimulator(parser, parser->getATN(), dfa, cache), counts_(counts) {}

  size_t adaptivePredict(antlr4::TokenStream* input, size_t decision,
                         antlr4::ParserRuleContext* outer) override {
    size_t table = gdsl::ll1Alternative(decision, input->LA(1));
    size_t antlr = ParserATNSimulator::adaptivePredict(input, decision, outer);
    ++counts_.predictions;
    if (table != 0) {
      ++counts_.answered;
      if (table != antlr && counts_.wrong++ == 0)
        counts_.firstWrong = "decision " + std::to_string(decision) + " token " +
                             std::to_string(input->LA(1)) + ": table " + std::to_string(table) +
                             ", antlr4 " + std::to_string(antlr);
    }
    return antlr;
  }

 private:
  Counts& counts_;
};

// Parses `text` in SLL mode, as gdsl's first stage does, with a CheckingPredictor.
void parse(const std::string& text, Counts& counts) {
  antlr4::ANTLRInputStream input(text);
  antlr4::CommonTokenStream tokens(nullptr);
  GdslParser parser(&tokens);
  gdsl::Lexer lexer(input, parser.getVocabulary());
  tokens.setTokenSource(&lexer);
  auto* generated = parser.getInterpreter<antlr4::atn::ParserATNSimulator>();
  auto* checking = new CheckingPredictor(&parser, generated->decisionToDFA,
                                         generated->getSharedContextCache(), counts);
  checking->setPredictionMode(antlr4::atn::PredictionMode::SLL);
  parser.setInterpreter(checking);  // deletes the generated one
  parser.removeErrorListeners();
  parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
  try {
    parser.program();
  } catch (const antlr4::ParseCancellationException&) {
    // a syntax error: the predictions made up to it were checked
  }
}

}  // namespace

TEST_CASE("the LL(1) table answers as antlr4's prediction on every program here", "[predictor]") {
  Counts counts;
  auto programs = repositoryPrograms();
  for (const auto& [path, text] : programs) parse(text, counts);
  INFO(counts.firstWrong);
  CHECK(counts.wrong == 0);
  CHECK(programs.size() > 300);
  // The shortcut is taken for most predictions.
  CHECK(counts.answered * 2 > counts.predictions);
}

TEST_CASE("the LL(1) table decides what one token decides, and nothing else", "[predictor]") {
  GdslParser parser(nullptr);
  const antlr4::atn::ATN& atn = parser.getATN();
  // program : statement* EOF ; decision 0 is the loop: a statement or the end.
  REQUIRE(atn.getNumberOfDecisions() > 0);
  CHECK(gdsl::ll1Alternative(0, antlr4::Token::EOF) != 0);
  CHECK(gdsl::ll1Alternative(0, GdslParser::ID) == 0);  // no statement starts with a name
  size_t decidedByGame = gdsl::ll1Alternative(0, parser.getTokenType("'game'"));
  CHECK(decidedByGame != 0);
  CHECK(decidedByGame != gdsl::ll1Alternative(0, antlr4::Token::EOF));
  // Out of range: no answer.
  CHECK(gdsl::ll1Alternative(atn.getNumberOfDecisions(), GdslParser::ID) == 0);
  CHECK(gdsl::ll1Alternative(0, 100000) == 0);
}
