// Building positions from IR terms, and normalize rules.
#include "runtime/PositionBuilder.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

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

// The words of a game's arguments: an integer is one word, a list its length
// and then its elements.
void appendArgs(const ir::Evaluator& eval, const ir::Game& game, const std::vector<ir::Expr>& args,
                const ir::Frame& f, Words& words) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (game.params[i].type == ir::Type::List) {
      ir::ListVal l = eval.evalList(args[i], f);
      words.push_back(l.size);
      for (int64_t j = 0; j < l.size; ++j) words.push_back(l.at(j));
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
    appendArgs(eval_, g, term.args, f, p.words);
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
  Scope scope(*this);
  ir::Frame f = scope.frame(g.intSlots, g.listSlots);
  Position out;
  out.game = position.game;
  try {
    bindParams(g, position, f);
    appendArgs(eval_, g, *g.normalize, f, out.words);
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

int64_t PositionBuilder::evalInFrame(const ir::Expr& expr, const ir::Frame& frame) {
  Scope scope(*this);
  return eval_.evalInt(expr, frame);
}

int64_t PositionBuilder::evalConstant(const ir::Expr& expr) {
  Scope scope(*this);
  ir::ScratchFrame frame(expr);
  return eval_.evalInt(expr, frame.frame());
}

}  // namespace gdsl
