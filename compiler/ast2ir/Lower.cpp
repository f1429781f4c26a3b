// Lowering from the annotated AST to the move IR (see compiler/ir/Ir.h).
#include "compiler/ast2ir/Lower.h"

#include <unordered_map>

#include "compiler/ast/AstPrinter.h"

namespace gdsl {
namespace {

using ast::ExprKind;

class Lowerer {
 public:
  explicit Lowerer(const CheckedProgram& checked) : checked_(checked) {
    for (size_t i = 0; i < checked.games.size(); ++i)
      gameIds_[checked.games[i]] = static_cast<int>(i);
  }

  ir::Program run(const ast::Module& main) {
    ir::Program p;
    for (const ConstDecl& c : checked_.consts) {
      ir::Constant k;
      k.name = c.statement->name;
      k.type = ir::fromAst(c.type);
      k.loc = c.statement->nameRange;
      assignSlots(c.statement->locals, k.intSlots, k.listSlots);  // comprehensions' variables
      k.init = expr(*c.statement->expr);
      p.constants.push_back(std::move(k));
    }
    for (const ast::Game* g : checked_.games) p.games.push_back(game(*g));
    p.statements = statements(main);
    return p;
  }

  std::vector<ir::Statement> statements(const ast::Module& module) {
    std::vector<ir::Statement> out;
    for (const ast::Statement& s : module.statements)
      if (auto st = statement(s)) out.push_back(std::move(*st));
    return out;
  }

 private:
  // ---- slots --------------------------------------------------------------

  void assignSlots(const std::vector<ast::LocalVar>& locals, int& intSlots, int& listSlots) {
    slots_.assign(locals.size(), -1);
    intSlots = listSlots = 0;
    for (size_t i = 0; i < locals.size(); ++i)
      slots_[i] = locals[i].type == ast::Type::List ? listSlots++ : intSlots++;
    locals_ = &locals;
  }

  // ---- games --------------------------------------------------------------

  ir::Game game(const ast::Game& g) {
    ir::Game out;
    out.name = g.name;
    out.loc = g.nameRange;
    out.loopy = g.loopy;
    assignSlots(g.locals, out.intSlots, out.listSlots);
    for (size_t i = 0; i < g.params.size(); ++i) {
      ir::Param p;
      p.name = g.params[i].name;
      p.type = g.params[i].isList ? ir::Type::List : ir::Type::Int;
      p.slot = slots_[i];
      out.params.push_back(p);
    }
    for (const ast::ShowPart& part : g.show) out.show.push_back(showPart(part));
    if (g.normalize) {
      std::vector<ir::Expr> args;
      for (const auto& a : g.normalize->args) args.push_back(expr(*a));
      out.normalize = std::move(args);
      out.normalizeLoc = g.normalizeRange;
    }
    for (const ast::Move& m : g.moves) {
      if (m.sugar != ast::Sugar::None && m.sugar != ast::Sugar::Octal && m.successor.empty())
        continue;
      ir::Move move;
      move.label = m.label.empty() ? "move" : m.label;
      move.loc = m.range;
      move.sugar = m.sugar;
      if (m.amount) move.amount = expr(*m.amount);
      if (m.sugar == ast::Sugar::Octal) {
        move.octalDigits = m.octalDigit;
        move.octalBit = m.octalBits;
        move.octalAmounts = m.octalAmounts;
      }
      for (const ast::Clause& c : m.clauses) move.steps.push_back(step(c));
      move.successor = successor(m.successor);
      out.moves.push_back(std::move(move));
    }
    return out;
  }

  ir::ShowPart showPart(const ast::ShowPart& part) {
    ir::ShowPart out;
    out.loc = part.range;
    if (part.kind == ast::ShowPart::Kind::Value) {
      out.cells = expr(*part.value);
      return out;
    }
    out.draw = true;
    out.name = part.name;
    out.cells = expr(*part.args[0]);
    size_t sized = 1;  // the index of the size argument
    if (part.name == "board") {
      out.width = expr(*part.args[1]);
      sized = 2;
    }
    if (part.args.size() > sized) out.size = expr(*part.args[sized]);
    out.symbols = part.cellSymbols;
    return out;
  }

  ir::Step step(const ast::Clause& c) {
    ir::Step s;
    s.loc = c.range;
    s.name = c.name;
    switch (c.kind) {
      case ast::Clause::Kind::Bind:
        s.kind = ir::Step::Kind::Bind;
        bindVar(s, c.varId);
        s.domain = domain(*c.expr);
        break;
      case ast::Clause::Kind::Let:
        s.kind = ir::Step::Kind::Let;
        bindVar(s, c.varId);
        s.value = expr(*c.expr);
        break;
      case ast::Clause::Kind::When:
        s.kind = ir::Step::Kind::Guard;
        s.value = expr(*c.expr);
        break;
    }
    return s;
  }

