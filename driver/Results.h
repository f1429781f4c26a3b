// The results of statements, as data: the runner produces them and an Output
// prints them as text or as JSON Lines (docs/reference.md sections 8.4 and 8.5).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "compiler/support/Diagnostics.h"
#include "runtime/Loopy.h"
#include "runtime/NimTable.h"
#include "runtime/Period.h"

namespace gdsl {

struct MoveText {
  std::string label;   // take(k=1)
  std::string from;    // the component moved in: Sub(5)
  std::string to;      // what it becomes: Sub(4) (or 0)
  std::string result;  // the whole position after the move
  // The same by the games' show forms; "" when no game in it has one.
  std::string fromShown, toShown, resultShown;
  uint64_t grundy = 0;  // value of `result`
  bool winning = false;
  // With a loopy game: the value of `result` (`grundy` holds it when it is a
  // number), and whether the move keeps a draw.
  std::optional<LoopyValue> loopy;
  bool drawing = false;
};

struct EvalResult {
  std::string position;
  std::string shown;  // by the games' show forms; "" when none has one
  uint64_t grundy = 0;
  std::optional<MoveText> move;
  // Nonzero when the search for a winning move stopped after this many moves
  // without one (Runner::kWinningMoveSearch): `move` is then empty.
  uint64_t moveSearchStopped = 0;
  // A sum with a position of a loopy game: its value (a number, then also
  // in `grundy`, or infinite), and for a draw, the move that keeps it
  // (`move` is then empty).
  std::optional<LoopyValue> loopy;
  std::optional<MoveText> drawingMove;
};

struct MisereResult {
  std::string position;
  std::string shown;  // by the games' show forms; "" when none has one
  bool firstPlayerWins = false;
  std::optional<MoveText> move;
};

struct MovesResult {
  std::string position;
  std::string shown;  // by the games' show forms; "" when none has one
  uint64_t grundy = 0;
  std::vector<MoveText> moves;      // winning moves first
  std::optional<LoopyValue> loopy;  // with a loopy game: the value (see EvalResult)
};

struct TableResult {
  std::string game;
  std::string title;                                // Sub(0..10)
  std::vector<std::pair<int64_t, int64_t>> ranges;  // the ranged parameters: one or two
  std::vector<std::pair<int64_t, int64_t>> params;  // every parameter (fixed: lo == hi)
  std::vector<std::string> names;                   // every parameter's name
  std::vector<NimTable> rows;  // one row for one range; 16 bits per value when they fit
  // A one-heap table's game with a proved period (or arithmetic period) by the
  // time the table is done: written in the JSON line.
  std::optional<PeriodInfo> period;
  // A loopy game's table (runtime/Loopy.h): per row, the cells (by index in
  // the row) whose value is infinite; `rows` holds 0 there.
  std::vector<std::map<int64_t, LoopyValue>> infinite;
  // The infinite value of cell `i` of row `row`, or null for a number.
  const LoopyValue* infiniteAt(size_t row, int64_t i) const {
    if (row >= infinite.size()) return nullptr;
    auto it = infinite[row].find(i);
    return it == infinite[row].end() ? nullptr : &it->second;
  }
  // A table over more than two ranges, or whose bounds read the ranges before
  // them (`table Chomp(a in 1..9, b in 0..a, c in 0..b)`): every position in
  // order, each with its value; `rows` is then empty.
  bool listed = false;
  std::vector<std::string> argTexts;  // each argument as written, for the title
  std::vector<std::vector<int64_t>> positions;
  std::vector<uint64_t> values;
  size_t lastRange = 0;  // the index of the last ranged parameter
  // `table [P for ...]`: each position as text (positionShown: by the games'
  // show forms, "" when none has one), with `values`; `game` is P's game
  // when P is one game's position, else "". `rows`, `ranges` and `params`
  // are then empty.
  bool ofPositions = false;
  std::vector<std::string> positionTexts, positionShown;
};

struct PeriodResult {
  std::string game;
  std::optional<PeriodInfo> period;
  int64_t checkedTo = 0;
};

class Output {
 public:
  virtual ~Output() = default;
  virtual void eval(const EvalResult& r) = 0;
  virtual void misere(const MisereResult& r) = 0;
  virtual void moves(const MovesResult& r) = 0;
  virtual void table(const TableResult& r) = 0;
  // `plot G(...)`: the table drawn (driver/Plot.h) where the output can show
  // a picture (a notebook); as the table elsewhere.
  virtual void plot(const TableResult& r) { table(r); }
  virtual void period(const PeriodResult& r) = 0;
  virtual void assertion(bool ok) = 0;
  virtual void error(const Diagnostic& d) = 0;
};

}  // namespace gdsl
