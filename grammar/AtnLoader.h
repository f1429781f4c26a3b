// Builds the generated parser's ATN from its serialized form, in place of
// antlr4's ATNDeserializer (grammar/LazyInit.cmake makes the generated parser
// call it). It reads the same format (version 3, the UUID of antlr4 4.7 and
// later) and builds the same ATN, state by state and transition by transition,
// with antlr4's own state and transition factories; what it leaves out is the
// runtime type tests the deserializer makes on every state and transition
// (dynamic_cast, whose type_info comparisons call strcmp) and the parsing of
// four UUIDs from text per feature test: together about two fifths of a parse
// of one line (bench/README.md, "Start-up"). tests/unit/grammar_test.cpp holds
// the two equal field by field.
#pragma once

#include <antlr4-runtime.h>

#include <cstdint>
#include <vector>

namespace gdsl {

// The ATN of a parser grammar serialized as `serialized` (the generated
// parser's _serializedATN). Throws antlr4::UnsupportedOperationException for
// another version or UUID, or a lexer's ATN, and
// antlr4::IllegalStateException for an ATN whose structure is broken.
antlr4::atn::ATN loadParserAtn(const std::vector<uint16_t>& serialized);

}  // namespace gdsl
