// Building positions from IR terms, normalize rules, and positions drawn by
// their games' show forms.
#include "runtime/PositionBuilder.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "compiler/ir/Bounds.h"
#include "compiler/ir/Errors.h"

namespace gdsl {

// A scratch frame: the slots of one call at one nesting depth.
struct PositionBuilder::Scratch {
  std::vector<int64_t> ints;
  std::vector<ir::ListVal> lists;
};

// One nesting level: its own scratch frame, and the lists built in it
// released when it ends.
class PositionBuilder::Scope {
 public:
  explicit Scope(PositionBuilder& b) : b_(b), mark_(b.arena_.mark()) {
    if (b_.scratch_.size() <= b_.depth_) b_.scratch_.push_back(std::make_unique<Scratch>());
    scratch_ = b_.scratch_[b_.depth_++].get();
  }
  ~Scope() {
    --b_.depth_;
    b_.arena_.release(mark_);
  }
  ir::Frame frame(int intSlots, int listSlots) {
    scratch_->ints.resize(static_cast<size_t>(intSlots));
    scratch_->lists.resize(static_cast<size_t>(listSlots));
    return ir::Frame{scratch_->ints.data(), scratch_->lists.data()};
  }

 private:
  PositionBuilder& b_;
  ir::ListArena::Mark mark_;
  Scratch* scratch_ = nullptr;
};

namespace {

// For each parameter, whether the rule sorts it; nullopt when the rule does
// more than sort list parameters in place.
std::optional<std::vector<bool>> sortOnlyPlan(const ir::Game& g) {
  if (!g.normalize || g.normalize->size() != g.params.size()) return std::nullopt;
  std::vector<bool> sorted;
  bool any = false;
  for (size_t i = 0; i < g.params.size(); ++i) {
    const ir::Expr& e = (*g.normalize)[i];
    const ir::Param& p = g.params[i];
    auto isParam = [&](const ir::Expr& x) {
      return x.op == (p.type == ir::Type::List ? ir::Op::ListVar : ir::Op::IntVar) &&
             x.imm == p.slot;
    };
    if (isParam(e)) {
      sorted.push_back(false);
    } else if (p.type == ir::Type::List && e.op == ir::Op::Sort && isParam(e.kids[0])) {
      sorted.push_back(true);
      any = true;
    } else {
      return std::nullopt;
    }
  }
  if (!any) return std::nullopt;
  return sorted;
}

}  // namespace

PositionBuilder::PositionBuilder(const ir::Program& program)
    : program_(program), eval_(program, arena_) {
  for (const ir::Game& g : program.games)
    sortOnly_.push_back(sortOnlyPlan(g).value_or(std::vector<bool>{}));
  for (const ir::Game& g : program.games) sortedPair_.push_back(ir::normalizedOrder(g));
}
PositionBuilder::~PositionBuilder() = default;

void PositionBuilder::bindParams(const ir::Game& game, const Position& position,
                                 const ir::Frame& frame) {
  size_t w = 0;
  for (const ir::Param& p : game.params) {
    if (p.type == ir::Type::List) {
      int64_t n = position.words[w++];
      frame.lists[p.slot] = ir::ListVal{position.words.data() + w, n, 0, false};
      w += static_cast<size_t>(n);
    } else {
      frame.ints[p.slot] = position.words[w++];
    }
  }
}

void PositionBuilder::addContext(RuntimeError& error, const Position& position) const {
  if (error.context.empty()) error.context = formatPosition(program_, position);
}

namespace {

// The words of a game's arguments `args`, written at `loc`: an integer is one
// word, a list its length and then its elements (at most kMaxPositionList).
void appendArgs(const ir::Evaluator& eval, const ir::Game& game, const std::vector<ir::Expr>& args,
                const SourceRange& loc, const ir::Frame& f, Words& words) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (game.params[i].type == ir::Type::List) {
      ir::ListVal l = eval.evalList(args[i], f);
      if (l.size > ir::kMaxPositionList)
        throw RuntimeError(loc, ir::errorText(ir::ErrorCode::PositionListTooLong, l.size, 0));
      words.push_back(l.size);
      for (int64_t j = 0; j < l.size; ++j) {
        if ((j & 0xffff) == 0xffff) checkInterrupt();  // a long list, in many moves
        words.push_back(l.at(j));
      }
    } else {
      words.push_back(eval.evalInt(args[i], f));
    }
  }
}

}  // namespace

