// gdsl's hand-written lexer (compiler/parse/Lexer.h) against the lexer antlr4
// generates from grammar/Gdsl.g4, on one text: used by the fuzz pipeline on
// every input and by tests/unit/lexer_test.cpp.
#pragma once

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

}  // namespace gdsl::fuzz
