// The table of operators (compiler/ir/Ops.def) against what uses it: names
// and spellings distinct; the ops marked cannot-fail never fail in the
// reference evaluator, and the other integer ops do on some operands; the
// interpreter's instructions are integer ops; each binary operator lowers to
// an op whose operand and result types are the ones lowering gives it; and
// every expression of every program in the repository has the operands and
// types its op's row says.
#include "compiler/ir/Ops.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "backend/interp/MoveCode.h"
#include "compiler/ir/Evaluator.h"
#include "driver/Program.h"
#include "repository_programs.h"

namespace {

using gdsl::ir::Expr;
using gdsl::ir::Op;
using gdsl::ir::Type;

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

std::vector<Op> allOps() {
  std::vector<Op> out;
  for (const gdsl::ir::OpInfo& info : gdsl::ir::kOps) out.push_back(info.op);
  return out;
}

bool scalarLetter(char c) {
  return c == 'i' || c == 'b' || c == 's';
}

// Whether an expression of type `t` has the type letter `c` stands for.
bool hasType(char c, Type t) {
  switch (c) {
    case 'i':
      return t == Type::Int;
    case 'b':
      return t == Type::Bool;
    case 's':
      return t == Type::Int || t == Type::Bool;
    case 'l':
      return t == Type::List;
    case 'n':
      return t == Type::ListList;
    case 'L':
      return t == Type::List || t == Type::ListList;
    case '?':
      return true;
    default:
      return false;
  }
}

// The integer ops (every operand and the result an integer or condition),
// with kids reading int slots 0, 1, ...
bool integerOp(Op op) {
  const gdsl::ir::OpInfo& info = gdsl::ir::opInfo(op);
  if (gdsl::ir::minOperands(op) == 0 || gdsl::ir::isComprehension(op) || !scalarLetter(info.result))
    return false;
  for (const char* c = info.operands; *c; ++c)
    if (*c != '+' && *c != '*' && !scalarLetter(*c)) return false;
  return true;
}

Expr intOp(Op op, size_t operands) {
  Expr e;
  e.op = op;
  e.type = gdsl::ir::opInfo(op).result == 'b' ? Type::Bool : Type::Int;
  for (size_t i = 0; i < operands; ++i) {
    Expr k;
    k.op = Op::IntVar;
    k.imm = static_cast<int64_t>(i);
    k.type = gdsl::ir::operandType(op, i) == 'b' ? Type::Bool : Type::Int;
    e.kids.push_back(k);
  }
  return e;
}

// Whether the reference evaluator fails on `op` over `values`.
bool fails(const gdsl::ir::Program& program, Op op, std::vector<int64_t> values) {
  gdsl::ir::ListArena arena;
  gdsl::ir::Evaluator eval(program, arena);
  Expr e = intOp(op, values.size());
  for (size_t i = 0; i < values.size(); ++i)
    if (gdsl::ir::operandType(op, i) == 'b') values[i] = values[i] != 0;
  gdsl::ir::Frame frame{values.data(), nullptr};
  try {
    eval.evalInt(e, frame);
    return false;
  } catch (const gdsl::RuntimeError&) {
    return true;
  }
}

// Operands that make some integer op fail: overflows, zero divisors,
// negative shifts and exponents, shifts past the word.
const std::vector<int64_t> kEdges = {0, 1, -1, 2, -2, 63, 64, 65, kMin, kMax, kMin + 1, kMax - 1};

// Every expression of `program`, comprehensions' loops included.
void forEachExpr(const gdsl::ir::Program& program, const std::function<void(const Expr&)>& f) {
  std::function<void(const Expr&)> expr;
  std::function<void(const gdsl::ir::Step&)> step = [&](const gdsl::ir::Step& s) {
    for (const Expr* k : gdsl::ir::exprsOf(s)) expr(*k);
  };
  expr = [&](const Expr& e) {
    f(e);
    for (const Expr& k : e.kids) expr(k);
    for (const gdsl::ir::Step& s : e.steps) step(s);
  };
  std::function<void(const std::vector<gdsl::ir::Term>&)> terms =
      [&](const std::vector<gdsl::ir::Term>& ts) {
        for (const gdsl::ir::Term& t : ts) {
          for (const Expr& a : t.args) expr(a);
          if (t.kind == gdsl::ir::Term::Kind::SumFor) step(t.binder);
          terms(t.body);
        }
      };
  for (const gdsl::ir::Constant& c : program.constants) expr(c.init);
  for (const gdsl::ir::Game& g : program.games) {
    if (g.normalize)
      for (const Expr& e : *g.normalize) expr(e);
    for (const gdsl::ir::Move& m : g.moves) {
      for (const gdsl::ir::Step& s : m.steps) step(s);
      terms(m.successor);
      if (m.amount) expr(*m.amount);
    }
    for (const gdsl::ir::ShowPart& part : g.show) {
      expr(part.cells);
      if (part.width) expr(*part.width);
      if (part.size) expr(*part.size);
    }
  }
  for (const gdsl::ir::Statement& s : program.statements) {
    terms(s.position.terms);
    for (const gdsl::ir::Step& st : s.steps) step(st);
    for (const gdsl::ir::TableArg& a : s.table) {
      expr(a.lo);
      if (a.isRange) expr(a.hi);
    }
    if (s.periodMax) expr(*s.periodMax);
    if (s.other) terms(s.other->terms);
  }
}

// What is wrong with `e` by its op's row (operand count and types, result
// type), or "".
std::string checkAgainstTable(const Expr& e) {
  Op op = e.op;
  const gdsl::ir::OpInfo& info = gdsl::ir::opInfo(op);
  std::string where = std::string(info.name) + ": ";
  size_t n = gdsl::ir::minOperands(op);
  if (gdsl::ir::isVariadic(op) ? e.kids.size() < n : e.kids.size() != n)
    return where + std::to_string(e.kids.size()) + " operands, the table says " + info.operands;
  for (size_t i = 0; i < e.kids.size(); ++i)
    if (!hasType(gdsl::ir::operandType(op, i), e.kids[i].type))
      return where + "operand " + std::to_string(i) + " of type " +
             std::to_string(static_cast<int>(e.kids[i].type)) + ", the table says " + info.operands;
  if (!hasType(info.result, e.type))
    return where + "of type " + std::to_string(static_cast<int>(e.type)) + ", the table says " +
           info.result;
  if (!e.steps.empty() && !gdsl::ir::isComprehension(op)) return where + "steps";
  return "";
}

}  // namespace

