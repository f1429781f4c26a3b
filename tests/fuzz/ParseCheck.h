// gdsl's hand-written lexer (compiler/parse/Lexer.h) and its prediction
// shortcut (compiler/parse/Predictor.h) against what antlr4 does, on one text:
// used by the fuzz pipeline on every input, and by tests/unit/lexer_test.cpp
// and tests/unit/predictor_test.cpp.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace gdsl::fuzz {

// The tokens of `text`, one line each (type, start, stop, line:column,
// channel, text), as the generated lexer makes them and as gdsl's does.
std::string generatedTokens(std::string_view text);
std::string handTokens(std::string_view text);

// Empty when the two lexers make the same tokens of `text` (which must be
// UTF-8: gdsl reports other text before lexing); else both lists, for a report.
std::string lexerDifference(std::string_view text);

// Parses `text` (UTF-8) in SLL mode, as gdsl's first stage does, making every
// prediction both with antlr4's adaptive prediction and from the tables.
struct Predictions {
  size_t made = 0;      // predictions the parse asked for
  size_t answered = 0;  // of those, the ones the tables answer
  size_t longer = 0;    // of those, the ones that take two or three tokens
  size_t wrong = 0;     // of those, the ones where it is not antlr4's answer
  std::string firstWrong;
  std::string firstUnanswered;  // decision and tokens of the first prediction not answered
};
void checkPredictions(std::string_view text, Predictions& predictions);

}  // namespace gdsl::fuzz
