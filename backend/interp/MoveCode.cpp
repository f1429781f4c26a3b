// Compiling a game's moves to register code (MoveCode.h). Each expression
// gets a fresh temporary register (games are small; registers are never
// reused), a variable is its slot's register, a literal a constant register.
// A guard that fails jumps to the step of its innermost loop (or past the
// move); loops are patched once their end is known.
#include "backend/interp/MoveCode.h"

#include <optional>

namespace gdsl::interp {
namespace {

class Compiler {
 public:
  Compiler(const ir::Program& program, int game)
      : game_(program.games[static_cast<size_t>(game)]), gameIndex_(game) {}

  std::unique_ptr<MoveCode> compile() {
    if (game_.params.empty() || game_.params.size() > kMaxCodeParams) return nullptr;
    for (const ir::Param& p : game_.params)
      if (p.type != ir::Type::Int) return nullptr;
    out_ = std::make_unique<MoveCode>();
    out_->initialRegisters.assign(static_cast<size_t>(game_.intSlots), 0);
    out_->listSlots = game_.listSlots;
    for (const ir::Param& p : game_.params) out_->paramRegisters.push_back(p.slot);
    for (const ir::Move& m : game_.moves) {
      std::vector<size_t> skips;  // guards of the outermost level: past the move
      if (!steps(m, 0, skips)) return nullptr;
      for (size_t at : skips) patch(at);
    }
    emit({Opcode::Done});
    return std::move(out_);
  }

 private:
  int32_t temporary() {
    out_->initialRegisters.push_back(0);
    return static_cast<int32_t>(out_->initialRegisters.size() - 1);
  }
  int32_t constant(int64_t value) {
    out_->initialRegisters.push_back(value);
    return static_cast<int32_t>(out_->initialRegisters.size() - 1);
  }
  size_t emit(Instruction i) {
    out_->code.push_back(i);
    return out_->code.size() - 1;
  }
  int32_t here() const { return static_cast<int32_t>(out_->code.size()); }
  void patch(size_t at) { out_->code[at].target = here(); }

  // The register holding integer expression `e`. With `rename` (a normalize
  // rule), variable slot i is register rename[i], and an expression left to
  // the reference evaluator (which reads the frame) is not allowed: -1.
  int32_t expr(const ir::Expr& e, const std::vector<int32_t>* rename = nullptr) {
    switch (e.op) {
      case ir::Op::IntConst:
        return constant(e.imm);
      case ir::Op::IntVar:
        return rename ? (*rename)[static_cast<size_t>(e.imm)] : static_cast<int32_t>(e.imm);
      case ir::Op::And:
      case ir::Op::Or: {
        // Short-circuit: the right side only runs when the left does not decide.
        int32_t r = temporary();
        int32_t a = expr(e.kids[0], rename);
        if (a < 0) return -1;
        emit({Opcode::Truth, r, a});
        size_t jump = emit({e.op == ir::Op::And ? Opcode::JumpIfZero : Opcode::JumpIfNonZero, r});
        int32_t b = expr(e.kids[1], rename);
        if (b < 0) return -1;
        emit({Opcode::Truth, r, b});
        patch(jump);
        return r;
      }
      default:
        break;
    }
    if (std::optional<Opcode> op = opcodeOf(e.op)) {
      // r = OP a; r = a OP b; min and max of more operands as a chain.
      int32_t r = expr(e.kids[0], rename);
      if (r < 0) return -1;
      if (ir::minOperands(e.op) == 1) {
        int32_t t = temporary();
        emit({*op, t, r});
        return t;
      }
      for (size_t i = 1; i < e.kids.size(); ++i) {
        int32_t b = expr(e.kids[i], rename);
        if (b < 0) return -1;
        int32_t t = temporary();
        emit({*op, t, r, b});
        r = t;
      }
      return r;
    }
    if (rename || (e.type != ir::Type::Int && e.type != ir::Type::Bool)) return -1;
    int32_t r = temporary();
    Instruction i{Opcode::Tree, r};
    i.expr = &e;
    emit(i);
    return r;
  }

