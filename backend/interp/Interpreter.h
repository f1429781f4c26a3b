// The interpreter backend: walks the move IR directly. Positions (successors,
// normalize rules) are built by the stack's PositionBuilder; this backend
// adds the moves' loop nests and the one-heap kernel, with an evaluator and
// a list arena of its own for them.
// Re-entrant (the value oracle may call back into it for other games), so
// every call works in its own frame, one per nesting depth.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "backend/interp/CodeSearch.h"
#include "backend/interp/MoveCode.h"
#include "runtime/Backend.h"
#include "runtime/PositionBuilder.h"

namespace gdsl {

class Interpreter final : public Backend {
 public:
  explicit Interpreter(PositionBuilder& positions);
  ~Interpreter() override;

  const char* name() const override { return "interp"; }
  void enumerate(const Position& position, MoveSink& sink) override;
  uint32_t heapValue(int game, int64_t n, TableView table, ValueOracle& oracle) override;
  // Every game whose parameters are integers (backend/interp/NativeSearch.cpp).
  bool searchesNatively(int) override { return true; }
  NativeStatus searchNative(int game, const int64_t* words, NativeMemo memo, ValueOracle& oracle,
                            std::vector<int64_t>& miss, uint64_t stackFloor) override;
  // Whether the one-heap kernel and the native search of games with integer
  // parameters run their compiled moves (backend/interp/MoveCode.h; the
  // default) or walk the IR (tests compare the two).
  void setCompiledMoves(bool on) { compiledMoves_ = on; }
  // Native searches ask `poll` every 64 positions whether to stop with
  // NativeStatus::Yield (the tiered backend's switch); null: never.
  void setYieldPoll(YieldPoll* poll) { yield_ = poll; }
  BackendWork work() const override { return work_; }

 private:
  struct Depth;
  class DepthGuard;
  Depth& enter();
  static ir::Frame frame(Depth& d, int intSlots, int listSlots);

  // Calls `atEnd` once for each binding of `steps` from `index` on; an
  // `atEnd` that returns false stops the walk, and runSteps returns false.
  template <typename AtEnd>
  bool runSteps(const std::vector<ir::Step>& steps, size_t index, const ir::Frame& frame,
                AtEnd&& atEnd);
  uint32_t xorTerms(const std::vector<ir::Term>& terms, const ir::Frame& frame, int game, int64_t n,
                    TableView table, ValueOracle& oracle);

  const ir::Program& program_;
  PositionBuilder& positions_;
  ir::ListArena arena_;
  ir::Evaluator eval_;
  std::vector<std::unique_ptr<Depth>> depths_;
  size_t depth_ = 0;
  // Compiled moves per game (null: not compiled, or not yet tried), and the
  // scratch of each nested compiled search.
  bool compiledMoves_ = true;
  YieldPoll* yield_ = nullptr;
  BackendWork work_;
  std::vector<std::unique_ptr<interp::MoveCode>> moveCode_;
  std::vector<bool> moveCodeTried_;
  std::vector<std::unique_ptr<interp::CodeScratch>> codeScratch_;
  size_t codeDepth_ = 0;
  const interp::MoveCode* moveCode(int game);
  // A nesting level of compiled code, with its scratch: compiled code may
  // run again inside itself through the oracle (another game's search or
  // kernel), so each level has its own.
  class CodeLevel {
   public:
    explicit CodeLevel(Interpreter& in) : in_(in) {
      if (in.codeScratch_.size() <= in.codeDepth_)
        in.codeScratch_.push_back(std::make_unique<interp::CodeScratch>());
      scratch = in.codeScratch_[in.codeDepth_++].get();
    }
    ~CodeLevel() { --in_.codeDepth_; }
    interp::CodeScratch* scratch;

   private:
    Interpreter& in_;
  };
};

}  // namespace gdsl
