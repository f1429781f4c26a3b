// Parsing: source text to gdsl's AST. The only part of the compiler that sees
// ANTLR; syntax errors are collected as diagnostics, one per error, with
// ANTLR's recovery so that one mistake gives one message.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compiler/ast/Ast.h"
#include "compiler/support/Diagnostics.h"

namespace gdsl {

// Parses file `fileId` of `sources`. Returns nullopt when there were syntax
// errors (they are in `diagnostics`).
std::optional<ast::Module> parseModule(const SourceManager& sources, uint32_t fileId,
                                       DiagnosticSink& diagnostics);

// The language's keywords (the word-like literal tokens of the grammar), for
// completion in the REPL.
std::vector<std::string> keywords();

}  // namespace gdsl