  void bindVar(ir::Step& s, int varId) {
    s.type = ir::fromAst((*locals_)[varId].type);
    s.slot = slots_[varId];
  }

  ir::Domain domain(const ast::Expr& e) {
    ir::Domain d;
    if (e.kind == ExprKind::Range) {
      d.isRange = true;
      d.lo = expr(*e.kids[0]);
      d.hi = expr(*e.kids[1]);
    } else {
      d.isRange = false;
      d.list = expr(e);
    }
    return d;
  }

  std::vector<ir::Term> successor(const ast::Successor& succ) {
    std::vector<ir::Term> out;
    for (const ast::Term& t : succ) {
      ir::Term term;
      term.loc = t.range;
      if (t.kind == ast::Term::Kind::Sum) {
        term.kind = ir::Term::Kind::SumFor;
        term.binder.kind = ir::Step::Kind::Bind;
        term.binder.name = t.var;
        term.binder.loc = t.varRange;
        bindVar(term.binder, t.varId);
        term.binder.domain = domain(*t.domain);
        term.body = successor(t.body);
      } else {
        term.kind = ir::Term::Kind::Position;
        term.game = t.gameId;
        for (const auto& a : t.args) term.args.push_back(expr(*a));
      }
      out.push_back(std::move(term));
    }
    return out;
  }

  // ---- statements ---------------------------------------------------------

  std::optional<ir::Statement> statement(const ast::Statement& s) {
    using K = ast::Statement::Kind;
    ir::Statement out;
    out.loc = s.range;
    switch (s.kind) {
      case K::Game:
      case K::Const:
      case K::Import:
        return std::nullopt;
      case K::Eval:
      case K::Moves:
      case K::Assert:
        out.kind = s.kind == K::Moves    ? ir::Statement::Kind::Moves
                   : s.kind == K::Assert ? ir::Statement::Kind::Assert
                   : s.misere            ? ir::Statement::Kind::EvalMisere
                                         : ir::Statement::Kind::Eval;
        assignSlots(s.locals, out.position.intSlots, out.position.listSlots);
        out.position.terms = successor(s.position);
        out.expected = s.expected;
        out.expectsInfinite = s.expectsInfinite;
        out.expectedK = s.expectedK;
        if (s.comparesPositions) {
          out.other = ir::PositionExpr{};
          out.other->intSlots = out.position.intSlots;
          out.other->listSlots = out.position.listSlots;
          out.other->terms = successor(s.other);
        }
        return out;
      case K::Table:
        out.kind = ir::Statement::Kind::Table;
        out.game = s.gameId;
        out.plot = s.plot;
        assignSlots(s.locals, out.position.intSlots, out.position.listSlots);
        for (const auto& a : s.args) {
          ir::TableArg arg;
          arg.text = ast::printExpr(*a);
          bool named = a->kind == ExprKind::Binary && a->op == ast::BinOp::In;
          const ast::Expr& range = named ? *a->kids[1] : *a;
          if (range.kind == ExprKind::Range) {
            arg.isRange = true;
            arg.lo = expr(*range.kids[0]);
            arg.hi = expr(*range.kids[1]);
            if (named) arg.slot = slots_[static_cast<size_t>(a->kids[0]->index)];
          } else {
            arg.lo = expr(*a);
          }
          out.table.push_back(std::move(arg));
        }
        return out;
      case K::TableOf:
        out.kind = ir::Statement::Kind::TableOf;
        assignSlots(s.locals, out.position.intSlots, out.position.listSlots);
        for (const ast::Clause& c : s.clauses) out.steps.push_back(step(c));
        out.position.terms = successor(s.position);
        out.text = ast::printTableOf(s);
        return out;
      case K::Period:
        out.kind = ir::Statement::Kind::Period;
        out.game = s.gameId;
        assignSlots(s.locals, out.position.intSlots, out.position.listSlots);
        if (s.hasArgs) {
          ir::TableArg arg;
          arg.isRange = true;
          arg.lo = expr(*s.args[0]->kids[0]);
          arg.hi = expr(*s.args[0]->kids[1]);
          out.table.push_back(std::move(arg));
        }
        return out;
    }
    return std::nullopt;
  }

  // ---- expressions --------------------------------------------------------

  static ir::Expr node(ir::Op op, ir::Type type, SourceRange loc) {
    ir::Expr e;
    e.op = op;
    e.type = type;
    e.loc = loc;
    return e;
  }

