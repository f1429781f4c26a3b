// The token rules of grammar/Gdsl.g4, by hand (see Lexer.h). Each rule below
// is headed by the grammar's text for it.
#include "compiler/parse/Lexer.h"

#include <algorithm>
#include <map>
#include <mutex>

#include "GdslParser.h"

namespace gdsl {
namespace {

constexpr size_t kEof = antlr4::Token::EOF;
constexpr size_t kSkip = antlr4::Token::INVALID_TYPE;

bool isIdStart(size_t c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
bool isIdPart(size_t c) {
  return isIdStart(c) || (c >= '0' && c <= '9');
}
bool isDecimal(size_t c) {
  return (c >= '0' && c <= '9') || c == '_';
}
bool isHex(size_t c) {
  return isDecimal(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool isBinary(size_t c) {
  return c == '0' || c == '1' || c == '_';
}
bool isSpace(size_t c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

}  // namespace

Lexer::Lexer(antlr4::CharStream& input, const antlr4::dfa::Vocabulary& vocabulary)
    : input_(input), literals_(literalsOf(vocabulary)) {
  input_.seek(0);
  text_.reserve(input_.size());
  for (size_t i = 0; i < input_.size(); ++i)
    text_.push_back(static_cast<char32_t>(input_.LA(static_cast<ssize_t>(i) + 1)));
}

const Lexer::Literals& Lexer::literalsOf(const antlr4::dfa::Vocabulary& vocabulary) {
  static std::mutex mutex;
  static std::map<const antlr4::dfa::Vocabulary*, std::unique_ptr<Literals>> made;
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<Literals>& out = made[&vocabulary];
  if (out) return *out;
  out = std::make_unique<Literals>();
  for (size_t type = 1; type <= vocabulary.getMaxTokenType(); ++type) {
    std::string quoted = vocabulary.getLiteralName(type);  // 'game', with the quotes
    if (quoted.size() < 3) continue;
    std::string text;  // without the quotes and ANTLR's escapes (\\ and \')
    for (size_t i = 1; i + 1 < quoted.size(); ++i) {
      if (quoted[i] == '\\' && i + 2 < quoted.size()) ++i;
      text.push_back(quoted[i]);
    }
    if (static_cast<unsigned char>(text[0]) < 128) out->literals.push_back({std::move(text), type});
  }
  std::sort(out->literals.begin(), out->literals.end(), [](const Literal& a, const Literal& b) {
    return a.text[0] != b.text[0] ? a.text[0] < b.text[0] : a.text.size() > b.text.size();
  });
  for (const Literal& literal : out->literals)
    ++out->firstOf[static_cast<size_t>(literal.text[0]) + 1];
  for (size_t c = 1; c < out->firstOf.size(); ++c) out->firstOf[c] += out->firstOf[c - 1];
  return *out;
}

size_t Lexer::at(size_t offset) const {
  return position_ + offset < text_.size() ? text_[position_ + offset] : kEof;
}

void Lexer::advance(size_t count) {
  for (size_t end = position_ + count; position_ < end; ++position_) {
    if (text_[position_] == '\n') {
      ++line_;
      column_ = 0;
    } else {
      ++column_;
    }
  }
}

std::pair<size_t, size_t> Lexer::longestMatch() const {
  size_t bestType = GdslParser::ERROR_CHAR, bestLength = 0;
  // Rules are tried in the grammar's order; a later rule wins only by being longer.
  auto consider = [&](size_t type, size_t length) {
    if (length > bestLength) bestType = type, bestLength = length;
  };
  size_t first = at(0);

  // The literals of the parser rules ('game', '->', ...), which ANTLR puts first.
  if (first < 128) {
    for (size_t i = literals_.firstOf[first]; i < literals_.firstOf[first + 1]; ++i) {
      const Literal& literal = literals_.literals[i];
      size_t n = 0;
      while (n < literal.text.size() && at(n) == static_cast<unsigned char>(literal.text[n])) ++n;
      if (n == literal.text.size()) {
        consider(literal.type, n);
        break;  // longest first: a shorter literal cannot win
      }
    }
  }

  // ID : [A-Za-z_] [A-Za-z0-9_]* ;
  if (isIdStart(first)) {
    size_t n = 1;
    while (isIdPart(at(n))) ++n;
    consider(GdslParser::ID, n);
  }

  // INT : [0-9] [0-9_]* | '0' [xX] [0-9a-fA-F_]+ | '0' [bB] [01_]+ ;
  if (first >= '0' && first <= '9') {
    size_t n = 1;
    while (isDecimal(at(n))) ++n;
    if (first == '0' && (at(1) == 'x' || at(1) == 'X') && isHex(at(2))) {
      n = 3;
      while (isHex(at(n))) ++n;
    } else if (first == '0' && (at(1) == 'b' || at(1) == 'B') && isBinary(at(2))) {
      n = 3;
      while (isBinary(at(n))) ++n;
    }
    consider(GdslParser::INT, n);
  }

  // STRING : '"' ( '\\"' | '\\\\' | ~["\\\r\n] )* '"' ;
  // UNTERMINATED_STRING : '"' ( '\\"' | '\\\\' | ~["\\\r\n] )* ;
  if (first == '"') {
    size_t n = 1;
    for (;;) {
      size_t c = at(n);
      if (c == '\\' && (at(n + 1) == '"' || at(n + 1) == '\\')) {
        n += 2;
      } else if (c == kEof || c == '"' || c == '\\' || c == '\r' || c == '\n') {
        break;
      } else {
        ++n;
      }
    }
    if (at(n) == '"') consider(GdslParser::STRING, n + 1);
    consider(GdslParser::UNTERMINATED_STRING, n);
  }

  if (first == '/' && at(1) == '/') {
    // LINE_COMMENT : '//' ~[\r\n]* -> skip ;
    size_t n = 2;
    while (at(n) != kEof && at(n) != '\r' && at(n) != '\n') ++n;
    consider(kSkip, n);
  } else if (first == '/' && at(1) == '*') {
    // BLOCK_COMMENT : '/*' .*? '*/' -> skip ;
    // UNTERMINATED_COMMENT : '/*' ( ~'*' | '*'+ ~[*/] )* '*'* EOF ;
    // (the second matches exactly when no `*/` follows the opening `/*`)
    auto body = text_.begin() + static_cast<std::ptrdiff_t>(position_ + 2);
    static const std::u32string close = U"*/";
    auto end = std::search(body, text_.end(), close.begin(), close.end());
    if (end != text_.end()) {
      consider(kSkip, static_cast<size_t>(end - body) + 4);
    } else {
      consider(GdslParser::UNTERMINATED_COMMENT, text_.size() - position_);
    }
  }

  // WS : [ \t\r\n]+ -> skip ;
  if (isSpace(first)) {
    size_t n = 1;
    while (isSpace(at(n))) ++n;
    consider(kSkip, n);
  }

  // ERROR_CHAR : . ;
  consider(GdslParser::ERROR_CHAR, 1);
  return {bestType, bestLength};
}

std::unique_ptr<antlr4::Token> Lexer::nextToken() {
  for (;;) {
    size_t start = position_, line = line_, column = column_;
    // As ANTLR's lexer: the end-of-file token stops one before it starts.
    if (start == text_.size())
      return getTokenFactory()->create({this, &input_}, kEof, "", antlr4::Token::DEFAULT_CHANNEL,
                                       start, start - 1, line, column);
    auto [type, length] = longestMatch();
    advance(length);
    if (type != kSkip)
      return getTokenFactory()->create({this, &input_}, type, "", antlr4::Token::DEFAULT_CHANNEL,
                                       start, position_ - 1, line, column);
  }
}

}  // namespace gdsl
