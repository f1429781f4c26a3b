// Dominated cells of a placement game (a game over cells whose every move
// clears exactly the cells it needs, such as Cram): cells that may be left
// out of a part without changing its value, so that the pruning search
// (runtime/CellSearch.h) searches a smaller part, often in pieces.
//
// The rule. A cell c of a part p is dominated when each move m legal on p
// through c has a swap: a cell t of p outside m such that m - c + t is a
// move, and every move legal on p through t meets m. Then p and p - c are
// worth the same. Proof, by induction on p: an option p - m' of p with c
// outside m' is an option of p - c too, and c is still dominated on it (a
// move legal there through c is legal on p, its swap t is not in m', since
// every move through t meets that move and m' does not, and t's moves on
// p - m' are among those on p); an option p - m through c is worth what
// the option p - c - (m - c + t) of p - c is worth, since t is dead on
// p - m (no legal move left through it) and dead cells change nothing.
// In Cram this is a cell with two free neighbours that each have a
// one-neighbour cell (a tuft) of their own, or the second tuft of a cell.
//
// Where it is looked for: the swaps of dominated cells are, in practice,
// tufts (cells with one legal move), so only cells whose every legal move
// lies within the tufts' moves are checked (a word at a time through the
// move families, ir::CellIndex); a part with no tuft is left as it is.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/ir/Ir.h"

namespace gdsl {

class DominatedCells {
 public:
  explicit DominatedCells(const ir::CellMoves& moves);
  // Whether the moves are a placement game's (else reduced is not to be called).
  bool applies() const { return applies_; }
  // `part` without its dominated cells, until none is left (it may then
  // fall into several parts).
  uint64_t reduced(uint64_t part) const;

 private:
  bool dominated(unsigned cell, uint64_t part) const;
  // The cells of `part` worth checking (see above).
  uint64_t candidates(uint64_t part) const;

  const ir::CellMoves& moves_;
  bool applies_ = false;
  // For move i and its k-th cell (lowest first), the cells t that make
  // move i with that cell swapped for t a move: swapCells_[from, to) with
  // from = swapStart_[swapIndex_[i] + k] and to the next entry.
  std::vector<uint32_t> swapIndex_, swapStart_;
  std::vector<uint8_t> swapCells_;
};

}  // namespace gdsl
