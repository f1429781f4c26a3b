// See Predictor.h.
#include "compiler/parse/Predictor.h"

#include <algorithm>
#include <cstring>

#include "GdslParser.h"

namespace gdsl {
namespace {
#include "GdslLl1.inc"

size_t column(size_t token) {
  return token == antlr4::Token::EOF ? 0 : token + 1;
}

// The alternative of the row of `table` (sorted, `Width` bytes a row, the last
// the alternative) that begins with the first `Width - 1` bytes of `key`, or 0.
template <size_t Width>
size_t lookUp(const unsigned char (*table)[Width], size_t rows, const unsigned char* key) {
  auto* end = table + rows;
  auto* row = std::lower_bound(table, end, key, [](const unsigned char* r, const unsigned char* k) {
    return std::memcmp(r, k, Width - 1) < 0;
  });
  return row != end && std::memcmp(*row, key, Width - 1) == 0 ? (*row)[Width - 1] : 0;
}

}  // namespace

size_t ll1Alternative(size_t decision, size_t token) {
  size_t c = column(token);
  if (decision >= kLl1Decisions || c >= kLl1Columns) return 0;
  return kLl1[decision][c];
}

size_t tableAlternative(size_t decision, antlr4::TokenStream* input) {
  // Each token is read only when the ones before it do not decide.
  size_t first = column(input->LA(1));
  if (decision >= kLl1Decisions || first >= kLl1Columns) return 0;
  if (size_t alternative = kLl1[decision][first]) return alternative;
  size_t second = column(input->LA(2));
  if (second >= kLl1Columns) return 0;
  unsigned char key[4] = {static_cast<unsigned char>(decision), static_cast<unsigned char>(first),
                          static_cast<unsigned char>(second), 0};
  if (size_t alternative = lookUp(kLl2, kLl2Rows, key)) return alternative;
  size_t third = column(input->LA(3));
  if (third >= kLl1Columns) return 0;
  key[3] = static_cast<unsigned char>(third);
  return lookUp(kLl3, kLl3Rows, key);
}

size_t Predictor::adaptivePredict(antlr4::TokenStream* input, size_t decision,
                                  antlr4::ParserRuleContext* outerContext) {
  if (getPredictionMode() == antlr4::atn::PredictionMode::SLL)
    if (size_t alternative = tableAlternative(decision, input)) return alternative;
  GdslParser::loadAtn();  // antlr4's prediction follows the ATN
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
