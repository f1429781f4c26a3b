// Source-form printing of the AST, with the fewest parentheses that keep the
// meaning (precedences as in docs/reference.md section 3.2).
#include "compiler/ast/AstPrinter.h"

#include <fmt/format.h>

namespace gdsl::ast {
namespace {

int precedence(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Binary:
      return binOpPrecedence(e.op);
    case ExprKind::Not:
      return 3;
    case ExprKind::Int:  // a negative literal prints as a negation
      return e.value < 0 ? 12 : 14;
    case ExprKind::Range:
      return 5;
    case ExprKind::Neg:
    case ExprKind::BitNot:
      return 12;
    default:
      return 14;
  }
}

void print(const Expr& e, std::string& out);
void printComprehension(const Expr& e, std::string& out);

// ` for x in D if c` ...: the loops and filters of a comprehension.
void printClauses(const std::vector<Clause>& clauses, std::string& out) {
  for (const Clause& c : clauses) {
    if (c.kind == Clause::Kind::Bind)
      out += " for " + c.name + " in ";
    else
      out += " if ";
    print(*c.expr, out);
  }
}

void printKid(const Expr& kid, int minPrec, std::string& out) {
  if (precedence(kid) < minPrec) {
    out += '(';
    print(kid, out);
    out += ')';
  } else {
    print(kid, out);
  }
}

void printList(const std::vector<ExprPtr>& items, std::string& out) {
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    print(*items[i], out);
  }
}

void print(const Expr& e, std::string& out) {
  switch (e.kind) {
    case ExprKind::Int:
      out += std::to_string(e.value);
      return;
    case ExprKind::Name:
      out += e.name;
      return;
    case ExprKind::Neg:
      out += '-';
      printKid(*e.kids[0], 12, out);
      return;
    case ExprKind::BitNot:
      out += '~';
      printKid(*e.kids[0], 12, out);
      return;
    case ExprKind::Not:
      out += "not ";
      printKid(*e.kids[0], 3, out);
      return;
    case ExprKind::Binary: {
      int p = precedence(e);
      // Comparisons do not chain, `**` is right-associative (and takes a
      // negation on its right), every other operator is left-associative.
      if (e.op == BinOp::Pow) {
        printKid(*e.kids[0], p + 1, out);
        out += " ** ";
        printKid(*e.kids[1], 12, out);
        return;
      }
      printKid(*e.kids[0], p == 4 ? p + 1 : p, out);
      out += fmt::format(" {} ", binOpSpelling(e.op));
      printKid(*e.kids[1], p + 1, out);
      return;
    }
    case ExprKind::Range:
      printKid(*e.kids[0], 6, out);
      out += "..";
      printKid(*e.kids[1], 6, out);
      return;
    case ExprKind::List:
      out += '[';
      printList(e.kids, out);
      out += ']';
      return;
    case ExprKind::Set:
      out += '{';
      printList(e.kids, out);
      out += '}';
      return;
    case ExprKind::Call:
      out += e.name;
      out += '(';
      printList(e.kids, out);
      out += ')';
      return;
    case ExprKind::Index:
      printKid(*e.kids[0], 13, out);
      out += '[';
      print(*e.kids[1], out);
      out += ']';
      return;
    case ExprKind::Comprehension:
      printComprehension(e, out);
      return;
  }
}

// [e for x in D if c], any(e for x in D), and sum(L), which sema writes as
// a fold over a variable of its own (named with a `$`, which no program can).
void printComprehension(const Expr& e, std::string& out) {
  const bool list = e.name == "list";
  if (!list && e.clauses.size() == 1 && e.clauses[0].name.starts_with('$')) {
    out += e.name + "(";
    print(*e.clauses[0].expr, out);
    out += ')';
    return;
  }
  out += list ? "[" : e.name + "(";
  print(*e.kids[0], out);
  printClauses(e.clauses, out);
  out += list ? ']' : ')';
}

void printTerm(const Term& t, std::string& out, bool parenthesizeSum) {
  switch (t.kind) {
    case Term::Kind::Zero:
      out += '0';
      return;
    case Term::Kind::Game:
      out += t.game;
      out += '(';
      printList(t.args, out);
      out += ')';
      return;
    case Term::Kind::Sum: {
      if (parenthesizeSum) out += '(';
      out += "sum ";
      bool single = t.body.size() == 1 && t.body[0].kind == Term::Kind::Game;
      if (!single) out += '(';
      out += printSuccessor(t.body);
      if (!single) out += ')';
      out += fmt::format(" for {} in ", t.var);
      print(*t.domain, out);
      if (parenthesizeSum) out += ')';
      return;
    }
  }
}

// `hex`: the move comes from a hexadecimal code (its sugar is Octal's).
void printMove(const Move& m, std::string& out, bool hex = false) {
  out += "  move";
  if (!m.label.empty()) out += " " + m.label;
  std::vector<const Clause*> inner;
  const Clause* trailing = nullptr;
  for (const Clause& c : m.clauses) inner.push_back(&c);
  // A `when` after the last binder prints after the parentheses.
  if (!inner.empty() && inner.back()->kind == Clause::Kind::When) {
    trailing = inner.back();
    inner.pop_back();
  }
  if (!inner.empty()) {
    out += '(';
    for (size_t i = 0; i < inner.size(); ++i) {
      const Clause& c = *inner[i];
      if (i) out += c.kind == Clause::Kind::When ? " " : ", ";
      if (c.kind == Clause::Kind::Bind) out += c.name + " in " + printExpr(*c.expr);
      if (c.kind == Clause::Kind::Let) out += "let " + c.name + " = " + printExpr(*c.expr);
      if (c.kind == Clause::Kind::When) out += "when " + printExpr(*c.expr);
    }
    out += ')';
  }
  if (trailing) out += " when " + printExpr(*trailing->expr);
  out += " -> " + printSuccessor(m.successor);
  if (m.sugar != Sugar::None)
    out += fmt::format("  // from {}", hex && m.sugar == Sugar::Octal ? "hex" : sugarName(m.sugar));
  out += '\n';
}

