// gdsl's own abstract syntax tree. compiler/parse builds it from the ANTLR
// parse tree; sema resolves names, checks types and rewrites sugar (take,
// split, remove, octal) into plain `move` rules in place; ast2ir lowers it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/support/Source.h"

namespace gdsl::ast {

// Static types of expressions. Lists hold integers; a list of lists can only be
// a constant (an adjacency list, say).
enum class Type : uint8_t { Unknown, Int, Bool, List, ListList };
const char* typeName(Type type);

enum class ExprKind : uint8_t {
  Int,
  Name,
  Neg,
  Not,
  Binary,
  Range,
  List,
  Set,
  Call,
  Index,
  Comprehension,
  BitNot
};

// The binary operators, from their table in compiler/ir/Ops.def (which also
// says what each lowers to).
enum class BinOp : uint8_t {
#define GDSL_BINARY(Name, spelling, precedence, op, overLists) Name,
#include "compiler/ir/Ops.def"
};
struct BinOpInfo {
  BinOp op;
  const char* spelling;  // "+", "in"
  int precedence;        // higher binds tighter
};
// Row i describes BinOp i.
inline constexpr BinOpInfo kBinOps[] = {
#define GDSL_BINARY(Name, spelling, precedence, op, overLists) {BinOp::Name, spelling, precedence},
#include "compiler/ir/Ops.def"
};
inline constexpr size_t kBinOpCount = std::size(kBinOps);
static_assert(
    [] {
      for (size_t i = 0; i < kBinOpCount; ++i)
        if (kBinOps[i].op != static_cast<BinOp>(i)) return false;
      return true;
    }(),
    "kBinOps must have one row per BinOp, in order");
constexpr const char* binOpSpelling(BinOp op) {
  return kBinOps[static_cast<size_t>(op)].spelling;
}
constexpr int binOpPrecedence(BinOp op) {
  return kBinOps[static_cast<size_t>(op)].precedence;
}
// The binary operator spelled `spelling`, if any.
constexpr std::optional<BinOp> binOpSpelled(std::string_view spelling) {
  for (const BinOpInfo& b : kBinOps)
    if (spelling == b.spelling) return b.op;
  return std::nullopt;
}

// What a name refers to, filled in by sema.
enum class RefKind : uint8_t { None, Local, Const };

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

// A clause between the parentheses of a move: `x in D`, `let x = e`, `when c`.
struct Clause {
  enum class Kind : uint8_t { Bind, Let, When };
  Kind kind = Kind::Bind;
  SourceRange range;
  std::string name;
  SourceRange nameRange;
  ExprPtr expr;
  int varId = -1;  // sema
  // Desugared `take K` / `remove K`: K may be a single integer, which sema
  // then wraps into a one-element list.
  bool amountDomain = false;
};

struct Expr {
  ExprKind kind;
  SourceRange range;
  int64_t value = 0;          // Int
  std::string name;           // Name, Call
  BinOp op = BinOp::Add;      // Binary
  std::vector<ExprPtr> kids;  // operands, elements, call arguments, [list, index]
  // Comprehension: `name` is what it builds ("list", "any", "all", "count",
  // "sum", "min", "max"), kids[0] the element, and the clauses (`for x in D`
  // as Bind, a filter as When) run in order around it.
  std::vector<Clause> clauses;

  // Sema annotations.
  Type type = Type::Unknown;
  RefKind ref = RefKind::None;
  int index = -1;  // local variable id in the enclosing scope, or constant id

