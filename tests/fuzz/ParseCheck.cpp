// See ParseCheck.h.
#include "tests/fuzz/ParseCheck.h"

#include <antlr4-runtime.h>

#include "GdslLexer.h"
#include "GdslParser.h"
#include "compiler/parse/Lexer.h"
#include "compiler/parse/Predictor.h"

namespace gdsl::fuzz {
namespace {

std::string describe(antlr4::TokenSource& source) {
  std::string out;
  for (;;) {
    std::unique_ptr<antlr4::Token> t = source.nextToken();
    out += std::to_string(t->getType()) + " " + std::to_string(t->getStartIndex()) + " " +
           std::to_string(t->getStopIndex()) + " " + std::to_string(t->getLine()) + ":" +
           std::to_string(t->getCharPositionInLine()) + " ch" + std::to_string(t->getChannel()) +
           " [" + t->getText() + "]\n";
    if (t->getType() == antlr4::Token::EOF) break;
  }
  return out;
}

// antlr4's prediction, with the table's answer compared to it.
class CheckingPredictor : public antlr4::atn::ParserATNSimulator {
 public:
  CheckingPredictor(antlr4::Parser* parser, std::vector<antlr4::dfa::DFA>& dfa,
                    antlr4::atn::PredictionContextCache& cache, Predictions& predictions)
      : ParserATNSimulator(parser, parser->getATN(), dfa, cache), predictions_(predictions) {}

  size_t adaptivePredict(antlr4::TokenStream* input, size_t decision,
                         antlr4::ParserRuleContext* outer) override {
    size_t table = tableAlternative(decision, input);
    size_t antlr = ParserATNSimulator::adaptivePredict(input, decision, outer);
    ++predictions_.made;
    if (table == 0 && predictions_.firstUnanswered.empty())
      predictions_.firstUnanswered =
          "decision " + std::to_string(decision) + " tokens " + std::to_string(input->LA(1)) + " " +
          std::to_string(input->LA(2)) + " " + std::to_string(input->LA(3));
    if (table != 0) {
      ++predictions_.answered;
      if (ll1Alternative(decision, input->LA(1)) == 0) ++predictions_.longer;
      if (table != antlr && predictions_.wrong++ == 0)
        predictions_.firstWrong =
            "decision " + std::to_string(decision) + " token " + std::to_string(input->LA(1)) +
            " " + std::to_string(input->LA(2)) + " " + std::to_string(input->LA(3)) + ": table " +
            std::to_string(table) + ", antlr4 " + std::to_string(antlr);
    }
    return antlr;
  }

 private:
  Predictions& predictions_;
};

}  // namespace

std::string generatedTokens(std::string_view text) {
  antlr4::ANTLRInputStream input{std::string(text)};
  GdslLexer lexer(&input);
  lexer.removeErrorListeners();
  return describe(lexer);
}

std::string handTokens(std::string_view text) {
  antlr4::ANTLRInputStream input{std::string(text)};
  GdslParser parser(nullptr);
  Lexer lexer(input, parser.getVocabulary());
  return describe(lexer);
}

std::string lexerDifference(std::string_view text) {
  std::string generated = generatedTokens(text), hand = handTokens(text);
  if (generated == hand) return "";
  return "--- generated lexer\n" + generated + "--- gdsl's lexer\n" + hand;
}

void checkPredictions(std::string_view text, Predictions& predictions) {
  antlr4::ANTLRInputStream input{std::string(text)};
  antlr4::CommonTokenStream tokens(nullptr);
  GdslParser parser(&tokens);
  GdslParser::loadAtn();  // antlr4's prediction, made beside the table's
  Lexer lexer(input, parser.getVocabulary());
  tokens.setTokenSource(&lexer);
  auto* generated = parser.getInterpreter<antlr4::atn::ParserATNSimulator>();
  auto* checking = new CheckingPredictor(&parser, generated->decisionToDFA,
                                         generated->getSharedContextCache(), predictions);
  checking->setPredictionMode(antlr4::atn::PredictionMode::SLL);
  parser.setInterpreter(checking);  // deletes the generated one
  parser.removeErrorListeners();
  parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
  try {
    parser.program();
  } catch (const antlr4::ParseCancellationException&) {
    // a syntax error: the predictions made up to it were checked
  }
}

}  // namespace gdsl::fuzz
