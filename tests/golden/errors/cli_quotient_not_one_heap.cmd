// A quotient is computed for a game of one heap: one integer parameter.
quotient {case} Two # exit 2
