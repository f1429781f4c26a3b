// Small helpers of the move IR.
#include "compiler/ir/Ir.h"

namespace gdsl::ir {

Expr literalInt(int64_t v, SourceRange loc, Type type) {
  Expr e;
  e.op = Op::IntConst;
  e.type = type;
  e.imm = v;
  e.loc = loc;
  return e;
}

bool neverFails(const Expr& e) {
  if (!cannotFail(e.op)) return false;
  for (const Expr& k : e.kids)
    if (!neverFails(k)) return false;
  return true;
}

bool readsIntSlot(const Expr& e, const std::set<int>& slots) {
  return anyNode(
      e, [&](const Expr& n) { return n.op == Op::IntVar && slots.count(static_cast<int>(n.imm)); });
}

int Program::findGame(const std::string& name) const {
  for (size_t i = 0; i < games.size(); ++i)
    if (games[i].name == name) return static_cast<int>(i);
  return -1;
}

std::string Program::displayName(int g) const {
  const Game& game = games[static_cast<size_t>(g)];
  if (game.declared()) return game.name;
  return games[static_cast<size_t>(game.listOf)].name + " (lists of " +
         std::to_string(game.listLength) + ")";
}

Type fromAst(ast::Type type) {
  switch (type) {
    case ast::Type::Bool:
      return Type::Bool;
    case ast::Type::List:
      return Type::List;
    case ast::Type::ListList:
      return Type::ListList;
    default:
      return Type::Int;
  }
}

}  // namespace gdsl::ir