TEST_CASE("every op has a distinct name and a well-formed row") {
  std::set<std::string> names;
  for (Op op : allOps()) {
    const gdsl::ir::OpInfo& info = gdsl::ir::opInfo(op);
    INFO(info.name);
    CHECK(std::string_view(info.name).size() > 0);
    CHECK(std::string_view(gdsl::ir::opName(op)) == info.name);
    CHECK(names.insert(info.name).second);
    CHECK(std::string_view("ibslnL?").find(info.result) != std::string_view::npos);
    std::string_view operands = info.operands;
    for (size_t i = 0; i < operands.size(); ++i) {
      bool repeat = operands[i] == '+' || operands[i] == '*';
      CHECK((repeat ? i + 1 == operands.size() && i > 0
                    : std::string_view("ibslnL?").find(operands[i]) != std::string_view::npos));
    }
    if (gdsl::ir::isComprehension(op)) CHECK(gdsl::ir::minOperands(op) == 1);
  }
  CHECK(names.size() == gdsl::ir::kOpCount);
  // Fingerprints hash an op by its number: ops are added at the end.
  CHECK(static_cast<int>(Op::IntConst) == 0);
  CHECK(static_cast<int>(Op::Add) == 8);
  CHECK(static_cast<int>(Op::Ge) == 32);
  CHECK(static_cast<int>(Op::Pow) == 42);
  CHECK(static_cast<int>(Op::SumOf) == 49);
}

