// Names of IR opcodes and small helpers.
#include "compiler/ir/Ir.h"

namespace gdsl::ir {

const char* opName(Op op) {
  static const char* const names[] = {
      "int",     "list",        "nested", "ivar",     "lvar",    "const",   "neg",   "abs",
      "add",     "sub",         "mul",    "div",      "mod",     "shl",     "shr",   "and",
      "or",      "xor",         "min",    "max",      "minlist", "maxlist", "len",   "index",
      "not",     "land",        "lor",    "eq",       "ne",      "lt",      "le",    "gt",
      "ge",      "listeq",      "listne", "inlist",   "range",   "mklist",  "mkset", "sort",
      "setelem", "indexnested", "pow",    "popcount", "bits",    "collect", "anyof", "allof",
      "countof", "sumof"};
  return names[static_cast<int>(op)];
}

Expr literalInt(int64_t v, SourceRange loc, Type type) {
  Expr e;
  e.op = Op::IntConst;
  e.type = type;
  e.imm = v;
  e.loc = loc;
  return e;
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
