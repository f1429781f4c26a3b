// The parser's LL(1) shortcut (compiler/parse/Predictor.h) against antlr4's
// adaptive prediction: on every program in the repository, each prediction the
// parser asks for in SLL mode is made both ways, and wherever the table has an
// answer it must be antlr4's (tests/fuzz/ParseCheck.h; the fuzz pipeline does
// the same on every input).
#include "compiler/parse/Predictor.h"

#include <antlr4-runtime.h>

#include <catch2/catch.hpp>

#include "GdslParser.h"
#include "repository_programs.h"
#include "tests/fuzz/ParseCheck.h"

using gdsl::fuzz::Predictions;

TEST_CASE("the LL(1) table answers as antlr4's prediction on every program here", "[predictor]") {
  Predictions counts;
  auto programs = repositoryPrograms();
  for (const auto& [path, text] : programs) gdsl::fuzz::checkPredictions(text, counts);
  INFO(counts.firstWrong);
  CHECK(counts.wrong == 0);
  CHECK(programs.size() > 300);
  // The shortcut is taken for most predictions.
  CHECK(counts.answered * 2 > counts.made);
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
