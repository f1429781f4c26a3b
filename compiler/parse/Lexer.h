// The lexer gdsl parses with: the token rules of grammar/Gdsl.g4 written by
// hand, as an ANTLR token source for the generated parser. It makes the tokens
// the generated lexer would make (type, text, start and stop, line, column),
// without that lexer's ATN, which took about a tenth of a short run to build
// and simulate (bench/README.md, "Start-up"). tests/unit/lexer_test.cpp holds
// the two lexers equal on every program in the repository and on random text,
// so a change to the grammar's token rules that is not made here fails there.
#pragma once

#include <antlr4-runtime.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gdsl {

class Lexer : public antlr4::TokenSource {
 public:
  // Reads `input` from its start. The literal tokens ('game', '->', ...) and
  // their types come from `vocabulary`, the generated parser's.
  Lexer(antlr4::CharStream& input, const antlr4::dfa::Vocabulary& vocabulary);

  std::unique_ptr<antlr4::Token> nextToken() override;
  size_t getLine() const override { return line_; }
  size_t getCharPositionInLine() override { return column_; }
  antlr4::CharStream* getInputStream() override { return &input_; }
  std::string getSourceName() override { return input_.getSourceName(); }
  antlr4::TokenFactory<antlr4::CommonToken>* getTokenFactory() override {
    return antlr4::CommonTokenFactory::DEFAULT.get();
  }

 private:
  struct Literal {
    std::string text;  // ASCII
    size_t type;
  };
  // The literals by their first character (all are ASCII), longest first:
  // those beginning with c are literals[firstOf[c]] to literals[firstOf[c + 1]].
  struct Literals {
    std::vector<Literal> literals;
    std::array<uint16_t, 129> firstOf{};
  };
  // The literals of `vocabulary`, made once per vocabulary (antlr4's are static
  // members of the generated recognizers, alive as long as the process): a
  // short eval made them twice, a twentieth of its instructions.
  static const Literals& literalsOf(const antlr4::dfa::Vocabulary& vocabulary);
  // The longest token at the current position, as ANTLR chooses it: the
  // longest match, and between matches of one length the rule written first
  // (literals, then ID, INT, STRING, ...). Returns its type and length;
  // skipped tokens (spaces, comments) have type antlr4::Token::INVALID_TYPE.
  std::pair<size_t, size_t> longestMatch() const;
  size_t at(size_t offset) const;  // the code point `offset` ahead, or EOF
  void advance(size_t count);

  antlr4::CharStream& input_;
  std::u32string text_;
  size_t position_ = 0;
  size_t line_ = 1;
  size_t column_ = 0;
  const Literals& literals_;
};

}  // namespace gdsl
