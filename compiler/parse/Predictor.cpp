// See Predictor.h.
#include "compiler/parse/Predictor.h"

namespace gdsl {
namespace {
#include "GdslLl1.inc"
}  // namespace

size_t ll1Alternative(size_t decision, size_t token) {
  size_t column = token == antlr4::Token::EOF ? 0 : token + 1;
  if (decision >= kLl1Decisions || column >= kLl1Columns) return 0;
  return kLl1[decision][column];
}

size_t Predictor::adaptivePredict(antlr4::TokenStream* input, size_t decision,
                                  antlr4::ParserRuleContext* outerContext) {
  if (getPredictionMode() == antlr4::atn::PredictionMode::SLL)
    if (size_t alternative = ll1Alternative(decision, input->LA(1))) return alternative;
  return ParserATNSimulator::adaptivePredict(input, decision, outerContext);
}

void usePredictor(antlr4::Parser& parser) {
  auto* generated = parser.getInterpreter<antlr4::atn::ParserATNSimulator>();
  auto* predictor = new Predictor(&parser, parser.getATN(), generated->decisionToDFA,
                                  generated->getSharedContextCache());
  predictor->setPredictionMode(generated->getPredictionMode());
  parser.setInterpreter(predictor);  // deletes the generated one; the parser deletes this one
}

}  // namespace gdsl