  ir::Expr expr(const ast::Expr& e) {
    ir::Type type = ir::fromAst(e.type);
    switch (e.kind) {
      case ExprKind::Int: {
        ir::Expr out = node(ir::Op::IntConst, ir::Type::Int, e.range);
        out.imm = e.value;
        return out;
      }
      case ExprKind::Name: {
        ir::Expr out;
        if (e.ref == ast::RefKind::Const) {
          out = node(ir::Op::ConstRef, type, e.range);
          out.imm = e.index;
        } else {
          out = node(type == ir::Type::List ? ir::Op::ListVar : ir::Op::IntVar, type, e.range);
          out.imm = slots_[e.index];
        }
        return out;
      }
      case ExprKind::BitNot: {  // ~a is a ^ -1, which every backend runs
        ir::Expr out = node(ir::Op::BitXor, ir::Type::Int, e.range);
        out.kids.push_back(expr(*e.kids[0]));
        out.kids.push_back(ir::literalInt(-1, e.range));
        return out;
      }
      case ExprKind::Neg:
        return unary(ir::Op::Neg, e);
      case ExprKind::Not:
        return unary(ir::Op::Not, e);
      case ExprKind::Binary:
        return binary(e);
      case ExprKind::Range:
        return nary(ir::Op::Range, ir::Type::List, e);
      case ExprKind::List:
        return nary(ir::Op::MakeList, type, e);
      case ExprKind::Set:
        return nary(ir::Op::MakeSet, ir::Type::List, e);
      case ExprKind::Index:
        return nary(e.kids[0]->type == ast::Type::ListList ? ir::Op::IndexNested : ir::Op::Index,
                    type, e);
      case ExprKind::Comprehension:
        return comprehension(e);
      case ExprKind::Call: {
        const std::string& f = e.name;
        if (f == "min") return nary(e.kids.size() == 1 ? ir::Op::MinList : ir::Op::Min, type, e);
        if (f == "max") return nary(e.kids.size() == 1 ? ir::Op::MaxList : ir::Op::Max, type, e);
        if (f == "abs") return nary(ir::Op::Abs, type, e);
        if (f == "len") return nary(ir::Op::Len, type, e);
        if (f == "sort") return nary(ir::Op::Sort, type, e);
        if (f == "popcount") return nary(ir::Op::Popcount, type, e);
        if (f == "bits") return nary(ir::Op::Bits, type, e);
        return nary(ir::Op::SetElem, type, e);
      }
    }
    return node(ir::Op::IntConst, ir::Type::Int, e.range);
  }

  // [x for ...] is Collect; min and max of one are MinList / MaxList of it.
  ir::Expr comprehension(const ast::Expr& e) {
    const std::string& f = e.name;
    bool list = f == "list" || f == "min" || f == "max";
    ir::Op op = list           ? ir::Op::Collect
                : f == "any"   ? ir::Op::AnyOf
                : f == "all"   ? ir::Op::AllOf
                : f == "count" ? ir::Op::CountOf
                               : ir::Op::SumOf;
    ir::Expr out = node(op, list ? ir::Type::List : ir::fromAst(e.type), e.range);
    for (const ast::Clause& c : e.clauses) out.steps.push_back(step(c));
    out.kids.push_back(expr(*e.kids[0]));
    if (f != "min" && f != "max") return out;
    ir::Expr extreme = node(f == "min" ? ir::Op::MinList : ir::Op::MaxList, ir::Type::Int, e.range);
    extreme.kids.push_back(std::move(out));
    return extreme;
  }

  ir::Expr unary(ir::Op op, const ast::Expr& e) { return nary(op, ir::fromAst(e.type), e); }

  ir::Expr nary(ir::Op op, ir::Type type, const ast::Expr& e) {
    ir::Expr out = node(op, type, e.range);
    for (const auto& kid : e.kids) out.kids.push_back(expr(*kid));
    return out;
  }

  // The op of compiler/ir/Ops.def's table (== and != of lists compare lists).
  ir::Expr binary(const ast::Expr& e) {
    bool lists = e.kids[0]->type == ast::Type::List;
    return nary(ir::lowered(e.op, lists), ir::fromAst(e.type), e);
  }

  const CheckedProgram& checked_;
  std::unordered_map<const ast::Game*, int> gameIds_;
  const std::vector<ast::LocalVar>* locals_ = nullptr;
  std::vector<int> slots_;
};

}  // namespace

std::vector<ir::Statement> lowerStatements(const CheckedProgram& checked,
                                           const ast::Module& module) {
  return Lowerer(checked).statements(module);
}

ir::Program lowerProgram(const CheckedProgram& checked, const ast::Module& mainModule) {
  return Lowerer(checked).run(mainModule);
}

}  // namespace gdsl
