// Small constructors and deep copies for AST nodes.
#include "compiler/ast/Ast.h"

namespace gdsl::ast {

const char* typeName(Type type) {
  switch (type) {
    case Type::Int:
      return "an integer";
    case Type::Bool:
      return "a condition";
    case Type::List:
      return "a list";
    case Type::ListList:
      return "a list of lists";
    case Type::Unknown:
      break;
  }
  return "an unknown value";
}

const char* sugarName(Sugar sugar) {
  switch (sugar) {
    case Sugar::Take:
      return "take";
    case Sugar::Split:
      return "split";
    case Sugar::SplitUnequal:
      return "split unequal";
    case Sugar::Remove:
      return "remove";
    case Sugar::RemoveNeighbours:
      return "remove with neighbours";
    case Sugar::Octal:
      return "octal";
    case Sugar::None:
      break;
  }
  return "move";
}

ExprPtr makeInt(int64_t value, SourceRange range) {
  auto e = std::make_unique<Expr>(ExprKind::Int, range);
  e->value = value;
  return e;
}

ExprPtr makeName(std::string name, SourceRange range) {
  auto e = std::make_unique<Expr>(ExprKind::Name, range);
  e->name = std::move(name);
  return e;
}

ExprPtr makeBinary(BinOp op, ExprPtr lhs, ExprPtr rhs, SourceRange range) {
  auto e = std::make_unique<Expr>(ExprKind::Binary, range);
  e->op = op;
  e->kids.push_back(std::move(lhs));
  e->kids.push_back(std::move(rhs));
  return e;
}

ExprPtr makeCall(std::string name, std::vector<ExprPtr> args, SourceRange range) {
  auto e = std::make_unique<Expr>(ExprKind::Call, range);
  e->name = std::move(name);
  e->kids = std::move(args);
  return e;
}

ExprPtr clone(const Expr& expr) {
  auto e = std::make_unique<Expr>(expr.kind, expr.range);
  e->value = expr.value;
  e->name = expr.name;
  e->op = expr.op;
  e->type = expr.type;
  e->ref = expr.ref;
  e->index = expr.index;
  for (const ExprPtr& kid : expr.kids) e->kids.push_back(clone(*kid));
  for (const Clause& c : expr.clauses) {
    Clause copy;
    copy.kind = c.kind;
    copy.range = c.range;
    copy.name = c.name;
    copy.nameRange = c.nameRange;
    if (c.expr) copy.expr = clone(*c.expr);
    copy.varId = c.varId;
    e->clauses.push_back(std::move(copy));
  }
  return e;
}

Term cloneTerm(const Term& term) {
  Term t;
  t.kind = term.kind;
  t.range = term.range;
  t.game = term.game;
  t.gameRange = term.gameRange;
  for (const ExprPtr& arg : term.args) t.args.push_back(clone(*arg));
  t.var = term.var;
  t.varRange = term.varRange;
  if (term.domain) t.domain = clone(*term.domain);
  for (const Term& b : term.body) t.body.push_back(cloneTerm(b));
  t.gameId = term.gameId;
  t.varId = term.varId;
  return t;
}

}  // namespace gdsl::ast
