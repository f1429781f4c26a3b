// Name resolution and type checking over all loaded modules. Games may refer
// to each other in any order; a constant may use the constants defined before
// it. Locals (parameters, binders, lets, `sum ... for` variables) get ids in
// their game's (or statement's) `locals` list.
#include "compiler/sema/Sema.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <unordered_map>

#include "compiler/ir/Ops.h"

namespace gdsl {
namespace {

using ast::Expr;
using ast::ExprKind;
using ast::Type;

// The type a letter of compiler/ir/Ops.def stands for (i, b, l, n; Unknown
// for the letters of more than one type).
Type typeOfLetter(char letter) {
  switch (letter) {
    case 'i':
      return Type::Int;
    case 'b':
      return Type::Bool;
    case 'l':
      return Type::List;
    case 'n':
      return Type::ListList;
    default:
      return Type::Unknown;
  }
}

const char* const kBuiltins =
    "min, max, abs, len, sort, set, popcount, bits, sum, any, all and count";

// The edit distance with adjacent transpositions (optimal string
// alignment): insertions, deletions, substitutions and swaps of two
// neighbouring letters each cost 1, so `Sbu` is one edit from `Sub`.
size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// "; did you mean 'Kayles'?" for the closest candidate, if any is close.
template <typename Names>
std::string didYouMean(const std::string& name, const Names& candidates) {
  std::string best;
  size_t bestDistance = std::max<size_t>(1, name.size() / 3) + 1;
  for (const auto& candidate : candidates) {
    size_t d = editDistance(name, candidate);
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  return best.empty() ? "" : "; did you mean '" + best + "'?";
}

class Checker {
  struct Scope {
    std::vector<ast::LocalVar>* locals = nullptr;
    std::vector<std::pair<std::string, int>> visible;  // name -> local id, innermost last

    int find(const std::string& name) const {
      for (auto it = visible.rbegin(); it != visible.rend(); ++it)
        if (it->first == name) return it->second;
      return -1;
    }
  };

 public:
  Checker(DiagnosticSink& diags, CheckedProgram& out) : diags_(diags), out_(out) {}

  // Makes the games and constants of an analyzed program visible again.
  void restore() {
    for (size_t i = 0; i < out_.games.size(); ++i)
      gameIds_[out_.games[i]->name] = static_cast<int>(i);
    for (size_t i = 0; i < out_.consts.size(); ++i)
      constIds_[out_.consts[i].statement->name] = static_cast<int>(i);
  }

  void runStatements(ast::Module& m) {
    for (ast::Statement& s : m.statements) {
      if (isDeclaration(s)) {
        diags_.error(s.range,
                     "only eval, moves, table, period and assert statements can be "
                     "given here; put declarations in the file");
        continue;
      }
      checkStatement(s);
    }
  }

  void run(std::vector<ast::Module>& modules) {
    // Pass 1: declare every game (so they can refer to each other in any order).
    for (ast::Module& m : modules)
      for (ast::Statement& s : m.statements)
        if (s.kind == ast::Statement::Kind::Game) declareGame(*s.game);
    // Pass 2: constants in order (each may use the ones before it).
    for (ast::Module& m : modules)
      for (ast::Statement& s : m.statements)
        if (s.kind == ast::Statement::Kind::Const) checkConst(s);
    // Pass 3: game bodies and statements, which may use any constant.
    for (ast::Module& m : modules) {
      for (ast::Statement& s : m.statements) {
        if (s.kind == ast::Statement::Kind::Game) checkGame(*s.game);
        if (!isDeclaration(s)) checkStatement(s);
      }
    }
  }

 private:
  // ---- declarations -------------------------------------------------------

  void declareGame(ast::Game& g) {
    auto it = gameIds_.find(g.name);
    if (it != gameIds_.end()) {
      auto& d = diags_.error(g.nameRange, "game '" + g.name + "' is already defined");
      addNote(d, out_.games[it->second]->nameRange, "first defined here");
      return;
    }
    desugar(g, diags_);
    gameIds_[g.name] = static_cast<int>(out_.games.size());
    out_.games.push_back(&g);
  }

  void checkConst(ast::Statement& s) {
    if (gameIds_.count(s.name)) {
      auto& d = diags_.error(s.nameRange, "'" + s.name + "' is already the name of a game");
      addNote(d, out_.games[gameIds_[s.name]]->nameRange, "the game is defined here");
      return;
    }
    if (auto it = constIds_.find(s.name); it != constIds_.end()) {
      auto& d = diags_.error(s.nameRange, "constant '" + s.name + "' is already defined");
      addNote(d, out_.consts[it->second].statement->nameRange, "first defined here");
      return;
    }
    Scope scope;
    scope.locals = &s.locals;  // the variables of its comprehensions
    Type t = s.expr->kind == ExprKind::List ? checkNestedListLiteral(*s.expr, scope)
                                            : check(*s.expr, scope);
    constIds_[s.name] = static_cast<int>(out_.consts.size());
    out_.consts.push_back(ConstDecl{&s, t});
  }

  // A const may be a list of lists: [[1, 2], [3], []].
  Type checkNestedListLiteral(Expr& e, Scope& scope) {
    bool anyList = false;
    for (auto& kid : e.kids)
      if (kid->kind == ExprKind::List || kid->kind == ExprKind::Set) anyList = true;
    if (!anyList) return check(e, scope);
    for (auto& kid : e.kids) expect(*kid, Type::List, scope, "every element of a list of lists");
    e.type = Type::ListList;
    return e.type;
  }

  // Declares a local; reports a clash with a visible local. A local may
  // shadow a constant of the same name (inside its scope the local wins).
  int declareLocal(Scope& scope, const std::string& name, Type type, SourceRange range) {
    if (int prev = scope.find(name); prev >= 0) {
      auto& d = diags_.error(range, "'" + name + "' is already defined here");
      addNote(d, (*scope.locals)[prev].range, "'" + name + "' was defined here");
    }
    int id = static_cast<int>(scope.locals->size());
    scope.locals->push_back(ast::LocalVar{name, type, range});
    scope.visible.emplace_back(name, id);
    return id;
  }

  // ---- games --------------------------------------------------------------

  void checkGame(ast::Game& g) {
    if (gameIds_.count(g.name) == 0 || out_.games[gameIds_[g.name]] != &g) return;  // duplicate
    Scope scope;
    scope.locals = &g.locals;
    for (const ast::Param& p : g.params)
      declareLocal(scope, p.name, p.isList ? Type::List : Type::Int, p.range);
    for (ast::ShowPart& part : g.show) checkShowPart(part, scope);
    if (g.normalize) {
      checkTerm(*g.normalize, scope);
      if (g.normalize->gameId >= 0 && out_.games[g.normalize->gameId] != &g)
        diags_.error(g.normalize->gameRange, "normalize must give a position of '" + g.name +
                                                 "' itself, not of '" + g.normalize->game + "'");
    }
    for (ast::Move& m : g.moves) {
      if (m.sugar != ast::Sugar::None && m.sugar != ast::Sugar::Octal && m.successor.empty())
        continue;  // sugar that could not be desugared (already reported)
      size_t mark = scope.visible.size();
      if (m.amount) checkAmount(m, scope);
      for (ast::Clause& c : m.clauses) checkClause(c, scope);
      checkSuccessor(m.successor, scope);
      checkLoopyTerms(g, m.successor, m.successor.size() == 1);
      scope.visible.resize(mark);
    }
  }

  // A move that leads to a loopy game's position belongs to a loopy game
  // (its values may be infinite too), and leads to that position alone: the
  // values of a loopy game are found on the graph of its positions, where an
  // option is one position (docs/reference.md, "Loopy games").
  void checkLoopyTerms(const ast::Game& g, const ast::Successor& succ, bool alone) {
    for (const ast::Term& t : succ) {
      if (t.kind == ast::Term::Kind::Sum) {
        checkLoopyTerms(g, t.body, false);
        continue;
      }
      if (t.kind != ast::Term::Kind::Game || t.gameId < 0 || !out_.games[t.gameId]->loopy) continue;
      const ast::Game& target = *out_.games[t.gameId];
      if (!g.loopy) {
        auto& d = diags_.error(t.gameRange, "game '" + g.name + "' is not loopy, but this move " +
                                                "leads to '" + target.name +
                                                "', a loopy game; declare it 'loopy game " +
                                                g.name + "'");
        addNote(d, target.nameRange, "'" + target.name + "' is declared loopy here");
      } else if (!alone) {
        diags_.error(t.range,
                     "a move to a position of a loopy game must lead to that position "
                     "alone, not to a sum with it");
        return;  // once per move
      }
    }
  }

  // A part of a game's `show` form, in the scope of the parameters (and the
  // constants): a value (an integer or a list), or a drawing board(cells,
  // width[, rows][, "symbols"]) or row(cells[, length][, "symbols"]) whose
  // cells are an integer (its digits) or a list.
  void checkShowPart(ast::ShowPart& part, Scope& scope) {
    static const std::vector<std::string> drawings = {"board", "row"};
    const std::vector<std::string>& builtins = builtinFunctions();
    auto unknownDrawing = [&](const std::string& name, SourceRange range) {
      std::string hint = didYouMean(name, drawings);
      diags_.error(range, hint.empty() ? "unknown drawing '" + name +
                                             "'; a show part is board(cells, width), row(cells) "
                                             "or a value"
                                       : "unknown drawing '" + name + "'" + hint);
    };
    if (part.kind == ast::ShowPart::Kind::Value) {
      Expr& v = *part.value;
      if (v.kind == ExprKind::Call && !gameIds_.count(v.name) &&
          std::find(builtins.begin(), builtins.end(), v.name) == builtins.end()) {
        unknownDrawing(v.name, v.range);
        return;
      }
      Type t = check(v, scope);
      if (t != Type::Int && t != Type::List && t != Type::Unknown)
        diags_.error(v.range, fmt::format("a shown value must be an integer or a list, but this "
                                          "is {}",
                                          ast::typeName(t)));
      return;
    }
    if (part.name != "board" && part.name != "row") {
      unknownDrawing(part.name, part.range);
      return;
    }
    bool board = part.name == "board";
    const char* signature = board ? "board(cells, width[, rows][, \"symbols\"])"
                                  : "row(cells[, length][, \"symbols\"])";
    size_t least = board ? 2 : 1;
    if (part.args.size() < least || part.args.size() > least + 1) {
      for (auto& a : part.args) check(*a, scope);
      diags_.error(part.range,
                   fmt::format("{} takes {} or {} arguments before its symbols, but {} {} "
                               "given; write {}",
                               part.name, least, least + 1, part.args.size(),
                               part.args.size() == 1 ? "is" : "are", signature));
      return;
    }
    Type cells = check(*part.args[0], scope);
    if (cells != Type::Int && cells != Type::List && cells != Type::Unknown)
      diags_.error(part.args[0]->range,
                   fmt::format("the cells of {} must be an integer (drawn digit by digit) or a "
                               "list, but this is {}",
                               part.name, ast::typeName(cells)));
    if (board) expect(*part.args[1], Type::Int, scope, "the width of board");
    if (part.args.size() > least) {
      const char* size = board ? "the number of rows of board" : "the length of row";
      expect(*part.args.back(), Type::Int, scope, size);
      if (cells == Type::List)
        diags_.error(part.args.back()->range,
                     fmt::format("{} is given only when the cells are an integer's digits; a "
                                 "list draws each of its elements",
                                 size));
    }
    part.cellSymbols.clear();
    if (!part.hasSymbols) {
      part.cellSymbols = {".", "#"};
      return;
    }
    // One symbol per character (a UTF-8 sequence): the source is UTF-8.
    for (size_t i = 0; i < part.symbols.size();) {
      size_t n = 1;
      auto lead = static_cast<unsigned char>(part.symbols[i]);
      if (lead >= 0xF0)
        n = 4;
      else if (lead >= 0xE0)
        n = 3;
      else if (lead >= 0xC0)
        n = 2;
      std::string symbol = part.symbols.substr(i, n);
      if (std::find(part.cellSymbols.begin(), part.cellSymbols.end(), symbol) !=
          part.cellSymbols.end()) {
        diags_.error(part.symbolsRange, fmt::format("the symbol '{}' appears twice in \"{}\"; "
                                                    "each digit value needs its own",
                                                    symbol, part.symbols));
        return;
      }
      part.cellSymbols.push_back(std::move(symbol));
      i += n;
    }
    if (part.cellSymbols.size() < 2)
      diags_.error(part.symbolsRange,
                   "a string of symbols needs at least two, one for each "
                   "digit value (as in \".#\")");
  }

  // The amount of take and remove sugar stays on the move for the
  // take-and-break analysis (compiler/ir/TakeBreak.cpp), so it is resolved in
  // the scope of the parameters like its copy in the desugared clauses. Errors
  // are reported once, for the copy; an amount with errors is dropped (the
  // analysis then only sees the rules), so no unresolved name reaches lowering.
  void checkAmount(ast::Move& m, Scope& scope) {
    size_t before = diags_.all().size();
    Type t = check(*m.amount, scope);
    if (diags_.all().size() != before || t == Type::Unknown) m.amount.reset();
    diags_.truncate(before);
  }

  void checkClause(ast::Clause& c, Scope& scope) {
    switch (c.kind) {
      case ast::Clause::Kind::Bind: {
        Type t = check(*c.expr, scope);
        if (t == Type::Int && c.amountDomain) {  // take 3, take N: the list [3]
          auto list = std::make_unique<Expr>(ExprKind::List, c.expr->range);
          list->kids.push_back(std::move(c.expr));
          list->type = t = Type::List;
          c.expr = std::move(list);
        }
        Type element = Type::Unknown;
        if (t == Type::List)
          element = Type::Int;
        else if (t == Type::ListList)
          element = Type::List;
        else if (t != Type::Unknown)
          diags_.error(c.expr->range, fmt::format("the domain of '{}' must be a range a..b or a "
                                                  "list, but this is {}",
                                                  c.name, ast::typeName(t)));
        c.varId = declareLocal(scope, c.name, element, c.nameRange);
        break;
      }
      case ast::Clause::Kind::Let: {
        Type t = check(*c.expr, scope);
        if (t == Type::ListList)
          diags_.error(c.expr->range, "a list of lists can only be a constant; index it first");
        c.varId = declareLocal(scope, c.name, t, c.nameRange);
        break;
      }
      case ast::Clause::Kind::When:
        expect(*c.expr, Type::Bool, scope, "a `when` condition");
        break;
    }
  }

  void checkSuccessor(ast::Successor& succ, Scope& scope) {
    for (ast::Term& t : succ) checkTerm(t, scope);
  }

  void checkTerm(ast::Term& t, Scope& scope) {
    if (t.kind == ast::Term::Kind::Zero) return;
    if (t.kind == ast::Term::Kind::Sum) {
      Type dt = check(*t.domain, scope);
      Type element = Type::Int;
      if (dt == Type::ListList)
        element = Type::List;
      else if (dt != Type::List && dt != Type::Unknown)
        diags_.error(t.domain->range, fmt::format("the domain of '{}' must be a range a..b or a "
                                                  "list, but this is {}",
                                                  t.var, ast::typeName(dt)));
      size_t mark = scope.visible.size();
      t.varId = declareLocal(scope, t.var, element, t.varRange);
      checkSuccessor(t.body, scope);
      scope.visible.resize(mark);
      return;
    }
    auto it = gameIds_.find(t.game);
    if (it == gameIds_.end()) {
      auto& d = diags_.error(t.gameRange,
                             "unknown game '" + t.game + "'" + didYouMean(t.game, gameNames()));
      if (auto c = constIds_.find(t.game); c != constIds_.end())
        addNote(d, out_.consts[c->second].statement->nameRange,
                "'" + t.game + "' is a constant, defined here");
      for (auto& a : t.args) check(*a, scope);
      return;
    }
    t.gameId = it->second;
    const ast::Game& g = *out_.games[t.gameId];
    if (t.args.size() != g.params.size()) {
      auto& d = diags_.error(
          t.range, fmt::format("game '{}' takes {} parameter{}, but {} {} given", g.name,
                               g.params.size(), g.params.size() == 1 ? "" : "s", t.args.size(),
                               t.args.size() == 1 ? "is" : "are"));
      addNote(d, g.nameRange, "'" + g.name + "' is declared here");
      for (auto& a : t.args) check(*a, scope);
      return;
    }
    for (size_t i = 0; i < t.args.size(); ++i) {
      Type want = g.params[i].isList ? Type::List : Type::Int;
      expect(*t.args[i], want, scope,
             fmt::format("parameter '{}' of '{}'", g.params[i].name, g.name));
    }
  }

  // ---- statements ---------------------------------------------------------

  static bool isDeclaration(const ast::Statement& s) {
    return s.kind == ast::Statement::Kind::Game || s.kind == ast::Statement::Kind::Const ||
           s.kind == ast::Statement::Kind::Import;
  }

  // eval, moves, assert, table, period.
  void checkStatement(ast::Statement& s) {
    if (s.kind == ast::Statement::Kind::Table)
      checkTable(s);
    else if (s.kind == ast::Statement::Kind::TableOf)
      checkTableOf(s);
    else if (s.kind == ast::Statement::Kind::Period)
      checkPeriod(s);
    else
      checkPositionStatement(s);
  }

  void checkPositionStatement(ast::Statement& s) {
    Scope scope;
    scope.locals = &s.locals;
    checkSuccessor(s.position, scope);
    // `assert P == inf(0, 2)`: an infinite value, unless a game is named inf.
    if (s.comparesPositions && s.other.size() == 1 && s.other[0].kind == ast::Term::Kind::Game &&
        s.other[0].game == "inf" && gameIds_.count("inf") == 0) {
      s.comparesPositions = false;
      s.expectsInfinite = true;
      for (const auto& a : s.other[0].args) {
        if (a->kind != ExprKind::Int || a->value < 0) {
          diags_.error(a->range, "the values of inf(...) are numbers (0 or more), written out");
          continue;
        }
        s.expectedK.push_back(a->value);
      }
      s.other.clear();
    }
    if (s.comparesPositions) {
      Scope other;  // its `sum ... for` variables are its own, in the same slots
      other.locals = &s.locals;
      checkSuccessor(s.other, other);
    }
  }

  int findGame(ast::Statement& s) {
    auto it = gameIds_.find(s.name);
    if (it == gameIds_.end()) {
      diags_.error(s.nameRange, "unknown game '" + s.name + "'" + didYouMean(s.name, gameNames()));
      return -1;
    }
    s.gameId = it->second;
    return s.gameId;
  }

  void checkTable(ast::Statement& s) {
    if (findGame(s) < 0) return;
    const ast::Game& g = *out_.games[s.gameId];
    Scope scope;
    scope.locals = &s.locals;
    if (s.args.size() != g.params.size()) {
      auto& d = diags_.error(s.range, fmt::format("game '{}' takes {} parameter{}, but the table "
                                                  "gives {}",
                                                  g.name, g.params.size(),
                                                  g.params.size() == 1 ? "" : "s", s.args.size()));
      addNote(d, g.nameRange, "'" + g.name + "' is declared here");
      return;
    }
    int ranges = 0;
    for (size_t i = 0; i < s.args.size(); ++i) {
      Expr& a = *s.args[i];
      if (g.params[i].isList) {
        auto& d = diags_.error(a.range, "a table over ranges runs over integer parameters; '" +
                                            g.params[i].name + "' is a list");
        addNote(d, SourceRange{},
                "a table can list any positions: write them as a comprehension, as in " +
                    tableOfExample(g));
        return;  // no second error about the ranges
      }
      // `b in 0..a`: a named range, whose name the arguments after it may use.
      bool named =
          a.kind == ExprKind::Binary && a.op == ast::BinOp::In && a.kids[0]->kind == ExprKind::Name;
      if (named && a.kids[1]->kind != ExprKind::Range) {
        diags_.error(a.kids[1]->range, "a table range is written " + a.kids[0]->name +
                                           " in LO..HI, with two integers");
        continue;
      }
      Expr& range = named ? *a.kids[1] : a;
      if (range.kind == ExprKind::Range) {
        ++ranges;
        expect(*range.kids[0], Type::Int, scope, "the start of a table range");
        expect(*range.kids[1], Type::Int, scope, "the end of a table range");
        range.type = a.type = Type::List;
        if (named)
          a.kids[0]->index = declareLocal(scope, a.kids[0]->name, Type::Int, a.kids[0]->range);
      } else {
        expect(a, Type::Int, scope, "a fixed table parameter");
      }
    }
    if (ranges == 0)
      diags_.error(s.range, fmt::format("a table needs a range, like {}(0..20) or {}(a in 0..20, "
                                        "b in 0..a); this one has none",
                                        g.name, g.name));
    else if (s.plot && ranges > 2)
      diags_.error(s.range, fmt::format("a plot draws one range (the value against it) or two "
                                        "(a grid); this one has {}",
                                        ranges));
  }

  // `table [G([a, b], n) for a in 0..3 for b in 0..a for n in 0..9]`: a
  // comprehension over G's parameters (the first list as a pair, integers
  // by their names) for the note on a table of a list game.
  static std::string tableOfExample(const ast::Game& g) {
    std::string args, loops;
    bool pair = false;
    for (const ast::Param& p : g.params) {
      args += args.empty() ? "" : ", ";
      if (!p.isList) {
        args += p.name;
        loops += " for " + p.name + " in 0..9";
      } else if (!pair) {
        args += "[a, b]";
        loops = " for a in 0..3 for b in 0..a" + loops;
        pair = true;
      } else {
        args += "[]";
      }
    }
    return "table [" + g.name + "(" + args + ")" + loops + "]";
  }

  // table [P for x in D if c ...]: the clauses in order (each variable
  // visible in the clauses after it and in P), then the position P.
  void checkTableOf(ast::Statement& s) {
    Scope scope;
    scope.locals = &s.locals;
    for (ast::Clause& c : s.clauses) {
      if (c.kind == ast::Clause::Kind::When)
        expect(*c.expr, Type::Bool, scope, "a filter");
      else
        checkClause(c, scope);
    }
    checkSuccessor(s.position, scope);
  }

  void checkPeriod(ast::Statement& s) {
    if (findGame(s) < 0) return;
    const ast::Game& g = *out_.games[s.gameId];
    if (g.params.size() != 1 || g.params[0].isList) {
      auto& d =
          diags_.error(s.nameRange,
                       "period needs a game with exactly one integer parameter, "
                       "but '" +
                           g.name + "' has " +
                           (g.params.size() == 1 ? std::string("a list parameter")
                                                 : fmt::format("{} parameters", g.params.size())));
      addNote(d, g.nameRange, "'" + g.name + "' is declared here");
      return;
    }
    if (!s.hasArgs) return;
    Scope scope;
    scope.locals = &s.locals;
    if (s.args.size() != 1 || s.args[0]->kind != ExprKind::Range) {
      diags_.error(s.range, "write the heaps to search as period " + g.name + "(0..N)");
      return;
    }
    expect(*s.args[0]->kids[0], Type::Int, scope, "the start of the range");
    expect(*s.args[0]->kids[1], Type::Int, scope, "the end of the range");
    s.args[0]->type = Type::List;
  }

  // ---- expressions --------------------------------------------------------

  void expect(Expr& e, Type want, Scope& scope, const std::string& what) {
    Type got = check(e, scope);
    if (got != want && got != Type::Unknown)
      diags_.error(e.range, fmt::format("{} must be {}, but this is {}", what, ast::typeName(want),
                                        ast::typeName(got)));
  }

  Type check(Expr& e, Scope& scope) {
    e.type = computeType(e, scope);
    return e.type;
  }

  Type computeType(Expr& e, Scope& scope) {
    switch (e.kind) {
      case ExprKind::Int:
        return Type::Int;
      case ExprKind::Name:
        return checkName(e, scope);
      case ExprKind::Neg:
        expect(*e.kids[0], Type::Int, scope, "the operand of '-'");
        return Type::Int;
      case ExprKind::BitNot:
        expect(*e.kids[0], Type::Int, scope, "the operand of '~'");
        return Type::Int;
      case ExprKind::Not:
        expect(*e.kids[0], Type::Bool, scope, "the operand of 'not'");
        return Type::Bool;
      case ExprKind::Binary:
        return checkBinary(e, scope);
      case ExprKind::Range:
        expect(*e.kids[0], Type::Int, scope, "the start of a range");
        expect(*e.kids[1], Type::Int, scope, "the end of a range");
        return Type::List;
      case ExprKind::List:
      case ExprKind::Set:
        for (auto& kid : e.kids) {
          Type t = check(*kid, scope);
          if (t == Type::List || t == Type::ListList) {
            diags_.error(kid->range, "a list of lists can only be a constant's value");
            return Type::Unknown;
          }
          if (t != Type::Int && t != Type::Unknown)
            diags_.error(kid->range, fmt::format("list elements must be integers, but this is {}",
                                                 ast::typeName(t)));
        }
        return Type::List;
      case ExprKind::Call:
        return checkCall(e, scope);
      case ExprKind::Comprehension:
        return checkComprehension(e, scope);
      case ExprKind::Index: {
        Type base = check(*e.kids[0], scope);
        expect(*e.kids[1], Type::Int, scope, "an index");
        if (base == Type::List) return Type::Int;
        if (base == Type::ListList) return Type::List;
        if (base != Type::Unknown)
          diags_.error(e.kids[0]->range, fmt::format("only lists can be indexed, but this is {}",
                                                     ast::typeName(base)));
        return Type::Unknown;
      }
    }
    return Type::Unknown;
  }

  Type checkName(Expr& e, Scope& scope) {
    if (scope.locals) {
      if (int id = scope.find(e.name); id >= 0) {
        e.ref = ast::RefKind::Local;
        e.index = id;
        return (*scope.locals)[id].type;
      }
    }
    if (auto it = constIds_.find(e.name); it != constIds_.end()) {
      e.ref = ast::RefKind::Const;
      e.index = it->second;
      return out_.consts[it->second].type;
    }
    if (gameIds_.count(e.name)) {
      diags_.error(e.range, "'" + e.name + "' is a game; a game position like " + e.name +
                                "(...) can only stand in a successor or a position");
    } else {
      std::vector<std::string> names;
      if (scope.locals)
        for (const auto& [local, _] : scope.visible) names.push_back(local);
      for (const auto& [constant, _] : constIds_) names.push_back(constant);
      std::sort(names.begin(), names.end());
      diags_.error(e.range, "unknown name '" + e.name + "'" + didYouMean(e.name, names));
    }
    return Type::Unknown;
  }

  Type checkBinary(Expr& e, Scope& scope) {
    using ast::BinOp;
    const std::string what = fmt::format("an operand of '{}'", ast::binOpSpelling(e.op));
    switch (e.op) {
      case BinOp::Eq:
      case BinOp::Ne: {
        Type a = check(*e.kids[0], scope);
        Type b = check(*e.kids[1], scope);
        if (a != Type::Unknown && b != Type::Unknown && a != b)
          diags_.error(e.range, fmt::format("cannot compare {} with {}", ast::typeName(a),
                                            ast::typeName(b)));
        if (a == Type::ListList || b == Type::ListList)
          diags_.error(e.range, "lists of lists cannot be compared");
        return Type::Bool;
      }
      case BinOp::In:
        expect(*e.kids[0], Type::Int, scope, "the left side of 'in'");
        expect(*e.kids[1], Type::List, scope, "the right side of 'in'");
        return Type::Bool;
      default: {
        // The types of the op it lowers to (compiler/ir/Ops.def).
        ir::Op op = ir::lowered(e.op);
        expect(*e.kids[0], typeOfLetter(ir::operandType(op, 0)), scope, what);
        expect(*e.kids[1], typeOfLetter(ir::operandType(op, 1)), scope, what);
        return typeOfLetter(ir::opInfo(op).result);
      }
    }
  }

  Type checkCall(Expr& e, Scope& scope) {
    const std::string& f = e.name;
    auto arity = [&](size_t n) {
      if (e.kids.size() == n) return true;
      diags_.error(e.range,
                   fmt::format("'{}' takes {} argument{}, but {} {} given", f, n, n == 1 ? "" : "s",
                               e.kids.size(), e.kids.size() == 1 ? "is" : "are"));
      for (auto& k : e.kids) check(*k, scope);
      return false;
    };
    if (f == "min" || f == "max") {
      if (e.kids.size() == 1) {
        expect(*e.kids[0], Type::List, scope, "the argument of '" + f + "' with one argument");
        return Type::Int;
      }
      if (e.kids.empty()) {
        diags_.error(e.range, "'" + f + "' needs a list or at least two integers");
        return Type::Int;
      }
      for (auto& k : e.kids) expect(*k, Type::Int, scope, "an argument of '" + f + "'");
      return Type::Int;
    }
    if (f == "abs") {
      if (arity(1)) expect(*e.kids[0], Type::Int, scope, "the argument of 'abs'");
      return Type::Int;
    }
    if (f == "len") {
      if (arity(1)) {
        Type t = check(*e.kids[0], scope);
        if (t != Type::List && t != Type::ListList && t != Type::Unknown)
          diags_.error(e.kids[0]->range, fmt::format("the argument of 'len' must be a list, but "
                                                     "this is {}",
                                                     ast::typeName(t)));
      }
      return Type::Int;
    }
    if (f == "popcount") {
      if (arity(1)) expect(*e.kids[0], Type::Int, scope, "the argument of 'popcount'");
      return Type::Int;
    }
    if (f == "bits") {
      if (arity(1)) expect(*e.kids[0], Type::Int, scope, "the argument of 'bits'");
      return Type::List;
    }
    if (f == "sum") {
      if (!arity(1)) return Type::Int;
      if (!scope.locals) {
        diags_.error(e.range, "'sum' cannot stand here");
        return Type::Unknown;
      }
      expect(*e.kids[0], Type::List, scope, "the argument of 'sum'");
      // sum(L) is the fold sum(x for x in L), over a variable no program can name.
      ast::Clause each;
      each.kind = ast::Clause::Kind::Bind;
      each.range = each.nameRange = e.kids[0]->range;
      each.name = "$element";
      each.expr = std::move(e.kids[0]);
      each.varId = static_cast<int>(scope.locals->size());
      scope.locals->push_back(ast::LocalVar{each.name, Type::Int, each.range});
      auto element = ast::makeName(each.name, each.range);
      element->ref = ast::RefKind::Local;
      element->index = each.varId;
      element->type = Type::Int;
      e.kids.clear();
      e.kids.push_back(std::move(element));
      e.kind = ExprKind::Comprehension;
      e.clauses.push_back(std::move(each));
      return Type::Int;
    }
    if (f == "any" || f == "all" || f == "count") {
      for (auto& k : e.kids) check(*k, scope);
      diags_.error(e.range, fmt::format("'{0}' takes a condition with 'for', as in {0}(x > 0 for "
                                        "x in L)",
                                        f));
      return f == "count" ? Type::Int : Type::Bool;
    }
    if (f == "sort") {
      if (arity(1)) expect(*e.kids[0], Type::List, scope, "the argument of 'sort'");
      return Type::List;
    }
    if (f == "set") {
      if (arity(3)) {
        expect(*e.kids[0], Type::List, scope, "the first argument of 'set'");
        expect(*e.kids[1], Type::Int, scope, "the index given to 'set'");
        expect(*e.kids[2], Type::Int, scope, "the value given to 'set'");
      }
      return Type::List;
    }
    for (auto& k : e.kids) check(*k, scope);
    if (gameIds_.count(f)) {
      diags_.error(e.range, "'" + f + "' is a game; a position like " + f +
                                "(...) can only stand in a successor or a position, not inside "
                                "an expression");
    } else {
      std::string hint = didYouMean(f, builtinFunctions());
      diags_.error(e.range,
                   hint.empty()
                       ? fmt::format("unknown function '{}'; the built-ins are {}", f, kBuiltins)
                       : "unknown function '" + f + "'" + hint);
    }
    return Type::Unknown;
  }

  // [e for x in D if c] and the folds any, all, count, sum, min, max over
  // the same clauses. Its variables are locals of the enclosing scope,
  // visible in the clauses after them and in the element only.
  Type checkComprehension(Expr& e, Scope& scope) {
    const std::string& f = e.name;
    const bool condition = f == "any" || f == "all" || f == "count";
    if (!condition && f != "list" && f != "sum" && f != "min" && f != "max") {
      diags_.error(e.range, fmt::format("'{}' does not take 'for'; the folds are any, all, count, "
                                        "sum, min and max, and [... for ...] builds a list",
                                        f));
      return Type::Unknown;
    }
    if (!scope.locals) {
      diags_.error(e.range, "a comprehension cannot stand here");
      return Type::Unknown;
    }
    size_t mark = scope.visible.size();
    for (ast::Clause& c : e.clauses) {
      if (c.kind == ast::Clause::Kind::When) {
        expect(*c.expr, Type::Bool, scope, "a filter");
        continue;
      }
      checkClause(c, scope);
    }
    Type element = check(*e.kids[0], scope);
    scope.visible.resize(mark);
    Type want = condition ? Type::Bool : Type::Int;
    if (element != want && element != Type::Unknown) {
      if (condition)
        diags_.error(e.kids[0]->range,
                     fmt::format("'{0}' takes conditions, but this is {1}; write one, as in "
                                 "{0}(x > 0 for x in L)",
                                 f, ast::typeName(element)));
      else
        diags_.error(e.kids[0]->range, fmt::format("{} must be an integer, but this is {}",
                                                   f == "list" ? std::string("an element of a list")
                                                   : f == "sum" ? std::string("what 'sum' adds up")
                                                                : "what '" + f + "' compares",
                                                   ast::typeName(element)));
    }
    if (f == "list") return Type::List;
    return f == "any" || f == "all" ? Type::Bool : Type::Int;
  }

  std::vector<std::string> gameNames() const {
    std::vector<std::string> names;
    for (const auto& [name, _] : gameIds_) names.push_back(name);
    std::sort(names.begin(), names.end());
    return names;
  }

  DiagnosticSink& diags_;
  CheckedProgram& out_;
  std::unordered_map<std::string, int> gameIds_;
  std::unordered_map<std::string, int> constIds_;
};

}  // namespace

const std::vector<std::string>& builtinFunctions() {
  static const std::vector<std::string> names = {"min",      "max",  "abs", "len", "sort", "set",
                                                 "popcount", "bits", "sum", "any", "all",  "count"};
  return names;
}

const std::vector<std::string>& contextualWords() {
  static const std::vector<std::string> words = {"if",   "show",  "board", "row",
                                                 "plot", "loopy", "hex"};
  return words;
}

bool analyzeStatements(ast::Module& extra, CheckedProgram& program, DiagnosticSink& diagnostics) {
  size_t before = diagnostics.all().size();
  Checker checker(diagnostics, program);
  checker.restore();
  checker.runStatements(extra);
  return diagnostics.all().size() == before;
}

bool analyze(std::vector<ast::Module>& modules, DiagnosticSink& diagnostics, CheckedProgram& out) {
  size_t before = diagnostics.all().size();
  Checker(diagnostics, out).run(modules);
  return diagnostics.all().size() == before;
}

}  // namespace gdsl
