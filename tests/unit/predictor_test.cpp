// The parser's prediction tables (compiler/parse/Predictor.h) against antlr4's
// adaptive prediction: on every program in the repository, each prediction the
// parser asks for in SLL mode is made both ways, and wherever the tables have
// an answer it must be antlr4's (tests/fuzz/ParseCheck.h; the fuzz pipeline does
// the same on every input).
#include "compiler/parse/Predictor.h"

#include <antlr4-runtime.h>

#include <catch2/catch.hpp>

#include "GdslParser.h"
#include "repository_programs.h"
#include "tests/fuzz/ParseCheck.h"

using gdsl::fuzz::Predictions;

TEST_CASE("the tables answer as antlr4's prediction on every program here", "[predictor]") {
  Predictions counts;
  auto programs = repositoryPrograms();
  for (const auto& [path, text] : programs) gdsl::fuzz::checkPredictions(text, counts);
  INFO(counts.firstWrong);
  WARN(counts.made << " predictions, " << counts.answered << " answered, " << counts.longer
                   << " by two or three tokens");
  CHECK(counts.wrong == 0);
  CHECK(programs.size() > 300);
  // The shortcut is taken for most predictions, and two or three tokens
  // decide some that one does not.
  CHECK(counts.answered * 10 > counts.made * 9);
  CHECK(counts.longer * 10 > counts.made);
}

TEST_CASE("the tables decide every prediction of common programs (no ATN is built)",
          "[predictor]") {
  // Game declarations of both kinds, calls and names in expressions, sums of
  // positions: a parse of any of these never falls back to antlr4's prediction,
  // so gdsl does not build the parser's ATN (GdslParser::loadAtn).
  const char* programs[] = {
      "game K = octal \"0.77\"\neval K(5) + K(3)\n",
      "game G(n) { take 1..3 }\neval G(10)\ntable G(0..20)\nperiod G\n",
      "game S(n) {\n  move (k in 1..n when k % 2 == 1) -> S(n - k)\n}\neval misere S(7) + S(2)\n",
      ("const N = 10\ngame R(a, b) {\n  move (k in 1..min(a, N)) -> R(a - k, b) + R(b, 0)\n}\n"
       "moves R(3, 4)\n"),
  };
  for (const char* text : programs) {
    Predictions counts;
    gdsl::fuzz::checkPredictions(text, counts);
    INFO(text << counts.firstWrong << counts.firstUnanswered);
    CHECK(counts.wrong == 0);
    CHECK(counts.made > 0);
    CHECK(counts.answered == counts.made);
  }
  // One token does not decide 'game' ID '=' from 'game' ID '(': three do.
  Predictions octal;
  gdsl::fuzz::checkPredictions("game K = octal \"0.77\"\n", octal);
  CHECK(octal.longer > 0);
}

TEST_CASE("the LL(1) table decides what one token decides, and nothing else", "[predictor]") {
  GdslParser parser(nullptr);
  GdslParser::loadAtn();
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
