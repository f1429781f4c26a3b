// Token-level mutation of gdsl programs for the fuzz_tokens target: the input
// is split into gdsl tokens (each keeping the whitespace and comments before
// it), and tokens are deleted, duplicated, swapped, replaced or inserted, from
// a dictionary of the language's tokens or from the input itself. Mutated
// programs stay close to valid ones, so they get past the parser far more
// often than byte-level mutations do.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gdsl::fuzz {

struct Token {
  std::string trivia;  // whitespace and comments before the token
  std::string text;    // empty only for the trailing trivia at the end
};

// Splits `text` into tokens as the gdsl lexer does (grammar/Gdsl.g4); joining
// the tokens' trivia and text gives `text` back.
std::vector<Token> tokenize(std::string_view text);
std::string join(const std::vector<Token>& tokens);

// The language's tokens: keywords, operators, builtins, std modules, and
// numbers and octal codes worth trying.
const std::vector<std::string>& dictionary();

// One random mutation of the program in data[0..size), written back into
// `data` (at most maxSize bytes). Returns the new size; 0 when no token-level
// mutation fits (the caller then mutates bytes).
size_t mutateTokens(uint8_t* data, size_t size, size_t maxSize, unsigned seed);

// A program made of a prefix of one program's tokens, a run of the other's
// and the rest of the first. Returns the size written to `out`.
size_t crossOverTokens(const uint8_t* data1, size_t size1, const uint8_t* data2, size_t size2,
                       uint8_t* out, size_t maxOutSize, unsigned seed);

}  // namespace gdsl::fuzz
