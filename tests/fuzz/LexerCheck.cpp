// See LexerCheck.h.
#include "tests/fuzz/LexerCheck.h"

#include <antlr4-runtime.h>

#include "GdslLexer.h"
#include "GdslParser.h"
#include "compiler/parse/Lexer.h"

namespace gdsl::fuzz {
namespace {

std::string describe(antlr4::TokenSource& source) {
  std::string out;
  for (;;) {
    std::unique_ptr<antlr4::Token> t = source.nextToken();
    out += std::to_string(t->getType()) + " " + std::to_string(t->getStartIndex()) + " " +
           std::to_string(t->getStopIndex()) + " " + std::to_string(t->getLine()) + ":" +
           std::to_string(t->getCharPositionInLine()) + " ch" + std::to_string(t->getChannel()) +
           " [" + t->getText() + "]\n";
    if (t->getType() == antlr4::Token::EOF) break;
  }
  return out;
}

}  // namespace

std::string generatedTokens(std::string_view text) {
  antlr4::ANTLRInputStream input{std::string(text)};
  GdslLexer lexer(&input);
  lexer.removeErrorListeners();
  return describe(lexer);
}

std::string handTokens(std::string_view text) {
  antlr4::ANTLRInputStream input{std::string(text)};
  GdslParser parser(nullptr);
  Lexer lexer(input, parser.getVocabulary());
  return describe(lexer);
}

std::string lexerDifference(std::string_view text) {
  std::string generated = generatedTokens(text), hand = handTokens(text);
  if (generated == hand) return "";
  return "--- generated lexer\n" + generated + "--- gdsl's lexer\n" + hand;
}

}  // namespace gdsl::fuzz
