// The parser's prediction, with a shortcut: where the next token alone decides
// a decision (it can begin one alternative only, in any context), the
// alternative is read from a table computed from the grammar at build time
// (grammar/Ll1Tables.cpp) instead of being found by antlr4's adaptive
// prediction, which, the first time it meets a decision, follows the grammar
// to every place a rule can end (a fifth of a short eval's parsing went to the
// decision after a comparison). The shortcut is taken in SLL mode only, gdsl's
// first stage: there the table's answer is the one antlr4 would give; the
// second stage, which reports errors, predicts as antlr4 does.
// tests/unit/predictor_test.cpp checks the table against antlr4's prediction.
#pragma once

#include <antlr4-runtime.h>

namespace gdsl {

// The alternative that `token` decides at `decision` of the generated parser,
// or 0 when the token does not decide it alone.
size_t ll1Alternative(size_t decision, size_t token);

class Predictor : public antlr4::atn::ParserATNSimulator {
 public:
  using antlr4::atn::ParserATNSimulator::ParserATNSimulator;
  size_t adaptivePredict(antlr4::TokenStream* input, size_t decision,
                         antlr4::ParserRuleContext* outerContext) override;
};

// Gives `parser` a Predictor in place of its ParserATNSimulator.
void usePredictor(antlr4::Parser& parser);

}  // namespace gdsl