  // Steps `index..` of move `m`, then its successor. A guard that fails
  // jumps to an address added to `skips` (patched by the caller).
  bool steps(const ir::Move& m, size_t index, std::vector<size_t>& skips) {
    if (index == m.steps.size()) return successor(m);
    const ir::Step& s = m.steps[index];
    switch (s.kind) {
      case ir::Step::Kind::Let: {
        if (s.type == ir::Type::List) {
          Instruction i{Opcode::TreeList, s.slot};
          i.expr = &s.value;
          emit(i);
        } else {
          int32_t v = expr(s.value);
          if (v < 0) return false;
          emit({Opcode::Copy, s.slot, v});
        }
        return steps(m, index + 1, skips);
      }
      case ir::Step::Kind::Guard: {
        int32_t v = expr(s.value);
        if (v < 0) return false;
        skips.push_back(emit({Opcode::JumpIfZero, v}));
        return steps(m, index + 1, skips);
      }
      case ir::Step::Kind::Bind:
        break;
    }
    if (s.type != ir::Type::Int) return false;  // a list bound from a list of lists
    int32_t loop = out_->loops++;
    size_t start;
    if (s.domain.isRange) {
      int32_t lo = expr(s.domain.lo);
      int32_t hi = lo < 0 ? -1 : expr(s.domain.hi);
      if (hi < 0) return false;
      int32_t end = temporary();  // a copy: the bound is fixed when the loop starts
      emit({Opcode::Copy, end, hi});
      start = emit({Opcode::RangeStart, s.slot, lo, loop, end});
    } else {
      if (s.domain.list.type != ir::Type::List) return false;
      Instruction i{Opcode::ListStart, s.slot, 0, loop};
      i.expr = &s.domain.list;
      start = emit(i);
    }
    int32_t body = here();
    std::vector<size_t> continues;
    if (!steps(m, index + 1, continues)) return false;
    for (size_t at : continues) patch(at);
    Instruction next{s.domain.isRange ? Opcode::RangeNext : Opcode::ListNext, s.slot, 0, loop};
    next.d = out_->code[start].d;
    next.target = body;
    emit(next);
    patch(start);
    return true;
  }

  bool successor(const ir::Move& m) {
    std::vector<SuccessorTerm> terms;
    for (const ir::Term& t : m.successor) {
      if (t.kind != ir::Term::Kind::Position) return false;  // sum ... for
      SuccessorTerm out;
      out.term = &t;
      out.self = t.game == gameIndex_;
      if (out.self && !selfTerm(t, out)) return false;
      terms.push_back(std::move(out));
    }
    out_->successors.push_back(std::move(terms));
    emit({Opcode::Successor, static_cast<int32_t>(out_->successors.size() - 1)});
    return true;
  }

  // The raw arguments of a term of the game searched, then its normalize
  // rule over them (the parameters renamed to the arguments' registers).
  bool selfTerm(const ir::Term& t, SuccessorTerm& out) {
    for (const ir::Expr& a : t.args) {
      int32_t r = expr(a);
      if (r < 0) return false;
      out.raw.push_back(r);
    }
    if (!game_.normalize) {
      out.words = out.raw;
      return true;
    }
    std::vector<int32_t> rename(static_cast<size_t>(game_.intSlots), -1);
    for (size_t i = 0; i < game_.params.size(); ++i)
      rename[static_cast<size_t>(game_.params[i].slot)] = out.raw[i];
    // A variable that is not a parameter has no register (-1), and a list
    // or the reference evaluator is not allowed: expr() then gives -1.
    for (const ir::Expr& e : *game_.normalize) {
      int32_t r = expr(e, &rename);
      if (r < 0) return false;
      out.words.push_back(r);
    }
    return true;
  }

  const ir::Game& game_;
  int gameIndex_;
  std::unique_ptr<MoveCode> out_;
};

}  // namespace

std::unique_ptr<MoveCode> compileMoves(const ir::Program& program, int game) {
  return Compiler(program, game).compile();
}

}  // namespace gdsl::interp