  Expr(ExprKind k, SourceRange r) : kind(k), range(r) {}
};

ExprPtr makeInt(int64_t value, SourceRange range);
ExprPtr makeName(std::string name, SourceRange range);
ExprPtr makeBinary(BinOp op, ExprPtr lhs, ExprPtr rhs, SourceRange range);
ExprPtr makeCall(std::string name, std::vector<ExprPtr> args, SourceRange range);
ExprPtr clone(const Expr& expr);

// One term of a successor or position: G(args), 0, or `sum BODY for x in D`.
struct Term {
  enum class Kind : uint8_t { Game, Zero, Sum };
  Kind kind = Kind::Game;
  SourceRange range;
  std::string game;  // Game
  SourceRange gameRange;
  std::vector<ExprPtr> args;  // Game
  std::string var;            // Sum
  SourceRange varRange;
  ExprPtr domain;          // Sum
  std::vector<Term> body;  // Sum
  int gameId = -1;         // sema: resolved game
  int varId = -1;          // sema: the Sum variable
};
using Successor = std::vector<Term>;
Term cloneTerm(const Term& term);

enum class Sugar : uint8_t { None, Take, Split, SplitUnequal, Remove, RemoveNeighbours, Octal };
const char* sugarName(Sugar sugar);

struct Move {
  std::string label;
  SourceRange range;
  std::vector<Clause> clauses;  // a trailing `when` is stored as the last clause
  Successor successor;
  // Sugar lines are parsed into a Move with `sugar` set and `amount` (take and
  // remove); sema replaces their clauses and successor and keeps `sugar` as a
  // record of where the move came from.
  Sugar sugar = Sugar::None;
  ExprPtr amount;
  int octalDigit = -1;                // Octal: the position k of the digit
  int octalBits = 0;                  // Octal: which bit (1, 2, 4; hex 8) this move stands for
  std::vector<int64_t> octalAmounts;  // Octal: the k whose digit has that bit
};

struct Param {
  std::string name;
  bool isList = false;
  SourceRange range;
};

struct LocalVar {
  std::string name;
  Type type = Type::Unknown;
  SourceRange range;
};

// One part of a game's `show` form, which says how a position is printed
// (docs/language.md): a value, printed as a parameter is, or a drawing of
// cells, `board(cells, width[, rows][, "symbols"])` or
// `row(cells[, length][, "symbols"])`.
struct ShowPart {
  enum class Kind : uint8_t { Value, Draw };
  Kind kind = Kind::Value;
  SourceRange range;
  ExprPtr value;              // Value
  std::string name;           // Draw: board, row (sema reports other names)
  std::vector<ExprPtr> args;  // Draw: the arguments before the symbols
  bool hasSymbols = false;    // Draw: a string of symbols was given
  std::string symbols;        // its text, unquoted (one symbol per character)
  SourceRange symbolsRange;
  std::vector<std::string> cellSymbols;  // sema: one per digit value (".#" by default)
};

struct Game {
  std::string name;
  SourceRange range;      // the whole declaration
  SourceRange nameRange;  // the name
  std::vector<Param> params;
  std::optional<Term> normalize;
  SourceRange normalizeRange;
  std::vector<Move> moves;
  std::string octalCode;  // `game G = octal "..."`
  SourceRange octalRange;
  bool isOctal = false;
  bool isHex = false;  // `game G = hex "..."`: octalCode holds a hexadecimal code
  bool loopy = false;  // `loopy game`: positions may repeat (docs/reference.md, "Loopy games")
  std::vector<ShowPart> show;  // empty: positions print their parameters
  SourceRange showRange;
  std::vector<LocalVar> locals;  // sema: params first, then binders and lets
};

struct Statement {
  // TableOf: `table [P for x in D ...]`, a table of the positions a
  // comprehension writes (`position` is P, `clauses` its loops and filters).
  enum class Kind : uint8_t { Game, Const, Import, Eval, Moves, Table, TableOf, Period, Assert };
  Kind kind = Kind::Eval;
  SourceRange range;
  std::unique_ptr<Game> game;  // Game
  std::string name;            // Const name; Table/Period game; Import path or module
  SourceRange nameRange;
  ExprPtr expr;                    // Const
  bool importStd = false;          // Import: `import std.x` rather than "path"
  bool misere = false;             // Eval
  Successor position;              // Eval, Moves, Assert, TableOf
  std::vector<Clause> clauses;     // TableOf: `for x in D` as Bind, a filter as When
  std::vector<ExprPtr> args;       // Table, Period ranges
  bool hasArgs = false;            // Period with `(0..N)`
  bool plot = false;               // Table: `plot G(...)`, drawn where the output can
  int64_t expected = 0;            // Assert: the nimber
  bool comparesPositions = false;  // Assert: `assert P == Q`, two positions of one value
  Successor other;                 // Assert: Q
  // Assert: an infinite value, `inf` (∞(∅)) or `inf(0, 2)` (∞(0,2)), for
  // loopy games (runtime/Loopy.h); sema turns `inf(...)` from a position
  // into this when no game is named `inf`.
  bool expectsInfinite = false;
  std::vector<int64_t> expectedK;
  int gameId = -1;               // sema: Table, Period
  std::vector<LocalVar> locals;  // sema: `sum ... for` (and TableOf's) variables
};

struct Module {
  uint32_t file = 0;
  std::vector<Statement> statements;
};

}  // namespace gdsl::ast
