// `gdsl play FILE POS`: a game against the computer on the terminal. The
// position and its numbered moves are shown; the player types a number, or
// `hint` (the value and the winning moves), `undo` (take back the last pair of
// moves), `moves` or `quit`. The computer moves to a P-position when it can,
// otherwise at random. Normal play by default; misère with `misere`.
#pragma once

#include <cstdint>
#include <iosfwd>

#include "driver/Stack.h"

namespace gdsl {

struct PlayOptions {
  bool misere = false;         // the player who makes the last move loses
  bool computerFirst = false;  // the computer makes the first move
  uint64_t seed = 0;           // for the computer's random moves
};

// Plays `start` on a started stack with moves read from `in` until the game
// ends or the player quits (or `in` ends). Errors of the game's rules are
// thrown as RuntimeError.
void play(Stack& stack, const Sum& start, const PlayOptions& options, std::istream& in,
          std::ostream& out);

}  // namespace gdsl