Position PositionBuilder::makePosition(const ir::Term& term, const ir::Frame& f, Role role) {
  const ir::Game& g = program_.games[static_cast<size_t>(term.game)];
  Position p;
  p.game = static_cast<uint32_t>(term.game);
  {
    struct Release {  // the lists the arguments built, also when they fail
      ir::ListArena& arena;
      ir::ListArena::Mark mark;
      ~Release() { arena.release(mark); }
    } release{arena_, arena_.mark()};
    appendArgs(eval_, g, term.args, term.loc, f, p.words);
  }
  std::string negative =
      negativeParameterText(program_, p, role == Role::Position ? "position" : "successor");
  if (!negative.empty()) throw RuntimeError(term.loc, negative);
  normalize(p);
  return p;
}

void PositionBuilder::emitTerms(const std::vector<ir::Term>& terms, const ir::Frame& f, Role role,
                                std::vector<Position>& out) {
  for (const ir::Term& t : terms) {
    if (t.kind == ir::Term::Kind::Position)
      out.push_back(makePosition(t, f, role));
    else
      forEach(t.binder, f, [&] { emitTerms(t.body, f, role, out); });
  }
}

void PositionBuilder::normalize(Position& position) {
  const ir::Game& g = program_.games[position.game];
  if (!g.normalize) return;
  if (const std::vector<bool>& sorted = sortOnly_[position.game]; !sorted.empty()) {
    // The same words the evaluator would give: each sorted list sorted in place.
    size_t w = 0;
    for (size_t i = 0; i < g.params.size(); ++i) {
      if (g.params[i].type != ir::Type::List) {
        ++w;
        continue;
      }
      auto n = static_cast<size_t>(position.words[w++]);
      if (sorted[i]) std::sort(position.words.begin() + w, position.words.begin() + w + n);
      w += n;
    }
    return;
  }
  if (const std::vector<size_t>& order = sortedPair_[position.game];
      !order.empty() && position.words[0] >= 0 && position.words[1] >= 0) {
    // min and max of two parameters (ir::normalizedOrder): the same words the
    // evaluator would give, by one comparison.
    if (position.words[order[0]] > position.words[order[1]])
      std::swap(position.words[0], position.words[1]);
    return;
  }
  Scope scope(*this);
  ir::Frame f = scope.frame(g.intSlots, g.listSlots);
  Position out;
  out.game = position.game;
  try {
    bindParams(g, position, f);
    appendArgs(eval_, g, *g.normalize, g.normalizeLoc, f, out.words);
  } catch (RuntimeError& e) {
    addContext(e, position);
    throw;
  }
  for (int64_t w : out.words)
    if (w < 0)
      throw RuntimeError(g.normalizeLoc, fmt::format("normalize turned {} into {}, which has a "
                                                     "negative parameter",
                                                     formatPosition(program_, position),
                                                     formatPosition(program_, out)));
  position = std::move(out);
}

Sum PositionBuilder::evalPosition(const ir::PositionExpr& position) {
  Scope scope(*this);
  ir::Frame f = scope.frame(position.intSlots, position.listSlots);
  Sum out;
  emitTerms(position.terms, f, Role::Position, out);
  return out;
}

void PositionBuilder::forEachPosition(const std::vector<ir::Step>& steps,
                                      const ir::PositionExpr& position,
                                      const std::function<void(Sum)>& each) {
  Scope scope(*this);
  ir::Frame f = scope.frame(position.intSlots, position.listSlots);
  eval_.forEach(steps, f, [&] {
    Sum out;
    emitTerms(position.terms, f, Role::Position, out);
    each(std::move(out));
    return true;
  });
}

int64_t PositionBuilder::evalInFrame(const ir::Expr& expr, const ir::Frame& frame) {
  Scope scope(*this);
  return eval_.evalInt(expr, frame);
}