TEST_CASE("an op marked cannot-fail never fails in the reference evaluator") {
  gdsl::ir::Program program;
  std::mt19937_64 rng(34);
  auto operand = [&] {
    switch (rng() % 4) {
      case 0:
        return kEdges[rng() % kEdges.size()];
      case 1:
        return static_cast<int64_t>(rng() % 201) - 100;
      default:
        return static_cast<int64_t>(rng());
    }
  };
  int checked = 0;
  for (Op op : allOps()) {
    if (!gdsl::ir::cannotFail(op) || gdsl::ir::minOperands(op) == 0) continue;
    INFO(gdsl::ir::opName(op));
    REQUIRE(integerOp(op));  // the flag is about integer ops
    size_t n = gdsl::ir::minOperands(op);
    for (int trial = 0; trial < 20000; ++trial) {
      std::vector<int64_t> values;
      size_t count = n + (gdsl::ir::isVariadic(op) ? rng() % 3 : 0);
      for (size_t i = 0; i < count; ++i) values.push_back(operand());
      INFO(values[0]);
      REQUIRE_FALSE(fails(program, op, values));
    }
    ++checked;
  }
  CHECK(checked >= 10);
  // And an expression of them never fails as a whole.
  Expr e = intOp(Op::Lt, 2);
  e.kids[1] = intOp(Op::BitXor, 2);
  CHECK(gdsl::ir::neverFails(e));
  e.kids[1].kids[0] = intOp(Op::Add, 2);
  CHECK_FALSE(gdsl::ir::neverFails(e));
}

TEST_CASE("an integer op not marked cannot-fail fails on some operands") {
  gdsl::ir::Program program;
  int checked = 0;
  for (Op op : allOps()) {
    if (!integerOp(op) || gdsl::ir::cannotFail(op)) continue;
    // popcount cannot fail, but is left unmarked on purpose (Ops.def).
    if (op == Op::Popcount) continue;
    INFO(gdsl::ir::opName(op));
    size_t n = gdsl::ir::minOperands(op);
    REQUIRE(n <= 2);
    bool failed = false;
    for (int64_t a : kEdges)
      for (int64_t b : kEdges)
        if (!failed) failed = fails(program, op, n == 1 ? std::vector{a} : std::vector{a, b});
    CHECK(failed);
    ++checked;
  }
  CHECK(checked >= 10);
}

TEST_CASE("the interpreter's instructions are the integer ops marked Reg") {
  int reg = 0;
  for (Op op : allOps()) {
    INFO(gdsl::ir::opName(op));
    std::optional<gdsl::interp::Opcode> code = gdsl::interp::opcodeOf(op);
    if (!code) continue;
    ++reg;
    // One operand (r = OP a) or two (r = a OP b; min and max of more as a chain).
    CHECK(integerOp(op));
    CHECK(gdsl::ir::minOperands(op) >= 1);
    CHECK(gdsl::ir::minOperands(op) <= 2);
    CHECK(static_cast<int>(*code) < static_cast<int>(gdsl::interp::Opcode::Truth));
  }
  // The enum's first entries are those ops, dense.
  CHECK(reg == static_cast<int>(gdsl::interp::Opcode::Truth));
  CHECK(gdsl::interp::opcodeOf(Op::Add) == gdsl::interp::Opcode::Add);
  CHECK(gdsl::interp::opcodeOf(Op::Ge) == gdsl::interp::Opcode::Ge);
  CHECK_FALSE(gdsl::interp::opcodeOf(Op::Pow));
  CHECK_FALSE(gdsl::interp::opcodeOf(Op::And));
}

