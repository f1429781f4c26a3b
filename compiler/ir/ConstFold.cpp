// Constant folding: each `const` is evaluated once with the reference
// evaluator, then every ConstRef in games and statements is replaced by the
// value (an int literal, a list pool entry, a range, or a list-of-lists pool
// entry), so backends never see constants.
#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "compiler/ir/Evaluator.h"
#include "compiler/ir/Passes.h"

namespace gdsl::ir {
namespace {

Expr literalList(Program& p, const ListVal& l, SourceRange loc) {
  Expr e;
  e.loc = loc;
  e.type = Type::List;
  if (l.isRange) {  // keep ranges lazy: 1..10^18 is two numbers
    e.op = Op::Range;
    e.kids.push_back(literalInt(l.lo, loc, Type::Int));
    e.kids.push_back(literalInt(l.lo + l.size - 1, loc, Type::Int));
    if (l.size == 0) e.kids[1].imm = l.lo - 1;
    return e;
  }
  e.op = Op::ListConst;
  e.imm = static_cast<int64_t>(p.lists.size());
  p.lists.emplace_back(l.data, l.data + l.size);
  return e;
}

void replaceInSteps(std::vector<Step>& steps, const std::vector<Expr>& values);

void replaceRefs(Expr& e, const std::vector<Expr>& values) {
  if (e.op == Op::ConstRef) {
    SourceRange loc = e.loc;
    e = values[static_cast<size_t>(e.imm)];
    e.loc = loc;
    return;
  }
  for (Expr& kid : e.kids) replaceRefs(kid, values);
  replaceInSteps(e.steps, values);
}

// Whether `e` reads only variables bound inside it (`bound` holds the
// int and list slots bound around it, by type).
bool closed(const Expr& e, std::vector<std::pair<Type, int64_t>>& bound) {
  auto isBound = [&](Type t, int64_t slot) {
    return std::find(bound.begin(), bound.end(), std::make_pair(t, slot)) != bound.end();
  };
  if (e.op == Op::IntVar && !isBound(Type::Int, e.imm)) return false;
  if (e.op == Op::ListVar && !isBound(Type::List, e.imm)) return false;
  size_t mark = bound.size();
  bool ok = true;
  for (const Step& s : e.steps) {
    for (const Expr* k : exprsOf(s)) ok = ok && closed(*k, bound);
    if (s.kind != Step::Kind::Guard)
      bound.emplace_back(s.type == Type::List ? Type::List : Type::Int, s.slot);
  }
  for (const Expr& k : e.kids) ok = ok && closed(k, bound);
  bound.resize(mark);
  return ok;
}

// Replaces every comprehension that reads no variable of its surroundings
// (a list of squares, a count over constants) by its value, so backends see
// a literal. Errors are left for run time, where the interpreter reports
// them at the same place as the JIT.
void foldComprehensions(Program& p, Expr& e) {
  if (isComprehension(e.op) &&
      (e.type == Type::List || e.type == Type::Int || e.type == Type::Bool)) {
    std::vector<std::pair<Type, int64_t>> bound;
    if (closed(e, bound)) {
      ListArena arena;
      Evaluator eval(p, arena);
      ScratchFrame frame(e);
      try {
        e = e.type == Type::List ? literalList(p, eval.evalList(e, frame.frame()), e.loc)
                                 : literalInt(eval.evalInt(e, frame.frame()), e.loc, e.type);
        return;
      } catch (const RuntimeError&) {
      }
    }
  }
  for (Expr& k : e.kids) foldComprehensions(p, k);
  for (Step& s : e.steps)
    for (Expr* k : exprsOf(s)) foldComprehensions(p, *k);
}

void foldInSteps(Program& p, std::vector<Step>& steps) {
  for (Step& s : steps)
    for (Expr* k : exprsOf(s)) foldComprehensions(p, *k);
}

void foldInTerms(Program& p, std::vector<Term>& terms) {
  for (Term& t : terms) {
    for (Expr& a : t.args) foldComprehensions(p, a);
    for (Expr* k : exprsOf(t.binder)) foldComprehensions(p, *k);
    foldInTerms(p, t.body);
  }
}

void replaceInStep(Step& s, const std::vector<Expr>& values) {
  replaceRefs(s.value, values);
  replaceRefs(s.domain.lo, values);
  replaceRefs(s.domain.hi, values);
  replaceRefs(s.domain.list, values);
}

void replaceInTerms(std::vector<Term>& terms, const std::vector<Expr>& values) {
  for (Term& t : terms) {
    for (Expr& a : t.args) replaceRefs(a, values);
    replaceInStep(t.binder, values);
    replaceInTerms(t.body, values);
  }
}

void replaceInSteps(std::vector<Step>& steps, const std::vector<Expr>& values) {
  for (Step& s : steps) replaceInStep(s, values);
}

}  // namespace

std::vector<Expr> foldConstants(Program& p) {
  std::vector<Expr> values;
  ListArena arena;
  Evaluator eval(p, arena);
  for (Constant& c : p.constants) {
    replaceRefs(c.init, values);
    ScratchFrame scratch(c.init);  // the variables of its comprehensions
    Frame empty = scratch.frame();
    Expr value;
    if (c.type == Type::ListList) {
      if (c.init.op == Op::NestedConst) {
        value = c.init;
      } else {  // a literal list of lists
        std::vector<int> rows;
        for (const Expr& row : c.init.kids) {
          Expr folded = literalList(p, eval.evalList(row, empty), row.loc);
          if (folded.op == Op::Range) {  // store small ranges as lists in the pool
            ListVal l = eval.evalList(folded, empty);
            if (l.size > (int64_t{1} << 20))
              throw RuntimeError(row.loc, fmt::format("a row of a list of lists is stored as a "
                                                      "list, and this range has {} elements "
                                                      "(at most 2^20)",
                                                      l.size));
            std::vector<int64_t> items;
            for (int64_t i = 0; i < l.size; ++i) items.push_back(l.at(i));
            folded.op = Op::ListConst;
            folded.imm = static_cast<int64_t>(p.lists.size());
            p.lists.push_back(std::move(items));
          }
          rows.push_back(static_cast<int>(folded.imm));
        }
        value.op = Op::NestedConst;
        value.type = Type::ListList;
        value.imm = static_cast<int64_t>(p.nested.size());
        value.loc = c.loc;
        p.nested.push_back(std::move(rows));
      }
    } else if (c.type == Type::List) {
      value = literalList(p, eval.evalList(c.init, empty), c.loc);
    } else {
      value = literalInt(eval.evalInt(c.init, empty), c.loc, c.type);
    }
    values.push_back(std::move(value));
  }
  for (Game& g : p.games) {
    if (g.normalize)
      for (Expr& e : *g.normalize) {
        replaceRefs(e, values);
        foldComprehensions(p, e);
      }
    for (ShowPart& part : g.show) {
      replaceRefs(part.cells, values);
      if (part.width) replaceRefs(*part.width, values);
      if (part.size) replaceRefs(*part.size, values);
    }
    for (Move& m : g.moves) {
      replaceInSteps(m.steps, values);
      replaceInTerms(m.successor, values);
      foldInSteps(p, m.steps);
      foldInTerms(p, m.successor);
      if (m.amount) {
        replaceRefs(*m.amount, values);
        foldComprehensions(p, *m.amount);
      }
    }
  }
  for (Statement& s : p.statements) foldStatement(s, values);
  return values;
}

void foldStatement(Statement& s, const std::vector<Expr>& values) {
  replaceInTerms(s.position.terms, values);
  replaceInSteps(s.steps, values);
  for (TableArg& a : s.table) {
    replaceRefs(a.lo, values);
    replaceRefs(a.hi, values);
  }
  if (s.periodMax) replaceRefs(*s.periodMax, values);
}

}  // namespace gdsl::ir
