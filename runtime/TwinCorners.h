// Twin corners of a two-cell placement game (every move clears exactly the
// two cells it needs, as in Cram: the game is Arc Kayles on the graph whose
// edges are the moves): a rule that cuts a part into pieces that are worth,
// together, what the part is, where the moves alone do not split it.
//
// The rule. Let a and b be cells of a part, each with exactly two legal
// moves, both to the same two cells r and l (a 2 x 2 block of Cram whose
// corners a and b have no other free neighbour). Then the part is worth
// what the same game without the moves a-r and b-l is worth. Proof, by
// induction, for Arc Kayles on any graph H with such a, b, r, l, and H' =
// H - {ar, bl}: the options of both by an edge away from a, b, r, l keep
// the pattern (induction); by an edge through r but not a, b (or through l),
// a and b are both left hanging on l in H, one of them in H', and two
// cells hanging on one cell are worth one (runtime/DominatedCells.h); a-l
// and b-r are options of both, to the same graph; and H's two options more,
// a-r and b-l, are worth what H' - b-r and H' - a-l are (a cell hanging on l,
// or on r, beside the same rest). So the options' values are the same sets.
//
// Cut so, a part often falls into two pieces, {a, l, ...} and {b, r, ...};
// each is a position of the game (no cut move lies inside a piece but with
// its whole pattern, where the rule holds again), so the part is the xor of
// the pieces. Patterns used together share no cell, so each holds on the
// graph the others left.
#pragma once

#include <cstdint>

#include "compiler/ir/Ir.h"

namespace gdsl {

class TwinCorners {
 public:
  explicit TwinCorners(const ir::CellMoves& moves);
  // Whether every move clears exactly the two cells it needs.
  bool applies() const { return applies_; }
  // Cuts `part` (a component, every cell on a legal move) by the twin
  // corners it has: its pieces into `out` (room for 32), and their number;
  // 0 when it does not fall apart.
  int pieces(uint64_t part, uint64_t* out) const;

 private:
  const ir::CellMoves& moves_;
  bool applies_ = false;
  // partners_[c]: the cells that share a move with cell c, as a set.
  uint64_t partners_[64] = {};
};

}  // namespace gdsl
