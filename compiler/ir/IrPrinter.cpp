// Text form of the move IR.
#include "compiler/ir/IrPrinter.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace gdsl::ir {
namespace {

std::string listText(const std::vector<int64_t>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? " " : "") + std::to_string(items[i]);
  return out + "]";
}

void printTerms(const Program& p, const std::vector<Term>& terms, std::string& out);

std::string slotName(Type type, int slot) {
  return fmt::format("{}{}", type == Type::List ? 'l' : 'i', slot);
}

std::string stepText(const Program& p, const Step& s) {
  switch (s.kind) {
    case Step::Kind::Bind:
      if (s.domain.isRange)
        return fmt::format("for {}:{} in {} .. {}", s.name, slotName(s.type, s.slot),
                           printExpr(p, s.domain.lo), printExpr(p, s.domain.hi));
      return fmt::format("for {}:{} in {}", s.name, slotName(s.type, s.slot),
                         printExpr(p, s.domain.list));
    case Step::Kind::Let:
      return fmt::format("let {}:{} = {}", s.name, slotName(s.type, s.slot), printExpr(p, s.value));
    case Step::Kind::Guard:
      return fmt::format("when {}", printExpr(p, s.value));
  }
  return "";
}

void printTerms(const Program& p, const std::vector<Term>& terms, std::string& out) {
  if (terms.empty()) out += "0";
  for (size_t i = 0; i < terms.size(); ++i) {
    if (i) out += " + ";
    const Term& t = terms[i];
    if (t.kind == Term::Kind::SumFor) {
      out += "(sum " + stepText(p, t.binder) + ": ";
      printTerms(p, t.body, out);
      out += ")";
      continue;
    }
    out += p.games[t.game].name + "(";
    for (size_t j = 0; j < t.args.size(); ++j) out += (j ? ", " : "") + printExpr(p, t.args[j]);
    out += ")";
  }
}

}  // namespace

std::string printExpr(const Program& p, const Expr& e) {
  switch (e.op) {
    case Op::IntConst:
      return std::to_string(e.imm);
    case Op::IntVar:
      return fmt::format("i{}", e.imm);
    case Op::ListVar:
      return fmt::format("l{}", e.imm);
    case Op::ListConst:
      return listText(p.lists[static_cast<size_t>(e.imm)]);
    case Op::NestedConst:
      return fmt::format("nested#{}", e.imm);
    case Op::ConstRef:
      return p.constants[static_cast<size_t>(e.imm)].name;
    default:
      break;
  }
  std::string out = fmt::format("({}", opName(e.op));
  for (const Expr& k : e.kids) out += " " + printExpr(p, k);
  for (const Step& s : e.steps) out += "; " + stepText(p, s);  // a comprehension's loops
  return out + ")";
}

std::string printGame(const Program& p, const Game& g) {
  std::string out;
  out += fmt::format("game {}(", g.name);
  for (size_t i = 0; i < g.params.size(); ++i)
    out += fmt::format("{}{}:{}", i ? ", " : "", g.params[i].name,
                       slotName(g.params[i].type, g.params[i].slot));
  out += fmt::format(")  slots: {} int, {} list", g.intSlots, g.listSlots);
  if (g.takeBreak) {
    // Which k leave 0, 1 and 2 heaps (2u: two unequal heaps).
    const TakeBreakShape& s = *g.takeBreak;
    out += "; take-and-break:";
    auto list = [&](const char* what, const std::vector<int64_t>& ks) {
      if (ks.empty()) return;
      out += fmt::format(
          " {} {{{}}}", what,
          fmt::join(ks.size() > 8 ? std::vector<int64_t>(ks.begin(), ks.begin() + 8) : ks, ", "));
      if (ks.size() > 8) out.insert(out.size() - 1, fmt::format(", ... ({} in all)", ks.size()));
    };
    list("0:", s.whole);
    list("1:", s.one);
    list("2:", s.two);
    list("2u:", s.twoUnequal);
    list("3:", s.three);
    if (s.wholeFrom) out += fmt::format(" 0: from {}", s.wholeFrom);
    if (s.oneFrom) out += fmt::format(" 1: from {}", s.oneFrom);
    if (g.takeBreakBound) out += fmt::format("; t = {}", *g.takeBreakBound);
  }
  if (g.cells)
    out += fmt::format("; a board that splits: {} moves over cells", g.cells->require.size());
  if (g.boardParam >= 0)
    out += fmt::format("; a board over {}, its other parameters fixed within a search",
                       g.params[static_cast<size_t>(g.boardParam)].name);
  out += "\n";
  if (g.normalize) {
    out += "  normalize -> " + g.name + "(";
    for (size_t i = 0; i < g.normalize->size(); ++i)
      out += (i ? ", " : "") + printExpr(p, (*g.normalize)[i]);
    out += ")\n";
  }
  if (!g.show.empty()) {
    out += "  show";
    for (size_t i = 0; i < g.show.size(); ++i) {
      const ShowPart& part = g.show[i];
      out += i ? ", " : " ";
      if (!part.draw) {
        out += printExpr(p, part.cells);
        continue;
      }
      out += part.name + "(" + printExpr(p, part.cells);
      if (part.width) out += ", " + printExpr(p, *part.width);
      if (part.size) out += ", " + printExpr(p, *part.size);
      out += ", symbols " + fmt::format("{}", fmt::join(part.symbols, " ")) + ")";
    }
    out += "\n";
  }
  for (const Move& m : g.moves) {
    out += fmt::format("  move {}\n", m.label);
    std::string indent = "    ";
    for (const Step& s : m.steps) {
      out += indent + stepText(p, s) + "\n";
      indent += "  ";
    }
    out += indent + "-> ";
    printTerms(p, m.successor, out);
    out += "\n";
  }
  return out;
}

// The integer games that stand for a list game's positions of each length
// are named after it, not printed: they are its rules written out.
std::string printProgram(const Program& p) {
  std::string out;
  for (const Game& g : p.games) {
    if (g.listOf >= 0) continue;
    out += printGame(p, g);
    std::string lengths;
    for (size_t n = 0; n < g.byLength.size(); ++n)
      if (g.byLength[n] >= 0) lengths += (lengths.empty() ? "" : ", ") + std::to_string(n);
    if (!lengths.empty())
      out += "  // lists of length " + lengths + ": as integer games " + g.name + "#N\n";
  }
  return out;
}

}  // namespace gdsl::ir
