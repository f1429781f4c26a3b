// The parser's prediction, with a shortcut: where the next token alone decides
// a decision (it can begin one alternative only, in any context), or else the
// next two or three tokens do, the alternative is read from tables computed
// from the grammar at build time (grammar/Ll1Tables.cpp) instead of being found
// by antlr4's adaptive prediction, which, the first time it meets a decision,
// follows the grammar to every place a rule can end (a fifth of a short eval's
// parsing went to the decision after a comparison), and needs the parser's ATN
// (GdslParser::loadAtn, a third of a short eval's start when it was built with
// every parser). The shortcut is taken in SLL mode only, gdsl's first stage:
// there the tables' answer is the one antlr4 would give; the second stage,
// which reports errors, predicts as antlr4 does. tests/unit/predictor_test.cpp
// checks the tables against antlr4's prediction.
#pragma once

#include <antlr4-runtime.h>

namespace gdsl {

// The alternative that `token` decides at `decision` of the generated parser,
// or 0 when the token does not decide it alone.
size_t ll1Alternative(size_t decision, size_t token);

// The alternative that the next one, two or three tokens of `input` decide at
// `decision`, or 0 when they do not decide it.
size_t tableAlternative(size_t decision, antlr4::TokenStream* input);

class Predictor : public antlr4::atn::ParserATNSimulator {
 public:
  using antlr4::atn::ParserATNSimulator::ParserATNSimulator;
  size_t adaptivePredict(antlr4::TokenStream* input, size_t decision,
                         antlr4::ParserRuleContext* outerContext) override;
};

// Gives `parser` a Predictor in place of its ParserATNSimulator.
void usePredictor(antlr4::Parser& parser);

}  // namespace gdsl