namespace {

// A drawing has at most this many cells, padding included.
constexpr int64_t kMaxDrawnCells = 100000;

// The cells of a drawing as text: each cell is its value's symbol, in rows of
// `width` cells (0: one row) separated by '/'.
std::string drawCells(const std::vector<int64_t>& cells, int64_t width,
                      const std::vector<std::string>& symbols) {
  std::string out;
  for (size_t i = 0; i < cells.size(); ++i) {
    if (width > 0 && i > 0 && static_cast<int64_t>(i) % width == 0) out += '/';
    out += symbols[static_cast<size_t>(cells[i])];
  }
  return out;
}

// `{1, 2}` as a parameter prints: [1, 2].
std::string listText(const ir::ListVal& l) {
  std::string out = "[";
  for (int64_t i = 0; i < l.size; ++i) out += (i ? ", " : "") + std::to_string(l.at(i));
  return out + "]";
}

}  // namespace

std::string PositionBuilder::show(const Position& position) {
  const ir::Game& g = program_.games[position.game];
  if (g.show.empty()) return formatPosition(program_, position);
  Scope scope(*this);
  ir::Frame f = scope.frame(g.intSlots, g.listSlots);
  bindParams(g, position, f);
  std::string out = g.name + "(";
  try {
    for (size_t i = 0; i < g.show.size(); ++i) {
      const ir::ShowPart& part = g.show[i];
      if (i) out += ", ";
      if (!part.draw) {
        out += part.cells.type == ir::Type::List ? listText(eval_.evalList(part.cells, f))
                                                 : std::to_string(eval_.evalInt(part.cells, f));
        continue;
      }
      int64_t width = 0;
      if (part.width) {
        width = eval_.evalInt(*part.width, f);
        if (width < 1)
          throw RuntimeError(part.width->loc,
                             fmt::format("the width of board must be at least 1, not {}", width));
      }
      auto base = static_cast<int64_t>(part.symbols.size());
      std::vector<int64_t> cells;
      if (part.cells.type == ir::Type::List) {
        ir::ListVal l = eval_.evalList(part.cells, f);
        for (int64_t j = 0; j < l.size; ++j) {
          int64_t v = l.at(j);
          if (v < 0 || v >= base)
            throw RuntimeError(part.cells.loc,
                               fmt::format("cell {} of {} is {}, but its {} symbols stand for 0 "
                                           "to {}",
                                           j, part.name, v, base, base - 1));
          cells.push_back(v);
        }
      } else {
        int64_t n = eval_.evalInt(part.cells, f);
        if (n < 0)
          throw RuntimeError(
              part.cells.loc,
              fmt::format("{} draws the digits of a non-negative integer, not {}", part.name, n));
        for (; n > 0; n /= base) cells.push_back(n % base);
        // At least the rows (board) or cells (row) given, and at least one.
        int64_t unit = width > 0 ? width : 1;
        int64_t rows = part.size ? std::max<int64_t>(eval_.evalInt(*part.size, f), 1) : 1;
        if (unit > kMaxDrawnCells || rows > kMaxDrawnCells / unit)
          throw RuntimeError(
              part.loc, fmt::format("{} would draw more than {} cells", part.name, kMaxDrawnCells));
        if (static_cast<int64_t>(cells.size()) < rows * unit)
          cells.resize(static_cast<size_t>(rows * unit), 0);
        // Every row of an integer's board full: the digits past its highest
        // one are 0 (`###/##.`, not a ragged `###/##`).
        if (width > 0 && cells.size() % static_cast<size_t>(width) != 0)
          cells.resize(
              cells.size() + static_cast<size_t>(width) - cells.size() % static_cast<size_t>(width),
              0);
      }
      out += drawCells(cells, width, part.symbols);
    }
  } catch (RuntimeError& e) {
    if (e.context.empty())
      e.message += " (while drawing " + formatPosition(program_, position) + ")";
    throw;
  }
  return out + ")";
}

std::string PositionBuilder::showSum(const Sum& sum) {
  bool any = false;
  for (const Position& p : sum) any = any || !program_.games[p.game].show.empty();
  if (!any) return "";
  std::string out;
  for (size_t i = 0; i < sum.size(); ++i) out += (i ? " + " : "") + show(sum[i]);
  return out;
}

int64_t PositionBuilder::evalConstant(const ir::Expr& expr) {
  Scope scope(*this);
  ir::ScratchFrame frame(expr);
  return eval_.evalInt(expr, frame.frame());
}

}  // namespace gdsl