void printSugar(const Move& m, std::string& out) {
  switch (m.sugar) {
    case Sugar::Take:
      out += "  take " + printExpr(*m.amount);
      break;
    case Sugar::Remove:
      out += "  remove " + printExpr(*m.amount);
      break;
    case Sugar::RemoveNeighbours:
      out += "  remove " + printExpr(*m.amount) + " with neighbours";
      break;
    default:
      out += std::string("  ") + sugarName(m.sugar);
      break;
  }
  out += '\n';
}

void printGame(const Game& g, std::string& out) {
  if (g.isOctal && g.moves.empty()) {
    out += fmt::format("game {} = {} \"{}\"\n", g.name, g.isHex ? "hex" : "octal", g.octalCode);
    return;
  }
  out += fmt::format("{}game {}(", g.loopy ? "loopy " : "", g.name);
  for (size_t i = 0; i < g.params.size(); ++i) {
    if (i) out += ", ";
    out += g.params[i].name;
    if (g.params[i].isList) out += ": list";
  }
  out += ") {";
  if (g.isOctal) out += fmt::format("  // {} \"{}\"", g.isHex ? "hex" : "octal", g.octalCode);
  out += '\n';
  if (g.normalize) {
    out += "  normalize -> ";
    printTerm(*g.normalize, out, false);
    out += '\n';
  }
  if (!g.show.empty()) {
    out += "  show";
    for (size_t i = 0; i < g.show.size(); ++i) {
      const ShowPart& part = g.show[i];
      out += i ? ", " : " ";
      if (part.kind == ShowPart::Kind::Value) {
        print(*part.value, out);
        continue;
      }
      out += part.name + '(';
      printList(part.args, out);
      if (part.hasSymbols) {
        out += part.args.empty() ? "\"" : ", \"";
        for (char c : part.symbols) {
          if (c == '"' || c == '\\') out += '\\';
          out += c;
        }
        out += '"';
      }
      out += ')';
    }
    out += '\n';
  }
  for (const Move& m : g.moves) {
    bool sugared = m.sugar != Sugar::None && m.successor.empty() && m.sugar != Sugar::Octal;
    if (sugared)
      printSugar(m, out);
    else
      printMove(m, out, g.isHex);
  }
  out += "}\n";
}

}  // namespace

std::string printExpr(const Expr& expr) {
  std::string out;
  print(expr, out);
  return out;
}

std::string printSuccessor(const Successor& successor, bool followed) {
  std::string out;
  if (successor.empty()) return "0";
  for (size_t i = 0; i < successor.size(); ++i) {
    if (i) out += " + ";
    printTerm(successor[i], out, i + 1 < successor.size() || followed);
  }
  return out;
}

std::string printTableOf(const Statement& s) {
  std::string out = "[" + printSuccessor(s.position);
  printClauses(s.clauses, out);
  return out + "]";
}

std::string printModule(const Module& module) {
  std::string out;
  for (const Statement& s : module.statements) {
    switch (s.kind) {
      case Statement::Kind::Game:
        printGame(*s.game, out);
        break;
      case Statement::Kind::Const:
        out += fmt::format("const {} = {}\n", s.name, printExpr(*s.expr));
        break;
      case Statement::Kind::Import:
        out += s.importStd ? fmt::format("import {}\n", s.name)
                           : fmt::format("import \"{}\"\n", s.name);
        break;
      case Statement::Kind::Eval:
        out += fmt::format("eval {}{}\n", s.misere ? "misere " : "", printSuccessor(s.position));
        break;
      case Statement::Kind::Moves:
        out += fmt::format("moves {}\n", printSuccessor(s.position));
        break;
      case Statement::Kind::TableOf:
        out += "table " + printTableOf(s) + "\n";
        break;
      case Statement::Kind::Table:
      case Statement::Kind::Period: {
        out += s.kind == Statement::Kind::Period ? "period " : s.plot ? "plot " : "table ";
        out += s.name;
        if (s.kind == Statement::Kind::Table || s.hasArgs) {
          out += '(';
          printList(s.args, out);
          out += ')';
        }
        out += '\n';
        break;
      }
      case Statement::Kind::Assert:
        out += fmt::format(
            "assert {} == {}\n", printSuccessor(s.position, true),
            s.comparesPositions ? printSuccessor(s.other)
            : s.expectsInfinite
                ? (s.expectedK.empty() ? std::string("inf")
                                       : fmt::format("inf({})", fmt::join(s.expectedK, ", ")))
            : s.expected == 0 ? std::string("0")
                              : fmt::format("*{}", s.expected));
        break;
    }
  }
  return out;
}

}  // namespace gdsl::ast
