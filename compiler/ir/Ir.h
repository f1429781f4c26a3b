// The move IR: what both backends run. A game is a list of moves; a move is a
// loop nest of steps (bind a variable to each element of a domain, let, guard)
// whose innermost body emits a successor: a sum of game positions, possibly
// with `sum ... for` terms. Expressions are small typed trees over frame slots
// (one array of integers, one of lists), so a backend can keep every variable
// in a register or a stack slot. Constants are folded into literals and list
// pools before any backend sees the program.
//
// The ops of expressions, with their operands, types and meaning, are the
// table compiler/ir/Ops.def (ir::Op and the questions passes ask about an op:
// compiler/ir/Ops.h). Booleans are integers 0 and 1.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "compiler/ast/Ast.h"
#include "compiler/ir/Ops.h"
#include "compiler/support/Source.h"

namespace gdsl::ir {

enum class Type : uint8_t { Int, Bool, List, ListList };

struct Step;

struct Expr {
  Op op = Op::IntConst;
  Type type = Type::Int;
  int64_t imm = 0;
  std::vector<Expr> kids;
  SourceRange loc;
  // A comprehension's loop nest (binders over ranges or lists, guards),
  // walked in order around kids[0]; its variables are slots of the frame.
  std::vector<Step> steps;
};

// An integer literal (of type `type`: Int, or Bool for 0/1).
Expr literalInt(int64_t v, SourceRange loc, Type type = Type::Int);

// A binder's domain: a range lo..hi (walked without building a list) or any
// list-valued expression (a list of lists binds a list).
struct Domain {
  bool isRange = true;
  Expr lo, hi;  // isRange
  Expr list;    // otherwise
};

struct Step {
  enum class Kind : uint8_t { Bind, Let, Guard };
  Kind kind = Kind::Bind;
  Type type = Type::Int;  // of the bound variable
  int slot = -1;          // in the int or list frame, by type
  std::string name;
  Domain domain;  // Bind
  Expr value;     // Let value, Guard condition
  SourceRange loc;
};

// The expressions of a step (a binder's bounds or list, a let's value, a
// guard's condition; the unused ones are int literals), for passes that walk
// every expression, a comprehension's loops included.
inline std::array<const Expr*, 4> exprsOf(const Step& s) {
  return {&s.value, &s.domain.lo, &s.domain.hi, &s.domain.list};
}
inline std::array<Expr*, 4> exprsOf(Step& s) {
  return {&s.value, &s.domain.lo, &s.domain.hi, &s.domain.list};
}

// Whether `pred` holds for `e` or for any expression inside it, a
// comprehension's loops included.
template <typename Pred>
bool anyNode(const Expr& e, Pred&& pred) {
  if (pred(e)) return true;
  for (const Expr& k : e.kids)
    if (anyNode(k, pred)) return true;
  for (const Step& s : e.steps)
    for (const Expr* k : exprsOf(s))
      if (anyNode(*k, pred)) return true;
  return false;
}

// Whether evaluating `e` can raise no runtime error: every op in it cannot
// fail (ir::cannotFail), so there is no arithmetic that can overflow or divide
// by zero, no index, no range.
bool neverFails(const Expr& e);

// Whether `e` reads one of the int slots in `slots` (in a comprehension too).
bool readsIntSlot(const Expr& e, const std::set<int>& slots);

// Calls f(i, j) for each comparator of Batcher's odd-even merge network that
// sorts n numbers (the smaller goes to i < j). A comparator past the end is
// left out: it would compare with a number larger than all, and move nothing.
template <typename F>
void forEachSortComparator(size_t n, F&& f) {
  for (size_t p = 1; p < n; p <<= 1)
    for (size_t k = p; k >= 1; k >>= 1)
      for (size_t j = k % p; j + k < n; j += 2 * k)
        for (size_t i = 0; i < k && i + j + k < n; ++i)
          if ((i + j) / (2 * p) == (i + j + k) / (2 * p)) f(i + j, i + j + k);
}

struct Term {
  enum class Kind : uint8_t { Position, SumFor };
  Kind kind = Kind::Position;
  int game = -1;           // Position
  std::vector<Expr> args;  // Position: one per parameter
  Step binder;             // SumFor: a Bind step
  std::vector<Term> body;  // SumFor
  SourceRange loc;
};

struct Move {
  std::string label;
  SourceRange loc;
  std::vector<Step> steps;
  std::vector<Term> successor;  // empty: the move ends the game
  // Where the move came from: take-and-break analysis reads these.
  ast::Sugar sugar = ast::Sugar::None;
  std::optional<Expr> amount;         // take/remove K
  int octalDigits = 0;                // octal: the number of digits after the point
  int octalBit = 0;                   // octal: the digit bit (1, 2, 4; hex 8) this move stands for
  std::vector<int64_t> octalAmounts;  // octal: the k whose digit has that bit
};

// The moves of a take-and-break game, as octal digits say them: from heap n,
// take k tokens and leave no heap (n == k), one heap (n - k >= 1), or two
// heaps a + b = n - k with 1 <= a <= b (a < b for `split unequal`). The
// option values are 0, g(n - k) and g(a) ^ g(b). Each list is sorted.
//
// A split written as a `move` rule with a condition on its parts (found by
// runtime/ShapeProbe.cpp, never by the compiler) is a SplitRule: remove k,
// leave a <= b with a + b = n - k, a >= minPart, a <= maxPart, b - a >=
// minDiff, and the parts' parities among `parities` (bit 0: both even, bit
// 1: one odd, bit 2: both odd).
struct SplitRule {
  int64_t k = 0;
  int64_t minPart = 1;
  int64_t maxPart = INT64_MAX;
  int64_t minDiff = 0;
  uint8_t parities = 7;
  static constexpr uint8_t parityBit(int64_t a, int64_t b) {
    return static_cast<uint8_t>(1u << ((a & 1) + (b & 1)));
  }
  bool allows(int64_t a, int64_t b) const {
    return a >= minPart && a <= maxPart && b - a >= minDiff && (parities & parityBit(a, b)) != 0;
  }
  bool operator==(const SplitRule&) const = default;
};
struct TakeBreakShape {
  std::vector<int64_t> whole;
  std::vector<int64_t> one;
  std::vector<int64_t> two;
  std::vector<int64_t> twoUnequal;
  std::vector<int64_t> three;       // three non-empty heaps (a hexadecimal digit's bit 8)
  std::vector<SplitRule> twoWhere;  // two heaps under conditions, by k
  // Amounts without bound (recognised in `move` rules: runtime/ShapeProbe.cpp),
  // 0 where there are none: every k >= oneFrom that leaves a heap (n - k >= 1)
  // is a move, and every heap n >= wholeFrom may be taken whole. The lists
  // above hold the amounts below them.
  int64_t oneFrom = 0;
  int64_t wholeFrom = 0;
  int64_t maxTake = 0;  // the largest amount in the lists
  bool unbounded() const { return oneFrom > 0 || wholeFrom > 0; }
  // The t of the proofs (Guy-Smith's, the arithmetic check's): from this
  // heap size on, every heap has every kind of move the shape names.
  int64_t proofTake() const { return std::max({maxTake, oneFrom, wholeFrom}); }
};

// The symmetries of a board (compiler/ir/CellSymmetry.cpp): its cells laid
// out in rows of `width` (cell c at column c % width, row c / width), and the
// orientations (of the 8 turns and reflections of the plane) under which,
// with any shift that keeps it on the board, a part of the board is a game
// with the same moves: so a part and its image have the same value, and
// runtime/Components.h memoizes each part under its least image. For
// orientation k, cell c goes to column x[64 k + c] and row y[64 k + c]
// (before the shift). No orientations: the board has no such symmetry.
struct CellGrid {
  int width = 0, height = 0;
  uint64_t cells = 0;  // the board: every cell a move reads or changes
  int orientations = 0;
  std::vector<uint8_t> kinds;  // each orientation's number (CellSymmetry.cpp), 0 first
  std::vector<int8_t> x, y;
};

// Bit-parallel indexes of a board's moves and symmetries
// (compiler/ir/CellIndex.cpp), read by runtime/Components.h: the same parts
// and images as the per-cell walks over CellMoves and CellGrid, found a word
// at a time.
//
// A family: the moves of one shape, each needing cells anchor + need[i] and
// reading cells anchor + span[i], its anchor the lowest cell it reads; one
// bit of `anchors` per move.
struct CellFamily {
  uint64_t anchors = 0;
  uint8_t needCount = 0, spanCount = 0;
  std::array<uint8_t, 8> need{}, span{};
};
struct CellIndex {
  // Every move in one family; empty when the moves have too many shapes
  // (more than kMaxFamilies, or one needing or reading more than 8 cells).
  std::vector<CellFamily> families;
  static constexpr size_t kMaxFamilies = 16;
  // A move written twice (the same cells needed and read: one anchor of a
  // family for both): the families give the parts, not the number of moves.
  bool repeatedMoves = false;
  // Every move reads exactly two cells (every family's span is two cells:
  // dominoes, in any orientation): parts grow by a family's pairs at once
  // (runtime/Components.h).
  bool pairFamilies = false;
  // images[(16 k + j) * 16 + v]: the cells v of nibble j (cells 4j..4j+3)
  // turned by orientation k of the grid, laid out in rows of frames[k] cells
  // (the board turned spans frames[k] columns; a quarter turn of a board
  // that is not square has other rows than the grid's), shifted to start
  // at column 0 and row 0; empty when a turned board spans more than 64
  // cells.
  std::vector<uint64_t> images;
  std::vector<uint8_t> frames;
  // For the orientations that keep rows as rows (the reflections and the
  // half turn), whose images runtime/Components.h finds by shifts instead:
  // each cell's row in the grid, and the cells of its column 0 (set with
  // `images`).
  std::array<uint8_t, 64> rowOf{};
  uint64_t firstColumn = 0;
};

// The moves of a game over a set of cells (its one parameter, bits 0..62),
// one per binding of its rules' variables: move i is legal when every cell of
// require[i] is set, and leaves the set without the cells of clear[i] (which
// holds a required cell, so every move shrinks the set). A legal move reads
// and changes only the cells of support[i] = require[i] | clear[i], so a set
// is the sum of its components: the classes of cells linked by the supports
// of legal moves (runtime/Components.h). The moves whose support holds cell
// c are touching[touchStart[c] .. touchStart[c + 1]). A board with a cell
// outside `safe` (one whose moves fail, `v in bits(b)` over a list too short)
// is valued whole, so it fails as before.
struct CellMoves {
  std::vector<uint64_t> require, clear, support;
  uint64_t safe = (uint64_t{1} << 63) - 1;
  std::vector<uint32_t> touchStart;  // 64 + 1 entries
  std::vector<uint32_t> touching;
  CellGrid grid;
  CellIndex index;
};

struct Param {
  std::string name;
  Type type = Type::Int;
  int slot = -1;
};

// A part of a game's `show` form (ast::ShowPart), read only to print
// positions: the backends never run it, and fingerprints leave it out (it
// changes no value). Its expressions read the parameters' slots.
struct ShowPart {
  bool draw = false;                 // false: a value, printed as a parameter is
  std::string name;                  // draw: board or row, for messages
  Expr cells;                        // the value, or the cells (an integer's digits, a list)
  std::optional<Expr> width;         // board; none for a row
  std::optional<Expr> size;          // the fewest rows (board) or cells (row) of an integer
  std::vector<std::string> symbols;  // one per digit value
  SourceRange loc;
};

struct Game {
  std::string name;
  SourceRange loc;
  std::vector<Param> params;
  std::optional<std::vector<Expr>> normalize;  // one expression per parameter
  SourceRange normalizeLoc;
  std::vector<Move> moves;
  int intSlots = 0;
  int listSlots = 0;
  // Set when every move is a take-and-break rule (octal codes, take/remove of
  // constant amounts, split, split unequal): the engine then computes values
  // from the shape alone, with sparse space (compiler/ir/TakeBreak.cpp).
  std::optional<TakeBreakShape> takeBreak;
  // Declared `loopy game`: its positions may repeat, and values are the
  // generalized Sprague-Grundy function (runtime/Loopy.h). Such a game keeps
  // its plain rules: no take-and-break shape, set of bits or board is looked
  // for (compiler/ir/Pipeline.cpp).
  bool loopy = false;
  // Set when, in addition, no rule needs unequal parts: periods are then
  // proved by the Guy-Smith theorem, with at most `t` tokens removed.
  std::optional<int64_t> takeBreakBound;
  // The most heaps a move leaves: 2, or 3 with three-heap splits (the proof
  // needs more heaps then: runtime/Period.h).
  int takeBreakParts = 2;
  // For a one-heap game of `move` rules built from affine expressions only
  // (compiler/ir/TakeBreak.cpp): the engine may recognise a take-and-break
  // shape by comparing the rules' moves on heaps 0..shapeProbeHeaps with it.
  std::optional<int64_t> shapeProbeHeaps;
  // For a one-heap game with neither: what rules out a take-and-break shape
  // (`--verbose` says it beside the game's table); empty when nothing does.
  std::string notTakeBreak;
  // A one-heap game whose successors are computed from its parameter with
  // & | ^ << >> (compiler/ir/BitSets.cpp): the parameter is a set of flags,
  // and the engine searches the game instead of tabling every smaller value.
  bool bitSet = false;
  // A game over several integers whose every move passes all of them but one
  // on unchanged, and computes that one with & | ^ << >> (BitSets.cpp): that
  // parameter (its index here) is a board, and the others are constant within
  // a search (a board's width and height, `G(w, h, b)`). The engine finds the
  // cell moves for each set of those values it meets (findCellMoves,
  // compiler/ir/CellMoves.h). -1: not such a game.
  int boardParam = -1;
  // A set of bits whose every move needs some cells set and clears some of
  // them (compiler/ir/CellMoves.cpp): its positions are valued as sums of
  // their components.
  std::optional<CellMoves> cells;
  // A set of bits that is not such a board: why not (for --verbose).
  std::string notCells;
  // How positions print (text output, play); empty: their parameters.
  std::vector<ShowPart> show;
  // A game over one list: the integer game that stands for its positions of
  // each length (byLength[L], -1 for none; compiler/ir/SpecializeLists.cpp).
  std::vector<int> byLength;
  // Such an integer game: the list game (listOf) and the length it stands for.
  int listOf = -1;
  int64_t listLength = 0;
  // Whether the user declared it (not a game derived from one).
  bool declared() const { return listOf < 0; }
  bool oneHeap() const { return params.size() == 1 && params[0].type == Type::Int; }
};

// A position written in a statement: a sum of terms over constants and
// `sum ... for` variables.
struct PositionExpr {
  std::vector<Term> terms;
  int intSlots = 0;
  int listSlots = 0;
};

struct TableArg {
  bool isRange = false;
  Expr lo, hi;       // for a fixed parameter, lo is its value
  int slot = -1;     // a named range `b in 0..a`: its variable, which later arguments read
  std::string text;  // the argument as written (`b in 0..a`), for titles
};

struct Statement {
  // TableOf: `table [P for x in D ...]`, the value of each position P that
  // the loops `steps` write, in order.
  enum class Kind : uint8_t { Eval, EvalMisere, Moves, Table, TableOf, Period, Assert };
  Kind kind = Kind::Eval;
  SourceRange loc;
  PositionExpr position;    // Eval, EvalMisere, Moves, Assert, TableOf
  std::vector<Step> steps;  // TableOf: binders, lets and guards, walked in order around P
  std::string text;         // TableOf: the comprehension as written, for the title
  int game = -1;            // Table, Period
  bool plot = false;        // Table: `plot G(...)`, drawn where the output can draw
  std::vector<TableArg> table;
  std::optional<Expr> periodMax;
  int64_t expected = 0;  // Assert
  // Assert: an infinite value ∞(expectedK) (ast::Statement::expectsInfinite).
  bool expectsInfinite = false;
  std::vector<int64_t> expectedK;
  // Assert `P == Q`: Q, whose value P must have (its variables in the same frame).
  std::optional<PositionExpr> other;
};

struct Constant {
  std::string name;
  Type type = Type::Int;
  Expr init;
  SourceRange loc;
  int intSlots = 0;  // the variables of comprehensions in `init`
  int listSlots = 0;
};

struct Program {
  std::vector<Game> games;
  std::vector<Constant> constants;
  std::vector<std::vector<int64_t>> lists;  // ListConst pool
  std::vector<std::vector<int>> nested;     // NestedConst pool: indices into `lists`
  std::vector<Statement> statements;        // of the main file, in order
  int findGame(const std::string& name) const;
  // How messages name game `g`: its name, or for an integer game standing
  // for a list game's positions of one length, `M (lists of 4)`.
  std::string displayName(int g) const;
};

Type fromAst(ast::Type type);

}  // namespace gdsl::ir
