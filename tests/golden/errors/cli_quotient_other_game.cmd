// A quotient needs every move of a heap to leave heaps of the same game.
quotient {case} Mixed # exit 1
