// The reference semantics of IR expressions: evaluates an expression over a
// frame of slots. Used to fold constants, to evaluate the positions written in
// statements, and by the interpreter backend for every move.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "compiler/ir/Ir.h"
#include "compiler/support/Diagnostics.h"

namespace gdsl::ir {

// A list value: either `size` integers at `data`, or the range lo..lo+size-1.
struct ListVal {
  const int64_t* data = nullptr;
  int64_t size = 0;
  int64_t lo = 0;
  bool isRange = false;

  int64_t at(int64_t i) const { return isRange ? lo + i : data[i]; }
};

// Bump allocator for the lists built while evaluating (sorted copies, `set`,
// literals). The caller releases to a mark when the values are dead.
class ListArena {
 public:
  struct Mark {
    size_t block = 0, used = 0;
  };
  int64_t* allocate(size_t count);
  Mark mark() const { return Mark{block_, used_}; }
  void release(Mark m) {
    block_ = m.block;
    used_ = m.used;
  }

 private:
  static constexpr size_t kBlock = 1 << 14;
  // Not zeroed (every list is written before it is read): a block's pages are
  // touched only as far as lists fill it, so an evaluator that folds a few
  // constants costs no 128 KiB memset and page faults.
  struct Block {
    std::unique_ptr<int64_t[]> data;
    size_t size = 0;
  };
  std::vector<Block> blocks_;
  size_t block_ = 0, used_ = 0;
};

struct Frame {
  int64_t* ints = nullptr;
  ListVal* lists = nullptr;
};

// A frame with a slot for every variable an expression names (a
// comprehension's, in a constant or a table's range): for evaluating an
// expression outside any game or position.
class ScratchFrame {
 public:
  explicit ScratchFrame(const Expr& e);
  Frame frame() { return Frame{ints_.data(), lists_.data()}; }

 private:
  std::vector<int64_t> ints_;
  std::vector<ListVal> lists_;
};

class Evaluator {
 public:
  Evaluator(const Program& program, ListArena& arena) : program_(program), arena_(arena) {}

  // Int and Bool expressions (booleans are 0 or 1).
  int64_t evalInt(const Expr& e, const Frame& f) const;
  // List expressions.
  ListVal evalList(const Expr& e, const Frame& f) const;
  // The pool index of a list-of-lists expression (a constant, possibly indexed
  // further is not allowed: lists of lists are only constants).
  const std::vector<int>& nested(const Expr& e) const;
  ListVal poolList(int index) const;

  ListArena& arena() const { return arena_; }

  // Calls each() once per pass through `steps` (a comprehension's binders,
  // lets and guards, in order, over `f`) until each() returns false; false
  // when it did. The lists a pass builds are released after it.
  bool forEach(const std::vector<Step>& steps, const Frame& f,
               const std::function<bool()>& each) const;

 private:
  [[noreturn]] void fail(const Expr& e, const std::string& message) const;
  // Runs each() once per pass through steps[index..] (a comprehension's
  // binders and guards), until each() returns false; false when it did.
  template <typename Each>
  bool walk(const std::vector<Step>& steps, size_t index, const Frame& f, Each& each) const;
  int64_t fold(const Expr& e, const Frame& f) const;
  ListVal collect(const Expr& e, const Frame& f) const;
  int64_t checkIndex(const Expr& e, int64_t index, int64_t size) const;

  const Program& program_;
  ListArena& arena_;
};

}  // namespace gdsl::ir
