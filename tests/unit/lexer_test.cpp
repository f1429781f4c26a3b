// gdsl's hand-written lexer (compiler/parse/Lexer.h) against the lexer antlr4
// generates from grammar/Gdsl.g4: the same tokens (type, text, start, stop,
// line, column, channel) on every program in the repository and on random
// text made of the characters the token rules care about. (The fuzz pipeline,
// tests/fuzz/ParseCheck.h, compares them on every input too.)
#include "compiler/parse/Lexer.h"

#include <antlr4-runtime.h>

#include <catch2/catch.hpp>
#include <random>

#include "GdslParser.h"
#include "repository_programs.h"
#include "tests/fuzz/ParseCheck.h"

namespace {

using gdsl::fuzz::generatedTokens;
using gdsl::fuzz::handTokens;

}  // namespace

TEST_CASE("the lexer makes the generated lexer's tokens on every program here", "[lexer]") {
  auto programs = repositoryPrograms();
  for (const auto& [path, text] : programs) {
    INFO(path);
    CHECK(handTokens(text) == generatedTokens(text));
  }
  CHECK(programs.size() > 300);
}

TEST_CASE("the lexer makes the generated lexer's tokens on random text", "[lexer]") {
  // Pieces that start, end or break tokens: quotes and escapes, comment marks,
  // the digits and letters of 0x and 0b numbers, operators and their prefixes,
  // keywords, line ends, and characters of two, three and four bytes.
  const std::vector<std::string> pieces = {"\"",   "\\",
                                           "/",    "*",
                                           "*/",   "/*",
                                           "//",   "\n",
                                           "\r",   " ",
                                           "\t",   "0",
                                           "1",    "2",
                                           "9",    "_",
                                           "x",    "X",
                                           "b",    "B",
                                           "f",    "g",
                                           "a",    "Z",
                                           ".",    "..",
                                           "-",    ">",
                                           "<",    "=",
                                           "!",    "+",
                                           "**",   "~",
                                           "%",    "&",
                                           "|",    "^",
                                           "(",    ")",
                                           "[",    "]",
                                           "{",    "}",
                                           ",",    ":",
                                           "'",    "#",
                                           "@",    "$",
                                           "\f",   "\v",
                                           "game", "octal",
                                           "sum",  "for",
                                           "in",   "show",
                                           "not",  "é",
                                           "€",    "\xF0\x9D\x84\x9E",
                                           "1_0",  "0x",
                                           "0b",   "->",
                                           "==",   "<=",
                                           "<<",   ">>",
                                           "!=",   "misere",
                                           "when"};
  std::mt19937 random(20261201);
  size_t differences = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string text;
    size_t length = random() % 24;
    for (size_t i = 0; i < length; ++i) text += pieces[random() % pieces.size()];
    std::string hand = handTokens(text), generated = generatedTokens(text);
    if (hand != generated && differences++ < 5) {
      INFO("text: " << text);
      CHECK(hand == generated);
    }
  }
  CHECK(differences == 0);
}

TEST_CASE("the lexer's tokens in cases where the longest match decides", "[lexer]") {
  // Independent of both lexers: the expected split, by the grammar's rules.
  auto texts = [](const std::string& text) {
    std::string out;
    antlr4::ANTLRInputStream input(text);
    GdslParser parser(nullptr);
    gdsl::Lexer lexer(input, parser.getVocabulary());
    for (auto t = lexer.nextToken(); t->getType() != antlr4::Token::EOF; t = lexer.nextToken())
      out += (out.empty() ? "" : " ") + t->getText();
    return out;
  };
  CHECK(texts("gamex game") == "gamex game");
  CHECK(texts("0x1g 0b12 0x 1..n") == "0x1 g 0b1 2 0 x 1 .. n");
  CHECK(texts("a->b**-c<=d") == "a -> b ** - c <= d");
  CHECK(texts("\"a\\\"b\" \"c\\q\"") == "\"a\\\"b\" \"c \\ q \"");
  CHECK(texts("x /* a */ y // z\nw /*/") == "x y w /*/");
}