TEST_CASE("every binary operator lowers to an op of two operands, spelled once") {
  std::set<std::string> spellings;
  for (const gdsl::ast::BinOpInfo& b : gdsl::ast::kBinOps) {
    INFO(b.spelling);
    CHECK(spellings.insert(b.spelling).second);
    CHECK(gdsl::ast::binOpSpelled(b.spelling) == b.op);
    CHECK(b.precedence > 0);
    for (bool lists : {false, true}) {
      Op op = gdsl::ir::lowered(b.op, lists);
      CHECK(gdsl::ir::minOperands(op) == 2);
      CHECK_FALSE(gdsl::ir::isVariadic(op));
      CHECK(std::string_view(gdsl::ir::writtenAs(op)) == b.spelling);
    }
    // Sema checks the others' operands by the letters of their op.
    if (b.op != gdsl::ast::BinOp::Eq && b.op != gdsl::ast::BinOp::Ne &&
        b.op != gdsl::ast::BinOp::In) {
      Op op = gdsl::ir::lowered(b.op);
      for (size_t i = 0; i < 2; ++i)
        CHECK(std::string_view("ibln").find(gdsl::ir::operandType(op, i)) !=
              std::string_view::npos);
      CHECK(std::string_view("ibln").find(gdsl::ir::opInfo(op).result) != std::string_view::npos);
    }
  }
  CHECK_FALSE(gdsl::ast::binOpSpelled("=>"));
}

TEST_CASE("each binary operator written in a rule lowers to its op, with the table's types") {
  // An operand of each type the table's letters name.
  auto operand = [](char c) -> std::string {
    switch (c) {
      case 'b':
        return "(n > 0)";
      case 'l':
        return "[n, 2]";
      default:
        return "n";
    }
  };
  for (const gdsl::ast::BinOpInfo& b : gdsl::ast::kBinOps) {
    for (bool lists : {false, true}) {
      Op op = gdsl::ir::lowered(b.op, lists);
      if (lists && op == gdsl::ir::lowered(b.op)) continue;
      std::string text = operand(gdsl::ir::operandType(op, 0)) + " " + b.spelling + " " +
                         operand(gdsl::ir::operandType(op, 1));
      if (gdsl::ir::opInfo(op).result == 'i') text = "(" + text + ") >= 0";
      text = "game G(n) {\n  move m when n > 0 and (" + text + ") -> G(n - 1)\n}\n";
      INFO(text);
      std::string errors;
      auto ws = gdsl::compileProgram("ops.game", text, errors);
      REQUIRE(ws);
      const gdsl::ir::Game& g = ws->program().games.at(0);
      REQUIRE(g.moves.size() == 1);
      REQUIRE_FALSE(g.moves[0].steps.empty());
      // when n > 0 and (X OP Y [>= 0])
      const Expr& guard = g.moves[0].steps.back().value;
      REQUIRE(guard.op == Op::And);
      const Expr* e = &guard.kids[1];
      if (gdsl::ir::opInfo(op).result == 'i') e = &e->kids[0];
      CHECK(gdsl::ir::opName(e->op) == std::string(gdsl::ir::opName(op)));
      CHECK(checkAgainstTable(*e) == "");
    }
  }
}

TEST_CASE("every expression of every program in the repository agrees with its op's row") {
  int programs = 0, exprs = 0;
  std::set<std::string> seen;
  std::vector<std::pair<std::string, std::string>> sources = repositoryPrograms();
  // What those programs do not write: lists compared, len of a list of lists.
  sources.emplace_back("lists.game",
                       "const E = [[1, 2], [3], []]\n"
                       "game G(n) {\n"
                       "  move a(i in 0..len(E) - 1) when n > 0 and len(E[i]) <= n and\n"
                       "      [n] != E[i] and not ([n, 1] == [1, n]) -> G(n - 1)\n"
                       "}\n");
  for (const auto& source : sources) {
    const std::string& path = source.first;  // a plain name: lambdas capture it
    std::string errors;
    auto ws = gdsl::compileProgram(path, source.second, errors);
    if (!ws) continue;  // error cases, and imports by a path from elsewhere
    ++programs;
    forEachExpr(ws->program(), [&](const Expr& e) {
      ++exprs;
      seen.insert(gdsl::ir::opName(e.op));
      std::string wrong = checkAgainstTable(e);
      if (!wrong.empty()) FAIL_CHECK(path << ": " << wrong);
    });
  }
  INFO(programs << " programs, " << exprs << " expressions");
  CHECK(programs > 100);
  // With these programs, every op but ConstRef (folded away) is seen.
  CHECK(seen.size() + 1 == gdsl::ir::kOpCount);
  CHECK_FALSE(seen.count("const"));
}
