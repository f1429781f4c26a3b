// The interpreter backend: walks the move IR directly. Re-entrant (the value
// oracle may call back into it for other games), so every call works in its
// own frame, one per nesting depth.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/Backend.h"

namespace gdsl {

class Interpreter final : public Backend {
 public:
  explicit Interpreter(const ir::Program& program);
  ~Interpreter() override;

  const char* name() const override { return "interp"; }
  void normalize(Position& position) override;
  void enumerate(const Position& position, MoveSink& sink) override;
  uint32_t heapValue(int game, int64_t n, TableView table, ValueOracle& oracle) override;

  // The components of a position written in a statement, normalized. Both
  // backends use the interpreter for this.
  Sum evalPosition(const ir::PositionExpr& position);
  // Evaluates a constant integer expression (table bounds and the like).
  int64_t evalConstant(const ir::Expr& expr);

 private:
  struct Depth;
  class DepthGuard;
  Depth& enter();
  static ir::Frame frame(Depth& d, int intSlots, int listSlots);
  void appendArgs(const ir::Game& game, const std::vector<ir::Expr>& args, const ir::Frame& f,
                  Words& words);

  void bindParams(const ir::Game& game, const Position& position, ir::Frame& frame);
  template <typename AtEnd>
  void runSteps(const std::vector<ir::Step>& steps, size_t index, const ir::Frame& frame,
                AtEnd&& atEnd);
  template <typename Body>
  void forEach(const ir::Step& binder, const ir::Frame& frame, Body&& body);
  void emitTerms(const std::vector<ir::Term>& terms, const ir::Frame& frame,
                 std::vector<Position>& out);
  Position makePosition(const ir::Term& term, const ir::Frame& frame);
  uint32_t xorTerms(const std::vector<ir::Term>& terms, const ir::Frame& frame, int game, int64_t n,
                    TableView table, ValueOracle& oracle);
  void addContext(RuntimeError& error, const Position& position) const;

  const ir::Program& program_;
  ir::ListArena arena_;
  ir::Evaluator eval_;
  std::vector<std::unique_ptr<Depth>> depths_;
  size_t depth_ = 0;
  size_t statementDepth_ = SIZE_MAX;  // the depth of evalPosition's frame, if running
};

}  // namespace gdsl
